"""The DP's layers of states: a flat store, an open-addressing hash table, and pruning.

Every sub-step of the DP is a layer of states appended to flat arrays (key, score, parent
index, choice), so the optimal arrangement is replayed by following parents.  The hash
table maps the keys of the layer being built to their index; a slot whose index is older
than the layer counts as free, so the table is never cleared.  Closed layers drop states
that a neighbour dominates (:func:`drop_dominated`); the search for *any* arrangement
reaching a target keeps the most flexible states (:func:`keep_flexible`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import (
    JOKERS_AT,
    NCOL,
    NEED_AT,
    SHORT_AT,
    SHORT_HIGH_AT,
    colour_code,
)

_HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed int64


@njit(cache=True)
def grow(keys, score, parent, choice, cap):
    """The state arrays copied into arrays of ``cap`` entries."""
    n = keys.shape[0]
    k2 = np.empty(cap, np.int64)
    s2 = np.empty(cap, np.int64)
    p2 = np.empty(cap, np.int64)
    c2 = np.empty(cap, np.int16)
    k2[:n] = keys
    s2[:n] = score
    p2[:n] = parent
    c2[:n] = choice
    return k2, s2, p2, c2


@njit(cache=True)
def rehash(keys, lo, hi, bits):
    """A table of ``1 << bits`` slots holding the states ``lo..hi-1`` (slot: key, index)."""
    table = np.full((1 << bits, 2), -1, np.int64)
    mask = (1 << bits) - 1
    shift = 64 - bits
    for i in range(lo, hi):
        h = ((keys[i] * _HASH_MUL) >> shift) & mask
        while table[h, 1] >= lo:
            h = (h + 1) & mask
        table[h, 0] = keys[i]
        table[h, 1] = i
    return table


@njit(cache=True, inline="always")
def make_room(table, bits, end, n, fanout, keys, score, parent, choice):
    """Room for ``fanout`` more states of the layer ``end..n-1``: the arrays grown and the
    hash table enlarged when needed.  Returns ``(table, bits, keys, score, parent, choice)``."""
    if n + fanout > keys.shape[0]:
        keys, score, parent, choice = grow(keys, score, parent, choice, 2 * (n + fanout))
    while 2 * (n - end + fanout) > (1 << bits):
        bits += 1
        table = rehash(keys, end, n, bits)
    return table, bits, keys, score, parent, choice


@njit(cache=True, inline="always")
def relax(table, bits, lo, n, keys, score, parent, choice, nkey, nsc, par, ch):
    """Insert or improve state ``nkey`` of the layer starting at ``lo``; returns the new count.

    A slot is free when its index is older than the layer (indices only grow), so the
    table never needs clearing between layers.
    """
    mask = (1 << bits) - 1
    h = ((nkey * _HASH_MUL) >> (64 - bits)) & mask
    while True:
        j = table[h, 1]
        if j < lo:
            table[h, 0] = nkey
            table[h, 1] = n
            keys[n] = nkey
            score[n] = nsc
            parent[n] = par
            choice[n] = ch
            return n + 1
        if table[h, 0] == nkey:
            if nsc > score[j]:
                score[j] = nsc
                parent[j] = par
                choice[j] = ch
            return n
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def lookup(table, bits, lo, key):
    """Index of state ``key`` in the layer starting at ``lo``, or -1."""
    mask = (1 << bits) - 1
    h = ((key * _HASH_MUL) >> (64 - bits)) & mask
    while True:
        j = table[h, 1]
        if j < lo:
            return -1
        if table[h, 0] == key:
            return j
        h = (h + 1) & mask


@njit(cache=True)
def drop_dominated(table, bits, lo, hi, keys, score):
    """Mark (``keys[i] = -1``) the states of a closed layer that another state dominates.

    In one colour, a run of length 1 that is one of length 2 or >= 3 instead, a run of
    length 2 that is one of length >= 3 instead, or one more run of length >= 3, never
    loses an option (longer runs need fewer tiles; a long run may end anywhere), so a
    state with such a neighbour of at least its score cannot be better.  The order is strict, so
    every dropped state keeps a live dominator.
    """
    for i in range(lo, hi):
        key = keys[i]
        sc = score[i]
        for c in range(NCOL):
            code = colour_code(key, c)
            a1 = code % 5
            a2 = (code // 5) % 5
            a3 = code // 25
            base = key & ~(np.int64(127) << (7 * c))
            j = -1
            if a1 + a2 + a3 < 4:
                j = lookup(table, bits, lo, base | (np.int64(a1 + 5 * a2 + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a1 > 0:
                j = lookup(table, bits, lo, base | (np.int64(a1 - 1 + 5 * (a2 + 1) + 25 * a3)
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a2 > 0:
                j = lookup(table, bits, lo, base | (np.int64(a1 + 5 * (a2 - 1) + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a1 > 0:
                j = lookup(table, bits, lo, base | (np.int64(a1 - 1 + 5 * a2 + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            j = -1
        if j >= 0:
            keys[i] = -1


@njit(cache=True, inline="always")
def _slots(field):
    """The filled 5-bit slots of a list of runs short of real tiles (up to three)."""
    # (ints: without the JIT numpy's booleans add as ``or``; the kernels count them)
    return int(field & 31 > 0) + int((field >> 5) & 31 > 0) + int(field >> 10 > 0)


@njit(cache=True, inline="always")
def _owed(key, listed):
    """:func:`obligations` with ``listed`` runs short of real tiles."""
    h = 2 * ((key >> NEED_AT) & 3) + 2 * listed
    for c in range(NCOL):
        code = colour_code(key, c)
        h += 2 * (code % 5) + (code // 5) % 5
    return 4 * h + ((key >> JOKERS_AT) & 3)


@njit(cache=True, inline="always")
def obligations(key):
    """What state ``key`` still owes, as :func:`keep_flexible` ranks it (under 256)."""
    return _owed(key, _slots((key >> SHORT_AT) & 1023))


@njit(cache=True, inline="always")
def obligations_pair(key, key2, copies3):
    """:func:`obligations` of a two-word state ``(key, key2)``; ``copies3`` (three or four
    copies): the list is in word B (:data:`solvers.rummikub._layout.SHORT_HIGH_AT`, three
    slots), and inside a number word A's list bits hold the group counts at ``N3_AT``.
    Else word A's two slots, as :func:`obligations` (a third joker's third slot in word B
    is left out: counted, the ranking changed which of equal arrangements a pass returned)."""
    if copies3:
        return _owed(key, _slots((key2 >> SHORT_HIGH_AT) & 32767))
    return obligations(key)


@njit(cache=True)
def keep_flexible(keys, start, end, width, keys2, copies3):
    """Keep the ``width`` states of a layer with the fewest obligations (drop the rest).

    Obligations: open runs of length 1 (weight 2) and 2 (weight 1), which must continue,
    runs short of real tiles (two real tiles per set; weight 2), the jokers that short runs
    will need, and, last, the jokers already placed.  Used by
    the search for *any* arrangement reaching a target score, where every surviving state
    has the same score so far; equal states keep their order (stable sort).  ``keys2``:
    None, or the states' second words (:func:`obligations_pair`, with ``copies3``).
    """
    pri = np.empty(end - start, np.int64)
    for i in range(start, end):
        key = keys[i]
        if key < 0:
            pri[i - start] = np.int64(1) << 40
        elif keys2 is None:
            pri[i - start] = obligations(key)
        else:
            pri[i - start] = obligations_pair(key, keys2[i], copies3)
    idx = np.argsort(pri, kind="mergesort")
    for r in range(width, end - start):
        keys[start + idx[r]] = -1
