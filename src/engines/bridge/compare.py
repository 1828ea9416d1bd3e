"""Comparing results: IMPs, matchpoints, Butler (datum) IMPs, cross-IMPs, victory points.

All scores are from one direction's point of view (usually N–S), one entry
per table that played the board.

>>> imps(430), imps(-50), imps(10)
(10, -2, 0)
>>> matchpoints([420, 420, 170, -50])
[5, 5, 2, 0]
>>> butler_datum([620, 170, 620, 650, -100])
470
>>> victory_points(10, 16)
(12.8, 7.2)
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence

from engines.arguments import as_list, finite_number
from engines.bridge.seats import BridgeInputError

__all__ = [
    "butler_datum",
    "butler_imps",
    "cross_imps",
    "imps",
    "matchpoint_percentages",
    "matchpoints",
    "victory_points",
]

# Lower ends of the IMP bands 1..24 (score differences; 0-10 is 0 IMP, 20-40 is 1, ...).
# A difference that is not a multiple of 10 (e.g. 15) falls in the band whose range it reaches.
_IMP_LOWER_BOUNDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)  # fmt: skip


def imps(diff: int) -> int:
    """IMPs for a score difference (signed: a negative difference gives negative IMPs).

    >>> [imps(d) for d in (0, 20, 50, 90, 130, 170, 220, 500, 600, 4000, 9990)]
    [0, 1, 2, 3, 4, 5, 6, 11, 12, 24, 24]
    """
    diff = finite_number(diff, "score difference", BridgeInputError)
    magnitude = bisect_right(_IMP_LOWER_BOUNDS, abs(diff))
    return magnitude if diff >= 0 else -magnitude


def _scores(scores: Sequence[int], minimum: int = 1) -> list[int]:
    values = as_list(scores, "scores", BridgeInputError)
    if len(values) < minimum:
        raise BridgeInputError(f"need at least {minimum} results on the board, got {len(values)}")
    return [finite_number(value, "score", BridgeInputError) for value in values]  # type: ignore[misc]


def matchpoints(scores: Sequence[int]) -> list[int]:
    """Matchpoints of each result: 2 per other result beaten, 1 per other result tied.

    The top on a board of ``n`` results is ``2 * (n - 1)``.
    """
    values = _scores(scores)
    return [
        sum(2 if mine > other else 1 if mine == other else 0 for other in values) - 1
        for mine in values
    ]


def matchpoint_percentages(scores: Sequence[int]) -> list[float]:
    """Each result's matchpoints as a percentage of the top (50 % each on a one-table board).

    >>> matchpoint_percentages([420, 420, 170, -50])
    [83.33, 83.33, 33.33, 0.0]
    """
    values = _scores(scores)
    top = 2 * (len(values) - 1)
    if top == 0:
        return [50.0]
    return [round(100 * mp / top, 2) for mp in matchpoints(values)]


def _round_to_ten(value: float) -> int:
    """Nearest multiple of 10, halves away from zero."""
    units = math.floor(abs(value) / 10 + 0.5)
    return int(math.copysign(units * 10, value)) if units else 0


def butler_datum(scores: Sequence[int], min_results: int = 3) -> int:
    """The datum: drop the ``k = ceil(n/10)`` highest and lowest, average, round to 10.

    ``min_results`` is the fewest results a board needs to be scored (3; seed
    002's XIMP rule uses 6).  Halves round away from zero (``-25`` → ``-30``).

    >>> butler_datum([100, 200, 300, 400])
    250
    >>> butler_datum([-10, -20, -30])
    -20
    """
    values = sorted(_scores(scores, max(3, min_results)))
    k = math.ceil(len(values) / 10)
    kept = values[k : len(values) - k]
    return _round_to_ten(sum(kept) / len(kept))


def butler_imps(scores: Sequence[int], min_results: int = 3) -> list[int]:
    """IMPs of each result against the board's datum (:func:`butler_datum`).

    >>> butler_imps([620, 170, 620, 650, -100])
    [4, -7, 4, 5, -11]
    """
    values = _scores(scores)
    datum = butler_datum(values, min_results)
    return [imps(score - datum) for score in values]


def cross_imps(scores: Sequence[int], average: bool = False) -> list[int] | list[float]:
    """Each result compared with every other result of the board, IMPs summed.

    With ``average=True`` the sum is divided by the number of comparisons
    (``n - 1``) and rounded to 2 decimals.

    >>> cross_imps([420, 170, -50])
    [16, 0, -16]
    >>> cross_imps([420, 170, -50], average=True)
    [8.0, 0.0, -8.0]
    """
    values = _scores(scores, 2)
    sums = [sum(imps(mine - other) for other in values) for mine in values]
    if not average:
        return sums
    return [round(total / (len(values) - 1), 2) for total in sums]


def victory_points(margin: int | float, boards: int) -> tuple[float, float]:
    """WBF continuous 20-VP scale: ``(VPs of the side with the margin, VPs of the other)``.

    With ``B = 15 * sqrt(boards)`` and ``tau = (sqrt 5 - 1) / 2`` the winner
    scores ``min(20, 10 + 10 * (1 - tau ** (3 * M / B)) / (1 - tau ** 3))``,
    rounded to 2 decimals, the loser 20 minus that.  A negative ``margin``
    means the first side lost.

    >>> victory_points(0, 8), victory_points(-25, 12), victory_points(200, 32)
    ((10.0, 10.0), (3.45, 16.55), (20.0, 0.0))
    """
    margin = finite_number(margin, "margin", BridgeInputError)
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < 1:
        raise BridgeInputError(f"number of boards {boards!r} must be a positive integer")
    blowout = 15 * math.sqrt(boards)
    tau = (math.sqrt(5) - 1) / 2
    m = abs(margin)
    winner = min(20.0, 10 + 10 * (1 - tau ** (3 * m / blowout)) / (1 - tau**3))
    winner = math.floor(winner * 100 + 0.5 + 1e-9) / 100
    loser = round(20 - winner, 2)
    return (winner, loser) if margin >= 0 else (loser, winner)
