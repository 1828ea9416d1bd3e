"""The held-out tables of :mod:`solvers.rummikub._hold` from the table sets: an interval
colouring of the sets' spans of numbers onto :data:`~solvers.rummikub._layout.HOLD_BITS`
bits (split from :mod:`solvers.rummikub._least`, which builds them for its passes).

A table set is given by its slots: ``slot_number`` (the number the tile stands for, 1..13)
and ``slot_colour`` (the real tile's colour, -1 for a joker), the sets one after the other
(``set_start``: where each begins, one more entry for the end).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import HOLD_BITS, NCOL, NNUM


@njit(cache=True, nogil=True)
def hold_tables(slot_number, slot_colour, set_start, s0, s1, which):
    """The held-out tables of :mod:`solvers.rummikub._hold` for the table sets ``s0..s1-1``
    and, in ``which[v, k]`` (-1 after the last), the k-th set (0-based from ``s0``)
    starting at number v+1.  Returns ``(tables, 0)``, or ``(tables, first)`` when more
    than :data:`HOLD_BITS` sets cover the number ``first`` (where the set that found no
    free bit starts)."""
    n = s1 - s0
    first = np.empty(n, np.int64)
    last = np.empty(n, np.int64)
    for i in range(n):
        lo, hi = 99, 0
        for k in range(set_start[s0 + i], set_start[s0 + i + 1]):
            lo = min(lo, slot_number[k])
            hi = max(hi, slot_number[k])
        first[i], last[i] = lo, hi
    spans = np.argsort((first * 64 + last) * 4096 + np.arange(n), kind="mergesort")
    free_from = np.zeros(HOLD_BITS, np.int64)
    where = np.zeros(n, np.int64)
    colour_bits = np.zeros((NNUM, NCOL), np.int64)
    going_on = np.zeros(NNUM, np.int64)
    joker_bits = np.zeros((NNUM, HOLD_BITS + 1), np.int64)
    starting = np.full((NNUM, HOLD_BITS), -1, np.int64)
    set_jokers = np.zeros((NNUM, HOLD_BITS), np.int64)
    later = np.zeros(NNUM, np.int64)
    tables = (colour_bits, going_on, joker_bits, starting, set_jokers, later)
    for i in spans:
        bit = 0
        while bit < HOLD_BITS and free_from[bit] > first[i]:
            bit += 1
        if bit == HOLD_BITS:
            return tables, first[i]
        free_from[bit] = last[i] + 1
        where[i] = bit
    jokers_at = np.zeros(NNUM + 1, np.int64)  # numbered per number as the official tables do
    for i in range(n):
        bit = np.int64(1) << where[i]
        for k in range(set_start[s0 + i], set_start[s0 + i + 1]):
            v = slot_number[k]
            if slot_colour[k] < 0:
                joker_bits[v - 1, where[i]] |= 1 << jokers_at[v]
                joker_bits[v - 1, HOLD_BITS] |= bit
                jokers_at[v] += 1
            else:
                colour_bits[v - 1, slot_colour[k]] |= bit
    which[:] = -1
    for i in spans:
        bit = np.int64(1) << where[i]
        for v in range(first[i], last[i]):
            going_on[v - 1] |= bit
        later[: first[i] - 1] += 1
        k = 0
        while which[first[i] - 1, k] >= 0:
            k += 1
        starting[first[i] - 1, k] = where[i]
        jokers = 0
        for s in range(set_start[s0 + i], set_start[s0 + i + 1]):
            jokers += slot_colour[s] < 0
        set_jokers[first[i] - 1, k] = jokers
        which[first[i] - 1, k] = i
    return tables, 0


@njit(cache=True, nogil=True)
def renumber_chosen_jokers(joker_bits, chosen, slot_number, slot_colour, set_start, s0, s1):
    """Renumber, in place, the joker bits of :func:`hold_tables` built over the sets
    ``chosen`` of ``s0..s1-1`` only (``chosen[i]`` 1 for set ``s0 + i``: their jokers
    numbered from 0 at each number) as over all of the sets, in order: the numbering of the
    whole table's tables, and of :func:`solvers.rummikub._official.official_tables`, whose
    cover a held-out joker's bit must name."""
    rank = np.zeros((NNUM + 1, 8), np.int64)  # per number: the j-th chosen joker's rank
    seen = np.zeros(NNUM + 1, np.int64)
    mine = np.zeros(NNUM + 1, np.int64)
    for i in range(s1 - s0):
        for k in range(set_start[s0 + i], set_start[s0 + i + 1]):
            v = slot_number[k]
            if slot_colour[k] < 0:
                if chosen[i] and mine[v] < 8:
                    rank[v, mine[v]] = seen[v]
                    mine[v] += 1
                seen[v] += 1
    for v in range(1, NNUM + 1):
        for b in range(HOLD_BITS):
            bits = joker_bits[v - 1, b]
            renumbered = 0
            for j in range(mine[v]):
                if bits >> j & 1:
                    renumbered |= 1 << rank[v, j]
            joker_bits[v - 1, b] = renumbered
