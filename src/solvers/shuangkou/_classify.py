"""Classification and comparison on count arrays.

A set of cards is a ``(15, 4)`` array of counts (rank value × suit S, H, D,
C; the small and big jokers are column 0 of ranks 13 and 14).  The kernels
assume the engine's preconditions (counts 0–2, jokers only in column 0).
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
    TRIPLE,
    code_beats,
    code_type,
    make_code,
)


@njit(cache=True, nogil=True, inline="always")
def _profile_code(n, mask, width, equal, lo, hi, two_kings):
    """The code of a set from its rank profile: ``n`` cards on the ranks of bit ``mask``
    (lowest ``lo``, highest ``hi``), ``width`` cards on the lowest rank, ``equal`` when every
    rank holds as many; ``two_kings`` when both jokers are pairs.  One-card-per-rank
    sequences come back as straights: the caller tells straight flushes by the suits."""
    if n == 0:
        return 0
    if lo == hi:
        if n == 1:
            return make_code(SINGLE, 1, lo)
        if n == 2:
            return make_code(PAIR, 2, lo)
        if n == 3:
            return make_code(TRIPLE, 3, lo)
        return make_code(BOMB, n, lo)
    if n == 4 and two_kings:
        return make_code(KING_BOMB, 4, 14)
    if not equal or hi > SEQUENCE_TOP:
        return 0
    k = hi - lo + 1
    if mask != ((1 << k) - 1) << lo:
        return 0
    if width == 1 and k >= 5:
        return make_code(STRAIGHT, n, hi)
    if width == 2 and k >= 3:
        return make_code(CONSECUTIVE_PAIRS, n, hi)
    if width == 3 and k >= 3:
        return make_code(CONSECUTIVE_TRIPLES, n, hi)
    return 0


@njit(cache=True, nogil=True)
def classify(cards, sf_bomb):
    """The code of ``cards`` (0 when it is not a combination).

    ``sf_bomb``: the straight-flush policy ``bomb`` (True) or ``straight`` (False).
    """
    n = 0
    mask = 0
    width = -1
    equal = True
    lo = -1
    hi = -1
    for r in range(15):
        c = cards[r, 0] + cards[r, 1] + cards[r, 2] + cards[r, 3]
        if c == 0:
            continue
        n += c
        mask |= 1 << r
        if lo < 0:
            lo = r
            width = c
        elif c != width:
            equal = False
        hi = r
    code = _profile_code(n, mask, width, equal, lo, hi, cards[13, 0] == 2 and cards[14, 0] == 2)
    if sf_bomb and code_type(code) == STRAIGHT:
        for s in range(4):
            flush = True
            for r in range(lo, hi + 1):
                if cards[r, s] == 0:
                    flush = False
                    break
            if flush:
                return make_code(STRAIGHT_FLUSH, n, hi)
    return code


@njit(cache=True, nogil=True)
def beats(play, previous, sf_bomb):
    """Whether the cards ``play`` beat the cards ``previous`` (an invalid play beats nothing)."""
    return code_beats(classify(play, sf_bomb), classify(previous, sf_bomb))


@njit(cache=True, nogil=True)
def classify_words(words, sf_bomb):
    """:func:`classify` of one set given as 15 ``uint32`` words, one per rank, whose
    four bytes are the suit counts (a ``(15, 4)`` uint8 array viewed as ``uint32``):
    a byte sum is one multiply, so a set costs 15 loads instead of 60."""
    n = 0
    mask = 0
    width = -1
    equal = True
    lo = -1
    hi = -1
    for r in range(15):
        w = words[r]
        if w == 0:
            continue
        c = np.int64(((w * np.uint32(0x01010101)) & np.uint32(0xFFFFFFFF)) >> np.uint32(24))
        n += c
        mask |= 1 << r
        if lo < 0:
            lo = r
            width = c
        elif c != width:
            equal = False
        hi = r
    code = _profile_code(n, mask, width, equal, lo, hi, words[13] == 2 and words[14] == 2)
    if sf_bomb and code_type(code) == STRAIGHT:
        common = np.uint32(0xFFFFFFFF)
        for r in range(lo, hi + 1):
            common &= words[r]
        if common != 0:
            return make_code(STRAIGHT_FLUSH, n, hi)
    return code


@njit(cache=True, nogil=True, parallel=True)
def classify_batch(words, sf_bomb, out):
    """``out[i] = classify(set i)`` for an ``(N, 15)`` ``uint32`` stack (an ``(N, 15, 4)``
    uint8 stack viewed as words), rows spread over threads."""
    for i in prange(words.shape[0]):
        out[i] = classify_words(words[i], sf_bomb)


@njit(cache=True, nogil=True, parallel=True)
def beats_batch(plays, previous, sf_bomb, out):
    """``out[i] = beats(plays[i], previous[i])`` for two ``(N, 15)`` word stacks."""
    for i in prange(plays.shape[0]):
        code = classify_words(plays[i], sf_bomb)
        # A set that is no combination beats nothing: the previous play need not be read.
        out[i] = code != 0 and code_beats(code, classify_words(previous[i], sf_bomb))


@njit(cache=True, nogil=True)
def first_invalid_row(words):
    """The first row with a count above 2 or a joker outside column 0 (-1: none)."""
    for i in range(words.shape[0]):
        for r in range(15):
            w = words[i, r]
            # A byte above 2 has a bit above bit 1, or is 3 (bits 0 and 1 both set).
            if (w & np.uint32(0xFCFCFCFC)) != 0 or (w & (w >> np.uint32(1))
                                                     & np.uint32(0x01010101)) != 0:
                return i
            if r >= 13 and (w & np.uint32(0xFFFFFF00)) != 0:
                return i
    return -1


@njit(cache=True, nogil=True, parallel=True)
def code_beats_batch(plays, previous, out):
    """``out[i] = code_beats(plays[i], previous[i])`` on already classified codes."""
    for i in prange(plays.shape[0]):
        out[i] = code_beats(plays[i], previous[i])


def new_codes(n: int) -> np.ndarray:
    """An output array for ``n`` codes."""
    return np.zeros(n, dtype=np.int64)
