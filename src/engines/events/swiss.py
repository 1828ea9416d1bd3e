"""Swiss pairs (瑞士移位自动双人赛): registration, standings, bye, pairing, ranking, a whole event.

Pairing seats the pairs of a round with the fewest rematches and, among
those, the seating whose table-by-table record (rematch flag, opponent's
rank) is lexicographically smallest: top-down, each pair with the
highest-ranked pair it has not met, backtracking only as far as needed.
Instead of a search over seatings this is a sequence of matching questions
(:class:`~engines.events.matching.MatchingOracle`), so hundreds of pairs seat
in well under a second.

>>> register([("ann", "bob"), ("cat", "dan"), ("bob", "ann"), ("gus", "hal")]).accepted
[True, True, False, True]
>>> standings = [Standing(p, 0, 0, 0) for p in range(1, 8)]
>>> pairing = pair_round(standings, [])
>>> pairing.tables, pairing.bye
([(1, 2), (3, 4), (5, 6)], 7)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engines.arguments import as_list, check_fields, instance_of, list_of
from engines.events.awards import MAX_PAIRS, masterpoints
from engines.events.common import exact, need_int
from engines.events.errors import EventInputError
from engines.events.files import Event, EventResult, Pair
from engines.events.matching import MatchingOracle
from engines.events.pairs import Number, RankRow, pair_scores, result_values, standing_key
from engines.events.scoring import METHODS

__all__ = [
    "Pairing",
    "Registration",
    "Standing",
    "SwissRound",
    "choose_bye",
    "event_standings",
    "next_round",
    "pair_round",
    "play_event",
    "register",
    "run_event",
    "standing_order",
    "swiss_ranking",
]


@dataclass(frozen=True)
class Registration:
    """Which attempts were accepted and the registered pairs (id = registration number)."""

    accepted: list[bool]
    pairs: list[Pair]


def register(attempts: Iterable[Sequence[str]]) -> Registration:
    """Register pairs in order; refuse two equal names or a player already registered."""
    accepted, pairs, taken = [], [], set()
    for index, attempt in enumerate(as_list(attempts, "attempts", EventInputError)):
        if (
            not isinstance(attempt, list | tuple)
            or len(attempt) != 2
            or not all(isinstance(name, str) for name in attempt)
        ):
            raise EventInputError(f"attempts[{index}]: a registration is [north, south]")
        north, south = attempt
        ok = north != south and north not in taken and south not in taken
        accepted.append(ok)
        if ok:
            taken.update((north, south))
            pairs.append(Pair(len(pairs) + 1, (north, south)))
    return Registration(accepted, pairs)


@dataclass(frozen=True)
class Standing:
    """A pair's standing before a round: event score so far, boards played, byes had."""

    pair: int
    score: Number
    boards: int
    byes: int = 0

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


def standing_order(standings: Iterable[Standing]) -> list[Standing]:
    """Score descending, boards descending, pair id ascending (exact comparisons)."""
    standings = list_of(standings, Standing, "standings", EventInputError)
    return sorted(standings, key=lambda s: standing_key(s.pair, s.score, s.boards))


def choose_bye(ordered: Sequence[Standing]) -> int | None:
    """With an odd field: among the pairs with the fewest byes, the lowest in the order."""
    ordered = list_of(ordered, Standing, "standings", EventInputError)
    if len(ordered) % 2 == 0:
        return None
    fewest = min(s.byes for s in ordered)
    return [s for s in ordered if s.byes == fewest][-1].pair


@dataclass(frozen=True)
class Pairing:
    """A round's seating: standing order, tables ``(ns, ew)`` in table order, bye, rematches."""

    order: list[int]
    tables: list[tuple[int, int]]
    bye: int | None
    rematches: int


def _met_sets(ids: Sequence[int], history: Iterable[Sequence[int]]) -> list[set[int]]:
    rank = {pair: i for i, pair in enumerate(ids)}
    met: list[set[int]] = [set() for _ in ids]
    for index, table in enumerate(history):
        if len(table) != 2:
            raise EventInputError(f"history[{index}]: a table is [a, b]")
        a, b = (rank.get(p) for p in table)
        if a is not None and b is not None and a != b:
            met[a].add(b)
            met[b].add(a)
    return met


def seat(ids: Sequence[int], history: Iterable[Sequence[int]]) -> tuple[list[tuple[int, int]], int]:
    """Seat ``ids`` (standing order, even count): ``(tables, rematches)`` by the pairing rule.

    Fewest rematches first; then, table by table, the top unseated pair takes
    the first opponent (pairs it has not met before pairs it has, each group
    in rank order) that still allows a seating of the rest within the budget.
    """
    n = len(ids)
    if n % 2:
        raise EventInputError(f"cannot seat an odd number of pairs ({n})")
    met = _met_sets(ids, history)
    oracle = MatchingOracle(n, met)
    budget = n // 2 - oracle.size
    tables, rematches = [], 0
    while oracle.alive:
        top = oracle.alive[0]
        rest_pairs = len(oracle.alive) // 2 - 1
        chosen, flag = None, 0
        for flag in (0, 1) if budget else (0,):
            for other in oracle.alive[1:]:
                if (other in met[top]) != bool(flag):
                    continue
                # already matched to ``top`` in a maximum matching: always feasible
                if oracle.mate[top] == other or (
                    flag + rest_pairs - oracle.size_without(top, other) <= budget
                ):
                    chosen = other
                    break
            if chosen is not None:
                break
        if chosen is None:  # pragma: no cover - the budget always admits some opponent
            raise AssertionError("no feasible opponent; the matching oracle is inconsistent")
        oracle.remove_pair(top, chosen)
        tables.append((ids[top], ids[chosen]))
        budget -= flag
        rematches += flag
    return tables, rematches


def _table(table: Any, what: str) -> tuple[int, int]:
    """An earlier table ``(ns, ew)`` of two pair ids, checked."""
    pair = as_list(table, what, EventInputError)
    if len(pair) != 2:
        raise EventInputError(f"{what}: a table is two pair ids (ns, ew), got {table!r}"[:300])
    return need_int(pair[0], what), need_int(pair[1], what)


def pair_round(standings: Iterable[Standing], history: Iterable[Sequence[int]]) -> Pairing:
    """The next round's seating from the standings of the pairs to seat and earlier tables."""
    ordered = standing_order(standings)
    ids = [s.pair for s in ordered]
    if len(set(ids)) != len(ids):
        raise EventInputError("standings list a pair twice")
    bye = choose_bye(ordered)
    history = [
        _table(t, f"history[{i}]")
        for i, t in enumerate(as_list(history, "history", EventInputError))
    ]
    tables, rematches = seat([p for p in ids if p != bye], history)
    return Pairing(ids, tables, bye, rematches)


def _ranking(
    pair_ids: Sequence[int],
    scores: dict[int, tuple[Number, int]],
    scheduled: dict[int, int],
    completion: Fraction,
) -> list[RankRow]:
    order = sorted(pair_ids, key=lambda p: standing_key(p, *scores[p]))
    done = [p for p in order if scores[p][1] >= 1 and scores[p][1] >= completion * scheduled[p]]
    awards = masterpoints(len(done))
    rows = [
        RankRow(p, rank, *scores[p], scheduled[p], True, awards[rank - 1])
        for rank, p in enumerate(done, start=1)
    ]
    rows += [RankRow(p, None, *scores[p], scheduled[p], False, 0) for p in order if p not in done]
    return rows


def swiss_ranking(event: Event) -> list[RankRow]:
    """The final list of a Swiss event: completed pairs ranked with masterpoints, then the rest."""
    instance_of(event, Event, "event", EventInputError)
    if event.type != "swiss":
        raise EventInputError(f"a Swiss ranking needs a swiss event, got type {event.type!r}")
    values = result_values(event.results, event.method)
    ids = [pair.id for pair in event.pairs]
    scores = pair_scores(event.results, values, event.method, ids)
    scheduled = {p: 0 for p in ids}
    for rnd in event.rounds:
        for p in ids:
            if p != rnd.bye:
                scheduled[p] += len(rnd.boards)
    return _ranking(ids, scores, scheduled, event.completion)


@dataclass
class SwissRound:
    """One round of :func:`run_event`: boards to play, pairs leaving first, results per table.

    ``results[t][b]`` is table ``t``'s N-S score on the round's ``b``-th board,
    ``None`` when the board was cut.
    """

    boards: int
    results: list[list[int | None]]
    withdraw: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class EventRun:
    """What :func:`run_event` produced: each round's pairing, the final ranking, all results."""

    rounds: list[Pairing]
    ranking: list[RankRow]
    results: list[EventResult]


def event_standings(event: Event) -> list[Standing]:
    """Standings of every pair of a Swiss (or pairs) event from the results so far, in order."""
    instance_of(event, Event, "event", EventInputError)
    values = result_values(event.results, event.method)
    scores = pair_scores(event.results, values, event.method, [p.id for p in event.pairs])
    byes = {p.id: 0 for p in event.pairs}
    for rnd in event.rounds:
        if rnd.bye is not None:
            byes[rnd.bye] += 1
    return standing_order(Standing(p, *scores[p], byes[p]) for p in scores)


def next_round(event: Event, withdraw: Sequence[int] = ()) -> Pairing:
    """The seating of the next round of a Swiss event file (pairs in ``withdraw`` leave first)."""
    instance_of(event, Event, "event", EventInputError)
    withdraw = [need_int(p, "withdraw") for p in as_list(withdraw, "withdraw", EventInputError)]
    gone = {p for rnd in event.rounds for p in rnd.withdrawn} | set(withdraw)
    history = [table for rnd in event.rounds for table in rnd.tables]
    return pair_round([s for s in event_standings(event) if s.pair not in gone], history)


# play(round number, the round's pairing, its board numbers) -> one row of N-S scores per table
PlayRound = Callable[[int, "Pairing", list[int]], Sequence[Sequence[int | None]]]


def run_event(
    pairs: int, method: str, rounds: Sequence[SwissRound], completion: Any = Fraction(7, 10)
) -> EventRun:
    """A whole Swiss event: withdrawals, standings, bye, seating, results, ranking, masterpoints.

    Each round's ``results`` has one row per table in table order (table 1
    holds the highest-ranked pair) and one N-S score (or ``None``, cut) per board.
    """
    rounds = list_of(rounds, SwissRound, "rounds", EventInputError)
    return play_event(
        pairs, method, [(r.boards, r.withdraw) for r in rounds],
        lambda number, _pairing, _boards: rounds[number - 1].results, completion,
    )  # fmt: skip


def play_event(
    pairs: int,
    method: str,
    schedule: Sequence[tuple[int, Sequence[int]]],
    play: PlayRound,
    completion: Any = Fraction(7, 10),
) -> EventRun:
    """Like :func:`run_event`, with each round's results asked of ``play`` once it is seated.

    ``schedule`` lists ``(boards, pairs withdrawing before the round)`` per round.
    """
    pairs = need_int(pairs, "pairs")
    schedule = as_list(schedule, "schedule", EventInputError)
    if not callable(play):
        raise EventInputError(f"play must be a function of (round, pairing, boards), got {play!r}")
    if not 2 <= pairs <= MAX_PAIRS:
        raise EventInputError(f"a Swiss event needs 2..{MAX_PAIRS} pairs, got {pairs}")
    if not isinstance(method, str) or method not in METHODS:
        raise EventInputError(f"method {method!r} is not one of {', '.join(METHODS)}")
    completion = exact(completion, "completion")
    if not 0 < completion <= 1:
        raise EventInputError(f"completion {float(completion)} is outside (0, 1]")
    ids = list(range(1, pairs + 1))
    active = set(ids)
    byes = {p: 0 for p in ids}
    scheduled = {p: 0 for p in ids}
    history: list[tuple[int, int]] = []
    results: list[EventResult] = []
    pairings: list[Pairing] = []
    next_board = 1
    for number, entry in enumerate(schedule, start=1):
        entry = as_list(entry, f"schedule[{number - 1}]", EventInputError)
        if len(entry) != 2:
            raise EventInputError(f"schedule[{number - 1}]: give (boards, pairs withdrawing)")
        board_count, withdraw = entry
        for p in as_list(withdraw, f"round {number}: withdraw", EventInputError):
            if p not in active:
                raise EventInputError(f"round {number}: pair {p} cannot withdraw (not active)")
            active.discard(p)
        values = result_values(results, method)
        scores = pair_scores(results, values, method, ids)
        pairing = pair_round([Standing(p, *scores[p], byes[p]) for p in sorted(active)], history)
        pairings.append(pairing)
        boards = list(range(next_board, next_board + need_int(board_count, "boards")))
        next_board += len(boards)
        if pairing.bye is not None:
            byes[pairing.bye] += 1
        for p in ids:
            if p != pairing.bye:
                scheduled[p] += len(boards)
        rows = play(number, pairing, boards)
        if len(rows) != len(pairing.tables):
            raise EventInputError(
                f"round {number}: {len(rows)} result rows for {len(pairing.tables)} tables"
            )
        for t, ((ns, ew), row) in enumerate(zip(pairing.tables, rows), start=1):
            if len(row) != len(boards):
                raise EventInputError(
                    f"round {number}, table {t}: {len(row)} scores for {len(boards)} boards"
                )
            history.append((ns, ew))
            for board, score in zip(boards, row):
                if score is not None:
                    results.append(EventResult(board, ns, ew, need_int(score, "score"), number, t))
    values = result_values(results, method)
    scores = pair_scores(results, values, method, ids)
    return EventRun(pairings, _ranking(ids, scores, scheduled, completion), results)
