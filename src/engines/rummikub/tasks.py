"""The Rummikub batch tasks (``rummikub-best``, ``rummikub-best-value``) and ``qipai gen rummikub``.

Positions are in the corpus format, with an optional ``rules`` object of house rules
(:class:`engines.rummikub.rules.Rules`, e.g. ``{"meld_threshold": 0}``).  The payload is
the engine's canonical form (rack sorted, rules other than the defaults) with the table's
sets in sorted order: the order of sets on the table carries no meaning, the order inside
a set does (where a joker stands).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import operator
from collections.abc import Callable, Iterable
from typing import Any

from engines.batch.generate import Generator, parse_range, register_generator
from engines.batch.tasks import Task, register_task


def _prepare(obj: dict[str, Any]) -> dict[str, Any]:
    canonical = _canonical_position(obj)
    if canonical is not None and "rules" not in obj:
        return canonical  # the usual case: no engine import, no second look
    from engines.rummikub import Position
    from engines.rummikub.rules import Rules

    rules = given = None
    if isinstance(obj, dict) and "rules" in obj:
        given = Rules.from_json(obj["rules"])
        rules = given.check_supported()  # (may be solved as other rules: Rules.solved_as)
    limits = {} if rules is None else rules.position_limits()  # (sets of 2, 3 jokers)
    if canonical is None:  # the engine reads it, and names what is wrong
        canonical = Position.from_json(obj, **limits).to_json()
        canonical["table"] = sorted(canonical["table"])
    if rules is not None:
        if not rules.standard_tiles:
            pos = Position.from_json(canonical, **limits)
            rules.check_tiles(pos.table, pos.rack)
        if given.to_json():
            canonical["rules"] = given.to_json()
    return canonical


# Valid table sets seen so far, by their text: the canonical tile names and their counts
# (see _count_field).  A batch's tables repeat the same sets many times, and checking a set
# costs far more than this look-up.
_VALID_SETS: dict[tuple[str, ...], tuple[list[str], int]] = {}
_MAX_VALID_SETS = 100_000

# Tile counts are added as one integer, 8 bits a tile kind (53 kinds): a kind held 3 times
# or more sets its field's top bit once 125 is added to every field.  Exact while no field
# can pass 130, i.e. for positions of at most 130 tiles (the game has 106).
_FIELD_BITS = 8
_MAX_TILES = 130
_PLUS_125 = sum(125 << (_FIELD_BITS * k) for k in range(53))
_TOP_BITS = sum(128 << (_FIELD_BITS * k) for k in range(53))


def _canonical_position(obj: Any) -> dict[str, Any] | None:
    """``Position.from_json(obj).to_json()`` with the table sorted, for a position in the
    usual form (lists of tile texts, valid sets); ``None`` for anything else."""
    if type(obj) is not dict:
        return None
    table, rack = obj.get("table", []), obj.get("rack")
    done = obj.get("initial_meld_done", True)
    if type(table) is not list or type(rack) is not list or type(done) is not bool:
        return None
    sets = []
    total = 0
    for tiles in table:
        if type(tiles) is not list:
            return None
        try:
            known = _VALID_SETS.get(tuple(tiles))
        except TypeError:  # an unhashable token
            return None
        if known is None and (known := _valid_set(tiles)) is None:
            return None
        sets.append(known[0])
        total += known[1]
    try:
        keyed = sorted(map(_TOKENS.__getitem__, rack))
    except (KeyError, TypeError):  # a spelling not seen yet, or not a tile: parse each
        if (keyed := _parsed_tokens(rack)) is None:
            return None
    rack_names = [name for _, name, _ in keyed]
    total += sum([count for _, _, count in keyed])
    # a third copy or joker anywhere (or a position too large to count so): the engine's
    if (total + _PLUS_125) & _TOP_BITS or len(rack) + sum(map(len, sets)) > _MAX_TILES:
        return None
    sets.sort()
    return {"table": sets, "rack": rack_names, "initial_meld_done": done}


def _count_field(tile: Any) -> int:
    """The tile's one in the counts integer (its kind's field: colour × 13 + number − 1,
    the joker 52)."""
    from engines.rummikub.tiles import COLOURS

    kind = 52 if tile.is_joker else COLOURS.index(tile.colour) * 13 + tile.number - 1
    return 1 << (_FIELD_BITS * kind)


# Tile text as written -> (its place in the canonical rack order, its canonical name, its
# count): spellings as they are met (bounded like _VALID_SETS).
_TOKENS: dict[Any, tuple[tuple[int, int], str, int]] = {}


def _parsed_tokens(rack: list[Any]) -> list[tuple[tuple[int, int], str, int]] | None:
    """:data:`_TOKENS` entries of a rack's tiles, sorted, parsing new spellings; ``None``
    when one is not a tile."""
    from engines.rummikub.errors import RummikubInputError
    from engines.rummikub.tiles import Tile

    out = []
    for token in rack:
        try:
            entry = _TOKENS.get(token)
        except TypeError:
            return None
        if entry is None:
            try:
                tile = Tile.parse(token)
            except RummikubInputError:
                return None
            if len(_TOKENS) >= _MAX_VALID_SETS:
                _TOKENS.clear()
            entry = _TOKENS[token] = (tile.sort_key(), str(tile), _count_field(tile))
        out.append(entry)
    return sorted(out)


def _valid_set(tiles: list[Any]) -> tuple[list[str], int] | None:
    """The canonical names and counts of a valid table set (remembered), else ``None``."""
    from engines.rummikub.errors import RummikubInputError
    from engines.rummikub.sets import validate_set
    from engines.rummikub.tiles import parse_tiles

    try:
        parsed = tuple(parse_tiles(tiles))
        validate_set(parsed)
    except RummikubInputError:
        return None
    if len(_VALID_SETS) >= _MAX_VALID_SETS:
        _VALID_SETS.clear()
    known = _VALID_SETS[tuple(tiles)] = ([str(t) for t in parsed],
                                         sum(map(_count_field, parsed)))  # fmt: skip
    return known


def _checked_position(payload: dict[str, Any], wide: bool = False) -> Any:
    """The position of a payload that :func:`_prepare` made, not checked again (``wide``:
    its rules' tile set may hold the generalised tiles, e.g. ``G20``)."""
    from engines.rummikub.tiles import Tile

    parse = functools.partial(Tile.parse, wide=True) if wide else Tile.parse
    sets = []
    for names in payload["table"]:
        key = tuple(names)
        tiles = _SET_TILES.get(key)
        if tiles is None:
            if len(_SET_TILES) >= _MAX_VALID_SETS:
                _SET_TILES.clear()
            tiles = _SET_TILES[key] = tuple(map(parse, names))
        sets.append(tiles)
    return _prepared_class()(tuple(sets), tuple(map(parse, payload["rack"])),
                             payload["initial_meld_done"])  # fmt: skip


# Canonical set text -> its tiles (the sets of a batch's tables recur).
_SET_TILES: dict[tuple[str, ...], tuple[Any, ...]] = {}


@functools.cache
def _prepared_class() -> type:
    from engines.rummikub import Position

    @dataclasses.dataclass(frozen=True)
    class PreparedPosition(Position):
        """A :class:`Position` from a prepared payload: it was checked when it was prepared."""

        def __post_init__(self) -> None:
            pass

    return PreparedPosition


class _Records:
    """The records of the native reader (:mod:`solvers._rummikub_records`) for the runner's
    fast path (``Task.records``): ``scan(lines)`` gives ``(status, texts, ids, packs)``
    like :meth:`engines.batch.records.RecordLayout.scan`; the payloads are packed bytes."""

    def __init__(self) -> None:
        from solvers._rummikub_records import SetTable

        self.sets = SetTable(_kinds_valid)

    def scan(self, lines: list[str]) -> tuple[bytearray, list, list, list]:
        from solvers._rummikub_records import scan

        return scan(self.sets, lines)


def _kinds_valid(kinds: bytes) -> bool:
    """Whether the tiles of these kinds (as written) make a valid set: the engine's call."""
    from engines.rummikub.arrays import KIND_NAMES

    return _valid_set([KIND_NAMES[k] for k in kinds]) is not None


@functools.cache
def _records() -> _Records:
    return _Records()


def _solver(objective: str) -> Callable[[list[Any], int], list[Any]]:
    def solve(payloads: list[Any], threads: int) -> list[str]:
        # one kernel call per distinct rule set (nearly always one); packed payloads of
        # the native reader are under the default rules
        groups: dict[Any, list[int]] = {}
        for i, p in enumerate(payloads):
            key = b"" if type(p) is bytes else tuple(sorted(p.get("rules", {}).items()))
            groups.setdefault(key, []).append(i)
        out: list[Any] = [None] * len(payloads)
        for key, rows in groups.items():
            chosen = [payloads[i] for i in rows]
            solved = (_solve_packed(chosen, objective, threads) if key == b""
                      else _solve_names(chosen, objective, threads, key == _PLAIN)
                      if not key or key == _PLAIN
                      else _solve_moves(chosen, objective, threads, dict(key)))  # fmt: skip
            for i, result in zip(rows, solved):
                out[i] = result
        return out

    return solve


# The rules key of payloads asking for the plain DP's move (the default rules but least
# disturbance): the names path's answer.
_PLAIN = (("least_disturbance", False),)


def _names_path() -> bool:
    """Whether the default rules are those :func:`_results` applies: free joker retrieval
    (one mode for every melded position), no meld then continue and one real tile per set
    (which least disturbance solves through relaxations: then positions go through
    :func:`_solve_moves`).  Least disturbance reads the table's sets from the payload.
    Both objectives follow the default: ``rummikub-best-value`` stores sets too, and a
    user who reads them expects the same least-disturbing arrangement ``best_move``
    gives.  Fewest tiles moved (when the default turns it on) has no hook here: its pass
    (:func:`engines.rummikub.heirs.fewest_moved_move`) takes the position and least
    disturbance's move as objects, and costs far more than making them."""
    from engines.rummikub.rules import DEFAULT_RULES

    rules = DEFAULT_RULES
    return (rules.joker_retrieval == "free" and not rules.meld_continue
            and rules.min_real_tiles == 1 and rules.standard_tiles
            and not rules.fewest_moved)


def _unpacked(pack: bytes) -> dict[str, Any]:
    """The payload ``prepare`` makes of a line that the native reader packed."""
    from engines.batch.jsontext import loads
    from engines.rummikub.arrays import KIND_NAMES

    return {"table": loads(f"[{pack[107:].decode()}]"),
            "rack": [KIND_NAMES[k] for k in range(53) for _ in range(pack[54 + k])],
            "initial_meld_done": pack[0] == 1}  # fmt: skip


def _solve_names(payloads: list[dict[str, Any]], objective: str, threads: int,
                 plain: bool = False) -> list[str]:
    """The results of payloads under the default rules (``plain``: with least disturbance
    off), from their tile names to the kernel and from its arrays to names, with no tile,
    position or move objects."""
    if not (plain or _names_path()):
        return _solve_moves(payloads, objective, threads, {})
    import numpy as np

    from engines.rummikub.arrays import count_arrays

    melded = np.fromiter((p["initial_meld_done"] for p in payloads), np.bool_, len(payloads))
    table, rack, modes = count_arrays([p["table"] for p in payloads],
                                      [p["rack"] for p in payloads], melded)  # fmt: skip
    from engines.batch.jsontext import canonical

    tables = [b"" if p["initial_meld_done"] else canonical(p["table"], plain=True)[1:-1].encode()
              for p in payloads]  # fmt: skip
    from engines.rummikub.rules import DEFAULT_RULES

    least = DEFAULT_RULES.least_disturbance and not plain
    return _results(table, rack, modes, melded, tables, objective, threads,
                    (lambda i: payloads[i]["table"]) if least else None)


def _solve_packed(packs: list[bytes], objective: str, threads: int) -> list[str]:
    """:func:`_solve_names` of the native reader's packed payloads."""
    if not _names_path():
        return _solve_moves([_unpacked(p) for p in packs], objective, threads, {})
    import numpy as np

    from engines.rummikub.rules import DEFAULT_RULES

    head = np.frombuffer(b"".join([p[:107] for p in packs]), np.uint8).reshape(len(packs), 107)
    melded = head[:, 0] == 1
    table = head[:, 1:54].astype(np.int64)
    table[~melded] = 0  # before the initial meld the table is not the player's to use
    rack = head[:, 54:].astype(np.int64)
    modes = np.where(melded, DEFAULT_RULES.search_mode(True),
                     DEFAULT_RULES.search_mode(False)).astype(np.int64)  # fmt: skip
    from engines.batch.jsontext import loads

    sets = (lambda i: loads(f"[{packs[i][107:].decode()}]")
            ) if DEFAULT_RULES.least_disturbance else None  # fmt: skip
    return _results(table, rack, modes, melded, [p[107:] for p in packs], objective, threads,
                    sets)


def _results(table: Any, rack: Any, modes: Any, melded: Any, tables: list[bytes],
             objective: str, threads: int,
             sets: Callable[[int], list[list[str]]] | None = None) -> list[str]:
    """The stored results of one kernel call as JSON text; ``tables``: each payload's table
    as JSON text without the outer brackets (read before the initial meld only);
    ``sets``: least disturbance (the default rules), payload i's table sets (names)."""
    import numpy as np
    from solvers._rummikub_results import result_texts

    from engines.rummikub.arrays import solve_counts
    from engines.rummikub.errors import PositionError

    status, codes, counts, played = solve_counts(table, rack, modes, objective, threads)
    if (status[melded] != 1).any():  # cannot happen for validated tables
        raise PositionError("the table cannot be arranged")
    shown = melded.view(np.uint8)
    if sets is not None:
        shown = _least_rows((table, rack, modes, codes, counts, played), melded, tables, sets,
                            objective, threads)
    return result_texts(status, counts, codes, played, shown, tables, _SET_TEXTS,
                        _set_text)  # fmt: skip


def _least_rows(arrays: tuple, melded: Any, tables: list[bytes],
                sets: Callable[[int], list[list[str]]], objective: str, threads: int) -> Any:
    """Least disturbance for the melded rows with a table, in the kernel
    (:func:`engines.rummikub.arrays.least_arrays`): a row whose move changes gets the
    least-disturbing move's sets, played tiles (in ``arrays``' codes, counts and played)
    and, in ``tables``, the texts of the table sets it keeps, written before its new sets
    as a first play's table is.  Returns the rows' flags for ``result_texts`` (0: write
    ``tables[p]`` first)."""
    import numpy as np

    from engines.rummikub.arrays import least_arrays
    from engines.rummikub.least import table_slots
    from engines.rummikub.rules import DEFAULT_RULES
    from solvers.rummikub._least import FOUND

    table, rack, _modes, codes, counts, played = arrays
    shown = melded.astype(np.uint8)
    rows = np.flatnonzero(melded & (table.sum(axis=1) > 0))
    if not len(rows):
        return shown
    entries = [[_set_entry(tuple(names)) for names in sets(i)] for i in rows.tolist()]
    slots = table_slots(entries, DEFAULT_RULES, slots_of=lambda entry: entry)
    cost = (table.sum(axis=1) + rack.sum(axis=1)) * (1 + table[:, 52] + rack[:, 52])
    status, new_codes, new_counts, new_played, held, _kept = least_arrays(
        slots, arrays, rows, objective, DEFAULT_RULES, threads, cost)
    for k in np.flatnonzero(status == FOUND).tolist():
        p = rows[k]
        codes[p], counts[p], played[p] = new_codes[k], new_counts[k], new_played[k]
        tables[p] = b",".join([e[3] for e, h in zip(entries[k], held[k].tolist()) if h])
        shown[p] = 0
    return shown


# A table set's names -> its slots for the kernel, its key and its stored text.
_SET_ENTRIES: dict[tuple[str, ...], tuple[list[int], list[int], int, bytes]] = {}


def _set_entry(names: tuple[str, ...]) -> tuple[list[int], list[int], int, bytes]:
    """A (valid) table set's slots and key (:func:`engines.rummikub.least._set_slots`) and
    the JSON text a move keeping it stores (its tiles in the order of its meld)."""
    entry = _SET_ENTRIES.get(names)
    if entry is None:
        from engines.batch.jsontext import canonical
        from engines.rummikub.arrays import _table_melds
        from engines.rummikub.least import _set_slots
        from engines.rummikub.tiles import Tile

        tiles = tuple(map(Tile.parse, names))
        meld = _table_melds([tiles])[0]
        text = canonical([str(slot.tile) for slot in meld], plain=True).encode()
        if len(_SET_ENTRIES) >= _MAX_VALID_SETS:
            _SET_ENTRIES.clear()
        entry = _SET_ENTRIES[names] = (*_set_slots(tiles, (4, 13)), text)
    return entry


# Set code of the kernel -> the set's JSON text (a few thousand codes recur).
_SET_TEXTS: dict[int, bytes] = {}


def _set_text(code: int) -> bytes:
    from engines.batch.jsontext import canonical
    from engines.rummikub.arrays import set_names

    if len(_SET_TEXTS) >= _MAX_VALID_SETS:
        _SET_TEXTS.clear()
    return canonical(set_names(code), plain=True).encode()


def _solve_moves(
    payloads: list[dict[str, Any]], objective: str, threads: int, rules: dict[str, Any]
) -> list[str]:
    """The results of payloads under house rules, through :func:`best_moves`."""
    from engines.rummikub import best_moves
    from engines.rummikub.rules import Rules

    house = Rules.from_json(rules)
    positions = [_checked_position(p, house.wide_tiles) for p in payloads]
    moves = best_moves(positions, objective=objective, threads=threads, rules=house)
    from engines.batch.jsontext import canonical

    name, tile_of = _tile_names().__getitem__, operator.itemgetter(0)  # (a Slot's tile)

    def names(tiles: Iterable[Any]) -> list[str]:
        tiles = list(tiles)
        try:
            return list(map(name, tiles))
        except KeyError:  # a tile outside the standard set
            return [str(t) for t in tiles]

    # the fields of Move.to_json the store keeps
    return [
        canonical({
            "tiles": move.tiles,
            "value": move.value,
            "played": names(move.played),
            "sets": [names(map(tile_of, m)) for m in move.table],
        }, plain=True)
        for move in moves
    ]


@functools.cache
def _tile_names() -> dict[Any, str]:
    """Each tile of the standard set -> its name (``str`` of a tile runs Python code)."""
    from engines.rummikub.position import _TILE_OF

    return {tile: str(tile) for tile in _TILE_OF}


def _figures(task: str, results: list[Any]) -> list[Any]:
    from engines.batch.report import count_plot

    return [count_plot(task, [int(r["tiles"]) for r in results], "tiles played")]


for _objective, _what in (("tiles", "most rack tiles"), ("value", "most face value")):
    register_task(
        Task(
            "rummikub-best" if _objective == "tiles" else "rummikub-best-value",
            "rummikub",
            f"Rummikub exact best move ({_what}) → tiles, value, played, sets",
            _prepare,
            _solver(_objective),
            native_threads=True,
            # Each best_moves call has a fixed cost (thread start-up) of some milliseconds.
            chunk_size=128,
            result_kind="rummikub-move",
            figures=_figures,
            plain_json=True,
            records=_records,
            text_results=True,
        )
    )


# -- qipai gen rummikub -------------------------------------------------------------------------


def _gen_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--table-tiles", default="0-30", help="tiles on the table, N or MIN-MAX (0-30)"
    )
    parser.add_argument("--rack-size", default="5-14", help="rack tiles, N or MIN-MAX (5-14)")
    parser.add_argument(
        "--jokers",
        type=float,
        default=0.3,
        help="probability that each joker is in play, on the table or in the rack (0.3)",
    )
    parser.add_argument(
        "--initial-meld-rate",
        type=float,
        default=0.2,
        help="share of positions where the initial meld is still to be made (0.2)",
    )


def _gen_records(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    from engines.rummikub.generate import rummikub_positions

    return rummikub_positions(
        args.count,
        args.seed,
        table_tiles=parse_range(args.table_tiles),
        rack_size=parse_range(args.rack_size),
        joker_rate=args.jokers,
        initial_meld_rate=args.initial_meld_rate,
    )


register_generator(
    Generator(
        "rummikub",
        "random Rummikub positions (JSON Lines, corpus format)",
        "Random positions: tables of valid runs and groups from the 106-tile set, racks "
        "drawn from the rest.",
        "positions",
        _gen_arguments,
        _gen_records,
    )
)


# -- qipai bench rummikub -----------------------------------------------------------------------


def _register_bench() -> None:
    from engines.batch.bench import BenchSpec, register_bench
    from engines.rummikub import bench

    register_bench(
        "rummikub",
        BenchSpec(
            help="best move (most tiles): qipai vs rummikub-solver on the same positions",
            default_count=50,
            load=bench.rummikub_load,
            ours=bench.rummikub_ours,
            reference=bench.rummikub_reference,
            reference_package="rummikub_solver",
            reference_label="rummikub-solver",
            agreement_note="tiles played; the stock package differs on some positions: it adds "
            "table moves to an initial meld and lacks some joker sets (Rummikub corpus README)",
        ),
    )


_register_bench()
