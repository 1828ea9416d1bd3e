"""Card sets as 54-bit masks: a count vector becomes two masks, "held" and "held twice".

The batch kernels read each count vector once into masks, without branches,
and then answer suit sizes, containment and deck limits with a few mask
operations per row instead of a branchy pass per question.
"""

from __future__ import annotations

import numpy as np
from numba import njit

M1 = np.int64(0x5555555555555555)
M2 = np.int64(0x3333333333333333)
M4 = np.int64(0x0F0F0F0F0F0F0F0F)
H01 = np.int64(0x0101010101010101)


@njit(cache=True, nogil=True, inline="always")
def popcount(x):
    """Set bits of a non-negative int64 below 2**63 (LLVM turns this into one instruction)."""
    x = x - ((x >> 1) & M1)
    x = (x & M2) + ((x >> 2) & M2)
    x = (x + (x >> 4)) & M4
    return (x * H01) >> 56


@njit(cache=True, nogil=True, inline="always")
def lowest_bit(x):
    """Index of the lowest set bit of ``x`` (> 0)."""
    return popcount((x & -x) - 1)


@njit(cache=True, nogil=True, inline="always")
def count_masks(v, i):
    """``(held, twice, bad)`` masks of row ``i`` of the (N, 54) count array ``v``.

    Rows are read in place: a per-row slice would cost two reference-count updates,
    shared by all threads, every time.

    ``bad`` marks entries outside 0–2; for the others a card is in ``held``
    with one or two copies and also in ``twice`` with two.
    """
    held = np.int64(0)
    twice = np.int64(0)
    bad = np.int64(0)
    for c in range(54):
        x = np.int64(v[i, c])
        bit = np.int64(1) << c
        held |= bit * ((x | (x >> 1)) & 1)
        twice |= bit * ((x >> 1) & 1)
        bad |= bit * np.int64(((x & -4) != 0) | (x == 3))
    return held, twice, bad


@njit(cache=True, nogil=True, inline="always")
def mask_count(held, twice):
    """Number of cards (copies) of the set ``(held, twice)``."""
    return popcount(held) + popcount(twice)
