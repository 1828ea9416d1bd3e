"""Masterpoints (巅峰大师分) for a finished event and the twelve player grades (等级).

>>> masterpoints(12)
[3, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0, 0]
>>> grade(250)
(8, '巅峰明星')
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Any

from engines.events.common import exact, need_int
from engines.events.errors import EventInputError

__all__ = ["GRADE_NAMES", "GRADE_THRESHOLDS", "grade", "masterpoints"]

GRADE_NAMES: tuple[str, ...] = (
    "无等级", "有级牌手", "中级牌手", "高级牌手", "巅峰好手", "巅峰高手",
    "巅峰大师", "巅峰明星", "桥界嘉宾", "桥协大师", "荣誉大师", "专业牌手",
)  # fmt: skip
GRADE_THRESHOLDS: tuple[int, ...] = (0, 1, 5, 15, 30, 60, 100, 200, 400, 700, 1000, 1500)


#: More pairs than any event seats; the award list is built in full, so it is bounded.
MAX_PAIRS = 100_000


def masterpoints(completed: int) -> list[int]:
    """Each rank's award (every player of the pair gets it) when ``completed`` pairs finished.

    Rank 1 gets 3.  With 20 or more pairs ranks 2-4 get 2 and ranks 5-10 get 1;
    with fewer only the first half (rank at most ``completed // 2``) scores:
    2 for ranks 2-4, 1 for the rest of the half.

    >>> masterpoints(7), masterpoints(2), masterpoints(0)
    ([3, 2, 2, 0, 0, 0, 0], [3, 0], [])
    """
    n = need_int(completed, "completed")
    if not 0 <= n <= MAX_PAIRS:
        raise EventInputError(f"completed must be 0..{MAX_PAIRS} pairs, got {n}")
    last = 10 if n >= 20 else n // 2
    return [
        3 if rank == 1 else 0 if rank > last else 2 if rank <= 4 else 1 for rank in range(1, n + 1)
    ]


def grade(points: Any, thresholds: Sequence[Any] | None = None) -> tuple[int, str]:
    """``(grade 1..12, Chinese name)``: the highest grade whose threshold ``points`` reaches.

    ``thresholds`` are 12 strictly increasing numbers starting at 0.

    >>> grade(4), grade(5), grade(12, list(range(0, 24, 2)))
    ((2, '有级牌手'), (3, '中级牌手'), (7, '巅峰大师'))
    """
    value = exact(points, "masterpoints")
    if value < 0:
        raise EventInputError(f"masterpoints must not be negative, got {points!r}")
    if thresholds is None:
        bounds = [Fraction(t) for t in GRADE_THRESHOLDS]
    else:
        if not isinstance(thresholds, Sequence) or len(thresholds) != 12:
            raise EventInputError("thresholds: need 12 numbers, one per grade")
        bounds = [exact(t, f"thresholds[{i}]") for i, t in enumerate(thresholds)]
        if bounds[0] != 0 or any(b >= c for b, c in pairwise(bounds)):
            raise EventInputError("thresholds: must start at 0 and strictly increase")
    level = sum(1 for bound in bounds if value >= bound)
    return level, GRADE_NAMES[level - 1]
