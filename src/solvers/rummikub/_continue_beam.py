"""Meld then continue's cuts of a finished layer (:mod:`solvers.rummikub._continue`): the
beam's (the heuristic pass before the exact one) and, in every pass, the states a higher
meld value dominates and those whose meld can no longer reach the threshold (exact)."""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import (
    JOKERS_AT,
    MELD_AT,
    MELD_MASK,
    N1_AT,
    NCOL,
    NEED_AT,
    SHORT_AT,
    colour_code,
    meld_target,
    min_set_length,
)


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
    # (no two live states with different meld values: nothing to drop, and no sort; most
    # layers of most passes, whose melds are all still empty or all made)
    first = np.int64(-1)
    mixed = False
    for i in range(start, end):
        if k1s[i] >= 0:
            if first < 0:
                first = k2s[i] & value_bits
            elif k2s[i] & value_bits != first:
                mixed = True
                break
    if not mixed:
        return 0
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


@njit(cache=True)
def meld_reach(mopt, jokers, nnum, length, jfac):
    """At most how much value the rack tiles still to come could add to a meld in new sets
    (:func:`drop_dead_melds`): ``reach[v, j, c]`` colour ``c``'s tiles at numbers ``v + 1``
    and up (``mopt``: those some set of rack tiles could hold) with ``j`` jokers, and
    ``reach[v, j, NCOL]`` the jokers', each at the highest number (``jfac``:
    :func:`~solvers.rummikub._layout.joker_meld_factor`); row ``nnum``: none.  A tile
    counts, every copy, if some group at its number (its colours there and the jokers, at
    least ``min(3, length)``) or some run of ``length`` numbers through it inside the range
    (its gaps no more than the jokers) could hold it: every set of tiles from that range is
    one of those groups or holds such a run (``length``: the shortest set)."""
    reach = np.zeros((nnum + 1, jokers + 1, NCOL + 1), np.int64)
    group = min(3, length)
    for v0 in range(nnum):
        for j in range(jokers + 1):
            reach[v0, j, NCOL] = j * nnum * jfac
            for v in range(v0, nnum):
                colours = 0
                for c in range(NCOL):
                    colours += 1 if mopt[c, v] > 0 else 0
                for c in range(NCOL):
                    if mopt[c, v] == 0:
                        continue
                    held = colours + j >= group
                    for a in range(max(v0, v - length + 1), min(v, nnum - length) + 1):
                        if held:
                            break
                        gaps = 0
                        for m in range(a, a + length):
                            gaps += 1 if mopt[c, m] == 0 else 0
                        held = gaps <= j
                    if held:
                        reach[v0, j, c] += mopt[c, v] * (v + 1)
    return reach


# The meld key's fields drop_dead_melds reads (its colours' codes, its jokers, the colours
# given to groups at the number, its value, the jokers its short runs need): a key with any
# other bit set (the final arrangement's official cover under three copies and three
# jokers, a candidate run of jokers alone, runs short of real tiles, three or four tiles
# given to groups) is kept as it is
_READ_BITS = np.int64((1 << SHORT_AT) - 1)


@njit(cache=True, inline="always")
def _jokers_owed(code, mopt, c, end, nnum, digits):
    """The jokers colour ``c``'s short open runs (code ``code``, ending at 0-based number
    ``end``) must take: at each number after, those still short there beyond the tiles
    ``mopt`` holds there (``digits``: :func:`~solvers.rummikub._lengths.length_tables`'s,
    runs of length i + 1 at column i, the last class long; empty: sets of 3, code
    ``a1 + 5 * a2 + 25 * a3``)."""
    if end < 0:
        return 0
    classes = digits.shape[1] - 1 if digits.shape[0] > 0 else 2  # (the short lengths)
    owed = 0
    for k in range(1, classes + 1):  # (number end + k: the runs of length <= L - k)
        due = 0
        for i in range(classes + 1 - k):
            due += digits[code, i] if digits.shape[0] > 0 else (code // 5 ** i) % 5
        there = mopt[c, end + k] if end + k < nnum else 0
        owed += max(0, due - there)
    return owed


@njit(cache=True, inline="always")
def _run_on(mopt, c, end, nnum, jokers):
    """The value of the tiles ``mopt`` holds of colour ``c`` that runs ending at 0-based
    number ``end`` may go on to: those from ``end + 1`` up to the number before the gap
    (no tile) that ``jokers`` no longer fill."""
    value = 0
    if end < 0:
        return value
    gaps = 0
    for m in range(end + 1, nnum):
        if mopt[c, m] == 0:
            gaps += 1
            if gaps > jokers:
                break
        value += mopt[c, m] * (m + 1)
    return value


@njit(cache=True)
def drop_dead_melds(k1s, k2s, start, end, reach, mopt, digits, v, last, mjokers, target):
    """Drop the states of a finished layer ``start..end-1`` (the colour ending number ``v``,
    0-based, if ``last``, else one inside it) whose meld, short of the threshold ``target``,
    cannot reach it (returns how many): its value, plus :func:`meld_reach`'s row of the
    numbers still to come (``v``'s own inside it: the colours it passed there too) at the
    meld's jokers left, a colour's from new sets and, where the meld has a run open, those
    it may go on to (:func:`_run_on`), and the number's tiles if it gave tiles to groups
    there, falls short;
    the new sets get only the jokers its short runs do not owe (:func:`_jokers_owed`, the
    fewer of the two ends a colour's runs may have inside the number; more owed than left:
    dropped).  Exact (every pass): every tile the meld takes from here on is in a set of
    tiles still to come, or continues a run of its colour or a group at the number (each
    joker at most at the highest number), and a short run takes its missing tiles, real
    (``mopt``: the rack tiles a meld may hold) or jokers; so its value ends below the
    threshold and no end state of it counts (:func:`_continue._best_end`).  Seed 13 40J #6
    of meld then continue + copies=4: a meld of K4 K5 and the joker (15) closed, with
    nothing from 7 up able to make a set without a joker, goes on for 40 layers otherwise;
    B6 B7 owes the joker at B8, and O10 O11 make no set without it."""
    at = v + 1 if last else v
    nnum = reach.shape[0] - 1
    free = 0  # (what new sets with no joker could add: a meld this short of it may live)
    for c in range(NCOL):
        free += reach[at, 0, c]
    dropped = 0
    if free >= target:  # (every meld: most layers of most passes, cut in a few steps)
        return dropped
    for i in range(start, end):
        k2 = k2s[i]
        if k1s[i] < 0 or k2 & ~_READ_BITS:
            continue
        value = (k2 >> MELD_AT) & MELD_MASK
        if value + free >= target:
            continue
        left = mjokers - ((k2 >> JOKERS_AT) & 3)
        owed = 0
        for c in range(NCOL):
            code = colour_code(k2, c)
            if code:
                owed_here = _jokers_owed(code, mopt, c, v, nnum, digits)
                if not last:  # (on the layer's last colour both ends are v: the same)
                    owed_here = min(owed_here,
                                    _jokers_owed(code, mopt, c, v - 1, nnum, digits))
                owed += owed_here
        if owed > left:
            k1s[i] = -1
            dropped += 1
            continue
        bound = value + reach[at, left, NCOL]
        for c in range(NCOL):
            bound += reach[at, left - owed, c]
            if colour_code(k2, c):  # (a run open in the colour: the tiles it may go on to)
                run_on = _run_on(mopt, c, v, nnum, left)
                if not last:  # (as above: one end on the last colour)
                    run_on = max(run_on, _run_on(mopt, c, v - 1, nnum, left))
                bound += run_on
        if (k2 >> N1_AT) & 63:  # (N1_AT, N2_AT: tiles given to groups at the number)
            for c in range(NCOL):
                bound += mopt[c, v] * (v + 1)
        if bound < target:
            k1s[i] = -1
            dropped += 1
    return dropped


@njit(cache=True)
def cut_layer(k1s, k2s, score, start, end, reach, mopt, digits, v, last, mjokers, meld):
    """The exact cuts of a finished layer under rules ``meld``, every pass
    (:func:`drop_dead_melds`, but with sets of 6+, whose meld codes' high bits may sit in
    the final key's word; then :func:`drop_lower_melds`)."""
    if min_set_length(meld) < 6:
        drop_dead_melds(k1s, k2s, start, end, reach, mopt, digits, v, last, mjokers,
                        meld_target(meld))
    drop_lower_melds(k1s, k2s, score, start, end)
