"""The passes at a score to reach before the exact pass from a floor: at the whole rack's
target (a narrow search, wider ones, the exact pass at it), and under official retrieval the
narrow passes below it that look for a floor (:func:`descend`).  Both run inside
:func:`solvers.rummikub._exact._passes`, whose ``share`` and ``kept`` they update.
"""

from __future__ import annotations

from numba import njit

from solvers.rummikub._layout import NEG, NO_BEAM, OFFICIAL_AT, OFFICIAL_PLACES, copies
from solvers.rummikub._one_pass import OUT_OF_REACH, _spent, resumable_pass
from solvers.rummikub._resume import no_kept

# Where three or four jokers or copies are in play, the search for an arrangement reaching
# the whole-rack target keeps BEAM * 4, then BEAM * 16 states a layer before the exact pass:
# its 32 states miss the target on 165 of the 560 jokers=4 bench positions of seeds 1-7,
# and on 60-tile tables with jokers the exact pass at the target then searches 0.1-0.5 M
# states (60J: 3.24 s -> 0.45 s in all, max 275 -> 38 ms; benches/README, rktails).
WIDER_FLEXIBLE = (4, 16)


@njit(cache=True, inline="always")
def _wide_tile_set(meld, jokers):
    """Whether the rules' tile set has three or four copies, or three or four jokers are in
    play (the rules document's game never runs :data:`WIDER_FLEXIBLE`)."""
    return copies(meld) > 2 or jokers > 2


# Where the wider searches ran and missed the whole-rack target, the exact pass at the target
# is skipped: the exact pass from the beam pass's floor finds the optimum whether it reaches
# the target or not.  On the bench bands (seeds 11, 1-7; three or four copies or jokers) the
# target was out of reach on 28 of the 29 positions that got that far, that pass's states
# (30-80 % of the next one's) spent for nothing; where it was in reach, the pass from the
# floor searched twice the states.  Not with three copies and four jokers: in reach on 2 of
# 10, at 1.7 and 3.2 times the states (benches/README, rkj4c).
@njit(cache=True, inline="always")
def _skip_target_pass(meld, jokers):
    """Whether :func:`_passes` skips the exact pass at the target after the wider searches
    missed it (see above)."""
    return not (copies(meld) > 2 and jokers > 3)


# Under official retrieval, where the beam pass finds no arrangement (its states spent the
# jokers that the table jokers' places need later: it does not rank that obligation), narrow
# passes look for one at the target less 1, 2, .. :data:`DESCENT_STEPS` times the heaviest
# playable rack tile (an arrangement leaving that many tiles out scores at least that): the
# first found is the exact pass's floor, which from NEG stores 0.1-0.3 M states on the
# slowest positions of official retrieval with three copies and four jokers.  On tables of
# :data:`DESCENT_TABLE` tiles or more: on smaller ones the exact pass from NEG is cheap
# (20-30 k states) and the descent's 7 k, charged to the way's budget, pushed it past the
# first one (seed 5 40J #9: 30.6 -> 60.3 k states).  Official retrieval, three copies, four
# jokers, seeds 11 and 1-8, bands 20J-80J, 10 a band (360 positions; states counted in
# Python mode): seed 2 60J #0 310 -> 46 k, seed 7 60J #1 202 -> 281 k (its floor comes
# three tiles down and the exact pass from it passes the second budget), no other changed
# (benches/README, rkshare).
DESCENT_STEPS = 3
DESCENT_TABLE = 50


@njit(cache=True, inline="always")
def _descends(meld, table_tiles):
    """Whether :func:`_passes` looks for a floor below the target after a beam pass that
    found nothing (:data:`DESCENT_STEPS`): under official retrieval, table jokers in play,
    ``table_tiles`` at least :data:`DESCENT_TABLE`."""
    return (meld >> OFFICIAL_AT) & OFFICIAL_PLACES != 0 and table_tiles >= DESCENT_TABLE


@njit(cache=True, inline="always")
def target_passes(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                  gj_out, stats, beam, share, kept, variants, target, widen, variant, capped):
    """:func:`~solvers.rummikub._exact._passes`' passes at ``target`` (the narrow search,
    :data:`WIDER_FLEXIBLE`'s, the exact pass at it), from the one ``share[2]`` names:
    ``(done, status, score, kept)``, ``done`` where the passes answer (status 1, the target
    reached) or the budget cut them (status -1)."""
    truncated = share[3]
    # (a pass may end on a state below the target: only an answer reaching it is known
    # to be optimal; k: the narrow search, the wider ones, the exact pass at the target)
    for k in range(share[2], widen + 2):
        if k > 0 and (capped or not truncated):
            break
        width = -max(1, beam // (2 if variant else 4))
        if k == widen + 1:
            if widen and _skip_target_pass(meld, must_j + opt_j):
                break
            width = NO_BEAM
        elif k > 0:
            width = -beam * WIDER_FLEXIBLE[k - 1]
        if share[OUT_OF_REACH] <= target:  # (proved so, the other way: no pass at it; a
            share[2], kept = widen + 2, no_kept()  # pass at it cut before is dropped)
            break
        st, sc, truncated, kept = resumable_pass(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
            gj_out, stats, target, width, share[0], kept, variants)
        if _spent(share, st, sc + must_j * joker_weight, stats):
            return True, -1, NEG, kept
        share[2], share[3] = k + 1, truncated
        if st == 1 and sc + must_j * joker_weight >= target:
            return True, st, sc, kept
        if not truncated:  # (an exact search at the target found nothing)
            share[OUT_OF_REACH] = min(share[OUT_OF_REACH], target)
        stats[:] = 0
    return False, 0, NEG, kept


@njit(cache=True, inline="always")
def descend(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, beam, share, kept, variants, target, heaviest, descent):
    """The descending passes (:data:`DESCENT_STEPS`), each resuming as itself: index
    ``descent + d - 1`` at ``target`` less d times ``heaviest``, from the one ``share[2]``
    names; the first that finds an arrangement gives the floor: ``(done, status, score,
    kept, floor)``, ``done`` as :func:`target_passes`' (an untruncated pass that found one:
    the optimum), ``floor`` NEG where none found one."""
    first_step = share[2] - descent + 1 if share[2] >= descent else DESCENT_STEPS + 1
    for d in range(first_step, DESCENT_STEPS + 1):
        lower = target - d * heaviest
        if lower <= share[1]:  # (a score known already: no floor to look for)
            kept = no_kept()  # (a pass at it cut before, if any, dropped)
            break
        if share[OUT_OF_REACH] <= lower:  # (proved out of reach: the next one lower)
            kept = no_kept()
            share[2] = descent + d
            continue
        st, sc, truncated, kept = resumable_pass(
            must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
            stats, lower, -max(1, beam // 2), share[0], kept, variants)
        if _spent(share, st, sc + must_j * joker_weight, stats):
            return True, -1, NEG, kept, NEG
        share[2] = descent + d
        if st == 1 and not truncated:
            return True, st, sc, kept, NEG  # (an exact search from its floor: the optimum)
        stats[:] = 0
        if st == 1:
            return False, 0, NEG, kept, sc + must_j * joker_weight
        if not truncated:
            share[OUT_OF_REACH] = min(share[OUT_OF_REACH], lower)
    return False, 0, NEG, kept, NEG
