"""One position in one compiled call: check the table, count tiles, solve, unpack.

This is the engine's ``best_move``: the engine hands over tile indices, the kernel checks
that the table's sets are sets and no tile occurs too often (it only says *that* the input
is wrong; the engine's Python checks then name the defect), solves exactly and returns the
packed sets and the rack tiles played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._exact import solve_arrays, solve_exact
from solvers.rummikub._groups import GROUP_OK, PART_COUNT, PART_MASKS
from solvers.rummikub._layout import BEAM, NCOL, NNUM
from solvers.rummikub._melds import MAX_SETS, meld_codes, meld_codes_batch

JOKER_INDEX = 52
COPIES = 2
MAX_PLAYED = 106

SOLVED, NO_ARRANGEMENT, BAD_SET, TOO_MANY = 1, 0, 2, 3


@njit(cache=True)
def _set_ok(tiles, lo, hi):
    """Whether ``tiles[lo:hi]`` is a run or a group (the rules of ``validate_set``)."""
    length = hi - lo
    if length < 3:
        return False
    colour = -1
    number = -1
    same_colour = True
    same_number = True
    colours = 0  # bit mask of the real tiles' colours
    numbers = 0  # bit mask of their numbers
    repeated_colour = False
    repeated_number = False
    low = NNUM
    high = -1
    real = 0
    for i in range(lo, hi):
        t = tiles[i]
        if t == JOKER_INDEX:
            continue
        real += 1
        c = t // NNUM
        v = t % NNUM
        if colour >= 0 and c != colour:
            same_colour = False
        if number >= 0 and v != number:
            same_number = False
        colour = c
        number = v
        if (colours >> c) & 1:
            repeated_colour = True
        if (numbers >> v) & 1:
            repeated_number = True
        colours |= 1 << c
        numbers |= 1 << v
        low = min(low, v)
        high = max(high, v)
    if real == 0:
        return False
    if same_number and length <= 4 and not repeated_colour:
        return True
    return same_colour and not repeated_number and length <= NNUM and high - low + 1 <= length


@njit(cache=True)
def _count_into(indices, counts):
    """Add tile ``indices`` into ``counts[colour, number]``; return how many were jokers."""
    jokers = np.int64(0)
    for i in range(indices.shape[0]):
        t = indices[i]
        if t == JOKER_INDEX:
            jokers += 1
        else:
            counts[t // NNUM, t % NNUM] += 1
    return jokers


@njit(cache=True)
def _solve_position(tiles, ends, rack, weight, joker_weight, meld, group_ok, part_count,
                    part_masks, codes, played, beam):
    """Check and solve one position; returns ``(status, sets, tiles played, value played)``.

    ``tiles``: the table's tile indices set after set, set ``i`` ending at ``ends[i]``;
    ``rack``: the rack's indices; ``weight[4, 13]``/``joker_weight``: gains (see
    :mod:`solvers.rummikub._dp`); ``meld`` 1 in initial-meld mode (the table stays as it is
    and the new sets must be worth 30).  Outputs: ``codes[:sets]`` the whole table
    afterwards (initial meld: the new sets only), ``played[:tiles played]`` the rack tiles
    played, in index order.  Status 1 solved, 0 no legal arrangement, 2 a table set is
    not valid, 3 a tile occurs more than twice (or more than two jokers).
    """
    counts = np.zeros(JOKER_INDEX + 1, np.int64)
    start = 0
    for s in range(ends.shape[0]):
        if not _set_ok(tiles, start, ends[s]):
            return BAD_SET, 0, 0, 0
        start = ends[s]
    for i in range(tiles.shape[0]):
        counts[tiles[i]] += 1
    for i in range(rack.shape[0]):
        counts[rack[i]] += 1
    for i in range(JOKER_INDEX + 1):
        if counts[i] > COPIES:
            return TOO_MANY, 0, 0, 0
    must = np.zeros((NCOL, NNUM), np.int64)
    opt = np.zeros((NCOL, NNUM), np.int64)
    must_j = np.int64(0)
    if meld == 0:
        must_j = _count_into(tiles, must)
    opt_j = _count_into(rack, opt)
    choice = np.zeros((NCOL, NNUM, 3), np.int64)
    group_jokers = np.zeros(NNUM, np.int64)
    stats = np.zeros(2, np.int64)
    status, _score = solve_exact(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                  group_ok, choice, group_jokers, stats, beam)
    if status != 1:
        return NO_ARRANGEMENT, 0, 0, 0
    nsets = meld_codes(choice, group_jokers, part_count, part_masks, codes)
    if nsets < 0:
        raise AssertionError("the DP returned a choice that is not an arrangement")
    # rack tiles played: what the sets hold beyond the table's tiles
    n = 0
    value = 0
    jokers = 0
    for c in range(NCOL):
        for v in range(NNUM):
            extra = choice[c, v, 0] + choice[c, v, 1] - must[c, v]
            for _ in range(extra):
                played[n] = c * NNUM + v
                n += 1
                value += v + 1
            jokers += choice[c, v, 2]
    for v in range(NNUM):
        jokers += group_jokers[v]
    for _ in range(jokers - must_j):
        played[n] = JOKER_INDEX
        n += 1
    return SOLVED, nsets, n, value


def new_outputs() -> tuple[np.ndarray, np.ndarray]:
    """Output buffers for :func:`solve_position`: ``(codes, played)``."""
    return np.empty(MAX_SETS, np.int64), np.empty(MAX_PLAYED, np.int64)


def solve_position(tiles, ends, rack, weight, joker_weight, meld, codes, played, beam=BEAM):
    """Check and solve one position in one compiled call (the engine's ``best_move``).

    Tile index: ``13 * colour + number - 1`` for colours 0..3 (K R O B), 52 for the joker.
    ``tiles``: the table's tile indices set after set, set ``i`` ending at ``ends[i]``;
    ``rack``: the rack's indices; ``weight[4, 13]``/``joker_weight``: gains as for
    :func:`solve_arrays`; ``meld`` 1 in initial-meld mode (the table stays as it is and
    the new sets must be worth 30).  Fills ``codes`` with the packed sets of the table
    afterwards (initial meld: the new sets only; see :func:`meld_codes`) and ``played`` with
    the rack tiles played, in index order.  Returns ``(status, sets, tiles played, value
    played)``; status 1 solved, 0 no legal arrangement, 2 a table set is not a run or a
    group, 3 a tile occurs more than twice (or more than two jokers).  The checks only say
    *that* the input is wrong: the engine reads a rejected position again with its Python
    checks, which name the defect.

    >>> table = np.array([13 + 5, 13 + 6, 13 + 7])   # R6 R7 R8
    >>> ends = np.array([3])
    >>> rack = np.array([13 + 4, 13 + 8, 39 + 1])    # R5 R9 B2
    >>> weight, jw = np.ones((4, 13), np.int64), 1    # one point per rack tile placed
    >>> codes, played = new_outputs()
    >>> status, nsets, nplayed, value = solve_position(table, ends, rack, weight, jw, 0,
    ...                                                codes, played)
    >>> status, nsets, played[:nplayed].tolist(), value
    (1, 1, [17, 21], 14)
    >>> hex(codes[0])                                  # run of colour 1 from 5, length 5
    '0x105050000'
    """
    return _solve_position(tiles, ends, rack, weight, joker_weight, meld, GROUP_OK,
                           PART_COUNT, PART_MASKS, codes, played, beam)


def warmup() -> None:
    """Compile (or load from the cache) every kernel, so timings exclude compilation."""
    must = np.zeros((2, NCOL, NNUM), np.int64)
    opt = np.zeros((2, NCOL, NNUM), np.int64)
    opt[:, 0, :3] = 1
    z = np.zeros(2, np.int64)
    w = np.ones((2, NCOL, NNUM), np.int64)
    solve_arrays(must[:1], opt[:1], z[:1], z[:1], w[:1], z[:1] + 1, z[:1])
    status, _best, choice, gj, _stats = solve_arrays(must, opt, z, z, w, z + 1, z)
    meld_codes_batch(status, choice, gj, PART_COUNT, PART_MASKS)
    codes, played = new_outputs()
    solve_position(np.array([0, 1, 2]), np.array([3]), np.array([3, 52]), w[0], 1, 0, codes,
                   played)
