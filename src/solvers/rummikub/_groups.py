"""Group feasibility at one number: which colour-count profiles split into valid groups.

A group is 3 or 4 tiles of one number in distinct colours; a joker fills a
missing colour.  House rules change the tables, not the DP: with fewer colours a group
holds at most that many tiles, with two real tiles per set a group needs two
non-joker tiles, and with a minimum set length of 4 or 5 a group needs that many tiles
(:func:`group_tables`).  At one number each colour supplies 0, 1 or 2 real tiles to
groups and up to four jokers (the tile set's) join them.  Groups are colour-symmetric, so
feasibility depends only on how many colours supply one tile (``n1``), how
many supply two (``n2``) and the joker count ``jg``.  Note the three-group
case: 8 real tiles and a joker form 3 + 3 + 3.

>>> bool(GROUP_OK[3, 0, 0]), bool(GROUP_OK[2, 0, 0]), bool(GROUP_OK[2, 0, 1])
(True, False, True)
>>> partition_groups([2, 2, 2, 2], 1)
[((0, 1, 2), 0), ((0, 1, 3), 0), ((2, 3), 1)]
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np
from numba import njit

MAX_JOKERS = 4  # the tables' joker counts 0..4 (a tile set of up to four jokers)


def partition_groups(ug: list[int], jokers: int, colours: int = 4, min_real: int = 1,
                     min_len: int = 3) -> list[tuple[tuple[int, ...], int]] | None:
    """One way to split ``ug[c]`` tiles of colour ``c`` plus ``jokers`` into groups.

    ``colours``: the colours of the tile set (a group holds at most that many tiles);
    ``min_real``: the non-joker tiles every group needs; ``min_len``: the tiles every group
    needs (jokers included).  Returns a list of ``(colours,
    joker_count)`` per group, or ``None`` when impossible.

    >>> partition_groups([1, 1, 1, 0], 1, colours=3) is None, partition_groups([1, 0, 0], 2)
    (True, [((0,), 2)])
    >>> partition_groups([1, 0, 0], 2, min_real=2) is None
    True
    """
    return _partition(tuple(ug), jokers, colours, min_real, min_len)


@cache
def _partition(ug: tuple[int, ...], jokers: int, ncolours: int, min_real: int, min_len: int
               ) -> list[tuple[tuple[int, ...], int]] | None:
    if sum(ug) == 0:
        return [] if jokers == 0 else None
    first = next(c for c, n in enumerate(ug) if n > 0)
    others = [c for c, n in enumerate(ug) if n > 0 and c != first]
    for size in range(len(others), -1, -1):
        for rest in combinations(others, size):
            colours = (first, *rest)
            if len(colours) < min_real:
                continue
            for j in range(min(jokers, ncolours - len(colours)) + 1):
                if len(colours) + j < min_len:
                    continue
                left = list(ug)
                for c in colours:
                    left[c] -= 1
                tail = _partition(tuple(left), jokers - j, ncolours, min_real, min_len)
                if tail is not None:
                    return [(colours, j), *tail]
    return None


def _group_table(colours: int = 4, min_real: int = 1, min_len: int = 3, copies: int = 2
                 ) -> np.ndarray:
    """``table[n1, n2 + 5 * n3 + 25 * n4, jg]``: the profile of n1 colours giving one tile,
    n2 two, n3 three and n4 four forms groups (the second axis: 5 entries for two copies,
    25 for three, 125 for four)."""
    table = np.zeros((5, 5 ** (max(2, copies) - 1), MAX_JOKERS + 1), dtype=np.int8)
    for n1 in range(5):
        for n2 in range(5 - n1):
            for n3 in range(5 - n1 - n2 if copies > 2 else 1):
                for n4 in range(5 - n1 - n2 - n3 if copies > 3 else 1):
                    ug = ([4] * n4 + [3] * n3 + [2] * n2 + [1] * n1
                          + [0] * (4 - n1 - n2 - n3 - n4))
                    for jg in range(MAX_JOKERS + 1):
                        table[n1, n2 + 5 * n3 + 25 * n4, jg] = partition_groups(
                            ug, jg, colours, min_real, min_len) is not None
    return table


GROUP_OK: np.ndarray = _group_table()

# 11 tiles at one number (8 real, 3 jokers): at most 3 groups, 5 of 2 tiles; four copies:
# 18 (16 real, 2 jokers), at most 6 groups
MAX_GROUPS = 6


def _partition_table(ncolours: int = 4, min_real: int = 1, min_len: int = 3,
                     copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """:func:`partition_groups` for every colour profile, as arrays a kernel can read.

    Profile ``ug`` (0..2 tiles per colour) has index ``ug[0] + 3*ug[1] + 9*ug[2] + 27*ug[3]``
    (three copies: 0..3 tiles, base 4, 256 profiles; four: base 5, 625);
    ``count[index, jokers]`` is the number of groups (-1: impossible) and
    ``masks[index, jokers, g] = (real colours, joker colours)`` as 4-bit colour masks, the
    jokers standing for the lowest colours the group lacks.
    """
    base = max(2, copies) + 1
    count = np.full((base**4, MAX_JOKERS + 1), -1, np.int64)
    masks = np.zeros((base**4, MAX_JOKERS + 1, MAX_GROUPS, 2), np.int64)
    for index in range(base**4):
        ug = [index // base**c % base for c in range(4)]
        for jokers in range(MAX_JOKERS + 1):
            parts = partition_groups(ug, jokers, ncolours, min_real, min_len)
            if parts is None:
                continue
            count[index, jokers] = len(parts)
            for g, (colours, k) in enumerate(parts):
                spare = [c for c in range(ncolours) if c not in colours][:k]
                masks[index, jokers, g, 0] = sum(1 << c for c in colours)
                masks[index, jokers, g, 1] = sum(1 << c for c in spare)
    return count, masks


PART_COUNT, PART_MASKS = _partition_table()


@cache
def group_tables(colours: int = 4, min_real: int = 1, min_len: int = 3, copies: int = 2
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group_ok, part_count, part_masks)`` for a tile set of ``colours`` (1..4) colours
    whose sets need ``min_real`` (1 or 2) non-joker tiles and ``min_len`` (2..5) tiles, of
    ``copies`` (1..4) of each tile: the DP's and the replay's tables.

    >>> ok, count, masks = group_tables(3, 2)
    >>> bool(ok[2, 0, 1]), bool(ok[3, 0, 1]), bool(ok[1, 0, 2])
    (True, False, False)
    """
    copies = max(2, copies)  # (fewer copies: the same tables)
    if (colours, min_real, min_len, copies) == (4, 1, 3, 2):
        return GROUP_OK, PART_COUNT, PART_MASKS
    return (_group_table(colours, min_real, min_len, copies),
            *_partition_table(colours, min_real, min_len, copies))


@njit(cache=True, error_model="numpy")
def groups_within(group_ok):
    """``any_ok[n1, n2, j]``: the complete profile forms groups with at most j jokers
    (``n2``: the second axis of ``group_ok``, n2 + 5 * n3 + 25 * n4 with more copies)."""
    any_ok = np.zeros(group_ok.shape, np.bool_)
    for n1 in range(5):
        for n2 in range(group_ok.shape[1]):
            for j in range(group_ok.shape[2]):
                for jg in range(j + 1):
                    if group_ok[n1, n2, jg]:
                        any_ok[n1, n2, j] = True
    return any_ok
