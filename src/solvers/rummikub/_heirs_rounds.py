"""Fewest tiles moved: the pass's rounds, its floor lowered without starting again.

A pass (:func:`solvers.rummikub._heirs.heirs_pass`) keeps every state that may reach its
lowest floor but expands only those that may reach the tiles staying it asks for
(``admit``); the others wait in their layer with their bound (the state's last column,
:data:`~solvers.rummikub._heirs_state.STATE_COLUMNS`).  When it finds no arrangement, the
next round asks for what the best waiting state may still reach (:func:`next_floor`): it
copies each layer's rows (:func:`carried`) and expands the states now admitted, and the
successors they make join their layers.  Every state that may reach the new floor is then
expanded, as in a pass started at that floor, so the answer is the same; the states
expanded before are not expanded again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._heirs_state import JU_AT, NEG, STATE_COLUMNS, colour_field, relax, room
from solvers.rummikub._layout import NCOL


@njit(cache=True)
def carried(table, bits, start, end, st, old_st, old, remap, admit):
    """The last round's rows ``old`` (a range of ``old_st``; ``old[0]`` -1: none) of the
    layer starting at ``end``, copied there as they were, their parents renamed (``remap``:
    a row of the last round -> its copy, written here for these), and entered in the hash
    table only where a state of the layer before (``start..end-1``) or of these is expanded
    at ``admit`` (else none joins them, and none is checked for dominance); returns ``(n,
    table, bits, st)``, the layer's rows so far ``end..n-1``."""
    n = end
    if old[0] < 0:
        return n, table, bits, st
    hashed = False
    for i in range(start, end):
        hashed |= st[i, 3] != NEG and st[i, 6] >= admit
    for j in range(old[0], old[1]):
        hashed |= old_st[j, 3] != NEG and old_st[j, 6] >= admit
    count = old[1] - old[0]
    if hashed:
        table, bits, st = room(table, bits, end, n, count, st)
    elif n + count > st.shape[0]:
        grown = np.empty((2 * (n + count), STATE_COLUMNS), np.int64)
        grown[:n] = st[:n]
        st = grown
    for j in range(old[0], old[1]):
        parent = old_st[j, 4]
        remap[j] = n
        if hashed:
            n = relax(table, bits, end, n, st, old_st[j, 0], old_st[j, 1], old_st[j, 2],
                      old_st[j, 3], remap[parent] if parent >= 0 else -1, old_st[j, 5],
                      old_st[j, 6])
            continue
        st[n] = old_st[j]
        st[n, 4] = remap[parent] if parent >= 0 else -1
        n += 1
    return n, table, bits, st


@njit(cache=True)
def admitted(st, start, new, end, admit, was):
    """The states of the layer ``start..end-1`` that this round expands (or at the last
    layer, sees) for the first time: the new ones (from ``new``) that may reach ``admit``,
    and the carried ones that waited below the last round's floor ``was``."""
    count = 0
    for i in range(start, end):
        count += st[i, 6] >= admit and (i >= new or st[i, 6] < was)
    return count


@njit(cache=True, inline="always")
def _complete(st, i, must_j, floor, scale2):
    """Whether the last layer's state ``i`` is an arrangement: no run shorter than 3 open,
    the table's jokers placed, the objective and the sets kept that ``floor`` asks for."""
    w0, w1 = st[i, 0], st[i, 1]
    if (w0 >> JU_AT) & 3 < must_j or st[i, 3] - st[i, 3] % scale2 < floor - floor % scale2:
        return False
    for c in range(NCOL):
        colour = colour_field(w0, w1, c)
        for s in range(4):
            d = (colour >> (6 * s)) & 63
            if d and d & 3 < 3:
                return False
    return True


@njit(cache=True)
def final(st, start, end, must_j, floor, admit, scale2):
    """The best final state (:func:`_complete`) with at least ``admit`` tiles staying."""
    best, best_sc = -1, NEG
    for i in range(start, end):
        if (st[i, 3] > best_sc and st[i, 3] % scale2 >= admit
                and _complete(st, i, must_j, floor, scale2)):
            best, best_sc = i, st[i, 3]
    return best


@njit(cache=True)
def next_floor(st, bounds, last, must_j, floor, scale2):
    """After a round that found no arrangement: the most tiles staying that a waiting
    state may reach, or that an arrangement of the last layer (``last``: its index in
    ``bounds``, each layer's rows) has; -1 when neither is left."""
    best = -1
    for layer in range(last + 1):
        if bounds[layer, 0] < 0:
            continue
        for i in range(bounds[layer, 0], bounds[layer, 1]):
            if st[i, 3] == NEG:
                continue
            if layer < last:
                best = max(best, st[i, 6])
            elif _complete(st, i, must_j, floor, scale2):
                best = max(best, st[i, 3] % scale2)
    return best


@njit(cache=True)
def walked(st, best, nnum, steps, held_out):
    """Each sub-step's choice (``steps[v, c]``) and the sets held out before each number
    (``held_out[v]``) on the way to the final state ``best``, by its parents."""
    idx = best
    for v in range(nnum - 1, -1, -1):
        for c in range(NCOL - 1, -1, -1):
            steps[v, c] = st[idx, 5]
            idx = st[idx, 4]
        held_out[v] = st[idx, 5]
        idx = st[idx, 4]
