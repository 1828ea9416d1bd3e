"""The wide DP's layers: a state store of two-word keys and an open-addressing hash table.

A layer being built lives in one ``(cap, 5)`` int64 array of rows ``(key_a, key_b, score,
parent, choice)``; the hash table maps a key to its row (``-1``: free).  Closed layers keep
only their parents and choices (:func:`close_layer`), appended to the flat replay arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY_A, KEY_B, SCORE, PARENT, CHOICE = 0, 1, 2, 3, 4
_MUL_A = np.uint64(0x9E3779B97F4A7C15)
_MUL_B = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _slot(a, b, mask):
    h = np.uint64(a) * _MUL_A ^ (np.uint64(b) * _MUL_B)
    return np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))


@njit(cache=True)
def new_layer(cap):
    """An empty layer of ``cap`` rows and its hash table (twice as many slots, a power of 2)."""
    bits = 4
    while (1 << bits) < 2 * cap:
        bits += 1
    return np.empty((cap, 5), np.int64), np.full(1 << bits, -1, np.int64)


@njit(cache=True)
def _grown(rows, n):
    """The first ``n`` rows in a layer of twice the room, rehashed."""
    bigger, table = new_layer(2 * rows.shape[0])
    bigger[:n] = rows[:n]
    mask = table.shape[0] - 1
    for i in range(n):
        h = _slot(bigger[i, KEY_A], bigger[i, KEY_B], mask)
        while table[h] >= 0:
            h = (h + 1) & mask
        table[h] = i
    return bigger, table


@njit(cache=True, inline="always")
def offer(rows, table, n, a, b, score, parent, choice):
    """Keep state ``(a, b)`` with ``score`` if it is new or better than the layer's; returns
    the layer's new size (the caller makes room first: :func:`room`)."""
    mask = table.shape[0] - 1
    h = _slot(a, b, mask)
    while True:
        i = table[h]
        if i < 0:
            table[h] = n
            rows[n, KEY_A] = a
            rows[n, KEY_B] = b
            rows[n, SCORE] = score
            rows[n, PARENT] = parent
            rows[n, CHOICE] = choice
            return n + 1
        if rows[i, KEY_A] == a and rows[i, KEY_B] == b:
            if score > rows[i, SCORE]:
                rows[i, SCORE] = score
                rows[i, PARENT] = parent
                rows[i, CHOICE] = choice
            return n
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def lookup(rows, table, a, b):
    """The row of state ``(a, b)`` in the layer, or -1."""
    mask = table.shape[0] - 1
    h = _slot(a, b, mask)
    while table[h] >= 0:
        i = table[h]
        if rows[i, KEY_A] == a and rows[i, KEY_B] == b:
            return i
        h = (h + 1) & mask
    return -1


@njit(cache=True)
def room(rows, table, n, more):
    """``(rows, table)`` with room for ``more`` new states beyond ``n``."""
    while n + more > rows.shape[0]:
        rows, table = _grown(rows, n)
    return rows, table


@njit(cache=True)
def close_layer(rows, n, parents, choices, used):
    """Append the layer's parents and choices to the replay arrays (grown when needed);
    returns ``(parents, choices, used)``, the layer's rows having ids ``used..used+n-1``."""
    if used + n > parents.shape[0]:
        cap = max(2 * parents.shape[0], used + n)
        p2 = np.empty(cap, np.int64)
        c2 = np.empty(cap, np.int64)
        p2[:used] = parents[:used]
        c2[:used] = choices[:used]
        parents, choices = p2, c2
    for i in range(n):
        parents[used + i] = rows[i, PARENT]
        choices[used + i] = rows[i, CHOICE]
    return parents, choices, used + n
