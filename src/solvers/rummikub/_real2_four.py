"""Two real tiles per set with four jokers: the joker combinations and the transition.

With four jokers up to four runs hold a joker and fewer than two real tiles at once; the
DP lists them in four slots, all in the second key word (:func:`solvers.rummikub._real2.
short_list4`: three from :data:`~solvers.rummikub._layout.SHORT_HIGH_AT`, the fourth at
:data:`~solvers.rummikub._layout.SHORT_FOURTH_AT`), with :func:`solvers.rummikub._real2.
short_kinds3`'s kinds: a run of four jokers alone is listed as one of three (length 3+,
no real tile: both need two real tiles next and nothing else).  Its colour codes are
numbered by length class (six or seven open runs a colour, two or three copies), as
:func:`solvers.rummikub._real2.long_joker_runs3`'s, so :func:`long_joker_runs4` is that
transition with one more target: a joker to a run of three (or four) jokers alone.

The combinations.  At one colour and number ``jr`` jokers (0..4) go to the targets of
:func:`solvers.rummikub._real2.joker_runs3` (0 new run, 1 one real tile, 2 harmless, 3 one
joker, 4 a joker and a real tile, 5 two jokers, 6 one real tile and length 3+) or 7, a run
of three or four jokers alone.  A listed target holds jokers placed before (1, 1, 2, 2, 3
for targets 3-7), so only the multisets whose targets' jokers and ``jr`` fit in four are
kept: 67 of them.  The DP records a combination as its *code* (one more, times
:data:`solvers.rummikub._frame.CHOICE_BASE`, in an int16 choice; the replay reads it modulo
:data:`~solvers.rummikub._frame.MELD_CHOICES`, so codes stay below 33): the three-joker
combinations keep their numbers (0-32) and the others take the codes that their count of
jokers ``jr`` leaves free (the choice records ``jr`` too), so :data:`COMBO_COUNTS` ``[jr,
code]`` gives the replay (:func:`solvers.rummikub._melds._runs_two_real`) its targets for
every pass.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np
from numba import njit

from solvers.rummikub._frame import CHOICE_BASE, MELD_CHOICES
from solvers.rummikub._real2 import (
    COMBO3_FIRST,
    COMBO3_ORDER,
    COMBO_T1,
    COMBO_T2,
    COMBO_T3,
    listed_step,
)

TARGETS = 8
CODES = MELD_CHOICES // CHOICE_BASE - 1  # (a code + 1, times CHOICE_BASE, below MELD_CHOICES)
# the jokers a run of each target holds already (a listed run: at least one)
_HELD = (0, 0, 0, 1, 1, 2, 2, 3)


def _three_joker_combos() -> dict[tuple[int, ...], int]:
    """The combinations of :mod:`solvers.rummikub._real2` (up to three jokers): their
    sorted targets -> number."""
    out = {}
    for i in range(COMBO_T1.shape[0]):
        out[tuple(sorted(int(t) for t in (COMBO_T1[i], COMBO_T2[i], COMBO_T3[i]) if t >= 0))] = i
    return out


def _four_joker_tables():
    """``(first, counts, codes, decode)``: combinations ``first[jr] .. first[jr+1]-1`` place
    ``jr`` jokers, ``counts[pick]`` per target, recorded as ``codes[pick]``; ``decode[jr,
    code]``: the counts per target of every code (the three-joker passes' too)."""
    known = _three_joker_combos()
    first, counts, codes = [0], [], []
    decode = np.zeros((5, CODES, TARGETS), np.int64)
    for targets, code in known.items():
        for t in targets:
            decode[len(targets), code, t] += 1
    for jr in range(5):
        fresh = iter(code for code in range(CODES) if not decode[jr, code].any())
        order = [tuple(sorted(int(t) for t in (COMBO_T1[i], COMBO_T2[i], COMBO_T3[i])
                              if t >= 0)) for i in COMBO3_ORDER[COMBO3_FIRST[jr]:COMBO3_FIRST[
                                  jr + 1]]] if jr < 4 else []
        order += [m for m in combinations_with_replacement(range(TARGETS), jr)
                  if sum(_HELD[t] for t in m) + jr <= 4 and m not in known]
        for m in order:
            if m in known:
                code = known[m]
            else:
                code = next(fresh)
                for t in m:
                    decode[jr, code, t] += 1
            counts.append([m.count(t) for t in range(TARGETS)])
            codes.append(code)
        first.append(len(codes))
    return (np.array(first, np.int64), np.array(counts, np.int64), np.array(codes, np.int64),
            decode)


COMBO4_FIRST, COMBO4_COUNTS, COMBO4_CODES, COMBO_COUNTS = _four_joker_tables()
# the most combinations of one count of jokers (the sub-step's room per parent)
COMBO4_MOST = int(np.diff(COMBO4_FIRST).max())


def _pick_masks():
    """``(at_most, harmless)``: bit ``pick - COMBO4_FIRST[jr]`` of ``at_most[jr, target,
    n]`` is set when combination ``pick`` of ``jr`` jokers gives target ``target`` at most
    ``n`` (0-4) jokers, of ``harmless[jr, n]`` when it gives exactly ``n`` to harmless runs
    (target 2)."""
    at_most = np.zeros((5, TARGETS, 5), np.int64)
    harmless = np.zeros((5, 5), np.int64)
    for jr in range(5):
        for pick in range(COMBO4_FIRST[jr], COMBO4_FIRST[jr + 1]):
            bit = np.int64(1) << (pick - COMBO4_FIRST[jr])
            harmless[jr, COMBO4_COUNTS[pick, 2]] |= bit
            for target in range(TARGETS):
                at_most[jr, target, COMBO4_COUNTS[pick, target]:] |= bit
    return at_most, harmless


PICKS_AT_MOST, PICKS_HARMLESS = _pick_masks()


@njit(cache=True, error_model="numpy", inline="always")
def combo4_picks(jr, t, code, e10, e21, e20, e31, e30, digits):
    """The combinations of ``jr`` jokers that :func:`solvers.rummikub._real2.listed_step`'s
    first test lets through (``t`` run tiles, colour code ``code``, its listed runs by kind),
    as bits from ``COMBO4_FIRST[jr]``, so the sub-step skips the others without a call
    (the order kept: same answers).  The jokers that can go to harmless runs all go there
    (``min(jr, harmless)`` of them, listed_step's rule); no target gets more jokers than it
    has runs."""
    a1 = digits[code, 0]
    listed = e10 + e21 + e20 + e31 + e30
    free = t - a1 - digits[code, 1] - listed
    if free < 0:
        return np.int64(0)
    k3 = min(digits[code, 2], free)
    new = free - k3
    harmless = digits[code, 1] + k3
    at_most = PICKS_AT_MOST[jr]
    return (PICKS_HARMLESS[jr, min(jr, harmless)] & at_most[0, min(new, 4)]
            & at_most[1, min(a1, 4)] & at_most[3, e10] & at_most[4, e21] & at_most[5, e20]
            & at_most[6, e31] & at_most[7, e30])


@njit(cache=True, error_model="numpy", inline="always")
def long_joker_runs4(pick, jr, t, code, e10, e21, e20, e31, e30, keep, c, jl, real, v, nnum,
                     digits, binom, counts):
    """:func:`solvers.rummikub._real2.long_joker_runs3` with four jokers: combination
    ``pick`` (``COMBO4_COUNTS``) may also give a joker to a run of three or four jokers
    alone (it stays listed as one, ``e30``), and the list has four slots
    (:func:`solvers.rummikub._real2.listed_step`).  Returns ``(code, list, need)``."""
    x = COMBO4_COUNTS[pick]
    return listed_step(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], jr, t, code, e10, e21,
                       e20, e31, e30, keep, c, jl, real, v, nnum, digits, binom, counts)
