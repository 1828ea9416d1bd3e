"""A tighter bound on the table sets kept: the linear relaxation branched on the sets held out.

The relaxation of :mod:`solvers.rummikub._bound` holds a table set out by a fraction; on the
four-copies tails its bound stays two or three sets above the most kept, so the passes
asking for it fail (rkj4b: a quarter of those positions' states) and the exact pass then
searches from the narrow passes' floor.  With the held-out columns and the rack tiles
played whole (the tile sets still fractional) the relaxation reached the most kept on 16
of the 17 such positions tried (HiGHS on the same programme, copies=4 40J-80 seeds 1, 5 and
11).  Here a small depth-first search branches on the held-out columns, the most
fractional first, then on the rack tiles played (a column a copy: whole in every move; a
tile played x times, fractional: at least ceil(x) of its copies, or at most floor(x), one
copy of one tile first): a branch is a price, not a bound (``+P`` to set the column to 1,
``-P`` to 0,
``P`` above any number of sets: the basis stays feasible, so each node is solved from the
one before), and a node's bound is the relaxation's Lagrangian value less ``P`` per column
set to 1 by branching, valid whatever the duals (the terms added, ``-P x`` or
``P (x - 1)``, are 0 on the branch's moves).  The search asks whether any node with every
column it branches on whole reaches a target, from the root's bound down: a target none
reaches leaves the bound one lower.  Within a budget of nodes a target: when it runs out
the target stands (valid: only proofs lower it).  The node that reached the bound, where its
held-out columns are whole, names table sets a move may keep (:func:`solvers.rummikub.
_least._keeps_chosen` looks for one).  The rack tiles of two copies (copies=4 adds a third
and fourth copy of up to three tiles) were the gap where only the tiles of one copy were
branched on: copies=4 60J seed 1 #4 stayed at 10 with 2,000 nodes (B3, B11 and B13 played
0.83, 1.83 and 1.33 times), 8 (the most kept) with their copies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bound import MAX_PIVOTS, _solve, later_and_caps, solved_programme
from solvers.rummikub._layout import (
    OFFICIAL_AT,
    OFFICIAL_PLACES,
    REAL2_BIT,
    highest_number,
    min_set_length,
)
from solvers.rummikub._official import held_places_proven, placed_run_jokers

WHOLE = 1e-6  # (a held-out column within this of 0 or 1 is whole)
# The pivots of the whole search (the later sets' and caps' solves keep theirs): a cap on
# its work, past the nodes' budget (a target's 64 nodes bind first; not tuned)
BRANCH_PIVOTS = 4 * MAX_PIVOTS


@njit(cache=True)
def branched_later_bounds(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                          slot_number, slot_colour, set_start, s0, s1, later, caps, lowest,
                          nodes, chosen):
    """:func:`solvers.rummikub._bound.later_bounds` whose bound on all the sets kept is
    then branched (:func:`branched_bound`, at most ``nodes`` nodes a target; ``lowest``:
    sets kept by a move in hand, where the search stops).  Returns ``(bound, pivots, held)``:
    ``held`` -1, or the sets held out (``chosen[i]`` 1 for set ``s0 + i``) by a node of
    the search that reached the bound with every held-out column whole, a move to try."""
    lp, bound, pivots = branch_programme(must, rack, must_j, rack_j, weight, joker_weight,
                                         optimum, mode, slot_number, slot_colour, set_start,
                                         s0, s1)
    held = -1
    if nodes > 0 and bound > lowest:
        bound, held = branched_bound(lp, s1 - s0, bound, lowest, nodes, chosen,
                                     np.zeros((0, s1 - s0), np.int64), new_search(lp, s1 - s0))
    bound, pivots = later_and_caps(lp, bound, pivots, slot_number, set_start, s0, s1, later,
                                   caps)
    return bound, pivots, held if held >= bound else -1


@njit(cache=True)
def branch_programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                     slot_number, slot_colour, set_start, s0, s1):
    """The programme that :func:`branched_bound` branches, solved: ``(lp, bound, pivots
    left)`` (:func:`solvers.rummikub._bound.solved_programme`, a column a copy of a rack
    tile; under official retrieval the table run jokers no rack tile frees are tiles of
    their places, for runs only; the sets priced hold the rules' real tiles a set)."""
    colours = placed_run_jokers(mode, rack, slot_number, slot_colour, set_start, s0, s1)
    return solved_programme(must, rack, must_j, rack_j, weight, joker_weight, optimum,
                            highest_number(mode), min_set_length(mode), slot_number, colours,
                            set_start, s0, s1, True, True, 1 + (mode >> REAL2_BIT & 1))


@njit(cache=True)
def branched_bound(lp, n_sets, bound, lowest, nodes, chosen, nogoods, search):
    """The bound ``bound`` of the solved programme ``lp`` lowered while a search of at most
    ``nodes`` nodes a target (renewed at each: a target proved out of reach spares an exact
    pass of up to 140 k states, 64 nodes cost a few ms; copies=4 60J seed 5 #8 7 -> 6)
    proves that no node with its ``n_sets`` held-out columns and its rack tiles played
    whole reaches it, down to ``lowest`` at most: ``(bound, held)``,
    ``held`` the sets held out by the node that reached it (in ``chosen``), -1 if the
    budget ended the search.  ``nogoods``: sets (1 each) that no move keeps all of, as
    the caller proved (:func:`_nogood_column`: no node that holds one out reaches a
    target); ``search`` (:func:`new_search`): where the search stopped, from where a call
    with more of them goes on.  The prices are as they were on return (the basis stays
    feasible for the next solves)."""
    cost = lp[1][3]
    columns, price, tile_end = _branch_columns(lp, n_sets)
    penalty = 2 * (n_sets + 1)
    fix, at = search[0], search[5]
    # (its own: the later sets' and caps' solves keep theirs; an int64, not the constant's
    # literal: one compiled _reaches)
    pivots = np.int64(BRANCH_PIVOTS)
    held = -1
    if at[2] == 0:  # (a new search, not one going on from its last node)
        fix[:] = 0
        at[0], at[1] = 0, nodes
    while bound > lowest and pivots > 0:
        reached, left, pivots = _reaches(lp, columns, price, tile_end, n_sets, search,
                                         penalty, bound, at[1], pivots, nogoods)
        at[1] = left
        if reached:
            at[2] = 1
            held = _whole_held(lp, n_sets, chosen)  # (-1 where the budget ended it)
            if held >= 0 and _holding(chosen, nogoods) >= 0:
                held = -1  # (the budget ended it at a node no move reaches)
            break
        fix[:] = 0
        at[0], at[1], at[2] = 0, nodes, 0
        bound -= 1
    for k in range(len(columns)):
        cost[columns[k]] = price[k]
    return bound, held


@njit(cache=True)
def rules_out(mode, chosen, slot_colour, set_start, s0):
    """Whether the exact check of the sets ``chosen`` (``chosen[i]`` 1 for set ``s0 + i``;
    the DP on the rest of the table), failing, proves that no move keeps them all: a move
    keeping them is a move of the rest, under official retrieval too unless one of them
    holds a table joker whose place another table joker may take and that one may not
    take all it may (:func:`solvers.rummikub._official.held_places_proven`: the rest's rule,
    :func:`~solvers.rummikub._official.without_held_places`, leaves that matching out)."""
    if not (mode >> OFFICIAL_AT) & OFFICIAL_PLACES:
        return True
    return held_places_proven(mode, chosen, slot_colour, set_start, s0, s0 + len(chosen))


@njit(cache=True)
def new_search(lp, n_sets):
    """The state of :func:`branched_bound`'s search: ``(fix, the fixes before each depth's
    branch, the branches taken by depth (the copies), k + j, whether the branch down was
    taken, (depth, nodes left, 1 where it stopped at a node that reached the target))``
    (:func:`_reaches`)."""
    n_branch = len(_branch_columns(lp, n_sets)[0])
    return (np.zeros(n_branch, np.int64), np.empty((n_branch, n_branch), np.int64),
            np.empty(n_branch, np.int64), np.empty(n_branch, np.int64),
            np.zeros(n_branch, np.bool_), np.zeros(3, np.int64))


@njit(cache=True)
def _branch_columns(lp, n_sets):
    """The columns branched on: the held-out ones, then the rack tiles' (a column a copy,
    :func:`solvers.rummikub._bound.programme`'s ``unit_rack``: HiGHS with both whole
    reached the most kept where the held-out columns alone did not).  Returns
    ``(columns, their prices, tile_end)``: the copies of column k's tile end before
    column ``tile_end[k]`` (a held-out column: k + 1), one after the other."""
    cost, upper, idx = lp[1][3], lp[1][4], lp[1][0]
    first_held, first_real = lp[3][1], lp[3][2]
    columns = np.empty(n_sets + first_held - first_real, np.int64)
    for i in range(n_sets):
        columns[i] = first_held + i
    count = n_sets
    for j in range(first_real, first_held):
        if upper[j] == 1.0 and cost[j] == 0.0:
            columns[count] = j
            count += 1
    columns = columns[:count]
    tile_end = np.arange(1, count + 1)
    for k in range(count - 2, n_sets - 1, -1):  # (a tile's copies: the same row, in a row)
        if idx[columns[k], 0] == idx[columns[k + 1], 0]:
            tile_end[k] = tile_end[k + 1]
    price = np.empty(count)
    for k in range(count):
        price[k] = cost[columns[k]]
    return columns, price, tile_end


@njit(cache=True)
def _reaches(lp, columns, price, tile_end, n_sets, search, penalty, target, nodes, pivots,
             nogoods):
    """Whether a node of the depth-first search (``fix[k]`` for column ``columns[k]``: 1 at
    its upper bound, -1 at 0, 0 free) reaches ``target`` with every column branched on
    whole, or the budget runs out: ``(reached, nodes left, pivots left)``.  A branch on a
    tile played a fractional x times (copies k..end-1): at least ceil(x) (copies k..k+j
    at 1, j = floor(x)) or at most floor(x) (copies k+j..end-1 at 0), so that the
    copies' order does not split the search again.  A node whose columns are all whole
    but that holds out all of a set of ``nogoods`` branches on one of those sets (held
    out, then not): once the branches hold out all of one, the node reaches nothing."""
    fix, saved, first, split, second, at = search
    depth = at[0]  # (0, or the node a call before stopped at: solved again)
    value, pivots = _node(lp, columns, price, fix, penalty, pivots)
    nodes -= 1
    while True:
        k = j = -1
        if value >= target:
            if nodes <= 0 or pivots <= 0:
                at[0] = depth
                return True, nodes, pivots
            k, j = _most_fractional(lp, columns, tile_end, n_sets, fix)
            if k < 0:
                k = _nogood_column(lp, columns, n_sets, fix, nogoods)
                j = k
                if k == -1:
                    at[0] = depth
                    return True, nodes, pivots
        if k >= 0 and depth == len(first):  # (every column fixed: no branch is left; the
            at[0] = depth  # budget's answer, proving nothing, rather than a write past the
            return True, 0, pivots  # arrays)
        if k >= 0:
            saved[depth] = fix
            first[depth], split[depth] = k, j
            second[depth] = False
            fix[k:j + 1] = 1
            depth += 1
        else:
            while depth > 0 and second[depth - 1]:
                depth -= 1
            if depth == 0:
                return False, nodes, pivots
            fix[:] = saved[depth - 1]
            second[depth - 1] = True
            fix[split[depth - 1]:tile_end[first[depth - 1]]] = -1
        if _holding(fix, nogoods) >= 0:  # (the fixes hold out sets no move keeps)
            value = target - 1
            continue
        value, pivots = _node(lp, columns, price, fix, penalty, pivots)
        nodes -= 1


@njit(cache=True, inline="always")
def _node(lp, columns, price, fix, penalty, pivots):
    """The node ``fix``'s bound on the sets kept: the programme with the columns branched
    on priced ``price + penalty * fix``, less ``penalty`` per column it sets to 1."""
    cost = lp[1][3]
    raised = 0
    for k in range(len(fix)):
        cost[columns[k]] = price[k] + penalty * fix[k]
        raised += fix[k] > 0
    value, pivots = _solve(lp, pivots)
    return value - penalty * raised, pivots


@njit(cache=True)
def _nogood_column(lp, columns, n_sets, fix, nogoods):
    """At a node whose columns are all whole: the held-out column to branch on, of the
    first of ``nogoods`` the node holds all out (one not fixed yet), -2 if the fixes hold
    all of it out already (the node reaches nothing), -1 if it holds none of them all."""
    if len(nogoods) == 0:
        return -1
    held = (_values(lp, columns)[:n_sets] > 0.5).astype(np.int64)
    g = _holding(held, nogoods)
    if g < 0:
        return -1
    for i in range(n_sets):
        if nogoods[g, i] and fix[i] == 0:
            return i
    return -2


@njit(cache=True)
def _holding(held, nogoods):
    """The first row of ``nogoods`` whose sets ``held`` (positive where a set is held out)
    holds all, -1 if none."""
    for g in range(len(nogoods)):
        every = True
        for i in range(len(nogoods[g])):
            if nogoods[g, i] and held[i] <= 0:
                every = False
                break
        if every:
            return g
    return -1


@njit(cache=True)
def _most_fractional(lp, columns, tile_end, n_sets, fix):
    """The branch to take: ``(k, k + j)``, a held-out column (j 0) or a rack tile's copies
    from k played x times, j = floor(x) and copy k + j free, whose fraction is nearest one
    half: a held-out column first, then a tile of one copy, then of more (the search
    proves what it proved branching on the first two alone within as many nodes, where
    the copies' columns are as whole); (-1, -1) if every one is whole."""
    value = _values(lp, columns)
    best = np.full(3, 0.5 - WHOLE)  # (by kind: held out, one copy, more)
    pick = np.full(3, -1, np.int64)
    at = np.full(3, -1, np.int64)
    k = 0
    while k < len(columns):
        # (within 0..copies: a basis the pivot budget cut may hold a column below 0, and a
        # negative j would branch on no column at all, deeper without end: the search's
        # arrays have a depth per column; NaN reads as 0)
        x = value[k:tile_end[k]].sum()
        if not x > 0.0:
            x = 0.0
        x = min(x, float(tile_end[k] - k))
        j = np.int64(np.floor(x + WHOLE))
        off = abs(x - j - 0.5)
        kind = 0 if k < n_sets else 1 if tile_end[k] == k + 1 else 2
        if k + j < tile_end[k] and fix[k + j] == 0 and off < best[kind]:
            best[kind], pick[kind], at[kind] = off, k, k + j
        k = tile_end[k]
    for kind in range(3):
        if pick[kind] >= 0:
            return pick[kind], at[kind]
    return -1, -1


@njit(cache=True)
def _values(lp, columns):
    """The values of ``columns`` in the basis of ``lp``."""
    status, xb, basis, upper = lp[0][2], lp[0][3], lp[0][1], lp[1][4]
    value = np.empty(len(columns))
    for k in range(len(columns)):
        value[k] = upper[columns[k]] if status[columns[k]] == 1 else 0.0
    where = np.full(len(status), -1, np.int64)
    for k in range(len(columns)):
        where[columns[k]] = k
    for r in range(len(basis)):
        if where[basis[r]] >= 0:
            value[where[basis[r]]] = xb[r]
    return value


@njit(cache=True)
def _whole_held(lp, n_sets, chosen):
    """The held-out columns of the basis (``chosen[i]``: 1 held out, 0 released) and how
    many are held out; -1 if one is fractional."""
    status, xb, basis = lp[0][2], lp[0][3], lp[0][1]
    first_held = lp[3][1]
    value = np.empty(n_sets)
    for i in range(n_sets):
        value[i] = 1.0 if status[first_held + i] == 1 else 0.0
    for r in range(len(basis)):
        i = basis[r] - first_held
        if 0 <= i < n_sets:
            value[i] = xb[r]
    held = 0
    for i in range(n_sets):
        chosen[i] = np.int64(np.round(value[i]))
        if abs(value[i] - chosen[i]) > WHOLE:
            return -1
        held += chosen[i]
    return held
