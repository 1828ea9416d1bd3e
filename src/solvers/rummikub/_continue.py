"""Meld then continue: one pass of the DP over two arrangements at once.

A player who has not melded lays down new sets from the rack worth the threshold (the
meld) and then, in the same turn, may rearrange the whole table with the rest of the rack
(the house rule ``meld_continue``).  Whatever is played, the table afterwards is one
arrangement of the table's tiles and the played tiles (the *final* arrangement), and some
of the played tiles form sets of their own worth the threshold (the *meld*).  So a state
is a pair of the DP's keys (:mod:`solvers.rummikub._layout`): the final arrangement's, as
for a melded player, and the meld's, as for an initial meld (its value capped at the
threshold); the meld's tiles at each colour and number are a part of the rack tiles played
there (the table's tiles are not the player's), its jokers a part of the rack jokers
played (checked at the end).  The transitions of each word are those of
:mod:`solvers.rummikub._dp` (rules document's sets; the engine refuses the other house
rules with this one).

A meld that has reached the threshold never needs new tiles: from then on, the meld's
runs of length 1 or 2 take exactly the tiles that complete them, its longer runs end and
no new run opens (its groups at the current number may still be completed).  Any meld
contains such a completed one, so restricting to them loses no answer, and it keeps the
meld's word from multiplying the states after the meld is made.

The score (and so the bound that prunes) is the final arrangement's alone.  A pair of
keys is stored as two int64 arrays with a hash table of three columns.

Sets of 6+ tiles: both arrangements' colour-code high bits go to fields these rules leave
free in the pair's two words (:mod:`solvers.rummikub._continue_spill`); a specialisation
of its own (``high``), so the other rules' passes compile without it.

Three or four copies (up to two jokers, sets of 3, one real tile per set): three copies'
five open runs a colour keep the base-5 code, four copies' six take numbered codes (as three
copies and three jokers below); the colours that gave three (four) tiles to a number's
groups are counted at :data:`~solvers.rummikub._layout.N3_AT` (``N4_AT``) in each key (the
short runs' bits, which these rules leave free), the group tables' second axis ``n2 + 5 *
n3 + 25 * n4`` as ``_dp._sub_step``'s; the choices' real-tile digits are base 4 (5).  A
specialisation of its own too (``third``, the copies read from the rules).

Three jokers (copies 1-2, sets of 3, one real tile per set): three jokers alone would make
a run of three, no set.  Each key keeps ``_lengths.triple_step``'s candidate (the run of
jokers alone holding every joker it placed) in its ``SHORT_AT`` bits 45-48, the final
arrangement's over all jokers, the meld's only with three rack jokers; a group joker drops
it at the last colour (as ``_dp._sub_step``), and a completed meld continues one at length
3 with a real tile (it may not end there).  Joker digits base 4; a third table joker at a
number (official retrieval) puts the cover's high bits at ``COVER_HIGH_AT`` (49-52) of the
final arrangement's key.  A specialisation of its own (``jokers3``).

Three copies and three jokers: a colour has up to six open runs, past the base-5 code, so
both keys number their colours' runs (``_lengths.length_tables(3, 6)``: 84 codes, the
melded DP's own for these tile sets) and take ``length_step``/``length_closing``, each
key's candidate read from the code's counts; ``n3`` keeps :data:`~solvers.rummikub._layout.
N3_AT` in both keys, so a third table joker's cover bits go to the meld's key at
:data:`_MELD_COVER_AT`.  The two specialisations together (``third`` and ``jokers3``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._continue_beam import cut_layer, meld_reach, prune_pair_layer
from solvers.rummikub._continue_spill import HIGH_BITS, HIGH_MASK, spill_of, spilled
from solvers.rummikub._frame import CHOICE_BASE, MELD_CHOICES, colour_order, replay, step_choice
from solvers.rummikub._groups import groups_within
from solvers.rummikub._hold import held_parts, hold_inputs, hold_pairs, keep_best
from solvers.rummikub._layout import (
    COLOUR_BITS,
    COVER_AT,
    JOKERS_AT,
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
    SHORT_AT,
    code_at,
    code_bits,
    code_high,
    copies,
    highest_number,
    joker_meld_factor,
    meld_target,
    min_set_length,
)
from solvers.rummikub._lengths import (
    bare_step,
    close_others,
    closing_tables,
    length_closing,
    length_step,
    length_tables,
    triple_step,
)
from solvers.rummikub._official import cover as _cover
from solvers.rummikub._official import cover_key as _cover_key
from solvers.rummikub._official import cover_of as _cover_of
from solvers.rummikub._official import official_tables as _official_tables
from solvers.rummikub._pairs import make_room
from solvers.rummikub._pairs import rehash as _rehash
from solvers.rummikub._pairs import relax as _relax
from solvers.rummikub._real2 import COMBO_FIRST, joker_runs, short_kinds

# Three copies and three jokers: the final arrangement's cover subsets holding a third table
# joker at the number (official retrieval; COVER_HIGH_AT in the other passes, where the
# final key's N3_AT bits are free) in the meld's key, past its n3 (bits 52-55; N4_AT's,
# but four copies come with two jokers at most here: the rules refuse them with three)
_MELD_COVER_AT = N3_AT + 3


@njit(cache=True, inline="always")
def _run_options(code, short_key, c, t, jr, jl, real_next, real_next2, v, nnum, done, real2,
                 buf, lengths, ju=0, triple=False):
    """One colour's runs after ``t`` run tiles (``jr`` of them jokers) at number v+1, as in
    ``_dp._sub_step``: rows of ``buf`` (new code, jokers its short runs need at number+1
    and number+2, the list of runs short of real tiles, the joker combination + 1); returns
    how many.  ``done``: a completed meld (its long runs end, no run opens); ``real2``: two
    real tiles per set (the list of short joker runs, ``_real2.joker_runs``); ``lengths``:
    sets of 2, 4 or 5 tiles at least (``_lengths.length_step``'s digits, binom and tiles;
    empty tables: sets of 3; sets of 2: the runs of jokers alone in ``short_key``,
    ``_lengths.bare_step``); ``triple``: three jokers, ``short_key`` the run of them alone
    (``_lengths.triple_step``, ``ju`` jokers placed before), which a completed meld still
    continues with a real tile at length 3."""
    digits, binom, real = lengths
    if digits.shape[0] > 0:
        pairs = digits.shape[1] == 2
        short = 0
        for i in range(digits.shape[1] - 1):
            short += digits[code, i]
        if pairs and (short_key >> (2 * c)) & 3 == 3:
            short += 1  # the run of both jokers continues (with a real tile) even when done
        # (three jokers over numbered codes: a completed meld continues its candidate of
        # length 3, a long run, with a real tile)
        alone = 1 if triple and short_key == (c << 2 | 3) else 0
        if done and t != short + alone:
            return 0
        ncode, need = length_step(code, t, jl, real, c, v, nnum, digits, binom)
        if ncode < 0:
            return 0
        bare = 0
        if pairs:
            bare = bare_step(short_key, code, t, t - jr, c, v, nnum, real, digits)
            if bare < 0:
                return 0
        elif triple:  # (sets of 3, six open runs a colour: three copies and three jokers)
            k3 = min(digits[code, 2], t - short)
            bare = triple_step(short_key, c, ju, t - jr, jr, t - short - k3, k3)
            if bare < 0:
                return 0
        buf[0, 0] = ncode
        buf[0, 1] = need
        buf[0, 2] = bare
        buf[0, 3] = 0
        return 1
    a1 = code % 5
    a2 = (code // 5) % 5
    a3 = code // 25
    e10 = e21 = e20 = e31 = keep = 0
    if real2:
        e10, e21, e20, e31, keep = short_kinds(short_key, c)
    md = e10 + e21 + e20 + e31
    alone = 1 if triple and short_key == (c << 2 | 3) else 0
    if t < a1 + a2 + md or (done and t != a1 + a2 + md + alone):
        return 0
    k3 = alone if done else min(a3, t - a1 - a2 - md)
    new = t - a1 - a2 - md - k3
    avail = jl + real_next
    if v + 1 >= nnum:
        avail = 0
    if new + a1 > avail:
        return 0
    if new > 0 and (v + 2 >= nnum or new > real_next2 + jl):
        return 0
    need = max(0, new + a1 - real_next) + max(0, new - real_next2)
    if not real2:
        buf[0, 0] = new + 5 * a1 + 25 * min(a2 + k3, avail - new - a1)
        buf[0, 1] = need
        buf[0, 2] = triple_step(short_key, c, ju, t - jr, jr, new, k3) if triple else 0
        buf[0, 3] = 0
        return 1 if buf[0, 2] >= 0 else 0
    n = 0
    for combo in range(COMBO_FIRST[jr], COMBO_FIRST[jr + 1]):
        code, short = joker_runs(combo, jr, new, a1, a2, k3, e10, e21, e20, e31, keep, c,
                                 avail)
        if short < 0:
            continue
        buf[n, 0] = code
        buf[n, 1] = need
        buf[n, 2] = short
        buf[n, 3] = combo + 1
        n += 1
    return n


@njit(cache=True, inline="always")
def _joker_choices(left, last, real2):
    """The most successors one arrangement's jokers give a state at a sub-step (``left``
    jokers not yet placed): run jokers, each with its placements under two real tiles per
    set (``_real2.COMBO_FIRST``), times the group jokers at the last colour.

    Counted per parent from the jokers it has left: the former bound, the same for every
    parent (every joker count times 15 placements, squared), came to 984,150 successors
    at a last colour with two jokers in each arrangement, and the arrays and hash table
    made that large cost 40-100 ms of page faults a pass of 2-20 K states (meld then
    continue with two real tiles, seed 7 0J #10: four passes 425 ms -> 8 ms in all).
    """
    total = 0
    for jr in range(left + 1):
        placements = COMBO_FIRST[jr + 1] - COMBO_FIRST[jr] if real2 else 1
        total += placements * (left - jr + 1 if last else 1)
    return total


@njit(cache=True, error_model="numpy")
def _continue_step(table, bits, start, end, k1s, k2s, score, parent, choice, info, weight_cv,
                   joker_weight, floor, meld, any_ok, group_ok, capc, needc, capm, needm,
                   other, mother, official, lengths, mlengths, hold_v, high, third, jokers3):
    """Every successor of the states ``start..end-1`` at one sub-step (colour of a number).

    ``info`` = (colour, v, step, table tiles, table + rack tiles, rack tiles a meld may
    hold, tiles at number+1 and number+2 (all; a meld's), rack bound after this sub-step,
    jokers, rack jokers, the positive part of the joker weight).  Returns ``(n, table,
    bits, k1s, k2s, score, parent, choice)`` as ``_dp._sub_step``.  ``official``:
    ``_official.official_tables`` (the table jokers' places under official retrieval; the final
    arrangement's key accounts for them inside a number as ``_dp._sub_step`` does).
    ``lengths``/``mlengths``: sets of 4 or 5 tiles at least, for each arrangement
    (``_run_options``).  ``hold_v``: least disturbance's tables at this colour and number
    (``_hold.held_parts``; empty joker bits when off): the final arrangement's held-out
    sets place their tiles and keep their jokers.  ``high``: None, or (sets of 6+) the
    colour codes' high bits spilled into the pair's free fields (``_continue_spill``;
    None: compiled out, else a bool, as ``third`` and ``jokers3``).  ``third``: None, or
    (three or four copies) the groups' counts n3 (and n4) in both keys (as ``high``, a
    specialisation; four copies: numbered codes in ``lengths``/``mlengths``).
    ``jokers3``: None, or (three jokers) each key's run of them alone at ``SHORT_AT``
    (``_lengths.triple_step``; the meld's with three rack jokers), base-4 joker digits, and
    the official cover of three table jokers at a number (``_official.cover_key``; with
    ``third`` too, numbered codes in ``lengths``/``mlengths`` and the cover's subsets
    holding the third in the meld's key, :data:`_MELD_COVER_AT`).

    The loop nest stays in this one function, so it is longer than the project's 100
    lines: like ``_dp._sub_step`` (measured 1.3-1.8 times slower split into functions).
    """
    (c, v, step, lo, hi, mhi, real_next, real_next2, rack_next, rack_next2, rem_after, jokers,
     mjokers, jw_pos) = info
    last = step == NCOL - 1
    number = v + 1
    off_tile, off_run, off_group, off_full = official
    cover_full = off_full[v]
    cover_tile = off_tile[v, c]
    cover_run = off_run[v, c]
    cover_group = off_group[v]
    nnum = highest_number(meld)
    target = meld_target(meld)
    jfac = joker_meld_factor(meld)
    real2 = (meld >> REAL2_BIT) & 1
    # (None: compiled out; a bool: the wider passes' one specialisation, read as it runs)
    wide = False
    if high is not None:
        wide = high
    copies3 = False
    if third is not None:
        copies3 = third
    copies4 = copies3 and copies(meld) > 3  # (n4 too: four copies, up to two jokers)
    cb = copies(meld) + 1 if copies3 else 3  # (the choices' real-tile digits: base 4 or 5)
    triple = False
    if jokers3 is not None:
        triple = jokers3 and jokers > 2
    mtriple = triple and mjokers > 2
    jb = 4 if triple else 3  # (and the joker digits')
    buf1 = np.zeros((16, 4), np.int64)
    buf2 = np.zeros((16, 4), np.int64)
    other_need = mother_need = 0
    n = end
    colour_mask = np.int64((1 << JOKERS_AT) - 1)
    for i in range(start, end):
        k1 = k1s[i]
        k2 = k2s[i]
        if k1 < 0:
            continue
        high1 = high2 = np.int64(0)
        if wide:
            spill = spill_of(k1, k2)
            high1, high2 = spill & HIGH_MASK, spill >> HIGH_BITS
        if last:
            other_need, alive = close_others(k1, high1, c, jokers, capc, needc, other, wide)
            if not alive:
                continue
            mother_need, alive = close_others(k2, high2, c, mjokers, capm, needm, mother,
                                              wide)
            if not alive:
                continue
        sc = score[i]
        held, hold_now, hold_closed, held_jokers = held_parts(hold_v[0], hold_v[1], hold_v[2],
                                                              k1)
        lo_s, hi_s = lo - held, hi - held
        ju = (k1 >> JOKERS_AT) & 3
        mju = (k2 >> JOKERS_AT) & 3
        # (room per parent for all its successors: u, ug, mu, mug at most cb values each)
        fanout = ((hi - lo + 1) * cb * _joker_choices(jokers - ju, last, real2) * cb * cb
                  * _joker_choices(mjokers - mju, last, real2))
        table, bits, k1s, k2s, score, parent, choice = make_room(
            table, bits, end, n, fanout, k1s, k2s, score, parent, choice)
        mv = (k2 >> MELD_AT) & MELD_MASK
        done = mv >= target
        need0 = (k1 >> NEED_AT) & 3
        cover0 = (k1 >> COVER_AT) & 7 if cover_full else 0
        if triple and cover_full:  # (a third table joker at the number: COVER_HIGH_AT too)
            if copies3:  # (n3 there: the meld's key holds them, :data:`_MELD_COVER_AT`)
                if cover_full > 3:
                    cover0 |= ((k2 >> _MELD_COVER_AT) & 15) << 3
            else:
                cover0 = _cover_of(k1, k2, cover_full)  # (one-word final key: COVER_HIGH_AT)
        mneed0 = (k2 >> NEED_AT) & 3
        short1 = (k1 >> SHORT_AT) & 1023
        short2 = (k2 >> SHORT_AT) & 1023
        if triple:  # (the run of jokers alone; n3 or the cover's high bits above it)
            short1 &= 15
            short2 &= 15
        code = code_at(k1, high1, c, wide)
        mcode = code_at(k2, high2, c, wide)
        n1 = (k1 >> N1_AT) & 7
        n2 = (k1 >> N2_AT) & 7
        mn1 = (k2 >> N1_AT) & 7
        mn2 = (k2 >> N2_AT) & 7
        n3 = (k1 >> N3_AT) & 7 if copies3 else 0
        mn3 = (k2 >> N3_AT) & 7 if copies3 else 0
        n4 = (k1 >> N4_AT) & 7 if copies4 else 0
        mn4 = (k2 >> N4_AT) & 7 if copies4 else 0
        groups = 1
        if wide:  # (those fields hold the high bits: no groups, no listed runs)
            short1 = short2 = n1 = n2 = mn1 = mn2 = groups = 0
        base1 = k1 & ~(np.int64(127) << (COLOUR_BITS * c)) & colour_mask
        base2 = k2 & ~(np.int64(127) << (COLOUR_BITS * c)) & colour_mask
        rest_high1 = high1 & ~code_high(4095, c)
        rest_high2 = high2 & ~code_high(4095, c)
        for u in range(lo_s, hi_s + 1):
            gain_u = sc + (u - lo_s) * weight_cv
            if gain_u + rem_after + (jokers - ju) * jw_pos < floor:
                continue
            for ug in range(u * groups + 1):
                m1 = n1 + (1 if ug == 1 else 0)
                m2 = n2 + (1 if ug == 2 else 0)
                m3 = n3 + (1 if copies3 and ug == 3 else 0)
                m4 = n4 + (1 if copies4 and ug == 4 else 0)
                g2 = m2 + 5 * m3 + 25 * m4  # (the group tables' second axis)
                for jr in range(jokers - ju + 1):
                    jl = jokers - ju - jr
                    if last and not any_ok[m1, g2, jl]:
                        continue
                    nsc = gain_u + jr * joker_weight
                    cover = 0
                    if cover_full:
                        cover = _cover(_cover(cover0, cover_tile, u - lo_s), cover_run, jr)
                    for o1 in range(_run_options(code, short1, c, u - ug + jr, jr, jl,
                                                 real_next, real_next2, v, nnum, False,
                                                 real2, buf1, lengths, ju, triple)):
                        ncode = buf1[o1, 0]
                        need = buf1[o1, 1] + need0
                        if need > jl:
                            continue
                        sh1 = buf1[o1, 2] << SHORT_AT
                        # (the final arrangement's choice as _dp's; the meld's above it)
                        ch1 = step_choice(u - ug, ug, jr, cb, jb)
                        tc1 = CHOICE_BASE * buf1[o1, 3]
                        for mu in range(min(u - lo_s, mhi) + 1):
                            # a completed meld takes group tiles only to complete its groups
                            for mug in range(1 if done and mn1 + mn2 + mn3 + mn4 == 0
                                             else mu * groups + 1):
                                mm1 = mn1 + (1 if mug == 1 else 0)
                                mm2 = mn2 + (1 if mug == 2 else 0)
                                mm3 = mn3 + (1 if copies3 and mug == 3 else 0)
                                mm4 = mn4 + (1 if copies4 and mug == 4 else 0)
                                mg2 = mm2 + 5 * mm3 + 25 * mm4
                                for mjr in range(mjokers - mju + 1):
                                    mjl = mjokers - mju - mjr
                                    if last and not any_ok[mm1, mg2, mjl]:
                                        continue
                                    nmv = min(target, mv + number * (mu + mjr * jfac))
                                    for o2 in range(_run_options(
                                            mcode, short2, c, mu - mug + mjr, mjr, mjl, rack_next,
                                            rack_next2, v, nnum, done, real2, buf2,
                                            mlengths, mju, mtriple)):
                                        mcd = buf2[o2, 0]
                                        mneed = buf2[o2, 1] + mneed0
                                        if mneed > mjl:
                                            continue
                                        sh2 = buf2[o2, 2] << SHORT_AT
                                        ch2 = step_choice(mu - mug, mug, mjr, cb, jb)
                                        if not last:
                                            a = (base1 | code_bits(ncode, c, wide)
                                                 | ((ju + jr) << JOKERS_AT) | (m1 << N1_AT)
                                                 | (m2 << N2_AT) | (need << NEED_AT)
                                                 | (_cover_key(cover) if triple and not copies3
                                                    else (cover & 7) << COVER_AT) | sh1
                                                 | hold_now | (m3 << N3_AT) | (m4 << N4_AT))
                                            b = (base2 | code_bits(mcd, c, wide)
                                                 | ((mju + mjr) << JOKERS_AT) | (mm1 << N1_AT)
                                                 | (mm2 << N2_AT) | (nmv << MELD_AT)
                                                 | (mneed << NEED_AT) | sh2 | (mm3 << N3_AT)
                                                 | (mm4 << N4_AT)
                                                 | ((cover >> 3) << _MELD_COVER_AT if copies3
                                                    else 0))
                                            if wide:
                                                s1, s2 = spilled(
                                                    rest_high1 | code_high(ncode, c),
                                                    rest_high2 | code_high(mcd, c))
                                                a |= s1
                                                b |= s2
                                            n = _relax(table, bits, end, n, k1s, k2s, score,
                                                       parent, choice, a, b, nsc, i,
                                                       ch1 + tc1 + MELD_CHOICES * ch2)
                                            continue
                                        # the last colour: group jokers of both arrangements, then
                                        # close the number (as ``_dp._sub_step``)
                                        for jg in range(jl * groups + 1):
                                            k = jl - jg
                                            if not group_ok[m1, g2, jg]:
                                                continue
                                            if cover_full and not (
                                                    _cover(cover, cover_group, jg) << 1 | 1
                                            ) >> (cover_full & ~held_jokers) & 1:
                                                continue  # a table joker left its place unreplaced
                                            rest = other[k]
                                            cl = capc[c, ncode, k]
                                            if (rest < 0 or cl < 0
                                                    or other_need + needc[c, ncode] > k):
                                                continue
                                            a = (rest | code_bits(cl, c, wide)
                                                 | ((jokers - k) << JOKERS_AT) | hold_closed
                                                 | (0 if triple and jg else sh1))
                                            for mjg in range(mjl * groups + 1):
                                                mk = mjl - mjg
                                                if not group_ok[mm1, mg2, mjg]:
                                                    continue
                                                mrest = mother[mk]
                                                mcl = capm[c, mcd, mk]
                                                if (mrest < 0 or mcl < 0
                                                        or mother_need + needm[c, mcd] > mk):
                                                    continue
                                                gmv = min(target, nmv + number * mjg * jfac)
                                                b = (mrest | code_bits(mcl, c, wide)
                                                     | ((mjokers - mk) << JOKERS_AT)
                                                     | (gmv << MELD_AT)
                                                     | (0 if mtriple and mjg else sh2))
                                                wa = a
                                                if wide:
                                                    s1, s2 = spilled(
                                                        other[k + jokers + 1] | code_high(cl, c),
                                                        mother[mk + mjokers + 1]
                                                        | code_high(mcl, c))
                                                    wa = a | s1
                                                    b |= s2
                                                n = _relax(table, bits, end, n, k1s, k2s, score,
                                                           parent, choice, wa, b,
                                                           nsc + jg * joker_weight, i,
                                                           ch1 * jb + jg + tc1
                                                           + MELD_CHOICES * (ch2 * jb + mjg))
    return n, table, bits, k1s, k2s, score, parent, choice


@njit(cache=True, error_model="numpy")
def continue_pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                  gj_out, stats, floor, beam, mopt, hold=None):
    """One pass of meld then continue; arguments and results as ``_dp.solve_pass``
    (``choice_out``/``gj_out``: the final arrangement), and ``mopt``: the rack tiles that
    some set of rack tiles alone could hold (the others are never in a meld).  The best
    end state places every table joker, has made the meld and uses no more rack jokers in
    it than were played.  ``hold``: least disturbance (``_hold``: the final arrangement
    holds table sets out, a layer before each number; ``beam`` then ranks as
    ``_hold.keep_best``)."""
    # sets of 6+ (codes past 127), else three or four copies (n3, n4 in both keys), three
    # jokers (each key's run of them alone), or both of these (six open runs, numbered
    # codes): one specialisation for all of them, told which by bools (four were compiled
    # apart, 36-40 s of CPU each on an empty cache, for a few branches; benches/README.md
    # "Cold compile"), the plain pass another, without a trace of them
    wide = min_set_length(meld) > 5
    third = not wide and copies(meld) > 2
    jokers3 = not wide and must_j + opt_j > 2
    if wide or third or jokers3:
        return _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                     choice_out, gj_out, stats, floor, beam, mopt, hold, wide, third, jokers3)
    return _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out,
                 gj_out, stats, floor, beam, mopt, hold, None, None, None)


@njit(cache=True, inline="always")
def _best_end(k1s, k2s, score, start, end, target, must_j, wide):
    """The best of the last layer's states ``start..end-1`` that has made the meld, left no
    run short of real tiles open (sets of 6+: those bits hold the codes' high bits) and
    holds no more rack jokers in its meld than it played (-1: none)."""
    best = -1
    best_sc = NEG
    for i in range(start, end):
        k1 = k1s[i]
        k2 = k2s[i]
        if k1 < 0 or (k2 >> MELD_AT) & MELD_MASK < target:
            continue
        if not wide and ((k1 >> SHORT_AT) & 1023 or (k2 >> SHORT_AT) & 1023):
            continue  # a run short of real tiles left open
        ju = (k1 >> JOKERS_AT) & 3
        if ju < must_j or (k2 >> JOKERS_AT) & 3 > ju - must_j:
            continue
        if score[i] > best_sc:
            best_sc = score[i]
            best = i
    return best


@njit(cache=True, error_model="numpy")
def _pass(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out,
          stats, floor, beam, mopt, hold, high, third, jokers3):
    """:func:`continue_pass`; ``high``, ``third``, ``jokers3``: None (the plain pass), or
    bools: whether sets of 6+, three copies or three jokers widen it (:func:`_continue_step`;
    the last two together: six open runs a colour, numbered codes in both keys)."""
    wide = False
    if high is not None:
        wide = high
    cps = 2
    if third is not None:
        cps = copies(meld) if third else 2  # (3 or 4)
    jokers = must_j + opt_j
    triple = False
    if jokers3 is not None:
        triple = jokers3 and jokers > 2
    any_ok = groups_within(group_ok)
    # the first layer: one state (both arrangements empty), its own parent -1
    k1s, k2s = np.zeros(1024, np.int64), np.zeros(1024, np.int64)
    score, choice = np.zeros(1024, np.int64), np.zeros(1024, np.int64)
    parent = np.full(1024, -1, np.int64)
    bits = np.int64(10)
    table = _rehash(k1s, k2s, 0, 1, bits)
    start, end, layer = np.int64(0), np.int64(1), 0
    # (empty for sets of 3 but with three copies and three jokers: six open runs a colour)
    digits, binom = length_tables(min_set_length(meld), cps + max(2, jokers))
    # closing tables and closed codes of the other colours, of each arrangement (sets of
    # 6+: the closed codes' high bits after them, _lengths.close_others)
    codes = max(128, digits.shape[0])
    capc = np.full((NCOL, codes, 4 if triple else 3), -1, np.int64)
    capm = np.full((NCOL, codes, 4 if triple else 3), -1, np.int64)
    needc, needm = np.zeros((NCOL, codes), np.int64), np.zeros((NCOL, codes), np.int64)
    other, mother = np.zeros(6, np.int64), np.zeros(6, np.int64)
    none = np.zeros_like(must)
    official = _official_tables(meld)
    order, rem = colour_order(must, opt, weight)
    colour_bits, going_on, joker_bits, held_out = hold_inputs(hold, rem)
    jw_pos = max(0, joker_weight)
    truncated = 0
    nnum = highest_number(meld)
    target = meld_target(meld)
    lengths, mlengths = (digits, binom, must + opt), (digits, binom, mopt)
    reach = meld_reach(mopt, opt_j, nnum, min_set_length(meld), joker_meld_factor(meld))
    for v in range(nnum):
        if hold is not None:  # (no state left: the colours' loop returns)
            layer += 1
            n, table, bits, k1s, k2s, score, parent, choice, cut = hold_pairs(
                table, bits, start, end, k1s, k2s, score, parent, choice, hold, v,
                joker_weight, jokers, floor, rem[v - 1, NCOL - 1] if v else -NEG, beam, stats)
            truncated, start, end = truncated | cut, end, n
        for step in range(NCOL):
            if end == start:
                return 0, NEG, truncated
            layer += 1
            c = order[v, step]
            last = step == NCOL - 1
            lo = must[c, v]
            hi = lo + opt[c, v]
            real_next = must[c, v + 1] + opt[c, v + 1] if v + 1 < nnum else 0
            real_next2 = must[c, v + 2] + opt[c, v + 2] if v + 2 < nnum else 0
            rack_next = mopt[c, v + 1] if v + 1 < nnum else 0
            rack_next2 = mopt[c, v + 2] if v + 2 < nnum else 0
            info = (c, np.int64(v), np.int64(step), lo, hi, mopt[c, v], real_next, real_next2,
                    rack_next, rack_next2, rem[v, step], jokers, opt_j, jw_pos)
            if last and digits.shape[0]:
                length_closing(lengths[2], v, jokers, capc, needc, nnum, digits, binom)
                length_closing(mopt, v, opt_j, capm, needm, nnum, digits, binom)
            elif last:
                closing_tables(must, opt, v, jokers, capc, needc, nnum, cps)
                closing_tables(none, mopt, v, opt_j, capm, needm, nnum, cps)
            n, table, bits, k1s, k2s, score, parent, choice = _continue_step(
                table, bits, start, end, k1s, k2s, score, parent, choice, info, weight[c, v],
                joker_weight, floor, meld, any_ok, group_ok, capc, needc, capm, needm, other,
                mother, official, lengths, mlengths,
                (colour_bits[v, c], going_on[v], joker_bits[v]), high, third, jokers3)
            stats[0] += n - end
            stats[1] = max(stats[1], n - end)
            start, end = end, n
            cut_layer(k1s, k2s, score, start, end, reach, mopt, digits, v, last, opt_j, meld)
            if hold is not None:
                truncated |= keep_best(k1s, score, start, end, beam, None, False)
            else:
                truncated |= prune_pair_layer(k1s, k2s, score, start, end, beam, target,
                                              wide or cps > 2 or triple)
    best = _best_end(k1s, k2s, score, start, end, target, must_j, wide)
    if best < 0:
        return 0, NEG, truncated
    replay(best, layer, order, parent, choice, choice_out, gj_out, held_out,
           4 if triple else 3, cps + 1)
    return 1, score[best] - must_j * joker_weight, truncated
