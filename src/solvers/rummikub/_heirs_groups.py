"""Fewest tiles moved: the released table groups' best heirs inside one number.

At a number's close, the fewest-tiles-moved pass (:mod:`solvers.rummikub._heirs`) knows
how many tiles of each colour (0..2) and how many jokers went to groups, and which of the
number's table groups are released (not held out); the most of their tiles that can stay
is the best, over every way to form groups from those tiles, of the best one-to-one choice
of heirs (a table group's tiles that stay in its heir: the colours both hold, and the
jokers both hold up to the fewer).  A number holds at most 8 real tiles and 2 jokers, so
at most three groups either side: the ways to form groups are few (267 for four colours,
all profiles together), listed once by the engine (:func:`engines.rummikub.heirs.
partition_arrays`) and scored here for every subset of the released groups at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PROFILES = 81  # tiles per colour 0..2 for four colours, base 3 (colour 0 the lowest digit)
JOKER_COUNTS = 3  # group jokers 0..2


@njit(cache=True, inline="always")
def _weight(mask, jokers, new_mask, new_jokers):
    """The tiles of a table group (colour mask, jokers) that stay in a new group."""
    common = mask & new_mask
    count = 0
    while common:
        common &= common - 1
        count += 1
    return count + min(jokers, new_jokers)


@njit(cache=True)
def _best_heirs(weights, rows, cols):
    """The largest sum of one weight per row of ``rows`` (a bit mask of at most three
    rows), each column (of ``cols``) taken once at most, a row may take none."""
    best = 0
    for a in range(cols + 1):
        if a < cols and not rows & 1:
            continue
        wa = weights[0, a] if a < cols else 0
        for b in range(cols + 1):
            if b < cols and (b == a or not rows >> 1 & 1):
                continue
            wb = weights[1, b] if b < cols else 0
            for c in range(cols + 1):
                if c < cols and (c in (a, b) or not rows >> 2 & 1):
                    continue
                wc = weights[2, c] if c < cols else 0
                if wa + wb + wc > best:
                    best = wa + wb + wc
    return best


@njit(cache=True)
def group_stays(masks, jokers, count, part_start, part_mask, part_jokers, part_size, out):
    """Fill ``out[subset, profile, group jokers]`` (``subset``: a bit per table group
    ``masks[k]``/``jokers[k]``, ``k < count <= 3``) with the most tiles of those groups
    that stay, ``-1`` where the tiles cannot form groups.  ``part_start[profile * 3 +
    jokers]`` indexes the ways to form groups (``part_mask``/``part_jokers``: their groups,
    ``part_size`` of them)."""
    weights = np.zeros((3, 3), np.int64)
    for key in range(PROFILES * JOKER_COUNTS):
        profile, jg = key // JOKER_COUNTS, key % JOKER_COUNTS
        for sub in range(1 << count):
            out[sub, profile, jg] = -1
        for p in range(part_start[key], part_start[key + 1]):
            cols = part_size[p]
            weights[:] = 0
            for k in range(count):
                for g in range(cols):
                    weights[k, g] = _weight(masks[k], jokers[k], part_mask[p, g],
                                            part_jokers[p, g])
            for sub in range(1 << count):
                value = _best_heirs(weights, sub, cols)
                if value > out[sub, profile, jg]:
                    out[sub, profile, jg] = value
