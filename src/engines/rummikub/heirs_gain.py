"""The fewest-tiles-moved pass's bound on the rack's gain still to come, from the move DP.

The pass (:mod:`engines.rummikub.heirs`) prunes a state whose objective so far, plus the
most the rack can still add, falls short of the optimum.  It counted every rack tile at a
later number as one that may still be played.  Where the optimum leaves rack tiles on the
rack, that slack lets states that skipped playable tiles (to keep table runs whole) live on
until the table's end.  Here, per number v+1, the move DP (:func:`solvers.rummikub.
solve_arrays`) with the weights of the numbers below v+1 zeroed gives the most that any
legal arrangement of the pass's table and the rack gains from rack tiles at v+1 and up.
Every move the pass looks for is such an arrangement, so the bound holds for each: the
same answer, found in fewer states (benches/README.md "Fewest tiles moved").  The DP runs
at a few numbers only (:data:`CUTS`, about a plain move's cost each); the bound at the
numbers before a cut adds the rack's own gain up to the cut.  Where the optimum plays the
whole rack the bound is the rack itself, so it is not computed, and elsewhere only once the
one-tile probes turn out dear (:class:`GainBound`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engines.rummikub.heirs_later import NCOL, NNUM, kernel_layout
from engines.rummikub.position import _counts
from engines.rummikub.rules import Rules

__all__ = ["CUTS", "GAIN_AFTER", "GAIN_BOUND", "GainBound", "capped_gains", "with_gain_bound"]

# Whether the pass reads the move DP's bound on the rack's gain to come (False: an A/B)
GAIN_BOUND = True
# The states each one-tile probe takes before the bound is computed (cheaper ones end sooner)
GAIN_AFTER = 1_000
# The numbers (0-based) whose DP is solved: each costs about a plain move, and the bound is
# a step down the numbers (the most from v+1 on less that from the next cut on is at most
# the rack's gain in between).  One cut at the second number (where the states first pay for
# the rack's slack) and one in the middle did as well as (3, 6, 9) or (4, 8) on the bench
# (benches/README.md "Fewest tiles moved") at less cost.
CUTS = (1, 6)


def with_gain_bound(tables: dict, way: tuple[list, np.ndarray, np.ndarray],
                    rest: tuple[int, int, int], rules: Rules) -> dict:
    """``tables`` with ``"gain_from"``: per number v+1 (index v, 0..13), at least the most
    rack gain (real tiles, in the objective's weights) that a legal arrangement gets at
    numbers v+1 and up (that most at the :data:`CUTS`); None where the optimum plays the
    whole rack (or :data:`GAIN_BOUND` is off).
    ``way``: the table sets, the rack's counts and the objective's weights, in the pass's
    order of numbers; ``rest``: the rack's jokers, the joker weight and the optimum."""
    sets, rack, weight = way
    rack_j = rest[0]
    if not GAIN_BOUND or not sets or not _rack_left(way, rest):
        return {**tables, "gain_from": None}
    full = kernel_layout(weight)
    from solvers.rummikub import solve_arrays

    must, must_j = _counts((t for s in sets for t in s), rules.colours, rules.numbers)
    weights = np.zeros((len(CUTS), NCOL, NNUM), np.int64)
    for k, v in enumerate(CUTS):
        weights[k, :, v:] = full[:, v:]
    n = len(CUTS)
    status, best, *_ = solve_arrays(
        np.repeat(kernel_layout(must)[None], n, 0),
        np.repeat(kernel_layout(rack)[None], n, 0), np.full(n, must_j, np.int64),
        np.full(n, rack_j, np.int64), weights, np.zeros(n, np.int64),
        np.full(n, int(rules.search_mode(True, sets)), np.int64), parallel=False,
        group_ok=rules.group_tables()[0])
    if (status != 1).any():  # (cannot happen: the table itself is an arrangement)
        return {**tables, "gain_from": None}
    # between cuts: the next cut's most and every rack tile before it (a number's gain is
    # at most its rack tiles'), the rack's own gain past the last cut
    rack_from = np.append(np.cumsum((kernel_layout(rack) * full).sum(axis=0)[::-1])[::-1], 0)
    gain_from = rack_from.copy()
    for v in range(NNUM):
        u = next((k for k, cut in enumerate(CUTS) if cut >= v), None)
        if u is not None:
            gain_from[v] = best[u] + rack_from[v] - rack_from[CUTS[u]]
    return {**tables, "gain_from": gain_from.astype(np.int64)}


def _rack_left(way: tuple[list, np.ndarray, np.ndarray], rest: tuple[int, int, int]) -> bool:
    """Whether the optimum (``rest[2]``) leaves rack tiles on the rack (``way``'s counts
    and weights; ``rest``: the rack's jokers and the joker weight first)."""
    _sets, rack, weight = way
    whole = int((kernel_layout(rack) * kernel_layout(weight)).sum()) + rest[1] * rest[0]
    return rest[2] < whole


def capped_gains(rem: np.ndarray, before: np.ndarray, gain_from: np.ndarray | None,
                 scale1: int) -> tuple[np.ndarray, np.ndarray]:
    """The pass's ``rem[v, c]`` (the rack's most gain after colour c of number v+1) and
    ``before[v]`` (from number v+1 on), in units of ``scale1``, each no more than
    ``gain_from`` allows (:func:`with_gain_bound`; None: unchanged)."""
    if gain_from is None:
        return rem, before
    later = rem[:, NCOL - 1]  # (from number v+2 on: every colour of v+1 placed)
    here = rem - later[:, None]  # (the later colours' tiles at v+1)
    rem = here + np.minimum(later, gain_from[1:] * scale1)[:, None]
    return rem, np.minimum(before, gain_from[:NNUM] * scale1)


class GainBound:
    """The bound of :func:`with_gain_bound` for the fewest-tiles-moved pass's directions,
    computed on first need into ``built`` (the pass's tables per direction: 0 the table's
    order of numbers, 1 turned round; ``ways``: the table sets, the rack's counts and the
    weights in each; ``rest``: the rack's jokers, the joker weight and the optimum)."""

    def __init__(self, built: dict[int, dict], ways: tuple, rest: tuple[int, int, int],
                 rules: Rules) -> None:
        self.built, self.ways, self.rest, self.rules = built, ways, rest, rules

    def gate(self) -> tuple[int, Callable[[list], None]] | None:
        """For the one-tile probes' race: the states each takes before :meth:`install`, and
        it; None where the bound is not computed (the optimum plays the whole rack)."""
        if not GAIN_BOUND or not _rack_left(self.ways[0], self.rest):
            return None
        return GAIN_AFTER, self.install

    def prepare(self, direction: int) -> None:
        """The bound in ``direction``'s tables (the passes made after read it)."""
        tables = self.built[direction]
        if "gain_from" not in tables:
            self.built[direction] = with_gain_bound(tables, self.ways[direction], self.rest,
                                                    self.rules)

    def install(self, passes: list) -> None:
        """The bound in these running passes' directions, and in the passes themselves
        (``heirs._Pass.tighten``)."""
        for one in passes:
            self.prepare(one.direction)
            one.tighten(self.built[one.direction]["gain_from"])
