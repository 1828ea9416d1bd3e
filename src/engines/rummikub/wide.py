"""Best moves for the wide tile sets: up to eight colours and numbers up to 26.

The rules' ``colours`` above 4 or ``numbers`` above 13 are past the fast kernels' state key
(:mod:`solvers.rummikub._layout`); :func:`solve_wide_moves` solves them with the same DP
over wider arrays and a two-word key (:mod:`solvers.rummikub.wide`), one position a call,
and builds the moves from its choices (:mod:`engines.rummikub.wide_sets`).  Least
disturbance (on by default) is solved inside that DP: a table set may be held out whole,
and each one held is worth less than any difference in the objective
(:data:`_HOLD_SCALE`).  Before an exact pass the kernel asks
for the linear relaxation's bounds on the sets kept and on the aims in reach
(:func:`_kept_bounds`), computed here so that the kernel package calls no other; when the
optimum leaves rack tiles out, the sets kept are first those of the branched relaxation's
node that a move keeps (:mod:`engines.rummikub.wide_kept`), else searched per part left
out (:func:`_kept_by_parts`).

>>> from engines.rummikub.position import Position
>>> from engines.rummikub.rules import Rules
>>> rules = Rules(numbers=20, colours=6)
>>> p = Position.from_strings(["G14 G15 G16"], "G17 Y5 G13", **rules.position_limits())
>>> move = solve_wide_moves([p], "tiles", rules)[0]
>>> [str(t) for t in move.played], move.sets_kept
(['G13', 'G17'], 0)
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Generator, Sequence

import numpy as np

from engines.rummikub.errors import PositionError, RummikubInputError
from engines.rummikub.position import Move, Position, _counts, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.sets import Meld, Slot, validate_set
from engines.rummikub.tiles import ALL_COLOURS, Tile
from engines.rummikub.wide_sets import arrange_choice
from engines.threads import numba_threads

# Least disturbance: the objective's weights times this, plus one per table set held out
# (a table holds at most (8 * 26 * 4 + 3) / 2 < 512 sets).
_HOLD_SCALE = 512
# The most states one position's DP may store (about 16 bytes each kept for the replay,
# 40 in the layer being built): a bound on memory whatever the position.
MAX_STATES = 40_000_000
# The narrow pass's states a layer (the search for an arrangement that plays the whole rack).
WIDTH = 32
# Under least disturbance, a pass past this many states stops its orientation for the other
# one, then each goes on in turn from where it stopped with twice its budget (:func:`_ways`;
# where the heuristic of :func:`_rack_later` misses: 8 x 13, three jokers, 80J #0 of the
# bench's seed 31, 1.35 M states reversed, 24 k as it is, 184 k in all)
TURN_STATES = 131_072
# A way whose narrow passes found the whole rack where the other's missed it goes on alone,
# its budget doubling, while the budget is below this (:func:`_stays`; where the other way
# is the cheaper one, it was at most 3.5 ms so on the ``--wide`` rows, seeds 11 and 1-7)
STAY_STATES = 1 << 20
# The other way's first turn after its first call has this share of the budget: a look
# (a cheap way's passes fit it: seed 31's 8 x 13 three jokers 80J #0, 24 k states in all;
# an eighth or less, 16 k to 4 k, missed the cheap way of the ``--wide`` seed 7 8 x 26 three
# jokers 80J #1, 203 k -> 299-315 k states, where the positions whose ways are both dear
# gained 20-60 k states more)
LOOK_SHARE = 4
# The kernel asks for the linear relaxation's bounds on the sets kept (and on the aims in
# reach) before its exact passes; False: the same passes without them (tests compare)
BOUNDS = True
# The most parts of the rack left out that the sets kept at an optimum short of the whole
# rack are searched by, one at a time (:func:`_kept_by_parts`; more: over the whole rack,
# 1.52 M states where its 37 parts took 0.11 M: 8 x 13, sets of 4 with three jokers)
MAX_PARTS = 64
# More parts than this: first the pass over the whole rack, if it stores at most
# PART_STATES a part (its fixed cost is one pass's; a part's, a pass and maybe a relaxation;
# 6 x 20 sets of 4 + three jokers, 55 parts: 0.18 M states by the parts, 0.11 M so)
FEW_PARTS, PART_STATES = 16, 2_048
PROBES_PAST = 4  # (:func:`_kept_by_parts`; 6 x 20 four copies, --wide seed 7: 21 in a row)
#: States stored and the widest layer, summed over the passes since it was last zeroed
#: (the benches read it).
STATS = np.zeros(2, np.int64)


def solve_wide_moves(positions: Sequence[Position], objective: str, rules: Rules,
                     threads: int | None = None) -> list[Move]:
    """The best move of every position under ``rules`` (a wide tile set; checked by the
    caller: :func:`~engines.rummikub.position.best_moves`)."""
    for i, p in enumerate(positions):
        rules.check_tiles(p.table, p.rack, f"positions[{i}]")
    with numba_threads(threads, RummikubInputError):
        moves = [_solve(p, objective, rules, i) for i, p in enumerate(positions)]
    for move in moves:  # (what the table's jokers stand for: Move.tiles_moved)
        move.tile_set = (rules.colours, rules.numbers)
    return moves


def warmup() -> None:
    """Load (first use: compile) the kernels that this engine calls besides the DP's
    entry: the linear relaxation (:func:`_kept_bounds`), ``playable``, ``left_out`` and
    ``aim_floors``, and the branched relaxation (:func:`~engines.rummikub.wide_kept.
    branched_kept`).
    The first call of each loads it, 15-110 ms a position where several come at once, which
    would otherwise land on the first position that asks for them (a bench's;
    :func:`engines.rummikub.warmup` leaves the wide kernels out: the default rules never
    call them, only wide tile sets and the crossings that go to the wide DP)."""
    from engines.rummikub.wide_kept import branched_kept
    from solvers.rummikub.wide._exact import aim_floors, left_out

    rules = Rules(colours=5)
    pos = Position.from_strings([["K1", "K2", "K3"]], "K4 K5", **rules.position_limits())
    solve_wide_moves([pos], "tiles", rules)
    melds = _table_melds(pos, rules)
    must, _ = _counts(pos.table_tiles, rules.colours, rules.numbers)
    rack, _ = _counts(pos.rack, rules.colours, rules.numbers)
    weight, jw = objective_weights("tiles", rules.colours, rules.numbers)
    starts = _hold_arrays(melds, rules.colours, rules.numbers)[0]
    _kept_bounds(melds, starts, must, rack, 0, 0, weight, jw, 3, 0, 1)
    left_out(rack, weight, 0, jw, 0, np.zeros((1, rack.size + 1), np.int64))
    aim_floors(must, rack, 0, 0, weight, jw, 3)
    branched_kept(melds, must, rack, 0, 0, weight, jw, 3, 0, lambda chosen: None)


def _table_melds(pos: Position, rules: Rules) -> list[Meld]:
    return [validate_set(s, min_len=2, colours=rules.colours, numbers=rules.numbers)
            for s in pos.table]


def _hold_arrays(melds: list[Meld], colours: int, numbers: int) -> tuple[np.ndarray, ...]:
    """The held-out inputs of :func:`solvers.rummikub.wide.solve_wide` for table sets
    ``melds`` (empty ones: no set may be held out).  Sets covering a number get distinct
    slots (interval colouring: each takes the lowest slot free from its first number)."""
    from solvers.rummikub.wide import HOLD_SLOTS

    spans = [(min(s.stands_for.number for s in m) - 1, max(s.stands_for.number for s in m) - 1)
             for m in melds]
    order = sorted(range(len(melds)), key=lambda i: spans[i])
    slot = [0] * len(melds)
    busy_until: list[int] = []  # per slot, the last number of the set holding it
    for i in order:
        lo, hi = spans[i]
        free = next((k for k, end in enumerate(busy_until) if end < lo), len(busy_until))
        if free == len(busy_until):
            busy_until.append(hi)
        busy_until[free] = hi
        slot[i] = free
    if len(busy_until) > HOLD_SLOTS:  # cannot happen: a number is covered by <= 36 sets
        raise PositionError(f"least disturbance: more than {HOLD_SLOTS} table sets cover "
                            "one number")
    starts = np.zeros(numbers + 1, np.int64)
    for i in order:
        starts[spans[i][0] + 1] += 1
    starts = np.cumsum(starts)
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    end_mask = np.zeros(numbers, np.int64)
    for i, m in enumerate(melds):
        end_mask[spans[i][1]] |= 1 << slot[i]
        real = Counter((ALL_COLOURS.index(s.tile.colour), s.tile.number - 1)
                       for s in m if not s.tile.is_joker)
        for (c, v), k in real.items():
            cells.setdefault((v, c), []).append((slot[i], k))
    ptr = np.zeros(numbers * colours + 1, np.int64)
    cell_slot, cell_count = [], []
    for v in range(numbers):
        for c in range(colours):
            for s, k in cells.get((v, c), ()):
                cell_slot.append(s)
                cell_count.append(k)
            ptr[v * colours + c + 1] = len(cell_slot)
    jokers = [sum(s.tile.is_joker for s in m) for m in melds]
    return (starts, np.array(order, np.int64), np.array(slot, np.int64),
            np.array(jokers, np.int64), end_mask, ptr, np.array(cell_slot, np.int64),
            np.array(cell_count, np.int64))


def _kept_bounds(melds: list[Meld], starts: np.ndarray, must: np.ndarray, rack: np.ndarray,
                 must_j: int, rack_j: int, weight: np.ndarray, jw: int, min_len: int,
                 score: int, scale: int, per_number: bool = True) -> np.ndarray:
    """The bounds that :func:`solvers.rummikub.wide.solve_wide` asked for, by the linear
    relaxation of the most table sets ``melds`` kept by a move at least as good in the
    objective as ``score`` (:func:`solvers.rummikub._bound.shaped_later_bounds`; the DP's
    score: the objective's ``weight``/``jw`` times ``scale``, plus one a set kept;
    ``starts``: the held-out arrays' offsets of the sets starting at each number): per
    number v+1 the most kept of the sets starting after it (not ``per_number``: zeros, for
    a caller that reads the most in all alone: a fifth less time); last, the floor of
    that objective (no set kept) and the most kept in all (negative: no move reaches it)."""
    from solvers.rummikub._bound import shaped_later_bounds
    from solvers.rummikub.wide._exact import playable

    numbers = must.shape[1]
    opt = playable(must, rack, must_j + rack_j, min_len)
    objective = score // scale  # (the DP counts the table's jokers as placed)
    optimum = objective - must_j * jw
    slots = [(s.stands_for.number, -1 if s.tile.is_joker else ALL_COLOURS.index(s.tile.colour))
             for m in melds for s in m]
    bounds = np.empty(numbers + 2, np.int64)
    later = bounds[:numbers]
    later[:] = starts[numbers] - starts[1:] if per_number else 0
    most, _pivots = shaped_later_bounds(
        must, opt, must_j, rack_j, weight, jw, optimum, numbers, min_len,
        np.array([n for n, _ in slots], np.int64), np.array([c for _, c in slots], np.int64),
        np.cumsum([0] + [len(m) for m in melds]).astype(np.int64), 0, len(melds), later,
        np.zeros((0, 2), np.int64),  # (the caps on the sets kept so far: no gain measured)
        False)  # (a move at least as good as score: not the optimum's parts)
    bounds[numbers:] = (objective * scale, most)
    return bounds


def _kept_by_parts(search: Callable[..., Generator[None, None, tuple[int, int]]],
                   bound: Callable[..., np.ndarray], objective: int, must: np.ndarray,
                   must_j: int, rack: np.ndarray, rack_j: int, scaled: tuple[np.ndarray, int],
                   min_len: int, choice: np.ndarray, group_jokers: np.ndarray
                   ) -> Generator[None, None, tuple[int, int]]:
    """``(status, score)``: the most table sets kept by a move of the objective's optimum
    (``objective``, scaled: the kernel found it holding no set out, :data:`ASK_PARTS`; the
    arrays hold such a move).  A move of that objective plays the playable rack less a part
    whose gains make up the rest (:func:`solvers.rummikub.wide._exact.left_out`); per part,
    the kernel's passes asking for one set more (``search`` resumed at ``ASK``) search the
    rest with every tile of it played, which their floor enforces from the first number
    (8 x 13, four copies: 0.59 M states proving one set more out of reach, 19.7 M over the
    whole rack), with the relaxation's bounds for that rest (``bound``; a part that they
    show cannot keep more than the best found is skipped, so is one whose rest holds a tile
    that no set can hold, :func:`~solvers.rummikub.wide._exact.playable`, or that an exact
    pass holding no set out, of at most ``PLAYS_STATES`` states, cannot play whole: it
    costs less than the relaxation, until :data:`PROBES_PAST` in a row pass those states:
    then the relaxation's most first), the answer's part first, until the whole rack's
    bounds show that no part keeps more.  More than :data:`MAX_PARTS` parts (or a gain not
    positive): the exact pass from the optimum over the whole rack; more than
    :data:`FEW_PARTS`: that pass first, if it stores at most :data:`PART_STATES` a part."""
    from solvers.rummikub.wide._exact import ASK, EXACT, PLAYS, left_out, playable

    weight, jw = scaled
    opt = playable(must, rack, must_j + rack_j, min_len)
    whole = (must_j + rack_j) * jw + int((opt * weight).sum())
    parts = np.zeros((MAX_PARTS, opt.size + 1), np.int64)
    count = MAX_PARTS + 1
    if (jw > 0 or must_j + rack_j == 0) and bool((weight[opt > 0] > 0).all()):
        count = left_out(opt, weight, rack_j, jw, whole - objective, parts)
    most = bound(rack, rack_j, objective, count > FEW_PARTS)  # (whatever the part)
    if count > MAX_PARTS:
        return (yield from search(rack, rack_j, most, EXACT, objective))
    if count > FEW_PARTS:  # (the pass over the whole rack, if it is cheap)
        status, found = yield from search(rack, rack_j, most, EXACT, objective,
                                          PART_STATES * count)
        if status >= 0:
            return status, found
    answer = np.append((opt - choice[:, :, 0] - choice[:, :, 1] + must).ravel(),
                       rack_j + must_j - choice[:, :, 2].sum() - group_jokers.sum())
    status, found, past = 1, objective, 0  # (past: the probes in a row past their states)
    for i in sorted(range(count), key=lambda i: not np.array_equal(parts[i], answer)):
        if found >= objective + most[-1]:
            break
        rest, rest_j = opt - parts[i, :-1].reshape(opt.shape), rack_j - int(parts[i, -1])
        if not np.array_equal(playable(must, rest, must_j + rest_j, min_len), rest):
            continue  # (a tile of the rest that no set holds without the part: not all played)
        if past >= PROBES_PAST and objective + bound(rest, rest_j, objective, False)[-1] <= found:
            continue
        plays = yield from search(rest, rest_j, np.zeros(0, np.int64), PLAYS, objective)
        past = past + 1 if plays[0] < 0 else 0
        if plays[0] == 0:
            continue  # (no move plays all of the rest, held sets or not: cheaper than the bounds)
        bounds = bound(rest, rest_j, objective)
        if objective + bounds[-1] > found:  # (negative: no move plays the rest)
            status, found = yield from search(rest, rest_j, bounds, ASK, found)
            if status < 0:
                break
    return status, found


def _free_floor(bound: Callable[..., np.ndarray], floors: np.ndarray, highest: int) -> int:
    """The floor that the passes holding no set out start from: the aims' ``floors`` at
    or below ``highest`` (the aim the narrow passes missed) bisected by the relaxation
    (``bound``; in reach: its most kept not negative) for the highest in reach, then the
    next one's (the optimum nearly always lies between the two), or no floor."""
    from solvers.rummikub.wide._pass import NEG

    lo, hi = int(np.searchsorted(-floors, -highest)), len(floors)
    while lo < hi:  # (in reach from ``hi`` on)
        mid = (lo + hi) // 2
        if bound(floors[mid])[-1] >= 0:
            hi = mid
        else:
            lo = mid + 1
    return int(floors[hi + 1]) if hi + 1 < len(floors) else int(NEG)


def _solve(pos: Position, objective: str, rules: Rules, index: int) -> Move:
    """The best move of ``pos``, searched with its numbers reversed where the rack lies
    later than the table (:func:`_rack_later`; the same optimum); under least disturbance
    a pass past :data:`TURN_STATES` states stops that way for the other one, then the two
    go on in turn, each from the pass where it stopped, with twice its budget each turn
    (:func:`_ways`: the stopped way may stay, the other's first turn is a look)."""
    colours, numbers = rules.colours, rules.numbers
    melded = pos.initial_meld_done
    old = _table_melds(pos, rules)
    reverse, (status, choice, group_jokers, held) = _ways(pos, objective, rules, old)
    if status < 0:
        raise PositionError(f"positions[{index}]: the wide tile set's search passed "
                            f"{MAX_STATES} states (memory bound)")
    if status == 0:
        if melded:  # cannot happen for a validated table
            raise PositionError("the table cannot be arranged")
        return Move([], old, 0, 0, previous=list(pos.table))
    kept = [m for m, h in zip(old, held.tolist()) if h]
    melds = arrange_choice(choice, group_jokers, colours, rules.min_set_length)
    if reverse:
        melds = [_reversed_meld(m, numbers) for m in melds]
    melds = kept + melds
    before = Counter(pos.table_tiles) if melded else Counter()
    played = sorted((Counter(s.tile for m in melds for s in m) - before).elements(),
                    key=Tile.sort_key)
    value = sum(t.number for t in played)
    if melded:
        return Move(played, melds, len(played), value, previous=list(pos.table))
    if not played:
        return Move([], old, 0, 0, previous=list(pos.table))
    return Move(played, old + melds, len(played), value, new_sets=melds,
                previous=list(pos.table))


def _ways(pos: Position, objective: str, rules: Rules, old: list[Meld]
          ) -> tuple[bool, tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
    """``(reverse, found)``: the first orientation's search to finish (:func:`_search`),
    the heuristic's one (:func:`_rack_later`) first; under least disturbance, a search
    that stops at its budget (:data:`TURN_STATES`) hands over to the other one, and the
    two go on in turn, twice the budget each round, up to :data:`MAX_STATES`.  A stopped
    search keeps its pass (:mod:`solvers.rummikub.wide._resume`): no work is done twice
    (seed 4's copies=4 + jokers=3 + sets of 4, 80J #4: 256 k and 220 k states the two
    ways alone, 414 k in turn, where starting the first one over stored 578 k).

    A way stopped at its budget first makes the other way's first kernel call, whose
    answer beside its own says which way is the cheaper one more often than the heuristic:
    if its narrow passes found the whole rack where the other's missed it, it goes on under
    twice its budget instead of handing over (:func:`_stays`, up to :data:`STAY_STATES`;
    the ``--wide`` rows' 8 x 13 four copies 80J #1 of seed 4: 222 k states as it is, 2.2 M
    reversed, 405 k stored in turn, 243 k so).  Else the other way's first turn after that
    call is a look under :data:`LOOK_SHARE` of the budget (a cheap way finishes there;
    where both ways are dear, the first goes on sooner: seed 4's 80J #4 above 314 k), and
    then each way goes on under twice its own budget, at least the other's."""
    reverse = _rack_later(pos, rules)
    if not (pos.initial_meld_done and rules.least_disturbance):
        return reverse, _went_on(_search(pos, objective, rules, old, reverse, [MAX_STATES]))
    budgets = ([TURN_STATES], [TURN_STATES])  # (read by the searches as they go on)
    turns = (reverse, not reverse)
    firsts: tuple[list[int], list[int]] = ([], [])  # (each way's first call's status)
    stopped = [False, False]  # (whether each way stopped at its budget last time)
    searches = [_search(pos, objective, rules, old, turn, budget, first)
                for turn, budget, first in zip(turns, budgets, firsts)]

    def go_on(way: int, to_first: bool = False) -> tuple | None:
        """What ``way`` found, None once it stopped at its budget (or, ``to_first``, once
        its first call answered)."""
        if stopped[way]:  # (twice its budget, at least the other way's)
            budgets[way][0] = min(max(2 * budgets[way][0], budgets[1 - way][0]), MAX_STATES)
        while True:
            try:
                answered = next(searches[way])
            except StopIteration as stop:
                return stop.value
            stopped[way] = not answered
            if not answered or to_first:
                return None

    way, found = 0, go_on(0)
    while found is None:
        other = 1 - way
        if not (firsts[other] or stopped[other]):  # (not begun: its first call first)
            found = go_on(other, True)
            if found is not None:
                way = other
                break
            if stopped[other]:  # (its turn ended within that call: this way's again)
                found = go_on(way)
                continue
            budgets[other][0] //= LOOK_SHARE  # (its first turn after that call: a look)
        if not _stays(firsts[way], firsts[other], budgets[way][0]):
            way = other
        found = go_on(way)
    return turns[way], found


def _stays(mine: list[int], theirs: list[int], budget: int) -> bool:
    """Whether a way whose first kernel call answered ``mine`` goes on rather than the
    other way, whose first answered ``theirs`` (empty: not yet), under ``budget``: its
    narrow passes found the whole rack (a status other than ``ASK_FREE``), the other's
    missed it, and the budget is below :data:`STAY_STATES`.  (The way whose narrow passes
    find it is the cheaper one on 512 of the 521 positions of the ``--wide`` rows, seeds
    11 and 1-7, where only one of the two ways' did, none of the others dearer than 3.5
    ms; the way that missed it on 163 of 169.)"""
    from solvers.rummikub.wide._exact import ASK_FREE

    return (budget < STAY_STATES and bool(mine) and mine[0] != ASK_FREE
            and theirs == [ASK_FREE])


def _room(budget: int) -> int:
    """The budget for which a search's ``save`` array makes room: none past the last."""
    return budget if budget < MAX_STATES else 0


def _went_on(search: Generator[bool | None, None, tuple]) -> tuple | None:
    """What ``search`` found, going on from where it stopped (or starting); None if it
    stopped again at its budget."""
    try:
        next(search)
    except StopIteration as stop:
        return stop.value
    return None


def _rack_later(pos: Position, rules: Rules) -> bool:
    """Whether the rack's tiles lie at higher numbers than the table's, on average, under
    least disturbance: the passes then usually store far fewer states with the numbers
    reversed (the rack tiles that a floor asks for come first, and a state missing one is
    dropped early).  (Without it, the sets kept that a move reports are any of the
    optimum's: the numbers as they are keep them as they were.)"""
    def mean(tiles: Sequence[Tile]) -> float:
        real = [t.number for t in tiles if not t.is_joker]
        return sum(real) / len(real) if real else 0.0

    return (pos.initial_meld_done and rules.least_disturbance and bool(pos.rack)
            and bool(pos.table) and mean(pos.rack) > mean(pos.table_tiles))


def _reversed_meld(meld: Meld, numbers: int) -> Meld:
    """``meld`` with each number n read as ``numbers + 1 - n`` (a run's slots reversed, so
    that they ascend again): a set of the reversed position, and back."""
    def turned(t: Tile) -> Tile:
        return t if t.is_joker else Tile(t.colour, numbers + 1 - t.number)

    slots = tuple(Slot(turned(s.tile), turned(s.stands_for)) for s in meld)
    is_run = len({s.stands_for.number for s in meld}) > 1
    return slots[::-1] if is_run else slots


def _search(pos: Position, objective: str, rules: Rules, old: list[Meld], reverse: bool,
            budget: list[int], first: list[int] | None = None
            ) -> Generator[bool | None, None, tuple]:
    """``(status, choice, group_jokers, held)`` of the kernel's passes over ``pos``, the
    numbers reversed if ``reverse`` (the tile counts, the objective's weights and the table
    sets ``old``: the same optimum; the choices are the reversed position's), -1 past
    :data:`MAX_STATES` states in a pass; a generator that stops (yields) each time a pass
    passes ``budget[0]`` states below that (None), to go on from that pass when it is
    resumed (the budget raised: :func:`_ways`); with ``first``, it appends the status of
    its first kernel call there and yields True once (:func:`_stays`)."""
    from engines.rummikub import wide_kept
    from solvers.rummikub.wide import _exact, _resume, solve_wide
    from solvers.rummikub.wide._exact import ASK, ASK_ABOVE, ASK_AIM, ASK_FREE, ASK_PARTS
    from solvers.rummikub.wide._pass import NEG

    colours, numbers = rules.colours, rules.numbers
    melded = pos.initial_meld_done
    turn = slice(None, None, -1 if reverse else 1)
    melds = old
    if reverse:
        old = [_reversed_meld(m, numbers) for m in old]
    rack, rack_j = _counts(pos.rack, colours, numbers)
    rack = rack[:, turn].copy()
    weight, jw = objective_weights(objective, colours, numbers)
    weight = weight[:, turn].copy()
    if melded:
        must, must_j = _counts(pos.table_tiles, colours, numbers)
        must = must[:, turn].copy()
        target, joker_meld = -1, 1
    else:
        must, must_j = np.zeros((colours, numbers), np.int64), 0
        target, joker_meld = rules.meld_threshold, int(rules.meld_joker == "stands-for")
    hold = melded and rules.least_disturbance and bool(old)
    scale = _HOLD_SCALE if hold else 1
    scaled = (weight * scale, jw * scale)
    arrays = _hold_arrays(old if hold else [], colours, numbers)
    choice = np.zeros((colours, numbers, 4), np.int64)
    group_jokers = np.zeros(numbers, np.int64)
    held = np.zeros(len(old), np.int64)
    sizes = (rules.min_set_length, max(1, int((must + rack).max())))
    save = none = np.zeros(0, np.int64)  # (save: a pass stopped at the budget, _resume)

    def search(opt: np.ndarray, opt_j: int, bounds: np.ndarray, resume: int,
               start: int, cap: int = MAX_STATES) -> Generator[None, None, tuple[int, int]]:
        nonlocal save  # (none kept under the memory bound alone)
        save = (_resume.fresh_save(save, budget[0]) if budget[0] < MAX_STATES
                else np.zeros(0, np.int64))
        while True:
            status, score = solve_wide(
                must, opt, must_j, opt_j, *scaled, target, joker_meld, 1, arrays, bounds,
                sizes, min(cap, budget[0]), choice, group_jokers, held, STATS,
                code_setup(sizes[0], sizes[1] + must_j + opt_j), save, WIDTH, resume, start)
            if status >= 0 or budget[0] >= MAX_STATES or not _resume.stopped(save):
                return status, score
            yield  # (stopped at the budget: the same call again, going on, once raised)
            save = _resume.raised_save(save, budget[0], _room(budget[0]))

    def bound(opt: np.ndarray, opt_j: int, score: int, per_number: bool = True) -> np.ndarray:
        return _kept_bounds(old if hold else [], arrays[0], must, opt, must_j, opt_j, weight,
                            jw, rules.min_set_length, score, scale, per_number)

    def pass_rest(rest: np.ndarray, rest_j: int, floor: int) -> int:
        return solve_wide(
            rest, rack, rest_j, rack_j, *scaled, target, joker_meld, 1, _hold_arrays(
                [], colours, numbers), none, sizes, wide_kept.REST_STATES, choice, group_jokers,
            none, STATS, code_setup(sizes[0], sizes[1] + rest_j + rack_j), none, WIDTH,
            _exact.EXACT, floor)[0]

    def reach(objective: int) -> np.ndarray:
        # (which moves reach an objective does not depend on the sets kept: the relaxation
        # without them, tighter: 8 x 13, four copies, 80J #1, one tile more out of reach)
        return _kept_bounds([], np.zeros(numbers + 1, np.int64), must, rack, must_j, rack_j,
                            weight, jw, rules.min_set_length, objective, 1)

    bounds, resume, start = none, 0 if BOUNDS else -1, NEG
    while True:  # (the kernel asks for the bounds of an aim or of an answer, then goes on)
        status, score = yield from search(rack, rack_j, bounds, resume, start)
        if first is not None and not first:
            first.append(status)
            yield True  # (the caller may look at the other way's first call first)
        if status == ASK_PARTS:  # (the branched relaxation's node, if a move keeps its sets)
            status, score = wide_kept.kept_at_node(
                melds, old, must, rack, must_j, rack_j, scaled, scale, rules.min_set_length,
                score, turn, pass_rest, held) or (yield from _kept_by_parts(
                    search, bound, score, must, must_j, rack, rack_j, scaled,
                    rules.min_set_length, choice, group_jokers))
        if status == ASK_FREE:  # (the free passes' first floor, by the relaxation)
            start = _free_floor(lambda f: bound(rack, rack_j, f, False), _exact.aim_floors(
                must, rack, must_j, rack_j, *scaled, rules.min_set_length), score)
            bounds, resume = none, ASK_FREE
            continue
        if status == ASK_ABOVE:  # (a narrow pass's answer: is a better objective in reach?)
            bounds = reach(score // scale + 1)
            resume, start = status, score
            continue
        if status not in (ASK, ASK_AIM):
            break
        bounds = bound(rack, rack_j, score)
        resume, start = status, score
    return status, choice, group_jokers, held


@functools.lru_cache(maxsize=4)
def code_setup(min_len: int, most: int) -> tuple:
    """The colour codes' tables of sets of ``min_len``+ with at most ``most`` open runs a
    colour (:func:`solvers.rummikub.wide._codes.code_setup`; read only), kept for the
    next call: a position's passes, and the next positions', share them (sets of 12 with
    four copies and three jokers: 0.1 s to build, about 35 MB)."""
    from solvers.rummikub.wide._codes import code_setup as build

    return build(min_len, most)
