"""Meld then continue's cuts of a finished layer (:mod:`solvers.rummikub._continue`): the
beam's (the heuristic pass before the exact one) and, in every pass, the states a higher
meld value dominates (exact)."""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import MELD_AT, MELD_MASK, NCOL, NEED_AT, SHORT_AT, colour_code


@njit(cache=True)
def prune_pair_layer(k1s, k2s, score, start, end, beam, target, unlisted):
    """Beam cuts of a finished layer; returns 1 if one cut it (the pass is heuristic).

    ``beam > 0`` keeps the best-scored states; ``beam < 0`` keeps the ``-beam`` with the
    fewest obligations (open runs of length 1 and 2 in either arrangement, then how far
    the meld is from the threshold), as ``_layers.keep_flexible``; ``unlisted``: keys that
    hold no list of short runs there (sets of 6+, :mod:`solvers.rummikub._continue_spill`,
    the codes' low bits ranked; three copies, n3 there; three jokers, the run of jokers
    alone and the official cover's high bits).
    """
    width = abs(beam)
    if beam == 0 or end - start <= width:
        return 0
    if beam > 0:
        thr = np.sort(score[start:end])[end - start - beam]
        for i in range(start, end):
            if score[i] < thr:
                k1s[i] = -1
        return 1
    pri = np.empty(end - start, np.int64)
    for i in range(start, end):
        h = np.int64(1) << 40
        if k1s[i] >= 0:
            h = 2 * (((k1s[i] >> NEED_AT) & 3) + ((k2s[i] >> NEED_AT) & 3))
            for key in (k1s[i], k2s[i]):
                short = 0 if unlisted else (key >> SHORT_AT) & 1023
                h += 2 * ((short & 31) > 0) + 2 * ((short >> 5) > 0)
            for c in range(NCOL):
                for key in (k1s[i], k2s[i]):
                    code = colour_code(key, c)
                    h += 2 * (code % 5) + (code // 5) % 5
            h = 256 * h + target - ((k2s[i] >> MELD_AT) & MELD_MASK)
        pri[i - start] = h
    idx = np.argsort(pri, kind="mergesort")
    for r in range(width, end - start):
        k1s[start + idx[r]] = -1
    return 1


# Hash multipliers grouping a layer's states by their final key and their meld key less its
# value (:func:`drop_lower_melds`; those of :mod:`solvers.rummikub._pairs`)
_GROUP_A = np.int64(-7046029254386353131)
_GROUP_B = np.int64(-4658895280553007687)


@njit(cache=True)
def drop_lower_melds(k1s, k2s, score, start, end):
    """Drop the states of a finished layer ``start..end-1`` that another dominates: the same
    final key and the same meld key but for a higher meld value, and a score at least
    theirs.  Exact (every pass, beam or not; returns how many it dropped): the meld's value
    only ever adds up to the threshold (capped there), the other fields of the meld's key
    (its open runs and groups, the tiles and jokers they need, its jokers) decide its
    transitions, and with the same open runs a meld that has reached the threshold takes a
    subset of the tiles one that has not must take (:func:`_continue_step`: its short runs
    completed exactly, its long runs ended, no new run).  So whatever completes the lower
    meld to a valid end completes the higher one, with the same choices of the final
    arrangement (the meld's tiles a part of the rack tiles played: fewer or the same), and
    the final arrangement's score, the pass's, is the higher state's as much or more.  The
    final key holds least disturbance's sets held out (and the score their count), so a
    held-out pass's cuts, exact, keep the higher state wherever they keep the lower.
    Seed 13 40J #6 of meld then continue + copies=4: the DP's exact pass 133.7 K -> 83.3 K
    states, the held-out exact pass 265.8 K -> 184.6 K (the meld's key differs by its value
    alone on most states: up to 15 values a layer against up to 18 meld keys)."""
    n = end - start
    if n < 2:
        return 0
    value_bits = np.int64(MELD_MASK) << MELD_AT
    group = np.empty(n, np.int64)
    for i in range(n):
        group[i] = (k1s[start + i] * _GROUP_A) ^ ((k2s[start + i] & ~value_bits) * _GROUP_B)
    order = np.argsort(group, kind="mergesort")
    dropped = 0
    lo = 0
    while lo < n:
        hi = lo + 1
        while hi < n and group[order[hi]] == group[order[lo]]:
            hi += 1
        for a in range(lo, hi):  # (runs of a few states: the meld values of one key)
            i = start + order[a]
            if k1s[i] < 0:
                continue
            for b in range(lo, hi):
                j = start + order[b]
                if (b != a and k1s[j] == k1s[i] and (k2s[j] ^ k2s[i]) & ~value_bits == 0
                        and (k2s[j] >> MELD_AT) & MELD_MASK > (k2s[i] >> MELD_AT) & MELD_MASK
                        and score[j] >= score[i]):
                    k1s[i] = -1
                    dropped += 1
                    break
        lo = hi
    return dropped
