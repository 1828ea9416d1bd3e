"""The pairing rule's own procedure, literally: a memoised search over sets of pairs.

``fewest(S)`` (the fewest rematches to seat the set S) recurses on S's
highest-ranked pair and each possible opponent, memoised on the bitmask of S;
the seating then takes, table by table, the first opponent (not met before
met, then rank) that keeps within the budget.  Exponential in the worst case:
it exists to check :func:`engines.events.swiss.seat` and to measure it against.

>>> reference_seat([1, 2, 3, 4, 5, 6], [[1, 2], [3, 5], [4, 6], [1, 5], [3, 6], [4, 2],
...                                      [1, 6], [3, 2], [4, 5]])
([(1, 3), (2, 5), (4, 6)], 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from engines.events.swiss import _met_sets

__all__ = ["reference_seat"]


def reference_seat(
    ids: Sequence[int], history: Iterable[Sequence[int]]
) -> tuple[list[tuple[int, int]], int]:
    """``(tables, rematches)`` for ``ids`` in standing order, by the memoised search."""
    n = len(ids)
    met = _met_sets(ids, history)

    def low(mask: int) -> int:
        return (mask & -mask).bit_length() - 1

    @cache
    def fewest(mask: int) -> int:
        if not mask:
            return 0
        top = low(mask)
        rest = mask & ~(1 << top)
        best, others = n, rest
        while others:
            j = low(others)
            others &= others - 1
            best = min(best, (j in met[top]) + fewest(rest & ~(1 << j)))
            if best == 0:
                break
        return best

    mask = (1 << n) - 1
    budget = fewest(mask)
    tables, rematches = [], 0
    while mask:
        top = low(mask)
        rest = mask & ~(1 << top)
        candidates = sorted(
            (j for j in range(n) if rest >> j & 1), key=lambda j: (j in met[top], j)
        )
        for j in candidates:
            flag = int(j in met[top])
            if flag + fewest(rest & ~(1 << j)) <= budget:
                tables.append((ids[top], ids[j]))
                budget -= flag
                rematches += flag
                mask = rest & ~(1 << j)
                break
    fewest.cache_clear()
    return tables, rematches
