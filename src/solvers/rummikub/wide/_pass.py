"""The width-generic best-move DP: any number of colours (1..8) and numbers (1..26).

The same algorithm as :mod:`solvers.rummikub._dp` (after van Rijn, Takes & Vis 2015): the
state between number v-1 and v records, per colour, the open runs ending at v-1 by length
(1, 2, >= 3) as the code ``a1 + 5*a2 + 25*a3`` (at most four runs a colour: two copies and
two jokers).  The widths are array shapes here, not constants, and the key is two words:

- ``key_a``: colour c's code at bits ``7*c`` (eight colours: 56 bits);
- ``key_b``: jokers placed so far (bits 0-2), inside a number the colours that gave one /
  two tiles to groups (``n1`` bits 3-6, ``n2`` bits 7-10), the initial-meld value so far
  capped at the threshold (bits 11-17, a player who has not melded) and the slots of the
  held-out table sets that cover the number (bits 18-63, least disturbance: 46 slots).

Each number is a few layers: the held-out choice of the table sets that start there (only
when some do), one sub-step per colour (real tiles to runs and groups, jokers to runs),
then the jokers joining groups with the group feasibility check.  A colour's runs shorter
than 3 must continue (else the state dies; the final state has none), then as many runs of
3+ as the tiles allow (a run that would start instead continues one just as well), the
other tiles start runs.  A run joker goes only where a tile of its colour lies within two
numbers (a run has a real tile and at most two jokers).

Least disturbance: a table set held out stays as it was (its tiles leave ``must``, its
jokers count as placed) and gains ``hold_gain``; the engine scales the objective's weights
above the most sets a table can hold, so holding is a tie-break after the objective's own.

Inputs are clean integer arrays (the engine checks the position): ``must``/``opt`` (C, N)
table / rack tiles (``must + opt <= 2``), ``must_j``/``opt_j`` jokers, ``weight`` (C, N)
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

from solvers.rummikub.wide._store import (
    KEY_A,
    KEY_B,
    SCORE,
    close_layer,
    lookup,
    new_layer,
    offer,
    room,
)

MAX_COLOURS = 8
MAX_NUMBERS = 26
HOLD_SLOTS = 46
_MELD_AT = 11
_HOLD_AT = 18
NEG = np.int64(-(2**62))
LAYER_HOLD, LAYER_COLOUR, LAYER_GROUP = 0, 1, 2


@njit(cache=True)
def group_feasible(colours):
    """``ok[n1, n2, jokers]``: whether the real tiles of ``n1`` colours giving one tile and
    ``n2`` giving two, with ``jokers`` jokers, split into groups of 3+ distinct colours with
    a real tile each: some ``k`` groups (two or more when a colour gives two) with
    ``k <= real``, ``3k <= tiles <= colours*k`` (deal the real tiles round-robin, then the
    jokers into the smallest groups)."""
    ok = np.zeros((colours + 1, colours + 1, 3), np.bool_)
    for n1 in range(colours + 1):
        for n2 in range(colours + 1 - n1):
            real = n1 + 2 * n2
            for j in range(3):
                tiles = real + j
                if tiles == 0:
                    ok[n1, n2, j] = True
                    continue
                for k in range(2 if n2 > 0 else 1, real + 1):
                    if 3 * k <= tiles <= colours * k:
                        ok[n1, n2, j] = True
    return ok


@njit(cache=True, inline="always")
def _held(hold, v, c, colours, cells, cell_slot, cell_count):
    """Tiles of cell (c, v+1) in the held-out sets of slot mask ``hold``."""
    out = 0
    at = v * colours + c
    for e in range(cells[at], cells[at + 1]):
        if hold >> cell_slot[e] & 1:
            out += cell_count[e]
    return out


@njit(cache=True)
def _hold_layer(rows, n, v, jokers, joker_weight, hold_gain, starts, start_sets, set_slot,
                set_jokers):
    """The held-out choice of the table sets starting at number v+1 (a subset each state);
    a held set's jokers count as placed (and gain as placed jokers do, as they would when
    the DP placed them)."""
    first, m = starts[v], starts[v + 1] - starts[v]
    out, table = new_layer(max(16, n * (1 << m)))
    size = 0
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        for subset in range(1 << m):
            add_j, mask, count = 0, np.int64(0), 0
            for t in range(m):
                if subset >> t & 1:
                    s = start_sets[first + t]
                    add_j += set_jokers[s]
                    mask |= np.int64(1) << (_HOLD_AT + set_slot[s])
                    count += 1
            ju = (b & 7) + add_j
            if ju > jokers:
                continue
            size = offer(out, table, size, a, (b & ~np.int64(7)) + ju | mask,
                         score + count * hold_gain + add_j * joker_weight, i, subset)
    return out, size


@njit(cache=True)
def _colour_layer(rows, n, v, c, must, opt, weight, joker_weight, jokers, target,
                  joker_meld, cells, cell_slot, cell_count, near):
    """Colour c at number v+1: real tiles to runs and groups, jokers to runs (only where
    ``near``); all open runs shorter than 3 continue, then as many longer ones as the
    tiles allow (the others end), the rest start runs."""
    colours = must.shape[0]
    out, table = new_layer(max(16, 4 * n))
    size = 0
    shift = 7 * c
    number = v + 1
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        code = (a >> shift) & 127
        a1, a2, a3 = code % 5, (code // 5) % 5, code // 25
        ju = b & 7
        n1, n2 = (b >> 3) & 15, (b >> 7) & 15
        meld = (b >> _MELD_AT) & 127
        lo = must[c, v] - _held(b >> _HOLD_AT, v, c, colours, cells, cell_slot, cell_count)
        base_a = a & ~(np.int64(127) << shift)
        spare = jokers - ju if near[c, v] else 0
        for k in range(lo, lo + opt[c, v] + 1):
            for g in range(min(k, 2) + 1):
                r = k - g
                nb_groups = n1 + (1 if g == 1 else 0), n2 + (1 if g == 2 else 0)
                for j in range(spare + 1):
                    t = r + j
                    if t < a1 + a2:
                        continue
                    gain = (k - lo) * weight[c, v] + j * joker_weight
                    nb = ju + j | nb_groups[0] << 3 | nb_groups[1] << 7
                    if target >= 0:
                        nb |= min(target, meld + (k + j * joker_meld) * number) << _MELD_AT
                    else:
                        nb |= b & ~np.int64((1 << _MELD_AT) - 1)
                    # as many runs of 3+ continue as the tiles allow: a run that would
                    # start here instead continues one of them just as well
                    e3 = min(a3, t - a1 - a2)
                    fresh = t - a1 - a2 - e3
                    na = base_a | np.int64(fresh + 5 * a1 + 25 * (a2 + e3)) << shift
                    out, table = room(out, table, size, 1)
                    size = offer(out, table, size, na, nb, score + gain, i,
                                 k | g << 3 | j << 5 | e3 << 8)
    return out, size


@njit(cache=True)
def _group_layer(rows, n, v, ok, joker_weight, jokers, target, joker_meld, end_mask,
                 colours):
    """Jokers joining number v+1's groups; the groups' feasibility; the number closed (the
    states another dominates dropped)."""
    out, table = new_layer(max(16, 2 * n))
    size = 0
    number = v + 1
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        ju = b & 7
        n1, n2 = (b >> 3) & 15, (b >> 7) & 15
        meld = (b >> _MELD_AT) & 127
        hold = (b >> _HOLD_AT) & ~end_mask[v]
        out, table = room(out, table, size, 3)
        for j in range(min(2, jokers - ju) + 1):
            if not ok[n1, n2, j]:
                continue
            nb = ju + j | hold << _HOLD_AT
            if target >= 0:
                nb |= min(target, meld + j * joker_meld * number) << _MELD_AT
            size = offer(out, table, size, a, nb, score + j * joker_weight, i, j)
    return out, _drop_dominated(out, table, size, colours)


@njit(cache=True)
def _near(must, opt):
    """``near[c, v]``: whether a tile of colour c lies within two numbers of v+1.  A run
    joker there needs one: a run holds a real tile and at most two jokers, so the nearest
    real tile of a joker's run is at most two numbers away."""
    colours, numbers = must.shape
    near = np.zeros((colours, numbers), np.bool_)
    for c in range(colours):
        for v in range(numbers):
            for w in range(max(0, v - 2), min(numbers, v + 3)):
                if must[c, w] + opt[c, w] > 0:
                    near[c, v] = True
    return near


@njit(cache=True)
def _drop_dominated(rows, table, n, colours):
    """The layer without the states that another one dominates, compacted; returns the
    count kept.  In one colour, a run of length 1 that is one of length 2 or 3+ instead,
    one of length 2 that is one of 3+, or one more run of 3+, never loses an option (longer
    runs need fewer tiles, a long run may end anywhere), so a state with such a neighbour
    of at least its score cannot be better (the order is strict: every state dropped keeps
    a live dominator)."""
    dropped = np.zeros(n, np.bool_)
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        for c in range(colours):
            code = (a >> (7 * c)) & 127
            a1, a2, a3 = code % 5, (code // 5) % 5, code // 25
            base = a & ~(np.int64(127) << (7 * c))
            for d1, d2, d3 in ((0, 0, 1), (-1, 1, 0), (0, -1, 1), (-1, 0, 1)):
                if a1 + d1 < 0 or a2 + d2 < 0 or a1 + a2 + a3 + d1 + d2 + d3 > 4:
                    continue
                near = base | np.int64(a1 + d1 + 5 * (a2 + d2) + 25 * (a3 + d3)) << (7 * c)
                j = lookup(rows, table, near, b)
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
def _final(rows, n, colours, must_j, target):
    """The best row whose runs are all 3+ long, with the table's jokers placed and (not
    melded) nothing played or the threshold reached; -1 if none."""
    best, at = NEG, -1
    for i in range(n):
        a, b = rows[i, KEY_A], rows[i, KEY_B]
        short = False
        for c in range(colours):
            if ((a >> (7 * c)) & 127) % 25:
                short = True
        meld = (b >> _MELD_AT) & 127
        if short or (b & 7) < must_j or (target > 0 and 0 < meld < target):
            continue
        if rows[i, SCORE] > best:
            best, at = rows[i, SCORE], i
    return at


@njit(cache=True)
def solve_wide(must, opt, must_j, opt_j, weight, joker_weight, target, joker_meld,
               hold_gain, starts, start_sets, set_slot, set_jokers, end_mask, cells,
               cell_slot, cell_count, max_states, choice_out, group_jokers, held_out, stats):
    """One position: fills ``choice_out[c, v] = (real tiles to runs, real tiles to groups,
    run jokers, open runs of 3+ continued)``, ``group_jokers[v]`` and ``held_out[set]``.
    Returns ``(status, score)``: status 1 solved, 0 no arrangement, -1 more than
    ``max_states`` states (memory bound).
    ``stats``: the states stored and the widest layer are added to its two entries."""
    colours, numbers = must.shape
    jokers = must_j + opt_j
    ok = group_feasible(colours)
    near = _near(must, opt)
    layers = numbers * (colours + 2)
    layer_base = np.zeros(layers + 1, np.int64)
    layer_kind = np.zeros(layers, np.int64)
    layer_at = np.zeros(layers, np.int64)
    parents = np.empty(1024, np.int64)
    choices = np.empty(1024, np.int64)
    rows, _ = new_layer(1)
    rows[0, KEY_A] = 0
    rows[0, KEY_B] = 0
    rows[0, SCORE] = 0
    parents[0], choices[0] = -1, 0
    used, n, count = 1, 1, 0
    for v in range(numbers):
        for step in range(colours + 2):
            if step == 0:
                if starts[v + 1] == starts[v]:
                    continue
                rows, n = _hold_layer(rows, n, v, jokers, joker_weight, hold_gain, starts,
                                      start_sets, set_slot, set_jokers)
                layer_kind[count], layer_at[count] = LAYER_HOLD, v
            elif step <= colours:
                rows, n = _colour_layer(rows, n, v, step - 1, must, opt, weight, joker_weight,
                                        jokers, target, joker_meld, cells, cell_slot,
                                        cell_count, near)
                layer_kind[count], layer_at[count] = LAYER_COLOUR, v * colours + step - 1
            else:
                rows, n = _group_layer(rows, n, v, ok, joker_weight, jokers, target,
                                       joker_meld, end_mask, colours)
                layer_kind[count], layer_at[count] = LAYER_GROUP, v
            layer_base[count] = used
            parents, choices, used = close_layer(rows, n, parents, choices, used)
            stats[0] += n
            stats[1] = max(stats[1], n)
            # a row's parent was a row index of the layer before: make it an id
            prev = layer_base[count - 1] if count > 0 else 0
            for i in range(n):
                parents[used - n + i] += prev
            count += 1
            if n == 0:
                return 0, NEG
            if used > max_states:
                return -1, NEG
    at = _final(rows, n, colours, must_j, target)
    if at < 0:
        return 0, NEG
    _replay(layer_base[count - 1] + at, count, layer_base, layer_kind, layer_at, parents,
            choices, colours, starts, start_sets, choice_out, group_jokers, held_out)
    return 1, rows[at, SCORE]


@njit(cache=True)
def _replay(state, count, layer_base, layer_kind, layer_at, parents, choices, colours,
            starts, start_sets, choice_out, group_jokers, held_out):
    """Follow the parents from the final ``state`` id back, writing each layer's choice."""
    choice_out[:] = 0
    group_jokers[:] = 0
    held_out[:] = 0
    for layer in range(count - 1, -1, -1):
        ch = choices[state]
        at = layer_at[layer]
        if layer_kind[layer] == LAYER_COLOUR:
            v, c = at // colours, at % colours
            k, g = ch & 7, (ch >> 3) & 3
            choice_out[c, v, 0] = k - g
            choice_out[c, v, 1] = g
            choice_out[c, v, 2] = (ch >> 5) & 7
            choice_out[c, v, 3] = (ch >> 8) & 7
        elif layer_kind[layer] == LAYER_GROUP:
            group_jokers[at] = ch
        else:
            for t in range(starts[at + 1] - starts[at]):
                if ch >> t & 1:
                    held_out[start_sets[starts[at] + t]] = 1
        state = parents[state]
