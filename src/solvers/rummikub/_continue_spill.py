"""Meld then continue with sets of 6+ tiles: both arrangements' colour-code high bits in the
pair's free fields (:mod:`solvers.rummikub._continue`).

A colour's code (:mod:`solvers.rummikub._lengths`, up to 2,380 codes) needs up to 12 bits,
and the melded DP keeps the bits past the 7th in its second key word
(:func:`solvers.rummikub._layout.code_high`: 20 bits a state).  The pair carries both
arrangements' 40 such bits in fields these rules leave free in its own two words
(:func:`spilled`): no group holds 6 tiles, so the groups' counts ``n1, n2`` are always 0,
and the runs short of real tiles or of jokers alone are never listed (the rules refuse two
real tiles per set with sets of 6+, and the jokers alone cannot make one).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import N1_AT, SHORT_AT

# One arrangement's colour-code high bits (the second key word's 20 bits at WIDE_HIGH_AT),
# both arrangements' as one 40-bit field (the final one's low), of which the first key
# holds 16 bits (6 at N1_AT, 10 at SHORT_AT, below COVER_AT) and the meld's key 24 (6 at
# N1_AT, 18 at SHORT_AT, up to bit 62)
HIGH_BITS = 20
HIGH_MASK = np.int64((1 << HIGH_BITS) - 1)


@njit(cache=True, inline="always")
def spill_of(k1, k2):
    """Both arrangements' colour-code high bits of the pair ``(k1, k2)`` (sets of 6+), the
    final arrangement's in the low :data:`HIGH_BITS` (the inverse of :func:`spilled`)."""
    return (((k1 >> N1_AT) & 63) | ((k1 >> SHORT_AT) & 1023) << 6
            | ((k2 >> N1_AT) & 63) << 16 | ((k2 >> SHORT_AT) & 262143) << 22)


@njit(cache=True, inline="always")
def spilled(high1, high2):
    """The two keys' bits holding the final arrangement's and the meld's colour-code high
    bits ``high1``, ``high2`` (second-key-word fields, :func:`solvers.rummikub._layout.
    code_high`).

    >>> from solvers.rummikub._layout import COVER_AT
    >>> h1, h2 = 0b10101 << 15 | 7, 31 << 15 | 0b11 << 5
    >>> b1, b2 = spilled(h1, h2)
    >>> spill = int(spill_of(b1, b2))
    >>> (spill & 0xFFFFF, spill >> 20) == (h1, h2), int(b1) >> COVER_AT, int(b2) >> 63
    (True, 0, 0)
    """
    spill = high1 | high2 << HIGH_BITS
    return ((spill & 63) << N1_AT | ((spill >> 6) & 1023) << SHORT_AT,
            ((spill >> 16) & 63) << N1_AT | (spill >> 22) << SHORT_AT)
