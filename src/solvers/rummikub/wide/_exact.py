"""The wide DP's exact optimum, found fastest by passes that prune with a score to reach
(as :mod:`solvers.rummikub._exact` does for the default kernels).

Pruning only drops states that cannot reach the score aimed at, so a pass finds every
arrangement that reaches it, and the optimum whenever the optimum does.  Once melded, the
first aim is everything the rack could add (every rack tile that some set could hold,
every joker): on large tables the optimum usually plays the whole rack, the surviving
states have then played every rack tile so far, and the work is finding *an*
arrangement: a narrow pass that keeps the most flexible states
(:func:`~solvers.rummikub.wide._pass.keep_flexible`) nearly always finds one.  An answer
reaching that bound is optimal.  If the narrow passes find none, the exact pass aims at
it, then at the rack less its smallest gains; if nothing reaches them, the plain pass
decides.

Before an exact pass the kernel asks its caller for the linear relaxation's bounds
(:func:`solve_wide`; the engine computes them: ``engines.rummikub.wide``): on the table
sets kept under least disturbance, per number the most of those starting after it (the
passes' floor counts no more), and whether any move reaches the aim at all (the aims it
proves out of reach get no exact pass).  Under least disturbance (each set kept worth less
than any tile) an answer found without proof is then raised by passes asking for one set
more (:func:`_most_kept`): the pass that fails proves it optimal, and above the optimum,
with the bounds, it keeps few states (187 k against 2.6 M without them on a dense 8 x 13
table).  When the whole rack is missed, the objective comes first, from a pass that holds
no set out (the held-out subsets multiply the states: 0.81 M against 14.8 M + 19.7 M for
the aims' exact passes on a dense 8 x 13 table with four copies), from the floor of the
aim below the first one the relaxation leaves in reach (:func:`_free_aims`), then the sets
kept, per part of the rack that the optimum leaves out (every other tile played).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._pass import NEG, pass_setup, run_pass
from solvers.rummikub.wide._resume import gives_up, keep_result, kept_result, pass_begun

AIMS = 6  # the whole rack, then short of one to five tiles; then the plain pass
# Statuses of :func:`solve_wide` asking for the bounds: an answer keeping sets, unproven; an
# aim that the narrow passes missed; under least disturbance, the objective's optimum short
# of the whole rack, found without holding sets out (the sets kept: per part left out)
ASK, ASK_AIM, ASK_PARTS = 2, 3, 4
# the floor of an aim that the free passes come to (:func:`_free_aims`)
ASK_FREE = 6
# an answer that a narrow pass found (``score``; the arrays hold it): is any better one in
# reach?  The caller's bounds at the next objective above it (``resume`` ASK_ABOVE, ``start``
# that score): out of reach, it is the optimum without the exact pass (:func:`_above`)
ASK_ABOVE = 8
# ``resume`` for the exact pass from ``start`` alone (with the bounds); for the exact pass
# holding no set out, the arrays left as they were (whether any move reaches ``start``)
EXACT, PLAYS = 5, 7
# The states that pass may store (-1 past them: not known; a relaxation's bounds cost about
# as much as 5,000 states on 8 x 13)
PLAYS_STATES = 4096
MOST_NARROW = 64


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


@njit(cache=True, inline="always")
def _pass(passes, bounds, floor, width):
    """One pass (:func:`~solvers.rummikub.wide._pass.solve_pass`) of the position
    ``passes`` (the arguments the passes share, with the tables they share:
    :func:`_passes`) from ``floor``, ``width`` states a layer; a pass that the call, made
    before under a smaller budget, finished is not run again, and the one it stopped goes
    on (:mod:`~solvers.rummikub.wide._resume`)."""
    (must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain, hold,
     sizes, max_states, choice_out, group_jokers, held_out, stats, setup, save) = passes
    ordinal = pass_begun(save) if save.shape[0] > 0 else 0
    kept, st, sc, truncated = kept_result(save, ordinal)
    if kept:  # (it finished before the call gave up: the same result)
        return st, sc, truncated
    st, sc, truncated = run_pass(must, opt, must_j, opt_j, weight, joker_weight, target,
                                 joker_meld, hold_gain, hold, bounds, sizes, floor, width,
                                 max_states, choice_out, group_jokers, held_out, stats, setup,
                                 save)
    if st >= 0 or not gives_up(save, max_states):
        keep_result(save, ordinal, st, sc, truncated)
    return st, sc, truncated


@njit(cache=True)
def _passes(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
            hold, sizes, max_states, choice_out, group_jokers, held_out, stats, codes, save):
    """The arguments that the passes of one position share (:func:`_pass`), with the
    tables built once for them all (:func:`~solvers.rummikub.wide._pass.pass_setup`; each
    pass rebuilt them)."""
    return (must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
            hold, sizes, max_states, choice_out, group_jokers, held_out, stats,
            pass_setup(must, opt, must_j + opt_j, sizes, codes), save)


@njit(cache=True)
def solve_wide(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
               hold, bounds, sizes, max_states, choice_out, group_jokers, held_out, stats,
               codes, save, width, resume, start):
    """The exact optimum of one position (the arguments and results of
    :func:`~solvers.rummikub.wide._pass.solve_pass`, without its ``floor``); ``codes``: the
    colour codes' tables (:func:`~solvers.rummikub.wide._codes.code_setup` of ``sizes[0]``
    and ``sizes[1] + must_j + opt_j``, which the caller keeps from one call to the next);
    ``width``: the narrow pass's states a layer (0: the plain pass alone); ``save``: the
    call's passes kept, to go on from (:mod:`~solvers.rummikub.wide._resume`).  Returns
    ``(status, score)``.

    Aims, in turn, at the whole playable rack, then at it less its smallest gains, one more
    each time (:data:`AIMS` in all): narrow passes of ``width`` and ``8 * width`` states
    first; one that drops no state is exact, so an aim that it misses is out of reach.

    Where the bounds of ``solve_pass`` would help, the call returns what it needs instead
    of searching without them, and the caller calls again with the bounds for the moves
    reaching ``score`` (``bounds[numbers + 1]``: the most sets kept, negative when none
    reaches it), ``resume`` that status and ``start`` that score (0 and ``NEG`` at first;
    ``resume`` -1: the same passes without bounds, asking for none):
    :data:`ASK_AIM`, an aim whose narrow passes found nothing (``score``: its floor; the
    exact pass runs with the bounds, none when they prove the aim out of reach);
    :data:`ASK`, under least disturbance an answer found without proof (``score``: its
    score, the arrays hold it; :func:`_most_kept` looks for more sets kept, at most
    ``bounds[numbers]`` and the bounds' most when that is the whole rack's objective).
    Under least disturbance an aim that the narrow passes miss ends the aims: the passes
    that hold no set out (:func:`_free_pass`, narrow first) find the objective's optimum,
    from the floor of an aim past the first that the relaxation leaves in reach (asked for by
    :data:`ASK_FREE`, the floor as ``score``: :func:`_free_aims`), returned with
    :data:`ASK_PARTS` (the arrays hold its move; the caller searches the sets kept per
    part of the rack left out, :func:`left_out`, calling again at ``ASK`` with that rack,
    or at :data:`EXACT` from that optimum over the whole rack).  :data:`ASK_ABOVE`: a
    narrow pass's answer short of the whole rack (``score``; under least disturbance one
    holding no set out), proven by the bounds at the next objective above it or by the
    exact pass above it (:func:`_above`)."""
    none = np.zeros(0, np.int64)
    if width <= 0 or target >= 0:
        return _pass(_passes(must, opt, must_j, opt_j, weight, joker_weight, target,
                             joker_meld, hold_gain, hold, sizes, max_states, choice_out,
                             group_jokers, held_out, stats, codes, save), none, NEG, 0)[:2]
    opt = playable(must, opt, must_j + opt_j, sizes[0])
    passes = _passes(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                     hold_gain, hold, sizes, max_states, choice_out, group_jokers, held_out,
                     stats, codes, save)
    gains = _items(opt, weight, opt_j, joker_weight)
    floor = must_j * max(0, joker_weight) + gains.sum()
    held = hold_gain > 0 and hold[0][-1] > 0  # least disturbance: sets to keep
    if resume == EXACT:
        return _pass(passes, bounds, start, 0)[:2]
    if resume == PLAYS:  # (whether a move reaches start holding no set out; arrays kept)
        kept = (choice_out.copy(), group_jokers.copy(), held_out.copy())
        st, sc, _t = _free_pass(passes, start, PLAYS_STATES)
        choice_out[:] = kept[0]
        group_jokers[:] = kept[1]
        held_out[:] = kept[2]
        return st, sc
    if resume == ASK_FREE:
        return _free_aims(passes, aim_floors(must, opt, must_j, opt_j, weight, joker_weight,
                                             sizes[0]), start, width)
    if resume == ASK_ABOVE:
        return _above(passes, bounds, start, held)
    if resume == ASK:  # (at the whole rack, at most the bounds' most sets kept)
        top = bounds[-2] + bounds[-1] * hold_gain if bounds[-2] >= floor else -NEG
        return _most_kept(passes, bounds, top, start, width)
    for aim in range(min(AIMS, gains.shape[0] + 1)):
        if aim > 0:
            floor -= gains[aim - 1]
        if resume == ASK_AIM and floor >= start:  # (the aims searched before the call)
            if floor > start or bounds[-1] < 0:  # (or out of reach by the relaxation)
                continue
            st, sc, _t = _pass(passes, bounds, floor, 0)
            if st != 0:
                return st, sc
            continue
        for narrow in (width, 8 * width):
            st, sc, truncated = _pass(passes, none, floor, narrow)
            if st < 0 or (st == 1 and sc >= floor) or not truncated:
                break
        if st < 0 or (st == 1 and sc >= floor and (not truncated or (aim == 0 and not held))):
            return st, sc  # (exact, or the whole rack without sets to keep: the most)
        if st == 1 and sc >= floor:
            if held:  # (sets to keep: the passes above it with the bounds)
                return (ASK, sc) if resume >= 0 else _most_kept(passes, none, -NEG, sc, width)
            found = sc  # (an answer: the exact pass looks for a better one)
            if resume >= 0:  # (unless the relaxation shows none: :func:`_above`)
                return ASK_ABOVE, found
            st, sc, _t = _pass(passes, none, found + 1, 0)
            return (st, sc) if st != 0 else (1, found)
        if truncated and resume >= 0 and held:  # (the objective first, then the sets)
            return ASK_FREE, floor
        if truncated and resume >= 0:  # (the exact pass next: with the bounds)
            return ASK_AIM, floor
        if truncated:
            st, sc, _t = _pass(passes, none, floor, 0)
            if st != 0:
                return st, sc
    if held and resume >= 0:
        st, sc, _t = _free_pass(passes, NEG)
        return (ASK_PARTS, sc) if st == 1 else (st, sc)
    return _pass(passes, none, NEG, 0)[:2]


@njit(cache=True)
def _most_kept(passes, bounds, top, found, width):
    """``(status, score)``: the most sets kept by a move playing the whole rack, above the
    answer of score ``found`` (the arrays hold it), at most ``top`` by the bounds; passes
    asking for one set more than the best found each time, narrow ones of ``8 * width``
    states a layer, ``64 * width`` once one finds none, and the exact pass last, or once one
    set short of ``top`` (with the bounds, the exact pass that fails above the optimum is
    cheap: 187 k states on a dense 8 x 13 table where one at the optimum keeps 871 k, a
    narrow one of 16,384 states a layer 411 k)."""
    narrow = 8 * width
    while found < top:
        exact = found + 1 == top or narrow > MOST_NARROW * width
        st, sc, truncated = _pass(passes, bounds, found + 1, 0 if exact else narrow)
        if st < 0:
            return st, sc
        if st == 1:
            found = sc
        if not truncated:  # (an exact pass: its answer is the most, or none keeps more)
            break
        if st != 1:
            narrow *= 8
    return 1, found


@njit(cache=True)
def aim_floors(must, opt, must_j, opt_j, weight, joker_weight, min_len):
    """The floors of the aims (:data:`AIMS`): the whole playable rack, then less its
    smallest gains, one more each time (the engine asks the relaxation which are in reach
    when the kernel returns :data:`ASK_FREE`)."""
    gains = _items(playable(must, opt, must_j + opt_j, min_len), weight, opt_j, joker_weight)
    floor = must_j * max(0, joker_weight) + gains.sum()
    floors = np.empty(min(AIMS, gains.shape[0] + 1), np.int64)
    for aim in range(floors.shape[0]):
        if aim > 0:
            floor -= gains[aim - 1]
        floors[aim] = floor
    return floors


@njit(cache=True)
def _free_aims(passes, floors, start, width):
    """Under least disturbance, the objective's optimum by passes holding no set out
    (:func:`_free_pass`), from ``start`` (the caller's choice: the floor of the aim below
    the highest that the relaxation leaves in reach, where the optimum nearly always lies;
    from the highest the pass fails at about the cost of the one that finds it): narrow
    ones of ``width`` and ``8 * width`` states a layer first (an answer they find goes to
    :data:`ASK_ABOVE`: the relaxation nearly always shows that no better one is in reach,
    where the exact pass from it stored 0.75 M states on a dense 8 x 13 table with four
    copies), then exact ones from ``start``, from the lower aims' ``floors``, from no floor."""
    for narrow in (width, 8 * width):
        st, sc, truncated = _free_pass(passes, start, -1, narrow)
        if st == 1:
            return (ASK_ABOVE if truncated else ASK_PARTS), sc
        if st < 0 or not truncated:  # (an exact pass found none: the exact ones below)
            break
    for aim in range(floors.shape[0] + 1):
        floor = floors[aim] if aim < floors.shape[0] else NEG
        if floor > start:
            continue
        st, sc, _t = _free_pass(passes, floor)
        if st != 0:
            return (ASK_PARTS, sc) if st == 1 else (st, sc)
    return 0, NEG


@njit(cache=True)
def _above(passes, bounds, found, held):
    """``(status, score)`` once a narrow pass found an answer of score ``found`` (the
    arrays hold it; ``held``: one holding no set out, under least disturbance, whose sets
    kept the caller searches next: :data:`ASK_PARTS`): the exact pass above it only if the
    relaxation's ``bounds`` at the next objective leave one in reach (on the dense tables
    they are tight: 8 x 13, four copies, 80 tiles: 0.75 M states saved)."""
    if bounds[-1] >= 0:
        if held:
            st, sc, _t = _free_pass(passes, found + 1)
        else:
            st, sc, _t = _pass(passes, np.zeros(0, np.int64), found + 1, 0)
        if st != 0:  # (a better one, or past the memory bound)
            return (ASK_PARTS if held and st == 1 else st), sc
    return (ASK_PARTS if held else 1), found


@njit(cache=True)
def _free_pass(passes, floor, most=-1, width=0):
    """``(status, score, truncated)`` of the pass from ``floor`` that holds no table set out:
    the objective's optimum if it reaches ``floor`` (which moves reach a score is a
    question of tiles alone: a held-out set is a set the pass may lay itself), in far
    fewer states than with the held-out subsets (8 x 13, four copies: 0.55 M against
    14.8 M proving 20 tiles out of reach).  The arrays hold its move (no set held).
    ``most``: at most that many states (status -1 past them), else the passes' bound;
    ``width``: a narrow pass of that many states a layer (0: exact)."""
    (must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain, _hold,
     sizes, max_states, choice_out, group_jokers, held_out, stats, setup, save) = passes
    colours, numbers = must.shape
    none = np.zeros(0, np.int64)
    free = (np.zeros(numbers + 1, np.int64), none, none, none, np.zeros(numbers, np.int64),
            np.zeros(numbers * colours + 1, np.int64), none, none)
    return _pass((must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                  hold_gain, free, sizes, most if most > 0 else max_states, choice_out,
                  group_jokers, held_out, stats, setup, save), none, floor, width)


@njit(cache=True)
def left_out(opt, weight, opt_j, joker_weight, gain, parts):
    """The parts of the rack (tiles ``opt`` of positive ``weight``, ``opt_j`` jokers of
    ``joker_weight``) whose gains sum to ``gain``, written to the rows of ``parts`` (the
    counts per cell ``c * numbers + v``, then the jokers); returns how many there are, or
    ``parts.shape[0] + 1`` once there are more than its rows (a depth-first search over
    the cells, each taking 0 up to its count)."""
    colours, numbers = opt.shape
    cells = colours * numbers + 1
    count = np.zeros(cells, np.int64)
    value = np.zeros(cells, np.int64)
    for c in range(colours):
        for v in range(numbers):
            if opt[c, v] > 0 and weight[c, v] > 0:
                count[c * numbers + v], value[c * numbers + v] = opt[c, v], weight[c, v]
    if opt_j > 0 and joker_weight > 0:
        count[cells - 1], value[cells - 1] = opt_j, joker_weight
    take = np.full(cells, -1, np.int64)
    found, level, left = 0, 0, gain
    while level >= 0:
        if take[level] >= 0:
            left += take[level] * value[level]
        take[level] += 1
        if take[level] > count[level] or take[level] * value[level] > left:
            take[level] = -1
            level -= 1
            continue
        left -= take[level] * value[level]
        if left == 0:
            if found == parts.shape[0]:
                return found + 1
            parts[found, : level + 1] = take[: level + 1]
            parts[found, level + 1:] = 0
            found += 1
        elif level + 1 < cells:
            level += 1
    return found

