"""The table sets every optimal move keeping ``K`` sets keeps, proven by the linear relaxation.

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

from numba import njit

from solvers.rummikub._bound import MAX_PIVOTS, _programme, _solve


@njit(cache=True)
def kept_always(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, slot_number,
                slot_colour, set_start, s0, s1, floor_sets, kept):
    """Mark ``kept[i] = 1`` for the table sets ``s0 + i`` (as :func:`solvers.rummikub._bound.
    sets_bound` reads its arguments) that every move placing every table tile, playing rack
    tiles worth ``optimum`` and keeping ``floor_sets`` sets keeps, by the relaxation; those
    already marked ``-1`` (a move releases them) are not tried.  Returns the pivots used."""
    lp = _programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                    slot_number, slot_colour, set_start, s0, s1)
    bound, pivots = _solve(lp, MAX_PIVOTS)
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
