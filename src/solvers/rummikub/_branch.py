"""A tighter bound on the table sets kept: the linear relaxation branched on the sets held out.

The relaxation of :mod:`solvers.rummikub._bound` holds a table set out by a fraction; on the
four-copies tails its bound stays two or three sets above the most kept, so the passes
asking for it fail (rkj4b: a quarter of those positions' states) and the exact pass then
searches from the narrow passes' floor.  With the held-out columns and the rack tiles
played whole (the tile sets still fractional) the relaxation reached the most kept on 16
of the 17 such positions tried (HiGHS on the same programme, copies=4 40J-80 seeds 1, 5 and
11).  Here a small depth-first search branches on the held-out columns only, the most
fractional first: a branch is a price, not a bound (``+P`` to hold the set out, ``-P`` to
release it, ``P`` above any number of sets: the basis stays feasible, so each node is
solved from the one before), and a node's bound is the relaxation's Lagrangian
value less ``P`` per set held by branching, valid whatever the duals.  The search asks
whether any node with every held-out column whole reaches a target, from the root's bound
down: a target none reaches leaves the bound one lower.  Within a budget of nodes: when it
runs out the target stands (valid: only proofs lower it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bound import MAX_PIVOTS, _solve, later_and_caps, programme
from solvers.rummikub._layout import highest_number, min_set_length

WHOLE = 1e-6  # (a held-out column within this of 0 or 1 is whole)


@njit(cache=True)
def branched_later_bounds(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                          slot_number, slot_colour, set_start, s0, s1, later, caps, lowest,
                          nodes):
    """:func:`solvers.rummikub._bound.later_bounds` whose bound on all the sets kept is
    then branched (:func:`branched_bound`, at most ``nodes`` nodes; ``lowest``: sets kept
    by a move in hand, where the search stops).  Returns ``(bound, pivots)``."""
    lp = programme(must, rack, must_j, rack_j, weight, joker_weight, optimum,
                   highest_number(mode), min_set_length(mode), slot_number, slot_colour,
                   set_start, s0, s1, True)
    bound, pivots = _solve(lp, MAX_PIVOTS)
    bound = min(s1 - s0, bound)
    if nodes > 0 and bound > lowest:
        bound = branched_bound(lp, s1 - s0, bound, lowest, nodes)
    return later_and_caps(lp, bound, pivots, slot_number, set_start, s0, s1, later, caps)


@njit(cache=True)
def branched_bound(lp, n_sets, bound, lowest, nodes):
    """The bound ``bound`` of the solved programme ``lp`` lowered while a search of at most
    ``nodes`` nodes proves that no node with its ``n_sets`` held-out columns whole reaches
    it, down to ``lowest`` at most.  The held-out prices are 1 again on return (the basis
    stays feasible for the next solves)."""
    cost, first_held = lp[1][3], lp[3][1]
    penalty = 2 * (n_sets + 1)
    fix = np.zeros(n_sets, np.int64)
    pivots = MAX_PIVOTS  # (its own: the later sets' and caps' solves keep theirs)
    while bound > lowest and nodes > 0 and pivots > 0:
        reached, nodes, pivots = _reaches(lp, fix, penalty, bound, nodes, pivots)
        fix[:] = 0
        if reached:
            break
        bound -= 1
    for i in range(n_sets):
        cost[first_held + i] = 1.0
    return bound


@njit(cache=True)
def _reaches(lp, fix, penalty, target, nodes, pivots):
    """Whether a node of the depth-first search (``fix[i]``: 1 held out, -1 released, 0
    free) reaches ``target`` with every held-out column whole, or the budget runs out:
    ``(reached, nodes left, pivots left)``."""
    n_sets = len(fix)
    column = np.empty(n_sets, np.int64)  # the branches taken, by depth
    second = np.zeros(n_sets, np.bool_)  # (the release branch, tried after the hold one)
    depth = 0
    value, pivots = _node(lp, fix, penalty, pivots)
    nodes -= 1
    while True:
        if value >= target:
            if nodes <= 0 or pivots <= 0:
                return True, nodes, pivots
            i = _most_fractional(lp, fix)
            if i < 0:
                return True, nodes, pivots
            column[depth] = i
            second[depth] = False
            fix[i] = 1
            depth += 1
        else:
            while depth > 0 and second[depth - 1]:
                depth -= 1
                fix[column[depth]] = 0
            if depth == 0:
                return False, nodes, pivots
            second[depth - 1] = True
            fix[column[depth - 1]] = -1
        value, pivots = _node(lp, fix, penalty, pivots)
        nodes -= 1


@njit(cache=True, inline="always")
def _node(lp, fix, penalty, pivots):
    """The node ``fix``'s bound on the sets kept: the programme with the held-out columns
    priced ``1 + penalty * fix``, less ``penalty`` per set it holds out."""
    cost, first_held = lp[1][3], lp[3][1]
    held = 0
    for i in range(len(fix)):
        cost[first_held + i] = 1.0 + penalty * fix[i]
        held += fix[i] > 0
    value, pivots = _solve(lp, pivots)
    return value - penalty * held, pivots


@njit(cache=True)
def _most_fractional(lp, fix):
    """The free held-out column whose value in the basis is nearest one half (-1 if every
    free one is whole)."""
    status, xb, basis = lp[0][2], lp[0][3], lp[0][1]
    first_held = lp[3][1]
    n_sets = len(fix)
    best, pick = 0.5 - WHOLE, -1
    for r in range(len(basis)):
        i = basis[r] - first_held
        if 0 <= i < n_sets and fix[i] == 0 and status[basis[r]] == 2:
            off = abs(xb[r] - 0.5)
            if off < best:
                best, pick = off, i
    return pick
