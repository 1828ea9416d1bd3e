"""Fewest tiles moved: a look-ahead bound on the table tiles a closed state must still lose.

At a number's close every open run shorter than 3 must go on at the next number (one of
length 1 at the next two), and a released table run's tile there stays only when its
heir goes on there: the run it is linked to, or, for one waiting for a heir, a free run
it adopts there (perhaps one of those short runs).  The runs of a colour at a number are
at most its real tiles there that are not held out, plus the jokers still to place (every
tile and joker in one run at most; groups only take tiles away).  So, with ``demand`` the
distinct runs these need at a number (the linked table runs' heirs, the other short runs,
and the larger of the free short runs and the waiting table runs), each run wanted beyond
that supply is a table tile lost there: the short runs cannot go without.  Summed over
the colours and the next two numbers less the jokers left (one joker is one run at one
place), a lower bound on the tiles still lost that the bound of
:func:`solvers.rummikub._heirs_step.reaches` (every later table tile may stay) does not see
until the runs end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._heirs_state import FIELD_MASK, colour_field
from solvers.rummikub._layout import HOLD_BITS, NCOL, NNUM


@njit(cache=True, inline="always")
def _ones(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def run_bits_of(runs_at: np.ndarray, slot_of: np.ndarray) -> np.ndarray:
    """``[v, c]``: the hold slots of colour c's table runs covering number v+1."""
    out = np.zeros((NNUM, NCOL), np.int64)
    for v in range(NNUM):
        for c in range(NCOL):
            for i in runs_at[v, c]:
                if i >= 0:
                    out[v, c] |= 1 << int(slot_of[i])
    return out


@njit(cache=True, inline="always")
def layer_words(real, colour_bits, run_bits, going_on, v, nnum):
    """What :func:`short_need` and :func:`ahead_lost` read for a state at number v+1, as
    scalars (arrays in the pass's inner loops cost atomic reference counts): ``(near, far,
    ahead)``, ``near``/``far`` the tiles ``real[c, w]`` at numbers v+2 and v+3 (4 bits a
    colour; -1 past the last number), ``ahead``: ``(on, going_on[v], going_on[v+1], the
    slots :func:`run_bits_of` and ``colour_bits`` at v+2 and v+3, 12 bits a colour)``."""
    words = np.zeros(6, np.int64)  # near, far, run bits twice, colour bits twice
    words[0] = words[1] = -1
    for k in range(2):
        w = v + 1 + k
        if w >= nnum:
            break
        words[k] = 0
        for c in range(NCOL):
            words[k] |= np.int64(real[c, w]) << (4 * c)
            words[2 + k] |= np.int64(run_bits[w, c] & FIELD_MASK) << (HOLD_BITS * c)
            words[4 + k] |= np.int64(colour_bits[w, c]) << (HOLD_BITS * c)
    on = np.int64(run_bits[0, 0] >= 0)
    going_next = going_on[v + 1] if v + 1 < nnum else 0
    return words[0], words[1], (on, np.int64(going_on[v]), np.int64(going_next), words[0],
                                words[1], words[2], words[3], words[4], words[5])


@njit(cache=True, inline="always")
def short_need(w0, w1, only, near, far):
    """The jokers the open runs shorter than 3 (of colour ``only``, or all when -1) will need
    at the next two numbers beyond their real tiles there (``near``, ``far``:
    :func:`layer_words`; 99: past the last number)."""
    need = 0
    for c in range(NCOL):
        if only >= 0 and c != only:
            continue
        colour = colour_field(w0, w1, c)
        n1 = n2 = 0
        for s in range(4):
            d = (colour >> (6 * s)) & 63
            if d & 3 == 1:
                n1 += 1
            elif d & 3 == 2:
                n2 += 1
        if n1 + n2 == 0:
            continue
        if near < 0 or (n1 and far < 0):
            return 99
        need += max(0, n1 + n2 - ((near >> (4 * c)) & 15))
        if n1:
            need += max(0, n1 - ((far >> (4 * c)) & 15))
    return need


@njit(cache=True, inline="always")
def ahead_lost(w0, w1, field, done, upto, ahead):
    """The runs wanted beyond the real tiles at the next two numbers, summed over the
    colours, for a state closed at number v+1 (``field``, ``done``: its held-out and done
    bits; ``ahead``: :func:`layer_words`' for v, from ``real[c, w]``: the tiles of colour c
    at number w+1, table's and rack's; ``colour_bits[w, c]``: the hold slots with a tile
    there; ``run_bits``: :func:`run_bits_of`, -1 at [0, 0]: none counted; ``going_on[w]``:
    the slots whose set goes on past number w+1, the others' slots may hold other sets
    later); colours 0 to ``upto`` only (those placed at number v+1).  Less the jokers left,
    a lower bound on the table tiles lost."""
    on, going_here, going_next, near, far, runs_near, runs_far, bits_near, bits_far = ahead
    excess = 0
    if not on:
        return 0
    same = going_here
    for k in range(2):
        real = near if k == 0 else far
        if real < 0:
            break
        if k > 0:
            same &= going_next
        runs = runs_near if k == 0 else runs_far
        bits = bits_near if k == 0 else bits_far
        out = (field | done) & same
        for c in range(upto + 1):
            colour = colour_field(w0, w1, c)
            here = (runs >> (HOLD_BITS * c)) & FIELD_MASK & ~out
            linked = 0
            short = 0
            free_short = 0
            for s in range(4):
                d = (colour >> (6 * s)) & 63
                if d == 0:
                    break
                owner = d >> 2
                mine = owner >= 2 and same >> (owner - 2) & 1
                if mine:
                    linked |= np.int64(1) << (owner - 2)
                needs = (d & 3) == 1 or ((d & 3) == 2 and k == 0)
                if not needs or (mine and here >> (owner - 2) & 1):
                    continue
                if owner == 0:
                    free_short += 1
                else:
                    short += 1
            demand = _ones(here & linked) + short + max(free_short, _ones(here & ~linked))
            mask = (bits >> (HOLD_BITS * c)) & FIELD_MASK
            supply = ((real >> (4 * c)) & 15) - _ones(field & same & mask)
            if demand > supply:
                excess += demand - supply
    return excess
