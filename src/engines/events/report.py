"""What the event commands print: result files (JSON) and the tables a director reads.

>>> print(text_table(["pair", "score"], [[1, "12"], [10, "-3"]]))
pair  score
   1     12
  10     -3
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engines.events.common import as_json_number
from engines.events.files import Event
from engines.events.pairs import Number, RankRow, result_values
from engines.events.rate import PlayerWeek

__all__ = [
    "players_file",
    "result_file",
    "text_table",
]

RESULT_FORMAT = "qipai-bridge-result/1"
PLAYERS_FORMAT = "qipai-bridge-players/1"


def text_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns right-aligned to their widest cell, two spaces apart."""
    cells = [list(map(str, header))] + [
        [("-" if c is None else str(c)) for c in row] for row in rows
    ]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]
    return "\n".join(lines)


def show(value: Number | None, places: int = 2) -> str:
    """A score for people: integers as they are, fractions with ``places`` decimals."""
    if value is None:
        return "-"
    if isinstance(value, int) or (isinstance(value, Fraction) and value.denominator == 1):
        return str(int(value))
    return f"{float(value):.{places}f}"


def result_file(
    event: Event, ranking: Mapping[str, list[RankRow]] | list[RankRow]
) -> dict[str, Any]:
    """The ``qipai-bridge-result/1`` object: ranking rows with players, every board's comparison."""
    values = result_values(event.results, event.method)

    def rows(items: list[RankRow]) -> list[dict[str, Any]]:
        return [row.to_dict(players=event.pair(row.pair).players) for row in items]

    out: dict[str, Any] = {"format": RESULT_FORMAT, "type": event.type, "method": event.method}
    if isinstance(ranking, list):
        out["completed_pairs"] = sum(1 for row in ranking if row.completed)
        out["ranking"] = rows(ranking)
    else:
        out["ranking"] = {side: rows(items) for side, items in ranking.items()}
    boards: dict[Any, list[dict[str, Any]]] = {}
    for result, value in zip(event.results, values):
        ew_value = 100 - value if event.method == "mp" else -value
        boards.setdefault(result.board, []).append(
            {"ns": result.ns, "ew": result.ew, "ns_score": result.ns_score,
             "ns_value": as_json_number(value), "ew_value": as_json_number(ew_value)}
        )  # fmt: skip
    out["boards"] = [{"board": board, "results": items} for board, items in boards.items()]
    return out


def players_file(figures: Mapping[str, PlayerWeek]) -> dict[str, Any]:
    """The ``qipai-bridge-players/1`` object written after a weekly run."""
    return {"format": PLAYERS_FORMAT, "players": {n: f.to_dict() for n, f in figures.items()}}
