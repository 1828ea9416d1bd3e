"""The wide DP's most table sets kept at an optimum short of the whole rack, by the branched
linear relaxation and an exact check of its node (:mod:`engines.rummikub.wide`).

Where the optimum leaves rack tiles out, the kernel's passes over the held-out subsets
search the most sets kept (:func:`engines.rummikub.wide._kept_by_parts`).  Where many parts
of the rack may be left out (the tiles objective: any few tiles of the same value) that is
an exact pass from the optimum whose floor lets every state through that has not yet left
out the optimum's share of tiles, whatever the sets it held: the sets' bounds prune nothing
until the last numbers (copies=4 + jokers=3 + sets of 4, seed 4 80J #4: 241 k states
whether it asks for 8, 7 or 6 sets kept, 6 the most; 60 ms).

The standard DP's answer to its own such tails (:mod:`solvers.rummikub._branch`,
:func:`solvers.rummikub._least._checked_bound`) works here as it is, before those passes:
the relaxation with the optimum's parts fixed (:func:`solvers.rummikub._bound.programme`'s
``exact``: the score splits one way only into the rack tiles played, their value and the
jokers played, both objectives) and a column a copy of a rack tile, branched on the sets
held out and on the rack tiles played, names a node's sets at its bound.  A move keeping
those sets is a move of the rest of the table (their tiles and jokers out) reaching the
optimum: the exact pass that holds no set out finds it, a few thousand states.  Found, it
keeps as many sets as the bound, which no move passes: it is the answer (the most kept,
and the objective's optimum), with no pass over the held-out subsets.  A node whose sets
that pass proves no move keeps all of is ruled out and the search goes on from there
(:func:`~solvers.rummikub._branch.branched_bound`'s ``nogoods``); a bound of 0 proves the
move in hand (it holds no set out) the answer.  Anything else (the budgets spent, a node
not whole, a root that did not converge) leaves the passes to decide, as before.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engines.rummikub.position import _counts
from engines.rummikub.sets import Meld
from engines.rummikub.tiles import ALL_COLOURS

# False: the passes alone (the tests of the passes)
BRANCH = True
# The nodes a target of the branched search (:func:`solvers.rummikub._branch.branched_bound`)
# and the nodes ruled out by the exact check, at most.  ``--combos --rows "wide DP"`` seeds 4
# and 10, both objectives: of 1,211 optima short of the whole rack, 1,105 answered by the
# node, 82 by a bound of 0, the same states with 16, 64 or 256 nodes (a node answering at its
# target's 27th node at most, its 10th on 99 %); where no node answers, the nodes are the
# cost (``--wide`` seed 11 6x20 sets of 4 + jokers=3 80J #4: 24 ms at 64, 5 at 16)
NODES, ROUNDS = 16, 8
# The root relaxation's pivots; past them no search (18 of those 1,211 roots, the value
# objective with four copies: at the kernel's 4,000 they took 2-4 ms and their nodes up to
# 12 ms more, mostly for nothing; the roots whose node answered used at most 593, median 75)
ROOT_PIVOTS = 1000
# The states of the exact pass on the rest of the table (past them: not known)
REST_STATES = 1 << 18


def kept_at_node(melds: list[Meld], turned: list[Meld], must: np.ndarray, rack: np.ndarray,
                 must_j: int, rack_j: int, scaled: tuple[np.ndarray, int], scale: int,
                 min_len: int, score: int, turn: slice,
                 pass_rest: Callable[[np.ndarray, int, int], int], held: np.ndarray
                 ) -> tuple[int, int] | None:
    """``(1, score)`` of the move keeping the most table sets ``melds`` at the objective's
    optimum ``score`` (the DP's, scaled by ``scale``; the kernel's move in hand holds no set
    out), found by the branched relaxation's node (the output arrays hold it, ``held`` its
    sets kept), or None: the passes decide.  The arrays as the DP reads them (numbers
    reversed by ``turn``, ``turned`` the sets so, ``scaled`` the weights); ``pass_rest(rest,
    rest_j, floor)``: the status of the kernel's exact pass from ``floor`` on the table
    tiles ``rest`` and ``rest_j`` jokers, holding no set out (-1 past its states)."""
    from solvers.rummikub.wide._exact import playable

    if not BRANCH:
        return None
    weight, jw = scaled[0][:, turn] // scale, scaled[1] // scale

    def keeps(chosen: np.ndarray) -> bool | None:
        rest, rest_j = rest_of_table(turned, chosen, must, must_j)
        status = pass_rest(rest, rest_j, score - (must_j - rest_j) * jw * scale)
        return None if status < 0 else status == 1

    table, tiles = np.ascontiguousarray(must[:, turn]), np.ascontiguousarray(rack[:, turn])
    most, chosen = branched_kept(  # (as the numbers run: the parts read weights that grow)
        melds, table, playable(table, tiles, must_j + rack_j, min_len), must_j, rack_j,
        np.ascontiguousarray(weight), jw, min_len, score // scale - must_j * jw, keeps)
    if chosen is not None:
        held[:] = chosen
        return 1, score + most
    return (1, score) if most <= 0 else None


def rest_of_table(melds: list[Meld], chosen: np.ndarray, must: np.ndarray, must_j: int
                  ) -> tuple[np.ndarray, int]:
    """The table's tiles (``must``, ``must_j`` jokers) less those of the sets ``chosen``."""
    kept, kept_j = _counts((s.tile for m, keep in zip(melds, chosen.tolist()) if keep for s in m),
                           *must.shape)
    return must - kept, must_j - kept_j


def branched_kept(melds: list[Meld], must: np.ndarray, rack: np.ndarray, must_j: int,
                  rack_j: int, weight: np.ndarray, jw: int, min_len: int, optimum: int,
                  keeps: Callable[[np.ndarray], bool | None]) -> tuple[int, np.ndarray | None]:
    """``(bound, chosen)``: the branched relaxation's bound on the table sets ``melds`` kept
    by a move of the objective's optimum ``optimum`` (the rack's share: the score less the
    table jokers'), and the sets (``chosen[i]`` 1: ``melds[i]`` kept) of a node reaching it
    that ``keeps`` found a move keeping (True; False: no move keeps them all; None: not
    known, the search ends), or None."""
    from solvers.rummikub._bound import _solve, programme
    from solvers.rummikub._branch import branched_bound, new_search

    n_sets = len(melds)
    slots = [(s.stands_for.number, -1 if s.tile.is_joker else ALL_COLOURS.index(s.tile.colour))
             for m in melds for s in m]
    lp = programme(must, rack, must_j, rack_j, weight, jw, optimum, must.shape[1], min_len,
                   np.array([n for n, _ in slots], np.int64),
                   np.array([c for _, c in slots], np.int64),
                   np.cumsum([0] + [len(m) for m in melds]).astype(np.int64), 0, n_sets,
                   True, True, np.int64(1))
    bound, pivots = _solve(lp, np.int64(ROOT_PIVOTS))
    bound = min(bound, n_sets)
    if pivots <= 0 or bound <= 0:
        return bound, None
    chosen = np.zeros(n_sets, np.int64)
    nogoods = np.zeros((ROUNDS, n_sets), np.int64)
    search = new_search(lp, n_sets)  # (each round goes on from the node before)
    bound, held = branched_bound(lp, n_sets, bound, 0, NODES, chosen, nogoods[:0], search)
    for r in range(ROUNDS):
        if held != bound:
            break
        found = keeps(chosen)
        if found is None or found:
            return bound, chosen if found else None
        nogoods[r] = chosen
        search[5][1] += NODES  # (a budget more a set ruled out)
        bound, held = branched_bound(lp, n_sets, bound, 0, NODES, chosen, nogoods[:r + 1],
                                     search)
    return bound, None
