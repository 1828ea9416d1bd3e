"""Positions, moves, and the exact best-move search behind them.

>>> pos = Position.from_strings(table=["R6 R7 R8"], rack="R5 R9 B2", initial_meld_done=True)
>>> move = best_move(pos.table, pos.rack, initial_meld_done=True)
>>> move.tiles, move.value, [str(t) for t in move.played]
(2, 14, ['R5', 'R9'])
>>> [format_meld(m) for m in move.table]
['R5 R6 R7 R8 R9']
>>> [format_meld(m) for m in arrange(parse_tiles("K4 R4 O4 B4 B5 B6 J"))]
['B4 B5 B6 J(B7)', 'K4 R4 O4']
>>> arrange(parse_tiles("R1 R2")) is None
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from engines.rummikub.sets import (
    Meld,
    RummikubInputError,
    Slot,
    format_meld,
    meld_tiles,
    meld_value,
    validate_set,
)
from engines.rummikub.tiles import (
    COLOURS,
    JOKER,
    Tile,
    check_counts,
    format_tiles,
    parse_tiles,
    sort_tiles,
)

Objective = Literal["tiles", "value"]
OBJECTIVES: tuple[str, ...] = ("tiles", "value")
MELD_THRESHOLD = 30
# Lexicographic weights: primary objective * 1e6, tie-break * 10, minus one per rack joker.
_BIG = 1_000_000
_MID = 10


class PositionError(RummikubInputError):
    """A position that cannot be read (bad fields, too many copies, invalid table set)."""


@dataclass(frozen=True)
class Position:
    """A table (list of valid sets), a rack, and whether the player has melded before."""

    table: tuple[tuple[Tile, ...], ...]
    rack: tuple[Tile, ...]
    initial_meld_done: bool = True

    def __post_init__(self) -> None:
        for i, s in enumerate(self.table, start=1):
            validate_set(s, where=f"table set {i}")
        check_counts([t for s in self.table for t in s] + list(self.rack), "table and rack")

    @classmethod
    def from_strings(
        cls, table: Iterable[str | Iterable[str]], rack: str | Iterable[str],
        initial_meld_done: bool = True,
    ) -> Position:
        return cls(
            tuple(tuple(parse_tiles(s)) for s in table),
            tuple(parse_tiles(rack)),
            bool(initial_meld_done),
        )

    @classmethod
    def from_json(cls, obj: dict[str, Any], where: str = "position") -> Position:
        """Read the corpus format: ``table`` (list of lists), ``rack``, ``initial_meld_done``."""
        if not isinstance(obj, dict):
            raise PositionError(f"{where}: expected a JSON object, got {type(obj).__name__}")
        table = obj.get("table", [])
        rack = obj.get("rack")
        if rack is None:
            raise PositionError(f"{where}: missing field 'rack'")
        if not isinstance(table, list) or not all(isinstance(s, list) for s in table):
            raise PositionError(f"{where}: 'table' must be a list of lists of tiles")
        if not isinstance(rack, list):
            raise PositionError(f"{where}: 'rack' must be a list of tiles")
        done = obj.get("initial_meld_done", True)
        if not isinstance(done, bool):
            raise PositionError(f"{where}: 'initial_meld_done' must be true or false")
        try:
            return cls.from_strings(table, rack, done)
        except RummikubInputError as exc:
            raise type(exc)(f"{where}: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        return {
            "table": [[str(t) for t in s] for s in self.table],
            "rack": [str(t) for t in sort_tiles(self.rack)],
            "initial_meld_done": self.initial_meld_done,
        }

    @property
    def table_tiles(self) -> list[Tile]:
        return [t for s in self.table for t in s]


@dataclass
class Move:
    """The answer: rack tiles played and the whole table after the move.

    ``table`` is the complete table afterwards (for an initial meld: the old sets
    unchanged followed by the new ones, listed in ``new_sets``).  ``tiles`` counts
    the rack tiles played (jokers included), ``value`` their face value (a joker 0).
    """

    played: list[Tile]
    table: list[Meld]
    tiles: int
    value: int
    new_sets: list[Meld] = field(default_factory=list)

    @property
    def is_pass(self) -> bool:
        return self.tiles == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "played": [str(t) for t in self.played],
            "sets": [[str(s.tile) for s in m] for m in self.table],
            "annotated": [[str(s) for s in m] for m in self.table],
            "tiles": self.tiles,
            "value": self.value,
        }

    def __str__(self) -> str:
        if self.is_pass:
            return "no play (draw a tile)"
        return f"play {format_tiles(self.played)} ({self.tiles} tiles, value {self.value})"


_CELL = {c: i * 13 - 1 for i, c in enumerate(COLOURS)}


def _counts(tiles: Iterable[Tile]) -> tuple[np.ndarray, int]:
    flat = [0] * 52
    jokers = 0
    for colour, number in tiles:
        if colour == "J":
            jokers += 1
        else:
            flat[_CELL[colour] + number] += 1
    return np.array(flat, np.int64).reshape(4, 13), jokers


def objective_weights(objective: str) -> tuple[np.ndarray, int]:
    """Per-tile gains that encode an objective and its tie-breaks in one integer score."""
    if objective in _WEIGHTS:
        return _WEIGHTS[objective]
    numbers = np.arange(1, 14, dtype=np.int64)
    if objective == "tiles":
        w = _BIG + _MID * numbers
        jw = _BIG - 1
    elif objective == "value":
        w = _BIG * numbers + _MID
        jw = _MID - 1
    else:
        raise RummikubInputError(f"unknown objective {objective!r}; choose 'tiles' or 'value'")
    weights = np.broadcast_to(w, (4, 13)).copy()  # shared between calls; kernels only read
    _WEIGHTS[objective] = (weights, jw)
    return weights, jw


_WEIGHTS: dict[str, tuple[np.ndarray, int]] = {}


_TILE = [[Tile(c, n) for n in range(14)] for c in COLOURS]
_REAL_SLOT = [[Slot(t, t) for t in row] for row in _TILE]
_JOKER_SLOT = [[Slot(JOKER, t) for t in row] for row in _TILE]


def _to_meld(placed: list[tuple[int, int, bool]]) -> Meld:
    # runs come out in number order; groups are sorted by colour
    if placed[0][1] == placed[-1][1]:
        placed = sorted(placed)
    return tuple(_JOKER_SLOT[c][n] if joker else _REAL_SLOT[c][n] for c, n, joker in placed)


def _meld_order(m: Meld) -> tuple[int, int, int]:
    first = m[0].stands_for
    is_group = len({s.stands_for.number for s in m}) == 1 and len(m) > 1 and (
        m[0].stands_for.colour != m[1].stands_for.colour
    )
    return (int(is_group), first.colour_index if not is_group else first.number, first.number)


def _solve(
    problems: Sequence[tuple[np.ndarray, np.ndarray, int, int, np.ndarray, int, int]],
    threads: int | None = None,
) -> list[tuple[list[Meld], np.ndarray, int] | None]:
    """Run the kernel on ``(must, opt, must_j, opt_j, weight, joker_weight, meld)`` tuples.

    Returns per problem ``None`` (infeasible) or (melds, real tiles placed per
    colour/number, jokers placed).
    """
    from solvers.rummikub import build_sets, solve_arrays

    if not problems:
        return []
    cols = list(zip(*problems))
    if len(problems) == 1:
        arrays = [np.asarray(c[0])[None] if i in (0, 1, 4) else np.asarray(c)
                  for i, c in enumerate(cols)]
    else:
        arrays = [np.asarray(np.stack(cols[i]) if i in (0, 1, 4) else cols[i])
                  for i in range(7)]
    old_threads = None
    if threads is not None:
        import numba

        old_threads = numba.get_num_threads()
        numba.set_num_threads(max(1, min(int(threads), numba.config.NUMBA_NUM_THREADS)))
    try:
        status, _best, choice, group_jokers, _stats = solve_arrays(*arrays)
    finally:
        if old_threads is not None:
            import numba

            numba.set_num_threads(old_threads)
    out: list[tuple[list[Meld], np.ndarray, int] | None] = []
    for p in range(len(problems)):
        if status[p] != 1:
            out.append(None)
            continue
        melds = sorted((_to_meld(s) for s in build_sets(choice[p], group_jokers[p])),
                       key=_meld_order)
        placed = choice[p][:, :, 0] + choice[p][:, :, 1]
        jokers = int(choice[p][:, :, 2].sum() + group_jokers[p].sum())
        out.append((melds, placed, jokers))
    return out


def _problem(pos: Position, weight: np.ndarray, joker_weight: int):
    rack, rack_j = _counts(pos.rack)
    if pos.initial_meld_done:
        must, must_j = _counts(pos.table_tiles)
        return (must, rack, must_j, rack_j, weight, joker_weight, 0)
    return (np.zeros((4, 13), np.int64), rack, 0, rack_j, weight, joker_weight, 1)


def _move_from(pos: Position, result) -> Move:
    old = [] if pos.initial_meld_done else [validate_set(s) for s in pos.table]
    if result is None:
        if pos.initial_meld_done:  # cannot happen for a validated table
            raise PositionError("the table cannot be arranged")
        return Move([], old, 0, 0)
    melds, placed, jokers = result
    if pos.initial_meld_done:
        must, must_j = _counts(pos.table_tiles)
    else:
        must, must_j = np.zeros((4, 13), np.int64), 0
    played: list[Tile] = []
    extra = (placed - must).tolist()
    for c in range(4):
        for v in range(13):
            if extra[c][v]:
                played += [_TILE[c][v + 1]] * extra[c][v]
    played += [JOKER] * (jokers - must_j)
    value = sum(t.number for t in played)
    if pos.initial_meld_done:
        return Move(played, melds, len(played), value)
    return Move(played, old + melds, len(played), value, new_sets=melds)


def best_moves(
    positions: Sequence[Position], objective: Objective = "tiles", threads: int | None = None
) -> list[Move]:
    """The best move of every position, solved in one parallel kernel call.

    ``threads`` caps the Numba threads for this call (restored afterwards).

    >>> p = Position.from_strings([], "K10 R10 B10", initial_meld_done=False)
    >>> [m.value for m in best_moves([p, p], objective="value")]
    [30, 30]
    """
    weight, jw = objective_weights(objective)
    results = _solve([_problem(p, weight, jw) for p in positions], threads)
    return [_move_from(p, r) for p, r in zip(positions, results)]


def best_move(
    table: Iterable[Iterable[Tile | str]],
    rack: Iterable[Tile | str] | str,
    initial_meld_done: bool = True,
    objective: Objective = "tiles",
) -> Move:
    """The exact best move for ``rack`` against ``table`` (see :class:`Move`).

    ``objective="tiles"``: most rack tiles, then most value, then fewest rack jokers;
    ``"value"``: most face value (a joker 0), then most tiles, then fewest jokers.
    """
    pos = Position(
        tuple(tuple(parse_tiles(s)) for s in table),
        tuple(parse_tiles(rack)),
        bool(initial_meld_done),
    )
    return best_moves([pos], objective)[0]


def weighted_move(pos: Position, weight: np.ndarray, joker_weight: int) -> Move:
    """The legal move maximising a custom per-tile weight (used by the random player)."""
    return _move_from(pos, _solve([_problem(pos, weight, joker_weight)])[0])


def arrange(tiles: Iterable[Tile | str] | str) -> list[Meld] | None:
    """A valid table using exactly ``tiles``, or ``None`` when none exists."""
    tiles = parse_tiles(tiles)
    check_counts(tiles, "tiles to arrange")
    must, must_j = _counts(tiles)
    weight, jw = objective_weights("tiles")
    result = _solve([(must, np.zeros((4, 13), np.int64), must_j, 0, weight, jw, 0)])[0]
    return None if result is None else result[0]


def check_move(pos: Position, move: Move) -> list[str]:
    """Everything wrong with ``move`` as an answer to ``pos`` (empty list: legal)."""
    problems: list[str] = []
    for i, m in enumerate(move.table, start=1):
        why = check_meld(m)
        if why:
            problems.append(f"set {i} [{format_meld(m)}]: {why}")
    rack = Counter(pos.rack)
    played = Counter(move.played)
    if played - rack:
        problems.append(f"played tiles not on the rack: {format_tiles(sort_tiles(played - rack))}")
    after = Counter(t for m in move.table for t in meld_tiles(m))
    expected = Counter(pos.table_tiles) + played
    if after != expected:
        problems.append(
            f"table tiles differ: missing {format_tiles(sort_tiles(expected - after)) or '-'}, "
            f"extra {format_tiles(sort_tiles(after - expected)) or '-'}"
        )
    if move.tiles != len(move.played):
        problems.append(f"tiles = {move.tiles} but {len(move.played)} tiles played")
    if move.value != sum(t.number for t in move.played):
        problems.append(f"value = {move.value} does not match the played tiles")
    if not pos.initial_meld_done and move.played:
        old = [tuple(meld_tiles(m)) for m in move.table[: len(pos.table)]]
        if old != [tuple(s) for s in pos.table]:
            problems.append("initial meld changed the table")
        new_tiles = Counter(t for m in move.table[len(pos.table):] for t in meld_tiles(m))
        if new_tiles != played:
            problems.append("initial meld sets hold tiles that were not played")
        worth = sum(meld_value(m) for m in move.table[len(pos.table):])
        if worth < MELD_THRESHOLD:
            problems.append(f"initial meld worth {worth} < {MELD_THRESHOLD}")
    return problems


def check_meld(meld: Meld) -> str | None:
    """Why an annotated set is invalid, or ``None``: real tiles stand for themselves and the
    meanings form a run (one colour, consecutive) or a group (one number, distinct colours)."""
    if len(meld) < 3:
        return "fewer than 3 tiles"
    for s in meld:
        if s.tile.is_joker:
            if s.stands_for.is_joker:
                return "a joker stands for a joker"
        elif s.tile != s.stands_for:
            return f"{s.tile} stands for {s.stands_for}"
    if all(s.tile.is_joker for s in meld):
        return "only jokers"
    means = [s.stands_for for s in meld]
    colours = {t.colour for t in means}
    numbers = sorted(t.number for t in means)
    if len(colours) == 1:
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            return "run numbers are not consecutive"
        return None
    if len(set(numbers)) == 1:
        if len(colours) != len(means) or len(means) > 4:
            return "group colours repeat"
        return None
    return "neither a run nor a group"
