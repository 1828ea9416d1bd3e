"""Four jokers (sets of 3+): the runs of jokers alone that could still end as a set.

A set needs a real tile, and with four jokers a run of jokers alone can reach three tiles.
The DP's colour codes count open runs by length, not by what they hold, so the runs that
could break the rule are listed apart, in the second key word (:mod:`solvers.rummikub.
_layout`, :data:`~solvers.rummikub._layout.RISKY_AT`: two 5-bit slots, ``colour << 3 |
length``, the length 1..3 with 3 meaning 3 or more).

Which runs are listed.  A run of jokers alone of length ``l`` with ``left`` jokers not
placed yet can become a set of jokers alone only while ``l + left >= 3`` (*risky*).  A run
that is not (or is no longer) risky needs a real tile to reach three tiles whatever the
later choices are, so it is forgotten; a risky run is listed from the sub-step that opens
it (a new run taking a joker with at least two jokers left) until it takes a real tile or
stops being risky.  Every listed run holds its own jokers and was opened with at most two
jokers placed, so at most two are listed at once.

The transition (:func:`risky_step`).  At one colour and number the runs that continue are
the short ones, then the long ones up to the tiles (a listed long run must be among them:
it cannot end); the rest of the tiles open new runs.  The colour's jokers go first to the
continued runs that are not listed: swapping a joker there with a real tile of a listed or
a new run keeps both valid (the unlisted run holds a real tile already, or cannot be
completed by jokers alone), so every other placement is dominated.  The jokers left over
go to the colour's listed runs and to new runs: which listed runs take one is a branch
(``option``: bit i, the colour's i-th listed run; at most four choices), the new runs
take the rest (they are alike).  :func:`solvers.rummikub._melds.meld_codes` replays such a
choice by searching the same placements.

Listing a run only adds obligations, so a state whose list holds another's, with the same
counts and no more score, is dominated (:func:`drop_listed`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import RISKY_AT, RISKY_SLOT_BITS
from solvers.rummikub._pairs import lookup as pair_lookup

SLOT_MASK = (1 << RISKY_SLOT_BITS) - 1
FIELD_MASK = (1 << 2 * RISKY_SLOT_BITS) - 1
OPTIONS = 4  # the branches of one colour's transition: subsets of its (up to two) listed runs


@njit(cache=True, inline="always")
def _pack(a, b):
    """Two slots in the field's canonical order (the larger first, so equal lists merge)."""
    if a < b:
        a, b = b, a
    return np.int64(a | b << RISKY_SLOT_BITS)


@njit(cache=True, inline="always")
def risky_step(field, c, option, jr, cont, new, k3, left):
    """The listed runs after colour ``c``'s transition: ``jr`` jokers to its runs, ``cont``
    runs continued (``k3`` of them long), ``new`` opened, ``left`` jokers not placed after
    it; ``option`` (0 .. :data:`OPTIONS` - 1) chooses which of the colour's listed runs take
    a joker.  Returns the new field, or -1 when the option does not fit the counts."""
    mine = 0
    longs = 0
    for s in range(2):
        slot = (field >> (RISKY_SLOT_BITS * s)) & SLOT_MASK
        if slot != 0 and slot >> 3 == c:
            mine += 1
            if slot & 7 >= 3:
                longs += 1
    if option >= 1 << mine or longs > k3:
        return np.int64(-1)
    took = (option & 1) + (option >> 1)
    spare = jr - min(jr, cont - mine)  # the jokers the unlisted continued runs leave
    bare_new = spare - took  # new runs of one joker
    if bare_new < 0 or bare_new > new:
        return np.int64(-1)
    out = np.int64(0)
    count = 0
    k = 0
    for s in range(2):
        slot = (field >> (RISKY_SLOT_BITS * s)) & SLOT_MASK
        if slot == 0:
            continue
        if slot >> 3 == c:
            takes = (option >> k) & 1
            k += 1
            if not takes:  # it took a real tile
                continue
            slot = c << 3 | min(3, (slot & 7) + 1)
        if (slot & 7) + left < 3:  # no longer risky
            continue
        out |= np.int64(slot) << (RISKY_SLOT_BITS * count)
        count += 1
    if left >= 2:
        for _ in range(bare_new):
            if count == 2:  # (cannot happen: each listed run holds a joker placed of two)
                return np.int64(-1)
            out |= np.int64(c << 3 | 1) << (RISKY_SLOT_BITS * count)
            count += 1
    return _pack(out & SLOT_MASK, out >> RISKY_SLOT_BITS)


@njit(cache=True, inline="always")
def risky_close(field, left):
    """``field`` once the number closes with ``left`` jokers not placed: the runs no longer
    risky forgotten."""
    a = field & SLOT_MASK
    b = field >> RISKY_SLOT_BITS
    if a != 0 and (a & 7) + left < 3:
        a = 0
    if b != 0 and (b & 7) + left < 3:
        b = 0
    return _pack(a, b)


@njit(cache=True)
def drop_listed(table, bits, start, end, keys, keys2, score):
    """Drop the states of the layer ``start..end-1`` (two-word keys, hash ``table``) that
    list runs of jokers alone while the same state listing only some of them (or none) is
    there with at least their score: every completion of the first completes the other."""
    clear = ~(np.int64(FIELD_MASK) << RISKY_AT)
    for i in range(start, end):
        field = (keys2[i] >> RISKY_AT) & FIELD_MASK
        if keys[i] < 0 or field == 0:
            continue
        a = field & SLOT_MASK
        b = field >> RISKY_SLOT_BITS
        for fewer in (0, a if b else -1, b if b else -1):
            if fewer < 0:
                continue
            other = keys2[i] & clear | np.int64(fewer) << RISKY_AT
            j = pair_lookup(table, bits, start, keys[i], other)
            if j >= 0 and keys[j] >= 0 and score[j] >= score[i]:
                keys[i] = -1
            if keys[i] < 0:
                break
