"""Distinct plays of a hand: the census by category, counts and enumeration.

Every play of one category (type, length, rank) has the same code, so a hand's
*census* — each category it can play with the number of distinct multisets of
that category — answers "how many plays beat P" with a filter and a sum, and
enumeration only visits the categories that beat P.  Counts use the subset
table of :mod:`solvers.shuangkou._codes`; straight windows split their
one-card-per-rank sets into the ``f`` one-suit sets (straight flushes under the
``bomb`` policy) and the rest.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.shuangkou._codes import (
    BOMB,
    CONSECUTIVE_PAIRS,
    CONSECUTIVE_TRIPLES,
    KING_BOMB,
    PAIR,
    SEQUENCE_TOP,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUBSETS,
    TRIPLE,
    code_beats,
    make_code,
)

CENSUS_CAPACITY = 512
_ONE_RANK_TYPES = np.array([0, SINGLE, PAIR, TRIPLE, BOMB, BOMB, BOMB, BOMB, BOMB], dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _wanted(code, previous):
    return previous == 0 or code_beats(code, previous)


@njit(cache=True, nogil=True)
def _once_twice(hand, r):
    """(tokens held once, tokens held twice) at rank r."""
    a = 0
    b = 0
    for s in range(4):
        if hand[r, s] == 1:
            a += 1
        elif hand[r, s] >= 2:
            b += 1
    return a, b


@njit(cache=True, nogil=True)
def census(hand, sf_bomb, codes, counts):
    """Fill ``codes``/``counts`` with every category the hand can play and its
    number of distinct plays; return the number of categories (at most
    ``CENSUS_CAPACITY``)."""
    per = np.zeros((15, 9), dtype=np.int64)
    for r in range(15):
        a, b = _once_twice(hand, r)
        for m in range(1, 9):
            per[r, m] = SUBSETS[a, b, m]
    n = 0
    for r in range(15):
        for m in range(1, 9):
            if per[r, m] > 0:
                codes[n] = make_code(_ONE_RANK_TYPES[m], m, r)
                counts[n] = per[r, m]
                n += 1
    if hand[13, 0] == 2 and hand[14, 0] == 2:
        codes[n] = make_code(KING_BOMB, 4, 14)
        counts[n] = 1
        n += 1
    for lo in range(SEQUENCE_TOP + 1):
        singles = 1
        pairs = 1
        triples = 1
        suits = 15  # suits holding every rank of the window so far
        for hi in range(lo, SEQUENCE_TOP + 1):
            singles *= per[hi, 1]
            pairs *= per[hi, 2]
            triples *= per[hi, 3]
            if singles == 0:
                break
            for s in range(4):
                if hand[hi, s] == 0:
                    suits &= ~(1 << s)
            k = hi - lo + 1
            if k >= 5:
                flushes = 0
                if sf_bomb:
                    for s in range(4):
                        flushes += (suits >> s) & 1
                if singles > flushes:
                    codes[n] = make_code(STRAIGHT, k, hi)
                    counts[n] = singles - flushes
                    n += 1
                if flushes > 0:
                    codes[n] = make_code(STRAIGHT_FLUSH, k, hi)
                    counts[n] = flushes
                    n += 1
            if k >= 3 and pairs > 0:
                codes[n] = make_code(CONSECUTIVE_PAIRS, 2 * k, hi)
                counts[n] = pairs
                n += 1
            if k >= 3 and triples > 0:
                codes[n] = make_code(CONSECUTIVE_TRIPLES, 3 * k, hi)
                counts[n] = triples
                n += 1
    return n


@njit(cache=True, nogil=True)
def count_plays(hand, previous, sf_bomb):
    """The number of distinct plays of ``hand`` that beat code ``previous``
    (every play when ``previous`` is 0, i.e. when leading).  Pass is not counted."""
    codes = np.empty(CENSUS_CAPACITY, dtype=np.int64)
    counts = np.empty(CENSUS_CAPACITY, dtype=np.int64)
    n = census(hand, sf_bomb, codes, counts)
    total = 0
    for i in range(n):
        if _wanted(codes[i], previous):
            total += counts[i]
    return total


@njit(cache=True, nogil=True, parallel=True)
def count_plays_batch(hands, previous, sf_bomb, out):
    """``out[i] = count_plays(hands[i], previous[i])`` over threads."""
    for i in prange(hands.shape[0]):
        out[i] = count_plays(hands[i], previous[i], sf_bomb)


@njit(cache=True, nogil=True)
def _rank_options(hand, r, m, opts):
    """Write every distinct m-card sub-multiset of rank r as a suit-count row of
    ``opts``; return how many."""
    n = 0
    top = 1 if r > SEQUENCE_TOP + 1 else 4
    h0 = hand[r, 0]
    h1 = hand[r, 1] if top == 4 else 0
    h2 = hand[r, 2] if top == 4 else 0
    h3 = hand[r, 3] if top == 4 else 0
    for x0 in range(min(h0, m) + 1):
        for x1 in range(min(h1, m - x0) + 1):
            for x2 in range(min(h2, m - x0 - x1) + 1):
                x3 = m - x0 - x1 - x2
                if x3 <= h3:
                    opts[n, 0] = x0
                    opts[n, 1] = x1
                    opts[n, 2] = x2
                    opts[n, 3] = x3
                    n += 1
    return n


@njit(cache=True, nogil=True)
def _emit_window(lo, hi, width, opts, nopts, out, pos, flush_filter, sf_code, plain_code,
                 previous):
    """Write the sets of one window (one option per rank, odometer order); with
    ``width`` 1, keep each set only if its category (straight flush or plain) is wanted."""
    k = hi - lo + 1
    idx = np.zeros(k, dtype=np.int64)
    while True:
        keep = True
        if width == 1 and flush_filter:
            suit = -1
            flush = True
            for j in range(k):
                o = idx[j]
                for s in range(4):
                    if opts[lo + j, width, o, s] == 1:
                        if suit < 0:
                            suit = s
                        elif suit != s:
                            flush = False
            code = sf_code if flush else plain_code
            keep = _wanted(code, previous)
        if keep:
            for r in range(15):
                for s in range(4):
                    out[pos, r, s] = 0
            for j in range(k):
                for s in range(4):
                    out[pos, lo + j, s] = opts[lo + j, width, idx[j], s]
            pos += 1
        j = k - 1
        while j >= 0:
            idx[j] += 1
            if idx[j] < nopts[lo + j, width]:
                break
            idx[j] = 0
            j -= 1
        if j < 0:
            return pos


@njit(cache=True, nogil=True)
def enumerate_plays(hand, previous, sf_bomb, out):
    """Write every distinct play of ``hand`` beating code ``previous`` (all plays
    when 0) into ``out`` (``(capacity, 15, 4)``, capacity at least
    :func:`count_plays`); return the number written."""
    pos = 0
    opts = np.empty((81, 4), dtype=np.int64)
    for r in range(15):
        for m in range(1, 9):
            code = make_code(_ONE_RANK_TYPES[m], m, r)
            if not _wanted(code, previous):
                continue
            n = _rank_options(hand, r, m, opts)
            for i in range(n):
                for rr in range(15):
                    for s in range(4):
                        out[pos, rr, s] = 0
                for s in range(4):
                    out[pos, r, s] = opts[i, s]
                pos += 1
    if hand[13, 0] == 2 and hand[14, 0] == 2 and _wanted(make_code(KING_BOMB, 4, 14), previous):
        for rr in range(15):
            for s in range(4):
                out[pos, rr, s] = 0
        out[pos, 13, 0] = 2
        out[pos, 14, 0] = 2
        pos += 1
    window_opts = np.empty((SEQUENCE_TOP + 1, 4, 19, 4), dtype=np.int64)
    nopts = np.empty((SEQUENCE_TOP + 1, 4), dtype=np.int64)
    for r in range(SEQUENCE_TOP + 1):
        for w in range(1, 4):
            nopts[r, w] = _rank_options(hand, r, w, window_opts[r, w])
    for w in range(1, 4):
        kmin = 5 if w == 1 else 3
        kind = STRAIGHT if w == 1 else (CONSECUTIVE_PAIRS if w == 2 else CONSECUTIVE_TRIPLES)
        for lo in range(SEQUENCE_TOP + 1):
            for hi in range(lo, SEQUENCE_TOP + 1):
                if nopts[hi, w] == 0:
                    break
                k = hi - lo + 1
                if k < kmin:
                    continue
                plain = make_code(kind, w * k, hi)
                if w == 1:
                    sf = make_code(STRAIGHT_FLUSH, k, hi) if sf_bomb else plain
                    if _wanted(plain, previous):
                        pos = _emit_window(lo, hi, 1, window_opts, nopts, out, pos, sf_bomb,
                                           sf, plain, previous)
                    elif sf_bomb and _wanted(sf, previous):
                        pos = _emit_flushes(hand, lo, hi, out, pos)
                elif _wanted(plain, previous):
                    pos = _emit_window(lo, hi, w, window_opts, nopts, out, pos, False,
                                       plain, plain, previous)
    return pos


@njit(cache=True, nogil=True)
def _emit_flushes(hand, lo, hi, out, pos):
    for s in range(4):
        full = True
        for r in range(lo, hi + 1):
            if hand[r, s] == 0:
                full = False
                break
        if full:
            for rr in range(15):
                for t in range(4):
                    out[pos, rr, t] = 0
            for r in range(lo, hi + 1):
                out[pos, r, s] = 1
            pos += 1
    return pos


@njit(cache=True, nogil=True, parallel=True)
def enumerate_plays_batch(hands, previous, sf_bomb, offsets, out):
    """Rows ``offsets[i]:offsets[i + 1]`` of ``out`` get the plays of ``hands[i]``
    beating ``previous[i]`` (offsets from a cumulative sum of
    :func:`count_plays_batch`)."""
    for i in prange(hands.shape[0]):
        enumerate_plays(hands[i], previous[i], sf_bomb, out[offsets[i]:offsets[i + 1]])
