"""The table sets a move keeps: by their tiles' keys, and those every optimal move keeping
``K`` sets keeps, proven by the linear relaxation.

A move keeps a table set when its sets after the move hold one of exactly its tiles
(:func:`code_key`, :func:`common_sets`; :func:`plain_kept` for a batch's plain moves).

Fewest tiles moved (:mod:`engines.rummikub.heirs`) looks among the moves that reach the
objective's optimum and keep ``K`` table sets, least disturbance's most.  A set that each of
them keeps leaves the problem: the pass then runs on the other sets asking for ``K`` less
those, and the answer gains it back unchanged (a set kept is its own heir, all its tiles
staying).  The proof for set ``T``: the relaxation of :func:`solvers.rummikub._bound.
sets_bound` with ``T``'s held-out column priced ``-(n + 1)`` (``n`` sets) bounds the sets
kept by any move that releases ``T`` (a move holding ``T`` scores below zero); below ``K``,
none releases it.  Each set's programme is the last one re-priced, solved from its basis.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bound import MAX_PIVOTS, _programme, _solve
from solvers.rummikub._layout import NCOL, NNUM

JOKER_KIND = NCOL * NNUM  # the joker's column of ``played``


@njit(cache=True)
def kept_always(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, slot_number,
                slot_colour, set_start, s0, s1, floor_sets, kept):
    """Mark ``kept[i] = 1`` for the table sets ``s0 + i`` (as :func:`solvers.rummikub._bound.
    sets_bound` reads its arguments) that every move placing every table tile, playing rack
    tiles worth ``optimum`` and keeping ``floor_sets`` sets keeps, by the relaxation; those
    already marked ``-1`` (a move releases them) are not tried.  Returns the pivots used."""
    lp = _programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                    slot_number, slot_colour, set_start, s0, s1)
    bound, pivots = _solve(lp, np.int64(MAX_PIVOTS))  # (int64: one compiled _solve)
    n_sets = s1 - s0
    if bound < floor_sets:  # (cannot happen: a move keeps floor_sets; nothing proven then)
        return MAX_PIVOTS - pivots
    cost, first_held = lp[1][3], lp[3][1]
    for i in range(n_sets):
        if kept[i] < 0 or pivots <= 0:
            continue
        cost[first_held + i] = -(n_sets + 1.0)
        without, pivots = _solve(lp, pivots)
        cost[first_held + i] = 1.0
        if without < floor_sets:
            kept[i] = 1
    return MAX_PIVOTS - pivots


@njit(cache=True, inline="always")
def code_key(code):
    """The tiles of a packed set (:func:`~solvers.rummikub._melds.meld_codes`) as one
    integer: bit ``13 * colour + number - 1`` per real tile, the jokers from bit 52 on
    (a set holds no tile twice: two sets hold the same tiles when their keys are equal)."""
    a, b, length = (code >> 32) & 255, (code >> 24) & 255, (code >> 16) & 255
    mask = np.int64(0)
    jokers = 0
    if code >> 40:  # a group at number a
        for c in range(NCOL):
            if code >> c & 1:
                mask |= np.int64(1) << (c * NNUM + a - 1)
            elif code >> (4 + c) & 1:
                jokers += 1
    else:  # a run of colour a from number b
        for i in range(length):
            if code >> i & 1:
                jokers += 1
            else:
                mask |= np.int64(1) << (a * NNUM + b + i - 1)
    return mask | np.int64(jokers) << JOKER_KIND


@njit(cache=True)
def common_sets(first, second):
    """How many sets of ``first`` a set of ``second`` matches one to one (both keys)."""
    a = np.sort(first)
    b = np.sort(second)
    i = j = common = 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            common += 1
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return common


@njit(cache=True, nogil=True)
def plain_kept(plain_codes, plain_counts, plain_played, set_first, set_key, weight,
               joker_weight, kept, optimum):
    """For each position p of a batch, from its plain move (the DP's codes, counts and
    played tiles as :func:`~solvers.rummikub.solve_range` writes them; its table sets
    ``set_first[p]..set_first[p + 1] - 1``): the table sets it keeps (``kept[p]``) and its
    score under ``weight`` and ``joker_weight`` (``optimum[p]``), :func:`least_range`'s
    inputs."""
    for p in range(len(plain_counts)):
        after = np.empty(plain_counts[p], np.int64)
        for i in range(plain_counts[p]):
            after[i] = code_key(plain_codes[p, i])
        kept[p] = common_sets(set_key[set_first[p]:set_first[p + 1]], after)
        score = joker_weight * plain_played[p, JOKER_KIND]
        for c in range(NCOL):
            for v in range(NNUM):
                score += weight[c, v] * plain_played[p, c * NNUM + v]
        optimum[p] = score
