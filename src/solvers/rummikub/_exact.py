"""The exact optimum: passes of the DP with score targets, one position or a batch.

:func:`solve_exact` chooses the passes of :func:`solvers.rummikub._dp.solve_pass`;
:func:`solve_serial` runs it over stacked positions, :func:`solve_batch` runs that on
blocks of them in threads, and :func:`solve_arrays` allocates their outputs.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit

from solvers.rummikub._aims import (
    DESCENT_STEPS,
    WIDER_FLEXIBLE,
    _descends,
    _wide_tile_set,
    descend,
    target_passes,
)
from solvers.rummikub._family import variants_for
from solvers.rummikub._groups import GROUP_OK
from solvers.rummikub._halfway import halfway_first
from solvers.rummikub._layout import (
    BEAM,
    CONTINUE_AT,
    COPIES_AT,
    LENGTH_MASK,
    NCOL,
    NEG,
    NNUM,
    NO_BEAM,
    NO_CAP,
    OFFICIAL_AT,
    PLACES,
    REAL2_BIT,
    copies,
    highest_number,
    place_at,
    place_number,
    place_of,
)
from solvers.rummikub._one_pass import (
    OUT_OF_REACH,
    _playable,
    _spent,
    _unbounded,
    playable_width,
    resumable_pass,
)
from solvers.rummikub._resume import CUT, FLOOR, no_kept
from solvers.rummikub._threads import run_ranges


@njit(cache=True, inline="always")
def solve_exact(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    beam, variants,
):
    """The exact optimum (:func:`_passes`; meld then continue: :func:`_meld_continue`);
    ``variants``: :mod:`solvers.rummikub._family`."""
    if variants is not None and (meld >> CONTINUE_AT) & 1:
        return _meld_continue(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                              choice_out, gj_out, stats, beam, variants)
    return _passes(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                   gj_out, stats, beam, NO_CAP, _unbounded(), no_kept(), variants)[:2]


@njit(cache=True, inline="always")
def _meld_continue(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                   gj_out, stats, beam, variants):
    """Meld then continue, exactly: first the melded player's optimum (an upper bound: the
    same move without the meld's condition); if its played tiles hold a meld worth the
    threshold (the initial-meld search on them alone), it is the answer.  Otherwise the
    DP over both arrangements (:mod:`solvers.rummikub._continue`), aiming at that bound.
    First of all: no meld from the whole rack, no move."""
    # (no table, no table jokers; the minimum set length and the copies kept: with the
    # copies read as two, a colour's third and fourth group tiles went uncounted and ten
    # 3s of three colours, one giving four, made a meld of 30)
    initial = (meld & ((np.int64(1) << OFFICIAL_AT) - 1) | meld & LENGTH_MASK
               | meld & (np.int64(3) << COPIES_AT))
    if not _has_meld(opt, opt_j, weight, initial, group_ok, choice_out, gj_out, beam,
                     variants):
        return 0, NEG
    melded = meld & ~(np.int64(1023) | np.int64(1) << CONTINUE_AT)
    st, sc, _kept = _passes(must, opt, must_j, opt_j, weight, joker_weight, melded, group_ok,
                            choice_out, gj_out, stats, beam, NO_CAP, _unbounded(), no_kept(),
                            variants)
    if st != 1:
        return st, sc
    played = np.zeros_like(opt)
    jokers = -must_j
    for c in range(NCOL):
        for v in range(NNUM):
            played[c, v] = choice_out[c, v, 0] + choice_out[c, v, 1] - must[c, v]
            jokers += choice_out[c, v, 2]
    jokers += gj_out.sum()
    if _has_meld(played, jokers, weight, initial, group_ok, choice_out, gj_out, beam, variants):
        return st, sc
    stats[:] = 0
    return _passes(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                   gj_out, stats, beam, sc + must_j * joker_weight, _unbounded(), no_kept(),
                   variants)[:2]


@njit(cache=True, inline="always")
def _has_meld(rack, jokers, weight, initial, group_ok, choice_out, gj_out, beam, variants):
    """Whether tiles ``rack`` (and ``jokers``) hold an initial meld (mode ``initial``)."""
    return _passes(np.zeros_like(rack), rack, np.int64(0), jokers, np.ones_like(weight),
                   np.int64(1), initial, group_ok, np.zeros_like(choice_out),
                   np.zeros_like(gj_out), np.zeros(2, np.int64), beam, NO_CAP, _unbounded(),
                   no_kept(), variants)[0] == 1


# :func:`_passes`' ``share[2]`` once its last pass (the exact pass from the floor) began: past
# every other pass's index, so a call resumed there runs that pass alone.
LAST_PASS = len(WIDER_FLEXIBLE) + 5 + DESCENT_STEPS

# :func:`_passes`: a melded player's cap below the target (:func:`solve_either`'s) puts the
# whole rack out of reach: the narrow search looks for the cap, and if it misses, the beam
# pass and the exact pass from its floor follow, without the wider searches and the exact
# pass at the cap (they prune less than at the whole rack, and find nothing where the
# relaxation giving the cap scores more: seed 1 20J #1 of copies=3 + jokers=4 + two real
# tiles 58 -> 156 ms with them; benches/README, rkcap).  Meld then continue's cap
# (:func:`_meld_continue`: the melded optimum, whose move holds no meld) the same, but for
# the descent under official retrieval: the meld's condition mostly costs value there, and
# the wider searches and the exact pass at the cap can never find it then (seed 13 40J #6 of
# copies=4, two points below its cap: 15.4 k + 53.9 k of the DP's states spent on them, rkmc13;
# benches/README, rkmc15, 7 Dec 2026).  ``share``, for :func:`solve_either`'s
# rounds (:func:`_unbounded`: none): the states the passes may store in all (0: no bound;
# past it, status -1), a raw score some arrangement reaches (NEG: none; the exact pass prunes
# below it if no pass here finds more), and the passes done before (the next one,
# :data:`LAST_PASS` once the last exact pass began, and whether the last search was cut: those
# done give the same answers again, so the passes resume there), and a raw score no
# arrangement reaches (:data:`OUT_OF_REACH`); all updated.  ``kept``: the pass the budget cut
# (:mod:`solvers.rummikub._resume`), which goes on from there.
@njit(cache=True)
def _passes(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    beam, cap, share, kept, variants,
):
    """The exact optimum, found fastest by passes that prune with a score to reach.

    Pruning only drops transitions that cannot reach the target score, so an exact pass
    finds every arrangement that reaches it and returns the optimum whenever the optimum
    does.  First target: everything the rack could add (every rack tile that some set
    could hold, every rack joker); on large tables the optimum usually plays the whole
    rack.  Then every surviving state has played every rack tile so far, so the scores
    tie and the work is finding *an* arrangement: a narrow pass that keeps the states with
    the fewest open short runs (``beam // 4`` of them; ``beam // 2`` under two real tiles
    per set or official retrieval, whose obligations the narrow pass does not rank: measured
    1.4 ms instead of 64 ms on the slowest bench position) nearly always finds one, and any
    answer reaching the target is optimal (with three or four jokers or copies it may miss:
    then :data:`WIDER_FLEXIBLE`'s wider searches).  If it does not, the exact pass with that
    target decides (unless the wider searches ran: :func:`_skip_target_pass`); if nothing
    reaches the target: with jokers, a beam pass finds a legal
    score (its answer stands if it never truncated; if it finds none, under official
    retrieval, narrow passes below the target look for one: :data:`DESCENT_STEPS`) and the
    exact pass prunes with that;
    without jokers the plain exact pass runs (it is cheap, at most ~20k states); first, an
    exact pass from halfway between the beam's score and the target where
    :func:`~solvers.rummikub._halfway.halfway_first`.
    ``beam = 0`` runs the plain exact pass alone.  ``cap``: a raw score the optimum is known
    not to exceed (the first target is at most that; a melded player's cap below the
    target: see above); a beam pass reaching the cap answers.  ``share``, ``kept``: see
    above.  ``variants``: :mod:`solvers.rummikub._family`.  Returns ``(status, score, kept)``.
    """
    floor = NEG
    target = NEG
    known = share[1]  # (a score found before this call)
    variant = (meld >> REAL2_BIT) & 1 or meld >> OFFICIAL_AT  # (or meld then continue)
    widen = len(WIDER_FLEXIBLE) if _wide_tile_set(meld, must_j + opt_j) else 0
    descent = widen + 4  # (the first descending pass's index; the halfway pass's after them)
    heaviest = np.int64(0)  # (the heaviest playable rack tile's weight: the descent's step)
    capped = False
    if beam > 0:
        opt = _playable(must, opt, must_j + opt_j, playable_width(meld))
        target = must_j * joker_weight + opt_j * max(0, joker_weight)
        heaviest = max(0, joker_weight) if opt_j else 0
        for c in range(NCOL):
            for v in range(NNUM):
                target += opt[c, v] * max(0, weight[c, v])
                if opt[c, v]:
                    heaviest = max(heaviest, weight[c, v])
        # (a cap below the target, solve_either's or meld then continue's: see above)
        capped = cap < target and not (meld >> CONTINUE_AT) & 1
        narrow_only = cap < target
        target = min(target, cap)
        done, st, sc, kept = target_passes(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, beam, share, kept, variants, target, widen, variant, narrow_only)
        if done:
            return st, sc, kept
    if beam > 0 and must_j + opt_j > 0 and share[2] < widen + 3:
        st, sc, truncated, kept = resumable_pass(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, NEG, beam, share[0], kept, variants)
        if _spent(share, st, sc + must_j * joker_weight, stats):
            return -1, NEG, kept
        share[2] = widen + 3
        if truncated == 0 or (st == 1 and sc + must_j * joker_weight >= cap):
            return st, sc, kept  # (exact, or at the cap: the optimum)
        if st == 1:
            floor = sc + must_j * joker_weight
        elif _descends(meld, must.sum() + must_j) and heaviest > 0 and not capped:
            share[2] = descent  # (nothing found: the descending passes, DESCENT_STEPS)
        stats[:] = 0
    done, st, sc, kept, lower = descend(
        must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
        stats, beam, share, kept, variants, target, heaviest, descent)
    if done:
        return st, sc, kept
    floor = max(floor, lower)
    halfway_at = descent + DESCENT_STEPS
    base = max(floor, share[1])  # (the beam pass's score, or the best found before)
    if (share[2] < LAST_PASS and halfway_first(meld, must_j + opt_j, must.sum() + must_j)
            and NEG < base < target - 1):
        halfway = base + (target - base) // 2
        if share[2] == halfway_at and kept[0][CUT]:  # (cut before: it goes on at its floor,
            halfway = kept[0][FLOOR]  # whatever the other way found since)
        share[2] = halfway_at
        st, sc, _t, kept = resumable_pass(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, halfway, NO_BEAM, share[0], kept, variants)
        if _spent(share, st, sc + must_j * joker_weight, stats):
            return -1, NEG, kept
        if st == 1:  # (the optimum reaches halfway: this is it)
            return st, sc, kept
        share[OUT_OF_REACH] = min(share[OUT_OF_REACH], halfway)
        stats[:] = 0
    share[2] = LAST_PASS
    st, sc, _t, kept = resumable_pass(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                      group_ok, choice_out, gj_out, stats, max(floor, known),
                                      NO_BEAM, share[0], kept, variants)
    if _spent(share, st, sc + must_j * joker_weight, stats):
        return -1, NEG, kept
    return st, sc, kept


# Over the numbers as they run, the passes store far fewer states than over the position
# with its numbers reversed (n read as 14 - n) on about half the slow positions, far more on
# others, and no cheap sign of the rack or the table told which (with three or four copies
# or jokers, the rack's mean number against the table's: right on 9 of the 12 slowest of
# copies=4 + jokers=3, at 8.7 ms as it is and 336 ms reversed on the worst miss).  So
# :func:`solve_either` runs both ways in rounds, the position as it is first, each way's
# passes under a budget of states that grows each round (:data:`LAST_PASS_GROWTH`), until
# one way finishes; a way resumes at the pass it gave up (the passes before give the same
# answers again), that pass going on from its last layer (:mod:`solvers.rummikub._resume`:
# each way stores its passes' states once over the rounds), the best score either way
# found so far is its exact pass's floor (benches/README, rkcxj, rkresume), and a target
# either way proved out of reach is searched by neither again (:data:`OUT_OF_REACH`).
# A position whose passes stay within the first budget is solved as before, so only the
# slow ones turn: of seeds 11 and 1-7 (1,600 positions a rule set), 1 under sets of 2
# (4 40J #13: 40 ms as it is, 2 ms reversed), 10 under two real tiles (6 60J #0: 39 ms,
# 1 ms), 4 under the rules document's, 9 under official retrieval with both (its table
# jokers' places read backwards: 5 60J #16, 349 ms, 1 ms), none under sets of 4 or more
# (benches/README, rks2b, rkboth2).  A first budget of 8 k states costs more in all (sets
# of 2: 1.31 -> 1.89 s; two real tiles: 0.77 -> 0.95 s): many positions need 8-30 k states
# either way.
TURN_STATES = 32_768

# Under two real tiles per set with four jokers in play and three copies, the position as it
# is gets half that first: its exact pass from the beam pass's floor often runs past the
# budget (on 4 of the 6 slowest bench positions of that crossing, 28-31 k of its 32 k
# states, set aside; the reversed position then finished with 3-15 k: benches/README,
# rkj4s, rkturn), so the states it stores before turning are halved.
FIRST_STATES_FOUR_JOKERS_REAL2 = TURN_STATES // 2

# A way cut in its last pass (:data:`LAST_PASS`) has no pass left but that one: its next
# budget grows sixteenfold, not fourfold, so that it finishes with fewer turns of the other
# way; a way cut before it grows fourfold.  Chosen when each round stored the cut pass again
# from its first layer (official retrieval, copies=4, seed 2 80J #18: 285 k states stored,
# then 202 k; benches/README, rkturn2); with cut passes going on from their last layer, the
# rounds replayed over the 995 positions of seeds 11 and 1-7 whose as-is passes pass the
# first budget (every melded 4 x 13 bench row) store 71.2 M states in all so, 71.8 M
# fourfold throughout, 71.9 M twofold, 69.3 M twofold and eightfold in the last pass
# (within 3 %: kept; benches/README, rkresume).
LAST_PASS_GROWTH = 16
ROUND_GROWTH = 4


@njit(cache=True, inline="always")
def _turnable(meld):
    """Whether :func:`solve_either` may search the position with its numbers reversed
    (:data:`TURN_STATES`): a melded player's (the initial meld's value, and meld then
    continue's, are sums of the numbers); the rules are the same read backwards, official
    retrieval's table jokers at their places read backwards too (:func:`turned_rules`)."""
    return meld & 3 == 0 and not (meld >> CONTINUE_AT) & 1


@njit(cache=True, inline="always")
def turned_rules(meld, nnum):
    """``meld`` with the places of its table jokers (official retrieval,
    :func:`solvers.rummikub._layout.joker_place`) at the numbers 1..``nnum`` read backwards:
    a run joker stands for its colour's tile there, a group joker's group lacks the same
    colours."""
    out = meld
    for k in range(PLACES):
        at = place_at(k) + 2  # (the place's number - 1: 4 bits)
        place = place_of(meld, k)
        if place:
            v = place_number(place)
            out = out & ~(np.int64(15) << at) | np.int64(nnum - 1 - v) << at
    return out


@njit(cache=True, inline="always")
def turned(counts, nnum):
    """``counts[colour, number - 1]`` with the numbers 1..``nnum`` read backwards."""
    out = counts.copy()
    for v in range(nnum):
        out[:, v] = counts[:, nnum - 1 - v]
    return out


# (not inlined: the engines' warm-up compiles it through solve_range, and the tests that
# call it load that, not the whole search compiled and optimised again for them)
@njit(cache=True, nogil=True)
def solve_either(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    beam, variants, first_way, above, cap,
):
    """:func:`solve_exact`, and whether its choice is the reversed position's
    (:data:`TURN_STATES`): ``(status, score, reversed)``; the caller reads the choice
    backwards (:func:`solvers.rummikub._melds.turned_codes`).  ``variants``:
    :mod:`solvers.rummikub._family`.  ``first_way`` 1: each round searches the reversed
    position first, the budgets as they are (a relaxation's solve where the solve under the
    rules turned: ``engines.rummikub.least._relaxed_move``); 0 the position as it is (both
    given, not defaulted: an omitted argument is a signature of its own, a second compile).
    ``above``: a score (the returned score's units) some arrangement is known to reach, or
    NEG: the exact passes then keep only what may score more (status 0: no arrangement
    does; a narrow or beam pass may still answer with an arrangement scoring ``above``).
    A relaxation's solve knows the move under the stricter rules, legal under its own
    (``engines.rummikub.least._relaxed_move``).  ``cap``: a score (the same units) no
    arrangement exceeds, or NO_CAP: the passes' first target (:func:`_passes`), reached
    by the solve under two real tiles after its relaxation (one real tile a set, whose
    optimum is the cap: ``engines.rummikub.arrays._solve_moves``).  A position solved one
    way (not turnable) ignores both.
    """
    if beam <= 0 or not _turnable(meld):
        st, sc = solve_exact(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                             choice_out, gj_out, stats, beam, variants)
        return st, sc, False
    nnum = highest_number(meld)
    back = (turned(must, nnum), turned(opt, nnum), turned(weight, nnum), turned_rules(meld, nnum))
    ways = np.zeros((2, 5), np.int64)  # (each way's share of _passes)
    ways[:, 1] = NEG if above == NEG else above + must_j * joker_weight + 1  # (raw, as _passes)
    ways[:, OUT_OF_REACH] = NO_CAP
    cap = NO_CAP if cap == NO_CAP else cap + must_j * joker_weight
    budgets = np.full(2, TURN_STATES, np.int64)
    budgets[0] = first_budget(meld, must_j + opt_j)
    kept, kept_back = no_kept(), no_kept()  # (each way's pass the budget cut, going on)
    first = first_way  # (the first round's order; each later one: _finishing_way)
    while True:
        for k in range(2):
            way = k ^ first
            ways[way, 0] = budgets[way]
            ways[way, 1] = max(ways[0, 1], ways[1, 1])  # (a score is a score both ways)
            ways[way, OUT_OF_REACH] = min(ways[0, OUT_OF_REACH], ways[1, OUT_OF_REACH])
            stats[:] = 0
            if way == 0:
                st, sc, kept = _passes(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                       group_ok, choice_out, gj_out, stats, beam, cap,
                                       ways[way], kept, variants)
            else:
                st, sc, kept_back = _passes(back[0], back[1], must_j, opt_j, back[2],
                                            joker_weight, back[3], group_ok, choice_out,
                                            gj_out, stats, beam, cap, ways[way], kept_back,
                                            variants)
            if st >= 0:
                return st, sc, way == 1
            budgets[way] = next_budget(budgets[way], ways[way])
        first = _finishing_way(ways, kept[0], kept_back[0], first_way)


# After the first round of :func:`solve_either`, a way cut in its exact pass from the best
# score either way found (:data:`LAST_PASS`, its floor that score: it goes on from its last
# layer) has only that pass to finish, while the other may still be before its own: that way
# goes first.  Official retrieval (seed 18 80J #3 of three jokers and four copies: the
# position as it is spent its second budget, 121 k states, on an exact pass at halfway that
# the reversed one had proved out of reach in 78 states, then the reversed one finished in
# 10 k more: 209 k -> 78 k states; seed 8 60J #1 of four jokers and three copies: 116 k ->
# 71 k; states counted in Python mode, rkoff4).
@njit(cache=True, inline="always")
def _finishing_way(ways, header, header_back, first_way):
    """The way :func:`solve_either` searches first in its next round: the one cut in its
    last pass at the best score found (``header``, ``header_back``: each way's kept pass,
    :mod:`solvers.rummikub._resume`; see above), else ``first_way``."""
    best = max(ways[0, 1], ways[1, 1])
    for way in (first_way, first_way ^ 1):
        cut = header if way == 0 else header_back
        if best > NEG and ways[way, 2] == LAST_PASS and cut[CUT] and cut[FLOOR] == best:
            return way
    return first_way


@njit(cache=True, inline="always")
def first_budget(meld, jokers):
    """:func:`solve_either`'s first budget for the position as it is under rules ``meld``
    with ``jokers`` in play (:data:`FIRST_STATES_FOUR_JOKERS_REAL2`)."""
    if (meld >> REAL2_BIT) & 1 and jokers > 3 and copies(meld) > 2:
        return FIRST_STATES_FOUR_JOKERS_REAL2
    return TURN_STATES


@njit(cache=True, inline="always")
def next_budget(budget, share):
    """:func:`solve_either`'s next budget for a way whose passes (``share``) ``budget`` cut
    (:data:`LAST_PASS_GROWTH`)."""
    return budget * (LAST_PASS_GROWTH if share[2] == LAST_PASS else ROUND_GROWTH)


@njit(cache=True, nogil=True)
def solve_serial(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status, best, choice,
    group_jokers, stats, beam=BEAM, variants=True,
):
    """Solve ``n`` positions on the calling thread (the GIL released); all arrays have the
    position as first axis.

    ``must, opt, weight``: int64[n, 4, 13]; ``must_j, opt_j, joker_weight, meld``:
    int64[n]; ``group_ok``: int8[5, 5 or 25, 4]; outputs ``status, best``: int64[n],
    ``choice``: int64[n, 4, 13, 4], ``group_jokers``: int64[n, 13].  ``variants``: None
    where no position needs the wider passes (:func:`solvers.rummikub._family.variants_for`).
    """
    for p in range(must.shape[0]):
        st, sc = solve_exact(must[p], opt[p], must_j[p], opt_j[p], weight[p], joker_weight[p],
                              meld[p], group_ok, choice[p], group_jokers[p], stats[p], beam,
                              variants)
        status[p] = st
        best[p] = sc


# :func:`solve_batch`'s blocks a thread on an even share (a Python call of the kernel each:
# microseconds, against a position's tenths to tens of milliseconds)
BLOCKS_A_THREAD = 8


def solve_batch(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status, best, choice,
    group_jokers, stats, beam=BEAM, variants=True,
):
    """:func:`solve_serial` on ``numba.get_num_threads()`` threads (which the engines set;
    :func:`~solvers.rummikub._threads.run_ranges`, the engines' batches' pool): each takes
    the next block of positions until none is left.

    Threads of Python over the one compiled kernel, not a ``prange`` kernel of its own:
    Numba would compile the whole DP again for it (88 s of CPU on an empty cache, measured
    6 Dec 2026), and a batch's positions differ in cost by two orders of magnitude, which
    small blocks taken in turn share out better than one block a thread.
    """
    n = must.shape[0]
    threads = min(numba.get_num_threads(), n)
    arrays = (must, opt, must_j, opt_j, weight, joker_weight, meld)
    outputs = (status, best, choice, group_jokers, stats)
    if threads <= 1:
        solve_serial(*arrays, group_ok, *outputs, beam, variants)
        return
    block = max(1, n // (threads * BLOCKS_A_THREAD))

    def solve_block(lo: int) -> None:
        hi = min(lo + block, n)
        solve_serial(*(a[lo:hi] for a in arrays), group_ok, *(a[lo:hi] for a in outputs),
                     beam, variants)

    run_ranges(solve_block, range(0, n, block), threads)


def _kernel_rows(rows):
    """``rows`` as the compiled kernel takes them: int64, C order, writeable (a read-only
    input, such as one row of a broadcast array, would be a new signature for Numba to
    compile: minutes on an empty cache)."""
    return np.require(rows, np.int64, ("C_CONTIGUOUS", "WRITEABLE"))


def _result_arrays(n):
    """Zeroed outputs of ``n`` positions: status, best, choice, group jokers, stats."""
    return (np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros((n, NCOL, NNUM, 4), np.int64),
            np.zeros((n, NNUM), np.int64), np.zeros((n, 2), np.int64))


def solve_arrays(must, opt, must_j, opt_j, weight, joker_weight, meld, parallel=None,
                 beam=BEAM, group_ok=None):
    """Allocate outputs and run :func:`solve_batch` (shapes: :mod:`solvers.rummikub._dp`).

    ``group_ok``: the group table of the rules' tile set
    (:func:`solvers.rummikub._groups.group_tables`; default: the standard set's).

    ``parallel=None`` uses the thread pool only for batches of more than one position.
    ``beam=0`` skips the bounding first pass (same answers, slower on large tables; the
    differential tests compare both).
    Returns ``(status, best, choice, group_jokers, stats)``.

    >>> must = np.zeros((1, 4, 13), np.int64)
    >>> opt = np.zeros((1, 4, 13), np.int64)
    >>> opt[0, 1, 4:7] = 1                      # rack R5 R6 R7
    >>> weight = np.ones((1, 4, 13), np.int64)   # one point per tile placed
    >>> one, zero = np.ones(1, np.int64), np.zeros(1, np.int64)
    >>> status, best, choice, gj, _ = solve_arrays(must, opt, zero, zero, weight, one, zero)
    >>> int(status[0]), int(best[0]), choice[0, 1, 4:7, 0].tolist()
    (1, 3, [1, 1, 1])
    """
    n = must.shape[0]
    status, best, choice, group_jokers, stats = _result_arrays(n)
    if parallel is None:
        parallel = n > 1
    kernel = solve_batch if parallel else solve_serial
    must, opt, must_j, opt_j, weight, joker_weight, meld = (
        _kernel_rows(a) for a in (must, opt, must_j, opt_j, weight, joker_weight, meld))
    kernel(
        must, opt, must_j, opt_j, weight, joker_weight, meld,
        GROUP_OK if group_ok is None else group_ok,
        status,
        best,
        choice,
        group_jokers,
        stats,
        beam,
        variants_for(meld, must_j + opt_j),
    )
    return status, best, choice, group_jokers, stats
