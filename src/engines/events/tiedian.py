"""贴点赛: each board's score in IMPs compared with what the side's high-card points expect.

The scoring side (N-S when the N-S score is 0 or more, else E-W) gets
``imps(|score|) - imps(E[h])`` with ``h`` its combined HCP and ``E`` an
expected-score table of 41 integers (entry ``h`` = what a side holding ``h``
HCP is expected to score); the other side gets the negation.  A player's
session total is the sum over his boards minus ``disconnect_points`` (20)
for each board on which he disconnected.

qipai ships a default table computed with its own double-dummy solver
(:func:`default_table`, rebuilt by ``qipai events tiedian-table``); every
function also takes a user table.

>>> table = [-e for e in reversed(T1_UPPER[1:])] + T1_UPPER
>>> tiedian_result(420, 23, table)
6
>>> tiedian_result(500, 24, table, side="EW")
-7
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engines.arguments import as_list, check_fields, list_of
from engines.bridge.compare import imps
from engines.events.common import need_int
from engines.events.errors import EventInputError

__all__ = [
    "T1_UPPER",
    "TiedianBoard",
    "check_table",
    "deal_hcp",
    "default_table",
    "tiedian_result",
    "tiedian_session",
]

# The specification's illustrative table T1 for 20..40 HCP (E[40 - h] = -E[h]).
T1_UPPER: list[int] = [
    0, 50, 90, 110, 130, 300, 420, 430, 450, 460, 480,
    500, 700, 980, 1000, 1020, 1200, 1440, 1500, 1510, 1520,
]  # fmt: skip

DEFAULT_TABLE_FILE = "tiedian_table.json"


def check_table(table: Any, where: str = "table") -> list[int]:
    """The table as 41 integers, or an error saying what is wrong with it."""
    if not isinstance(table, list | tuple) or len(table) != 41:
        size = len(table) if isinstance(table, list | tuple) else type(table).__name__
        raise EventInputError(
            f"{where}: an expected-score table is 41 integers (0..40 HCP), got {size}"
        )
    return [need_int(value, f"{where}[{h}]") for h, value in enumerate(table)]


def default_table() -> list[int]:
    """The shipped table: mean dealer-par score by the side's HCP over random deals (our DD solver).

    How it was built (sample size, seed, command) is in ``engines/data/events/README.md``.
    """
    folder = resources.files("engines.data").joinpath("events")
    data = json.loads(folder.joinpath(DEFAULT_TABLE_FILE).read_text("utf-8"))
    return check_table(data["table"], DEFAULT_TABLE_FILE)


def deal_hcp(deal: str) -> int:
    """N-S high-card points of a PBN deal (any first seat); the deal is validated first.

    >>> deal_hcp("N:AKQ2.KQ3.432.432 T98.T987.JT98.AK J43.AJ2.AKQ.J765 765.654.765.QT98")
    30
    """
    from engines.bridge.cards import Deal
    from engines.bridge.evaluation import hcp
    from engines.bridge.seats import Seat

    parsed = Deal.from_pbn(deal).validate()
    return int(hcp(parsed[Seat.NORTH])) + int(hcp(parsed[Seat.SOUTH]))


def tiedian_result(ns_score: int, ns_hcp: int, table: Sequence[int], side: str = "NS") -> int:
    """One board's 贴点 result for the player sitting ``side`` (``"NS"`` or ``"EW"``)."""
    score = need_int(ns_score, "ns_score")
    hcp = need_int(ns_hcp, "ns_hcp")
    if not 0 <= hcp <= 40:
        raise EventInputError(f"ns_hcp must be within 0..40, got {hcp}")
    if side not in ("NS", "EW"):
        raise EventInputError(f"side must be 'NS' or 'EW', got {side!r}")
    table = check_table(as_list(table, "table", EventInputError))
    scoring_hcp = hcp if score >= 0 else 40 - hcp
    value = imps(abs(score)) - imps(table[scoring_hcp])
    ns_value = value if score >= 0 else -value
    return ns_value if side == "NS" else -ns_value


@dataclass(frozen=True)
class TiedianBoard:
    """One board a player played: N-S score, N-S HCP, his side, whether he disconnected."""

    ns_score: int
    ns_hcp: int
    side: str = "NS"
    disconnect: bool = False

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


def tiedian_session(
    boards: Iterable[TiedianBoard], table: Sequence[int] | None = None, disconnect_points: int = 20
) -> tuple[list[int], int]:
    """``(result of each board, session total)`` for one player; ``table`` defaults to ours."""
    table = (
        check_table(as_list(table, "table", EventInputError))
        if table is not None
        else default_table()
    )
    disconnect_points = need_int(disconnect_points, "disconnect_points")
    results, penalty = [], 0
    for board in list_of(boards, TiedianBoard, "boards", EventInputError):
        results.append(tiedian_result(board.ns_score, board.ns_hcp, table, board.side))
        penalty += disconnect_points if board.disconnect else 0
    return results, sum(results) - penalty
