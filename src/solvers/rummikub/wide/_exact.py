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
any tile) it is a floor for the exact pass, which then only keeps states that still play
the whole rack.  If the narrow pass finds none, the exact pass aims at the bound; if
nothing reaches it, the plain pass decides.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._pass import NEG, solve_pass


@njit(cache=True)
def playable(must, opt, jokers):
    """``opt`` without the rack tiles that no set can hold: a run through three
    consecutive numbers or a group of three colours, of tiles present or ``jokers`` standing
    in for the missing ones (removed until nothing changes; no arrangement uses a removed
    tile, so the optimum is the same)."""
    colours, numbers = opt.shape
    left = opt.copy()
    changed = jokers < 2
    while changed:
        changed = False
        present = (must + left > 0).astype(np.int64)
        at_number = present.sum(axis=0)
        for c in range(colours):
            for v in range(numbers):
                if left[c, v] == 0 or must[c, v] > 0 or at_number[v] + jokers >= 3:
                    continue
                fits = False
                for first in range(max(0, v - 2), min(v, numbers - 3) + 1):
                    fits = fits or 3 - present[c, first:first + 3].sum() <= jokers
                if not fits:  # (tiles gone this sweep count until the next: same end)
                    left[c, v] = 0
                    changed = True
    return left


@njit(cache=True)
def solve_wide(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
               hold, max_states, choice_out, group_jokers, held_out, stats, width):
    """The exact optimum of one position (the arguments and results of
    :func:`~solvers.rummikub.wide._pass.solve_pass`, without its ``floor``); ``width``: the
    narrow pass's states a layer (0: the plain pass alone).  Returns ``(status, score)``."""
    if width > 0 and target < 0:
        opt = playable(must, opt, must_j + opt_j)
        bound = (must_j + opt_j) * max(0, joker_weight)
        for c in range(opt.shape[0]):
            for v in range(opt.shape[1]):
                bound += opt[c, v] * max(0, weight[c, v])
        st, sc, truncated = solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target,
                                       joker_meld, hold_gain, hold, bound, width, max_states,
                                       choice_out, group_jokers, held_out, stats)
        held = hold_gain > 0 and hold[0][-1] > 0  # least disturbance: sets to keep
        floor = bound
        if st == 1 and sc >= bound:
            if not held or truncated == 0:
                return st, sc
            floor = sc  # (the most sets kept is still to find)
        if truncated:
            st, sc, _t = solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target,
                                    joker_meld, hold_gain, hold, floor, 0, max_states,
                                    choice_out, group_jokers, held_out, stats)
            if st < 0 or (st == 1 and sc >= floor):
                return st, sc
    st, sc, _t = solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                            hold_gain, hold, NEG, 0, max_states, choice_out, group_jokers,
                            held_out, stats)
    return st, sc
