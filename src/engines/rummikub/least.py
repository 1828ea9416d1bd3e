"""Least disturbance: among the optimal moves, one that keeps the most table sets unchanged.

A table set is *kept* when the table afterwards holds a set of exactly its tiles.  The
search uses the exact DP (:mod:`solvers.rummikub`) as an oracle and no other solver:

- *Holding out* a set of table sets ``K`` (they stay on the table as they are and leave the
  problem) and solving the rest (the other table sets' tiles must be placed, the rack's
  may be) gives an optimum ``opt(K) <= opt(empty)``: any arrangement of the rest plus the
  held-out sets is an arrangement of the whole position playing the same rack tiles.  The
  DP's score is one integer that holds the objective *and* its tie-breaks (most tiles, then
  value, then fewest jokers, or value first: :func:`~engines.rummikub.position.
  objective_weights`), so ``opt(K) == opt(empty)`` means "``K`` can be kept by a move that
  is optimal under every tie-break".  Call such ``K`` *keepable*.
- Keepable sets are closed under subsets: if ``K`` is keepable and ``J`` is a subset,
  ``opt(J) >= opt(K)`` (the arrangement for ``K`` also keeps ``K - J``), and never more than
  the optimum.  So the most sets kept is the largest keepable ``K``; equivalently the fewest
  sets ``D`` left *in play* (``D`` = the table minus ``K``) such that the DP on ``D`` and the
  rack reaches the optimum.
- A *core* is a set of table sets that cannot all be kept; every keepable ``K`` misses at
  least one set of each core, so the sets in play must *hit* every core.  The search is an
  implicit hitting-set loop: take a smallest ``D`` hitting every core found so far (a lower
  bound on the answer, found exactly by a small branch and bound); if the DP on ``D``
  reaches the optimum, ``D`` is optimal; if not, the sets outside ``D`` cannot all be kept,
  and cores are cut from them (QuickXplain: a minimal subset that still cannot be kept, in
  about ``k log n`` DP calls) until what is left can be kept.  Every arrangement the DP
  returns on the way is an upper bound (its sets in play, less those it left unchanged).

The answer is exact: the lower bound is a hitting set of proven cores, the move a DP
arrangement reaching the optimum.  The cost is many DP calls when many different sets of
sets could take the rack's tiles (large tables; figures in ``benches/README.md``).

>>> from engines.rummikub.position import Position
>>> pos = Position.from_strings([["R6", "R7", "R8"], ["R3", "R4", "R5"]], "R9")
>>> move = least_disturbing_move(pos, "tiles")
>>> [format_meld(m) for m in move.table], move.sets_kept
(['R3 R4 R5', 'R6 R7 R8 R9'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from engines.rummikub.position import (
    Move,
    Position,
    _counts,
    kernel_results,
    objective_weights,
)
from engines.rummikub.rules import DEFAULT_RULES, Rules
from engines.rummikub.sets import Meld, format_meld, meld_tiles, validate_set
from engines.rummikub.tiles import COLOURS, JOKER, Tile

__all__ = ["format_meld", "least_disturbing_move"]


def _key(tiles) -> tuple:
    return tuple(sorted(tiles))


def _popcount(mask: int) -> int:
    return mask.bit_count()


class _Oracle:
    """The DP on the table sets of a bit mask (in play) and the whole rack, under ``rules``
    (their real tiles per set, tile set and joker retrieval; the position is melded)."""

    def __init__(self, sets: Sequence[Sequence], rack, rack_jokers: int, weight: np.ndarray,
                 joker_weight: int, rules: Rules = DEFAULT_RULES) -> None:
        self.sets = list(sets)
        self.keys = [_key(s) for s in sets]
        counts = [_counts(s) for s in sets]
        self.counts = np.array([c for c, _ in counts], np.int64).reshape(len(sets), 4, 13)
        self.jokers = np.array([j for _, j in counts], np.int64)
        self.rack = rack[None]
        self.rack_jokers = np.array([rack_jokers], np.int64)
        self.weight = weight[None]
        self.joker_weight = np.array([joker_weight], np.int64)
        self.rules = rules
        self.official = rules.joker_retrieval == "official"
        self.mode = np.array([rules.search_mode(True)], np.int64)
        self.group_ok = rules.group_tables()[0]
        self.full = (1 << len(sets)) - 1
        self.keepable: list[int] = []  # families of sets known to be keepable together
        self.not_keepable: list[int] = []  # ... and known not to be
        self.target: int | None = None
        self.best = -1  # in-play mask of the best arrangement found, its sets kept removed
        self.best_result = None

    def _in_play(self, mask: int) -> np.ndarray:
        return np.array([mask >> i & 1 for i in range(len(self.keys))], np.bool_)

    def _mode(self, mask: int) -> np.ndarray:
        """The rules integer for the sets in ``mask``: under official retrieval it holds the
        places of their jokers only (a held-out set keeps its jokers in place)."""
        if not self.official:
            return self.mode
        in_play = [s for i, s in enumerate(self.sets) if mask >> i & 1]
        return np.array([self.rules.search_mode(True, in_play)], np.int64)

    def _must(self, mask: int) -> tuple[np.ndarray, np.ndarray]:
        chosen = self._in_play(mask)
        return self.counts[chosen].sum(axis=0)[None], self.jokers[chosen].sum(keepdims=True)

    def reach(self, mask: int):
        """The DP's arrangement of the sets in ``mask`` reaching the optimum, or ``None``."""
        from solvers.rummikub import reach_arrays

        must, must_j = self._must(mask)
        status, _best, choice, group_jokers, _stats = reach_arrays(
            must, self.rack, must_j, self.rack_jokers, self.weight, self.joker_weight,
            np.array([self.target], np.int64), self._mode(mask), self.group_ok)
        if status[0] != 1:
            return None
        return kernel_results(status, choice, group_jokers, self.rules)[0]

    def solve(self, mask: int):
        """(rack score, the DP's result) for the table sets in ``mask``."""
        from solvers.rummikub import solve_arrays

        must, must_j = self._must(mask)
        status, best, choice, group_jokers, _stats = solve_arrays(
            must, self.rack, must_j, self.rack_jokers, self.weight, self.joker_weight,
            self._mode(mask), parallel=False, group_ok=self.group_ok)
        if status[0] != 1:  # cannot happen: the table sets in play are an arrangement
            raise AssertionError("the DP found no arrangement of valid table sets")
        return int(best[0]), kernel_results(status, choice, group_jokers, self.rules)[0]

    def unchanged(self, mask: int, melds: Sequence[Meld]) -> int:
        """The table sets in ``mask`` that ``melds`` holds unchanged (as a mask)."""
        pool = Counter(_key(meld_tiles(m)) for m in melds)
        kept = 0
        for i, key in enumerate(self.keys):
            if mask >> i & 1 and pool[key] > 0:
                pool[key] -= 1
                kept |= 1 << i
        return kept

    def reaches(self, mask: int) -> bool:
        """Does the DP on the sets in ``mask`` (the others kept) reach the optimum?

        Answered without a DP call when a family known to be keepable holds the sets kept
        here, or they hold a family known not to be (keepable families are closed under
        subsets).  A DP answer that reaches the optimum also leaves some sets in play
        unchanged: they are keepable together with the held-out ones.
        """
        kept = self.full & ~mask
        for family in self.keepable:
            if kept & ~family == 0:
                return True
        for family in self.not_keepable:
            if family & ~kept == 0:
                return False
        result = self.reach(mask)
        if result is None:  # (only the smallest families known are worth keeping)
            self.not_keepable = [f for f in self.not_keepable if kept & ~f] + [kept]
            return False
        unchanged = self.unchanged(mask, result[0])
        kept |= unchanged
        self.keepable = [f for f in self.keepable if f & ~kept] + [kept]
        moved = mask & ~unchanged
        if self.best < 0 or _popcount(moved) < _popcount(self.best):
            self.best, self.best_result = moved, (mask, result)
        return True


def _core(oracle: _Oracle, full: int, candidates: int) -> int:
    """A minimal subset of ``candidates`` that cannot all be kept (``candidates`` cannot).

    QuickXplain (Junker 2004) on the monotone test "keeping these loses the optimum".
    """
    def lost(kept: int) -> bool:
        return not oracle.reaches(full & ~kept)

    def explain(base: int, added: int, rest: int) -> int:
        if added and lost(base):
            return 0
        bits = [1 << i for i in range(full.bit_length()) if rest >> i & 1]
        if len(bits) == 1:
            return rest
        first = sum(bits[: len(bits) // 2])
        second = rest & ~first
        x2 = explain(base | first, first, second)
        x1 = explain(base | x2, x2, first)
        return x1 | x2

    return explain(0, 0, candidates)


def _smallest_hitting_set(cores: list[int], below: int) -> int | None:
    """A smallest mask meeting every core, if one has fewer than ``below`` members."""
    best: list = [None, below]

    def search(chosen: int, size: int, left: list[int]) -> None:
        left = [c for c in left if not c & chosen]
        if not left:
            if size < best[1]:
                best[0], best[1] = chosen, size
            return
        bound, used = 0, 0  # cores disjoint from each other need one member each
        for c in sorted(left, key=_popcount):
            if not c & used:
                bound += 1
                used |= c
        if size + bound >= best[1]:
            return
        core = min(left, key=_popcount)
        while core:
            bit = core & -core
            core ^= bit
            search(chosen | bit, size + 1, left)

    search(0, 0, cores)
    return best[0]


def least_disturbing_move(pos: Position, objective: str, rules: Rules = DEFAULT_RULES) -> Move:
    """The optimal move for a melded ``pos`` that keeps the most table sets unchanged
    (``objective``: ``"tiles"`` or ``"value"``, with their tie-breaks; ``rules``: real tiles
    per set, the tile set and joker retrieval, as the DP solves them).  The sets kept come
    first, in the table's order, then the DP's sets."""
    weight, joker_weight = objective_weights(objective)
    rack, rack_jokers = _counts(pos.rack)
    sets = list(pos.table)
    oracle = _Oracle(sets, rack, rack_jokers, weight, joker_weight, rules)
    full = (1 << len(sets)) - 1
    oracle.target, first = oracle.solve(full)
    moved = full & ~oracle.unchanged(full, first[0])
    oracle.keepable = [full & ~moved]
    oracle.best, oracle.best_result = moved, (full, first)
    cores: list[int] = []

    def cut_cores(keep: int) -> None:
        while keep and not oracle.reaches(full & ~keep):
            core = _core(oracle, full, keep)
            cores.append(core)
            keep &= ~core

    if moved:
        cut_cores(full)
    while True:
        in_play = _smallest_hitting_set(cores, _popcount(oracle.best))
        if in_play is None or oracle.reaches(in_play):
            break  # the best found meets the lower bound, or the bound is reached
        cut_cores(full & ~in_play)
    mask, (melds, placed, jokers) = oracle.best_result
    chosen = oracle._in_play(mask)  # what the table sets in play hold is not played
    placed = placed - oracle.counts[chosen].sum(axis=0)
    jokers -= int(oracle.jokers[chosen].sum())
    played = [Tile(COLOURS[c], v + 1) for c in range(4) for v in range(13)
              for _ in range(int(placed[c, v]))] + [JOKER] * jokers
    held = [validate_set(s) for i, s in enumerate(sets) if not mask >> i & 1]
    return Move(played, held + list(melds), len(played), sum(t.number for t in played),
                previous=sets)
