"""Meld then continue: one colour's run options at one number, in either arrangement.

The two-arrangement pass (:mod:`solvers.rummikub._continue`) asks, for the final arrangement
and for the meld alike, which colour codes (and lists of runs short of real tiles) ``t`` run
tiles of a colour can lead to (:func:`run_options`), and makes room per parent for every
option (:func:`joker_choices`).

Two real tiles per set over length classes (sets of 2, 4+): the runs short of real tiles
are listed apart as for sets of 3 (the key's ``SHORT_AT`` bits) and each joker combination
moves them between the list and the classes as the melded DP does
(:func:`solvers.rummikub._real2.long_joker_runs`); a completed meld continues its short
and listed runs only (each run of the list needs its real tiles as any short run needs
its length).
"""

from __future__ import annotations

from numba import njit

from solvers.rummikub._lengths import bare_step, length_step, triple_step
from solvers.rummikub._real2 import COMBO_FIRST, joker_runs, long_joker_runs, short_kinds


@njit(cache=True, inline="always")
def run_options(code, short_key, c, t, jr, jl, real_next, real_next2, v, nnum, done, real2,
                buf, lengths, counts, ju=0, triple=False):
    """One colour's runs after ``t`` run tiles (``jr`` of them jokers) at number v+1, as in
    ``_dp._sub_step``: rows of ``buf`` (new code, jokers its short runs need at number+1
    and number+2, the list of runs short of real tiles, the joker combination + 1); returns
    how many.  ``done``: a completed meld (its long runs end, no run opens); ``real2``: two
    real tiles per set (the list of short joker runs, ``_real2.joker_runs``; over length
    classes ``_real2.long_joker_runs``, ``counts`` its scratch of L); ``lengths``: sets of
    2, 4 or more tiles at least (``_lengths.length_step``'s digits, binom and tiles; empty
    tables: sets of 3; sets of 2 with one real tile per set: the runs of jokers alone in
    ``short_key``, ``_lengths.bare_step``); ``triple``: three jokers, ``short_key`` the run
    of them alone (``_lengths.triple_step``, ``ju`` jokers placed before), which a
    completed meld still continues with a real tile at length 3."""
    digits, binom, real = lengths
    if digits.shape[0] > 0 and real2:
        return _listed_options(code, short_key, c, t, jr, jl, v, nnum, done, buf, digits,
                               binom, real, counts)
    if digits.shape[0] > 0:
        pairs = digits.shape[1] == 2
        short = 0
        for i in range(digits.shape[1] - 1):
            short += digits[code, i]
        if pairs and (short_key >> (2 * c)) & 3 == 3:
            short += 1  # the run of both jokers continues (with a real tile) even when done
        # (three jokers over numbered codes: a completed meld continues its candidate of
        # length 3, a long run, with a real tile)
        alone = 1 if triple and short_key == (c << 2 | 3) else 0
        if done and t != short + alone:
            return 0
        ncode, need = length_step(code, t, jl, real, c, v, nnum, digits, binom)
        if ncode < 0:
            return 0
        bare = 0
        if pairs:
            bare = bare_step(short_key, code, t, t - jr, c, v, nnum, real, digits)
            if bare < 0:
                return 0
        elif triple:  # (sets of 3, six open runs a colour: three copies and three jokers)
            k3 = min(digits[code, 2], t - short)
            bare = triple_step(short_key, c, ju, t - jr, jr, t - short - k3, k3)
            if bare < 0:
                return 0
        buf[0, 0] = ncode
        buf[0, 1] = need
        buf[0, 2] = bare
        buf[0, 3] = 0
        return 1
    a1 = code % 5
    a2 = (code // 5) % 5
    a3 = code // 25
    e10 = e21 = e20 = e31 = keep = 0
    if real2:
        e10, e21, e20, e31, keep = short_kinds(short_key, c)
    md = e10 + e21 + e20 + e31
    alone = 1 if triple and short_key == (c << 2 | 3) else 0
    if t < a1 + a2 + md or (done and t != a1 + a2 + md + alone):
        return 0
    k3 = alone if done else min(a3, t - a1 - a2 - md)
    new = t - a1 - a2 - md - k3
    avail = jl + real_next
    if v + 1 >= nnum:
        avail = 0
    if new + a1 > avail:
        return 0
    if new > 0 and (v + 2 >= nnum or new > real_next2 + jl):
        return 0
    need = max(0, new + a1 - real_next) + max(0, new - real_next2)
    if not real2:
        buf[0, 0] = new + 5 * a1 + 25 * min(a2 + k3, avail - new - a1)
        buf[0, 1] = need
        buf[0, 2] = triple_step(short_key, c, ju, t - jr, jr, new, k3) if triple else 0
        buf[0, 3] = 0
        return 1 if buf[0, 2] >= 0 else 0
    n = 0
    for combo in range(COMBO_FIRST[jr], COMBO_FIRST[jr + 1]):
        code, short = joker_runs(combo, jr, new, a1, a2, k3, e10, e21, e20, e31, keep, c,
                                 avail)
        if short < 0:
            continue
        buf[n, 0] = code
        buf[n, 1] = need
        buf[n, 2] = short
        buf[n, 3] = combo + 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _listed_options(code, short_key, c, t, jr, jl, v, nnum, done, buf, digits, binom, real,
                    counts):
    """:func:`run_options` under two real tiles per set over length classes: each joker
    combination of ``_real2.long_joker_runs`` (its ``need`` per combination, a lower bound
    as in the melded DP).  A completed meld places exactly its short runs' and listed runs'
    tiles (no long run continues, none opens)."""
    e10, e21, e20, e31, keep = short_kinds(short_key, c)
    if done:
        short = e10 + e21 + e20 + e31
        for i in range(digits.shape[1] - 1):
            short += digits[code, i]
        if t != short:
            return 0
    n = 0
    for combo in range(COMBO_FIRST[jr], COMBO_FIRST[jr + 1]):
        ncode, listed, need = long_joker_runs(combo, jr, t, code, e10, e21, e20, e31, keep, c,
                                              jl, real, v, nnum, digits, binom, counts)
        if listed < 0:
            continue
        buf[n, 0] = ncode
        buf[n, 1] = need
        buf[n, 2] = listed
        buf[n, 3] = combo + 1
        n += 1
    return n


@njit(cache=True, inline="always")
def joker_choices(left, last, real2):
    """The most successors one arrangement's jokers give a state at a sub-step (``left``
    jokers not yet placed): run jokers, each with its placements under two real tiles per
    set (``_real2.COMBO_FIRST``), times the group jokers at the last colour.

    Counted per parent from the jokers it has left: the former bound, the same for every
    parent (every joker count times 15 placements, squared), came to 984,150 successors
    at a last colour with two jokers in each arrangement, and the arrays and hash table
    made that large cost 40-100 ms of page faults a pass of 2-20 K states (meld then
    continue with two real tiles, seed 7 0J #10: four passes 425 ms -> 8 ms in all).
    """
    total = 0
    for jr in range(left + 1):
        placements = COMBO_FIRST[jr + 1] - COMBO_FIRST[jr] if real2 else 1
        total += placements * (left - jr + 1 if last else 1)
    return total
