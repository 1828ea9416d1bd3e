"""One pass of the DP under a score to reach, and the share of a budget passes draw on.

:func:`solve_pass` and :func:`resumable_pass` run :func:`solvers.rummikub._dp.resumable_pass`
(meld then continue: :func:`solvers.rummikub._continue.continue_pass`);
:func:`_playable` drops the rack tiles no set can hold; :func:`_unbounded` and
:func:`_spent` keep :func:`solvers.rummikub._exact._passes`' ``share``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._continue import continue_pass
from solvers.rummikub._dp import resumable_pass as _plain_pass
from solvers.rummikub._layout import CONTINUE_AT, NCOL, NEG, NNUM, NO_CAP, min_set_length
from solvers.rummikub._resume import no_kept


# The thin kernels between the entry kernels and the DP's passes are inlined into their
# callers (Numba IR, ``inline="always"``): each kernel compiled apart links every callee's
# code into its own and optimises and emits all of it again, 15-27 s of CPU each for
# these on an empty cache (benches/README.md, "Cold compile"), for a branch or two of work.
@njit(cache=True, inline="always")
def solve_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
               gj_out, stats, floor, beam, budget=0, variants=True):
    """One pass of the DP: :func:`solvers.rummikub._dp.solve_pass` (``budget``: its states
    budget), or under meld then continue :func:`solvers.rummikub._continue.continue_pass`
    (same arguments, results; no budget).  ``variants``: :mod:`solvers.rummikub._family`."""
    return resumable_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                          choice_out, gj_out, stats, floor, beam, budget, no_kept(),
                          variants)[:3]


@njit(cache=True, inline="always")
def resumable_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                   gj_out, stats, floor, beam, budget, kept, variants):
    """:func:`solve_pass` going on from the pass in ``kept``
    (:func:`solvers.rummikub._dp.resumable_pass`; meld then continue keeps none):
    ``(status, score, truncated, kept)``."""
    if variants is not None and (meld >> CONTINUE_AT) & 1:
        st, sc, truncated = continue_pass(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, floor, beam, _playable(np.zeros_like(must), opt, opt_j,
                                          playable_width(meld)))
        return st, sc, truncated, kept
    return _plain_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                       choice_out, gj_out, stats, floor, beam, None, budget, kept, variants)


@njit(cache=True, inline="always")
def playable_width(meld):
    """The shortest set :func:`_playable` checks for under rules ``meld`` (at most 3)."""
    return min(3, min_set_length(meld))


@njit(cache=True)
def _playable(must, opt, jokers, width=3):
    """``opt`` without the rack tiles that no set can hold.

    A tile can only be placed in a run through ``width`` consecutive numbers or a group of
    ``width`` colours (3; 2 for sets of two tiles; sets of more still hold these), of tiles
    present or ``jokers`` standing in for the missing ones; rack tiles with neither are
    removed, until nothing changes.  No arrangement uses a removed tile, so the optimum is
    the same (with ``width - 1`` jokers every tile can be placed).
    """
    left = opt.copy()
    changed = jokers < width - 1
    while changed:
        changed = False
        for c in range(NCOL):
            for v in range(NNUM):
                if left[c, v] == 0 or must[c, v] > 0:
                    continue
                ok = False
                for s in range(max(0, v - width + 1), min(v, NNUM - width) + 1):
                    missing = 0
                    for x in range(s, s + width):
                        if must[c, x] + left[c, x] == 0:
                            missing += 1
                    if missing <= jokers:
                        ok = True
                if not ok:
                    colours = jokers
                    for cc in range(NCOL):
                        if must[cc, v] + left[cc, v] > 0:
                            colours += 1
                    ok = colours >= width
                if not ok:
                    left[c, v] = 0
                    changed = True
    return left


# :func:`_passes`' ``share[4]``: a raw score no arrangement reaches (a pass at it proved so),
# NO_CAP where none is known; the reversed position is the same problem, so
# :func:`solve_either`'s ways share it, and a way skips its passes at a target proved out of
# reach by the other.
OUT_OF_REACH = 4


@njit(cache=True, inline="always")
def _unbounded():
    """:func:`_passes`' ``share`` for passes without a budget, knowing no score."""
    return np.array([0, NEG, 0, 0, NO_CAP], np.int64)


@njit(cache=True, inline="always")
def _spent(share, status, score, stats):
    """Whether :func:`_passes` gives up after a pass (status -1: it passed the budget
    ``share[0]``); else the budget left less the pass's states (at least 1: 0 is none),
    and ``score`` (raw), where the pass found an arrangement, kept in ``share[1]``."""
    if status < 0:
        return True
    if share[0] > 0:
        share[0] = max(1, share[0] - stats[0])
    if status == 1:
        share[1] = max(share[1], score)
    return False
