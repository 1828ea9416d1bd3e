"""One pass of the exact best-move dynamic programme over the numbers 1..13.

Design (after van Rijn, Takes & Vis 2015, extended to jokers and the initial meld): the
state between number v-1 and v records, per colour, the open runs ending at v-1 by length
(1, 2, >= 3), the jokers placed so far and, in initial-meld mode, the meld value so far
capped at the threshold (layout: :mod:`solvers.rummikub._layout`).

Two real tiles per set (a house rule): only the runs that hold a joker and fewer than two
real tiles can break the rule, and there are at most as many as jokers.  They leave the
colour codes and are listed apart (colour and kind: one joker; a joker and a real tile;
two jokers; two jokers and a real tile; with three jokers also three jokers alone, the list's
third slot in the second key word: :mod:`solvers.rummikub._real2`), so the transition
chooses which runs take this number's jokers, those runs must continue (with a real tile
where the kind needs it), and the final state lists none.  Groups need only their
feasibility table (:func:`solvers.rummikub._groups.group_tables`).  A highest number below
13 ends the pass there.  Each number is processed colour by colour, fewest choices first
(sub-steps that also carry how many colours gave one or two tiles to groups); the last
colour's sub-step also chooses the jokers joining groups, checks group feasibility and
closes the number (short runs that cannot continue kill the state, long runs that cannot be
extended end).  Every sub-step is a layer of states (:mod:`solvers.rummikub._layers`) with
one parent pointer and one choice per state, so the optimal arrangement is replayed
afterwards.

Inputs are clean integer arrays (the engine validates text):

- ``must[c, v-1]``: tiles of colour c and number v that must be placed (table tiles);
- ``opt[c, v-1]``: tiles that may be placed (rack tiles); ``must + opt <= 2``;
- ``must_j``/``opt_j``: jokers that must / may be placed;
- ``weight[c, v-1]``: gain per optional tile placed; ``joker_weight``: gain per joker
  beyond ``must_j`` placed;
- ``meld``: 0 once melded, else the initial-meld mode (:func:`solvers.rummikub._layout.
  meld_mode`: everything placed must be worth the threshold, jokers counted or not).

Outputs: status (1 solved, 0 no feasible arrangement), the best score (sum of the gains),
and the choice per colour and number ``choice[c, v-1] = (real run tiles, real group tiles,
run jokers)`` plus ``group_jokers[v-1]``.  :mod:`solvers.rummikub._exact` runs this pass
up to four times with score targets to find the optimum fastest.

This module is longer than the project's 600 lines since two real tiles per set with four
jokers (:mod:`solvers.rummikub._real2_four`) added its branch to the sub-step, whose loop
nest stays in one function (:func:`_sub_step` says why); its imports could move with a
split of the variants' reading of the key (due).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._frame import (
    CHOICE_BASE,
    best_final,
    colour_order,
    prune_layer,
    replay,
    step_choice,
)
from solvers.rummikub._groups import groups_within
from solvers.rummikub._hold import held_state, hold_inputs, hold_pairs, hold_step
from solvers.rummikub._layers import make_room, relax
from solvers.rummikub._layout import (
    JOKERS_AT,
    JOKERS_HIGH_AT,
    MELD_AT,
    MELD_MASK,
    N1_AT,
    N2_AT,
    N3_AT,
    N4_AT,
    NCOL,
    NEED_AT,
    NEG,
    REAL2_BIT,
    RISKY_AT,
    SHORT_AT,
    SHORT_HIGH_AT,
    code_at,
    code_bits,
    code_high,
    copies,
    highest_number,
    joker_meld_factor,
    meld_target,
    min_set_length,
    second_word,
)
from solvers.rummikub._lengths import (
    bare_step,
    class_dominators,
    close_others,
    closing_tables,
    length_closing,
    length_step,
    length_tables,
    triple_step,
)
from solvers.rummikub._official import cover as _cover
from solvers.rummikub._official import cover_key as _cover_key
from solvers.rummikub._official import cover_key2 as _cover_key2
from solvers.rummikub._official import cover_of as _cover_of
from solvers.rummikub._official import jokers_owed_ahead as _jokers_owed_ahead
from solvers.rummikub._official import official_tables as _official_tables
from solvers.rummikub._pairs import make_room as make_pair_room
from solvers.rummikub._pairs import relax as relax_pair
from solvers.rummikub._real2 import (
    COMBO3_FIRST,
    COMBO3_ORDER,
    COMBO_FIRST,
    joker_runs,
    joker_runs3,
    list4_bits,
    long_joker_runs,
    long_joker_runs3,
    short_kinds,
    short_kinds3,
    short_kinds4,
    short_list4,
)
from solvers.rummikub._real2_dominance import drop_dominated_layer
from solvers.rummikub._real2_four import (
    COMBO4_CODES,
    COMBO4_FIRST,
    COMBO4_MOST,
    combo4_picks,
    long_joker_runs4,
)
from solvers.rummikub._resume import first_layer, no_kept, stopped
from solvers.rummikub._risky import FIELD_MASK, OPTIONS, drop_listed, risky_close, risky_step


@njit(cache=True, error_model="numpy")
def _sub_step(table, bits, start, end, keys, score, parent, choice, step_info, weight_cv,
              joker_weight, floor, meld, any_ok, group_ok, capc, needc, other, variant, second,
              long_codes):
    """Add every successor of the states ``start..end-1`` at this sub-step.

    ``step_info`` = (colour, v, step, must, must + opt, real tiles at number+1 and number+2,
    what the last colour can give to groups, the rack bound after this sub-step, jokers,
    the positive part of the joker weight).  Returns ``(n, table, bits, keys, score, parent,
    choice, second)``: the new layer is ``end..n-1`` (the arrays may have grown);
    ``second``: None, or the states' second key words (:mod:`solvers.rummikub._layout`);
    ``long_codes``: None, or the scratch of :func:`solvers.rummikub._real2.long_joker_runs`.

    The whole loop nest of a sub-step stays in this one function (so it is longer than
    the project's 100 lines): split into functions (even with Numba's ``inline="always"``)
    it measured 1.3-1.8 times slower.  Re-measured with only the last colour's group-joker
    loop moved out: 1.19-1.25 times the CPU time with ``inline="always"``, 1.22-1.74
    without (200 positions of the 60- and 80-tile bench bands, one thread, best of 15).
    """
    c, v, step, lo, hi, real_next, real_next2, last_max, rem_after, jokers, jw_pos = step_info
    jb = 3  # the radix of the joker digits in a choice (constant in the default specialisation)
    cb = 3  # and of its real tiles' digits (copies + 1 with three or four copies)
    copies3 = False  # three copies: a colour may give three tiles to groups (n3 at N3_AT)
    copies4 = False  # four copies: ... and four (n4 at N4_AT)
    # four jokers: the runs of jokers alone that could make a set listed in the second word
    # (solvers.rummikub._risky), with the jokers placed' third bit
    quad = False
    # ``variant`` is None under the rules document's sets and joker retrieval: Numba then
    # compiles this function without the house rules' code (a second specialisation takes
    # the tuple), so the default pays nothing for them.  Official retrieval: the table
    # jokers of this number and what accounts for them; two real tiles per set: ``real2``.
    cover_full = cover_tile = cover_run = cover_group = 0
    # official retrieval: the jokers the later numbers' places owe (_official.jokers_owed_ahead)
    owed_ahead = 0
    real2 = 0
    triple = False  # three jokers: the run of all three alone tracked (_lengths.triple_step)
    # Sets of 6+ (the only users of the second key word): codes past 127, their high bits
    # in the second word (``second is None`` is decided when Numba compiles, as ``variant``)
    wide = False
    keys2 = second
    if second is not None:
        wide = min_set_length(meld) > 5
        quad = jokers > 3
    # Two real tiles per set over length-class codes (``long_codes`` is None unless the pass
    # has them, decided when Numba compiles as ``second``): least disturbance's passes (this
    # function's house-rules specialisation under the rules document's sets) pay nothing
    long_real2 = False
    if variant is not None:
        off_tile, off_run, off_group, off_full, real2 = variant[:5]
        digits, binom, real_all = variant[8:11]  # sets of 4+ tiles (empty: sets of 3)
        long_sets = digits.shape[0] > 0
        if long_codes is not None:
            long_real2 = real2 != 0 and long_sets
        # sets of two tiles: runs of jokers alone tracked (two real tiles per set: listed)
        pairs = digits.shape[1] == 2 and not real2
        cover_full = off_full[v]
        cover_tile = off_tile[v, c]
        cover_run = off_run[v, c]
        cover_group = off_group[v]
        owed_ahead = variant[12][v]
        jb = max(3, jokers + 1)  # (three jokers: digits 0..3)
        triple = jokers > 2 and not quad and not real2
        copies3 = variant[11] > 2
        copies4 = variant[11] > 3
        cb = max(3, variant[11] + 1)
    last = step == NCOL - 1
    number = v + 1
    melding = meld & 3
    nnum = highest_number(meld)
    target = meld_target(meld) if melding else 0
    jfac = joker_meld_factor(meld) if melding else 0
    # The most states one parent can add: room in the arrays and the hash table is made per
    # parent, which keeps the checks (and the arrays that a growth replaces) out of the
    # innermost loops (about 10% faster).
    fanout = ((hi - lo + 1) * cb * (jokers + 1) * (jokers + 1 if last else 1)
              * (OPTIONS if quad and not real2 else 1)
              * ((COMBO4_MOST if quad else 15) if real2 else 1))
    other_need = 0
    new = k3 = avail = 0
    n = end
    for i in range(start, end):
        key = keys[i]
        if key < 0:  # dominated
            continue
        key2 = np.int64(0)
        if second is None:
            table, bits, keys, score, parent, choice = make_room(
                table, bits, end, n, fanout, keys, score, parent, choice)
        else:
            key2 = keys2[i]
            table, bits, keys, keys2, score, parent, choice = make_pair_room(
                table, bits, end, n, fanout, keys, keys2, score, parent, choice)
        if last:
            other_need, alive = close_others(key, key2, c, jokers, capc, needc, other, wide)
            if not alive:  # another colour's short runs cannot continue
                continue
        sc = score[i]
        ju = (key >> JOKERS_AT) & 3
        risky0 = q_cont = q_new = q_k3 = np.int64(0)
        if quad:
            ju |= ((key2 >> JOKERS_HIGH_AT) & 1) << 2
            risky0 = (key2 >> RISKY_AT) & FIELD_MASK
        mv = (key >> MELD_AT) & MELD_MASK if melding else 0
        held, hold_now, hold_closed, held_jokers = held_state(variant, key)  # least disturbance
        lo_s, hi_s = lo - held, hi - held
        need0 = (key >> NEED_AT) & 3
        code = code_at(key, key2, c, wide)
        a1 = code % 5
        a2 = (code // 5) % 5
        a3 = code // 25
        n1 = (key >> N1_AT) & 7
        n2 = (key >> N2_AT) & 7
        n3 = (key >> N3_AT) & 7 if copies3 else 0
        n4 = (key >> N4_AT) & 7 if copies4 else 0
        # keep the other colours' codes only (sets of 6+: their high bits too)
        base = key & np.int64((1 << JOKERS_AT) - 1) & ~code_bits(127, c)
        base2 = key2 & ~code_high(4095, c) if wide else np.int64(0)
        # two real tiles per set: this colour's joker runs by kind, the other colours' kept
        e10 = e21 = e20 = e31 = e30 = keep = 0
        if real2:
            if second is None:
                e10, e21, e20, e31, keep = short_kinds((key >> SHORT_AT) & 1023, c)
            elif quad:  # (four jokers: the whole list in word B, four slots)
                e10, e21, e20, e31, e30, keep = short_kinds4(short_list4(key2), c)
            elif copies3:  # (three copies: n3 is at N3_AT, the whole list in word B)
                e10, e21, e20, e31, e30, keep = short_kinds3((key2 >> SHORT_HIGH_AT) & 32767, c)
            else:  # (three jokers: the list's third slot in the second word)
                e10, e21, e20, e31, e30, keep = short_kinds3(
                    (key >> SHORT_AT) & 1023 | ((key2 >> SHORT_HIGH_AT) & 31) << 10, c)
        md = e10 + e21 + e20 + e31 + e30
        cover0 = _cover_of(key, key2, cover_full, second) if cover_full else 0
        bare = short0 = np.int64(0)
        if variant is not None:  # runs of jokers alone: _lengths.bare_step, triple_step
            if pairs:
                bare = (key >> SHORT_AT) & 255
            elif triple:
                bare = (key >> SHORT_AT) & 15
        for u in range(lo_s, hi_s + 1):
            gain_u = sc + (u - lo_s) * weight_cv
            # Bound: this number's choice, all later rack tiles and every joker left (jokers
            # placed now move from the last term to the first).
            if gain_u + rem_after + (jokers - ju) * jw_pos < floor:
                continue
            for ug in range(u + 1 if not wide else 1):  # (sets of 6+: no groups)
                ur = u - ug
                m1 = n1 + (1 if ug == 1 else 0)
                m2 = n2 + (1 if ug == 2 else 0)
                m3 = n3 + (1 if copies3 and ug == 3 else 0)
                m4 = n4 + (1 if copies4 and ug == 4 else 0)
                g2 = m2 + 5 * m3 + 25 * m4  # the group tables' second axis
                for jr in range(jokers - ju + 1):
                    jl = jokers - ju - jr
                    if jl < owed_ahead:  # (the later places would lack jokers)
                        continue
                    # Drop profiles whose groups can no longer be completed.
                    if last:
                        if not any_ok[m1, g2, jl]:
                            continue
                    elif step == NCOL - 2 and not (
                        any_ok[m1, g2, jl]
                        or (last_max >= 1 and any_ok[m1 + 1, g2, jl])
                        or (last_max >= 2 and any_ok[m1, g2 + 1, jl])
                        or (copies3 and last_max >= 3 and any_ok[m1, g2 + 5, jl])
                        or (copies4 and last_max >= 4 and any_ok[m1, g2 + 25, jl])
                    ):
                        continue
                    t = ur + jr
                    ncode = -1
                    # (``variant is not None`` is decided when Numba compiles: the default
                    # specialisation has no trace of the longer sets' code)
                    if variant is not None:
                        if long_real2:  # (the code: per joker combination)
                            ncode, need = 0, need0
                        elif long_sets:  # sets of 2, or 4+ tiles at least
                            ncode, need = length_step(code, t, jl, real_all, c, v, nnum,
                                                      digits, binom)
                            need += need0
                            if ncode < 0 or need > jl:
                                continue
                            if quad:
                                q_k3 = min(digits[code, 2], t - digits[code, 0] - digits[code, 1])
                                q_cont = digits[code, 0] + digits[code, 1] + q_k3
                                q_new = t - q_cont
                            if pairs:
                                short0 = bare_step(bare, code, t, ur, c, v, nnum, real_all,
                                                   digits)
                                if short0 < 0:
                                    continue
                                short0 <<= SHORT_AT
                            elif triple:  # (sets of 3: six or seven runs a colour)
                                k3 = min(digits[code, 2], t - digits[code, 0] - digits[code, 1])
                                short0 = triple_step(bare, c, ju, ur, jr, t - k3 - digits[
                                    code, 0] - digits[code, 1], k3)
                                if short0 < 0:
                                    continue
                                short0 <<= SHORT_AT
                    if ncode < 0:
                        if t < a1 + a2 + md:
                            continue
                        k3 = min(a3, t - a1 - a2 - md)
                        new = t - a1 - a2 - md - k3
                        # Early cap/prune with the jokers still free now (repeated when the
                        # number closes, once its jokers are known).
                        avail = jl + real_next
                        if v + 1 >= nnum:
                            avail = 0
                        if new + a1 > avail:
                            continue
                        # Short runs beyond the real tiles of number+1 need one joker each,
                        # summed over the colours done so far; runs opened at `number` need a
                        # tile at number+2 as well.
                        need = need0 + max(0, new + a1 - real_next)
                        if new > 0 and (v + 2 >= nnum or new > real_next2 + jl):
                            continue
                        need += max(0, new - real_next2)
                        if need > jl:
                            continue
                        ncode = new + 5 * a1 + 25 * min(a2 + k3, avail - new - a1)
                        if triple:
                            short0 = triple_step(bare, c, ju, ur, jr, new, k3)
                            if short0 < 0:
                                continue
                            short0 <<= SHORT_AT
                    nmv = mv
                    if melding:
                        nmv = min(target, mv + number * (u + jr * jfac))
                    nsc = gain_u + jr * joker_weight
                    ch0 = step_choice(ur, ug, jr, cb, jb)
                    cover = 0
                    if cover_full:
                        cover = _cover(_cover(cover0, cover_tile, u - lo_s), cover_run, jr)
                    first = COMBO_FIRST[jr] if real2 and jr < 3 else 0
                    stop = COMBO_FIRST[jr + 1] if real2 and jr < 3 else (OPTIONS if quad else 1)
                    # (three jokers: their combinations in order, four: :mod:`solvers.
                    # rummikub._real2_four`'s; ``second is not None`` alone, as Numba prunes
                    # it, so the one-word passes have no trace of it)
                    picks = np.int64(-1)  # (four jokers: those listed_step may keep)
                    if second is not None:
                        if real2 and quad:
                            first, stop = COMBO4_FIRST[jr], COMBO4_FIRST[jr + 1]
                            picks = combo4_picks(jr, t, code, e10, e21, e20, e31, e30, digits)
                        elif real2 and (copies3 or not long_real2):
                            first, stop = COMBO3_FIRST[jr], COMBO3_FIRST[jr + 1]
                    for pick in range(first, stop):
                        if not (picks >> (pick - first)) & 1:
                            continue
                        combo = pick
                        short = short0
                        short2 = np.int64(0)  # (three jokers: the list's third slot)
                        tc = 0
                        need_c = need
                        if long_real2:
                            extra = 0
                            # (three or four copies, or four jokers: numbered codes, the
                            # list in word B; ``second is not None`` alone, pruned when Numba
                            # compiles)
                            if quad or copies3:
                                if second is not None:
                                    if quad:
                                        combo = COMBO4_CODES[pick]
                                        ncode, short, extra = long_joker_runs4(
                                            pick, jr, t, code, e10, e21, e20, e31, e30, keep,
                                            c, jl, real_all, v, nnum, digits, binom, long_codes)
                                    else:
                                        combo = COMBO3_ORDER[pick]
                                        ncode, short, extra = long_joker_runs3(
                                            combo, jr, t, code, e10, e21, e20, e31, e30, keep,
                                            c, jl, real_all, v, nnum, digits, binom, long_codes)
                                    if short >= 0:  # (three copies: three slots, the fourth 0)
                                        short2 = list4_bits(short)
                                        short = 0
                            elif long_codes is not None:  # (always here)
                                ncode, short, extra = long_joker_runs(
                                    combo, jr, t, code, e10, e21, e20, e31, keep, c, jl,
                                    real_all, v, nnum, digits, binom, long_codes)
                            need_c += extra
                            if short < 0 or need_c > jl:
                                continue
                        elif real2:
                            if second is None:
                                ncode, short = joker_runs(combo, jr, new, a1, a2, k3, e10, e21,
                                                          e20, e31, keep, c, avail)
                            else:
                                combo = COMBO3_ORDER[pick]
                                ncode, short = joker_runs3(combo, jr, new, a1, a2, k3, e10, e21,
                                                           e20, e31, e30, keep, c, avail)
                                if short < 0:
                                    continue
                                if copies3:
                                    short2 = short << SHORT_HIGH_AT
                                    short = 0
                                else:
                                    short2 = (short >> 10) << SHORT_HIGH_AT
                                    short &= 1023
                            if short < 0:
                                continue
                        if real2:
                            short <<= SHORT_AT
                            tc = CHOICE_BASE * (combo + 1)
                        risk = np.int64(0)
                        if quad and not real2:  # (two real tiles: the list holds them)
                            risk = risky_step(risky0, c, combo, jr, q_cont, q_new, q_k3, jl)
                            if risk < 0:
                                continue
                        if last:
                            # Last colour: choose the group jokers and close the number at once
                            # (the widest layer is never stored).  Runs of length 1-2 must
                            # continue at number+1 (else the state dies); runs of length >= 3
                            # beyond what number+1 can extend end.
                            for jg in range(jl - owed_ahead + 1):
                                if group_ok[m1, g2, jg] == 0:
                                    continue
                                if cover_full and not (_cover(cover, cover_group, jg) << 1 | 1) >> (
                                        cover_full & ~held_jokers) & 1:
                                    continue  # a table joker left its place unreplaced
                                k = jl - jg
                                rest = other[k]
                                rest2 = other[k + jokers + 1] if wide else np.int64(0)
                                cl = capc[c, ncode, k]
                                if rest < 0 or cl < 0 or other_need + needc[c, ncode] > k:
                                    continue
                                gmv = nmv
                                if melding:
                                    gmv = min(target, nmv + number * jg * jfac)
                                placed = jokers - k
                                quad2 = np.int64(0)
                                if quad:
                                    quad2 = (risky_close(risk, k) << RISKY_AT
                                             | (placed >> 2) << JOKERS_HIGH_AT)
                                    placed &= 3
                                nkey = (rest | code_bits(cl, c, wide)
                                        | (placed << JOKERS_AT) | (gmv << MELD_AT)
                                        | (0 if triple and jg else short) | hold_closed)
                                if second is None:
                                    n = relax(table, bits, end, n, keys, score, parent, choice,
                                              nkey, nsc + jg * joker_weight, i, ch0 * jb + jg + tc)
                                else:
                                    n = relax_pair(table, bits, end, n, keys, keys2, score,
                                                   parent, choice, nkey,
                                                   rest2 | code_high(cl, c) | quad2 | short2,
                                                   nsc + jg * joker_weight, i, ch0 * jb + jg + tc)
                            continue
                        placed = ju + jr
                        quad2 = np.int64(0)
                        if quad:  # (need: 3 stands for 3 or 4, a bound the closing checks)
                            quad2 = risk << RISKY_AT | (placed >> 2) << JOKERS_HIGH_AT
                            placed &= 3
                            need_c = min(need_c, 3)
                        nkey = (base | code_bits(ncode, c, wide) | (placed << JOKERS_AT)
                                | (m1 << N1_AT) | (m2 << N2_AT) | (nmv << MELD_AT)
                                | (need_c << NEED_AT) | short | _cover_key(cover, second) | hold_now
                                | (m3 << N3_AT) | (m4 << N4_AT))
                        if second is None:
                            n = relax(table, bits, end, n, keys, score, parent, choice, nkey, nsc,
                                      i, ch0 + tc)
                        else:
                            n = relax_pair(table, bits, end, n, keys, keys2, score, parent, choice,
                                           nkey, base2 | code_high(ncode, c) | quad2 | short2
                                           | _cover_key2(cover), nsc, i, ch0 + tc)
    return n, table, bits, keys, score, parent, choice, keys2


# (inlined into its callers: a branch to three specialisations of _pass, which a kernel of
# its own would link and optimise again: solvers.rummikub._one_pass.solve_pass says why)
@njit(cache=True, error_model="numpy", inline="always")
def solve_pass(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    floor, beam, hold=None, budget=0, variants=True,
):
    """One pass: fills ``choice_out[4, 13, 4]``, ``gj_out[13]``, ``stats[2]``.

    Returns ``(status, score, truncated)``; ``stats`` receives (states visited, widest layer).

    ``floor`` (a raw score, table jokers' gain included): transitions whose score plus
    everything the rest of the rack could still add stays below it are not stored; the
    optimum survives whenever it reaches ``floor``.  ``beam > 0`` keeps only the ``beam``
    best-scored states of each layer (a heuristic pass: its answer is a legal arrangement,
    optimal when ``truncated`` is 0); ``beam < 0`` keeps the ``-beam`` states with the
    fewest obligations (:func:`solvers.rummikub._layers.keep_flexible`), a quick search for
    an arrangement that reaches ``floor``.  ``hold``: least disturbance (there ``beam``
    ranks states as :func:`solvers.rummikub._hold.keep_best` does).  ``budget > 0``: the
    pass gives up (status -1) once it has stored more states than that.  ``variants``:
    None where the rules never need the wider states (:func:`solvers.rummikub._layout.
    plain_states`), so that Numba compiles none of their passes.
    """
    return resumable_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                          choice_out, gj_out, stats, floor, beam, hold, budget, no_kept(),
                          variants)[:3]


@njit(cache=True, error_model="numpy", inline="always")
def resumable_pass(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    floor, beam, hold, budget, kept, variants=True,
):
    """:func:`solve_pass` going on from the pass in ``kept`` (:mod:`solvers.rummikub._resume`;
    not with ``hold``), cut before at a smaller budget and the same ``floor``.  Returns
    ``(status, score, truncated, kept)``, ``kept`` holding the pass where the budget cut
    it.  ``variants`` None: the rules' states are one key word without length classes
    (:func:`solvers.rummikub._layout.plain_states`; the wider passes are not compiled)."""
    # the longer sets' class tables (empty under sets of 3 with at most five runs a colour)
    lengths = length_tables(min_set_length(meld), copies(meld) + max(2, must_j + opt_j))
    classes = lengths[0].shape[1]
    budget = np.int64(budget)  # (one type whether a caller passes it or not)
    # (Numba compiles every branch here into each caller, whether its rules can take it or
    # not; so _pass passes None, not its second words, to the default _sub_step: the
    # two-word _pass compiles that call too, never taken, and would compile a _sub_step
    # for it)
    if variants is not None:  # (None: Numba compiles none of the wider passes)
        if second_word(meld, must_j + opt_j):  # (two key words a state: solvers.rummikub._layout)
            return _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                         choice_out, gj_out, stats, floor, beam, hold, np.zeros(1, np.int64),
                         np.zeros(classes, np.int64), lengths, budget, kept)
        if (meld >> REAL2_BIT) & 1 and lengths[0].shape[0]:  # two real tiles, length classes
            return _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                         choice_out, gj_out, stats, floor, beam, hold, None,
                         np.zeros(classes, np.int64), lengths, budget, kept)
    return _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                 gj_out, stats, floor, beam, hold, None, None, lengths, budget, kept)


@njit(cache=True, error_model="numpy")
def _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
          stats, floor, beam, hold, second, long_codes, lengths, budget, kept):
    """:func:`resumable_pass`; ``second``: None, or an array when the states have a second
    key word; ``long_codes``: None, or the scratch of two real tiles per set over length
    classes (Numba compiles each apart, so a pass without them has no trace of them);
    ``lengths``: :func:`solvers.rummikub._lengths.length_tables`."""
    jokers = must_j + opt_j
    any_ok = groups_within(group_ok)
    table, bits, keys, score, parent, choice, keys2, at = first_layer(second, kept, stats, floor)
    v0, step0, start, end, layer, truncated = at
    order, rem = colour_order(must, opt, weight)
    jw_pos = max(0, joker_weight)
    nnum = highest_number(meld)
    off_tile, off_run, off_group, off_full = _official_tables(meld)
    # (least disturbance's held-out table jokers count as placed and owe nothing: not there)
    owed_ahead = (_jokers_owed_ahead(off_tile, off_run, off_group, opt) if hold is None
                  else np.zeros_like(off_full))
    real2 = (meld >> REAL2_BIT) & 1
    colour_bits, going_on, joker_bits, held_out = hold_inputs(hold, rem)
    cps = copies(meld)
    digits, binom = lengths
    dominators = class_dominators(digits, binom, not real2)
    # the tables that close a number (up to 2,380 codes with sets of 13) and the other
    # colours' closed codes (codes past 127: their second-word bits too)
    ncodes = max(128, digits.shape[0])
    capc = np.full((NCOL, ncodes, max(3, jokers + 1)), -1, np.int64)
    needc = np.zeros((NCOL, ncodes), np.int64)
    other = np.zeros(max(3, jokers + 1) * (2 if ncodes > 128 else 1), np.int64)
    real_all = must + opt
    use_variant = (real2 or off_full.any() or hold is not None or digits.shape[0] > 0
                   or jokers > 2 or cps > 2)
    for v in range(v0, nnum):
        if hold is not None:  # (no state left: the colours' loop returns; kept: none)
            layer += 1
            bound = rem[v - 1, NCOL - 1] if v else -NEG
            if second is None:
                n, table, bits, keys, score, parent, choice, cut = hold_step(
                    table, bits, start, end, keys, score, parent, choice, hold, v,
                    joker_weight, jokers, floor, bound, beam, stats)
            else:
                n, table, bits, keys, keys2, score, parent, choice, cut = hold_pairs(
                    table, bits, start, end, keys, keys2, score, parent, choice, hold, v,
                    joker_weight, jokers, floor, bound, beam, stats)
            truncated, start, end = truncated | cut, end, n
        for step in range(step0 if v == v0 else 0, NCOL):
            if end == start or 0 < budget < stats[0]:  # (no state left; the budget spent)
                return (0 if end == start else -1), NEG, truncated, stopped(
                    end > start, stats, (v, np.int64(step), start, end, layer, truncated),
                    floor, table, bits, keys, score, parent, choice, keys2)
            layer += 1
            c = order[v, step]
            last = step == NCOL - 1
            lo = must[c, v]
            hi = lo + opt[c, v]
            real_next = must[c, v + 1] + opt[c, v + 1] if v + 1 < nnum else 0
            real_next2 = must[c, v + 2] + opt[c, v + 2] if v + 2 < nnum else 0
            # what the last colour can still give to groups (pruning one step earlier)
            cl = order[v, NCOL - 1]
            last_max = min(cps, must[cl, v] + opt[cl, v])
            step_info = (c, np.int64(v), np.int64(step), lo, hi, real_next, real_next2,
                         last_max, rem[v, step], jokers, jw_pos)
            if last and digits.shape[0]:
                length_closing(real_all, v, jokers, capc, needc, nnum, digits, binom)
            elif last:
                closing_tables(must, opt, v, jokers, capc, needc, nnum, cps)
            if second is not None or use_variant:
                variant = (off_tile, off_run, off_group, off_full, real2, colour_bits[v, c],
                           going_on[v], joker_bits[v], digits, binom, real_all, cps,
                           owed_ahead)
                n, table, bits, keys, score, parent, choice, keys2 = _sub_step(
                    table, bits, start, end, keys, score, parent, choice, step_info,
                    weight[c, v], joker_weight, floor, meld, any_ok, group_ok, capc, needc,
                    other, variant, keys2, long_codes)
            else:  # (None, not keys2: see solve_pass)
                n, table, bits, keys, score, parent, choice, _none = _sub_step(
                    table, bits, start, end, keys, score, parent, choice, step_info,
                    weight[c, v], joker_weight, floor, meld, any_ok, group_ok, capc, needc,
                    other, None, None, None)
            stats[0] += n - end
            stats[1] = max(stats[1], n - end)
            start, end = end, n
            # (four jokers: fewer runs listed dominate; two real tiles: none listed there)
            if second is not None and jokers > 3 and not real2:
                drop_listed(table, bits, start, end, keys, keys2, score)
            drop_dominated_layer(table, bits, start, end, keys, keys2, score, dominators, jokers,
                                 last, real2 and digits.shape[1] == 3, lengths)
            # (the dominance of drop_dominated reads the digits of sets of 3; the ranking
            # reads the runs short of real tiles in word B with 3-4 copies or four jokers)
            truncated |= prune_layer(table, bits, start, end, keys, score,
                                      last and digits.shape[0] == 0 and second is None, beam,
                                      hold is not None, keys2, cps > 2 or jokers > 3)
    best = best_final(keys, score, start, end, must_j, meld, keys2)
    if best < 0:
        return 0, NEG, truncated, no_kept()
    replay(best, layer, order, parent, choice, choice_out, gj_out, held_out,
            max(3, jokers + 1), max(3, cps + 1))
    return 1, score[best] - must_j * joker_weight, truncated, no_kept()
