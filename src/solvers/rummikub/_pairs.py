"""Layers of states keyed by two words (meld then continue: :mod:`solvers.rummikub._continue`).

The flat store and open-addressing hash table of :mod:`solvers.rummikub._layers`, for a
key that is a pair of the DP's keys: two int64 arrays, a hash table of three columns
(key 1, key 2, index; a slot whose index is older than the layer is free).
"""

from __future__ import annotations

import numpy as np
from numba import njit

_MUL_A = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed int64
_MUL_B = np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9 as a signed int64


@njit(cache=True, inline="always")
def slot(a, b, bits):
    return (((a * _MUL_A) ^ (b * _MUL_B)) >> (64 - bits)) & ((1 << bits) - 1)


@njit(cache=True, inline="always")
def lookup(table, bits, lo, a, b):
    """Index of state ``(a, b)`` in the layer starting at ``lo``, or -1 (the two-word
    :func:`solvers.rummikub._layers.lookup`)."""
    mask = (1 << bits) - 1
    h = slot(a, b, bits)
    while table[h, 2] >= lo:
        if table[h, 0] == a and table[h, 1] == b:
            return table[h, 2]
        h = (h + 1) & mask
    return -1


@njit(cache=True)
def grow(k1, k2, score, parent, choice, cap):
    n = k1.shape[0]
    a = np.empty(cap, np.int64)
    b = np.empty(cap, np.int64)
    s = np.empty(cap, np.int64)
    p = np.empty(cap, np.int64)
    c = np.empty(cap, choice.dtype)  # (int16 in the DP's two-word passes)
    a[:n] = k1
    b[:n] = k2
    s[:n] = score
    p[:n] = parent
    c[:n] = choice
    return a, b, s, p, c


@njit(cache=True)
def rehash(k1, k2, lo, hi, bits):
    """A table of ``1 << bits`` slots (key 1, key 2, index) holding states ``lo..hi-1``."""
    table = np.full((1 << bits, 3), -1, np.int64)
    mask = (1 << bits) - 1
    for i in range(lo, hi):
        h = slot(k1[i], k2[i], bits)
        while table[h, 2] >= lo:
            h = (h + 1) & mask
        table[h, 0] = k1[i]
        table[h, 1] = k2[i]
        table[h, 2] = i
    return table


@njit(cache=True, inline="always")
def relax(table, bits, lo, n, k1s, k2s, score, parent, choice, a, b, nsc, par, ch):
    """Insert or improve state ``(a, b)`` of the layer starting at ``lo``; the new count.

    The probe repeats :func:`solvers.rummikub._layers.relax`'s for two-word keys: one probe
    for both (the second word compared unless None, decided when Numba compiles) measured
    8-11 % more CPU time on the rules document's positions (bench bands, best of 5)."""
    mask = (1 << bits) - 1
    h = slot(a, b, bits)
    while True:
        j = table[h, 2]
        if j < lo:
            table[h, 0] = a
            table[h, 1] = b
            table[h, 2] = n
            k1s[n] = a
            k2s[n] = b
            score[n] = nsc
            parent[n] = par
            choice[n] = ch
            return n + 1
        if table[h, 0] == a and table[h, 1] == b:
            if nsc > score[j]:
                score[j] = nsc
                parent[j] = par
                choice[j] = ch
            return n
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def make_room(table, bits, end, n, fanout, k1s, k2s, score, parent, choice):
    """Room for ``fanout`` more states of the layer ``end..n-1`` (arrays grown, the hash
    table enlarged when needed); returns ``(table, bits, k1s, k2s, score, parent, choice)``."""
    if n + fanout > k1s.shape[0]:
        k1s, k2s, score, parent, choice = grow(k1s, k2s, score, parent, choice,
                                               2 * (n + fanout))
    while 2 * (n - end + fanout) > (1 << bits):
        bits += 1
        table = rehash(k1s, k2s, end, n, bits)
    return table, bits, k1s, k2s, score, parent, choice
