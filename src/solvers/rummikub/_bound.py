"""An upper bound on the table sets an optimal move keeps: the linear relaxation, natively.

Least disturbance (:mod:`solvers.rummikub._least`) asks the DP for the optimum keeping more
and more table sets; its last pass proves that no move keeps one set more, and on some rules
(four copies, three jokers) that proof is most of the work.  A bound that equals the most
sets kept ends the passes as soon as one reaches it (their ``ceiling``: the answer is then
the same move, found sooner).

The bound is the linear relaxation of "keep the most table sets, placing every table tile
and rack tiles worth the optimum" over every valid set (a column per set: how many times it
is laid; a column per table set: held out or not; a column per rack tile kind: how many are
played), solved by column generation: a small bounded simplex
(:mod:`~solvers.rummikub._simplex`) on the sets found so far, then the set of least reduced
price (:func:`_cheapest_run`, :func:`_cheapest_group`: a run or group priced by the rows'
duals) joins while one prices below zero. Whatever the duals ``y`` reached, the bound is
their Lagrangian value (:func:`_dual_bound`): ``y . b`` plus what each column could add at
its reduced price within its bounds, the sets' at most the tiles' count over the shortest
set length times the best reduced price: valid for any ``y``, so rounding or an iteration
cap only loosens it. The rows are the tile kinds present (table or rack), the jokers and the
objective (scaled by its largest weight), and where the optimum is the objective's, its
parts (:func:`objective_parts`: the rack tiles, value and jokers every move counted plays).
It relaxes what the passes' DP enforces beyond sets' shapes (official joker retrieval; two
real tiles per set, except in :mod:`solvers.rummikub._branch`'s programme, which prices only
sets of two real tiles where the rules ask: :func:`programme`'s ``min_real``), so it is
valid there too. Measured with HiGHS on the tests' integer programme (the flow model's LP):
its floor equals the most sets kept in 55 of 60 tail positions (old/s10 report).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import highest_number, min_set_length
from solvers.rummikub._official import cheaper_rows, run_only_rows
from solvers.rummikub._simplex import TOL, entry, reduced, simplex

BIG_M = 1000.0  # an artificial's price (the objective counts sets: at most a few dozen)
MAX_ROUNDS = 80  # pricing rounds (columns join 17 at most a round)
MAX_PIVOTS = 4000


@njit(cache=True)
def _cheapest_run(y, row, joker_row, jokers, colour, numbers, min_len, min_real, out):
    """The run of ``colour`` of least price ``y . tiles`` (``row[c, v]``: the tile's row,
    -1 if absent; ``jokers``: the most a set may hold; a joker where it saves the most, at
    least ``min_real`` real tiles).  Writes its tiles' rows into ``out`` (joker:
    ``joker_row``) and returns ``(price, length)``; length 0 if none."""
    y_joker = y[joker_row] if joker_row >= 0 else 0.0
    best, best_a, best_b = np.inf, -1, -1
    top = np.empty(jokers + 1)  # the largest savings of a real tile so far, descending
    for a in range(numbers):
        # each end b extends the run a..b-1: its price is the same sum in the same order,
        # and the savings a joker may take are the largest so far (kept, not sorted anew)
        forced = 0
        price = 0.0
        n = 0
        for b in range(a, numbers):
            if row[colour, b] < 0:
                forced += 1
                if forced > jokers:
                    break  # (and for every longer run)
                price += y_joker
            else:
                price += y[row[colour, b]]
                _keep_largest(top, min(n, jokers), y[row[colour, b]] - y_joker)
                n += 1
            if b < a + min_len - 1 or n < min_real:
                continue
            with_jokers = price
            if jokers > forced and n > min_real:
                for k in range(min(jokers - forced, n - min_real)):
                    if top[k] <= 0.0:
                        break
                    with_jokers -= top[k]
            if with_jokers < best:
                best, best_a, best_b = with_jokers, a, b
    if best_a < 0:
        return np.inf, 0
    # the jokers again, as chosen: the absent tiles, then the largest savings
    length = best_b - best_a + 1
    free = jokers
    for v in range(best_a, best_b + 1):
        out[v - best_a] = row[colour, v]
        if row[colour, v] < 0:
            out[v - best_a] = joker_row
            free -= 1
    real = 0
    for v in range(best_a, best_b + 1):
        real += row[colour, v] >= 0
    while free > 0 and real > min_real:
        pick, most = -1, 0.0
        for v in range(best_a, best_b + 1):
            r = out[v - best_a]
            if r != joker_row and y[r] - y_joker > most:
                pick, most = v - best_a, y[r] - y_joker
        if pick < 0:
            break
        out[pick] = joker_row
        free -= 1
        real -= 1
    return best, length


@njit(cache=True, inline="always")
def _keep_largest(top, count, value):
    """Insert ``value`` into the ``count`` largest values kept descending in ``top`` (one
    more slot than those kept; the smallest falls off the end)."""
    k = min(count, len(top) - 1)
    while k > 0 and top[k - 1] < value:
        top[k] = top[k - 1]
        k -= 1
    top[k] = value


@njit(cache=True)
def _cheapest_group(y, row, joker_row, jokers, number, min_len, min_real, out):
    """The group of ``number`` of least price (distinct colours, jokers for missing ones,
    at least ``min_real`` real tiles): ``(price, size)``, its rows in ``out``; size 0 if
    none."""
    y_joker = y[joker_row] if joker_row >= 0 else 0.0
    colours = row.shape[0]
    best, best_mask, best_k = np.inf, 0, 0
    for mask in range(1, 1 << colours):
        price = 0.0
        size = 0
        for c in range(colours):
            if mask >> c & 1:
                if row[c, number] < 0:
                    size = -1
                    break
                price += y[row[c, number]]
                size += 1
        if size < min_real:  # (-1: a tile absent)
            continue
        for k in range(min(jokers, colours - size) + 1):
            if size + k >= min_len and price + k * y_joker < best:
                best, best_mask, best_k = price + k * y_joker, mask, k
    if best_mask == 0:
        return np.inf, 0
    n = 0
    for c in range(colours):
        if best_mask >> c & 1:
            out[n] = row[c, number]
            n += 1
    for _ in range(best_k):
        out[n] = joker_row
        n += 1
    return best, n


@njit(cache=True)
def _price_sets(y, row, joker_row, jokers, numbers, min_len, idx, val, nnz, cost, upper, ncols,
                room, run_row, min_real):
    """Add to the columns from ``ncols`` on the cheapest run of each colour and group of
    each number that price below zero (at most ``room``; ``run_row``: the rows of tiles
    for runs only, -1 where none, a run taking the cheaper of the two).  Returns the
    columns and the least price of any set (``inf`` if none)."""
    colours = row.shape[0]
    out = np.empty(max(row.shape[0], row.shape[1]), np.int64)
    least = np.inf
    runs = cheaper_rows(y, row, run_row)
    for k in range(colours + numbers):
        if k < colours:
            price, size = _cheapest_run(y, runs, joker_row, jokers, k, numbers, min_len,
                                        min_real, out)
        else:
            price, size = _cheapest_group(y, row, joker_row, jokers, k - colours, min_len,
                                          min_real, out)
        if size == 0:
            continue
        least = min(least, price)
        if price < -TOL and ncols < room:
            nnz[ncols] = 0
            for i in range(size):
                entry(idx, val, nnz, ncols, out[i], 1.0)
            cost[ncols] = 0.0
            upper[ncols] = np.inf
            ncols += 1
    return ncols, least


@njit(cache=True)
def _dual_bound(y, b, idx, val, nnz, cost, upper, first_real, first_sets, row, joker_row,
                jokers, numbers, min_len, tiles, least, run_row, min_real):
    """The Lagrangian bound of duals ``y`` (the objective row's, the last, taken <= 0):
    ``y . b``, plus each played-tile or held-out column (``first_real..first_sets-1``) at
    its best bound, plus the sets' most (``tiles`` over ``min_len`` sets at the best
    reduced price ``least``: NaN to price them here).  Returns ``(bound, size)``: ``size``
    the sum of its terms' magnitudes, so that its rounding is at most ``1e-12 * size``."""
    m = len(y)
    dual = y.copy()
    dual[m - 1] = min(dual[m - 1], 0.0)
    total = size = 0.0
    for k in range(m):
        total += dual[k] * b[k]
        size += abs(dual[k] * b[k])
    for j in range(first_real, first_sets):
        d = reduced(dual, cost, idx, val, nnz, j)
        if d > 0.0:
            total += d * upper[j]  # (the objective's slack has d <= 0: no infinite term)
            size += (abs(cost[j]) + _magnitude(dual, idx, val, nnz, j)) * upper[j]
    if np.isnan(least):
        _none, least = _price_sets(dual, row, joker_row, jokers, numbers, min_len, idx, val,
                                   nnz, cost, upper, 0, 0, run_row, min_real)  # (no room)
    if least < 0.0:
        total += -least * tiles / min_len
        # (a set's price sums a dual term or two a tile, and a set holds 26 tiles at most)
        size += (52.0 * np.abs(dual).max() + abs(least)) * tiles / min_len
    return total, size


@njit(cache=True, inline="always")
def _magnitude(y, idx, val, nnz, j):
    """The sum of ``|y_r a_rj|`` over column ``j``'s rows: its reduced price's rounding
    scale."""
    s = 0.0
    for e in range(nnz[j]):
        s += abs(y[idx[j, e]] * val[j, e])
    return s


@njit(cache=True)
def sets_bound(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, slot_number,
               slot_colour, set_start, s0, s1):
    """The most table sets (``s0..s1-1``, as :mod:`solvers.rummikub._least` gives them) a
    move placing every table tile and rack tiles worth ``optimum`` (under ``weight`` and
    ``joker_weight``) may keep, by the linear relaxation: ``(bound, pivots, columns)``,
    the bound rounded down (at most the number of sets)."""
    lp = _programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                    slot_number, slot_colour, set_start, s0, s1)
    bound, pivots = _solve(lp, np.int64(MAX_PIVOTS))  # (int64: one compiled _solve)
    return min(s1 - s0, bound), MAX_PIVOTS - pivots, lp[0][0]


@njit(cache=True)
def later_bounds(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                 slot_number, slot_colour, set_start, s0, s1, later, caps):
    """:func:`sets_bound`, and the same programme's bounds with other prices on the
    held-out columns, each solved from the one before (the costs change, the basis stays
    feasible): in ``later[v]`` (the sets starting after number v+1, as
    :func:`solvers.rummikub._least.hold_tables` counts them) at most the bound on how many
    of those an optimal move keeps; ``caps[v, 0]``: on how many of the sets starting at
    numbers 1..v+1; ``caps[v, 1]``: on twice those plus the later ones; ``caps[13, 0]``:
    the sets plus one (:func:`solvers.rummikub._hold._most_held` reads them).  Returns
    ``(bound, pivots)``."""
    return shaped_later_bounds(must, rack, must_j, rack_j, weight, joker_weight, optimum,
                               highest_number(mode), min_set_length(mode), slot_number,
                               slot_colour, set_start, s0, s1, later, caps, True)


@njit(cache=True)
def shaped_later_bounds(must, rack, must_j, rack_j, weight, joker_weight, optimum, numbers,
                        min_len, slot_number, slot_colour, set_start, s0, s1, later, caps,
                        exact):
    """:func:`later_bounds` on any tile set: ``must.shape[0]`` colours, numbers
    1..``numbers``, sets of ``min_len`` tiles at least; ``later`` and ``caps`` a row a
    number of ``must`` (``caps`` one more: its last row, the sets plus one; no rows: no
    caps, a third of the solves); ``exact``: ``optimum`` is the objective's optimum, not
    only a score to reach (:func:`programme`)."""
    lp, bound, pivots = solved_programme(must, rack, must_j, rack_j, weight, joker_weight,
                                         optimum, numbers, min_len, slot_number, slot_colour,
                                         set_start, s0, s1, exact, False, np.int64(1))
    return later_and_caps(lp, bound, pivots, slot_number, set_start, s0, s1, later, caps)


@njit(cache=True)
def solved_programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, numbers,
                     min_len, slot_number, slot_colour, set_start, s0, s1, exact, unit_rack,
                     min_real):
    """:func:`programme` solved: ``(lp, its bound on all the sets kept (at most their
    number), pivots left)``."""
    lp = programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, numbers,
                   min_len, slot_number, slot_colour, set_start, s0, s1, exact, unit_rack,
                   min_real)
    bound, pivots = _solve(lp, np.int64(MAX_PIVOTS))  # (int64: one compiled _solve)
    return lp, min(s1 - s0, bound), pivots


@njit(cache=True)
def later_and_caps(lp, bound, pivots, slot_number, set_start, s0, s1, later, caps):
    """The rest of :func:`shaped_later_bounds` once the programme ``lp`` is solved (its
    bound on all the sets kept ``bound``, ``pivots`` left): ``later`` and ``caps``, each
    from the basis before.  Returns ``(bound, pivots used)``."""
    n_sets = s1 - s0
    top = later.shape[0]
    cost, first_held = lp[1][3], lp[3][1]
    first = np.empty(n_sets, np.int64)
    starts = np.zeros(top + 2, np.bool_)  # (a number where no set starts: as the one before)
    for i in range(n_sets):
        first[i] = _first_number(slot_number, set_start, s0 + i)
        starts[first[i]] = True
    for v in range(top):  # the sets starting at v+1 leave the objective
        if later[v] > 0:
            _price_held(cost, first_held, first, v + 1, 0.0)
            most = later[v - 1] if v > 0 else bound
            if starts[v + 1]:
                most, pivots = _solve(lp, pivots)
            later[v] = min(later[v], most, later[v - 1] if v > 0 else most)
        else:
            later[v] = 0
    if caps.shape[0] == 0:
        return bound, MAX_PIVOTS - pivots
    for v in range(top):  # (all priced 0) the sets starting at v+1 join at price 1
        _price_held(cost, first_held, first, v + 1, 1.0)
        if v > 0 and not starts[v + 1]:
            caps[v, 0] = caps[v - 1, 0]
        else:
            caps[v, 0], pivots = _solve(lp, pivots)
    for v in range(top - 1, -1, -1):  # those starting from v+2 go back to price 1
        if v < top - 1:
            _price_held(cost, first_held, first, v + 2, 1.0)
        for i in range(n_sets):
            if first[i] <= v + 1:
                cost[first_held + i] = 2.0
        if v == 0 or starts[v + 1]:
            caps[v, 1], pivots = _solve(lp, pivots)
    for v in range(1, top):
        if not starts[v + 1]:
            caps[v, 1] = caps[v - 1, 1]
    caps[top, 0] = n_sets + 1
    return bound, MAX_PIVOTS - pivots


@njit(cache=True, inline="always")
def _price_held(cost, first_held, first, number, price):
    """Price the held-out columns of the sets starting at ``number``."""
    for i in range(len(first)):
        if first[i] == number:
            cost[first_held + i] = price


@njit(cache=True, inline="always")
def _first_number(slot_number, set_start, i):
    """The lowest number set ``i`` covers."""
    lo = 99
    for k in range(set_start[i], set_start[i + 1]):
        lo = min(lo, slot_number[k])
    return lo


@njit(cache=True)
def _solve(lp, pivots):
    """Column generation on the programme ``lp`` (:func:`_programme`) from its basis, at
    most ``pivots`` pivots: ``(the Lagrangian bound rounded down, pivots left)``."""
    count, basis, status, xb, binv = lp[0]
    idx, val, nnz, cost, upper = lp[1]
    row, joker_row, jokers, numbers, min_len, tiles, run_row, min_real = lp[2]
    b, first_real, first_sets = lp[3][0], lp[3][2], lp[3][3]
    ncols = count[0]
    room = len(nnz)
    y = np.zeros(len(b))
    least = np.nan
    for _round in range(MAX_ROUNDS):
        y, pivots = simplex(idx, val, nnz, cost, upper, ncols, basis, status, xb, binv,
                             pivots)
        before = ncols
        ncols, least = _price_sets(y, row, joker_row, jokers, numbers, min_len, idx, val,
                                   nnz, cost, upper, ncols, room, run_row, min_real)
        if ncols == before or pivots <= 0:
            break
    count[0] = ncols
    if y[len(y) - 1] > 0.0:  # (the bound's duals differ from these: price them again)
        least = np.nan
    bound, size = _dual_bound(y, b, idx, val, nnz, cost, upper, first_real, first_sets, row,
                              joker_row, jokers, numbers, min_len, tiles, least, run_row,
                              min_real)
    if not abs(bound) < 1e9:  # (NaN or overflow: duals gone wrong; zero duals' bound, every
        bound, size = _dual_bound(  # column at its best bound, is valid for any programme)
            np.zeros(len(b)), b, idx, val, nnz, cost, upper, first_real, first_sets, row,
            joker_row, jokers, numbers, min_len, tiles, np.nan, run_row, min_real)
    # (rounded down only past its own rounding error: a bound one too low would end the
    # held-out passes on a move keeping fewer sets than the best)
    return np.int64(np.floor(bound + 1e-7 + 1e-12 * size)), pivots


@njit(cache=True)
def _programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, slot_number,
               slot_colour, set_start, s0, s1):
    """The linear programme of :func:`sets_bound` with the artificials as its basis:
    ``((columns, basis, status, basic values, basis inverse), (the columns' rows, values,
    entries, costs, upper bounds), (the tiles' rows, the jokers' row, jokers, numbers,
    shortest set, tiles), (b, the first held-out column, the first real column, the first
    set column))``."""
    return programme(must, rack, must_j, rack_j, weight, joker_weight, optimum,
                     highest_number(mode), min_set_length(mode), slot_number, slot_colour,
                     set_start, s0, s1, True, False, np.int64(1))


@njit(cache=True)
def objective_parts(weight, joker_weight, optimum, rack, rack_j):
    """The rack's real tiles, their value and the jokers that every move scoring
    ``optimum`` plays, where the weights are the engine's (a tile ``a + b * number``, a
    joker ``a - 1``: :func:`~engines.rummikub.position.objective_weights`, either
    objective) and the score splits so in one way only within the rack; else
    ``(-1, -1, -1)``."""
    colours, numbers = weight.shape
    if numbers < 2:
        return -1, -1, -1
    step = weight[0, 1] - weight[0, 0]
    base = weight[0, 0] - step
    if step <= 0 or base <= 1 or joker_weight != base - 1:
        return -1, -1, -1
    tiles = 0
    value = 0
    for c in range(colours):
        for v in range(numbers):
            if weight[c, v] != base + step * (v + 1):
                return -1, -1, -1
            tiles += rack[c, v]
            value += (v + 1) * rack[c, v]
    found = 0
    parts = (-1, -1, -1)
    for jokers in range(rack_j + 1):
        for count in range(tiles + 1):
            rest = optimum - base * count - joker_weight * jokers
            if rest >= 0 and rest % step == 0 and rest // step <= value:
                found += 1
                parts = (count, rest // step, jokers)
    return parts if found == 1 else (-1, -1, -1)


# :func:`programme`'s ``min_real``: every move the rules allow lays sets of that many real
# tiles (a table joker kept at its run place counting as one: the family only grows), so
# pricing only those keeps the bound valid, and tighter (seed 8 40J #9 of two real tiles +
# jokers=4: 10 of 12 sets kept with sets of one real tile, the most kept 8; rkleast8).
@njit(cache=True)
def programme(must, rack, must_j, rack_j, weight, joker_weight, optimum, numbers, min_len,
              slot_number, slot_colour, set_start, s0, s1, exact, unit_rack, min_real):
    """:func:`_programme` on any tile set (:func:`shaped_later_bounds`' arguments).

    ``exact``: ``optimum`` is the objective's optimum, so that every move counted scores it
    exactly (not only at least): where the score splits one way only (:func:`objective_parts`),
    three rows more hold the rack's real tiles, value and jokers played at the optimum's.  The
    objective row alone lets the relaxation trade a fraction of a tile for value (copies=4 60J
    seed 11 #1, HiGHS on the same programme: 11.0 -> 8.33 with the rows, the most kept 8); their
    sum, it is then zeros (weights ``1 - 1e-5 * number`` made bases singular but for rounding:
    copies=4 + jokers=3 seed 17 60J #7's bound 9, HiGHS 7).  ``unit_rack``: a column of upper
    bound 1 a copy of a rack tile (:mod:`solvers.rummikub._branch` branches on the copies
    played).  A slot colour ``-2 - c``: a table joker kept at its run tile's place, a tile for
    runs only (:func:`solvers.rummikub._official.placed_run_jokers`).  ``min_real``: see above."""
    colours = must.shape[0]
    n_sets = s1 - s0
    row = np.full(must.shape, -1, np.int64)
    m = 0
    tiles = must_j + rack_j
    for c in range(colours):
        for v in range(numbers):
            if must[c, v] + rack[c, v] > 0:
                row[c, v] = m
                m += 1
                tiles += must[c, v] + rack[c, v]
    run_only, run_row, m = run_only_rows(must.shape, slot_number, slot_colour, set_start, s0,
                                         s1, m)
    joker_row = -1
    jokers = must_j + rack_j - run_only.sum()
    if jokers > 0:
        joker_row = m
        m += 1
    parts = objective_parts(weight, joker_weight, optimum, rack, rack_j) if exact else (
        -1, -1, -1)
    parts_row = m  # (the rows of the tiles played, their value, the jokers played)
    n_parts = 0 if parts[0] < 0 else 3 if rack_j > 0 else 2
    m += n_parts + 1  # (the objective's row last: its weight a unit, scaled by the largest)
    in_row = 0.0 if n_parts else 1 / max(abs(joker_weight), 1, np.abs(weight[:, :numbers]).max())
    b = np.zeros(m)
    room = 2 * m + 1 + 2 * n_sets + (colours + numbers) * MAX_ROUNDS + rack.sum() + rack_j
    # (a set: a row a number or colour; a rack tile: its row, the objective's, two parts)
    longest = max(must.shape[0], must.shape[1], 3) + 1
    idx = np.zeros((room, longest), np.int64)
    val = np.zeros((room, longest))
    nnz = np.zeros(room, np.int64)
    cost = np.zeros(room)
    upper = np.full(room, np.inf)
    for c in range(colours):
        for v in range(numbers):
            if row[c, v] >= 0:
                b[row[c, v]] = must[c, v]
            if run_row[c, v] >= 0:
                b[run_row[c, v]] = run_only[c, v]
    if joker_row >= 0:
        b[joker_row] = must_j - run_only.sum()
    b[parts_row:parts_row + n_parts] = np.array(parts)[:n_parts]
    b[m - 1] = optimum * in_row
    basis = np.arange(m)
    status = np.zeros(room, np.int64)
    binv = np.zeros((m, m))
    xb = np.abs(b)
    for r in range(m):  # artificials: the first basis
        binv[r, r] = 1.0 if b[r] >= 0 else -1.0
        entry(idx, val, nnz, r, r, binv[r, r])
        cost[r] = -BIG_M
        status[r] = 2
    first_real = ncols = m
    for c in range(colours):  # rack tiles played
        for v in range(numbers):
            for _column in range(rack[c, v] if unit_rack else min(rack[c, v], 1)):
                entry(idx, val, nnz, ncols, row[c, v], -1.0)
                entry(idx, val, nnz, ncols, m - 1, weight[c, v] * in_row)
                if parts[0] >= 0:
                    entry(idx, val, nnz, ncols, parts_row, 1.0)
                    entry(idx, val, nnz, ncols, parts_row + 1, v + 1.0)
                upper[ncols] = 1 if unit_rack else rack[c, v]
                ncols += 1
    for _column in range(rack_j if unit_rack else min(rack_j, 1)):
        entry(idx, val, nnz, ncols, joker_row, -1.0)
        entry(idx, val, nnz, ncols, m - 1, joker_weight * in_row)
        if parts[0] >= 0:
            entry(idx, val, nnz, ncols, parts_row + 2, 1.0)
        upper[ncols] = 1 if unit_rack else rack_j
        ncols += 1
    entry(idx, val, nnz, ncols, m - 1, -1.0)  # the objective's slack
    ncols += 1
    first_held = ncols
    for held in range(2):  # the table sets held out (price 1, at most once), then laid
        for i in range(s0, s1):
            for k in range(set_start[i], set_start[i + 1]):
                c, v = slot_colour[k], slot_number[k] - 1
                r = joker_row if c == -1 else run_row[-2 - c, v] if c < 0 else row[c, v]
                entry(idx, val, nnz, ncols, r, 1.0)
            if held == 0:
                cost[ncols] = 1.0
                upper[ncols] = 1.0
            ncols += 1
    return ((np.array([ncols]), basis, status, xb, binv), (idx, val, nnz, cost, upper),
            (row, joker_row, jokers, numbers, min_len, tiles, run_row, np.int64(min_real)),
            (b, first_held, first_real, ncols - n_sets))
