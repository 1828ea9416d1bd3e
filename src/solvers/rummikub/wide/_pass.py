"""The width-generic best-move DP: any number of colours (1..8) and numbers (1..26), one to
four copies of a tile, up to four jokers and sets of ``L`` tiles at least.

The same algorithm as :mod:`solvers.rummikub._dp` (after van Rijn, Takes & Vis 2015): the
state between number v-1 and v records, per colour, the open runs ending at v-1 by length
class (1 .. L-1, L or more) as a numbered code of ``cb`` bits (at most copies + jokers runs
a colour: :mod:`solvers.rummikub.wide._codes`; 35 codes, 6 bits, for the rules document's
sets).  The widths are array shapes here, not constants, and the key is two words:

- ``key_a``: colour c's code at bits ``cb*c`` (eight colours of 8-bit codes: 64 bits);
- ``key_b``: jokers placed so far, inside a number the jokers its short runs need and its
  group profile, the initial-meld value so far capped at the threshold (a player who has
  not melded) and the slots of the held-out table sets that cover the number (least
  disturbance: 36 slots) and, with as many jokers as the set length, the run of jokers
  alone; the layout in :mod:`solvers.rummikub.wide._steps`.

Each number is a few layers: one sub-step per colour, fewest choices first (real tiles to
runs and groups, jokers to runs), the last one also choosing the jokers joining groups
(with the group feasibility check) and closing the number
(:mod:`solvers.rummikub.wide._steps`), and the held-out choice of the table sets that start
there, each just before the sub-step of its first colour with a tile there
(:func:`hold_steps`).  A colour's runs shorter than L must continue (else the state dies;
the final state has none), then as many runs of L+ as the tiles allow (a run that would
start instead continues one just as well), the other tiles start runs.  A run joker goes
only where a tile of its colour lies within ``max(2, jokers)`` numbers (a run has a real
tile).  With
fewer jokers than L no run or group of jokers alone is a set; with L jokers the key tracks
the one run that could be (the engine refuses more jokers).
At each close, states that a neighbour dominates are dropped.

Least disturbance: a table set held out stays as it was (its tiles leave ``must``, its
jokers count as placed) and gains ``hold_gain``; the engine scales the objective's weights
above the most sets a table can hold, so holding is a tie-break after the objective's own.

Inputs are clean integer arrays (the engine checks the position): ``must``/``opt`` (C, N)
table / rack tiles (``must + opt <= copies``), ``must_j``/``opt_j`` jokers, ``weight`` (C, N)
and ``joker_weight`` the gain of a rack tile / joker played, ``target`` the initial meld's
threshold (-1 once melded), ``joker_meld`` 1 if a joker counts as the tile it stands for
towards it.  The held-out sets (none: empty arrays): ``starts`` (N+1 offsets into
``start_sets``, the sets starting at each number), ``set_slot``, ``set_jokers``,
``end_mask`` (per number, the slots of the sets ending there) and per cell ``(v, c)`` the
held tiles (``cells`` offsets into ``cell_slot``/``cell_count``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._codes import close_entry, close_tables, code_setup
from solvers.rummikub.wide._resume import gives_up, pass_start, save_pass
from solvers.rummikub.wide._steps import BARE_AT, MELD_AT, NEED_AT, hold_layer, sub_step
from solvers.rummikub.wide._store import KEY_A, KEY_B, SCORE, close_layer, lookup

MAX_COLOURS = 8
MAX_NUMBERS = 26
HOLD_SLOTS = 36
NEG = np.int64(-(2**62))
LAYER_HOLD, LAYER_COLOUR, LAYER_LAST = 0, 1, 2
# Above this many codes a colour, a number's close tables are filled per code as the states
# come to it (:func:`fill_codes`), not whole (4 x 13, sets of 12 with seven open runs: 50,388
# codes a colour, a pass's states hold a few hundred; filling them all was most of such a
# position's time; below it, whole tables cost less than the per-layer fill)
LAZY_CODES = 4096


@njit(cache=True)
def code_bits_of(codes):
    """The bits of a colour code numbered below ``codes``."""
    bits = 1
    while (1 << bits) < codes:
        bits += 1
    return bits


@njit(cache=True)
def group_tables(colours, copies, jokers, min_len):
    """``(ok, cap)``: ``ok[real, most, jokers]`` whether ``real`` tiles given to a number's
    groups (``most``: the most one colour gave), with ``jokers`` jokers, split into groups
    of ``min_len``+ distinct colours with a real tile each: some ``k`` groups with
    ``most <= k <= real``, ``min_len*k <= tiles <= colours*k`` (deal the real tiles
    round-robin, then the jokers into the smallest groups).  ``cap``: the real count from
    which every larger one is feasible with any jokers; the DP counts at most ``cap``."""
    top = copies * colours
    full = np.zeros((top + 1, copies + 1, jokers + 1), np.bool_)
    for real in range(top + 1):
        for most in range(copies + 1):
            for j in range(jokers + 1):
                tiles = real + j
                if tiles == 0:
                    full[real, most, j] = True
                for k in range(max(1, most), real + 1):
                    if min_len * k <= tiles <= colours * k:
                        full[real, most, j] = True
    cap = top
    while cap > 0 and all_feasible(full, top, colours) and all_feasible(full, cap - 1, colours):
        cap -= 1
    return full[: cap + 1].copy(), cap


@njit(cache=True)
def all_feasible(full, real, colours):
    """Whether every profile with ``real`` tiles is feasible with any jokers (the
    profiles that no colours can give are left out: ``most`` of 0 with tiles, more tiles
    than ``colours * most`` or fewer than ``most``)."""
    for most in range(full.shape[1]):
        if (most == 0) != (real == 0) or real > colours * most or real < most:
            continue
        for j in range(full.shape[2]):
            if not full[real, most, j]:
                return False
    return True


@njit(cache=True)
def group_reach(ok, cap, order, real, v, jokers):
    """``reach[step, real_g, most, jl]``: whether a profile after the number's colour at
    ``step`` (in ``order``), with ``jl`` jokers left, can still end feasible: the later
    colours give as many tiles each as they have, or fewer, and some jokers join."""
    colours = order.shape[0]
    copies = ok.shape[1] - 1
    reach = np.zeros((colours, cap + 1, copies + 1, jokers + 1), np.bool_)
    for g in range(cap + 1):
        for most in range(copies + 1):
            for jl in range(jokers + 1):
                for jg in range(jl + 1):
                    if ok[g, most, jg]:
                        reach[colours - 1, g, most, jl] = True
    for step in range(colours - 2, -1, -1):
        top = min(copies, real[order[step + 1], v])
        for g in range(cap + 1):
            for most in range(copies + 1):
                for jl in range(jokers + 1):
                    for add in range(top + 1):
                        if reach[step + 1, min(cap, g + add), max(most, add), jl]:
                            reach[step, g, most, jl] = True
                            break
    return reach


@njit(cache=True)
def colour_order(must, opt):
    """``order[v]``: the colours of number v+1, fewest choices first (the intermediate
    layers stay small; the widest branching goes into the closing layer)."""
    colours, numbers = must.shape
    order = np.zeros((numbers, colours), np.int64)
    for v in range(numbers):
        most = must[:, v] + opt[:, v]
        # (tiles placed, and how many of them to groups: fewest first, then by colour)
        choices = (most + 1) * (most + 2) - must[:, v] * (must[:, v] + 1)
        order[v] = np.argsort(choices * 16 + np.arange(colours))
    return order


@njit(cache=True)
def _near(must, opt, jokers):
    """``near[c, v]``: whether a tile of colour c lies within ``jokers`` numbers of v+1
    (at least two).  A run joker there needs one: a run holds a real tile and at most
    ``jokers`` jokers, so the nearest real tile of a joker's run is no farther."""
    colours, numbers = must.shape
    near = np.zeros((colours, numbers), np.bool_)
    reach = max(2, jokers)
    for c in range(colours):
        for v in range(numbers):
            for w in range(max(0, v - reach), min(numbers, v + reach + 1)):
                if must[c, w] + opt[c, w] > 0:
                    near[c, v] = True
    return near


@njit(cache=True)
def done_colours(order, step):
    """``done[c]``: whether colour c is done at the number (``order`` up to ``step``): the
    key's ``need`` sums the jokers that those colours' short runs will need (a copy of the
    close tables' ``need`` with the other colours zeroed cost 1.6 MB a layer for sets of 12)."""
    done = np.zeros(order.shape[0], np.bool_)
    for s in range(step + 1):
        done[order[s]] = True
    return done


@njit(cache=True)
def drop_dominated(rows, table, n, colours, cb, better, need, done, first=0, stop=-1):
    """The layer without the states that another one dominates, compacted; returns the
    count kept.  In one colour, a run that is a class longer or more, or one more long run
    (``better``, :func:`solvers.rummikub.wide._codes.code_traits`), never loses an option
    (longer runs need fewer tiles, a long run may end anywhere), so a state with such a
    neighbour of at least its score cannot be better (the order is strict: every state
    dropped keeps a live dominator).  ``need``: the close tables' (the neighbour's ``need``
    field for the colours ``done``, :func:`done_colours`)."""
    cmask = (np.int64(1) << cb) - 1
    dropped = np.zeros(n, np.bool_)
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        for c in range(first, colours if stop < 0 else stop):
            code = (a >> (cb * c)) & cmask
            base = a & ~(cmask << (cb * c))
            for e in range(better.shape[1]):
                ncode = better[code, e]
                if ncode < 0:
                    break
                nb = b + ((np.int64(need[c, ncode]) - need[c, code]) << NEED_AT if done[c] else 0)
                j = lookup(rows, table, base | ncode << (cb * c), nb)
                if j >= 0 and rows[j, SCORE] >= score:
                    dropped[i] = True
                    break
            if dropped[i]:
                break
    kept = 0
    for i in range(n):
        if not dropped[i]:
            if kept < i:
                rows[kept] = rows[i]
            kept += 1
    return kept


@njit(cache=True)
def _final(rows, n, colours, cb, short, must_j, target, jokers):
    """The best row whose runs are all long enough, none of jokers alone, with the table's
    jokers placed and (not melded) nothing played or the threshold reached; -1 if none."""
    cmask = (np.int64(1) << cb) - 1
    best, at = NEG, -1
    for i in range(n):
        a, b = rows[i, KEY_A], rows[i, KEY_B]
        bad = False
        for c in range(colours):
            if short[(a >> (cb * c)) & cmask]:
                bad = True
        meld = (b >> MELD_AT) & 127
        if jokers > 0 and (b >> BARE_AT) & 7 == jokers:  # (jokers alone, full length)
            bad = True
        if bad or (b & 7) < must_j or (target > 0 and 0 < meld < target):
            continue
        if rows[i, SCORE] > best:
            best, at = rows[i, SCORE], i
    return at


@njit(cache=True)
def rack_bound(opt, weight, order, starts, hold_gain, later):
    """``rem[v, step]``: the most that the rack tiles after sub-step ``step`` of number v+1
    (in ``order``) can still add, and the table sets starting after that number (each
    held out gains ``hold_gain``; ``later[v]``: the most of them a move may keep);
    ``rem[v, colours]``: the rack tiles' most from number v+1 on, alone."""
    colours, numbers = opt.shape
    rem = np.zeros((numbers, colours + 1), np.int64)
    acc = np.int64(0)
    for v in range(numbers - 1, -1, -1):
        for step in range(colours - 1, -1, -1):
            rem[v, step] = acc + later[v] * hold_gain
            c = order[v, step]
            acc += opt[c, v] * max(0, weight[c, v])
        rem[v, colours] = acc
    return rem


@njit(cache=True)
def hold_steps(hold, v, order):
    """``(decide, undecided)`` at number v+1: ``decide[step]``, the table sets starting there
    (bits from the first, :mod:`solvers.rummikub.wide._steps`) whose held-out choice comes
    just before sub-step ``step`` of ``order``: that of the first colour with a tile of
    the set there (the last one for a set opened by a joker), so the states before it are
    not multiplied by its choice; ``undecided[step]``: the sets still to choose after the
    sub-step (each may still gain)."""
    starts, start_sets, set_slot, cells, cell_slot = hold[0], hold[1], hold[2], hold[5], \
        hold[6]
    colours = order.shape[0]
    decide = np.zeros(colours, np.int64)
    undecided = np.zeros(colours, np.int64)
    for t in range(starts[v + 1] - starts[v]):
        slot = set_slot[start_sets[starts[v] + t]]
        first = colours - 1
        for step in range(colours - 1, -1, -1):
            at = v * colours + order[step]
            for e in range(cells[at], cells[at + 1]):
                if cell_slot[e] == slot:
                    first = step
        decide[first] |= np.int64(1) << t
        undecided[:first] += 1
    return decide, undecided


@njit(cache=True)
def later_most(starts, bounds):
    """Per number v+1, the most table sets starting after it that a move may keep: all of
    them, or fewer by ``bounds[v]`` (:func:`solve_pass`)."""
    numbers = starts.shape[0] - 1
    later = np.empty(numbers, np.int64)
    for v in range(numbers):
        later[v] = starts[numbers] - starts[v + 1]
        if bounds.shape[0] > 0:
            later[v] = min(later[v], bounds[v])
    return later


@njit(cache=True)
def keep_flexible(rows, n, colours, cb, duty, width):
    """Keep the ``width`` states with the fewest obligations (the tiles their short runs
    still need, ``duty``, twice the jokers they need, then the jokers placed), in their
    order; returns the count kept.  The search for *any* arrangement reaching a
    score keeps them: short runs opened on speculation are what kills a narrow search."""
    if n <= width:
        return n
    pri = np.empty(n, np.int64)
    for i in range(n):
        a, b = rows[i, KEY_A], rows[i, KEY_B]
        h = 2 * ((b >> NEED_AT) & 7)
        for c in range(colours):
            h += duty[(a >> (cb * c)) & ((np.int64(1) << cb) - 1)]
        pri[i] = 8 * h + (b & 7)
    # (the rows a stable sort by ``pri`` puts first, in their order: those below the
    # width-th smallest priority and the first ties at it; counted, not sorted: 2.0 ms
    # where the sort took 13.1, ``--wide`` 8 x 13 copies=3 seed 4 80J #0 reversed)
    counts = np.zeros(pri.max() + 1, np.int64)
    for i in range(n):
        counts[pri[i]] += 1
    cut, below = 0, 0
    while below + counts[cut] < width:
        below += counts[cut]
        cut += 1
    ties, kept = width - below, 0
    for i in range(n):
        if pri[i] < cut or (pri[i] == cut and ties > 0):
            ties -= pri[i] == cut
            for w in range(rows.shape[1]):  # (kept <= i: nothing read is overwritten)
                rows[kept, w] = rows[i, w]
            kept += 1
    return width


@njit(cache=True)
def solve_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
               hold, bounds, sizes, floor, width, max_states, choice_out, group_jokers,
               held_out, stats):
    """One pass over the numbers, with sets of ``sizes[0]``+ tiles and at most ``sizes[1]``
    copies of a tile: fills ``choice_out[c, v] = (real tiles to runs, real tiles to
    groups, run jokers, open runs of L+ continued)``, ``group_jokers[v]`` and
    ``held_out[set]``.  Returns ``(status, score, truncated)``: status 1 solved, 0 no
    arrangement, -1 more than ``max_states`` states (memory bound).  ``floor``: states
    whose score and all the rest could still add stay below it are not stored (the
    optimum survives whenever it reaches it; status 0 when no final state does, even if
    one that left rack jokers out survived below it); ``width > 0`` keeps that many states a layer
    (:func:`keep_flexible`; ``truncated`` 1 if it dropped any).  ``hold``: the held-out
    sets' arrays (:mod:`solvers.rummikub.wide._steps`); ``bounds``: none (empty) or, per
    number v+1, the most table sets starting after it that a move keeps if it reaches
    ``bounds[numbers]`` (an objective's floor, no set kept; then ``bounds[numbers + 1]``,
    the most sets kept in all), read by a pass whose floor is at least that.  ``stats``:
    the states stored and the widest layer are added to its two entries."""
    return run_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
                    hold_gain, hold, bounds, sizes, floor, width, max_states, choice_out,
                    group_jokers, held_out, stats,
                    pass_setup(must, opt, must_j + opt_j, sizes,
                               code_setup(sizes[0], sizes[1] + must_j + opt_j)),
                    np.zeros(0, np.int64))


@njit(cache=True)
def pass_setup(must, opt, jokers, sizes, codes):
    """The tables that every pass of one position (``must``, ``opt``, ``jokers``, ``sizes``)
    reads, built once for all (:func:`run_pass`): the group tables, the joker reach, the
    colour codes and their traits (``codes``: :func:`~solvers.rummikub.wide._codes.
    code_setup` of ``sizes[0]`` and ``sizes[1] + jokers``), the colour order, and per
    number the close tables and the group reach, each built by the first pass that comes
    to that number (``ready``)."""
    colours, numbers = must.shape
    min_len, copies = sizes
    ok, cap = group_tables(colours, copies, jokers, min_len)
    digits, keys, shift, traits = codes
    codes = digits.shape[0]
    # (lazy ones, :func:`fill_codes`, fault in only the pages of the codes states hold;
    # int32: half the memory a position's passes fault in; codes and the jokers needed fit)
    closed = np.empty((numbers, colours, codes, jokers + 1), np.int32)
    needc = np.empty((numbers, colours, codes), np.int32)
    known = np.zeros((numbers, colours, codes if codes > LAZY_CODES else 0), np.bool_)
    reach = np.empty((numbers, colours, cap + 1, copies + 1, jokers + 1), np.bool_)
    return (ok, cap, _near(must, opt, jokers), must + opt, digits, keys, shift, traits,
            colour_order(must, opt), closed, needc, known, reach, np.zeros(numbers, np.bool_))


@njit(cache=True)
def _number_tables(setup, v, jokers):
    """Number v+1's group reach and close tables (:func:`pass_setup`), built if no pass
    came to it before (lazy close tables, more than :data:`LAZY_CODES` codes: each code's
    entries filled by the first pass whose states hold it, :func:`fill_codes`)."""
    ok, cap, real, digits, keys, shift, order = setup[0], setup[1], setup[3], setup[4], setup[5], \
        setup[6], setup[8]
    closed, needc, known, reach, ready = setup[9:]
    if not ready[v]:
        reach[v] = group_reach(ok, cap, order[v], real, v, jokers)
        if known.shape[2] == 0:
            close_tables(digits, keys, shift.shape[1] - 1, real, v, jokers, closed[v], needc[v],
                         setup[7][3])
        ready[v] = True
    return reach[v], closed[v], needc[v], known[v]


@njit(cache=True)
def fill_codes(rows, n, c, v, setup, jokers, known, before, last):
    """Fill the lazy close entries (:func:`_number_tables`) that the next sub-step of
    colour c reads (``before``: every code its tiles can make of a row's, and at the last
    colour the other colours' codes) or that :func:`drop_dominated` reads after it (a row's
    code of colour c and its dominating neighbours; none at the last colour, whose need is
    not in the key)."""
    real, digits, keys, shift, closed, needc = setup[3], setup[4], setup[5], setup[6], \
        setup[9][v], setup[10][v]
    better, runs = setup[7][2], setup[7][3]
    colours = real.shape[0]
    cb = code_bits_of(digits.shape[0])
    close = (closed, needc, known, digits, keys, shift.shape[1] - 1, real, v, jokers, runs)
    cmask = (np.int64(1) << cb) - 1
    for i in range(n):
        a = rows[i, KEY_A]
        code = (a >> (cb * c)) & cmask
        if before:
            for t in range(shift.shape[1]):
                if shift[code, t] >= 0:
                    close_entry(close, c, shift[code, t] & 0xFFFF)
            for cc in range(colours if last else 0):
                close_entry(close, cc, (a >> (cb * cc)) & cmask)
        elif not last:
            close_entry(close, c, code)
            for e in range(better.shape[1]):
                if better[code, e] < 0:
                    break
                close_entry(close, c, better[code, e])


@njit(cache=True)
def run_pass(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld, hold_gain,
             hold, bounds, sizes, floor, width, max_states, choice_out, group_jokers,
             held_out, stats, setup, save):
    """:func:`solve_pass` with the position's tables ``setup`` (:func:`pass_setup`), which
    the passes of a position share; ``save``: where a pass given up at the budget is kept
    and from which the call's given-up pass goes on (:mod:`solvers.rummikub.wide._resume`;
    empty: none)."""
    colours, numbers = must.shape
    jokers = must_j + opt_j
    min_len = sizes[0]
    ok, cap, near, digits, shift, order = setup[0], setup[1], setup[2], setup[4], setup[6], \
        setup[8]
    short, duty, better, _runs = setup[7]
    cb = code_bits_of(digits.shape[0])
    if bounds.shape[0] > 0 and floor < bounds[numbers]:
        bounds = np.zeros(0, np.int64)  # (a floor below their objective: they do not hold)
    later = later_most(hold[0], bounds)
    rem = rack_bound(opt, weight, order, hold[0], hold_gain, later)
    (v0, at0, rows, n, used, count, truncated, layer_base, layer_kind, layer_at, parents,
     choices) = pass_start(save, numbers * 2 * colours)  # (or where a kept pass stopped)
    at = at0  # (the last layer's step, should a resumed pass stop before another)
    for v in range(v0, numbers):
        reach, closed, needc, known = _number_tables(setup, v, jokers)
        lazy = known.shape[1] > 0
        decide, undecided = hold_steps(hold, v, order[v])
        for at in range(at0 + 1 if v == v0 else 0, 2 * colours):  # (a held-out choice, then
            # a colour step)
            step = at // 2
            c = order[v, step]
            if at % 2 == 0:
                if decide[step] == 0:
                    continue
                ahead = rem[v, step - 1] - later[v] * hold_gain if step > 0 else rem[v, colours]
                rows, n = hold_layer(rows, n, v, jokers, joker_weight, hold_gain, hold,
                                     floor, ahead, later[v] + undecided[step], decide[step])
                layer_kind[count], layer_at[count] = LAYER_HOLD, v
            else:
                last = step == colours - 1
                if lazy:
                    fill_codes(rows, n, c, v, setup, jokers, known, True, last)
                rows, table, n = sub_step(rows, n, v, c, step, must, opt, weight,
                                          joker_weight, jokers, target, joker_meld, hold,
                                          near, reach, ok, cap,
                                          rem[v, step] + undecided[step] * hold_gain, floor,
                                          cb, shift, closed, needc, jokers == min_len)
                if lazy:
                    fill_codes(rows, n, c, v, setup, jokers, known, False, last)
                n = drop_dominated(rows, table, n, colours, cb, better,
                                   needc, done_colours(order[v], -1 if last else step),
                                   0 if last else c, colours if last else c + 1)
                layer_kind[count] = LAYER_LAST if last else LAYER_COLOUR
                layer_at[count] = v * colours + c
            if width > 0 and n > width:
                n = keep_flexible(rows, n, colours, cb, duty, width)
                truncated = 1
            layer_base[count] = used
            parents, choices, used = close_layer(rows, n, parents, choices, used)
            stats[0] += n
            stats[1] = max(stats[1], n)
            # a row's parent was a row index of the layer before: make it an id
            prev = layer_base[count - 1] if count > 0 else 0
            for i in range(n):
                parents[used - n + i] += prev
            count += 1
            if n == 0 or used > max_states:
                break
        if n == 0 or used > max_states:
            break
    if n == 0:
        return 0, NEG, truncated
    if used > max_states:
        if gives_up(save, max_states):  # (kept to go on with a larger budget)
            save_pass(save, v, at, rows, n, used, count, truncated, layer_base, layer_kind,
                      layer_at, parents, choices)
        return -1, NEG, truncated
    at = _final(rows, n, colours, cb, short, must_j, target, jokers)
    if at < 0 or rows[at, SCORE] < floor:  # (rack jokers left out can end below the floor)
        return 0, NEG, truncated
    _replay(layer_base[count - 1] + at, count, layer_base, layer_kind, layer_at, parents,
            choices, colours, hold, choice_out, group_jokers, held_out)
    return 1, rows[at, SCORE], truncated


@njit(cache=True)
def _replay(state, count, layer_base, layer_kind, layer_at, parents, choices, colours, hold,
            choice_out, group_jokers, held_out):
    """Follow the parents from the final ``state`` id back, writing each layer's choice."""
    choice_out[:] = 0
    group_jokers[:] = 0
    held_out[:] = 0
    for layer in range(count - 1, -1, -1):
        ch = choices[state]
        at = layer_at[layer]
        if layer_kind[layer] == LAYER_HOLD:
            starts, start_sets = hold[0], hold[1]
            for t in range(starts[at + 1] - starts[at]):
                if ch >> t & 1:
                    held_out[start_sets[starts[at] + t]] = 1
        else:
            v, c = at // colours, at % colours
            k, g = ch & 7, (ch >> 3) & 7
            choice_out[c, v, 0] = k - g
            choice_out[c, v, 1] = g
            choice_out[c, v, 2] = (ch >> 6) & 7
            choice_out[c, v, 3] = (ch >> 9) & 15
            if layer_kind[layer] == LAYER_LAST:
                group_jokers[v] = ch >> 13
        state = parents[state]
