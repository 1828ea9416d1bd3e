"""Fewest tiles moved: the tie-break after least disturbance, as one exact DP pass.

Among the moves optimal for the objective that keep the most table sets (``K``, found by
least disturbance's passes), the pass finds one that moves the fewest table tiles under
the positional definition (:mod:`engines.rummikub.moved`): each table set may have one
*heir* afterwards, a set of its kind (a run of its colour, a group of its number) that no
other table set inherits; a tile stays when its heir holds it at its place (a joker: a
joker standing for the same tile; in a group any joker).  Its score is the objective's,
scaled above the sets kept, scaled above the tiles that stay, so the best score at the
floor ``(optimum, K)`` is the most tiles staying.

Unlike the plain DP, whose colour codes count open runs by length only, the heir of a
table run must be followed as one run: the state lists each colour's open runs (up to
four: two copies and two jokers) as *descriptors*, a length class (1, 2, 3+) and an owner
(free; *spent*: it was the heir of a table run whose span is over, so it inherits no
other; or the hold slot of the released table run whose heir it is).  A table run adopts
a free run (or a new one) at a place where their tiles match (adopting earlier gains
nothing); it stays linked while its heir goes on, and once its heir ends it is *done*
(a bit per slot).  Inside a number the colours given to groups (2 bits a colour) let the
close score the released table groups' best heirs (``group_stays``, from the engine).
Held-out sets (kept as they are) are chosen as least disturbance does, before each
number, and keep all their tiles.

State: three int64 words.  ``w0``: colours 0 and 1 (4 descriptors of 6 bits each), the
jokers placed at 48, the held-out field (12 bits) at 50; ``w1``: colours 2 and 3, the done
bits at 48; ``w2``: inside a number, the tiles each colour gave to groups.  The rules are
the rules document's (free joker retrieval, sets of 3+, one real tile per set, two copies,
up to two jokers; fewer colours or numbers allowed): the engine refuses the others.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._heirs_ahead import layer_words
from solvers.rummikub._heirs_groups import group_deficits
from solvers.rummikub._heirs_owners import drop_owner_dominated, later_tops, slot_bits_of
from solvers.rummikub._heirs_prune import drop_dominated, twin_alone
from solvers.rummikub._heirs_rounds import admitted, carried, final, walked
from solvers.rummikub._heirs_state import (
    DONE_AT,
    EXPANDED,
    FIELD_AT,
    FIELD_MASK,
    JU_AT,
    NEG,
    STATE_COLUMNS,
    colour_field,
    relax,
    room,
)
from solvers.rummikub._heirs_step import (
    joker_lost,
    joker_places,
    lost_of,
    packed_rest,
    reaches,
    successors,
    suffix_lost,
)
from solvers.rummikub._layout import HOLD_BITS, NCOL

OVER = NEG + 1  # heirs_pass: over its budget
OWNERS = 4  # heirs_pass's dominance bits 4-7: drop_owner_dominated after colours 1-4
# A layer of OWNERS_GATE[0] states or more where the owners' dominance drops under one state
# in OWNERS_GATE[1] turns it off at that colour for the rest of the call (0: never)
OWNERS_GATE = (2_000, 32)
GROUP_LAYER = 16  # the fewest states of a layer whose successors see its groups' losses


@njit(cache=True, inline="always")
def _shapes(colour, r, avecs):
    """The action vectors (:func:`~solvers.rummikub._heirs_step._run_moves`) that the ``r``
    runs of the colour's descriptors ``colour`` allow whatever the tiles (no short run
    ends; equal runs in one order), ascending, with the real tiles and jokers each takes:
    ``avecs[k] = (avec, reals, jokers)``; returns how many."""
    count = 0
    for avec in range(3 ** r):
        rest = avec
        reals = jokers = 0
        prev_a = 3
        ok = True
        for i in range(r):
            a = rest % 3
            rest //= 3
            d = (colour >> (6 * i)) & 63
            same = i > 0 and d == (colour >> (6 * i - 6)) & 63
            if (same and a > prev_a) or (a == 0 and d & 3 < 3):
                ok = False
                break
            prev_a = a
            reals += a == 1
            jokers += a == 2
        if ok:
            avecs[count, 0], avecs[count, 1], avecs[count, 2] = avec, reals, jokers
            count += 1
    return count


@njit(cache=True, inline="always")
def _waiting(w0, w1, c, v, field, done, runs_at, slot_of, run_type, twin):
    """The released table runs of colour ``c`` covering number v+1 that have no heir yet:
    ``(q, waiting, twins, linked_type)``, q of them (``waiting``: slot | tile type there
    << 4, 6 bits each; ``twins``: the index + 1 among them of an earlier identical one,
    ``twin[v, slot]``, 3 bits each), and the match gains of the linked ones
    (``linked_type``: the linked table run's tile type at v+1, 2 bits a slot)."""
    q = 0
    waiting = twins = linked_type = np.int64(0)
    colour = colour_field(w0, w1, c)
    for k in range(runs_at.shape[2]):
        i = runs_at[v, c, k]
        if i < 0:
            break
        b = slot_of[i]
        if field >> b & 1:
            continue
        linked_type |= np.int64(run_type[i, v]) << (2 * b)
        linked = False
        for s in range(4):
            if ((colour >> (6 * s)) & 63) >> 2 == 2 + b:
                linked = True
        if not linked and not done >> b & 1:
            waiting |= np.int64(b | run_type[i, v] << 4) << (6 * q)
            for e in range(q):
                if twin[v, b] >= 0 and (waiting >> (6 * e)) & 15 == twin[v, b]:
                    twins |= np.int64(e + 1) << (3 * q)
            q += 1
    return q, waiting, twins, linked_type


@njit(cache=True, inline="always")
def _released_groups(field, group_of, v):
    """The number's table groups in play (bit per group index), from the held-out field."""
    gsub = 0
    for b in range(HOLD_BITS):
        g = group_of[v, b]
        if g >= 0 and not field >> b & 1:
            gsub |= 1 << g
    return gsub


@njit(cache=True)
def _colour_layer(table, bits, start, end, n, st, c, v, ctx, must, opt, colour_bits, runs_at,
                  slot_of, run_type, suffix_loss):
    """Colour ``c``'s sub-step at number v+1 for the states ``start..end-1`` that the floor
    admits (the layer's rows so far: ``end..n-1``; the store made room for each tile
    count's successors here, so the inner loops take no array round a loop:
    :mod:`solvers.rummikub._heirs_step`)."""
    (weight, jw, jwpos, jokers, _, going_on, group_of, group_stays, rem, bonus, floor, real,
     nnum, rest, scale1, scale2, adopters, twin, jokers_in, rest_j, run_bits, group_bound,
     admit, cap) = ctx
    last = c == NCOL - 1
    before = c - 1 if c > 0 else NCOL
    near, far, ahead = layer_words(real, colour_bits, run_bits, going_on, v, nnum)
    lay = (np.int64(v), np.int64(c), np.int64(last), np.int64(weight[c, v]), np.int64(jw),
           np.int64(jwpos), np.int64(jokers), np.int64(going_on[v]), np.int64(rem[v, c]),
           np.int64(bonus[v, c]), np.int64(floor), np.int64(scale1), np.int64(scale2),
           np.int64(adopters[v, c]), np.int64(jokers_in[v, c]), rest[v, c], rest_j[v, c],
           near, far, ahead, np.int64(admit), np.int64(cap),
           (suffix_loss[v + 1] & 0xFFFFFFFF) | (suffix_loss[v] >> 32) << 32)
    avecs = np.empty((81, 3), np.int64)
    groups = group_stays  # (the close's; before it, what its groups must lose)
    subsets = 1
    for b in range(HOLD_BITS):
        if group_of[v, b] >= 0:
            subsets = max(subsets, 2 << group_of[v, b])
    if not last:
        groups = np.empty((3 ** (NCOL - 1 - c), subsets, group_stays.shape[2], 4), np.int64)
    bound = group_bound if end - start >= GROUP_LAYER else 0  # (a small layer: not worth it)
    filled = 0  # (the caps whose table is made: made when a state needs it)
    for i in range(start, end):
        w0, w1, w2, sc = st[i, 0], st[i, 1], st[i, 2], st[i, 3]
        if sc == NEG or st[i, 6] < admit:  # (dominated; expanded, or waiting for the floor)
            continue
        st[i, 6] = EXPANDED
        field = (w0 >> FIELD_AT) & FIELD_MASK
        done = (w1 >> DONE_AT) & FIELD_MASK
        ju = (w0 >> JU_AT) & 3
        colour = colour_field(w0, w1, c)
        r = 0
        for s in range(4):
            r += (colour >> (6 * s)) & 63 > 0
        held = 0
        mine = field & colour_bits[v, c]
        while mine:
            mine &= mine - 1
            held += 1
        lo = must[c, v] - held
        caps = cap_bits = 0  # (the later colours' tiles there for groups, base 3 and 2 bits
        for k in range(NCOL - 1, c, -1):  # a colour: not those held out or short runs need)
            out_k = field & colour_bits[v, k]
            taken = 0
            while out_k:
                out_k &= out_k - 1
                taken += 1
            runs_k = colour_field(w0, w1, k)
            short = 0
            for s in range(4):
                short += 0 < (runs_k >> (6 * s)) & 3 < 3
            taken += max(0, short - (jokers - ju))
            cap = max(0, min(2, real[k, v] - taken))
            caps, cap_bits = caps * 3 + cap, cap_bits << 2 | cap
        if not last and not filled >> caps & 1:
            group_deficits(group_stays, v, c, groups[caps], bound, subsets, cap_bits)
            filled |= np.int64(1) << caps
        q, waiting, twins, linked_type = _waiting(w0, w1, c, v, field, done, runs_at, slot_of,
                                                  run_type, twin)
        shapes = _shapes(colour, r, avecs)
        state = (w0, w1, w2, sc, field, done, ju, lo, colour, np.int64(r), np.int64(shapes),
                 np.int64(q), waiting, twins, linked_type,
                 np.int64(_released_groups(field, group_of, v) if subsets > 1 else 0),
                 np.int64(caps))
        # (the bound before this sub-step: its own tiles may still stay)
        lost = lost_of(field | done, rest[v, before]) + joker_lost(
            joker_places(field | done, jokers_in[v, before], rest_j[v, before]), jokers - ju)
        u_ok = fanout = 0  # (room once a state for all its successors)
        for u in range(lo, lo + opt[c, v] + 1):
            if not reaches(sc + (u - lo) * weight[c, v], rem[v, c] + (jokers - ju) * jwpos,
                           bonus[v, before], lost, floor, scale1, scale2):
                continue
            u_ok |= 1 << (u - lo)
            for ug in range(min(u, 2) + 1):
                for jr in range(jokers - ju + 1):
                    fit = 0
                    for k in range(shapes):
                        fit += avecs[k, 1] <= u - ug and avecs[k, 2] <= jr
                    fanout += fit * (u - ug + jr + 1) ** q * (jokers + 1 if last else 1)
        if u_ok:
            table, bits, st = room(table, bits, end, n, fanout, st)
            n = successors(table, bits, end, n, st, groups, avecs, lay, i, state, u_ok)
    return n, table, bits, st


@njit(cache=True)
def _hold_layer(table, bits, start, end, n, st, v, starting, set_jokers, set_size, scale2,
                jokers, jw, jwpos, floor, more, bonus, rest, scale1, twin, jokers_in, admit, cap,
                unavoidable):
    """The layer before number v+1's colours: every subset of the sets starting there held
    out (each gains ``scale2`` and its tiles, which all stay; its jokers count as placed),
    a set with an earlier twin (``twin[slot]``) only with it; ``rest``: ``(rest, rest_j)``;
    the states admitted (``admit``) of ``start..end-1``, the layer's rows so far ``end..n-1``;
    at most ``cap`` jokers placed; ``unavoidable``: ``suffix_loss[v]`` (:func:`heirs_pass`)."""
    count = 0
    while count < HOLD_BITS and starting[v, count] >= 0:
        count += 1
    for i in range(start, end):
        w0, sc = st[i, 0], st[i, 3]
        if sc == NEG or st[i, 6] < admit:  # (dominated; expanded, or waiting for the floor)
            continue
        st[i, 6] = EXPANDED
        field = (w0 >> FIELD_AT) & FIELD_MASK
        done = (st[i, 1] >> DONE_AT) & FIELD_MASK
        ju = (w0 >> JU_AT) & 3
        table, bits, st = room(table, bits, end, n, 1 << count, st)
        for subset in range(1 << count):
            nfield, nju, nsc = field, ju, sc
            for k in range(count):
                if subset >> k & 1:
                    nfield |= 1 << starting[v, k]
                    nju += set_jokers[v, k]
                    nsc += scale2 + set_size[v, k] + set_jokers[v, k] * jw
            if twin_alone(nfield, subset, starting[v], twin, count):
                continue
            lost = lost_of(nfield | done, rest[0]) + joker_lost(
                joker_places(nfield | done, jokers_in, rest[1]), jokers - nju)
            lost = max(lost, lost_of(nfield, rest[0]) + suffix_lost(unavoidable, nfield,
                                                                   jokers - nju))
            if nju > min(jokers, cap) or not reaches(nsc, more + (jokers - nju) * jwpos, bonus,
                                           lost, floor, scale1, scale2):
                continue
            keep = np.int64(FIELD_MASK) << FIELD_AT | np.int64(3) << JU_AT
            nw0 = (w0 & ~keep) | np.int64(nju) << JU_AT | np.int64(nfield) << FIELD_AT
            n = relax(table, bits, end, n, st, nw0, st[i, 1], st[i, 2], nsc, i, subset,
                      nsc % scale2 + bonus % scale2 - lost)
    return n, table, bits, st


@njit(cache=True)
def _pruned(table, bits, start, new, end, st, c, v, dominance, admit, stats, ctx):
    """The dominated states of the layer ``start..end-1`` after colour ``c``'s sub-step at
    number v+1 dropped (:data:`OWNERS`; only those to be expanded at ``admit``, and for
    the owners only when the round added states from ``new`` on); ``stats[1]`` counts
    them.  Returns ``dominance``, less the owners' bit where they drop few here."""
    runs_at, slot_of, rest, later, scale1, scale2 = ctx
    if dominance >> ((c + 1) % NCOL) & 1:
        stats[1] += drop_dominated(table, bits, start, end, st,  # (inside a number: the
                                   np.zeros(end - start, np.bool_),  # colour placed)
                                   -1 if c == NCOL - 1 else c, admit)
    if dominance >> (OWNERS + c) & 1 and end > new:
        gone = drop_owner_dominated(start, end, st, slot_bits_of(runs_at, slot_of, v), rest,
                                    later, scale1, scale2)
        stats[1] += gone
        if end - start >= OWNERS_GATE[0] and gone * OWNERS_GATE[1] < end - start:
            dominance &= ~(1 << (OWNERS + c))  # (few alike here: not worth its cost)
    return dominance


def new_pass(again: bool = False, rows: int = 1024) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pass not started, for :func:`heirs_pass`: ``(cursor, st, table)`` (the next
    layer, the rows of the last layer, the hash table's bits; the states; the table);
    ``again``: the round after one at a higher floor (its first state expanded there),
    ``rows`` the room that round's rows take (rows are written before they are read)."""
    st = np.empty((max(rows, 1024), STATE_COLUMNS), np.int64)
    st[0] = 0
    st[0, 4] = -1
    st[0, 6] = EXPANDED if again else np.int64(1) << 40
    return np.array([0, 0, 1, 10], np.int64), st, np.full(1 << 10, -1, np.int64)


@njit(cache=True, nogil=True)
def heirs_pass(must, opt, must_j, opt_j, weight, jw, nnum, hold, runs_at, slot_of, run_type,
               group_of, group_stays, set_size, rem, before, bonus, rest, scale1, scale2, floor,
               adopters, twin, jokers_in, rest_j, run_bits, joker_cap, suffix_loss, steps,
               held_out, stats, dominance, group_bound, admit, carry, budget, cursor, st, table):
    """The exact pass: the best arrangement whose score reaches ``floor`` (raw: the table
    jokers' gain included; the objective's ``weight`` and ``jw`` in units of ``scale1``,
    above the sets held out in units of ``scale2``, above the tiles that stay; the floor
    asks for the optimum and the most sets kept, so each part is bounded on its own).
    ``hold``: :func:`~solvers.rummikub._least.hold_tables`' (colour bits, going on, -,
    starting slots, their jokers, -);
    ``runs_at[v, c, k]``: the table runs of colour c covering number v+1 (-1 after),
    ``slot_of``: each set's hold slot, ``run_type[set, v]``: its tile there (1 real, 2
    joker); ``group_of[v, slot]``: the index of the group in that slot among the number's
    groups (-1: none); ``group_stays[v, groups in play, profile, group jokers]``: the
    released groups' most tiles staying (-1: no arrangement); ``set_size[v, k]``: the
    sizes of the starting sets; ``rem[v, c]``/``before[v]``: the rack's most gain after a
    sub-step / from a number on; ``bonus[v, c]``: what the sets starting after number v+1
    and the tiles still able to stay can add after colour c's sub-step (``bonus[v, 4]``:
    after the layer holding sets out); ``rest[v, c, slot]``: the tiles of the set in that
    slot that ``bonus[v, c]`` counts; ``adopters[v, c]``: the slots of colour c's table
    runs going on past number v+1 (-1 while one starts later:
    :func:`~solvers.rummikub._heirs_step._settled`);
    ``twin[v, slot]``: the slot of an identical table set (same tiles, joker places too)
    coming earlier in the table, -1 if none (the later one is held out only with it and
    adopts only after it: :func:`~solvers.rummikub._heirs_step._adopt`; the other choices
    repeat these with the two named the other way round); ``jokers_in[v, c]``,
    ``rest_j[v, c, slot]``: as ``bonus``'s tiles and ``rest``, the jokers only (a joker's
    place stays only with a joker put there: :func:`~solvers.rummikub._heirs_step.
    joker_lost`); ``run_bits[v, c]``: the slots of colour c's table runs at number v+1
    (:func:`~solvers.rummikub._heirs_ahead.ahead_lost`; -1 everywhere: not used);
    ``joker_cap``: the most jokers placed; ``suffix_loss[w]``: :func:`~solvers.rummikub.
    _heirs_step.suffix_lost`'s word for the numbers from w+1 on (:mod:`engines.rummikub.
    heirs_jokers`).  Writes the sub-steps' choices (``steps``), the sets held out (``held_out``);
    ``stats[0]`` gains the states, ``stats[1]`` those dropped as dominated
    (:func:`~solvers.rummikub._heirs_prune.drop_dominated` after colour c's sub-step
    where bit (c + 1) % 4 of ``dominance`` is set: bit 0 at each close, all colours; and
    :func:`~solvers.rummikub._heirs_owners.drop_owner_dominated` where bit 4 + c is set);
    ``group_bound``: before each close, its groups' fewest tiles lost count (bit 0) and the
    profiles giving its groups the same stays are one (bit 1;
    :func:`~solvers.rummikub._heirs_groups.group_deficits`; 0: neither, an A/B).
    The states whose tiles staying may reach ``floor`` are kept, those that may reach
    ``admit`` (the tiles staying asked for, at least the floor's) expanded, the others wait
    (:data:`~solvers.rummikub._heirs_state.STATE_COLUMNS`): with ``admit`` lowered, the
    next round (:func:`new_pass` with ``again``) carries over each layer's rows and
    expands only those newly admitted; ``carry``: ``(old_st, old_bounds, remap,
    bounds)``, the last round's rows and each layer's rows there (``-1``: none), work
    space, this round's layers (:func:`~solvers.rummikub._heirs_rounds.carried`).
    Resumable: it goes on from ``cursor``, ``st``, ``table`` (:func:`new_pass`), and when
    ``budget`` > 0 it stops after the layer where the states of this call pass it.
    Returns ``(score, st, table)``: the best score less the table jokers' gain, ``NEG``
    (none reaches the floor) or ``OVER`` (stopped: call again with the arrays returned)."""
    colour_bits, going_on, starting, set_jokers = hold[0], hold[1], hold[3], hold[4]
    jokers = must_j + opt_j
    jwpos = max(0, jw)
    rest, rest_j = packed_rest(rest), packed_rest(rest_j)
    ctx = (weight, jw, jwpos, jokers, colour_bits, going_on, group_of, group_stays, rem,
           bonus, floor, must + opt, nnum, rest, scale1, scale2, adopters, twin, jokers_in,
           rest_j, run_bits, group_bound, admit, joker_cap)
    old_st, old_bounds, remap, bounds = carry
    at_start = stats[0]
    later = later_tops(runs_at, run_type)
    layer, start, end, bits = cursor[0], cursor[1], cursor[2], cursor[3]
    while layer < nnum * (NCOL + 1):
        v, c = layer // (NCOL + 1), layer % (NCOL + 1) - 1
        if layer == 0:
            bounds[0, 0], bounds[0, 1] = start, end
            remap[0] = 0
        n0, table, bits, st = carried(table, bits, start, end, st, old_st,
                                       old_bounds[layer + 1], remap, admit)
        if c < 0:
            n, table, bits, st = _hold_layer(table, bits, start, end, n0, st, v, starting,
                                             set_jokers, set_size, scale2, jokers, jw, jwpos,
                                             floor, before[v], bonus[v, NCOL],
                                             (rest[v, NCOL], rest_j[v, NCOL]), scale1, twin[v],
                                             jokers_in[v, NCOL], admit, joker_cap,
                                             suffix_loss[v])
        else:
            n, table, bits, st = _colour_layer(table, bits, start, end, n0, st, c, v, ctx,
                                               must, opt, colour_bits, runs_at, slot_of,
                                               run_type, suffix_loss)
            fresh = admitted(st, end, n0, n, admit, old_bounds[-1, 0])
            stats[0] += fresh
            if stats.shape[0] > 2 + NCOL * v + c:  # (a trace: each layer's states)
                stats[2 + NCOL * v + c] = fresh
        start, end = end, n
        layer += 1
        bounds[layer, 0], bounds[layer, 1] = start, end
        if start == end:
            return NEG, st, table
        if c >= 0 and end - start > 1:
            dominance = _pruned(table, bits, start, n0, end, st, c, v, dominance, admit,
                                stats, (runs_at, slot_of, rest[v, c], later[v], scale1, scale2))
        if 0 < budget < stats[0] - at_start and layer < nnum * (NCOL + 1):
            cursor[0], cursor[1], cursor[2], cursor[3] = layer, start, end, bits
            return OVER, st, table
    best = final(st, start, end, must_j, floor, admit, scale2)
    if best < 0:
        return NEG, st, table
    walked(st, best, nnum, steps, held_out)
    return st[best, 3] - must_j * jw, st, table
