"""Least disturbance, a position at a time in one kernel call (no Python between passes).

:mod:`engines.rummikub.least` explains the method: the held-out passes of
:mod:`solvers.rummikub._held` ask the DP for the optimum keeping more and more table sets.
Here the whole question runs natively, without the GIL: the held-out tables from the table
sets (:func:`hold_tables`, an interval colouring), the passes the engine's policy names
(:func:`bounded_passes`), and, for a batch (:func:`least_range`; the sets its plain moves
keep and their optimum: :func:`~solvers.rummikub._kept.plain_kept`), the answer's sets
(packed codes), played tiles and sets kept.

A table set is given by its slots: ``slot_number`` (the number the tile stands for, 1..13)
and ``slot_colour`` (the real tile's colour, -1 for a joker), the sets one after the other
(``set_start``: where each begins, one more entry for the end).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bound import later_and_caps
from solvers.rummikub._branch import branch_programme, branched_bound, new_search, rules_out
from solvers.rummikub._family import variants_for
from solvers.rummikub._held import _held_pass
from solvers.rummikub._hold import BUDGET_AT, BUDGET_UNIT, WIDTH_BITS, twin_classes
from solvers.rummikub._hold_tables import hold_tables, renumber_chosen_jokers
from solvers.rummikub._kept import JOKER_KIND, code_key, common_sets
from solvers.rummikub._layout import CONTINUE_AT, HOLD_BITS, NCOL, NNUM, copies
from solvers.rummikub._melds import meld_codes
from solvers.rummikub._official import without_held_places
from solvers.rummikub._skips import no_skips, skip_table

# Least disturbance's statuses: the plain move keeps every set (kept as it is: the engine
# leaves such positions out of least_range's order) or, under :data:`PLAIN_FIRST`, the most
# (the engine keeps it), the answer found, more than HOLD_BITS
# sets cover a number, no answer reached the floor, an answer that is not an arrangement
UNCHANGED, FOUND, TOO_MANY, MISSED, NOT_SETS = 0, 1, -1, -2, -3
# The narrow passes' states past which the exact passes stop at the linear relaxation's
# bound on the sets kept (:func:`solvers.rummikub._bound.sets_bound`, 3-4 ms loaded): below,
# the proof costs about what the bound does (jokers=3 80J seed 11: 208 k -> 35 k states, but
# 27 k -> 23 k took 4 -> 8 ms; benches/README "A native bound on the sets kept")
BOUND_FROM = 20_000
# Exact passes asking for the bound itself (then one set less) before the engine's policy,
# for where the narrow passes stop short of the best (four copies): the fallback where the
# policy array gives none; the engine gives ``engines.rummikub.least.DESCENTS`` (2, measured
# there). They may change a move among equally good ones.
DESCENTS = 0
# The exact cuts the engine's policy may ask for (``exact_budget[3]``, bits; none if absent):
# a held-out state keeps the floor's sets less the most later ones
# (:func:`solvers.rummikub._hold._most_held`'s fewest)
FEWEST_HELD = 1
# A policy bit beside the cuts: the plain move is an answer already, so the passes ask for
# one set more than it keeps from the first (not for its sets, which a narrow pass may miss
# while the plain move has them), and when none keeps more, least_one returns
# :data:`UNCHANGED`: the engine keeps the plain move
PLAIN_FIRST = 2
# A cut: the hold layers drop the states that cannot leave out exactly the rack tiles the
# optimum leaves out (:mod:`solvers.rummikub._skips`)
LEFT_OUT = 4
# A policy bit: where the bound applies (:func:`_bound_applies`), it comes first, before any
# narrow pass (with four jokers the narrow passes at the plain move's floor mostly find
# nothing, and the bound's own checks find the move: :func:`bounded_passes`)
BOUND_FIRST = 8
# A policy bit beside the cuts: the sets of the branched bound's node are checked by an
# exact pass on the rest of the table (:func:`_keeps_chosen`), not by narrow passes
KEPT_EXACT = 16
# A policy bit: the bound applies with two copies and at most two jokers too (a melded
# player's passes; :func:`_bound_applies`)
BOUND_ANY = 32
# A policy bit: the bound never applies, whatever the tiles (the plain passes, which the
# tests compare with the bounded ones)
NO_BOUND = 64
CONTINUE_BOUND = 128  # a policy bit: the bound for meld then continue too (_bound_applies)
# A ``work`` array longer than 2 gets, per pass in order, its sets asked for, width,
# budget, states, status and whether it was truncated (probes: benches/README #18)
TRACE = 6


@njit(cache=True, nogil=True)
def _one_pass(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, hold,
              caps, skips, floor, width, scale, budget, choice, group_jokers, held_out, work,
              variants):
    """One held-out pass (:func:`solvers.rummikub._held.held_arrays` on this thread):
    ``(status, score, states, truncated)``, the answer in the three output arrays
    (``caps``: :func:`solvers.rummikub._hold._most_held`'s; ``skips``:
    :func:`solvers.rummikub._skips.skip_table`'s; ``variants``: ``_family``'s)."""
    choice[:] = 0
    group_jokers[:] = 0
    held_out[:] = 0
    stats = np.zeros(2, np.int64)
    beam = np.int64(width)
    if width != 0:
        beam = (1 if width > 0 else -1) * (abs(width) | scale << WIDTH_BITS)
    elif budget > 0:
        beam = ((budget + BUDGET_UNIT - 1) // BUDGET_UNIT) << BUDGET_AT
    status, score, truncated = _held_pass(
        must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, floor, beam,
        (hold[0], hold[1], hold[2], hold[3], hold[4], hold[5], held_out, caps,
         twin_classes(hold[0], hold[1], hold[2]), skips), choice, group_jokers, stats, variants)
    if status == 1 and score + must_j * joker_weight < floor:
        status = 0
    work[0] += 1
    work[1] += stats[0]
    at = 2 + TRACE * (work[0] - 1)
    if len(work) >= at + TRACE:  # (a longer ``work``: each pass traced, for probes)
        work[at:at + TRACE] = (floor % scale, width, budget, stats[0], status, truncated)
    return status, score, stats[0], truncated


@njit(cache=True, inline="always")
def _keep(choice, group_jokers, held_out, best_choice, best_jokers, best_held):
    best_choice[:] = choice
    best_jokers[:] = group_jokers
    best_held[:] = held_out


@njit(cache=True, inline="always")
def _passes_at_width(must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, hold,
                     caps, skips, base, kept, have, answer, optimum, ceiling, width, scale, c2,
                     g2, h2, choice, group_jokers, held_out, work, variants):
    """Narrow passes of one beam ``width``: a positive width runs once; any other runs
    again while each pass finds a move keeping more sets and none proves the answer.
    Returns the updated ``kept``, ``have``, ``answer``, whether the answer is proven, and
    the passes' states."""
    states_sum = 0
    while True:
        status, score, states, truncated = _one_pass(
            must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, hold, caps,
            skips, base + kept + have, width, scale, np.int64(0), c2, g2, h2, work, variants)
        states_sum += states
        proven = truncated == 0
        if status == 1:
            kept, have = score - optimum * scale, 1
            answer = kept
            _keep(c2, g2, h2, choice, group_jokers, held_out)
            proven = proven or kept >= ceiling
        if proven or status != 1 or width > 0:
            return kept, have, answer, proven, states_sum


# (not inlined: least_range's warm-up compiles it, and the tests that compare it with and
# without the bound load that, not the whole DP compiled again: a minute of the CI's CPU)
@njit(cache=True, nogil=True)
def bounded_passes(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, hold,
                   kept, optimum, ceiling, n_sets, narrow, exact_budget, wider, choice,
                   group_jokers, held_out, work, slot_number, slot_colour, set_start, s0, s1,
                   variants):
    """The passes of :func:`engines.rummikub.least.least_disturbing_move` from an optimal
    move keeping ``kept`` sets (``optimum``: its objective's score under ``weight`` and
    ``joker_weight``; ``ceiling``: the most sets a move may keep; ``narrow``, ``exact_budget``
    and ``wider``: the engine's policy, ``NARROW``, ``EXACT_BUDGET``, ``WIDER``).  Returns
    the most sets kept, or -1 if no pass found an answer (the outputs then undefined); the
    answer (:func:`~solvers.rummikub._held.held_arrays`' choice, group jokers and sets held
    out) in the three output arrays; ``work`` gains the passes run and their states;
    ``variants``: :mod:`solvers.rummikub._family`'s (given, not defaulted: an omitted
    argument is a type of its own, a compile of its own).

    The narrow passes, then the exact ones; when the narrow ones searched at least
    :data:`BOUND_FROM` states (or before any, under :data:`BOUND_FIRST`), stop at the
    linear relaxation's bound on the sets kept
    (:func:`solvers.rummikub._bound.sets_bound` of the table sets ``s0..s1-1``, branched
    on the sets held out within the policy's ``exact_budget[7]`` nodes:
    :mod:`solvers.rummikub._branch`): the answer is the same, the proof that no move
    keeps more often unneeded.  Where the search reached the bound holding out whole
    sets, an exact pass within ``exact_budget[10]`` states, then narrow passes of the
    widths ``exact_budget[8:10]`` holding out those sets look for a move keeping as many
    (:func:`_at_the_bound`): one is the answer."""
    passes = _Passes(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, hold,
                     optimum, n_sets, choice, group_jokers, held_out, work, _cuts(exact_budget),
                     variants)
    plain = _cuts(exact_budget) & PLAIN_FIRST != 0
    plain_kept = kept
    applies = (_cuts(exact_budget) & NO_BOUND == 0
               and _bound_applies(mode, must_j + rack_j, _cuts(exact_budget) & BOUND_ANY != 0,
                                  _cuts(exact_budget) & CONTINUE_BOUND != 0))
    first = applies and _cuts(exact_budget) & BOUND_FIRST != 0  # (no narrow pass)
    kept, have, answer, proven, narrow_states = _narrow_passes(
        passes, kept, ceiling, narrow[:0] if first else narrow, plain)
    if proven:
        return answer
    nothing = have == 0 or (plain and answer == plain_kept)  # (no pass found a move)
    descents = 0  # (exact passes at the bound: only where it was computed)
    if (first or narrow_states >= _policy_at(exact_budget, 5, BOUND_FROM)) and applies:
        chosen = np.zeros(s1 - s0, np.int64)
        bound, held, found = _checked_bound(  # (later sets and caps, in place)
            passes, weight, joker_weight, slot_number, slot_colour, set_start, s0, s1, kept,
            _policy_at(exact_budget, 7, 0),
            _policy_at(exact_budget, 11, 0) if _cuts(exact_budget) & KEPT_EXACT else 0,
            _policy_at(exact_budget, 12, _policy_at(exact_budget, 7, 0)), chosen)
        if found:
            return bound
        ceiling = min(ceiling, bound)
        if have == 1 and kept >= ceiling:
            return answer
        if held == ceiling and len(exact_budget) > 10:
            found = _at_the_bound(passes, ceiling, chosen, slot_number, slot_colour, set_start,
                                  s0, s1, exact_budget[8:10], exact_budget[10],
                                  _cuts(exact_budget) & KEPT_EXACT != 0)
            if found > 0:
                return ceiling
            if found < 0:
                ceiling -= 1
            if have == 1 and kept >= ceiling:
                return answer
        descents = _policy_at(exact_budget, 4, DESCENTS)
    return _exact_passes(passes, kept, have, answer, ceiling, narrow_states, exact_budget,
                         wider, descents, applies, nothing)


@njit(cache=True, nogil=True, inline="always")
def _checked_bound(passes, weight, joker_weight, slot_number, slot_colour, set_start, s0, s1,
                   lowest, nodes, rounds, round_nodes, chosen):
    """The branched bound (later sets and caps in place) whose node holding out whole sets
    is checked exactly (:func:`_keeps_chosen`), ``rounds`` times at most: sets that no
    move keeps all of (:func:`~solvers.rummikub._branch.rules_out`) are ruled out and the
    search goes on from that node (a target no other node reaches: one lower) with
    ``round_nodes`` more nodes than its target had left (the engine's policy: a round's
    budget, apart from the first search's ``nodes`` a target).  Returns
    ``(bound, held, found)``: ``found``, a move keeps the ``held`` sets ``chosen``, the
    bound (the answer in the output arrays); else ``held`` -1 or sets to try."""
    must, rack, must_j, rack_j, mode, hold, optimum = (
        passes[0], passes[1], passes[2], passes[3], passes[6], passes[8], passes[10])
    lp, bound, pivots = branch_programme(must, rack, must_j, rack_j, weight, joker_weight,
                                         optimum, mode, slot_number, slot_colour, set_start,
                                         s0, s1)
    nogoods = np.zeros((rounds, s1 - s0), np.int64)  # (the sets ruled out, a row each)
    held = -1
    search = new_search(lp, s1 - s0)  # (each call goes on from the node before)
    if nodes > 0 and bound > lowest:
        bound, held = branched_bound(lp, s1 - s0, bound, lowest, nodes, chosen, nogoods[:0],
                                     search)
    for r in range(rounds):
        if held != bound:
            break
        if _keeps_chosen(passes, chosen, held, slot_number, slot_colour, set_start, s0, s1,
                         0):
            return bound, held, True
        if not rules_out(mode, chosen, slot_colour, set_start, s0):
            break
        nogoods[r] = chosen
        search[5][1] += round_nodes  # (a budget more a set ruled out: each one a proof)
        bound, held = branched_bound(lp, s1 - s0, bound, lowest, nodes, chosen,
                                     nogoods[:r + 1], search)
    bound, _pivots = later_and_caps(lp, bound, pivots, slot_number, set_start, s0, s1,
                                    hold[5], passes[19])
    return bound, held if held >= bound else -1, False


@njit(cache=True, nogil=True, inline="always")
def _at_the_bound(passes, ceiling, chosen, slot_number, slot_colour, set_start, s0, s1,
                  widths, budget, kept_exact):
    """Look for a move keeping ``ceiling`` sets, the bound: :func:`_keeps_chosen` on the
    sets ``chosen``, then an exact pass within ``budget`` states (where the caps prune well
    it ends there; none if 0).  :func:`_keeps_chosen` is exact (the plain DP on the rest of
    the table: ``kept_exact``, the policy's :data:`KEPT_EXACT`) or else the narrow pass
    ``widths[0]`` before the exact one and ``widths[1]`` after.  Returns 1 if found (the
    answer in the output arrays), -1 if the exact pass proved that none keeps as many, 0
    if neither."""
    exact = kept_exact
    for step in range(3):
        if step == 1 and budget > 0:
            status, _score, _states, truncated = _pass_at(passes, ceiling, 0, budget)
            if status == 1:
                _keep(passes[12], passes[13], passes[14], passes[15], passes[16], passes[17])
                return 1
            if not truncated:
                return -1
        elif step != 1 and (step == 0 or not exact) and (exact or widths[step // 2] != 0) \
                and _keeps_chosen(passes, chosen, ceiling, slot_number, slot_colour,
                                  set_start, s0, s1, 0 if exact else widths[step // 2]):
            return 1
    return 0


@njit(cache=True, nogil=True, inline="always")
def _keeps_chosen(passes, chosen, held, slot_number, slot_colour, set_start, s0, s1, width):
    """Whether a move keeping the ``held`` table sets ``chosen`` (``chosen[i]`` 1 for set
    ``s0 + i``: the branched bound's node that reached it) reaches the optimum: ``width``
    0, the DP's exact pass on the rest of the table (the chosen sets' tiles, jokers and
    official places out: the plain DP's problem, with the optimum as its floor: copies=4
    60J seed 2 #10 6 ms where the narrow passes below took 119 k states); else a narrow
    pass of ``width`` states per layer holding out only those sets (under official
    retrieval: they keep their jokers' places).  Reaching the bound, it is the answer
    (in the output arrays).  The exact pass at the bound looks at every way to keep as
    many sets, and the narrow ones asking for the bound mostly miss (copies=4 60J); with
    the sets fixed, the move is the plain DP's."""
    (must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, _hold, base, optimum,
     scale, c2, g2, h2, choice, group_jokers, held_out, work, caps, skips, variants) = passes
    first = np.zeros(held + 1, np.int64)  # the chosen sets' slots, one after the other
    numbers = np.empty(len(slot_number), np.int64)
    colours = np.empty(len(slot_number), np.int64)
    rest = must.copy()
    rest_j = must_j
    k = 0
    for i in range(s1 - s0):
        if chosen[i]:
            lo, hi = set_start[s0 + i], set_start[s0 + i + 1]
            first[k + 1] = first[k] + hi - lo
            numbers[first[k]:first[k + 1]] = slot_number[lo:hi]
            colours[first[k]:first[k + 1]] = slot_colour[lo:hi]
            for s in range(lo, hi):
                if slot_colour[s] < 0:
                    rest_j -= 1
                else:
                    rest[slot_colour[s], slot_number[s] - 1] -= 1
            k += 1
    which = np.empty((NNUM, HOLD_BITS), np.int64)
    if width == 0:  # (no set to hold out: a plain pass)
        tables, _crowded = hold_tables(numbers, colours, first, 0, 0, which)
        joker_weight = jw_scaled // scale
        skips = skips.copy()  # (the left-out cut holds here too: these moves score the
        skips[3] = 1  # optimum, placing the rest's table jokers and the same rack ones)
        skips[6] -= must_j - rest_j
        status, _score, _states, _truncated = _one_pass(  # (official: the rest's places)
            rest, rack, rest_j, rack_j, w_scaled // scale, joker_weight,
            without_held_places(mode, chosen, slot_colour, set_start, s0, s1), group_ok,
            tables, np.zeros_like(caps), skips, optimum + rest_j * joker_weight,
            np.int64(0), np.int64(1), np.int64(0), c2, g2, h2, work, variants)
    else:
        tables, _crowded = hold_tables(numbers, colours, first, 0, held, which)
        renumber_chosen_jokers(tables[2], chosen, slot_number, slot_colour, set_start, s0, s1)
        sub = held + 1  # (the scale of these sets' score)
        skips = skips.copy()  # (the left-out cut holds here too: its moves score the optimum)
        skips[3] = sub
        status, _score, _states, _truncated = _one_pass(
            must, rack, must_j, rack_j, w_scaled // scale * sub, jw_scaled // scale * sub,
            mode, group_ok, tables, np.zeros_like(caps), skips, base // scale * sub + held,
            np.int64(width), sub, np.int64(0), c2, g2, h2, work, variants)
    if status != 1:
        return False
    choice[:] = c2
    group_jokers[:] = g2
    hold_tables(slot_number, slot_colour, set_start, s0, s1, which)  # (the whole table's)
    for v in range(NNUM):
        held_out[v] = 0
        for k in range(HOLD_BITS):
            if which[v, k] >= 0 and chosen[which[v, k]]:
                held_out[v] |= np.int64(1) << k
    return True


@njit(cache=True, inline="always")
def _bound_applies(mode, jokers, any_tiles, first_turn):
    """Whether the bound is worth its cost (a few ms): with three or four copies or three
    jokers, whose proofs are the tails, or whatever the tiles where the policy asks
    (``any_tiles``: :data:`BOUND_ANY`), for a melded player or a first turn under meld then
    continue where the policy asks (``first_turn``: :data:`CONTINUE_BOUND`; a move's final
    arrangement is a melded player's at the optimum, all the programme counts, and the check
    of a node's sets, :func:`_keeps_chosen`, is the rules' own pass, the meld included)."""
    return ((mode & 3 == 0 or (first_turn and (mode >> CONTINUE_AT) & 1))
            and (any_tiles or copies(mode) > 2 or jokers > 2))


@njit(cache=True, inline="always")
def _cuts(exact_budget):
    """The policy's exact cuts (:data:`FEWEST_HELD`): ``exact_budget[3]``."""
    return _policy_at(exact_budget, 3, 0)


@njit(cache=True, inline="always")
def _policy_at(exact_budget, at, default):
    """``exact_budget[at]`` where the engine's policy gives it (after the budget: the cuts,
    then for probes :data:`DESCENTS` and :data:`BOUND_FROM`), else ``default``."""
    return exact_budget[at] if len(exact_budget) > at else default


@njit(cache=True, inline="always")
def _Passes(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, hold, optimum,
            n_sets, choice, group_jokers, held_out, work, cuts, variants):
    """What every pass of one position shares (a tuple: :func:`_pass_at` reads it; at 19,
    :func:`solvers.rummikub._hold._most_held`'s caps: none until :func:`bounded_passes`
    sets them, unless ``cuts`` asks for :data:`FEWEST_HELD`, which needs the scale (meld
    then continue too: the sets held out are its final arrangement's, counted alike); last, the rack
    tiles a state may leave out where ``cuts`` asks for :data:`LEFT_OUT`, meld then continue
    too: its score is the final arrangement's, whose jokers placed it counts as the DP
    does)."""
    scale = n_sets + 1
    caps = np.zeros((NNUM + 1, 2), np.int64)
    skips = no_skips()
    if cuts & FEWEST_HELD:  # (no caps: hold any set)
        caps[:NNUM, 0] = n_sets
        caps[:NNUM, 1] = 3 * scale
        caps[NNUM, 0] = scale
        caps[NNUM, 1] = 1
    if cuts & LEFT_OUT:
        skips = skip_table(rack, rack_j, must_j, weight, joker_weight, optimum, scale)
    return (must, rack, must_j, rack_j, weight * scale, joker_weight * scale, mode, group_ok,
            hold, (optimum + must_j * joker_weight) * scale, optimum, scale,
            np.zeros_like(choice), np.zeros_like(group_jokers), np.zeros_like(held_out),
            choice, group_jokers, held_out, work, caps, skips, variants)


@njit(cache=True, inline="always")
def _pass_at(passes, floor_sets, width, budget):
    """One pass of the position ``passes`` asking for ``floor_sets`` sets kept."""
    (must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, hold, base, _optimum,
     scale, c2, g2, h2, _choice, _group_jokers, _held_out, work, caps, skips, variants) = passes
    # (int64, not the callers' literal 0s: one compiled _one_pass, not three)
    return _one_pass(must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, hold,
                     caps, skips, base + floor_sets, np.int64(width), scale, np.int64(budget),
                     c2, g2, h2, work, variants)


@njit(cache=True, inline="always")
def _width_passes(passes, kept, have, answer, ceiling, width):
    """:func:`_passes_at_width` on the position ``passes``."""
    (must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok, hold, base, optimum,
     scale, c2, g2, h2, choice, group_jokers, held_out, work, caps, skips, variants) = passes
    return _passes_at_width(must, rack, must_j, rack_j, w_scaled, jw_scaled, mode, group_ok,
                            hold, caps, skips, base, kept, have, answer, optimum, ceiling, width,
                            scale, c2, g2, h2, choice, group_jokers, held_out, work, variants)


@njit(cache=True, nogil=True, inline="always")
def _narrow_passes(passes, kept, ceiling, narrow, plain):
    """The narrow passes of :func:`bounded_passes`: ``(kept, have, answer, proven, states)``
    (``have``: 1 once a pass found an answer, ``kept`` then its sets kept; ``plain``
    (:data:`PLAIN_FIRST`): the plain move, keeping ``kept``, is that answer from the start,
    its arrays left unwritten)."""
    have = 1 if plain else 0
    answer = kept if plain else -1
    proven = plain and kept >= ceiling
    states_sum = 0
    for width in narrow:
        if proven:
            break
        kept, have, answer, proven, states = _width_passes(passes, kept, have, answer,
                                                           ceiling, width)
        states_sum += states
    return kept, have, answer, proven, states_sum


@njit(cache=True, nogil=True, inline="always")
def _exact_passes(passes, kept, have, answer, ceiling, narrow_states, exact_budget, wider,
                  descents, wider_first, nothing):
    """The exact passes of :func:`bounded_passes` after the narrow ones (their results);
    first, up to ``descents`` exact passes asking for the ``ceiling`` sets kept, one less
    each time none reaches it (the bound is usually the answer: one pass finds it), each
    after a narrow pass at the same floor where the policy gives its width
    (``exact_budget[6]``): one that reaches the bound is the answer.

    ``wider_first`` (the bounded passes' rules): when the narrow passes found nothing
    (``nothing``), the first wider narrow pass runs before any exact pass.  The budgeted
    exact pass would search from the plain move's floor and mostly stop at its budget
    (copies=4 60J seed 2: 340-490 k states spent so on each of the three slowest
    positions), while the wider pass, pruned by the caps, often finds the best (the bound
    then ends the passes) or most of it (rktail, benches/README)."""
    optimum, scale, c2, g2, h2 = passes[10], passes[11], passes[12], passes[13], passes[14]
    choice, group_jokers, held_out = passes[15], passes[16], passes[17]
    descent_width = _policy_at(exact_budget, 6, 0)
    while descents > 0 and ceiling > kept + have:
        descents -= 1
        truncated = 1
        if descent_width != 0:  # (one that is not truncated searched every state)
            status, score, _states, truncated = _pass_at(passes, ceiling, descent_width, 0)
            if status == 1:
                _keep(c2, g2, h2, choice, group_jokers, held_out)
                return score - optimum * scale
        if truncated:
            status, score, _states, _truncated = _pass_at(passes, ceiling, 0, 0)
            if status == 1:
                _keep(c2, g2, h2, choice, group_jokers, held_out)
                return score - optimum * scale
        ceiling -= 1
    proven = False
    next_wider = 0
    if wider_first and (nothing or kept + have >= ceiling) and len(wider) > 0:
        kept, have, answer, proven, states = _width_passes(passes, kept, have, answer,
                                                           ceiling, wider[0])
        next_wider = 1
        narrow_states += states
    while not proven:
        # the exact pass: within a budget while wider narrow passes remain
        budget = 0
        if next_wider < len(wider) and kept + have < ceiling:
            budget = min(exact_budget[2], max(exact_budget[0], exact_budget[1] * narrow_states))
        status, score, states, truncated = _pass_at(passes, kept + have, 0, budget)
        proven = truncated == 0
        if status == 1:  # (the floor stays: as the engine's loop always did)
            have, answer = 1, score - optimum * scale
            _keep(c2, g2, h2, choice, group_jokers, held_out)
        if proven:
            break
        kept, have, answer, proven, states = _width_passes(passes, kept, have, answer,
                                                           ceiling, wider[next_wider])
        next_wider += 1
        narrow_states += states
    return answer


@njit(cache=True, nogil=True, inline="always")
def least_one(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok, part_count,
              part_masks, min_len, slot_number, slot_colour, set_start, s0, s1, set_key,
              kept, optimum, ceiling, narrow, exact_budget, wider, codes, played, held, work,
              variants):
    """One position's least-disturbing move, from an optimal move keeping ``kept`` of the
    table sets ``s0..s1-1`` (``set_key``: their :func:`code_key`; ``optimum``: the move's
    score; ``ceiling``: the most sets a move may keep).  Writes the answer's sets
    (``codes``), the rack tiles it plays (``played[53]``, the joker last) and the table
    sets it keeps as they are (``held[i]`` 1 for set ``s0 + i``); ``work`` gains the
    passes and their states (:func:`bounded_passes`).  Returns ``(status,
    sets in codes, sets kept)``; status :data:`FOUND`, :data:`UNCHANGED` (the policy's
    :data:`PLAIN_FIRST`: no move keeps more than the optimal one given, nothing written),
    or :data:`TOO_MANY` (then the second is the number too many sets cover),
    :data:`MISSED` or :data:`NOT_SETS`."""
    which = np.empty((NNUM, HOLD_BITS), np.int64)
    tables, crowded = hold_tables(slot_number, slot_colour, set_start, s0, s1, which)
    if crowded:
        return TOO_MANY, crowded, 0
    n_sets = s1 - s0
    choice = np.zeros((NCOL, NNUM, 4), np.int64)
    group_jokers = np.zeros(NNUM, np.int64)
    held_out = np.zeros(NNUM, np.int64)
    answer = bounded_passes(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok,
                            tables, kept, optimum, ceiling, n_sets, narrow, exact_budget,
                            wider, choice, group_jokers, held_out, work, slot_number,
                            slot_colour, set_start, s0, s1, variants)
    if answer < 0:
        return MISSED, 0, 0
    if answer == kept and _cuts(exact_budget) & PLAIN_FIRST:  # (no pass found more)
        return UNCHANGED, 0, kept
    count = meld_codes(choice, group_jokers, part_count, part_masks, codes, min_len)
    if count < 0:
        return NOT_SETS, 0, 0
    jokers = -must_j
    for c in range(NCOL):
        for v in range(NNUM):
            played[c * NNUM + v] = choice[c, v, 0] + choice[c, v, 1] - must[c, v]
            jokers += choice[c, v, 2]
    held[:] = 0
    after = np.empty(count + n_sets, np.int64)
    for i in range(count):
        after[i] = code_key(codes[i])
    n_after = count
    for v in range(NNUM):
        jokers += group_jokers[v]
        for k in range(HOLD_BITS):
            if which[v, k] >= 0 and held_out[v] >> k & 1:
                i = which[v, k]
                held[i] = 1
                after[n_after] = set_key[s0 + i]
                n_after += 1
                for s in range(set_start[s0 + i], set_start[s0 + i + 1]):
                    if slot_colour[s] < 0:  # a held-out set's tiles are not played
                        jokers += 1
                    else:
                        played[slot_colour[s] * NNUM + slot_number[s] - 1] += 1
    played[JOKER_KIND] = jokers
    return FOUND, count, common_sets(set_key[s0:s1], after[:n_after])


@njit(cache=True, nogil=True)
def least_range(order, lo, hi, must, rack, must_j, rack_j, weight, joker_weight, modes,
                group_ok, part_count, part_masks, min_len, set_first, slot_number, slot_colour,
                set_start, set_key, optimum, ceiling, narrow, exact_budget, wider, status,
                codes, counts, played, held, kept, work, variants=True):
    """:func:`least_one` for the positions ``order[lo:hi]`` of a batch, from optimal moves
    keeping ``kept[p]`` of their table sets (``optimum[p]``: their score; ``ceiling[p]``:
    the most sets a move may keep; :func:`~solvers.rummikub._kept.plain_kept`); position
    p's table sets are ``set_first[p]..set_first[p + 1] - 1``.  Writes ``status[p]`` (:data:`FOUND`,
    :data:`UNCHANGED`, or :data:`TOO_MANY`, :data:`MISSED` or :data:`NOT_SETS`),
    ``codes[p]``, ``counts[p]`` (sets, or the crowded number), ``played[p]``, ``held[p]``
    (by set, from the position's first), ``kept[p]`` and ``work[p]`` (passes, states).
    The one kernel of both the engine's batches and its single positions
    (:func:`least_position`): each kernel Numba compiles optimises and emits the whole DP
    below it again (a minute of CPU).  ``variants``: :mod:`solvers.rummikub._family`'s."""
    for k in range(lo, hi):
        p = order[k]
        s0, s1 = set_first[p], set_first[p + 1]
        found, count, sets_kept = least_one(
            must[p], rack[p], must_j[p], rack_j[p], weight, joker_weight, modes[p], group_ok,
            part_count, part_masks, min_len, slot_number, slot_colour, set_start, s0, s1,
            set_key, kept[p], optimum[p], ceiling[p], narrow, exact_budget, wider, codes[p],
            played[p], held[p, : s1 - s0], work[p], variants)
        status[p] = found
        counts[p] = count
        kept[p] = sets_kept


# (least_position's own reference: a bench may replace the module's least_range by a wrapper)
_least_rows = least_range


def least_position(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok,
                   part_count, part_masks, min_len, slot_number, slot_colour, set_start,
                   set_key, kept, optimum, ceiling, narrow, exact_budget, wider, codes,
                   played, held, work):
    """:func:`least_one` for one position's table (all the sets given), through
    :func:`least_range` on a batch of one: ``(status, sets in codes, sets kept)``."""
    variants = variants_for(np.int64(mode), np.int64(must_j + rack_j))
    status, counts = np.zeros(1, np.int64), np.zeros(1, np.int64)
    kept_out = np.array([kept], np.int64)
    _least_rows(np.zeros(1, np.int64), 0, 1, must[None], rack[None],
                np.array([must_j], np.int64), np.array([rack_j], np.int64), weight,
                joker_weight, np.array([mode], np.int64), group_ok, part_count, part_masks,
                min_len, np.array([0, len(set_key)], np.int64), slot_number, slot_colour,
                set_start, set_key, np.array([optimum], np.int64),
                np.array([ceiling], np.int64), narrow, exact_budget, wider, status,
                codes[None], counts, played[None], held[None], kept_out, work[None], variants)
    return status[0], counts[0], kept_out[0]
