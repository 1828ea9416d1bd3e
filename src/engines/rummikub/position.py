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

from engines.arguments import as_list, instance_of, list_of
from engines.rummikub.errors import PositionError, RuleError, TileError
from engines.rummikub.move import Move
from engines.rummikub.rules import DEFAULT_RULES, Rules
from engines.rummikub.sets import (
    SHORTEST_SET,
    Meld,
    RummikubInputError,
    Slot,
    check_meld,
    format_meld,
    is_valid_set,
    meld_tiles,
    validate_set,
)
from engines.rummikub.tiles import (
    ALL_COLOURS,
    COLOURS,
    JOKER,
    Tile,
    check_counts,
    format_tiles,
    parse_tiles,
    sort_tiles,
)
from engines.threads import numba_threads

Objective = Literal["tiles", "value"]
OBJECTIVES: tuple[str, ...] = ("tiles", "value")
# Lexicographic weights: primary objective * 1e6, tie-break * 10, minus one per rack joker.
_BIG = 1_000_000
_MID = 10


@dataclass(frozen=True)
class Position:
    """A table (list of valid sets), a rack, and whether the player has melded before.

    ``min_set_length``: the shortest table set accepted, 3 (the rules document) or 2 (for
    house rules with sets of two tiles, ``Rules(min_set_length=2)``; the search checks
    every set against its rules' minimum); ``max_jokers``: the jokers accepted, 2 (the
    rules document) to 4 (house rules' tile sets, ``Rules(jokers=3)``; the search checks
    the count against its rules'); ``max_copies``: the copies of a tile accepted, 2 to 4
    likewise; ``colours``/``numbers`` (4..8/13..26): wide tile sets' tiles such as ``G20``
    (:meth:`Rules.position_limits` gives them all)."""

    table: tuple[tuple[Tile, ...], ...]
    rack: tuple[Tile, ...]
    initial_meld_done: bool = True
    min_set_length: int = field(default=3, repr=False, compare=False)
    max_jokers: int = field(default=2, repr=False, compare=False)
    max_copies: int = field(default=2, repr=False, compare=False)
    colours: int = field(default=4, repr=False, compare=False)
    numbers: int = field(default=13, repr=False, compare=False)

    def __post_init__(self) -> None:
        meld_flag(self.initial_meld_done)
        table = as_list(self.table, "table", PositionError)
        # checked, canonical tiles in tuples: a frozen Position is hashable and holds no junk
        wide = (self.colours, self.numbers) != (4, 13)
        object.__setattr__(self, "table", tuple(tuple(parse_tiles(s, wide)) for s in table))
        object.__setattr__(self, "rack", tuple(parse_tiles(as_list(self.rack, "rack", TileError),
                                                           wide)))
        if self.min_set_length not in (2, 3):
            raise PositionError(f"min_set_length must be 2 or 3, got {self.min_set_length!r}")
        for name in ("max_jokers", "max_copies"):
            if getattr(self, name) not in (2, 3, 4):
                raise PositionError(f"{name} must be 2..4, got {getattr(self, name)!r}")
        for i, s in enumerate(self.table, start=1):
            validate_set(s, where=f"table set {i}", min_len=self.min_set_length,
                         colours=self.colours, numbers=self.numbers)
        check_counts([t for s in self.table for t in s] + list(self.rack), "table and rack",
                     self.max_jokers, self.max_copies)

    @classmethod
    def from_strings(
        cls, table: Iterable[str | Iterable[str]], rack: str | Iterable[str],
        initial_meld_done: bool = True, **limits: int,
    ) -> Position:
        """``limits``: ``min_set_length``, ``max_jokers`` ... ``numbers`` (see the class)."""
        wide = (limits.get("colours", 4), limits.get("numbers", 13)) != (4, 13)
        return cls(tuple(tuple(parse_tiles(s, wide)) for s in table),
                   tuple(parse_tiles(rack, wide)), meld_flag(initial_meld_done), **limits)

    @classmethod
    def from_json(cls, obj: dict[str, Any], where: str = "position", **limits: int
                  ) -> Position:
        """Read the corpus format: ``table`` (list of lists), ``rack``, ``initial_meld_done``
        (``limits``: as for :meth:`from_strings`)."""
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
            return cls.from_strings(table, rack, done, **limits)
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


# A tile's place in the flat counts, less its number: colour row times 13, less one (every
# colour of the wide tile sets, in their order; other numbers: _cells)
_CELL = {c: i * 13 - 1 for i, c in enumerate(ALL_COLOURS)}


def _cells(numbers: int) -> dict[str, int]:
    return _CELL if numbers == 13 else {c: i * numbers - 1 for i, c in enumerate(ALL_COLOURS)}


def _counts(tiles: Iterable[Tile], colours: int = len(COLOURS),
            numbers: int = 13) -> tuple[np.ndarray, int]:
    """The tiles per colour (``KROBGYPW`` order) and number, ``colours`` x ``numbers``, and
    the jokers (the tiles are checked: each within the tile set)."""
    cell = _cells(numbers)
    flat = [0] * (colours * numbers)
    jokers = 0
    for colour, number in tiles:
        if colour == "J":
            jokers += 1
        else:
            flat[cell[colour] + number] += 1
    return np.array(flat, np.int64).reshape(colours, numbers), jokers


def objective_weights(objective: str, colours: int = 4,
                      numbers: int = 13) -> tuple[np.ndarray, int]:
    """Per-tile gains (``colours`` x ``numbers``), a joker's: an objective as one score."""
    key = (objective, colours, numbers)
    if key in _WEIGHTS:
        return _WEIGHTS[key]
    n = np.arange(1, numbers + 1, dtype=np.int64)
    if objective == "tiles":
        w, jw = _BIG + _MID * n, _BIG - 1
    elif objective == "value":
        w, jw = _BIG * n + _MID, _MID - 1
    else:
        raise RummikubInputError(f"unknown objective {objective!r}; choose 'tiles' or 'value'")
    weights = np.broadcast_to(w, (colours, numbers)).copy()  # shared; kernels only read
    _WEIGHTS[key] = (weights, jw)
    return weights, jw


_WEIGHTS: dict[tuple[str, int, int], tuple[np.ndarray, int]] = {}


_TILE = [[Tile(c, n) for n in range(14)] for c in COLOURS]
_REAL_SLOT = [[Slot(t, t) for t in row] for row in _TILE]
_JOKER_SLOT = [[Slot(JOKER, t) for t in row] for row in _TILE]
# Kernel tile index (13 * colour + number - 1, joker 52) of every canonical text and Tile.
_TILE_OF: list[Tile] = [_TILE[c][n] for c in range(4) for n in range(1, 14)] + [JOKER]
_INDEX: dict[str | Tile, int] = {}
for _i, _t in enumerate(_TILE_OF):
    _INDEX[_t] = _INDEX[str(_t)] = _i
_EXACT_TYPES = frozenset({str, Tile})

# Sets as the kernel packs them (see solvers.rummikub._reconstruct) -> Meld.  There are a
# few thousand possible sets, so the dictionary stays small.
_MELDS: dict[int, Meld] = {}


def _meld(code: int) -> Meld:
    meld = _MELDS.get(code)
    if meld is None:
        a, b, length = (code >> 32) & 255, (code >> 24) & 255, (code >> 16) & 255
        if code >> 40:  # group at number a: colours in order, jokers for the missing ones
            real, jokers = code & 15, (code >> 4) & 15
            meld = tuple(_REAL_SLOT[c][a] if real >> c & 1 else _JOKER_SLOT[c][a]
                         for c in range(4) if (real | jokers) >> c & 1)
        else:  # run of colour a from number b
            meld = tuple(_JOKER_SLOT[a][b + i] if code >> i & 1 else _REAL_SLOT[a][b + i]
                         for i in range(length))
        _MELDS[code] = meld
    return meld


def _solve(
    problems: Sequence[tuple[np.ndarray, np.ndarray, int, int, np.ndarray, int, int]],
    threads: int | None = None,
) -> list[tuple[list[Meld], np.ndarray, int] | None]:
    """Run the kernel on ``(must, opt, must_j, opt_j, weight, joker_weight, meld)`` tuples.

    Returns per problem ``None`` (infeasible) or (melds, real tiles placed per
    colour/number, jokers placed).
    """
    from solvers.rummikub import solve_arrays

    if not problems:
        return []
    cols = list(zip(*problems))
    if len(problems) == 1:
        arrays = [np.asarray(c[0])[None] if i in (0, 1, 4) else np.asarray(c)
                  for i, c in enumerate(cols)]
    else:
        arrays = [np.asarray(np.stack(cols[i]) if i in (0, 1, 4) else cols[i])
                  for i in range(7)]
    with numba_threads(threads, RummikubInputError):
        status, _best, choice, group_jokers, _stats = solve_arrays(*arrays)
    return kernel_results(status, choice, group_jokers)


def kernel_results(
    status: np.ndarray, choice: np.ndarray, group_jokers: np.ndarray,
    rules: Rules = DEFAULT_RULES,
) -> list[tuple[list[Meld], np.ndarray, int] | None]:
    """The kernels' outputs per problem: ``None`` (status not 1) or (melds, real tiles
    placed per colour/number, jokers placed); ``rules``: the tile set they were solved for."""
    from solvers.rummikub import meld_codes_batch

    codes, counts = meld_codes_batch(status, choice, group_jokers, *rules.group_tables()[1:],
                                     rules.min_set_length)
    out: list[tuple[list[Meld], np.ndarray, int] | None] = []
    for p in range(status.shape[0]):
        if status[p] != 1:
            out.append(None)
            continue
        if counts[p] < 0:
            raise AssertionError("the kernel returned a choice that is not an arrangement")
        melds = [_meld(code) for code in codes[p, : counts[p]].tolist()]
        placed = choice[p][:, :, 0] + choice[p][:, :, 1]
        jokers = int(choice[p][:, :, 2].sum() + group_jokers[p].sum())
        out.append((melds, placed, jokers))
    return out


def _problem(pos: Position, weight: np.ndarray, joker_weight: int,
             rules: Rules = DEFAULT_RULES):
    rack, rack_j = _counts(pos.rack)
    mode = rules.search_mode(pos.initial_meld_done, pos.table)
    if rules.touches_table(pos.initial_meld_done):
        must, must_j = _counts(pos.table_tiles)
        return (must, rack, must_j, rack_j, weight, joker_weight, mode)
    return (np.zeros((4, 13), np.int64), rack, 0, rack_j, weight, joker_weight, mode)


def _move_from(pos: Position, result) -> Move:
    old = [] if pos.initial_meld_done else [validate_set(s, min_len=SHORTEST_SET)
                                            for s in pos.table]
    if result is None:
        if pos.initial_meld_done:  # cannot happen for a validated table
            raise PositionError("the table cannot be arranged")
        return Move([], old, 0, 0, previous=list(pos.table))
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
        return Move(played, melds, len(played), value, previous=list(pos.table))
    return Move(played, old + melds, len(played), value, new_sets=melds,
                previous=list(pos.table))


def _rules(rules: object) -> Rules:
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise RuleError(f"rules must be a Rules, got {type(rules).__name__}")
    return rules


def _search_rules(rules: object) -> Rules:
    """``rules`` for the exact search: one naming an option it does not solve yet is refused."""
    return _rules(rules).check_supported()


def meld_flag(value: object) -> bool:
    """``initial_meld_done`` as a bool; text such as ``"false"`` is refused, not read as true."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise PositionError(f"initial_meld_done must be True or False, got {value!r}")


def best_moves(
    positions: Sequence[Position], objective: Objective = "tiles", threads: int | None = None,
    rules: Rules | None = None,
) -> list[Move]:
    """The best move of every position, solved in one parallel kernel call.

    ``threads`` caps the Numba threads for this call (restored afterwards); ``rules``: the
    house rules (:class:`~engines.rummikub.rules.Rules`; default: the rules document's).

    >>> p = Position.from_strings([], "K10 R10 B10", initial_meld_done=False)
    >>> [m.value for m in best_moves([p, p], objective="value")]
    [30, 30]
    """
    from engines.rummikub.arrays import solve_moves

    positions = list_of(positions, Position, "positions", PositionError)
    rules = _search_rules(rules)
    for i, p in enumerate(positions):
        if p.min_set_length < rules.min_set_length:  # sets of 2 read, shorter than the rules'
            rules.check_lengths(p.table, f"positions[{i}]")
        if p.max_jokers > max(2, rules.jokers) or p.max_copies > max(2, rules.copies):
            check_counts([*p.table_tiles, *p.rack], f"positions[{i}]", rules.jokers,
                         rules.copies)  # (a Position read with more than the rules allow)
    if rules.wide_search:  # past the fast kernels' key (4 x 13, crossings): the wide DP
        from engines.rummikub.wide import solve_wide_moves
        return solve_wide_moves(positions, objective, rules, threads)
    # (least disturbance: solve_moves holds table sets out, positions side by side)
    return solve_moves(positions, objective, threads, rules)


def best_move(
    table: Iterable[Iterable[Tile | str]],
    rack: Iterable[Tile | str] | str,
    initial_meld_done: bool = True,
    objective: Objective = "tiles",
    rules: Rules | None = None,
) -> Move:
    """The exact best move for ``rack`` against ``table`` (see :class:`Move`).

    ``objective="tiles"``: most rack tiles, then most value, then fewest rack jokers;
    ``"value"``: most face value (a joker 0), then most tiles, then fewest jokers.
    ``rules``: house rules (:class:`~engines.rummikub.rules.Rules`), e.g. no initial-meld
    threshold:

    >>> best_move([], "R1 R2 R3", initial_meld_done=False).tiles
    0
    >>> best_move([], "R1 R2 R3", initial_meld_done=False, rules=Rules(meld_threshold=6)).tiles
    3
    """
    # Text sets are split once here, so the fast path and the checked path read the same
    # lists (and an iterator is read once).
    sets: list[list[Tile | str]] = []
    for s in as_list(table, "table", PositionError):
        try:
            sets.append(s.replace(",", " ").split() if isinstance(s, str) else list(s))
        except TypeError:
            for done in sets:  # an earlier bad tile is reported first, as parse order has it
                parse_tiles(done)
            raise TileError(f"table set {len(sets) + 1}: expected tiles, got {s!r}") from None
    if isinstance(rack, str):
        tiles = rack.replace(",", " ").split()
    else:
        tiles = as_list(rack, "rack", TileError)
    rules = _search_rules(rules)
    melded = meld_flag(initial_meld_done)
    move = None
    if rules.standard_tiles and rules.joker_retrieval == "free" and (
            melded or not rules.meld_continue):  # else through best_moves
        move = _fast_move(sets, tiles, melded, objective, rules)
        if move is not None and (not rules.least_disturbance or not melded
                                 or move.sets_kept == len(sets)):
            return move
    pos = Position.from_strings(sets, tiles, melded, **rules.position_limits())
    if move is not None:  # least disturbance, from the fast path's optimal move
        from engines.rummikub.least import least_disturbing_move

        return least_disturbing_move(pos, objective, rules, move)
    return best_moves([pos], objective, rules=rules)[0]


def _fast_move(
    sets: list[list[Tile | str]], rack: list[Tile | str], melded: bool, objective: str,
    rules: Rules = DEFAULT_RULES,
) -> Move | None:
    """:func:`best_move` in one kernel call when every tile is a canonical text or a Tile.

    Returns ``None`` for anything else, and for any position the kernel rejects: the
    checked path then reads the position again and raises the error that names the defect.
    """
    from solvers.rummikub import new_outputs, solve_position

    if objective not in OBJECTIVES:
        return None
    index = _INDEX.__getitem__
    flat: list[int] = []
    ends: list[int] = []
    try:
        for s in sets:
            # exact types only: a plain tuple equal to a Tile must still be rejected
            if not _EXACT_TYPES.issuperset(map(type, s)):
                return None
            key = tuple(map(index, s))
            if not _set_valid(key):
                return None
            flat.extend(key)
            ends.append(len(flat))
        if not _EXACT_TYPES.issuperset(map(type, rack)):
            return None
        rack_index = list(map(index, rack))
    except (KeyError, TypeError):  # other spellings, unhashable items: the checked path
        return None
    weight, jw = objective_weights(objective)
    codes, played = new_outputs()
    status, nsets, nplayed, value = solve_position(
        np.array(flat, np.int64), np.array(rack_index, np.int64), weight, jw,
        0 if melded else rules.meld_mode(), codes, played,
    )
    if status != 1 and (melded or status != 0):
        return None  # the checked path raises (a melded table always has an arrangement)
    tiles = [_TILE_OF[i] for i in played[:nplayed].tolist()]
    melds = [_meld(code) for code in codes[:nsets].tolist()]
    previous = _table_tiles(flat, ends)
    if melded:
        return Move(tiles, melds, nplayed, value, previous=previous)
    old = [validate_set(s) for s in previous]
    return Move(tiles, old + melds, nplayed, value, new_sets=melds, previous=previous)


# Validity of the sets the fast path has seen, by kernel tile indices: the rule itself is
# written once, in validate_set; a table repeats its sets from move to move, so the cache
# makes the check a dictionary look-up.  Bounded: past the limit it stops growing.
_VALID_SETS: dict[tuple[int, ...], bool] = {}
_VALID_SETS_LIMIT = 200_000


def _set_valid(key: tuple[int, ...]) -> bool:
    ok = _VALID_SETS.get(key)
    if ok is None:
        ok = is_valid_set([_TILE_OF[i] for i in key])
        if len(_VALID_SETS) < _VALID_SETS_LIMIT:
            _VALID_SETS[key] = ok
    return ok


def _table_tiles(flat: list[int], ends: list[int]) -> list[tuple[Tile, ...]]:
    tiles = [_TILE_OF[i] for i in flat]
    return [tuple(tiles[a:b]) for a, b in zip([0, *ends], ends)]


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


def check_move(pos: Position, move: Move, rules: Rules | None = None) -> list[str]:
    """Everything wrong with ``move`` as an answer to ``pos`` under ``rules`` (empty: legal).

    Checked: the sets, the tiles, the initial meld and the rules' tile set, real tiles per
    set and official joker retrieval (:meth:`Rules.move_problems`).
    """
    rules = _rules(rules)
    instance_of(pos, Position, "pos", PositionError)
    instance_of(move, Move, "move", PositionError)
    problems: list[str] = []
    for i, m in enumerate(move.table, start=1):
        why = check_meld(m, rules.min_set_length, rules.colours)
        if not why and sum(not s.tile.is_joker for s in m) < rules.min_real_tiles:
            why = f"fewer than {rules.min_real_tiles} tiles that are not jokers"
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
        meld = move.new_sets if rules.meld_continue else move.table[len(pos.table):]
        if not rules.meld_continue:
            old = [tuple(meld_tiles(m)) for m in move.table[: len(pos.table)]]
            if old != [tuple(s) for s in pos.table]:
                problems.append("initial meld changed the table")
        new_tiles = Counter(t for m in meld for t in meld_tiles(m))
        stray = new_tiles - played if rules.meld_continue else new_tiles != played
        if stray:
            problems.append("initial meld sets hold tiles that were not played")
        for m in meld if rules.meld_continue else ():
            why = check_meld(m, rules.min_set_length, rules.colours)
            if why:
                problems.append(f"initial meld set [{format_meld(m)}]: {why}")
        worth = rules.meld_worth((s.stands_for.number, s.tile.is_joker)
                                 for m in meld for s in m)
        if worth < rules.meld_threshold:
            problems.append(f"initial meld worth {worth} < {rules.meld_threshold}")
    return problems + rules.move_problems(pos.table, pos.rack, move.played, move.table)
