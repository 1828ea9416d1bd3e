"""Official joker retrieval in the DP: where each table joker must end the turn, and which
of a number's table jokers its choices so far can account for.

The rules integer holds each table joker's place (:func:`solvers.rummikub._layout.
joker_place`); :func:`official_tables` turns them into per-number masks, and the DP's
sub-step keeps, inside a number, the subsets accounted for (:func:`cover`; key bits at
:data:`solvers.rummikub._layout.COVER_AT`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import NCOL, NNUM, OFFICIAL_AT


@njit(cache=True, error_model="numpy", inline="always")
def cover(fam, eligible, units):
    """Official retrieval: the subsets of a number's table jokers (0..2) that its choices can
    account for, after ``units`` more resources each usable for the jokers of bit mask
    ``eligible``.  ``fam`` has bit s-1 for subset s (the empty subset always counts)."""
    full = fam << 1 | 1
    for _ in range(min(units, 2)):
        grown = full
        for s in range(4):
            if full >> s & 1:
                for i in range(2):
                    if eligible >> i & 1 and not s >> i & 1:
                        grown |= 1 << (s | 1 << i)
        full = grown
    return full >> 1


@njit(cache=True, error_model="numpy")
def official_tables(meld):
    """Per number, the table jokers placed there (bit i: joker i of the number) that a rack
    tile of colour c (``tile[v, c]``), a run joker of colour c (``run[v, c]``) or a group
    joker (``group[v]``) can account for, and all of them (``full[v]``)."""
    tile = np.zeros((NNUM, NCOL), np.int64)
    run = np.zeros((NNUM, NCOL), np.int64)
    group = np.zeros(NNUM, np.int64)
    full = np.zeros(NNUM, np.int64)
    for k in range(2):
        place = (meld >> (OFFICIAL_AT + 10 * k)) & 1023
        if place == 0:
            continue
        v = (place >> 2) & 15
        bit = 1 if full[v] == 0 else 2
        full[v] |= bit
        what = place >> 6
        if place & 2:  # a group joker: any colour its group lacks
            group[v] |= bit
            for c in range(NCOL):
                if what >> c & 1:
                    tile[v, c] |= bit
        else:
            run[v, what] |= bit
            tile[v, what] |= bit
    return tile, run, group, full
