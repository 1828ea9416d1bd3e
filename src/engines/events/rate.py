"""The weekly system (全场记分): board rates, the Rate update and the weekly figures.

A week is a list of boards, each a list of table results in arrival order.
Every player's board rate compares his cross-IMP average on the board (or his
Butler IMPs, ``board_score="butler"``) with 50, balanced by how much stronger
his opponents were than his partner, using the Rates frozen at the start of
the week; the new Rate weighs the week's mean board rate against the old Rate
by boards played (history capped).  Points are the 复式 stream IMPs.  All
arithmetic is exact (:class:`~fractions.Fraction`).

>>> week = [[TableResult("a", "b", "c", "d", 420), TableResult("e", "f", "g", "h", 170),
...          TableResult("i", "j", "k", "l", -100)]]
>>> start = {"a": PlayerState(Fraction(60), 100)}
>>> figures = rate_week(start, week)
>>> figures["a"].board_rates, round(float(figures["a"].rate), 6)
([Fraction(285, 4)], 60.138889)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from engines.arguments import as_list, check_fields, instance_of, list_of
from engines.bridge.compare import imps
from engines.events.common import exact, need_int
from engines.events.errors import EventInputError
from engines.events.scoring import cross_sums, datum, datum_imps, stream_board

__all__ = ["PlayerState", "PlayerWeek", "RateParams", "TableResult", "rate_week", "rate_weeks"]

SEATS = ("N", "E", "S", "W")


@dataclass(frozen=True)
class RateParams:
    """The parameters of the weekly system, with the rules' defaults (decimals exact)."""

    scale: Fraction = Fraction(5, 2)
    base: Fraction = Fraction(50)
    balance: Fraction = Fraction(1, 2)
    history_weight: Fraction = Fraction(4, 5)
    history_cap: int = 500
    start_rate: Fraction = Fraction(50)
    disconnect_points: int = 16
    min_results: int = 6
    max_results: int = 40
    board_score: str = "cross"

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, where: str = "params") -> RateParams:
        """Read a ``params`` object; unknown names and bad values are errors naming them."""
        if not data:
            return cls()
        if not isinstance(data, Mapping):
            raise EventInputError(f"{where}: must be an object")
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise EventInputError(f"{where}: unknown parameter {name!r}")
            what = f"{where}.{name}"
            if name == "board_score":
                if value not in ("cross", "butler"):
                    raise EventInputError(f"{what}: must be 'cross' or 'butler', got {value!r}")
                values[name] = value
            elif known[name].type == "int":
                values[name] = need_int(value, what)
            else:
                values[name] = exact(value, what)
        params = replace(cls(), **values)
        params.check(where)
        return params

    def check(self, where: str = "params") -> None:
        if not 1 <= self.min_results <= self.max_results:
            raise EventInputError(
                f"{where}: need 1 <= min_results <= max_results, "
                f"got {self.min_results} and {self.max_results}"
            )
        for name in ("history_weight", "history_cap", "disconnect_points"):
            if getattr(self, name) < 0:
                raise EventInputError(f"{where}.{name}: must not be negative")
        if not 0 <= self.start_rate <= 100:
            raise EventInputError(f"{where}.start_rate: must be within 0..100")


@dataclass(frozen=True)
class PlayerState:
    """A player's standing between weeks: Rate (牌技指数) and total boards (总副数)."""

    rate: Fraction
    total_boards: int = 0

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class TableResult:
    """One table's result of a board: the four players, the N-S score, who disconnected."""

    north: str
    east: str
    south: str
    west: str
    score: int
    disconnect: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)

    def player(self, seat: str) -> str:
        return {"N": self.north, "E": self.east, "S": self.south, "W": self.west}[seat]


@dataclass
class PlayerWeek:
    """A player's figures after a week (``week_rate`` and ``avg`` are None when idle)."""

    rate: Fraction
    week_rate: Fraction | None = None
    boards: int = 0
    total_boards: int = 0
    points: int = 0
    dynamic_points: int = 0
    avg: Fraction | None = None
    board_rates: list[Fraction] = field(default_factory=list)

    def to_dict(self, places: int | None = 6) -> dict[str, Any]:
        """The JSON form (numbers rounded to ``places`` decimals; None keeps fractions)."""

        def num(value: Fraction | None) -> Any:
            if value is None or places is None:
                return value
            return int(value) if value.denominator == 1 else round(float(value), places)

        return {
            "rate": num(self.rate),
            "week_rate": num(self.week_rate),
            "boards": self.boards,
            "total_boards": self.total_boards,
            "points": self.points,
            "dynamic_points": self.dynamic_points,
            "avg": num(self.avg),
            "board_rates": [num(value) for value in self.board_rates],
        }


_ZERO = Fraction(0)


def _check_board(number: int, results: Sequence[TableResult], params: RateParams) -> None:
    if not results:
        raise EventInputError(f"board {number}: has no result")
    if len(results) > params.max_results:
        raise EventInputError(
            f"board {number}: {len(results)} results, more than max_results = {params.max_results}"
        )
    seen: set[str] = set()
    for index, result in enumerate(results, start=1):
        names = [result.player(seat) for seat in SEATS]
        if len(set(names)) != 4:
            raise EventInputError(
                f"board {number}, result {index}: a player sits twice at one table ({names})"
            )
        again = seen.intersection(names)
        if again:
            raise EventInputError(
                f"board {number}, result {index}: {sorted(again)[0]!r} plays the board twice"
            )
        seen.update(names)


def _x_values(scores: list[int], params: RateParams) -> tuple[list[int], int]:
    """Board scores x of the results as ``(numerators, common denominator)``."""
    if params.board_score == "butler":
        return datum_imps(scores)[1], 1
    return cross_sums(scores), max(len(scores) - 1, 1)


def _players(players: Any) -> dict[str, PlayerState]:
    """``players`` checked: a mapping of names to :class:`PlayerState`."""
    if not isinstance(players, Mapping):
        raise EventInputError(f"players must map names to PlayerState, got {players!r}"[:300])
    for name, state in players.items():
        if not isinstance(name, str) or not isinstance(state, PlayerState):
            raise EventInputError(
                f"players: {name!r} maps to {state!r}; expected a name and a PlayerState"[:300]
            )
    return dict(players)


def _week_inputs(
    players: Mapping[str, PlayerState],
    boards: Sequence[Sequence[TableResult]],
    params: RateParams | None,
) -> tuple[dict[str, PlayerState], list[list[TableResult]], RateParams]:
    """:func:`rate_week`'s arguments checked (:class:`EventInputError` naming the bad one)."""
    params = (
        RateParams()
        if params is None
        else instance_of(params, RateParams, "params", EventInputError)
    )
    checked_players = _players(players)
    checked_boards = [
        list_of(board, TableResult, f"boards[{i}]", EventInputError)
        for i, board in enumerate(as_list(boards, "boards", EventInputError))
    ]
    return checked_players, checked_boards, params


def rate_week(
    players: Mapping[str, PlayerState],
    boards: Sequence[Sequence[TableResult]],
    params: RateParams | None = None,
) -> dict[str, PlayerWeek]:
    """One weekly run: every player's new Rate and weekly figures.

    ``players`` holds the state at the start of the week (anyone else is new,
    Rate ``start_rate``); the result has every player of ``players`` or of the
    boards.  Raises :class:`EventInputError` for a board with more than
    ``max_results`` results or a player seated twice on a board.
    """
    players, boards, params = _week_inputs(players, boards, params)
    start = {name: state.rate for name, state in players.items()}
    totals = {name: state.total_boards for name, state in players.items()}
    rates: dict[str, list[Fraction]] = {}
    points: dict[str, int] = {}
    dynamic: dict[str, int] = {}

    def rate_of(name: str) -> Fraction:
        return start.get(name, params.start_rate)

    # Exact, without Fraction arithmetic in the loop: on each board every quantity is an
    # integer numerator over one common denominator (the board's ``scale``, the number of
    # comparisons, ``base``, ``balance`` and every Rate's denominator divide it).
    rate_den = math.lcm(params.start_rate.denominator, *(r.denominator for r in start.values()))
    scaled: dict[str, int] = {}

    def scaled_rate(name: str) -> int:
        value = scaled.get(name)
        if value is None:
            value = scaled[name] = int(rate_of(name) * rate_den)
        return value

    base, scale, balance = params.base, params.scale, params.balance
    balance_den = 2 * balance.denominator * rate_den
    sums: dict[str, dict[int, int]] = {}
    for number, results in enumerate(boards, start=1):
        _check_board(number, results, params)
        scores = [result.score for result in results]
        stream = stream_board(scores, params.min_results, params.max_results).imps
        final = datum(scores) if len(scores) >= params.min_results else None
        x_num, x_den = _x_values(scores, params)
        common = math.lcm(base.denominator, scale.denominator * x_den, balance_den)
        top = 100 * common
        base_num = base.numerator * (common // base.denominator)
        scale_factor = scale.numerator * (common // (scale.denominator * x_den))
        balance_factor = balance.numerator * (common // balance_den)
        for result, x, stream_imps in zip(results, x_num, stream):
            ns_s = min(top, max(0, base_num + scale_factor * x))
            ew_s = min(top, max(0, base_num - scale_factor * x))
            dynamic_imps = 0 if final is None else imps(result.score - final)
            seated = (result.north, result.east, result.south, result.west)
            for seat_index, (seat, name) in enumerate(zip(SEATS, seated)):
                sign = 1 if seat_index % 2 == 0 else -1
                if seat in result.disconnect:
                    board_rate = 0
                    penalty = params.disconnect_points
                else:
                    opponents = scaled_rate(seated[(seat_index + 1) % 4]) + scaled_rate(
                        seated[(seat_index + 3) % 4]
                    )
                    term = opponents - 2 * scaled_rate(seated[(seat_index + 2) % 4])
                    s = ns_s if sign > 0 else ew_s
                    board_rate = min(top, max(0, s + balance_factor * term))
                    penalty = 0
                rates.setdefault(name, []).append(Fraction(board_rate, common))
                by_den = sums.setdefault(name, {})
                by_den[common] = by_den.get(common, 0) + board_rate
                points[name] = points.get(name, 0) + sign * (stream_imps or 0) - penalty
                dynamic[name] = dynamic.get(name, 0) + sign * dynamic_imps - penalty
    out: dict[str, PlayerWeek] = {}
    for name in list(players) + [n for n in rates if n not in players]:
        old, before = rate_of(name), totals.get(name, 0)
        played = rates.get(name, [])
        n = len(played)
        if n == 0:
            out[name] = PlayerWeek(rate=old, total_boards=before)
            continue
        week_rate = sum((Fraction(v, d) for d, v in sums[name].items()), _ZERO) / n
        weight = params.history_weight * min(before, params.history_cap)
        out[name] = PlayerWeek(
            rate=(old * weight + week_rate * n) / (weight + n),
            week_rate=week_rate,
            boards=n,
            total_boards=before + n,
            points=points[name],
            dynamic_points=dynamic[name],
            avg=Fraction(points[name], n),
            board_rates=played,
        )
    return out


def rate_weeks(
    players: Mapping[str, PlayerState],
    weeks: Iterable[Sequence[Sequence[TableResult]]],
    params: RateParams | None = None,
) -> dict[str, PlayerWeek]:
    """Several weeks in order; Rates and totals carry over, the other figures are the last week's.

    Every player known after the last week is in the result.
    """
    state = _players(players)
    weeks = as_list(weeks, "weeks", EventInputError)
    last: dict[str, PlayerWeek] = {
        name: PlayerWeek(rate=s.rate, total_boards=s.total_boards) for name, s in state.items()
    }
    for week in weeks:
        last = rate_week(state, week, params)
        state = {name: PlayerState(f.rate, f.total_boards) for name, f in last.items()}
    return last
