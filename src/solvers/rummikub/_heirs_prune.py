"""Fewest tiles moved: dropping the states of a layer that a neighbour dominates (and the
hold layer's rule for twin table sets, :func:`twin_alone`).

A state of the pass (:mod:`solvers.rummikub._heirs_state`) never loses an option, nor a
point of score to come, when one of its colours' run descriptors is replaced by a
*better* one or a done bit is cleared:

- a longer length class, same owner (a longer run needs fewer tiles and may end sooner);
- a free run for a spent one, or for the heir of a table run (a free run may be adopted
  by that table run at every place the heir would have scored, and need not be);
- one more free run of length 3+ (it may end at once);
- a table run waiting for a heir instead of one whose heir ended (it may never adopt one).

So a state with such a neighbour scoring at least as much cannot reach a better end.  The
order is strict (each step makes a descriptor larger in (free first, class) or adds one
or clears a bit), so every dropped state keeps a live dominator.  Nothing in this depends
on where in a number the layer is: inside a number the neighbour must also have given the
same tiles to groups (``w2``, part of the key looked up), and the rest of the number treats
both alike.  There only the colour just placed is tried (the others were tried at the last
close, their parents').
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._heirs_state import (
    DONE_AT,
    FIELD_MASK,
    NEG,
    colour_field,
    lookup,
    resorted,
    with_colour,
)
from solvers.rummikub._layout import NCOL


@njit(cache=True)
def _beaten(table, bits, lo, st, w0, w1, w2, sc, c, colour, count):
    """Whether colour ``c``'s ``count`` descriptors (its 24 bits ``colour``, largest first)
    with one of them (or a new one) made better lead to a state of the layer scoring at
    least ``sc`` (the descriptors as bits of an int64: an array here, made or sliced per
    try, cost atomic reference counts)."""
    for s in range(count + 1):
        if s == count and count == 4:
            break
        d = (colour >> (6 * s)) & 63 if s < count else 0
        if 0 < s < count and d == (colour >> (6 * s - 6)) & 63:
            continue  # (equal descriptors: one try)
        owner, k = d >> 2, d & 3
        for better_owner in range(2):
            if better_owner == 1 and owner == 0:
                break
            new_owner = owner if better_owner == 0 else 0
            for k2 in range(k, 4):
                if s == count and k2 < 3:
                    continue
                if s < count and new_owner == owner and k2 == k:
                    continue
                alt = np.int64(new_owner << 2 | k2) << (6 * s)
                a, b = with_colour(w0, w1, c, resorted(alt | colour & ~(np.int64(63) << (6 * s))))
                j = lookup(table, bits, lo, a, b, w2, st)
                if j >= 0 and st[j, 3] >= sc:
                    return True
    return False


@njit(cache=True)
def drop_dominated(table, bits, lo, hi, st, dropped, only=-1, admit=-1):
    """Mark the states ``lo..hi-1`` (a layer) that a neighbour dominates (their score set
    to ``NEG``); returns how many.  ``dropped``: work space, ``hi - lo`` booleans at least;
    ``only``: that colour's descriptors alone (-1: all, and the done bits); ``admit``: only
    the states to be expanded at that floor are checked (:func:`solvers.rummikub._heirs.
    heirs_pass`: the others were, or wait for a lower floor)."""
    for i in range(lo, hi):
        dropped[i - lo] = False
        if st[i, 6] < admit:
            continue
        w0, w1, w2, sc = st[i, 0], st[i, 1], st[i, 2], st[i, 3]
        beaten = False
        done = (w1 >> DONE_AT) & FIELD_MASK if only < 0 else 0
        while done and not beaten:
            b = 0
            while not done >> b & 1:
                b += 1
            done &= done - 1
            j = lookup(table, bits, lo, w0, w1 & ~(np.int64(1) << (DONE_AT + b)), w2, st)
            beaten = j >= 0 and st[j, 3] >= sc
        for c in range(NCOL):
            if beaten:
                break
            if only >= 0 and c != only:
                continue
            colour = colour_field(w0, w1, c)
            count = 0
            for s in range(4):
                count += (colour >> (6 * s)) & 63 > 0
            beaten = _beaten(table, bits, lo, st, w0, w1, w2, sc, c, colour, count)
        dropped[i - lo] = beaten
    count = 0
    for i in range(lo, hi):
        if dropped[i - lo]:
            st[i, 3] = NEG
            count += 1
    return count


@njit(cache=True, inline="always")
def twin_alone(field, subset, starting, twin, count):
    """Whether the ``subset`` of the ``count`` sets ``starting`` holds one out without its
    earlier twin starting with it (``field``: the sets held out, with these)."""
    for k in range(count):
        if subset >> k & 1 and twin[starting[k]] >= 0 and not field >> twin[starting[k]] & 1:
            for e in range(count):
                if starting[e] == twin[starting[k]]:
                    return True
    return False
