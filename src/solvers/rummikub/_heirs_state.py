"""Fewest tiles moved: the pass's state of three int64 words and its layers' store.

The pass (:mod:`solvers.rummikub._heirs`) keeps each layer's states in rows of ``st``
(``STATE_COLUMNS``: the words ``w0``, ``w1``, ``w2``, the score, the parent row, the
choice, and the state's bound on the tiles staying while it waits to be expanded,
``EXPANDED`` once its successors are made: a pass whose floor is lowered then expands only
the states the lower floor admits, :mod:`solvers.rummikub._heirs_rounds`) with an
open-addressing hash table over the layer's rows (a slot whose row is older than the layer
counts as free, so the table is never cleared).  ``w0``: colours 0 and 1 (four 6-bit run
descriptors each: owner << 2 | length class), the jokers placed at ``JU_AT``, the held-out
field at ``FIELD_AT``; ``w1``: colours 2 and 3, the done bits at ``DONE_AT``; ``w2``:
inside a number, the tiles each colour gave to groups.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import HOLD_BITS

NEG = np.int64(-(2**62))
JU_AT = 48
FIELD_AT = 50
DONE_AT = 48
FIELD_MASK = (1 << HOLD_BITS) - 1
SPENT = 1  # a descriptor's owner: 0 free, 1 spent, 2 + slot: the heir of that table run
_MUL = (np.int64(-7046029254386353131), np.int64(-4658895280553007687),
        np.int64(-7723592293110705685))
STATE_COLUMNS = 7  # w0, w1, w2, score, parent, choice, bound (EXPANDED: expanded)
EXPANDED = -1


@njit(cache=True, inline="always")
def hash_of(a, b, c, bits):
    h = (a * _MUL[0]) ^ (b * _MUL[1]) ^ (c * _MUL[2])
    return (h >> (64 - bits)) & ((1 << bits) - 1)


@njit(cache=True, inline="always")
def room(table, bits, end, n, fanout, st):
    """Room for ``fanout`` more states in the layer ``end..n-1``: ``(table, bits, st)``."""
    if n + fanout > st.shape[0]:
        grown = np.empty((2 * (n + fanout), STATE_COLUMNS), np.int64)
        grown[:n] = st[:n]
        st = grown
    if 2 * (n - end + fanout) > (1 << bits):
        while 2 * (n - end + fanout) > (1 << bits):
            bits += 1
        table = np.full(1 << bits, -1, np.int64)
        mask = (1 << bits) - 1
        for i in range(end, n):
            h = hash_of(st[i, 0], st[i, 1], st[i, 2], bits)
            while table[h] >= end:
                h = (h + 1) & mask
            table[h] = i
    return table, bits, st


@njit(cache=True, inline="always")
def relax(table, bits, lo, n, st, a, b, c, sc, par, ch, bound):
    """Insert or improve state ``(a, b, c)`` of the layer from ``lo``; the new count
    (``bound``: its tiles staying at most; an improved state is expanded again)."""
    mask = (1 << bits) - 1
    h = hash_of(a, b, c, bits)
    while True:
        j = table[h]
        if j < lo:
            table[h] = n
            st[n, 0], st[n, 1], st[n, 2], st[n, 3], st[n, 4], st[n, 5] = a, b, c, sc, par, ch
            st[n, 6] = bound
            return n + 1
        if st[j, 0] == a and st[j, 1] == b and st[j, 2] == c:
            if sc > st[j, 3]:
                st[j, 3], st[j, 4], st[j, 5], st[j, 6] = sc, par, ch, bound
            return n
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def colour_field(w0, w1, c):
    """Colour ``c``'s 24 bits of descriptors."""
    return ((w0 if c < 2 else w1) >> (24 * (c & 1))) & 0xFFFFFF


@njit(cache=True, inline="always")
def with_colour(w0, w1, c, field):
    shift = 24 * (c & 1)
    if c < 2:
        return (w0 & ~(np.int64(0xFFFFFF) << shift)) | (field << shift), w1
    return w0, (w1 & ~(np.int64(0xFFFFFF) << shift)) | (field << shift)


@njit(cache=True, inline="always")
def sorted_field(a, b, c, d):
    """Four descriptors (0: none) as a colour's 24 bits, sorted, largest first (a sorting
    network on scalars: no array made in the pass's inner loops)."""
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    return np.int64(a) | np.int64(b) << 6 | np.int64(c) << 12 | np.int64(d) << 18


@njit(cache=True, inline="always")
def resorted(field):
    """A colour's 24 bits with their descriptors (0: none) sorted again, largest first."""
    return sorted_field(field & 63, (field >> 6) & 63, (field >> 12) & 63, (field >> 18) & 63)


@njit(cache=True)
def lookup(table, bits, lo, a, b, c, st):
    """The row of state ``(a, b, c)`` in the layer from ``lo``, or -1."""
    mask = (1 << bits) - 1
    h = hash_of(a, b, c, bits)
    while True:
        j = table[h]
        if j < lo:
            return -1
        if st[j, 0] == a and st[j, 1] == b and st[j, 2] == c:
            return j
        h = (h + 1) & mask
