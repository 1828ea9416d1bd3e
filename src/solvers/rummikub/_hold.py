"""Least disturbance inside the DP: which table sets are held out, chosen number by number.

A table set is *held out* when it stays on the table exactly as it is: its tiles leave the
tiles the DP must place (``must``), and the score gains one point for it.  With the
objective's weights scaled above the number of table sets, the best score is the optimum
of the objective with, among its moves, the most table sets kept: a move that keeps a set
unchanged is one that holds it out and arranges the rest (the engine's
:mod:`engines.rummikub.least` builds the inputs and checks the answer).

Each table set occupies one bit of the state's held-out field (:data:`solvers.rummikub.
_layout.HOLD_BITS` bits, :func:`~solvers.rummikub._layout.hold_field`) from the first to
the last number it covers; sets that cover no common number share a bit (the engine
assigns the bits, an interval colouring).  At each number, before its colours, one layer
(:func:`hold_step`) decides for every set starting there whether it is held out; the
colour sub-steps then place only the tiles of the sets in play (:func:`held_state`), and
the closing sub-step keeps the bits of the sets that go on to the next number.  A held-out
set's jokers count as placed (they stay on the table); under official retrieval they also
stay at their places, so the number's jokers held out need no rack tile.

The kernel's inputs, ``hold`` = (``colour_bits[13, 4]``: the field bits of the sets with a
real tile of that colour at that number; ``going_on[13]``: the bits of the sets that also
cover the next number; ``joker_bits[13, HOLD_BITS + 1]``: per field bit, the number's table
jokers (as :func:`solvers.rummikub._dp._official_tables` numbers them) that set holds, and
last the field bits of the sets holding any;
``starting[13, HOLD_BITS]``: the field bits of the sets starting at the number, -1 after
the last; ``set_jokers[13, HOLD_BITS]``: their jokers; ``later[13]``: the sets starting
after the number;
``held_out[13]``: output, the subset of ``starting`` held out, as the replay found it;
``caps[14, 2]``: the most sets a state may hold out by each number, :func:`_most_held`,
all 0 for none; ``caps[13, 1]`` bit 0: also the fewest; ``twins[13, HOLD_BITS // 2]``:
:func:`twin_classes`, the field bits whose sets have the same future; ``skips``: the rack
tiles a state may still leave out, :func:`solvers.rummikub._skips.skip_table`: a hold layer
drops the states that cannot leave out the optimum's).

Sets with the same future (going on from a number with the same tiles and jokers at every
later number, to the same end: runs of one colour that end together, as R1-R5 and R3-R5
from number 4 on) are interchangeable: which of them a state holds out changes nothing
after the number, only how many.  The hold layer gives a state's field its canonical form
(the class's lowest bits, :func:`canonical_key`), so that the states differing only in which
of them they hold merge there (their completions are the same, with the same gains).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layers import make_room, obligations, obligations_pair, relax
from solvers.rummikub._layout import (
    HOLD_BITS,
    HOLD_KEY_MASK,
    JOKERS_AT,
    JOKERS_HIGH_AT,
    NEG,
    NNUM,
    hold_field,
    hold_key,
)
from solvers.rummikub._pairs import make_room as make_pair_room
from solvers.rummikub._pairs import relax as relax_pair
from solvers.rummikub._skips import may_leave_out, most_jokers


@njit(cache=True)
def held_state(variant, key):
    """For a colour sub-step: (tiles of this colour in the held-out sets, the held-out
    field's key bits, those bits once the number closes, the number's held-out table jokers);
    all 0 without least disturbance (``variant`` None, or its hold part empty)."""
    if variant is None:
        return 0, np.int64(0), np.int64(0), 0
    return held_parts(variant[5], variant[6], variant[7], key)


@njit(cache=True, inline="always")
def held_parts(colour_bits, going_on, joker_bits, key):
    """:func:`held_state` from the hold tables' entries of the sub-step's colour and
    number (``joker_bits`` empty: least disturbance off)."""
    if joker_bits.shape[0] == 0:
        return 0, np.int64(0), np.int64(0), 0
    field = hold_field(key)
    held = 0
    mine = field & colour_bits
    while mine:
        mine &= mine - 1
        held += 1
    jokers = 0
    rest = field & joker_bits[HOLD_BITS]  # (the sets holding table jokers at this number)
    for b in range(HOLD_BITS if rest else 0):
        if rest >> b & 1:
            jokers |= joker_bits[b]
    return held, key & HOLD_KEY_MASK, hold_key(field & going_on), jokers


@njit(cache=True)
def hold_inputs(hold, rem):
    """What :func:`solvers.rummikub._dp.solve_pass` needs of ``hold`` (None: least
    disturbance off): the colour bits, the bits going on, the joker bits (a row per number,
    empty when off) and the held-out output; adds to the rack bound ``rem[v, step]`` the
    sets starting after each number (each may still gain 1)."""
    if hold is None:
        return (np.zeros((NNUM, 4), np.int64), np.zeros(NNUM, np.int64),
                np.zeros((NNUM, 0), np.int64), np.zeros(0, np.int64))
    for v in range(NNUM):
        rem[v] += hold[5][v]
    return hold[0], hold[1], hold[2], hold[6]


@njit(cache=True, inline="always")
def _hold_setup(hold, v, bound):
    """The sets starting at number v+1 (field bits, their jokers, how many) and the bound
    once they are decided (only later sets may still gain)."""
    starting = hold[3][v]
    if v > 0:
        bound += hold[5][v] - hold[5][v - 1]
    count = 0
    while count < HOLD_BITS and starting[count] >= 0:
        count += 1
    return starting, hold[4][v], bound, count


@njit(cache=True, inline="always")
def _held_successor(key, subset, count, starting, set_jokers, sc, joker_weight):
    """State ``key`` (score ``sc``) holding out the ``subset`` of the starting sets: (its
    key less the jokers placed, the jokers placed, its score)."""
    field = hold_field(key)
    held_jokers = 0
    kept = 0
    for b in range(count):
        if subset >> b & 1:
            field |= 1 << starting[b]
            held_jokers += set_jokers[b]
            kept += 1
    nju = ((key >> JOKERS_AT) & 3) + held_jokers
    base = key & ~HOLD_KEY_MASK & ~(np.int64(3) << JOKERS_AT)
    return base | hold_key(field), nju, sc + kept + held_jokers * joker_weight


@njit(cache=True, error_model="numpy")
def hold_step(table, bits, start, end, keys, score, parent, choice, hold, v, joker_weight,
              jokers, floor, bound, beam, stats):
    """The layer before number v+1's colours: for every state ``start..end-1``, its
    successors holding out each subset of the sets starting there (``hold[3][v]``: field
    bits, -1 after the last; ``hold[4][v]``: their jokers).

    A held-out set gains 1 and its jokers count as placed (``joker_weight`` each);
    successors whose score plus the bound (all the rest could add: ``bound``, the rack
    bound after the previous number, less the sets starting here, which are decided now)
    and the jokers still free stay below ``floor`` are not stored; ``beam`` ranks the
    layer (:func:`keep_best`).  The choice is the subset (bit i: the i-th starting set).
    Returns ``(n, table, bits, keys, score, parent, choice, truncated)``; ``stats`` as
    :func:`solvers.rummikub._dp.solve_pass` counts.
    """
    starting, set_jokers, bound, count = _hold_setup(hold, v, bound)
    fanout = 1 << count
    jw_pos = max(0, joker_weight)
    most, least, scale = _most_held(hold[7], hold[5], v, floor)
    twins = hold[8][v]
    skips = hold[9]
    placeable = most_jokers(skips, jokers)
    n = end
    for i in range(start, end):
        key = keys[i]
        if key < 0 or not may_leave_out(skips, v, score[i], (key >> JOKERS_AT) & 3,
                                        joker_weight):  # (dominated, or the rack's wrong)
            continue
        if twins[0]:
            key = canonical_key(key, twins)
        table, bits, keys, score, parent, choice = make_room(
            table, bits, end, n, fanout, keys, score, parent, choice)
        for subset in range(fanout):
            nkey, nju, nsc = _held_successor(key, subset, count, starting, set_jokers,
                                             score[i], joker_weight)
            if nju > placeable or nsc + bound + (placeable - nju) * jw_pos < floor:
                continue
            if scale > 1 and not least <= nsc % scale <= most:  # (no caps: scale 1)
                continue
            n = relax(table, bits, end, n, keys, score, parent, choice,
                      nkey | (nju << JOKERS_AT), nsc, i, subset)
    stats[0] += n - end
    stats[1] = max(stats[1], n - end)
    return (n, table, bits, keys, score, parent, choice,
            keep_best(keys, score, end, n, beam, None, False))


@njit(cache=True, error_model="numpy")
def twin_classes(colour_bits, going_on, joker_bits):
    """``twins[v, k]``: the k-th class (a mask of field bits, 0 after the last) of at least
    two table sets going on into number v+1 whose futures are the same: at v+1 and every
    later number they cover, a real tile of the same colours, the same table jokers (as
    ``joker_bits`` numbers them) and both going on or both ending.  A state holding out
    some of a class may hold out as many others of it instead: the colour sub-steps and the
    closing read the field only through these masks (:func:`held_parts`), and the sets'
    bits are free again together, once they end."""
    twins = np.zeros((NNUM, HOLD_BITS // 2), np.int64)
    for v in range(1, NNUM):
        live = going_on[v - 1]
        seen = np.int64(0)
        k = 0
        for a in range(HOLD_BITS):
            if not live >> a & 1 or seen >> a & 1:
                continue
            members = np.int64(1) << a
            for b in range(a + 1, HOLD_BITS):
                if live >> b & 1 and not seen >> b & 1 and _same_future(
                        colour_bits, going_on, joker_bits, a, b, v):
                    members |= np.int64(1) << b
            seen |= members
            if members & (members - 1):
                twins[v, k] = members
                k += 1
    return twins


@njit(cache=True, inline="always")
def _same_future(colour_bits, going_on, joker_bits, a, b, v):
    """Whether the sets of field bits ``a`` and ``b``, both going on into number v+1, have
    the same tiles from there to their end (which is then the same)."""
    for u in range(v, NNUM):
        for c in range(colour_bits.shape[1]):
            if (colour_bits[u, c] >> a & 1) != (colour_bits[u, c] >> b & 1):
                return False
        if joker_bits[u, a] != joker_bits[u, b]:
            return False
        if (joker_bits[u, HOLD_BITS] >> a & 1) != (joker_bits[u, HOLD_BITS] >> b & 1):
            return False
        if (going_on[u] >> a & 1) != (going_on[u] >> b & 1):
            return False
        if not going_on[u] >> a & 1:
            break
    return True


@njit(cache=True, inline="always")
def canonical_key(key, twins):
    """State ``key`` with the held-out field's bits of each class of ``twins``
    (:func:`twin_classes` of the number) moved to the class's lowest bits."""
    field = hold_field(key)
    for k in range(twins.shape[0]):
        members = twins[k]
        if members == 0:
            break
        held = field & members
        if held == 0 or held == members:
            continue
        low = np.int64(0)
        rest = members
        while held:
            held &= held - 1
            low |= rest & -rest
            rest &= rest - 1
        field = field & ~members | low
    return key & ~HOLD_KEY_MASK | hold_key(field)


@njit(cache=True, inline="always")
def _most_held(caps, later, v, floor):
    """The most and the fewest sets starting at numbers 1..v+1 a state may hold out and
    still reach ``floor`` (its sets kept: the floor modulo the scale ``caps[13, 0]``), and
    the scale (1 and no limits when the scale is 0: no caps).

    The most, by the caps of :func:`solvers.rummikub._bound.later_bounds`: ``caps[v, 0]``
    the most an optimal move keeps, ``caps[v, 1]`` the most of their double plus the later
    sets kept (a state holding h keeps at most ``caps[v, 1] - h`` in all).  The fewest,
    where ``caps[13, 1]`` asks for it (else no limit): the floor's sets less ``later[v]``,
    the most of the sets starting after v+1 an optimal move keeps.  Every move reaching
    the floor is optimal for the objective (the floor's objective part is the optimum),
    so it must keep the floor's sets *apart* from the objective's slack: the score's bound
    alone lets a state that played fewer rack tiles than it could so far drop any number
    of sets (rkbound)."""
    scale = caps[NNUM, 0]
    if scale <= 0:
        return np.int64(1) << 40, -(np.int64(1) << 40), np.int64(1)
    want = floor % scale
    least = want - later[v] if caps[NNUM, 1] & 1 else -(np.int64(1) << 40)
    return min(caps[v, 0], caps[v, 1] - want), least, scale


@njit(cache=True, error_model="numpy")
def hold_pairs(table, bits, start, end, k1s, k2s, score, parent, choice, hold, v,
               joker_weight, jokers, floor, bound, beam, stats):
    """:func:`hold_step` for meld then continue (:mod:`solvers.rummikub._continue`): the
    states are pairs of keys, and the sets held out are the final arrangement's (the
    first word's; the meld's word is the rack's own sets).  Returns ``(n, table, bits,
    k1s, k2s, score, parent, choice, truncated)``."""
    starting, set_jokers, bound, count = _hold_setup(hold, v, bound)
    fanout = 1 << count
    jw_pos = max(0, joker_weight)
    most, least, scale = _most_held(hold[7], hold[5], v, floor)
    twins = hold[8][v]
    quad = jokers > 3  # four jokers: the third bit in the second word (_layout)
    skips = hold[9]
    placeable = most_jokers(skips, jokers)
    n = end
    for i in range(start, end):
        key = k1s[i]
        if key < 0:  # cut by a narrow pass
            continue
        k2 = k2s[i]
        high = ((k2 >> JOKERS_HIGH_AT) & 1) << 2 if quad else 0
        if not may_leave_out(skips, v, score[i], ((key >> JOKERS_AT) & 3) + high,
                             joker_weight):
            continue
        if twins[0]:
            key = canonical_key(key, twins)
        table, bits, k1s, k2s, score, parent, choice = make_pair_room(
            table, bits, end, n, fanout, k1s, k2s, score, parent, choice)
        k2_rest = k2 & ~(np.int64(1) << JOKERS_HIGH_AT) if quad else k2
        for subset in range(fanout):
            nkey, nju, nsc = _held_successor(key, subset, count, starting, set_jokers,
                                             score[i], joker_weight)
            nju += high
            if nju > placeable or nsc + bound + (placeable - nju) * jw_pos < floor:
                continue
            if scale > 1 and not least <= nsc % scale <= most:  # (no caps: scale 1)
                continue
            nk2 = k2
            if quad:
                nk2 = k2_rest | (nju >> 2) << JOKERS_HIGH_AT
                nju &= 3
            n = relax_pair(table, bits, end, n, k1s, k2s, score, parent, choice,
                           nkey | (nju << JOKERS_AT), nk2, nsc, i, subset)
    stats[0] += n - end
    stats[1] = max(stats[1], n - end)
    cut = keep_best(k1s, score, end, n, beam, None, False)
    return n, table, bits, k1s, k2s, score, parent, choice, cut


# A held-out pass's ``beam``: a narrow pass's states per layer in the low bits, the
# score's scale above, and an exact pass's budget of states (in units of 1,024) from
# :data:`BUDGET_AT` on.
WIDTH_BITS = 20
BUDGET_AT = 40
BUDGET_UNIT = 1024


@njit(cache=True)
def keep_best(keys, score, start, end, beam, keys2, copies3):
    """Keep ``width`` states of a layer (``abs(beam)``'s low :data:`WIDTH_BITS` bits): a
    positive ``beam`` the most sets held out so far, the fewest obligations first among
    equals; a negative one the fewest obligations, the most sets held out first among
    equals; 0 all; equal states in their order.  Returns 1 if it dropped any live state.

    A budget (``abs(beam) >> BUDGET_AT``, in :data:`BUDGET_UNIT` states) stops the pass
    once its layers hold more states (indices only grow, so ``end`` counts them): the
    layer is dropped, so the pass ends without an answer, truncated.

    The sets held out so far are the score modulo its scale (``abs(beam)``'s higher bits;
    without one, the score itself): ranked by the whole score, a state that placed its
    jokers early would come first (measured: 7.3 M -> 5.7 M states over 90 positions of
    the 40J/60J/80J bands, seeds 1-2).  One priority per state and a selection
    (``np.partition``), not a sort: the same states as sorting by that rank, then by
    priority (stable), at a fraction of the cost.  ``keys2``: None, or the states' second
    words (:func:`solvers.rummikub._layers.obligations_pair`, with ``copies3``)."""
    budget = (abs(beam) >> BUDGET_AT) * BUDGET_UNIT
    if budget > 0 and end > budget:
        keys[start:end] = -1
        return 1
    flexible = beam < 0
    scale = (abs(beam) >> WIDTH_BITS) & ((1 << (BUDGET_AT - WIDTH_BITS)) - 1)
    width = abs(beam) & ((1 << WIDTH_BITS) - 1)
    if width == 0 or end - start <= width:
        return 0
    rank = score[start:end].copy()
    if scale > 0:
        rank %= scale
    top = NEG
    low = -NEG
    live = 0
    for r in range(end - start):
        if keys[start + r] >= 0:
            live += 1
            top = max(top, rank[r])
            low = min(low, rank[r])
    if live <= width:
        return 0
    span = top - low + 1
    pri = np.empty(end - start, np.int64)
    for r in range(end - start):
        key = keys[start + r]
        if key < 0:
            pri[r] = np.int64(1) << 62
            continue
        if keys2 is None:
            owed = obligations(key)
        else:
            owed = obligations_pair(key, keys2[start + r], copies3)
        if flexible:
            pri[r] = owed * span + (top - rank[r])
        else:
            pri[r] = (top - rank[r]) * 256 + owed
    cut = np.partition(pri, width - 1)[width - 1]
    room = width
    for r in range(end - start):
        room -= pri[r] < cut
    for r in range(end - start):
        if pri[r] > cut:
            keys[start + r] = -1
        elif pri[r] == cut:
            if room > 0:
                room -= 1
            else:
                keys[start + r] = -1
    return 1
