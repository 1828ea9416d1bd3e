"""Pairs events (双人赛, one or two winners): score every board, total and rank the pairs.

Each board is scored over all its results with the event's method
(:func:`engines.events.scoring.board_values`); a pair's score is the sum of
its values (``ximp``, ``butler``) or the mean of its board percentages
(``mp``), exactly.  Pairs rank by score, then boards played, then
registration.  The Swiss module reuses :func:`pair_scores` and
:func:`standing_key` for its standings and final ranking.

>>> from engines.events.files import EventResult
>>> rows = [EventResult(1, 1, 2, 420), EventResult(1, 3, 4, 450)]
>>> values = result_values(rows, "mp")
>>> values
[Fraction(0, 1), Fraction(100, 1)]
>>> pair_scores(rows, values, "mp", [1, 2, 3, 4])[2]
(Fraction(100, 1), 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engines.events.common import as_json_number
from engines.events.errors import EventInputError
from engines.events.files import Event, EventResult
from engines.events.scoring import board_values

__all__ = [
    "PairsEventResult",
    "RankRow",
    "pair_scores",
    "pairs_event",
    "result_values",
    "standing_key",
]

Number = int | Fraction


def result_values(results: Sequence[EventResult], method: str) -> list[Number]:
    """The N-S value of every result (given order), each board scored over all its results."""
    by_board: dict[Any, list[int]] = {}
    for index, result in enumerate(results):
        by_board.setdefault(result.board, []).append(index)
    values: list[Number] = [0] * len(results)
    for indexes in by_board.values():
        for index, value in zip(
            indexes, board_values([results[i].ns_score for i in indexes], method)
        ):
            values[index] = value
    return values


def pair_scores(
    results: Sequence[EventResult], values: Sequence[Number], method: str, pair_ids: Iterable[int]
) -> dict[int, tuple[Number, int]]:
    """``{pair: (score, boards played)}``: IMP sums, or for ``mp`` the mean percentage (or 0)."""
    totals: dict[int, list] = {pair: [0, 0] for pair in pair_ids}
    for result, value in zip(results, values):
        ew_value = 100 - value if method == "mp" else -value
        for pair, mine in ((result.ns, value), (result.ew, ew_value)):
            entry = totals.setdefault(pair, [0, 0])
            entry[0] += mine
            entry[1] += 1
    out: dict[int, tuple[Number, int]] = {}
    for pair, (total, boards) in totals.items():
        if method == "mp":
            out[pair] = (Fraction(total) / boards if boards else Fraction(0), boards)
        else:
            out[pair] = (int(total), boards)
    return out


def standing_key(pair: int, score: Number, boards: int) -> tuple[Number, int, int]:
    """Sort key of the standing order: score descending, boards descending, pair id ascending."""
    return (-score, -boards, pair)


@dataclass(frozen=True)
class RankRow:
    """One line of a ranking (``rank`` None for a pair that did not complete a Swiss event)."""

    pair: int
    rank: int | None
    score: Number
    boards: int
    scheduled: int | None = None
    completed: bool | None = None
    masterpoints: int | None = None

    def to_dict(
        self, players: Sequence[str] | None = None, places: int | None = 6
    ) -> dict[str, Any]:
        row: dict[str, Any] = {"pair": self.pair}
        if players is not None:
            row["players"] = list(players)
        score = self.score if places is None else as_json_number(self.score, places)
        row.update({"rank": self.rank, "score": score, "boards": self.boards})
        if self.scheduled is not None:
            row.update(
                scheduled=self.scheduled, completed=self.completed, masterpoints=self.masterpoints
            )
        return row


@dataclass(frozen=True)
class PairsEventResult:
    """The N-S value of every result (file order) and the ranking(s): ``{"all": …}`` or NS/EW."""

    values: list[Number]
    ranking: dict[str, list[RankRow]]


def _ranked(scores: dict[int, tuple[Number, int]], pairs: Iterable[int]) -> list[RankRow]:
    order = sorted(pairs, key=lambda p: standing_key(p, *scores[p]))
    return [RankRow(p, rank, *scores[p]) for rank, p in enumerate(order, start=1)]


def pairs_event(event: Event) -> PairsEventResult:
    """Score and rank an administrator-run pairs event (no completion rule, no masterpoints)."""
    if not isinstance(event, Event):
        raise EventInputError(f"event must be an Event, got {event!r}"[:300])
    values = result_values(event.results, event.method)
    ids = [pair.id for pair in event.pairs]
    scores = pair_scores(event.results, values, event.method, ids)
    if event.winners == 2:
        ranking = {
            side: _ranked(scores, [p.id for p in event.pairs if p.direction == side])
            for side in ("NS", "EW")
        }
    else:
        ranking = {"all": _ranked(scores, ids)}
    return PairsEventResult(values, ranking)
