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
Before the close, the colours placed so far bound what those groups can keep, whatever the
colours left give (:func:`group_deficits`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import NCOL

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


@njit(cache=True, inline="always")
def _fits(tail, caps, later):
    """Whether the ``later`` colours' digits ``tail`` (base 3) are within ``caps`` (2 bits
    a colour)."""
    for k in range(later):
        if tail % 3 > (caps >> (2 * k)) & 3:
            return False
        tail //= 3
    return True


@njit(cache=True, inline="always")
def _same_close(stays, v, sub, p, q, head, caps):
    """Whether the colours' profiles ``p`` and ``q`` (base 3, below ``head``) give the
    released groups ``sub`` the same stays whatever the later colours give (up to
    ``caps``) with any group jokers."""
    later = 0
    while head * 3 ** later < PROFILES:
        later += 1
    for tail in range(PROFILES // head):
        if _fits(tail, caps, later):
            for jg in range(JOKER_COUNTS):
                if stays[v, sub, p + tail * head, jg] != stays[v, sub, q + tail * head, jg]:
                    return False
    return True


@njit(cache=True)
def group_deficits(stays, v, c, out, bound, subsets, caps):
    """Fill ``out[subset, profile]`` for number v+1 after colour ``c``'s sub-step
    (``stays``: :func:`group_stays`' tables per number; ``profile``: the tiles colours 0..c
    gave to groups, the later colours' digits 0).  Columns 0..2, ``left`` group jokers at
    most (bit 0 of ``bound``; else 0): the fewest tiles of the released groups ``subset``
    that cannot stay, whatever the later colours give (each at most its ``caps``, 2 bits a
    colour from c+1: at most 2, its tiles there not held out, less those its short runs
    need beyond the jokers left): the released groups' own tiles, which they can always
    keep, less the best completion; 99 where none forms groups.  Column 3: the profile as
    ``w2`` (2 bits a colour) of the first profile giving the same stays whatever comes
    (bit 1 of ``bound``; else its own): the states differing only there are one.  Colours
    couple through the groups: this bounds the close's stays before its colours are placed
    and merges profiles that colours permute (:func:`solvers.rummikub._heirs_step.
    successors`).  Only the first ``subsets`` rows (the number's groups') are filled."""
    head = 3 ** (c + 1)
    for sub in range(subsets):
        full = -1
        for p in range(PROFILES if bound & 1 else 0):
            for jg in range(JOKER_COUNTS):
                full = max(full, stays[v, sub, p, jg])
        for p in range(head):
            code = 0
            for k in range(c + 1):
                code |= (p // 3 ** k % 3) << (2 * k)
            out[sub, p, JOKER_COUNTS] = code
            for q in range(p if bound & 2 else 0):
                if _same_close(stays, v, sub, p, q, head, caps):
                    out[sub, p, JOKER_COUNTS] = out[sub, q, JOKER_COUNTS]
                    break
            for left in range(JOKER_COUNTS):
                out[sub, p, left] = 0
                if not bound & 1:
                    continue
                best = -1
                for tail in range(PROFILES // head):
                    if _fits(tail, caps, NCOL - 1 - c):
                        for jg in range(left + 1):
                            best = max(best, stays[v, sub, p + tail * head, jg])
                out[sub, p, left] = full - best if best >= 0 else 99
