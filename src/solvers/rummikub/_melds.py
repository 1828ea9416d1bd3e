"""The DP's choice replayed into sets, each packed into one integer (compiled).

The replay of ``build_sets`` (the readable model, kept beside the tests), with every set
packed into one integer so the engine turns a set into tiles with one dictionary look-up:

  run:   colour << 32 | start << 24 | length << 16 | joker positions (bit i: start + i)
  group: 1 << 40 | number << 32 | number << 24 | length << 16 | joker colours << 4
         | real colours                                      (4-bit colour masks)

``code >> 24`` is the order the engine lists sets in (runs by colour then first number,
then groups by number); the sets are sorted on it stably, so equal keys keep the replay
order, as ``sorted(..., key=...)`` does in Python.

Under two real tiles per set the DP also chose which open runs take each joker
(``choice[c, v-1, 3]``, one more than its combination's code, whose targets are
:data:`solvers.rummikub._real2_four.COMBO_COUNTS` ``[jr, code]``); such a colour is
replayed by :func:`_runs_two_real`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._groups import PART_COUNT, PART_MASKS  # noqa: F401 (doctest)
from solvers.rummikub._layout import NCOL, NNUM
from solvers.rummikub._real2_four import COMBO_COUNTS, TARGETS

MAX_SETS = 64  # 106 tiles make at most 35 sets


@njit(cache=True)
def _emit_run(codes, m, c, start, length, jmask):
    codes[m] = (np.int64(c) << 32) | (np.int64(start) << 24) | (np.int64(length) << 16) | jmask
    return m + 1


@njit(cache=True)
def _real_tiles(length, jmask):
    """Non-joker tiles of a run of ``length`` with joker positions ``jmask``."""
    jokers = 0
    while jmask:
        jokers += jmask & 1
        jmask >>= 1
    return length - jokers


@njit(cache=True)
def _runs_two_real(choice, c, codes, m, min_len):
    """Append colour ``c``'s runs to ``codes[m:]`` following the DP's joker placements
    (``min_len``: the shortest set; shorter runs must continue).

    The DP's kinds of open run (see :mod:`solvers.rummikub._dp`): a run holding a joker and
    under two real tiles takes a joker where the choice says so, else a real tile; the
    other short runs likewise; a joker that stays harmless goes to a run of length 2, then
    to a long run that continues; long runs continue while tiles are left, the rest start
    new runs (jokers first).  Returns the new count, -1 if the choice does not fit.
    """
    rs = np.zeros(8, np.int64)
    rl = np.zeros(8, np.int64)
    rj = np.zeros(8, np.int64)
    mark = np.zeros(8, np.int64)  # 0 stops, 1 takes a real tile, 2 takes a joker
    x = np.zeros(TARGETS, np.int64)
    for v in range(NNUM):
        ur = choice[c, v, 0]
        jr = choice[c, v, 2]
        combo = choice[c, v, 3] - 1
        x[:] = 0
        if 0 <= combo < COMBO_COUNTS.shape[1] and jr < COMBO_COUNTS.shape[0]:
            x[:] = COMBO_COUNTS[jr, combo]
        if x.sum() != jr:
            return -1
        must = 0
        longs = 0
        for r in range(8):
            mark[r] = 0
            if rl[r] == 0:
                continue
            real = _real_tiles(rl[r], rj[r])
            kind = -1  # a valid long run
            if rj[r] != 0 and real < 2:  # (kinds 3-7: the combinations' targets 3-7)
                kind = (3 if rl[r] == 1 else (4 if rl[r] == 2 else 6) if real == 1
                        else 5 if rl[r] == 2 else 7)
            elif rl[r] < min_len:
                kind = 1 if rl[r] == 1 else 2
            if kind < 0:
                longs += 1
                continue
            must += 1
            mark[r] = 1
            if x[kind] > 0:
                x[kind] -= 1
                mark[r] = 2
        if ur + jr < must:
            return -1
        k3 = min(longs, ur + jr - must)
        new = ur + jr - must - k3
        for r in range(8):
            if rl[r] == 0 or mark[r] != 0 or k3 == 0:
                continue
            k3 -= 1
            mark[r] = 1
            if x[2] > 0:
                x[2] -= 1
                mark[r] = 2
        if x[1:].sum() > 0 or x[0] > new:
            return -1
        for r in range(8):
            if rl[r] == 0:
                continue
            if mark[r] == 0:  # ends here
                if rl[r] < min_len or _real_tiles(rl[r], rj[r]) < 2:
                    return -1
                m = _emit_run(codes, m, c, rs[r], rl[r], rj[r])
                rl[r] = 0
                continue
            if mark[r] == 2:
                rj[r] |= np.int64(1) << (v + 1 - rs[r])
            rl[r] += 1
        for k in range(new):
            r = 0
            while r < 8 and rl[r] > 0:
                r += 1
            if r == 8:
                return -1
            rs[r] = v + 1
            rl[r] = 1
            rj[r] = 1 if k < x[0] else 0
    for r in range(8):
        if rl[r] > 0:
            if rl[r] < min_len or _real_tiles(rl[r], rj[r]) < 2:
                return -1
            m = _emit_run(codes, m, c, rs[r], rl[r], rj[r])
    return m


@njit(cache=True, inline="always")
def _bare(length, jmask):
    """Whether a run of ``length`` with joker positions ``jmask`` holds jokers only."""
    return jmask == (np.int64(1) << length) - 1


@njit(cache=True)
def _four_step(choice, c, v, option, now, after, codes, m, min_len, go):
    """Colour ``c``'s runs ``now`` (rows: first number, length, joker mask) through number
    v+1 into ``after`` as the DP's four-joker transition places tiles
    (:mod:`solvers.rummikub._risky`): short runs continue, then long runs (those of jokers
    alone first), the rest open new runs; jokers go first to continued runs holding a real
    tile, then to the continued runs of jokers alone that ``option`` names (bit i: the i-th),
    then to new runs.  Ended runs are appended to ``codes[m:]``; returns the new count,
    -1 if the option does not fit or a run ends invalid."""
    items = choice[c, v, 0] + choice[c, v, 2]
    spare = choice[c, v, 2]
    short = 0
    for r in range(8):
        go[r] = 0
        if 0 < now[1, r] < min_len:
            go[r] = 1
            short += 1
    if items < short:
        return -1
    left = items - short
    for bare_first in (True, False):
        for r in range(8):
            if left > 0 and now[1, r] >= min_len and _bare(now[1, r], now[2, r]) == bare_first:
                go[r] = 1
                left -= 1
    for r in range(8):  # jokers to the continued runs that hold a real tile
        if go[r] and not _bare(now[1, r], now[2, r]) and spare > 0:
            go[r] = 2
            spare -= 1
    k = 0
    for r in range(8):
        if go[r] and _bare(now[1, r], now[2, r]):
            if (option >> k) & 1:
                if spare == 0:
                    return -1
                go[r] = 2
                spare -= 1
            k += 1
    if option >= 1 << k or spare > left:
        return -1
    n = 0
    for r in range(8):
        if now[1, r] == 0:
            continue
        if go[r] == 0:  # ends here
            if now[1, r] < min_len or _bare(now[1, r], now[2, r]):
                return -1
            m = _emit_run(codes, m, c, now[0, r], now[1, r], now[2, r])
            continue
        after[0, n] = now[0, r]
        after[1, n] = now[1, r] + 1
        after[2, n] = now[2, r] | (np.int64(go[r] - 1) << (v + 1 - now[0, r]))
        n += 1
    for i in range(left):
        if n == 8:
            return -1
        after[0, n], after[1, n], after[2, n] = v + 1, 1, 1 if i < spare else 0
        n += 1
    after[1, n:] = 0
    return m


@njit(cache=True)
def _runs_four_jokers(choice, c, codes, m, min_len):
    """Append colour ``c``'s runs to ``codes[m:]`` when four jokers are placed: a depth-first
    search over :func:`_four_step`'s options at each number (the DP kept only the counts;
    branches happen only where a joker may go to a run of jokers alone).  Returns the new
    count, -1 if no placement makes every run valid."""
    runs = np.zeros((NNUM + 1, 3, 8), np.int64)
    at = np.zeros(NNUM + 1, np.int64)  # codes written before number v+1
    tried = np.zeros(NNUM + 1, np.int64)
    go = np.zeros(8, np.int64)
    at[0] = m
    v = 0
    while v >= 0:
        if v == NNUM:
            out = at[v]
            for r in range(8):
                length, jmask = runs[v, 1, r], runs[v, 2, r]
                if length > 0 and (length < min_len or _bare(length, jmask)):
                    out = -1
                    break
                if length > 0:
                    out = _emit_run(codes, out, c, runs[v, 0, r], length, jmask)
            if out >= 0:
                return out
            v -= 1
            continue
        if tried[v] == 16:
            tried[v] = 0
            v -= 1
            continue
        tried[v] += 1
        out = _four_step(choice, c, v, tried[v] - 1, runs[v], runs[v + 1], codes, at[v],
                         min_len, go)
        if out >= 0:
            at[v + 1] = out
            v += 1
    return -1


@njit(cache=True)
def _group_codes(choice, group_jokers, part_count, part_masks, codes, m):
    """Append the groups of every number to ``codes[m:]``; returns the new count (-1: bad).
    (``part_count`` of 256 or 625 profiles: three or four copies, a base-4 or base-5 profile
    index.)"""
    base = 5 if part_count.shape[0] > 256 else 4 if part_count.shape[0] > 81 else 3
    for v in range(NNUM):
        index = 0
        mult = 1
        for c in range(NCOL):
            index += choice[c, v, 1] * mult
            mult *= base
        jg = group_jokers[v]
        if index == 0 and jg == 0:
            continue
        count = part_count[index, jg]
        if count < 0:
            return -1
        for g in range(count):
            real = part_masks[index, jg, g, 0]
            jok = part_masks[index, jg, g, 1]
            length = 0
            for c in range(NCOL):
                length += ((real >> c) & 1) + ((jok >> c) & 1)
            codes[m] = ((np.int64(1) << 40) | (np.int64(v + 1) << 32) | (np.int64(v + 1) << 24)
                        | (np.int64(length) << 16) | (jok << 4) | real)
            m += 1
    return m


@njit(cache=True)
def _sort_codes(codes, m):
    """Sort ``codes[:m]`` stably on the listing key ``code >> 24``."""
    for i in range(1, m):
        code = codes[i]
        key = code >> 24
        j = i - 1
        while j >= 0 and (codes[j] >> 24) > key:
            codes[j + 1] = codes[j]
            j -= 1
        codes[j + 1] = code


@njit(cache=True, inline="always")
def _order_runs(no, rs, rl, rj, ts, tl, tj, min_len, triple):
    """Copy the ``no`` open runs into ``ts, tl, tj`` in the replay's order: the short
    runs (below ``min_len``) first, then the long ones (``triple``, three jokers: in each,
    the runs of jokers alone first); returns how many are short."""
    k = 0
    short = 0
    for rank in range(4 if triple else 2):
        for r in range(no):
            if (rl[r] >= min_len) != (rank >= (2 if triple else 1)):
                continue
            if triple and (rj[r] == (np.int64(1) << rl[r]) - 1) != (rank % 2 == 0):
                continue
            ts[k] = rs[r]
            tl[k] = rl[r]
            tj[k] = rj[r]
            k += 1
        if rank == (1 if triple else 0):
            short = k
    return short


@njit(cache=True, inline="always")
def _real_tiles_to(take, ur, items, tl, tj, real_to, triple):
    """Which of the ``take`` runs continued take a real tile (``real_to[r]``; the others a
    joker) and how many of the runs opened do (the first ones): real tiles go first, to the
    runs in order (``triple``, three jokers: to the runs of jokers alone, then to the runs
    opened, then to the others; :func:`solvers.rummikub._lengths.triple_step`)."""
    left = ur
    for r in range(take):
        real_to[r] = 0
        if (r < ur and not triple) or (triple and left > 0 and tj[r] == (
                np.int64(1) << tl[r]) - 1):
            real_to[r] = 1
            left -= 1
    new_real = min(max(0, left), items - take)
    left -= new_real
    for r in range(take if triple else 0):
        if real_to[r] == 0 and left > 0:
            real_to[r] = 1
            left -= 1
    return new_real


@njit(cache=True)
def meld_codes(choice, group_jokers, part_count, part_masks, codes, min_len=3):
    """Fill ``codes`` (int64[MAX_SETS]) with the sets of one solved position, sorted.

    ``choice[c, v-1] = (run tiles, group tiles, run jokers)`` and ``group_jokers[v-1]`` as
    the DP returns them; ``part_count``/``part_masks`` from :mod:`solvers.rummikub._groups`;
    ``min_len``: the shortest set of the rules (runs shorter than it must continue).
    Returns the number of sets, or -1 if the choice is not a valid arrangement.

    >>> choice = np.zeros((NCOL, NNUM, 4), np.int64)
    >>> choice[1, 4:7, 0] = 1                 # a run R5 R6 R7 ...
    >>> choice[1, 7, 2] = 1                   # ... with a joker as R8
    >>> choice[[0, 2, 3], 9, 1] = 1           # a group K10 O10 B10
    >>> codes = np.zeros(MAX_SETS, np.int64)
    >>> n = meld_codes(choice, np.zeros(NNUM, np.int64), PART_COUNT, PART_MASKS, codes)
    >>> [hex(c) for c in codes[:n]]
    ['0x105040008', '0x10a0a03000d']
    """
    m = np.int64(0)  # (a literal 0 would compile the run helpers for it as well)
    # three jokers: a run of jokers alone takes real tiles first (_lengths.triple_step);
    # four: the DP's branches searched again (_runs_four_jokers)
    placed = choice[:, :, 2].sum() + group_jokers.sum()
    triple = placed > 2
    real_to = np.zeros(8, np.int64)
    # open runs of one colour, in the replay's order: first number, length, joker mask
    rs = np.zeros(8, np.int64)
    rl = np.zeros(8, np.int64)
    rj = np.zeros(8, np.int64)
    ts = np.zeros(8, np.int64)
    tl = np.zeros(8, np.int64)
    tj = np.zeros(8, np.int64)
    for c in range(NCOL):
        busy = False
        two_real = False
        for v in range(NNUM):
            if choice[c, v, 0] + choice[c, v, 2] > 0:
                busy = True
            if choice[c, v, 3] > 0:
                two_real = True
        if not busy:
            continue
        if two_real or placed > 3:
            m = (_runs_two_real(choice, c, codes, m, min_len) if two_real
                 else _runs_four_jokers(choice, c, codes, m, min_len))
            if m < 0:
                return -1
            continue
        no = 0
        for v in range(NNUM):
            ur = choice[c, v, 0]
            jr = choice[c, v, 2]
            items = ur + jr
            if no == 0 and items == 0:
                continue
            short = _order_runs(no, rs, rl, rj, ts, tl, tj, min_len, triple)
            if items < short:
                return -1
            take = min(items, no)
            new_real = _real_tiles_to(take, ur, items, tl, tj, real_to, triple)
            for r in range(take):
                if real_to[r] == 0:
                    tj[r] |= np.int64(1) << (v + 1 - ts[r])
                tl[r] += 1
            for r in range(take, no):  # runs not continued end here
                m = _emit_run(codes, m, c, ts[r], tl[r], tj[r])
            no = 0
            for r in range(take):
                rs[no] = ts[r]
                rl[no] = tl[r]
                rj[no] = tj[r]
                no += 1
            for r in range(take, items):
                rs[no] = v + 1
                rl[no] = 1
                rj[no] = 1 if r - take >= new_real else 0
                no += 1
        for r in range(no):
            if rl[r] < min_len:
                return -1
            m = _emit_run(codes, m, c, rs[r], rl[r], rj[r])
    m = _group_codes(choice, group_jokers, part_count, part_masks, codes, m)
    if m < 0:
        return -1
    _sort_codes(codes, m)
    return m


@njit(cache=True)
def turned_codes(codes, m, nnum):
    """The sets ``codes[:m]`` of a position with its numbers reversed (n read as
    ``nnum + 1 - n``), as the sets of the position itself, sorted again: a run's slots
    reversed so that they ascend, a group's number moved."""
    for k in range(m):
        code = codes[k]
        if code >> 40:  # a group: number << 32 | number << 24
            number = nnum + 1 - ((code >> 24) & 255)
            code = code & ~np.int64(0xFFFF << 24) | np.int64(number) << 32 | np.int64(number) << 24
        else:  # a run: start << 24 | length << 16 | joker mask (bit i: start + i)
            start, length, jmask = (code >> 24) & 255, (code >> 16) & 255, code & 0xFFFF
            mask = np.int64(0)
            for i in range(length):
                mask |= ((jmask >> i) & 1) << (length - 1 - i)
            code = (code >> 32) << 32 | (nnum + 2 - start - length) << 24 | length << 16 | mask
        codes[k] = code
    _sort_codes(codes, m)


@njit(cache=True)
def meld_codes_batch(status, choice, group_jokers, part_count, part_masks, min_len=3):
    """:func:`meld_codes` for every solved position of a batch: ``(codes[n, MAX_SETS], counts)``.

    ``counts[p]`` is -2 for an unsolved position; ``min_len``: the shortest set.
    """
    n = status.shape[0]
    codes = np.zeros((n, MAX_SETS), np.int64)
    counts = np.full(n, -2, np.int64)
    for p in range(n):
        if status[p] == 1:
            counts[p] = meld_codes(choice[p], group_jokers[p], part_count, part_masks, codes[p],
                                   min_len)
    return codes, counts
