"""The frame of one pass of the DP (:mod:`solvers.rummikub._dp`) around its sub-steps.

Before the sub-steps: the colours' processing order and the rack bound per sub-step
(:func:`colour_order`).  Between them: the pruning of a finished layer (:func:`prune_layer`).
After them: the best final state (:func:`best_final`) and the replay of its choices
(:func:`replay`), in the one choice encoding that every pass uses (:func:`step_choice`;
meld then continue, :mod:`solvers.rummikub._continue`, adds its meld's choice above
:data:`MELD_CHOICES`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._hold import keep_best
from solvers.rummikub._layers import drop_dominated, keep_flexible
from solvers.rummikub._layout import (
    JOKERS_AT,
    JOKERS_HIGH_AT,
    MELD_AT,
    MELD_MASK,
    NCOL,
    NEG,
    NNUM,
    RISKY_AT,
    SHORT_AT,
    SHORT_HIGH_AT,
    meld_target,
)
from solvers.rummikub._risky import FIELD_MASK

# a sub-step's own choice (:func:`step_choice`) is below this (four copies and three jokers:
# up to 399); the joker combination of two real tiles per set is a multiple (up to 33 * 512
# with three jokers, solvers.rummikub._real2.COMBO3_ORDER: int16); meld then continue
# (:mod:`solvers.rummikub._continue`) adds its meld's own choice times MELD_CHOICES, which
# :func:`replay` leaves aside
CHOICE_BASE = 512
MELD_CHOICES = CHOICE_BASE * 34


@njit(cache=True, inline="always")
def step_choice(run_tiles, group_tiles, run_jokers, cb, jb):
    """A colour's choice at a number, as :func:`replay` reads it (``cb``, ``jb``: the radix
    of its real tiles' digits and of its joker digits); the last colour's sub-step then
    appends the group jokers, ``* jb + group_jokers``."""
    return (run_tiles * cb + group_tiles) * jb + run_jokers


@njit(cache=True, error_model="numpy")
def colour_order(must, opt, weight):
    """``order[v]``: the colours of number v+1 in processing order; ``rem[v, step]``: bound.

    Colours with fewer choices go first: intermediate layers stay small and the widest
    branching goes straight into the (merged) boundary layer.  ``rem[v, step]`` is the
    most that the rack tiles after sub-step (v, step) can still add; with the jokers still
    unplaced it bounds every completion of a state.
    """
    order = np.zeros((NNUM, NCOL), np.int64)
    for v in range(NNUM):
        fan = np.empty(NCOL, np.int64)
        for c in range(NCOL):
            lo = must[c, v]
            hi = lo + opt[c, v]
            fan[c] = ((hi + 1) * (hi + 2) - lo * (lo + 1)) * 4 + c
        order[v] = np.argsort(fan)
    rem = np.zeros((NNUM, NCOL), np.int64)
    acc = np.int64(0)
    for v in range(NNUM - 1, -1, -1):
        for step in range(NCOL - 1, -1, -1):
            rem[v, step] = acc
            c = order[v, step]
            acc += opt[c, v] * max(0, weight[c, v])
    return order, rem


@njit(cache=True, error_model="numpy")
def prune_layer(table, bits, start, end, keys, score, last, beam, held, keys2, copies3):
    """Drop states of a finished layer; returns 1 if a beam cut it (the pass is heuristic).
    With least disturbance (``held``), :func:`~solvers.rummikub._hold.keep_best` ranks.
    ``keys2``: None, or the states' second words, ``copies3``: three or four copies (their
    obligations: :func:`~solvers.rummikub._layers.obligations_pair`)."""
    truncated = 0
    if last and end - start > 1:
        drop_dominated(table, bits, start, end, keys, score)
    if held:
        return keep_best(keys, score, start, end, beam, keys2, copies3)
    if beam < 0 and end - start > -beam:
        truncated = 1
        keep_flexible(keys, start, end, -beam, keys2, copies3)
    if beam > 0 and end - start > beam:
        # heuristic pass: keep the best `beam` states (ties may keep a few more)
        truncated = 1
        thr = np.sort(score[start:end])[end - start - beam]
        for i in range(start, end):
            if score[i] < thr:
                keys[i] = -1
    return truncated


@njit(cache=True, error_model="numpy")
def best_final(keys, score, start, end, must_j, meld, keys2):
    """The best state of the terminal layer: table jokers placed, meld reached, no run
    short of real tiles left open (-1: none); ``keys2``: None, or the second key words
    (four jokers: the third bit of the jokers placed, and no run of jokers alone listed)."""
    best = -1
    best_sc = NEG
    for i in range(start, end):
        key = keys[i]
        if key < 0:
            continue
        placed = (key >> JOKERS_AT) & 3
        if keys2 is not None:
            if (keys2[i] >> RISKY_AT) & FIELD_MASK or keys2[i] >> SHORT_HIGH_AT:
                continue  # (a run of jokers alone, or short of real tiles, listed)
            placed |= ((keys2[i] >> JOKERS_HIGH_AT) & 1) << 2
        if placed < must_j:
            continue
        if meld & 3 and (key >> MELD_AT) & MELD_MASK < meld_target(meld):
            continue
        if key >> SHORT_AT:
            continue
        if score[i] > best_sc:
            best_sc = score[i]
            best = i
    return best


@njit(cache=True, error_model="numpy")
def replay(best, layers, order, parent, choice, choice_out, gj_out, held_out, jb=3, cb=3):
    """Follow the parents from state ``best`` and write every sub-step's choice
    (:func:`step_choice`; ``jb``, ``cb``: the radix of its joker digits and of its real
    tiles' digits, 3, or 4 with three jokers or copies), for this module's passes and for
    meld then continue's (:mod:`solvers.rummikub._continue`, whose choices hold their
    meld's own above :data:`MELD_CHOICES`)."""
    idx = best
    per = NCOL + (held_out.shape[0] > 0)
    for lay in range(layers, 0, -1):
        v, step = (lay - 1) // per, (lay - 1) % per - (per - NCOL)
        if step < 0:
            held_out[v], idx = choice[idx], parent[idx]
            continue
        c = order[v, step]
        ch = np.int64(choice[idx]) % MELD_CHOICES
        choice_out[c, v, 3] = ch // CHOICE_BASE
        ch %= CHOICE_BASE
        if step == NCOL - 1:
            gj_out[v] = ch % jb
            ch //= jb
        choice_out[c, v, 2] = ch % jb
        ch //= jb
        choice_out[c, v, 0] = ch // cb
        choice_out[c, v, 1] = ch % cb
        idx = parent[idx]
