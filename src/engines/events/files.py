"""Typed event inputs and the readers of the JSON files of the event rules.

:func:`parse_event` reads an event file (``qipai-bridge-event/1``: a pairs or
Swiss event), :func:`parse_week` a week file (``qipai-bridge-week/1``) and
:func:`parse_match` a team match file (``qipai-bridge-match/1``).  Each checks
every validity rule and raises :class:`~engines.events.common.EventInputError`
naming the file, the record and the rule broken, e.g.
``event.json: results[4]: pair 9 does not exist (rule: every result names two
existing pairs)``.

>>> event = parse_event({"type": "pairs", "method": "mp", "pairs": [
...     {"id": 1, "players": ["ann", "bob"]}, {"id": 2, "players": ["cat", "dan"]}],
...     "results": [{"board": 1, "ns": 1, "ew": 2, "ns_score": 420}]}, require_format=False)
>>> event.pairs[1].players, event.results[0].ns_score
(('cat', 'dan'), 420)
>>> parse_event({"type": "pairs", "method": "mp", "pairs": [{"id": 2, "players": ["a", "b"]}],
...              "results": []}, "e.json", require_format=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engines.events.errors.EventFileError: e.json: pairs[0]: id 2, expected 1 (rule: pair ids ...)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from engines.arguments import check_fields
from engines.events.common import exact, need_int
from engines.events.errors import EventFileError, EventInputError
from engines.events.rate import SEATS, PlayerState, RateParams, TableResult
from engines.events.scoring import METHODS

__all__ = [
    "Event",
    "EventResult",
    "Pair",
    "Round",
    "Week",
    "load_json",
    "parse_event",
    "parse_match",
    "parse_players",
    "parse_week",
    "parse_week_boards",
]

EVENT_FORMAT = "qipai-bridge-event/1"
WEEK_FORMAT = "qipai-bridge-week/1"
MATCH_FORMAT = "qipai-bridge-match/1"


@dataclass(frozen=True)
class Pair:
    """A registered pair: id = registration number, North player first."""

    id: int
    players: tuple[str, str]
    direction: str | None = None

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class EventResult:
    """One table's result of one board in an event (N-S score; the rest informational)."""

    board: int | str
    ns: int
    ew: int
    ns_score: int
    round: int | None = None
    table: int | None = None
    contract: str | None = None

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class Round:
    """A Swiss round: its boards, its tables ``(ns, ew)`` in table order, the bye pair."""

    number: int
    boards: tuple[int | str, ...]
    tables: tuple[tuple[int, int], ...]
    bye: int | None = None
    withdrawn: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class Event:
    """A pairs or Swiss event: who played, where, and every result."""

    type: str
    method: str
    pairs: tuple[Pair, ...]
    results: tuple[EventResult, ...]
    rounds: tuple[Round, ...] = ()
    winners: int = 1
    completion: Fraction = Fraction(7, 10)
    name: str = ""

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)

    def pair(self, pair_id: int) -> Pair:
        return self.pairs[pair_id - 1]


@dataclass(frozen=True)
class Week:
    """A weekly run's input: parameters, the players' state, the boards in arrival order."""

    params: RateParams
    players: dict[str, PlayerState]
    boards: list[list[TableResult]]
    label: str = ""

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


class _Reader:
    """Error helper: every message starts with ``file: record:`` and ends with the rule."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, record: str, message: str, rule: str | None = None) -> EventFileError:
        tail = f" (rule: {rule})" if rule else ""
        prefix = f"{self.source}: {record}: " if record else f"{self.source}: "
        return EventFileError(f"{prefix}{message}{tail}")

    def field(self, obj: Any, name: str, record: str, default: Any = ..., kinds: Any = None) -> Any:
        if not isinstance(obj, Mapping):
            raise self.fail(record, f"must be a JSON object, got {type(obj).__name__}")
        if name not in obj:
            if default is ...:
                raise self.fail(record, f"missing field {name!r}")
            return default
        value = obj[name]
        if kinds is not None and not isinstance(value, kinds):
            raise self.fail(record, f"field {name!r} has the wrong type ({type(value).__name__})")
        return value

    def integer(self, value: Any, record: str, what: str) -> int:
        try:
            return need_int(value, what)
        except EventInputError as exc:
            raise self.fail(record, str(exc)) from None


def load_json(path: str | Path) -> Any:
    """Read a JSON file; a missing file or bad JSON is an :class:`EventInputError` naming it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise EventInputError(f"{path}: cannot open: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise EventInputError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from exc


def _check_format(r: _Reader, obj: Any, expected: str, required: bool) -> None:
    if not isinstance(obj, Mapping):
        raise r.fail("", f"must be a JSON object, got {type(obj).__name__}")
    fmt = obj.get("format")
    if fmt is None and not required:
        return
    if fmt != expected:
        raise r.fail("format", f"is {fmt!r}, expected {expected!r}")


def _pairs(r: _Reader, obj: Mapping[str, Any], winners: int) -> tuple[Pair, ...]:
    raw = r.field(obj, "pairs", "", kinds=list)
    pairs, owner = [], {}
    for index, item in enumerate(raw):
        record = f"pairs[{index}]"
        pair_id = r.integer(r.field(item, "id", record), record, "id")
        if pair_id != index + 1:
            raise r.fail(
                record, f"id {pair_id}, expected {index + 1}", "pair ids are 1..P in list order"
            )
        players = r.field(item, "players", record, kinds=list)
        if len(players) != 2 or not all(isinstance(p, str) and p for p in players):
            raise r.fail(record, "players must be two names [north, south]")
        if players[0] == players[1]:
            raise r.fail(record, f"{players[0]!r} twice", "the two players of a pair differ")
        for name in players:
            if name in owner:
                raise r.fail(
                    record, f"{name!r} is already in pair {owner[name]}", "a player is in one pair"
                )
            owner[name] = pair_id
        direction = item.get("direction")
        if winners == 2 and direction not in ("NS", "EW"):
            raise r.fail(
                record, f"direction {direction!r}", "with two winners every pair is NS or EW"
            )
        pairs.append(Pair(pair_id, (players[0], players[1]), direction if winners == 2 else None))
    return tuple(pairs)


def _board_id(r: _Reader, value: Any, record: str) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise r.fail(record, f"board id {value!r} must be an integer or a string")
    return value


def _results(r: _Reader, obj: Mapping[str, Any], pairs: tuple[Pair, ...], winners: int):
    raw = r.field(obj, "results", "", kinds=list)
    results, seen = [], set()
    for index, item in enumerate(raw):
        record = f"results[{index}]"
        board = _board_id(r, r.field(item, "board", record), record)
        ns = r.integer(r.field(item, "ns", record), record, "ns")
        ew = r.integer(r.field(item, "ew", record), record, "ew")
        for pair_id in (ns, ew):
            if not 1 <= pair_id <= len(pairs):
                raise r.fail(
                    record, f"pair {pair_id} does not exist", "every result names existing pairs"
                )
        if ns == ew:
            raise r.fail(
                record, f"pair {ns} plays itself", "every result names two different pairs"
            )
        score = r.field(item, "ns_score", record)
        if isinstance(score, bool) or not isinstance(score, int):
            raise r.fail(record, f"ns_score {score!r}", "ns_score is an integer")
        for pair_id in (ns, ew):
            if (board, pair_id) in seen:
                raise r.fail(
                    record,
                    f"pair {pair_id} has a second result on board {board!r}",
                    "a pair has at most one result per board",
                )
            seen.add((board, pair_id))
        if winners == 2 and (pairs[ns - 1].direction != "NS" or pairs[ew - 1].direction != "EW"):
            raise r.fail(
                record,
                f"pair {ns} sits N-S and pair {ew} E-W against their directions",
                "with two winners the ns pair is an NS pair and the ew pair an EW pair",
            )
        contract = item.get("contract")
        results.append(
            EventResult(board, ns, ew, score, item.get("round"), item.get("table"),
                        contract if isinstance(contract, str) else None)
        )  # fmt: skip
    return tuple(results)


def _rounds(r: _Reader, obj: Mapping[str, Any], pairs: tuple[Pair, ...]) -> tuple[Round, ...]:
    raw = r.field(obj, "rounds", "", kinds=list)
    rounds, board_round = [], {}
    for index, item in enumerate(raw):
        record = f"rounds[{index}]"
        number = r.integer(r.field(item, "round", record, index + 1), record, "round")
        boards = tuple(_board_id(r, b, record) for b in r.field(item, "boards", record, kinds=list))
        for board in boards:
            if board in board_round:
                raise r.fail(
                    record,
                    f"board {board!r} is already a board of round {board_round[board]}",
                    "a board belongs to one round",
                )
            board_round[board] = number
        tables, seated = [], set()
        bye = item.get("bye")
        bye = None if bye is None else r.integer(bye, record, "bye")
        for t, table in enumerate(r.field(item, "tables", record, kinds=list), start=1):
            if not isinstance(table, list) or len(table) != 2:
                raise r.fail(record, f"table {t} must be [ns, ew]")
            ns, ew = (r.integer(p, record, f"table {t}") for p in table)
            for pair_id in (ns, ew):
                if not 1 <= pair_id <= len(pairs):
                    raise r.fail(record, f"table {t}: pair {pair_id} does not exist")
                if pair_id in seated or pair_id == bye:
                    raise r.fail(
                        record,
                        f"table {t}: pair {pair_id} is seated twice or has the bye",
                        "in a round a pair is seated at most once and the bye pair is not seated",
                    )
                seated.add(pair_id)
            tables.append((ns, ew))
        if bye is not None and not 1 <= bye <= len(pairs):
            raise r.fail(record, f"bye pair {bye} does not exist")
        withdrawn = tuple(r.integer(p, record, "withdrawn") for p in item.get("withdrawn") or ())
        rounds.append(Round(number, boards, tuple(tables), bye, withdrawn))
    return tuple(rounds)


def _check_swiss_results(r: _Reader, results: tuple[EventResult, ...], rounds: tuple[Round, ...]):
    tables_of = {}
    for rnd in rounds:
        for board in rnd.boards:
            tables_of[board] = (rnd.number, set(rnd.tables))
    for index, result in enumerate(results):
        record = f"results[{index}]"
        if result.board not in tables_of:
            raise r.fail(
                record, f"board {result.board!r} is in no round", "a board belongs to one round"
            )
        number, tables = tables_of[result.board]
        if (result.ns, result.ew) not in tables:
            raise r.fail(
                record,
                f"{result.ns}-{result.ew} is not a table of round {number}",
                "every result's (ns, ew) is a table of its board's round",
            )


def parse_event(obj: Any, source: str = "event", require_format: bool = True) -> Event:
    """An :class:`Event` from a parsed event file, checked against every validity rule.

    ``require_format`` False accepts a missing ``format`` (conformance cases).
    """
    r = _Reader(source)
    _check_format(r, obj, EVENT_FORMAT, require_format)
    kind = r.field(obj, "type", "")
    if kind not in ("pairs", "swiss"):
        raise r.fail("type", f"is {kind!r}, expected 'pairs' or 'swiss'")
    method = r.field(obj, "method", "")
    if method not in METHODS:
        raise r.fail("method", f"is {method!r}, expected one of {', '.join(METHODS)}")
    winners = 1
    if kind == "pairs":
        winners = r.integer(obj.get("winners", 1), "winners", "winners")
        if winners not in (1, 2):
            raise r.fail("winners", f"is {winners}, expected 1 or 2")
    completion = Fraction(7, 10)
    if kind == "swiss":
        try:
            completion = exact(obj.get("completion", Fraction(7, 10)), "completion")
        except EventInputError as exc:
            raise r.fail("completion", str(exc)) from None
        if not 0 < completion <= 1:
            raise r.fail("completion", f"{float(completion)} is outside (0, 1]")
    pairs = _pairs(r, obj, winners)
    results = _results(r, obj, pairs, winners)
    rounds: tuple[Round, ...] = ()
    if kind == "swiss":
        rounds = _rounds(r, obj, pairs)
        _check_swiss_results(r, results, rounds)
    name = obj.get("name") or ""
    return Event(kind, method, pairs, results, rounds, winners, completion, str(name))


def parse_players(obj: Any, source: str = "players") -> dict[str, PlayerState]:
    """``{id: PlayerState}`` from ``{id: {"rate", "total_boards"}}``."""
    r = _Reader(source)
    if obj is None:
        return {}
    if not isinstance(obj, Mapping):
        raise r.fail("players", "must be an object {id: {rate, total_boards}}")
    out = {}
    for name, item in obj.items():
        record = f"players[{name!r}]"
        try:
            rate = exact(r.field(item, "rate", record), "rate")
        except EventInputError as exc:
            raise r.fail(record, str(exc)) from None
        if not 0 <= rate <= 100:
            raise r.fail(record, f"rate {float(rate)} is outside 0..100")
        total = r.integer(r.field(item, "total_boards", record, 0), record, "total_boards")
        if total < 0:
            raise r.fail(record, f"total_boards {total} is negative")
        out[str(name)] = PlayerState(rate, total)
    return out


def _table_result(r: _Reader, item: Any, record: str) -> TableResult:
    names = []
    for seat in SEATS:
        name = r.field(item, seat, record)
        if not isinstance(name, str) or not name:
            raise r.fail(record, f"{seat} must be a player id (a non-empty string)")
        names.append(name)
    score = r.field(item, "score", record)
    if isinstance(score, bool) or not isinstance(score, int):
        raise r.fail(record, f"score {score!r} must be an integer")
    marks = item.get("disconnect") or []
    if not isinstance(marks, list) or any(m not in SEATS for m in marks):
        raise r.fail(record, f"disconnect {marks!r} must list seats N, E, S, W")
    if len(set(names)) != 4:
        raise r.fail(
            record, f"a player sits twice at the table {names}", "a player sits once in a result"
        )
    return TableResult(*names, score, frozenset(marks))


def parse_week_boards(
    raw: Any, source: str = "week", max_results: int = 40
) -> list[list[TableResult]]:
    """Boards as lists of results; each board a list or ``{"board": id, "results": [...]}``."""
    r = _Reader(source)
    if not isinstance(raw, list):
        raise r.fail("boards", "must be a list of boards")
    boards = []
    for b, board in enumerate(raw):
        items = board.get("results") if isinstance(board, Mapping) else board
        label = f"boards[{b}]"
        if not isinstance(items, list):
            raise r.fail(label, "must be a list of results (or an object with 'results')")
        if len(items) > max_results:
            raise r.fail(
                label, f"{len(items)} results", f"a board has at most max_results = {max_results}"
            )
        results, seen = [], set()
        for i, item in enumerate(items):
            result = _table_result(r, item, f"{label}.results[{i}]")
            names = {result.north, result.east, result.south, result.west}
            if names & seen:
                raise r.fail(
                    f"{label}.results[{i}]",
                    f"{sorted(names & seen)[0]!r} plays the board twice",
                    "a player plays a board at most once",
                )
            seen |= names
            results.append(result)
        boards.append(results)
    return boards


def parse_week(obj: Any, source: str = "week", require_format: bool = True) -> Week:
    """A :class:`Week` from a parsed week file."""
    r = _Reader(source)
    _check_format(r, obj, WEEK_FORMAT, require_format)
    params = RateParams.from_dict(obj.get("params"), f"{source}: params")
    players = parse_players(obj.get("players") or {}, source)
    boards = parse_week_boards(r.field(obj, "boards", ""), source, params.max_results)
    return Week(params, players, boards, str(obj.get("week") or ""))


def parse_match(
    obj: Any, source: str = "match", require_format: bool = True
) -> list[tuple[int, int]]:
    """The ``(open, closed)`` N-S scores of every board of a team match file."""
    r = _Reader(source)
    _check_format(r, obj, MATCH_FORMAT, require_format)
    boards = []
    for index, item in enumerate(r.field(obj, "boards", "", kinds=list)):
        record = f"boards[{index}]"
        pair = tuple(
            r.integer(r.field(item, room, record), record, room) for room in ("open", "closed")
        )
        boards.append(pair)
    if not boards:
        raise r.fail("boards", "a match needs at least one board")
    return boards  # type: ignore[return-value]
