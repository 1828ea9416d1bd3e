"""The wide DP's exact optimum, found fastest by passes that prune with a score to reach
(as :mod:`solvers.rummikub._exact` does for the default kernels).

Pruning only drops states that cannot reach the score aimed at, so a pass finds every
arrangement that reaches it, and the optimum whenever the optimum does.  Once melded, the
first aim is everything the rack could add (every rack tile that some set could hold,
every joker): on large tables the optimum usually plays the whole rack, the surviving
states have then played every rack tile so far, and the work is finding *an*
arrangement: a narrow pass that keeps the most flexible states
(:func:`~solvers.rummikub.wide._pass.keep_flexible`) nearly always finds one.  An answer
reaching that bound is optimal; under least disturbance (each set kept worth less than
any tile) the exact pass then looks for a better answer only (one more set kept at least:
the pass that fails proves the narrow answer optimal, and keeps fewer states than one at
the answer's own score), keeping only states that still play the whole rack; wider
narrow passes (2,048 and 16,384 states a layer) first raise that answer while they find a
better one (the exact pass above the optimum keeps a few times fewer states than one below
it: 2.95 M against 11.7 M on a dense 8 x 13 table, two sets short).  If the
narrow pass finds none, the exact pass aims at the bound; if nothing reaches it, the plain
pass decides.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._pass import NEG, solve_pass

AIMS = 6  # the whole rack, then short of one to five tiles; then the plain pass


@njit(cache=True)
def playable(must, opt, jokers, min_len):
    """``opt`` without the rack tiles that no set can hold: a run through ``min_len``
    consecutive numbers or a group of ``min_len`` colours, of tiles present or ``jokers``
    standing in for the missing ones (removed until nothing changes; no arrangement uses a
    removed tile, so the optimum is the same)."""
    colours, numbers = opt.shape
    left = opt.copy()
    changed = jokers < min_len - 1
    while changed:
        changed = False
        present = (must + left > 0).astype(np.int64)
        at_number = present.sum(axis=0)
        for c in range(colours):
            for v in range(numbers):
                if left[c, v] == 0 or must[c, v] > 0 or at_number[v] + jokers >= min_len:
                    continue
                fits = False
                for first in range(max(0, v - min_len + 1), min(v, numbers - min_len) + 1):
                    fits = fits or min_len - present[c, first:first + min_len].sum() <= jokers
                if not fits:  # (tiles gone this sweep count until the next: same end)
                    left[c, v] = 0
                    changed = True
    return left


@njit(cache=True)
def _items(opt, weight, opt_j, joker_weight):
    """The gains of the rack's tiles and jokers, smallest first: the optimum short of the
    whole rack by ``k`` of them is at most the bound less the ``k`` smallest."""
    gains = np.empty(opt.sum() + opt_j, np.int64)
    at = 0
    for c in range(opt.shape[0]):
        for v in range(opt.shape[1]):
            for _ in range(opt[c, v]):
                gains[at] = max(0, weight[c, v])
                at += 1
    gains[at:] = max(0, joker_weight)
    return np.sort(gains)


@njit(cache=True)
def solve_wide(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
               hold, sizes, max_states, choice_out, group_jokers, held_out, stats, width):
    """The exact optimum of one position (the arguments and results of
    :func:`~solvers.rummikub.wide._pass.solve_pass`, without its ``floor``); ``width``: the
    narrow pass's states a layer (0: the plain pass alone).  Returns ``(status, score)``.

    Aims, in turn, at the whole playable rack, then at it less its smallest gains, one more
    each time (:data:`AIMS` in all): narrow passes of ``width`` and ``8 * width`` states
    first; one that drops no state is exact, so an aim that it misses is out of reach."""
    if width <= 0 or target >= 0:
        return solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                          hold_gain, hold, sizes, NEG, 0, max_states, choice_out, group_jokers,
                          held_out, stats)[:2]
    opt = playable(must, opt, must_j + opt_j, sizes[0])
    gains = _items(opt, weight, opt_j, joker_weight)
    floor = must_j * max(0, joker_weight) + gains.sum()
    held = hold_gain > 0 and hold[0][-1] > 0  # least disturbance: sets to keep
    for aim in range(min(AIMS, gains.shape[0] + 1)):
        if aim > 0:
            floor -= gains[aim - 1]
        for narrow in (width, 8 * width):
            st, sc, truncated = solve_pass(must, opt, must_j, opt_j, weight, joker_weight,
                                           target, joker_meld, hold_gain, hold, sizes, floor,
                                           narrow, max_states, choice_out, group_jokers,
                                           held_out, stats)
            if st < 0 or (st == 1 and sc >= floor) or not truncated:
                break
        if st < 0 or (st == 1 and sc >= floor and (not truncated or (aim == 0 and not held))):
            return st, sc  # (exact, or the whole rack without sets to keep: the most)
        found = NEG
        if st == 1 and sc >= floor:
            found, floor = sc, sc + 1  # (an answer: the exact pass looks for a better one)
            wider = 64 * width  # (sets to keep: wider narrow passes raise the answer first)
            while held and truncated and wider <= 512 * width:
                st, sc, truncated = solve_pass(must, opt, must_j, opt_j, weight, joker_weight,
                                               target, joker_meld, hold_gain, hold, sizes,
                                               floor, wider, max_states, choice_out,
                                               group_jokers, held_out, stats)
                if st < 0:
                    return st, sc
                if st == 1 and sc >= floor:
                    found, floor = sc, sc + 1
                    wider *= 8
                elif truncated:
                    break
            if not truncated:  # (the last pass was exact: nothing above its answer)
                return 1, found
        if truncated:
            st, sc, _t = solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target,
                                    joker_meld, hold_gain, hold, sizes, floor, 0, max_states,
                                    choice_out, group_jokers, held_out, stats)
            if st < 0 or (st == 1 and sc >= floor):
                return st, sc
            if found > NEG:  # (none better: the narrow pass's answer, still in the arrays)
                return 1, found
    return solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                      hold_gain, hold, sizes, NEG, 0, max_states, choice_out, group_jokers,
                      held_out, stats)[:2]
