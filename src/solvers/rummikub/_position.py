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
from solvers.rummikub._family import variants_for
from solvers.rummikub._groups import GROUP_OK, PART_COUNT, PART_MASKS
from solvers.rummikub._held import warm_held
from solvers.rummikub._layout import BEAM, CONTINUE_AT, NCOL, NNUM, min_set_length, rules_mode
from solvers.rummikub._melds import MAX_SETS, meld_codes, meld_codes_batch

JOKER_INDEX = 52
COPIES = 2
MAX_PLAYED = 106

SOLVED, NO_ARRANGEMENT, TOO_MANY = 1, 0, 3


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
def _solve_position(tiles, rack, weight, joker_weight, meld, group_ok, part_count,
                    part_masks, codes, played, beam, variants):
    """Check and solve one position; returns ``(status, sets, tiles played, value played)``.

    ``tiles``: the table's tile indices (its sets already checked by the engine);
    ``rack``: the rack's indices; ``weight[4, 13]``/``joker_weight``: gains (see
    :mod:`solvers.rummikub._dp`); ``meld`` 0 once melded, else the initial-meld mode (the
    table stays as it is and the new sets must reach the threshold).  Outputs:
    ``codes[:sets]`` the whole table afterwards (initial meld: the new sets only),
    ``played[:tiles played]`` the rack tiles played, in index order.  Status 1 solved, 0 no
    legal arrangement, 3 a tile occurs more than twice (or more than two jokers).
    ``variants``: :mod:`solvers.rummikub._family`.
    """
    counts = np.zeros(JOKER_INDEX + 1, np.int64)
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
    if meld & 3 == 0 or (meld >> CONTINUE_AT) & 1:
        must_j = _count_into(tiles, must)
    opt_j = _count_into(rack, opt)
    choice = np.zeros((NCOL, NNUM, 4), np.int64)
    group_jokers = np.zeros(NNUM, np.int64)
    stats = np.zeros(2, np.int64)
    status, _score = solve_exact(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                  group_ok, choice, group_jokers, stats, beam, variants)
    if status != 1:
        return NO_ARRANGEMENT, 0, 0, 0
    nsets = meld_codes(choice, group_jokers, part_count, part_masks, codes,
                       min_set_length(meld))
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


def solve_position(tiles, rack, weight, joker_weight, meld, codes, played, beam=BEAM,
                   tables=None):
    """Count, check and solve one position in one compiled call (the engine's ``best_move``).

    Tile index: ``13 * colour + number - 1`` for colours 0..3 (K R O B), 52 for the joker.
    ``tiles``: the table's tile indices, its sets already checked by the engine (set
    legality is written once, in :func:`engines.rummikub.sets.validate_set`); ``rack``: the
    rack's indices; ``weight[4, 13]``/``joker_weight``: gains as for
    :func:`solve_arrays`; ``meld`` 0 once melded, else the initial-meld mode (the table
    stays as it is and the new sets must reach the threshold; :func:`solvers.rummikub.
    meld_mode`).  Fills ``codes`` with the packed sets of the table
    afterwards (initial meld: the new sets only; see :func:`meld_codes`) and ``played`` with
    the rack tiles played, in index order.  Returns ``(status, sets, tiles played, value
    played)``; status 1 solved, 0 no legal arrangement, 3 a tile occurs more than twice (or
    more than two jokers).  The check only says *that* the input is wrong: the engine reads a
    rejected position again with its Python checks, which name the defect.  ``tables``: the
    group tables of the rules' tile set (:func:`solvers.rummikub._groups.group_tables`;
    default: the standard set's).

    >>> table = np.array([13 + 5, 13 + 6, 13 + 7])   # R6 R7 R8
    >>> rack = np.array([13 + 4, 13 + 8, 39 + 1])    # R5 R9 B2
    >>> weight, jw = np.ones((4, 13), np.int64), 1    # one point per rack tile placed
    >>> codes, played = new_outputs()
    >>> status, nsets, nplayed, value = solve_position(table, rack, weight, jw, 0, codes,
    ...                                                played)
    >>> status, nsets, played[:nplayed].tolist(), value
    (1, 1, [17, 21], 14)
    >>> hex(codes[0])                                  # run of colour 1 from 5, length 5
    '0x105050000'
    """
    group_ok, part_count, part_masks = (GROUP_OK, PART_COUNT, PART_MASKS) if tables is None \
        else tables
    # (every joker given, counted or not: an upper bound is enough, _family says why; more
    # than COPIES the kernel rejects before any pass)
    jokers = min(COPIES, np.count_nonzero(tiles == JOKER_INDEX)
                 + np.count_nonzero(rack == JOKER_INDEX))
    return _solve_position(tiles, rack, weight, joker_weight, meld, group_ok,
                           part_count, part_masks, codes, played, beam,
                           variants_for(np.int64(meld), np.int64(jokers)))


def warmup(engine_only: bool = False, house_rules: bool = True) -> None:
    """Compile (or load from the cache) every kernel, so timings exclude compilation.

    ``engine_only``: only those the engines call (:func:`engines.rummikub.warmup`), not
    the held-out pass of :func:`~solvers.rummikub._held.held_arrays` (tests and probes):
    on an empty cache it costs a minute of CPU (benches/README, "Cold compile").
    ``house_rules``: the kernels' second compiled form too, that of the house rules' wider
    passes (:mod:`solvers.rummikub._family`)."""
    must = np.zeros((2, NCOL, NNUM), np.int64)
    opt = np.zeros((2, NCOL, NNUM), np.int64)
    opt[:, 0, :3] = 1
    z = np.zeros(2, np.int64)
    w = np.ones((2, NCOL, NNUM), np.int64)
    solve_arrays(must[:1], opt[:1], z[:1], z[:1], w[:1], z[:1] + 1, z[:1])
    status, _best, choice, gj, _stats = solve_arrays(must, opt, z, z, w, z + 1, z)
    # (the shortest set given, an int64 as the engine passes it: omitted, Numba would
    # compile meld_codes' helpers for a literal 3 as well)
    meld_codes_batch(status, choice, gj, PART_COUNT, PART_MASKS, 3)
    codes, played = new_outputs()
    solve_position(np.array([0, 1, 2]), np.array([3, 52]), w[0], 1, 0, codes, played)
    if not engine_only:
        warm_held()
    if house_rules:
        solve_arrays(must[:1], opt[:1], z[:1], z[:1], w[:1], z[:1] + 1,
                     z[:1] + rules_mode(False, meld_continue=True))
