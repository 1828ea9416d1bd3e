"""Fewest tiles moved (``Rules.fewest_tiles_moved``): the tie-break after least disturbance.

Among the moves optimal for the objective that keep the most table sets, the one that moves
the fewest table tiles under the positional definition of :mod:`engines.rummikub.moved`
(what :attr:`~engines.rummikub.position.Move.tiles_moved` counts), found exactly by one
more DP pass (:mod:`solvers.rummikub._heirs`) at the floor (optimum, sets kept).  The
pass runs over the numbers upwards and, on the table with its numbers turned round,
downwards: the same answer, but one direction may need far fewer states (its bound on the
tiles still able to stay is tight sooner): a probe each way asking for at most one tile
moved shows which (:data:`PROBES`), probes in it asking for 2, 4, ... tiles moved may find
the answer far cheaper (:data:`DEEPEN`), then that one runs (or both in turn, resumed slice
by slice, until one is done: :data:`DIRECTION`), or near the answer the chosen probe is
lowered round by round (:data:`LOWER`), the other direction's taking over where its round is
cheaper (:data:`RIVAL`); where the optimum leaves rack tiles and the
probes turn out dear, the move DP bounds the rack's gain to come (:mod:`~engines.rummikub.
heirs_gain`).  This module builds the pass's tables (the table
sets' hold slots, their runs' tiles, and the released groups' best heirs per number), and
rebuilds the move from the pass's choices, following the heirs the pass chose.

>>> from engines.rummikub.position import best_move
>>> from engines.rummikub.rules import Rules
>>> from engines.rummikub.sets import format_meld
>>> rules = Rules(fewest_tiles_moved=True)
>>> move = best_move(["R3 R4 R5 R6 R7 R8"], "R5 R6", rules=rules)
>>> sorted(format_meld(m) for m in move.table), move.tiles_moved
(['R3 R4 R5 R6', 'R5 R6 R7 R8'], 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations_with_replacement, product

import numpy as np

from engines.rummikub.heirs_gain import GainBound, capped_gains
from engines.rummikub.heirs_jokers import with_joker_losses
from engines.rummikub.heirs_kept import kept_always
from engines.rummikub.heirs_later import (
    NCOL,
    NNUM,
    joker_rest,
    kernel_layout,
    rest_of,
    with_later_kept,
)
from engines.rummikub.heirs_rebuild import rebuild
from engines.rummikub.heirs_turned import turned_meld, turned_set
from engines.rummikub.heirs_twins import twins_of
from engines.rummikub.least import WORK
from engines.rummikub.moved import tiles_moved
from engines.rummikub.position import Move, Position, _counts, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import COLOURS

__all__ = ["fewest_moved_move"]

DOMINANCE = 167  # dominated states dropped: 1 at each close, 2/4 after colours 1/2; and of
# states differing in their runs' owners (solvers.rummikub._heirs_owners) 16/32/64/128 after
# colours 1-4 (128: at each close); 0: an A/B
SETTLE = True  # the pass merges free and spent runs where none can be adopted (False: an A/B)
TWINS = True  # identical table sets held out and adopting in one order only (False: an A/B)
JOKER_PLACES = True  # a joker's place stays only with one of the jokers left (False: an A/B)
AHEAD_LOSSES = True  # the runs the next two numbers cannot hold, as losses (False: an A/B)
GROUP_BOUND = 3  # before a close: 1 its groups' losses bounded, 2 alike profiles merged (A/B)
# The pass's order of numbers: 0 upwards, 1 downwards (the same answer; either may be far cheaper),
# -1 both in turn, each going on where it stopped for a slice of states (ALTERNATE: the first
# slice, then its factor each round) until one is done, except that one that has got AHEAD layers
# further than the other (a wide pass is slow to go through its layers) goes on alone.
DIRECTION = -1
# The pass asks for ABOVE more tiles staying than least disturbance's move keeps, which is
# then the answer when none does (1: the pass proves no better move with one tile less of
# slack; 0: it asks for the move's own and finds it or a better one).
ABOVE = 1
ALTERNATE = (5_000, 2)
# Which direction is cheaper shows early: a probe each way asking for at most PROBES[0] tiles
# moved, in turn until one is done (its answer if it finds one), the other going on to
# PROBE_CAP times its states; then the cheaper alone, or within PROBE_CAP, the next probe.
PROBES = (1,)
PROBE_CAP = 2
# Then, where the chosen direction's last probe took DEEPEN[0] states or more, probes in that
# direction alone asking for twice the tiles moved each time (the first that finds a move
# gives the answer), while each takes DEEPEN[1] times its predecessor's states or more: a
# pass's states grow with the tiles it may lose, so an answer that moves few tiles is found
# far below the full pass's cost; once they grow slowly the full pass costs little more.
# (0, 0): none.  (From one state, not 2,000: a small probe says nothing of the full pass,
# --least seed 7 80J #9 probed 1,977 states, then 383 K in the full pass, 263 -> 45 ms.)
DEEPEN = (1, 3)
# The move DP's bound on the rack's gain (heirs_gain) is computed before the deepened probes
# or the lowered rounds where the one-tile probe took GAIN_PROBE states or more (a DP solve
# that smaller passes do not repay)
GAIN_PROBE = 2_000
AHEAD = 3
# Where the full pass's floor (ABOVE) is at most LOWER tiles moved beyond the probes', they
# keep the states that may reach it, and the one in the direction chosen is then lowered
# round by round to what its waiting states may reach: each round expands only the states
# the lower floor admits, so the answer costs about a pass at its own floor, not at the full
# pass's.  Further away, the rounds (each copies the pass's rows) cost more than they save,
# so DEEPEN and the full pass go on as before (-1: never, an A/B).  (8, not 6: --least's
# fewest row seed 11 80J #4 and 60J #3, 8 away, 105 -> 56 and 90 -> 61 ms; 10: dearer)
LOWER = 8
# Where the chosen probe's first lowered round takes RIVAL[0] times its states or more, the
# other direction's probe (when done too) is lowered once, for up to RIVAL[1] times that
# round's states, and goes on in its place where it takes fewer: which direction is cheaper
# may show only below the probes (--least seed 5 60J #8: one-tile probes 2.1 K states upwards
# and 3.7 K downwards, then rounds of 5.1, 12.9, 24.5 K ... upwards and 5.0, 7.7, 9.9 K
# ... downwards); (0, 0): the probes' choice alone (an A/B)
RIVAL = (2, 1)
# DOMINANCE's bits in the rounds lowering a floor (owners' check 16-128 off: rkfewb); 255: all
ROUND_DOMINANCE = 7
# Where the chosen probe took JOKER_PROBE states or more and the move has jokers, the passes
# after it (both directions' where a rival is; not the deepened probes, weighed against the
# unbounded one-tile probe: --least seed 7 80J #9 50 K -> 401 K states) read heirs_jokers'
# bound, from a pass with no joker given JOKER_BUDGET times the probe's states (more costs more
# than it saves: 2 80J #4 9.7 K -> 28 K states with 20,000); JOKER_ROUNDS False: the rounds
# and the rival without it (an A/B)
JOKER_PROBE = 1_000
JOKER_BUDGET = 1.0
JOKER_ROUNDS = True
JOKER_ALL = 3  # (a pass's joker_cap when not capped: more than a move places)
# A group as (colour mask, jokers): 1..4 real colours, 3 or 4 tiles, up to two jokers.
_GROUP_KINDS = [(mask, j) for mask in range(1, 16) for j in range(3)
                if 3 <= mask.bit_count() + j <= 4]


@cache
def _partition_lists(colours: int) -> dict[tuple[tuple[int, ...], int], list]:
    """Every way (a multiset of :data:`_GROUP_KINDS`, groups of at most ``colours`` tiles)
    to form groups of one number, by the tiles it takes: ``(profile, jokers)``,
    ``profile[c]`` the tiles of colour c (0..2).  A number holds at most 8 real tiles and
    2 jokers, so at most three groups."""
    kinds_here = [k for k in _GROUP_KINDS if k[0].bit_count() + k[1] <= colours]
    out: dict[tuple[tuple[int, ...], int], list] = {}
    for n in range(4):
        for kinds in combinations_with_replacement(kinds_here, n):
            profile = tuple(sum(m >> c & 1 for m, _ in kinds) for c in range(NCOL))
            jokers = sum(j for _, j in kinds)
            if max(profile, default=0) <= 2 and jokers <= 2:
                out.setdefault((profile, jokers), []).append(kinds)
    return out


def _partitions(profile: tuple[int, ...], jokers: int, colours: int
                ) -> list[tuple[tuple[int, int], ...]]:
    """Every way to form groups of one number from ``profile[c]`` tiles of colour c (0..2)
    and ``jokers`` jokers (:func:`_partition_lists`)."""
    return _partition_lists(colours).get((tuple(profile), jokers), [])


@lru_cache(maxsize=100_000)
def group_heirs(released: tuple[tuple[int, int], ...], profile: tuple[int, ...],
                jokers: int, colours: int = 4
                ) -> tuple[int, tuple[tuple[int, int], ...] | None]:
    """The most tiles of the table groups ``released`` (colour mask, jokers) that stay when
    the number's group tiles (``profile``, ``jokers``) form groups, and such groups
    (``(-1, None)``: none can be formed).  A table group's heir is one of the new groups
    (each the heir of one at most); its tiles that stay: the colours both hold and the
    jokers both hold (up to the fewer)."""
    best, chosen = -1, None
    for kinds in _partitions(profile, jokers, colours):
        value = _assignment([[(m & mask).bit_count() + min(j, jk) for mask, jk in kinds]
                             for m, j in released]) if released else 0
        if value > best:
            best, chosen = value, kinds
    return best, chosen


def _assignment(weights: list[list[int]]) -> int:
    """The largest sum of one weight per row, each column taken once at most (a row may
    take none): every choice (at most three rows and three columns here)."""
    cols = len(weights[0])
    best = 0
    for pick in product(range(cols + 1), repeat=len(weights)):
        used = [k for k in pick if k < cols]
        if len(set(used)) == len(used):
            best = max(best, sum(row[k] for row, k in zip(weights, pick) if k < cols))
    return best


@cache
def partition_arrays(colours: int) -> tuple[np.ndarray, ...]:
    """:func:`_partition_lists` as arrays for :func:`solvers.rummikub._heirs_groups.
    group_stays`: ``(start, masks, jokers, sizes)``, the ways for ``(profile, jokers)`` at
    ``start[profile * 3 + jokers]`` up to the next (profile: base 3, colour 0 lowest)."""
    lists = _partition_lists(colours)
    start, rows = [0], []
    for key in range(81 * 3):
        profile = tuple(key // 3 // 3 ** c % 3 for c in range(NCOL))
        rows += lists.get((profile, key % 3), [])
        start.append(len(rows))
    masks = np.zeros((max(1, len(rows)), 3), np.int64)
    jokers = np.zeros_like(masks)
    sizes = np.zeros(max(1, len(rows)), np.int64)
    for i, kinds in enumerate(rows):
        sizes[i] = len(kinds)
        for g, (mask, j) in enumerate(kinds):
            masks[i, g], jokers[i, g] = mask, j
    return np.array(start, np.int64), masks, jokers, sizes


@lru_cache(maxsize=4096)
def _stays_table(released: tuple[tuple[int, int], ...], colours: int) -> np.ndarray:
    """``[subset of released in play, profile, jokers]`` -> :func:`group_heirs`' value
    (computed natively: :func:`solvers.rummikub._heirs_groups.group_stays`)."""
    from solvers.rummikub._heirs_groups import group_stays

    out = np.full((1 << len(released), 81, 3), -1, np.int64)
    masks = np.array([m for m, _ in released] + [0] * (3 - len(released)), np.int64)
    jokers = np.array([j for _, j in released] + [0] * (3 - len(released)), np.int64)
    group_stays(masks, jokers, len(released), *partition_arrays(colours), out)
    return out


def _tables(sets: list, rules: Rules) -> dict:
    """The pass's tables for the table ``sets`` (see :func:`solvers.rummikub._heirs.
    heirs_pass`), and what the rebuild needs."""
    from engines.rummikub.least import raise_for, table_slots
    from solvers.rummikub._heirs_ahead import run_bits_of
    from solvers.rummikub._layout import HOLD_BITS
    from solvers.rummikub._least import hold_tables

    slot_number, slot_colour, set_start, _keys, _firsts = table_slots([sets], rules)
    which = np.empty((NNUM, HOLD_BITS), np.int64)
    hold, crowded = hold_tables(slot_number, slot_colour, set_start, 0, len(sets), which)
    if crowded:
        raise_for(-1, crowded)
    n = len(sets)
    slot_of = np.zeros(n, np.int64)
    set_size = np.zeros((NNUM, HOLD_BITS), np.int64)
    for v in range(NNUM):
        for k in range(HOLD_BITS):
            if which[v, k] >= 0:
                slot_of[which[v, k]] = hold[3][v, k]
                set_size[v, k] = set_start[which[v, k] + 1] - set_start[which[v, k]]
    run_type = np.zeros((n, NNUM), np.int64)
    places = np.zeros((NNUM, NCOL + 1), np.int64)  # table tiles per number: runs, groups
    runs_at = np.full((NNUM, NCOL, 4), -1, np.int64)
    group_of = np.full((NNUM, HOLD_BITS), -1, np.int64)
    groups: list[list[tuple[int, ...]]] = [[] for _ in range(NNUM)]
    rest = np.zeros((NNUM, NCOL + 1, HOLD_BITS), np.int64)
    rest_j = np.zeros_like(rest)
    jokers_in = np.zeros((NNUM, NCOL + 1), np.int64)
    for i in range(n):
        numbers = slot_number[set_start[i]: set_start[i + 1]].tolist()
        colours = slot_colour[set_start[i]: set_start[i + 1]].tolist()
        rest_of(rest, numbers, colours, int(slot_of[i]))
        joker_rest(rest_j, jokers_in, numbers, colours, int(slot_of[i]))
        if len(set(numbers)) == 1:  # a group (a set read as both is a group)
            v = numbers[0] - 1
            groups[v].append((sum(1 << c for c in colours if c >= 0), colours.count(-1),
                              int(slot_of[i])))
            places[v, NCOL] += len(colours)
            continue
        colour = next(c for c in colours if c >= 0)
        for number, c in zip(numbers, colours):
            run_type[i, number - 1] = 1 if c >= 0 else 2
            places[number - 1, colour] += 1
            k = int((runs_at[number - 1, colour] >= 0).sum())
            runs_at[number - 1, colour, k] = i
    for v in range(NNUM):  # (sorted: the tables are cached by the groups they hold)
        groups[v].sort()
        for k, (_mask, _jokers, slot) in enumerate(groups[v]):
            group_of[v, slot] = k
        groups[v] = [g[:2] for g in groups[v]]
    adopters = _adopters(runs_at, slot_of) if SETTLE else np.full((NNUM, NCOL), -1, np.int64)
    twin = twins_of(sets, slot_number, set_start, slot_of, run_type) if TWINS else \
        np.full((NNUM, HOLD_BITS), -1, np.int64)
    stays = np.full((NNUM, 8, 81, 3), -1, np.int64)
    for v in range(NNUM):
        table = _stays_table(tuple(groups[v]), rules.colours)
        stays[v, : table.shape[0]] = table
    return {"hold": hold, "which": which, "slot_of": slot_of, "set_size": set_size,
            "run_type": run_type, "runs_at": runs_at, "group_of": group_of, "later": hold[5],
            "groups": groups, "stays": stays, "places": places, "rest": rest,
            "adopters": adopters, "twin": twin, "run_bits": run_bits_of(runs_at, slot_of)
            if AHEAD_LOSSES else np.full((NNUM, NCOL), -1, np.int64),
            "jokers_in": (jokers_in, rest_j) if JOKER_PLACES else (0 * jokers_in - 99, rest_j)}


def _adopters(runs_at: np.ndarray, slot_of: np.ndarray) -> np.ndarray:
    """``[v, c]``: the slots of colour c's table runs that cover number v+1 and go on past
    it, the only ones that may still adopt a run after colour c's sub-step there; -1 when
    a run of colour c starts after number v+1 (:func:`solvers.rummikub._heirs_step._settled`)."""
    out = np.zeros((NNUM, NCOL), np.int64)
    for v in range(NNUM - 1, -1, -1):
        for c in range(NCOL):
            here = {int(i) for i in runs_at[v, c] if i >= 0}
            after = [int(i) for i in runs_at[v + 1, c] if i >= 0] if v + 1 < NNUM else []
            if any(i not in here for i in after) or (v + 1 < NNUM and out[v + 1, c] < 0):
                out[v, c] = -1
            else:
                out[v, c] = sum(1 << int(slot_of[i]) for i in after)
    return out


def _bounds(rack: np.ndarray, weight: np.ndarray, later: np.ndarray, scale2: int,
            places: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``rem[v, c]`` (the rack's most gain after colour c of number v+1), ``before[v]`` (from
    v+1 on), ``bonus[v, c]`` (``later[v]``, the sets starting after v+1 that may be kept, and
    the table tiles that may still stay after that sub-step: ``places[v, c]`` its run tiles of
    colour c at v+1, ``places[v, 4]`` its group tiles there; column 4: after the hold layer)."""
    gain = rack * np.maximum(weight, 0)
    flat = gain.T.ravel()  # (number, colour) in the pass's order
    after = np.concatenate([np.cumsum(flat[::-1])[::-1][1:], [0]])
    rem = after.reshape(NNUM, NCOL).astype(np.int64)
    before = np.cumsum(flat[::-1])[::-1].reshape(NNUM, NCOL)[:, 0].astype(np.int64)
    later_places = np.concatenate([np.cumsum(places.sum(axis=1)[::-1])[::-1][1:], [0]])
    bonus = np.zeros((NNUM, NCOL + 1), np.int64)
    for v in range(NNUM):
        bonus[v, NCOL] = later[v] * scale2 + later_places[v] + places[v].sum()
        for c in range(NCOL):
            bonus[v, c] = (later[v] * scale2 + later_places[v] + places[v, c + 1:NCOL].sum()
                           + (places[v, NCOL] if c < NCOL - 1 else 0))  # (groups: the close)
    return rem, before, bonus


def fewest_moved_move(pos: Position, objective: str, rules: Rules, move: Move) -> Move:
    """Among the moves of ``pos`` as good as ``move`` for the objective and keeping as many
    table sets (``move``: least disturbance's answer, keeping the most), one that moves the
    fewest table tiles (:mod:`engines.rummikub.moved`), exactly."""
    sets = list(pos.table)
    if not sets or move.sets_kept == len(sets):
        return move  # (every table tile stays)
    tile_set = (rules.colours, rules.numbers)
    weight, joker_weight = objective_weights(objective)
    weight = weight[:, : rules.numbers]
    moved = tiles_moved(sets, move.table, tile_set)
    if moved == 0:
        return move  # (no tile moved: none moves fewer)
    rack, rack_j = _counts(pos.rack)
    played, played_j = _counts(move.played)
    optimum = int((weight * played[:, : rules.numbers]).sum()) + joker_weight * played_j
    always = kept_always(sets, pos.rack, rules, (weight, joker_weight, optimum), move)
    whole, sets = sets, [s for i, s in enumerate(sets) if i not in always]
    back = (always, [i for i in range(len(whole)) if i not in always])  # (sets -> whole's)
    turned = [turned_set(s, rules.numbers) for s in sets]
    ways = ((sets, rack, weight), (turned, rack[:, rules.numbers - 1:: -1], weight[:, ::-1]))
    built: dict[int, dict] = {}  # (per direction: the pass's tables)

    def made(direction: int, above: int, lowest: int | None = None) -> _Pass:
        table, rack_there, weight_there = ways[direction]  # (1: the numbers turned round)
        built[direction] = built.get(direction) or with_later_kept(
            _tables(table, rules), ways[direction], (rack_j, joker_weight, optimum), rules)
        return _Pass(table, rack_there, rack_j, (weight_there, joker_weight), optimum,
                     move.sets_kept - len(always), moved, rules, above, built[direction],
                     direction, lowest)

    gain = GainBound(built, ways, (rack_j, joker_weight, optimum), rules)
    order = (DIRECTION,) if DIRECTION >= 0 else (1, 0)
    probed = (0, 0)  # (the last probe's tiles moved and states, in the direction chosen)
    chosen = rival = None  # (that probe, done; the other direction's, when done too)
    for level in PROBES if len(order) > 1 else ():
        if moved - level <= ABOVE:
            break
        lowest = ABOVE if moved - ABOVE - level <= LOWER else None  # (see LOWER)
        probes = [made(direction, moved - level, lowest) for direction in (1, 0)]
        found, first = _race(probes, gain.gate())
        if found is not False:
            return _made_move(whole, rules, turned, first, found, back)  # (`level` at most)
        other = probes[probes[0] is first]
        if other.run(max(1, PROBE_CAP * first.states - other.states)) is None:
            order, probed, chosen = (first.direction,), (level, first.states), first
            break  # (the other needs PROBE_CAP times its states: clear enough)
        chosen = first if first.states <= other.states else other
        rival = probes[probes[0] is chosen]
        order, probed = (chosen.direction,), (level, chosen.states)
        if max(first.states, other.states) >= PROBE_CAP * min(first.states, other.states):
            break
    if probed[1] >= JOKER_PROBE and rack_j + sum(t.is_joker for s in sets for t in s):
        for one in (chosen, rival) if chosen is not None else (None,):
            direction = order[0] if one is None else one.direction
            with_joker_losses(made, built, direction, ways[direction][0], rules.numbers, ABOVE,
                              int(JOKER_BUDGET * probed[1]))
            if one is not None and JOKER_ROUNDS:
                one.unavoidable = built[direction]["joker_losses"]
    if chosen is not None and chosen.lowest < chosen.targets[0]:
        if probed[1] >= GAIN_PROBE:
            gain.prepare(order[0])
            chosen.tighten(built[order[0]]["gain_from"])
        if rival is not None and "gain_from" in built[rival.direction]:
            rival.tighten(built[rival.direction]["gain_from"])
        found, done = _lowered(chosen, rival)
        return move if found is False else _made_move(whole, rules, turned, done, found, back)
    if len(order) == 1 and probed[1] >= DEEPEN[0] > 0:
        if probed[1] >= GAIN_PROBE:
            gain.prepare(order[0])
        found, deeper = _deepened(lambda d, a: _unbounded(made(d, a)), order[0], probed, moved)
        if deeper is not None:
            return _made_move(whole, rules, turned, deeper, found, back)
    found, last = _race([made(direction, ABOVE) for direction in order])
    if found is False:
        return move  # (none moves fewer tiles than least disturbance's move)
    return _made_move(whole, rules, turned, last, found, back)


def _unbounded(one: _Pass) -> _Pass:
    """``one`` without heirs_jokers' bound: a deepened probe's states are weighed against
    the one-tile probe's, made without it (DEEPEN)."""
    one.unavoidable = np.zeros(NNUM + 1, np.int64)
    return one


def _lowered(done: _Pass, rival: _Pass | None = None
             ) -> tuple[tuple[set[int], list] | bool, _Pass]:
    """The probe ``done`` (it found no move) lowered (:meth:`_Pass.lower`, :data:`LOWER`)
    until it finds a move: its answer and the pass that found it, False when none reaches
    its ``lowest``.  ``rival``: the other direction's probe (done too), lowered once where
    the first round took :data:`RIVAL` times the probe's states, for up to that round's
    states: it goes on in place of ``done`` where it took fewer (each round is exact)."""
    probe = done.states
    while done.lower():
        start = done.states
        found = done.run(0)
        if found is not False:
            return found, done
        cost = done.states - start
        if rival is not None and 0 < RIVAL[0] * probe <= cost:
            if not rival.lower():
                return False, done  # (none of its states reaches `lowest`: no such move)
            start = rival.states
            found = rival.run(max(1, int(RIVAL[1] * cost)))
            if found is not None and found is not False:
                return found, rival
            if found is False and rival.states - start < cost:
                done = rival  # (cheaper at this floor: it goes on)
        rival = None
    return False, done


def _deepened(made: Callable[[int, int], _Pass], direction: int, probed: tuple[int, int],
              moved: int) -> tuple[tuple[set[int], list] | bool, _Pass | None]:
    """The probes of :data:`DEEPEN` in ``direction`` after the last one (``probed``: its
    tiles moved at most, its states) found none: the answer of the first that finds a move
    and that pass, or ``(False, None)`` when they stop (``moved``: least disturbance's
    move's)."""
    level, states = probed
    while moved - 2 * level > ABOVE:
        level *= 2
        probe = made(direction, moved - level)
        found = probe.run(0)
        if found is not False:
            return found, probe  # (none moves fewer than `level` / 2: the fewest)
        if probe.states < DEEPEN[1] * states:
            break  # (growing slowly: the full pass costs little more than this one)
        states = probe.states
    return False, None


def _race(passes: list[_Pass], slow: tuple[int, Callable[[list[_Pass]], None]] | None = None
          ) -> tuple[tuple[set[int], list] | bool, _Pass]:
    """Run the ``passes`` in turn (:data:`ALTERNATE`, :data:`AHEAD`) until one is done: its
    answer (:meth:`_Pass.run`) and that pass (``slow``: a first slice of states, and what
    to call with the passes when none is done after it)."""
    budget = ALTERNATE[0] if len(passes) > 1 else 0
    if slow is not None:
        budget = slow[0]
    while True:  # (the directions in turn, each going on where it stopped)
        lead = max(one.cursor[0] for one in passes) - AHEAD
        for one in passes:
            if one.cursor[0] >= lead:  # (one ahead by AHEAD layers goes on alone)
                found = one.run(budget)
                if found is not None:
                    return found, one
        if slow is not None:
            slow[1](passes)
            budget, slow = ALTERNATE[0] // ALTERNATE[1], None
        budget *= ALTERNATE[1]


def _made_move(sets: list, rules: Rules, turned: list, done: _Pass, found: tuple,
               back: tuple[set[int], list[int]]) -> Move:
    """The move of a pass's answer ``found`` (the table sets kept, the new sets) on the
    table ``sets`` less those kept by every move (``back``: those, and the pass's sets'
    indices in ``sets``)."""
    tile_set = (rules.colours, rules.numbers)
    kept, new = found
    kept = back[0] | {back[1][i] for i in kept}
    if done.sets is turned:
        new = [turned_meld(m, rules.numbers) for m in new]
    from engines.rummikub.arrays import _table_melds

    table = [m for i, m in enumerate(_table_melds(sets, tile_set)) if i in kept] + new
    tiles = Counter(slot.tile for m in table for slot in m)
    tiles.subtract(t for s in sets for t in s)
    out = sorted(tiles.elements(), key=lambda t: (t.is_joker, COLOURS.find(t.colour), t.number))
    return Move(out, table, len(out), sum(t.number for t in out), previous=sets,
                tile_set=tile_set)


class _Pass:
    """The pass (:func:`solvers.rummikub._heirs.heirs_pass`) on the table ``sets`` and the
    rack's counts (``rack``, ``rack_j``), resumable: an arrangement as good as ``optimum``
    for the objective (``weights``), keeping ``sets_kept`` sets and moving the fewest tiles
    (``moved``: a move's, which the pass reaches)."""

    def __init__(self, sets: list, rack: np.ndarray, rack_j: int,
                 weights: tuple[np.ndarray, int], optimum: int, sets_kept: int, moved: int,
                 rules: Rules, above: int = 1, tables: dict | None = None, direction: int = 0,
                 lowest: int | None = None) -> None:
        self.sets, self.rules = sets, rules
        self.tables = tables = tables or _tables(sets, rules)
        weight, joker_weight = weights
        full, rack_full = kernel_layout(weight), kernel_layout(rack)
        must, must_j = _counts(t for s in sets for t in s)
        scale2 = sum(map(len, sets)) + 1
        scale1 = scale2 * (len(sets) + 1)
        rem, before, bonus = _bounds(rack_full, full * scale1, tables["later"], scale2,
                                     tables["places"])
        rem, before = capped_gains(rem, before, tables.get("gain_from"), scale1)
        self.floor = (optimum + must_j * joker_weight) * scale1 + sets_kept * scale2
        self.args = (must, rack_full, must_j, rack_j, full * scale1, joker_weight * scale1,
                     rules.numbers, tables["hold"], tables["runs_at"], tables["slot_of"],
                     tables["run_type"], tables["group_of"], tables["stays"],
                     tables["set_size"], rem, before, bonus, tables["rest"], scale1, scale2)
        self.steps = np.zeros((NNUM, NCOL), np.int64)
        self.held_out = np.zeros(NNUM, np.int64)
        # the floor asks for `above` more tiles staying than least disturbance's move keeps
        # (0: the pass finds that move or a better one; without that target if not)
        self.floor_move = scale2 - 1 - moved
        self.targets = [self.floor_move + above] + ([] if above else [0])
        # the states that may reach `lowest` tiles more than the move's staying are kept, so
        # that lowering the floor down to there (`lower`) expands only the states it admits
        self.lowest = self.floor_move + (above if lowest is None else lowest)
        self.direction, self.states = direction, 0  # (1: downwards; its states so far)
        self.lowered = False  # (a round after lower(): ROUND_DOMINANCE)
        self.joker_cap = JOKER_ALL  # (at most this many jokers placed: heirs_jokers)
        self.unavoidable = tables.get("joker_losses", np.zeros(NNUM + 1, np.int64))
        self._start()

    def tighten(self, gain_from: np.ndarray | None) -> None:
        """Bound the rack's gain to come by ``gain_from`` from now on (:mod:`engines.
        rummikub.heirs_gain`; a tighter bound only drops states that cannot reach the floor)."""
        rem, before = capped_gains(*self.args[14:16], gain_from, self.args[-2])  # (scale1)
        self.args = (*self.args[:14], rem, before, *self.args[16:])

    def lower(self) -> bool:
        """After a round that found no move: ask from now on for the most tiles staying
        that a state waiting in this pass's rows may still reach (at least ``lowest``), the
        next :meth:`run` going on from those rows (:func:`solvers.rummikub._heirs.
        heirs_pass`); False when none is left."""
        from solvers.rummikub._heirs_rounds import next_floor

        last = self.rules.numbers * (NCOL + 1)
        admit = next_floor(self.st, self.carry[3], last, self.args[2],
                           self.floor + self.lowest, self.args[-1])
        if admit < self.lowest:
            return False
        old = self.carry[3]
        old[-1, 0] = self.targets[0]  # (what the last round admitted)
        self.targets[0] = admit
        self.carry = (self.st, old, np.empty(len(self.st), np.int64), _no_layers())
        self._start(again=True, rows=int(old[:-1, 1].max()) + 1)
        self.lowered = True
        return True

    def _start(self, again: bool = False, rows: int = 1024) -> None:
        from solvers.rummikub._heirs import new_pass
        from solvers.rummikub._heirs_state import STATE_COLUMNS

        if not again:  # (no round before this one to carry over)
            self.carry = (np.zeros((1, STATE_COLUMNS), np.int64), _no_layers(),
                          np.zeros(1, np.int64), _no_layers())
        self.cursor, self.st, self.table = new_pass(again, rows)
        WORK[0] += 1  # (least disturbance's counters: the bench reads them)

    def run(self, budget: int) -> tuple[set[int], list] | bool | None:
        """Go on for about ``budget`` more states (0: to the end): the sets kept and the new
        sets (:func:`_rebuild`), False when none reaches the floor (it asked for more tiles
        staying than least disturbance's move), or None when stopped."""
        from solvers.rummikub._heirs import NEG, OVER, heirs_pass

        stats = np.zeros(2, np.int64)
        while True:
            best, self.st, self.table = heirs_pass(
                *self.args, self.floor + min(self.lowest, self.targets[0]),
                self.tables["adopters"], self.tables["twin"], *self.tables["jokers_in"],
                self.tables["run_bits"], self.joker_cap, self.unavoidable, self.steps,
                self.held_out, stats, DOMINANCE & ROUND_DOMINANCE if self.lowered else DOMINANCE,
                GROUP_BOUND, self.targets[0], self.carry, budget, self.cursor, self.st, self.table)
            WORK[1] += int(stats[0])
            self.states += int(stats[0])
            stats[0] = 0
            if best == OVER:
                return None
            if best != NEG:
                return rebuild(self.sets, self.tables, self.steps, self.held_out,
                                (self.rules.colours, self.rules.numbers))
            if self.targets[0] > self.floor_move or self.joker_cap < JOKER_ALL:
                return False  # (or allowed too few jokers: heirs_jokers' bound may find none)
            if len(self.targets) == 1:  # cannot happen: least disturbance's move reaches it
                raise AssertionError("the fewest-tiles-moved pass missed the optimum")
            self.targets.pop(0)
            self._start()


def _no_layers() -> np.ndarray:
    """Each layer's rows of a round of the pass (``-1``: none yet)."""
    return np.full((NNUM * (NCOL + 1) + 2, 2), -1, np.int64)  # (the last: the floor)
