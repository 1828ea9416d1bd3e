"""Least disturbance: among the optimal moves, one that keeps the most table sets unchanged.

A table set is *kept* when the table afterwards holds a set of exactly its tiles.  The
exact DP (:mod:`solvers.rummikub`) finds it itself, with no other solver:

- *Holding out* a table set (it stays on the table as it is and leaves the problem) and
  arranging the rest is an arrangement of the whole position playing the same rack tiles;
  conversely a move that keeps a set is one that holds it out.  So the most sets kept by
  an optimal move is the most sets held out by an arrangement of the rest that reaches the
  optimum, where the DP's score is one integer holding the objective *and* its tie-breaks
  (most tiles, then value, then fewest jokers, or value first: :func:`~engines.rummikub.
  position.objective_weights`).
- The DP decides the sets held out as it goes (:mod:`solvers.rummikub._hold`: a field of
  bits in its state, one per table set covering the number, assigned here by an interval
  colouring; at most 10 sets cover a number, 8 tiles and 2 jokers, within the field's 12
  bits).  Its score is the objective's scaled above the number of table sets, plus one per
  set held out, so its best score is the optimum with the most sets kept.
- Each pass prunes what cannot reach a score: the objective's optimum (known from the plain
  DP's move) with a number of sets kept.  Narrow passes (a few hundred states per layer)
  find moves keeping more and more sets; then an exact pass asking for one set more than
  the best found either finds the best move (it keeps the best-scored state) or proves
  that none keeps more.  Under official joker retrieval a held-out set keeps its jokers in
  place, so they need no rack tile (the DP's joker bits).

>>> from engines.rummikub.position import Position
>>> pos = Position.from_strings([["R6", "R7", "R8"], ["R3", "R4", "R5"]], "R9")
>>> move = least_disturbing_move(pos, "tiles")
>>> [format_meld(m) for m in move.table], move.sets_kept
(['R3 R4 R5', 'R6 R7 R8 R9'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np

from engines.rummikub.errors import PositionError
from engines.rummikub.position import (
    Move,
    Position,
    _counts,
    kernel_results,
    objective_weights,
)
from engines.rummikub.rules import DEFAULT_RULES, Rules
from engines.rummikub.sets import SHORTEST_SET, Meld, format_meld, meld_tiles, validate_set
from engines.rummikub.tiles import COLOURS, JOKER, Tile

__all__ = ["format_meld", "least_disturbing_move"]


def _key(tiles) -> tuple:
    return tuple(sorted(tiles))


class _Oracle:
    """The plain DP on the table sets of a bit mask (the others held out) and the whole
    rack, under ``rules`` (their real tiles per set, tile set and joker retrieval; the
    position is melded): what the tests check least disturbance against, and the optimal
    move least disturbance starts from when none is given."""

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
        self.group_ok = rules.group_tables()[0]

    def solve(self, mask: int):
        """(rack score, the DP's result) for the table sets in ``mask`` (a held-out set
        keeps its jokers in place: the rules integer names the jokers in play only)."""
        from solvers.rummikub import solve_arrays

        chosen = np.array([mask >> i & 1 for i in range(len(self.keys))], np.bool_)
        in_play = [s for i, s in enumerate(self.sets) if mask >> i & 1]
        must = self.counts[chosen].sum(axis=0)[None]
        mode = np.array([self.rules.search_mode(True, in_play)], np.int64)
        status, best, choice, group_jokers, _stats = solve_arrays(
            must, self.rack, self.jokers[chosen].sum(keepdims=True), self.rack_jokers,
            self.weight, self.joker_weight, mode, parallel=False, group_ok=self.group_ok)
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


def _move(sets: list, held: list[int], melds: list[Meld], placed: np.ndarray,
          jokers: int, table: Sequence[Meld] | None = None) -> Move:
    """The move that keeps the table sets ``held`` (indices) and lays down ``melds``, which
    place ``placed`` real tiles (per colour and number) and ``jokers`` jokers (``table``:
    the table sets read as melds, when known)."""
    kept_ids = set(held)
    in_play = [s for i, s in enumerate(sets) if i not in kept_ids]
    must, must_j = _counts(t for s in in_play for t in s)
    placed = placed - must  # what the table sets in play hold is not played
    played = [Tile(COLOURS[c], v + 1) for c in range(4) for v in range(13)
              for _ in range(int(placed[c, v]))] + [JOKER] * (jokers - must_j)
    kept = [table[i] if table is not None else validate_set(sets[i], min_len=SHORTEST_SET)
            for i in sorted(held)]
    return Move(played, kept + list(melds), len(played), sum(t.number for t in played),
                previous=sets)


@lru_cache(maxsize=4096)
def _table_meld(tiles: tuple[Tile, ...], colours: int = 4, numbers: int = 13) -> Meld:
    """A table set (a position's tuple of tiles) read as a meld within the rules' tile set
    (``colours``, ``numbers``), remembered: the same sets come back turn after turn in a
    game (measured on 23-set tables solved again: the Python around the held-out passes
    1.05 -> 0.64 ms)."""
    return validate_set(list(tiles), min_len=SHORTEST_SET, colours=colours,  # (checked)
                        numbers=numbers)


def _hold_tables(sets: Sequence[Sequence[Tile]], table: Sequence[Meld]) -> tuple:
    """The DP's held-out tables for ``sets`` (read as the melds ``table``:
    :mod:`solvers.rummikub._hold`) and, per number and starting set, the table set's
    index."""
    from solvers.rummikub._layout import HOLD_BITS

    spans = []
    for i, meld in enumerate(table):
        numbers = [slot.stands_for.number for slot in meld]
        spans.append((min(numbers), max(numbers), i))
    spans.sort()
    free_from = [0] * HOLD_BITS  # the first number each field bit is free again at
    where = [0] * len(sets)
    for first, last, i in spans:
        # (a set covering a number holds a tile or a joker there: at most 10 sets do, 14
        # with three copies of each tile)
        bit = next((b for b in range(HOLD_BITS) if free_from[b] <= first), None)
        if bit is None:
            raise PositionError(f"least disturbance: more than {HOLD_BITS} table sets cover "
                                f"number {first} (the DP holds {HOLD_BITS} out at a time); "
                                "solve it with least_disturbance=false")
        free_from[bit] = last + 1
        where[i] = bit
    colour_bits = np.zeros((13, 4), np.int64)
    going_on = np.zeros(13, np.int64)
    joker_bits = np.zeros((13, HOLD_BITS + 1), np.int64)  # last: the sets holding jokers
    starting = np.full((13, HOLD_BITS), -1, np.int64)
    set_jokers = np.zeros((13, HOLD_BITS), np.int64)
    later = np.zeros(13, np.int64)
    jokers_at = [0] * 14  # table jokers numbered per number as the official tables do
    which = [[] for _ in range(13)]
    for i, meld in enumerate(table):
        bit = 1 << where[i]
        for slot in meld:
            v = slot.stands_for.number
            if slot.tile.is_joker:
                joker_bits[v - 1, where[i]] |= 1 if jokers_at[v] == 0 else 2
                joker_bits[v - 1, HOLD_BITS] |= bit
                jokers_at[v] += 1
            else:
                colour_bits[v - 1, COLOURS.index(slot.tile.colour)] |= bit
    for first, last, i in spans:
        bit = 1 << where[i]
        for v in range(first, last):
            going_on[v - 1] |= bit
        later[: first - 1] += 1
        starting[first - 1, len(which[first - 1])] = where[i]
        set_jokers[first - 1, len(which[first - 1])] = sum(t.is_joker for t in sets[i])
        which[first - 1].append(i)
    return (colour_bits, going_on, joker_bits, starting, set_jokers, later), which


# The narrow passes that look for a move keeping many sets: states per layer, positive for
# the most sets held out so far first (one pass), negative for the fewest obligations
# first (passes asking for one set more each time, until one finds none: a single pass
# leaves the exact pass a lower floor, which under official retrieval cost up to 5 times
# the states).  Measured on 90 positions of the 40J/60J/80J bands, seeds 1-2: 4.79 M
# states, against 7.87 M for the former 256, -256, -1,024 ranked by the whole score
# (docs/CHANGELOG.md).
NARROW = (256, -256)
# The exact pass's budget of states while wider narrow passes remain, and their widths:
# an exact pass that outgrows the budget searches from a floor the narrow passes left
# below the best (measured: ...)
EXACT_BUDGET = (100_000, 12, 400_000)  # states: at least, per narrow pass state, at most
WIDER = (1024,)


def least_disturbing_move(pos: Position, objective: str, rules: Rules = DEFAULT_RULES,
                          first: Move | None = None) -> Move:
    """The optimal move for ``pos`` (melded, or meld then continue) that keeps the most
    table sets unchanged
    (``objective``: ``"tiles"`` or ``"value"``, with their tie-breaks; ``rules``: real tiles
    per set, the tile set and joker retrieval, as the DP solves them; ``first``: an optimal
    move already known, else the DP finds one).  The sets kept come first, in the table's
    order, then the DP's sets.

    The DP holds table sets out itself (:mod:`solvers.rummikub._hold`): its score is the
    objective's, scaled above the number of table sets, plus one per set held out, and each
    pass prunes what cannot reach the optimum with a given number of sets kept.  Narrow
    passes (a few hundred states per layer) find moves keeping more sets; an exact pass
    asking for one set more than the best found then finds the best move or proves there
    is none."""
    from solvers.rummikub._held import held_arrays

    ceiling = len(pos.table)  # the most sets a move may keep
    if first is None and not pos.initial_meld_done:  # meld then continue
        from engines.rummikub.arrays import solve_moves

        first = solve_moves([pos], objective, None, replace(rules, least_disturbance=False))[0]
    if first is not None and _relaxation(pos, rules) is not None:
        relaxed = _relaxed_move(pos, objective, rules, first)
        if isinstance(relaxed, Move):
            return relaxed
        ceiling = relaxed
        if first.sets_kept >= ceiling:
            return first
    sets = list(pos.table)
    table = [_table_meld(s, rules.colours, rules.numbers) for s in sets]
    tables, which = _hold_tables(sets, table)
    weight, joker_weight = objective_weights(objective)
    rack, rack_jokers = _counts(pos.rack)
    group_ok = rules.group_tables()[0]
    if first is None:
        oracle = _Oracle(sets, rack, rack_jokers, weight, joker_weight, rules)
        full = (1 << len(sets)) - 1
        melds = oracle.solve(full)[1][0]
        kept = oracle.unchanged(full, melds).bit_count()
    else:
        kept = first.sets_kept
        melds = first.table
    played, played_jokers = _counts(t for m in melds for t in meld_tiles(m))
    must, must_j = _counts(pos.table_tiles)
    optimum = int((weight * (played - must)).sum()) + joker_weight * (played_jokers - must_j)
    scale = len(sets) + 1
    base = (optimum + must_j * joker_weight) * scale
    mode = int(rules.search_mode(pos.initial_meld_done, sets))

    def held(kept: int, width: int, budget: int = 0):
        """The pass keeping at least ``kept`` sets: (sets kept, its answer, exact?)."""
        status, score, *answer, stats, truncated = held_arrays(
            must, rack, must_j, rack_jokers, weight * scale, joker_weight * scale, mode,
            base + kept, tables, group_ok, width, scale, budget)
        narrow_states[0] += int(stats[0]) if width else 0
        return (score - optimum * scale if status == 1 else -1), answer, not truncated

    narrow_states = [0]
    best = None
    proven = False  # an untruncated pass is exact: no move keeps more than it found
    wider = list(WIDER)
    for width in NARROW:
        while not proven:
            found, answer, proven = held(kept + (best is not None), width)
            if found >= 0:
                kept, best = found, answer
                proven = proven or kept >= ceiling
            if found < 0 or width > 0:
                break
    while not proven:
        # the exact pass: within a budget while wider narrow passes remain (a search from
        # a floor below the best costs many times the proof above it)
        low, per, high = EXACT_BUDGET
        budget = min(high, max(low, per * narrow_states[0])) if wider else 0
        found, answer, proven = held(kept + (best is not None), 0, budget)
        if found >= 0:
            best = answer
        if proven:
            break
        width = wider.pop(0)
        while True:
            found, answer, proven = held(kept + (best is not None), width)
            if found >= 0:
                kept, best = found, answer
                proven = proven or kept >= ceiling
            if proven or found < 0 or width > 0:
                break
    if best is None:  # cannot happen: the first move's kept sets reach the floor
        raise AssertionError("the held-out DP passes missed the optimum")
    move = _held_move(sets, table, which, *best, rules)
    if not pos.initial_meld_done:  # meld then continue: the meld its played tiles hold
        from engines.rummikub.arrays import _name_melds

        _name_melds([move], [pos], rules, None)
    return move


# The options a relaxation drops (:func:`_relaxation`).  Measured on the bench bands (seed
# 11, 20 positions, CPU ms): two real tiles 60J max 186 -> 41, 80J 58 -> 42; official + two
# real tiles (relaxed to official) 80J 140 -> 53.  Not official retrieval: relaxed to free
# joker retrieval, its optimum is often higher or its move breaks the rule (80J max
# 55 -> 76 ms).
RELAXED = ("meld_continue", "min_real_tiles")


def _relaxation(pos: Position, rules: Rules) -> tuple[Position, Rules] | None:
    """A position and rules under which every move ``rules`` allow ``pos`` is allowed, that
    the held-out passes solve faster (the options of :data:`RELAXED`): a melded player's
    turn for meld then continue, one real tile per set for two (free joker retrieval for
    official); ``None`` if none applies."""
    loose: dict = {}
    if "meld_continue" in RELAXED and not pos.initial_meld_done:
        loose["meld_continue"] = False
    if "joker_retrieval" in RELAXED and rules.joker_retrieval == "official":
        loose["joker_retrieval"] = "free"
    if "min_real_tiles" in RELAXED and rules.min_real_tiles > 1:
        loose["min_real_tiles"] = 1
    if not loose:
        return None
    return replace(pos, initial_meld_done=True), replace(rules, **loose)


def _relaxed_move(pos: Position, objective: str, rules: Rules, first: Move) -> Move | int:
    """Least disturbance from a relaxation's (:func:`_relaxation`): when ``first`` (optimal
    under ``rules``) reaches the relaxation's optimum, every optimal move is one of the
    relaxation's optimal moves, so the relaxation's least-disturbing move keeps at least as
    many sets as any.  If ``rules`` allow it (its played tiles hold a meld, for meld then
    continue; :func:`~engines.rummikub.position.check_move`) it is the answer, returned;
    otherwise the sets it keeps bound the answer's (returned: the passes stop once they
    reach it); if the optima differ, the number of table sets."""
    from engines.rummikub.arrays import solve_moves
    from engines.rummikub.position import check_move

    loose_pos, loose = _relaxation(pos, rules)
    plain = solve_moves([loose_pos], objective, None, replace(loose, least_disturbance=False))[0]
    if (plain.tiles, plain.value, _jokers(plain)) != (first.tiles, first.value, _jokers(first)):
        return len(pos.table)
    start = first if first.sets_kept > plain.sets_kept else plain
    move = start if start.sets_kept == len(pos.table) else least_disturbing_move(
        loose_pos, objective, replace(loose, least_disturbance=True), start)
    new_sets: list[Meld] = []
    if not pos.initial_meld_done:  # the meld its played tiles hold (the initial-meld search)
        own = replace(rules, meld_continue=False, least_disturbance=False)
        new_sets = solve_moves([replace(pos, table=(), rack=tuple(move.played))], "value",
                               None, own)[0].new_sets
    answer = Move(move.played, move.table, move.tiles, move.value, new_sets=new_sets,
                  previous=list(pos.table))
    return answer if not check_move(pos, answer, rules) else move.sets_kept


def _jokers(move: Move) -> int:
    return sum(t.is_joker for t in move.played)


def _held_move(sets: list, table: list[Meld], which: list[list[int]], choice: np.ndarray,
               group_jokers: np.ndarray, held_out: np.ndarray, rules: Rules) -> Move:
    """The move of a held-out pass's answer (``table``: the table sets as melds)."""
    held = [which[v][k] for v in range(13) for k in range(len(which[v]))
            if held_out[v] >> k & 1]
    melds, placed, jokers = kernel_results(
        np.array([1]), choice[None], group_jokers[None], rules)[0]
    return _move(sets, held, melds, placed, jokers, table)
