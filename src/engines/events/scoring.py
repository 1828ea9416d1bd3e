"""Board scoring for events: the datum, the three event methods and stream scoring.

The IMP scale, the Butler datum, cross-IMPs and matchpoints are those of
:mod:`engines.bridge.compare`; this module adds what the event rules leave to
it: a datum for one or two results (their plain mean), exact matchpoint
percentages, the ``ximp`` / ``butler`` / ``mp`` value of every result of a
board, and the 复式 stream scoring of a board whose results arrive one by one.

Every score is from North-South's point of view.

>>> datum([420, -50])
190
>>> board_values([420, 450, -50], "ximp")
[9, 12, -21]
>>> board_values([420, 420, 450], "mp")
[Fraction(25, 1), Fraction(25, 1), Fraction(100, 1)]
>>> stream_board([420, 420, 170, 450, -100, 420, 620]).imps
[2, 2, -5, 3, -10, 2, 6]
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engines.arguments import as_list
from engines.bridge.compare import _round_to_ten, butler_datum, cross_imps, imps, matchpoints
from engines.events.common import need_int
from engines.events.errors import EventInputError

__all__ = [
    "METHODS",
    "StreamBoard",
    "board_values",
    "cross_averages",
    "cross_sums",
    "datum",
    "datum_imps",
    "mp_percentages",
    "stream_board",
]

METHODS: tuple[str, ...] = ("mp", "ximp", "butler")


def _checked(scores: Sequence[int]) -> list[int]:
    scores = as_list(scores, "scores", EventInputError)
    values = [need_int(score, f"score {i + 1}") for i, score in enumerate(scores)]
    if not values:
        raise EventInputError("a board needs at least one result")
    return values


def datum(scores: Sequence[int]) -> int:
    """The Butler datum; with one or two results nothing is dropped (their mean, rounded to 10).

    >>> datum([185]), datum([-620, -600, -650]), datum([400, 469])
    (190, -620, 430)
    """
    values = _checked(scores)
    if len(values) >= 3:
        return butler_datum(values)
    # the sum of one or two integers halves exactly in binary, so the float mean is exact
    return _round_to_ten(sum(values) / len(values))


def _sorted_datum(ordered: list[int]) -> int:
    """:func:`datum` of results already sorted (the same trimming and rounding, no checks)."""
    n = len(ordered)
    k = -(-n // 10) if n >= 3 else 0
    return _round_to_ten(sum(ordered[k : n - k]) / (n - 2 * k))


def datum_imps(scores: Sequence[int]) -> tuple[int, list[int]]:
    """``(datum, IMPs of each result against it)``.

    >>> datum_imps([-620, -600, -650])
    (-620, [0, 1, -1])
    """
    values = _checked(scores)
    centre = datum(values)
    return centre, [imps(score - centre) for score in values]


def cross_sums(scores: Sequence[int]) -> list[int]:
    """Each result's IMPs against every other result of the board, summed (0 when alone).

    The same sums as :func:`engines.bridge.compare.cross_imps`, computed over the
    distinct scores (a board of 500 tables has a few dozen), so large fields stay fast.

    >>> cross_sums([420, 170, -100])
    [17, 1, -18]
    """
    values = _checked(scores)
    if len(values) == 1:
        return [0]
    if len(values) <= 16:
        return list(cross_imps(values))  # type: ignore[arg-type]
    counts = Counter(values)
    sums = {v: sum(c * imps(v - other) for other, c in counts.items()) for v in counts}
    return [sums[v] for v in values]


def cross_averages(scores: Sequence[int]) -> list[Fraction]:
    """Cross-IMP sums divided by the ``n - 1`` comparisons, exactly (0 with one result).

    >>> cross_averages([420, 170, -100])
    [Fraction(17, 2), Fraction(1, 2), Fraction(-9, 1)]
    """
    sums = cross_sums(scores)
    comparisons = max(len(sums) - 1, 1)
    return [Fraction(total, comparisons) for total in sums]


def mp_percentages(scores: Sequence[int]) -> list[Fraction]:
    """N-S matchpoint percentages, exactly (50 each on a board with one result).

    Matchpoints as :func:`engines.bridge.compare.matchpoints` counts them: 2
    per result beaten, 1 per result tied (counted over distinct scores).

    >>> mp_percentages([420, 420, 170, -50])
    [Fraction(250, 3), Fraction(250, 3), Fraction(100, 3), Fraction(0, 1)]
    """
    values = _checked(scores)
    top = 2 * (len(values) - 1)
    if top == 0:
        return [Fraction(50)]
    if len(values) <= 16:
        return [Fraction(100 * mp, top) for mp in matchpoints(values)]
    counts = Counter(values)
    below, points = 0, {}
    for v in sorted(counts):
        points[v] = Fraction(100 * (2 * below + counts[v] - 1), top)
        below += counts[v]
    return [points[v] for v in values]


def board_values(scores: Sequence[int], method: str) -> list[int] | list[Fraction]:
    """The N-S value of every result of a board under a method (``mp``, ``ximp``, ``butler``).

    E-W values are the negation (``ximp``, ``butler``) or 100 minus it (``mp``).
    """
    if not isinstance(method, str):
        raise EventInputError(f"scoring method must be one of {', '.join(METHODS)}, got {method!r}")
    if method == "ximp":
        return cross_sums(scores)
    if method == "butler":
        return datum_imps(scores)[1]
    if method == "mp":
        return mp_percentages(scores)
    raise EventInputError(f"scoring method {method!r} is not one of {', '.join(METHODS)}")


@dataclass(frozen=True)
class StreamBoard:
    """A stream-scored board: per result in arrival order, its IMPs and the datum they came from.

    ``None`` in both lists marks a result refused after ``max_results``; a result
    that was never scored (the board stayed under ``min_results``) holds IMPs
    0 and datum ``None``.
    """

    imps: list[int | None]
    datums: list[int | None]


def stream_board(scores: Sequence[int], min_results: int = 6, max_results: int = 40) -> StreamBoard:
    """复式 scoring of a board whose results arrive in the order given.

    Under ``min_results`` results nothing is scored (0 for now); at
    ``min_results`` every result so far is scored against their datum; each
    later arrival is scored once, against the datum of all results so far
    (itself included), and nothing earlier is rescored.  Arrivals after
    ``max_results`` are refused.

    >>> stream_board([420, 420, 170, 450, -100, 420, 620]).datums
    [360, 360, 360, 360, 360, 360, 380]
    >>> stream_board([1, 2], min_results=1, max_results=1)
    StreamBoard(imps=[0, None], datums=[0, None])
    """
    values = _checked(scores)
    min_results = need_int(min_results, "min_results")
    max_results = need_int(max_results, "max_results")
    if not 1 <= min_results <= max_results:
        raise EventInputError(
            f"need 1 <= min_results <= max_results, got {min_results} and {max_results}"
        )
    taken = values[:max_results]
    out_imps: list[int | None] = [0] * len(taken)
    out_datums: list[int | None] = [None] * len(taken)
    if len(taken) >= min_results:
        first, first_imps = datum_imps(taken[:min_results])
        out_imps[:min_results] = first_imps
        out_datums[:min_results] = [first] * min_results
        # the datum changes with every arrival: keep the results sorted, re-trim each time
        ordered = sorted(taken[:min_results])
        for n in range(min_results + 1, len(taken) + 1):
            insort(ordered, taken[n - 1])
            centre = _sorted_datum(ordered)
            out_imps[n - 1] = imps(taken[n - 1] - centre)
            out_datums[n - 1] = centre
    refused = len(values) - len(taken)
    return StreamBoard(out_imps + [None] * refused, out_datums + [None] * refused)
