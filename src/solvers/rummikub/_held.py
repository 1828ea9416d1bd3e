"""One held-out pass of the DP: least disturbance's question to the DP.

:func:`held_arrays` runs :func:`solvers.rummikub._dp.solve_pass` with the held-out layers
of :mod:`solvers.rummikub._hold` and a score to reach (the objective's optimum, scaled,
plus a number of sets kept), so everything that cannot reach it is pruned: an exact pass
(``width`` 0) finds the best arrangement reaching it or proves there is none, a narrow one
looks for one quickly.  :mod:`engines.rummikub.least` chooses the passes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._continue import continue_pass
from solvers.rummikub._dp import solve_pass
from solvers.rummikub._family import variants_for
from solvers.rummikub._groups import GROUP_OK
from solvers.rummikub._hold import BUDGET_AT, BUDGET_UNIT, WIDTH_BITS, twin_classes
from solvers.rummikub._layout import CONTINUE_AT, HOLD_BITS, NCOL, NNUM
from solvers.rummikub._one_pass import _playable, playable_width
from solvers.rummikub._skips import no_skips


# (nogil: passes of a batch's positions run side by side; inlined into the least
# disturbance kernels: solvers.rummikub._one_pass.solve_pass says why)
@njit(cache=True, nogil=True, inline="always")
def _held_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, floor, width,
               hold, choice_out, gj_out, stats, variants):
    # (variants: solvers.rummikub._family; meld then continue: the final arrangement holds
    # sets out)
    if variants is not None and (meld >> CONTINUE_AT) & 1:
        return continue_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                             choice_out, gj_out, stats, floor, width,
                             _playable(np.zeros_like(must), opt, opt_j, playable_width(meld)),
                             hold)
    opt = _playable(must, opt, must_j + opt_j, playable_width(meld))
    return solve_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                      choice_out, gj_out, stats, floor, width, hold, 0, variants)


def held_arrays(must, opt, must_j, opt_j, weight, joker_weight, meld, floor, hold,
                group_ok=None, width=0, scale=0, budget=0):
    """One pass of the DP holding out table sets (least disturbance) that prunes below
    ``floor`` (raw: the table jokers' gain included).

    ``must``/``opt``/``weight``: int64[4, 13]; ``must_j, opt_j, joker_weight, meld, floor``:
    integers (``meld``: the rules mode, official joker places of the whole table: melded,
    or meld then continue, where the final arrangement holds sets out);
    ``hold``: the tables of :mod:`solvers.rummikub._hold` less its output; ``width``: 0 for
    the exact pass, else the narrow pass's states per layer (``keep_best``); ``scale``: the
    factor of the objective's weights (the sets held out are the score modulo it; 0: rank
    by the score itself); ``budget``: an exact pass stops once its layers hold more states
    (rounded up to 1,024; 0: no limit), truncated without an answer.  Returns
    ``(status, score, choice[4, 13, 4], group_jokers[13], held_out[13], stats[2],
    truncated)``: status 1 when the floor is reached, ``held_out[v]`` the subset of the sets
    starting at number v+1 held out.
    """
    tables = tuple(np.ascontiguousarray(a, np.int64) for a in hold)
    choice = np.zeros((NCOL, NNUM, 4), np.int64)
    group_jokers = np.zeros(NNUM, np.int64)
    held_out = np.zeros(NNUM, np.int64)
    stats = np.zeros(2, np.int64)
    beam = width if width == 0 else int(np.sign(width)) * (abs(width) | scale << WIDTH_BITS)
    if width == 0 and budget > 0:
        beam = -(-budget // BUDGET_UNIT) << BUDGET_AT
    status, score, truncated = _held_pass(
        np.ascontiguousarray(must, np.int64), np.ascontiguousarray(opt, np.int64),
        np.int64(must_j), np.int64(opt_j), np.ascontiguousarray(weight, np.int64),
        np.int64(joker_weight), np.int64(meld), GROUP_OK if group_ok is None else group_ok,
        np.int64(floor), np.int64(beam),
        (*tables[:6], held_out, _no_caps(), twin_classes(*tables[:3]), no_skips()), choice,
        group_jokers, stats, variants_for(np.int64(meld), np.int64(must_j + opt_j)))
    if status == 1 and score + must_j * joker_weight < floor:
        status = 0
    return status, score, choice, group_jokers, held_out, stats, truncated


def _no_caps() -> np.ndarray:
    """The held-out layers' caps when there are none (:func:`solvers.rummikub._hold.
    _most_held`)."""
    return np.zeros((NNUM + 1, 2), np.int64)


def warm_held() -> None:
    """Compile (or load from the cache) the held-out passes: a table run R1-R3, rack R4."""
    must = np.zeros((NCOL, NNUM), np.int64)
    must[1, :3] = 1
    opt = np.zeros((NCOL, NNUM), np.int64)
    opt[1, 3] = 1
    colour_bits = np.zeros((NNUM, NCOL), np.int64)
    colour_bits[:3, 1] = 1
    going_on = np.zeros(NNUM, np.int64)
    going_on[:2] = 1
    starting = np.full((NNUM, HOLD_BITS), -1, np.int64)
    starting[0, 0] = 0
    hold = (colour_bits, going_on, np.zeros((NNUM, HOLD_BITS + 1), np.int64), starting,
            np.zeros((NNUM, HOLD_BITS), np.int64), np.zeros(NNUM, np.int64))
    for width in (0, 4, -4):
        held_arrays(must, opt, 0, 0, np.ones((NCOL, NNUM), np.int64), 1, 0, 0, hold,
                    width=width)
