"""Many positions in one kernel call: positions to arrays, arrays back to moves.

:func:`solve_moves` is :func:`~engines.rummikub.position.best_moves`.  The per-position
work around the parallel kernel is what limits how a batch scales with cores, so it
is done for the whole batch at once: every tile of every position is looked up in one
pass and counted with one ``bincount``, the tiles each move plays come out of one array
subtraction, and only the objects a caller reads (tiles, sets, moves) are built one by
one, from caches where the same object recurs (a set code, a table set).

>>> from engines.rummikub.position import Position
>>> p = Position.from_strings(["R6 R7 R8"], "R5 R9 B2")
>>> [str(t) for t in solve_moves([p, p])[1].played]
['R5', 'R9']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from engines.rummikub.errors import PositionError
from engines.rummikub.position import (
    _INDEX,
    _TILE_OF,
    Move,
    Position,
    _meld,
    objective_weights,
)
from engines.rummikub.rules import DEFAULT_RULES, Rules
from engines.rummikub.sets import SHORTEST_SET, Meld, RummikubInputError, validate_set
from engines.threads import numba_threads
from solvers.rummikub._threads import run_ranges

N_KINDS = 53  # 52 colour/number kinds (13 * colour + number - 1), then the joker
_NUMBER = np.array([i % 13 + 1 for i in range(52)] + [0], dtype=np.int64)


def tile_counts(groups: Sequence[Sequence], n: int) -> np.ndarray:
    """(n, 53) counts of the tiles of each group, looked up in one pass over all tiles."""
    lengths = np.fromiter(map(len, groups), np.int64, count=n)
    total = int(lengths.sum())
    kinds = np.fromiter(map(_INDEX.__getitem__, chain.from_iterable(groups)), np.int64,
                        count=total)
    rows = np.repeat(np.arange(n, dtype=np.int64) * N_KINDS, lengths)
    return np.bincount(rows + kinds, minlength=n * N_KINDS).reshape(n, N_KINDS)


def position_arrays(
    positions: Sequence[Position], rules: Rules = DEFAULT_RULES
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(table counts, rack counts, meld modes, melded)``: (n, 53), (n, 53) and (n,) int64,
    and (n,) bool (``initial_meld_done``).

    Table counts are zero for a position whose player has not melded yet (its table
    is not theirs to rearrange, unless ``rules.meld_continue``); the mode is
    ``rules.search_mode(melded)``.
    """
    from solvers._rummikub_objects import count_positions

    n = len(positions)
    if not all(issubclass(t, Position) for t in set(map(type, positions))):
        i = next(i for i, p in enumerate(positions) if not isinstance(p, Position))
        raise RummikubInputError(
            f"positions[{i}]: expected a Position, got {type(positions[i]).__name__}"
        )
    if rules.joker_retrieval == "official":  # the modes need the table jokers' places
        melded = np.fromiter((p.initial_meld_done for p in positions), np.bool_, count=n)
        table, rack, modes = count_arrays([p.table for p in positions],
                                          [p.rack for p in positions], melded, rules)  # fmt: skip
        return table, rack, modes, melded
    table, rack = np.zeros((n, N_KINDS), np.int64), np.zeros((n, N_KINDS), np.int64)
    melded = np.zeros(n, np.bool_)
    count_positions(_tile_kinds(), positions, rules.meld_continue, table, rack,
                    melded.view(np.uint8))  # fmt: skip
    modes = np.where(melded, rules.search_mode(True),
                     rules.search_mode(False)).astype(np.int64)  # fmt: skip
    return table, rack, modes, melded


@functools.cache
def _tile_kinds() -> object:
    """The native look-up of each canonical tile's kind (:mod:`solvers._rummikub_objects`):
    the tiles positions hold (:func:`~engines.rummikub.tiles.parse_tiles` gives them) and
    those moves are made of."""
    from engines.rummikub.tiles import _CANONICAL
    from solvers._rummikub_objects import TileKinds

    return TileKinds([*_CANONICAL, *_TILE_OF], _INDEX)


def count_arrays(
    tables: Sequence[Sequence[Sequence]], racks: Sequence[Sequence], melded: np.ndarray,
    rules: Rules = DEFAULT_RULES,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`position_arrays` of tables (lists of sets) and racks of tiles or canonical tile
    names; with official joker retrieval the tables must hold tiles."""
    n = len(racks)
    done = melded.tolist()
    flat = [list(chain.from_iterable(t)) if d or rules.meld_continue else ()
            for t, d in zip(tables, done)]
    if rules.joker_retrieval == "official":  # the table jokers' places, per position
        modes = np.array([rules.search_mode(d, t) for t, d in zip(tables, done)], np.int64)
    else:
        modes = np.where(melded, rules.search_mode(True),
                         rules.search_mode(False)).astype(np.int64)
    return tile_counts(flat, n), tile_counts(racks, n), modes


def solve_moves(
    positions: Sequence[Position], objective: str = "tiles", threads: int | None = None,
    rules: Rules = DEFAULT_RULES, turn: np.ndarray | None = None,
    above: np.ndarray | None = None,
) -> list[Move]:
    """The best move of every position (see :func:`~engines.rummikub.position.best_moves`;
    meld then continue with least disturbance: :mod:`engines.rummikub.continue_least`;
    ``turn``, ``above``: see :func:`solve_counts`, where that route is not taken; with
    ``above``, ``None`` for a position no move of which scores more)."""
    from engines.rummikub.continue_least import continue_moves, routes

    positions = positions if isinstance(positions, list | tuple) else list(positions)
    if positions and routes(rules):
        return continue_moves(positions, objective, threads, rules, _solve_moves)
    return _solve_moves(positions, objective, threads, rules, turn, above)


def _solve_moves(
    positions: Sequence[Position], objective: str, threads: int | None, rules: Rules,
    turn: np.ndarray | None = None, above: np.ndarray | None = None,
) -> list[Move]:
    """:func:`solve_moves` with no other route (``positions`` a list or tuple; ``turn``,
    ``above``: see :func:`solve_counts`; with ``above``, ``None`` where no move scores
    more).  Least disturbance where a relaxation's move is likely allowed
    (:func:`~engines.rummikub.least.relaxation_pays_first`) solves the relaxation first
    (:func:`engines.rummikub.relaxed_first.relaxation_route`); a batch without a melded
    player's table goes to the solve under the rules directly (none has a relaxation)."""
    from engines.rummikub.least import relaxation_pays_first

    if above is None and relaxation_pays_first(rules) and any(p.initial_meld_done and p.table
                                                              for p in positions):
        from engines.rummikub.relaxed_first import relaxation_route

        position_arrays(positions, rules)  # (the positions' checks, first)
        return relaxation_route(positions, objective, threads, rules, turn)
    return _solve_rules(positions, objective, threads, rules, turn, above)


def _solve_rules(
    positions: Sequence[Position], objective: str, threads: int | None, rules: Rules,
    turn: np.ndarray | None = None, above: np.ndarray | None = None,
    relaxed_known: list | None = None, cap: np.ndarray | None = None,
) -> list[Move]:
    """:func:`_solve_moves`' solve under the rules (see there; ``relaxed_known``: each
    position's from :func:`~engines.rummikub.least.relaxation_first`, or None; ``cap``: see
    :func:`solve_counts`)."""
    if not positions:
        with numba_threads(threads, RummikubInputError):
            return []
    table, rack, meld_modes, melded = position_arrays(positions, rules)
    if not rules.standard_tiles:
        for i, p in enumerate(positions):
            rules.check_tiles(p.table, p.rack, f"positions[{i}]")
    turn = np.zeros(len(positions), np.int64) if turn is None else turn
    status, codes, counts, played = solve_counts(table, rack, meld_modes, objective, threads,
                                                 rules, turn, above, cap)  # fmt: skip
    beaten = np.zeros(len(positions), bool) if above is None else status == 0
    if (status[melded & ~beaten] != 1).any():  # cannot happen for validated tables
        raise PositionError("the table cannot be arranged")
    moves = _moves(positions, status, codes, counts, played, rules.meld_continue,
                   (rules.colours, rules.numbers))
    if rules.meld_continue:
        _name_melds(moves, positions, rules, threads)
    if rules.least_disturbance:
        _least_disturbing(positions, moves, objective, rules, threads,
                          (table, rack, meld_modes, codes, counts, played), turn,
                          relaxed_known)
    return [None if b else m for m, b in zip(moves, beaten.tolist())] if beaten.any() else moves


def _least_disturbing(positions: Sequence[Position], moves: list[Move], objective: str,
                      rules: Rules, threads: int | None, arrays: tuple,
                      turn: np.ndarray, relaxed_known: list | None = None) -> None:
    """Least disturbance: the move of each position whose turn rearranges the table, and
    that keeps fewer table sets than the table has, is replaced by the least-disturbing
    one from this optimal move (``arrays``: the batch's table and rack counts, modes, and
    the kernel's codes, counts and played tiles).  Melded positions are solved in the
    kernel (:func:`_least_native`); positions that a relaxation solves faster
    (:func:`~engines.rummikub.least._relaxation`) by
    :func:`~engines.rummikub.least.least_disturbing_move`.  Either way side by side, on
    this thread and the pool's (the held-out passes release the GIL), the likely slowest
    first; a relaxation's solve searches first the way the DP found each move (``turn``:
    :func:`solve_counts`), unless already solved (``relaxed_known``: see
    :func:`~engines.rummikub.least.least_disturbing_move`, one a position, or None)."""
    from engines.rummikub.least import _relaxation, least_disturbing_move

    table, rack = arrays[:2]
    jokers = table[:, 52] + rack[:, 52]
    cost = ((table.sum(axis=1) + rack.sum(axis=1)) * (1 + jokers)).tolist()
    native, other = [], []
    for i, p in enumerate(positions):
        if p.table and rules.touches_table(p.initial_meld_done):
            (native if _relaxation(p, rules) is None else other).append(i)
    if native:
        _least_native(positions, moves, native, objective, rules, threads, arrays, cost)
    need = [i for i in other if moves[i].sets_kept < len(positions[i].table)]
    need.sort(key=lambda i: -cost[i])

    def solve(k: int) -> None:
        i = need[k]
        moves[i] = least_disturbing_move(
            positions[i], objective, rules, moves[i], first_turned=bool(turn[i]),
            relaxed_known=None if relaxed_known is None else relaxed_known[i])

    _side_by_side(solve, range(len(need)), threads)
    if rules.fewest_moved:  # then the fewest tiles moved (engines.rummikub.heirs)
        from engines.rummikub.heirs import fewest_moved_move

        rows = [i for i in native if moves[i].sets_kept < len(positions[i].table)]

        def fewest(k: int) -> None:
            moves[rows[k]] = fewest_moved_move(positions[rows[k]], objective, rules,
                                               moves[rows[k]])

        _side_by_side(fewest, range(len(rows)), threads)


def _workers(threads: int | None, n: int) -> int:
    """How many threads work on ``n`` items: Numba's thread count (``threads`` caps it)."""
    import numba

    with numba_threads(threads, RummikubInputError):
        return min(numba.get_num_threads(), n)


def _side_by_side(work: Callable[[int], None], starts: range, threads: int | None) -> None:
    """``work(start)`` for every start, on Numba's thread count (``threads``) of threads."""
    workers = _workers(threads, len(starts))
    if workers > 1:
        run_ranges(work, starts, workers)
    else:
        for start in starts:
            work(start)


def _least_native(positions: Sequence[Position], moves: list[Move], rows: list[int],
                  objective: str, rules: Rules, threads: int | None, arrays: tuple,
                  cost: list[int]) -> None:
    """Least disturbance of the melded positions ``rows`` in the kernel
    (:func:`least_arrays`): the positions whose plain move keeps fewer table sets than the
    table has get the least-disturbing move (made lazily, as the plain ones); every move
    of ``rows`` learns its sets kept."""
    from engines.rummikub.least import table_slots
    from solvers.rummikub._least import FOUND

    slots = table_slots([positions[i].table for i in rows], rules)
    status, codes, counts, played, held, kept = least_arrays(
        slots, arrays, np.array(rows, np.int64), objective, rules, threads, np.array(cost))
    batch = _Batch([positions[i] for i in rows], status, codes, counts, played, False,
                   (rules.colours, rules.numbers), held)  # fmt: skip
    tiles, values = played.sum(axis=1).tolist(), (played @ _NUMBER).tolist()
    for k, (i, solved, sets_kept) in enumerate(zip(rows, status.tolist(), kept.tolist())):
        if solved == FOUND:
            moves[i] = _lazy(batch, k, tiles[k], values[k])
        if type(moves[i]) is _LazyMove:
            moves[i].__dict__.setdefault("_kept", sets_kept)


def least_arrays(slots: tuple, arrays: tuple, at: np.ndarray, objective: str, rules: Rules,
                 threads: int | None, cost: np.ndarray) -> tuple[np.ndarray, ...]:
    """Least disturbance for the rows ``at`` of a batch (melded positions with a table) in
    the kernel (:func:`solvers.rummikub._least.least_range`, GIL released), side by side
    on Numba's threads, the likely slowest (``cost``, by batch row) first.  ``slots``: their
    table sets (:func:`~engines.rummikub.least.table_slots`); ``arrays``: the batch's table
    and rack counts, modes, and the plain kernel's codes, counts and played tiles.  Returns
    ``(status, codes, counts, played, held, kept)`` for those rows: status
    :data:`~solvers.rummikub._least.FOUND` where the least-disturbing move replaces the
    plain one (its sets, played tiles, and the table sets it keeps, ``held``), 0 where the
    plain move stays (it keeps every set, or under the policy's ``PLAIN_FIRST`` as many as
    any); ``kept``: the sets each keeps.  Raises as
    :func:`~engines.rummikub.least.least_disturbing_move` does."""
    from engines.rummikub.least import WORK, policy, raise_for
    from solvers.rummikub import MAX_SETS, variants_for
    from solvers.rummikub._kept import plain_kept
    from solvers.rummikub._least import least_range

    table, rack, meld_modes, codes, counts, played = arrays
    slot_number, slot_colour, set_start, set_key, set_first = slots
    n = len(at)
    weight, joker_weight = objective_weights(objective)
    group_ok, part_count, part_masks = rules.group_tables()
    status, kept = np.zeros(n, np.int64), np.zeros(n, np.int64)
    optimum, ceiling = np.zeros(n, np.int64), np.diff(set_first)
    plain_kept(codes[at], counts[at], played[at], set_first, set_key, weight, joker_weight,
               kept, optimum)
    new_codes, new_counts = np.zeros((n, MAX_SETS), np.int64), np.zeros(n, np.int64)
    new_played = np.zeros((n, N_KINDS), np.int64)
    held = np.zeros((n, max(1, int(ceiling.max(initial=0)))), np.int64)
    work = np.zeros((n, 2), np.int64)
    mine, rack = table[at], rack[at]
    args = (np.ascontiguousarray(mine[:, :52]).reshape(n, 4, 13),
            np.ascontiguousarray(rack[:, :52]).reshape(n, 4, 13),
            np.ascontiguousarray(mine[:, 52]), np.ascontiguousarray(rack[:, 52]), weight,
            joker_weight, np.ascontiguousarray(meld_modes[at], np.int64), group_ok,
            part_count, part_masks, rules.min_set_length, set_first, slot_number,
            slot_colour, set_start, set_key, optimum, ceiling,
            *policy(rules, int((mine[:, 52] + rack[:, 52]).max(initial=0))), status,
            new_codes, new_counts, new_played, held, kept, work,
            variants_for(meld_modes[at], mine[:, 52] + rack[:, 52]))  # fmt: skip
    order = np.argsort(-cost[at], kind="stable")
    order = order[kept[order] < ceiling[order]]  # (the others: UNCHANGED)
    n = len(order)  # (0 where every plain move keeps every set)
    workers = _workers(threads, n)
    # a few positions a claim (each claim holds the GIL), fewer than the threads' share
    step = max(1, n if workers <= 1 else min(4, n // (16 * workers)))
    _side_by_side(lambda lo: least_range(order, lo, min(lo + step, n), *args),
                  range(0, n, step), threads)
    WORK += work.sum(axis=0)
    for k in order.tolist():
        if status[k] < 0:
            raise_for(int(status[k]), int(new_counts[k]))
    return status, new_codes, new_counts, new_played, held, kept


def solve_counts(
    table: np.ndarray, rack: np.ndarray, meld_modes: np.ndarray, objective: str = "tiles",
    threads: int | None = None, rules: Rules = DEFAULT_RULES, turn: np.ndarray | None = None,
    above: np.ndarray | None = None, cap: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel call of :func:`solve_moves` on the arrays of :func:`position_arrays`:
    ``(status, set codes, set counts, played)``, status 1 where a move was found, the
    codes of :func:`solvers.rummikub.meld_codes_batch`, and (n, 53) counts of the rack
    tiles each move plays (zero where none was found).  ``turn`` (int64, one a position),
    if given: 1 where the search is to take the position with its numbers reversed first;
    on return, 1 where the move was found that way
    (:func:`solvers.rummikub.solve_range`).  ``above`` (int64, one a position), if given: a
    score (the objective's, :func:`~engines.rummikub.position.objective_weights`, of the
    rack tiles played) some move of the position reaches, or ``NEG`` (none): status 0 where
    no move scores more (the search prunes what cannot).  ``cap`` (int64, one a position),
    if given: a score no move exceeds, or ``NO_CAP`` (none): a search reaching it stops."""
    weight, joker_weight = objective_weights(objective)
    n = len(table)
    with numba_threads(threads, RummikubInputError):
        status, codes, counts, played = _solve_pooled(
            table, rack, np.broadcast_to(weight, (n, 4, 13)), joker_weight,
            np.ascontiguousarray(meld_modes, np.int64), rules, turn, above, cap)
    if (counts[status == 1] < 0).any():
        raise AssertionError("the kernel returned a choice that is not an arrangement")
    return status, codes, counts, played


def _solve_pooled(
    table: np.ndarray, rack: np.ndarray, weight: np.ndarray, joker_weight: int,
    meld_modes: np.ndarray, rules: Rules = DEFAULT_RULES, turn: np.ndarray | None = None,
    above: np.ndarray | None = None, cap: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(status, codes, counts, played)`` of :func:`solve_counts` (``turn``, ``above``, ``cap``) on
    Numba's thread count, scheduled dynamically: this thread and ``threads - 1`` pool
    threads each take the next few positions as they finish
    (:func:`solvers.rummikub.solve_range`, GIL released, which also packs each position's
    sets and counts the tiles it plays), the likely slowest
    first (tiles in play times jokers plus one), so that no thread is left with a block of
    slow positions while the others wait (see ``_pooled``)."""
    import numba

    from solvers.rummikub import MAX_SETS, NCOL, NNUM, solve_range, variants_for
    from solvers.rummikub._layout import BEAM, NEG, NO_CAP

    n = len(table)
    group_ok, part_count, part_masks = rules.group_tables()
    status = np.zeros(n, np.int64)
    best = np.full(n, NEG, np.int64) if above is None else np.array(above, np.int64)  # (in, out)
    choice = np.zeros((n, NCOL, NNUM, 4), np.int64)
    group_jokers, stats = np.zeros((n, NNUM), np.int64), np.zeros((n, 2), np.int64)
    codes, counts = np.zeros((n, MAX_SETS), np.int64), np.full(n, -2, np.int64)
    played = np.zeros((n, N_KINDS), np.int64)
    turn = np.zeros(n, np.int64) if turn is None else turn
    cap = np.full(n, NO_CAP, np.int64) if cap is None else np.array(cap, np.int64)
    # (``weight`` writable: one position's broadcast weights are a read-only view, which
    # would compile solve_range again for that type)
    args = (np.ascontiguousarray(table[:, :52]).reshape(n, 4, 13),
            np.ascontiguousarray(rack[:, :52]).reshape(n, 4, 13),
            np.ascontiguousarray(table[:, 52]), np.ascontiguousarray(rack[:, 52]),
            np.require(weight, np.int64, "CW"), np.full(n, joker_weight, np.int64),
            meld_modes, group_ok, status, best, choice, group_jokers, stats, BEAM,
            part_count, part_masks, rules.min_set_length, codes, counts, played, turn, cap,
            variants_for(meld_modes, table[:, 52] + rack[:, 52]))  # fmt: skip
    threads = min(numba.get_num_threads(), n)
    if threads <= 1:
        solve_range(np.arange(n), 0, n, *args)
        return status, codes, counts, played
    jokers = table[:, 52] + rack[:, 52]
    order = np.argsort(-(table.sum(axis=1) + rack.sum(axis=1)) * (1 + jokers), kind="stable")
    step = max(1, min(8, n // (16 * threads)))
    run_ranges(lambda lo: solve_range(order, lo, min(lo + step, n), *args),
               range(0, n, step), threads)
    return status, codes, counts, played


def _name_melds(moves: list[Move], positions: Sequence[Position], rules: Rules,
                threads: int | None) -> None:
    """Meld then continue: each first play's ``new_sets``, the meld it was made with (sets
    of its played tiles alone worth the threshold: the initial-meld search on them)."""
    from dataclasses import replace

    first = [i for i, (p, m) in enumerate(zip(positions, moves))
             if not p.initial_meld_done and m.played]
    own = replace(rules, meld_continue=False)
    limits = rules.position_limits()  # (a third copy: the played tiles may hold three)
    melds = solve_moves([Position((), tuple(moves[i].played), False, **limits)
                         for i in first], "value", threads, own)
    for i, meld in zip(first, melds):
        if not meld.played and rules.meld_threshold > 0:
            raise AssertionError("meld then continue played tiles that hold no meld")
        moves[i].new_sets = meld.new_sets


def _moves(positions: Sequence[Position], status: np.ndarray, codes: np.ndarray,
           counts: np.ndarray, played: np.ndarray, touch: bool = False,
           tile_set: tuple[int, int] = (4, 13)) -> list[Move]:
    """Moves from the kernel's outputs (see :class:`_LazyMove`: each move's tiles, sets and
    table are made when first read).  ``touch``: a first play arranges the whole table
    (meld then continue); ``tile_set``: the rules' colours and numbers (what a table joker
    may stand for)."""
    batch = _Batch(positions, status, codes, counts, played, touch, tile_set)
    return [_lazy(batch, i, tiles, value)
            for i, tiles, value in zip(range(len(positions)), played.sum(axis=1).tolist(),
                                       (played @ _NUMBER).tolist())]  # fmt: skip


def _lazy(batch: _Batch, index: int, tiles: int, value: int) -> _LazyMove:
    """The move of ``batch``'s position ``index``, made when first read."""
    move = object.__new__(_LazyMove)
    move.__dict__.update(tiles=tiles, value=value, _batch=batch, _index=index)
    return move


class _Batch:
    """The kernel's outputs of one :func:`solve_moves` call, which its moves are made from."""

    __slots__ = ("codes", "counts", "held", "played", "positions", "status", "tile_set",
                 "touch")

    def __init__(self, positions: Sequence[Position], status: np.ndarray, codes: np.ndarray,
                 counts: np.ndarray, played: np.ndarray, touch: bool,
                 tile_set: tuple[int, int] = (4, 13), held: np.ndarray | None = None) -> None:
        self.positions, self.status, self.codes = positions, status, codes
        self.counts, self.played, self.touch = counts, played, touch
        self.tile_set = tile_set
        self.held = held  # least disturbance: the table sets each move keeps (1) first


class _Made:
    """A field of :class:`_LazyMove`, made (with the move's other fields) on first reading."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, move: Any, owner: type | None = None) -> Any:
        if move is None:
            return self
        move._make()
        return move.__dict__[self.name]


class _LazyMove(Move):
    """A :class:`Move` of :func:`solve_moves` whose played tiles, table, new sets and previous
    table are made from the batch's arrays when one of them is first read (``tiles`` and
    ``value`` are set at once): a caller that reads a few moves, or only their counts, pays
    for those only.  Equal to the :class:`Move` of the same fields; copies and pickles are
    plain :class:`Move` objects."""

    played = _Made()
    table = _Made()
    new_sets = _Made()
    previous = _Made()
    tile_set = _Made()

    def _make(self) -> None:
        from solvers._rummikub_objects import played_tiles

        fields = self.__dict__
        if "_batch" not in fields:
            raise AttributeError("a field of this move was deleted")
        batch, i = fields.pop("_batch"), fields.pop("_index")
        fields.pop("_kept", None)
        p = batch.positions[i]
        solved = batch.status[i] == 1
        codes = batch.codes[i, :batch.counts[i]].tolist() if solved else []
        melds = [_meld(code) for code in codes]
        if batch.held is not None:  # least disturbance (melded): the sets kept first
            keep = batch.held[i, :len(p.table)].tolist()
            table = [m for m, k in zip(_table_melds(p.table, batch.tile_set), keep) if k]
            table, new_sets = table + melds, []
        elif p.initial_meld_done or (batch.touch and solved):
            table, new_sets = melds, []
        else:
            table, new_sets = _table_melds(p.table, batch.tile_set) + melds, melds
        made = {"played": played_tiles(batch.played[i], _TILE_OF), "table": table,
                "new_sets": new_sets, "previous": list(p.table), "tile_set": batch.tile_set}
        for name, value in made.items():
            fields.setdefault(name, value)  # (one set by the caller stays)

    @property
    def sets_kept(self) -> int:
        """:attr:`Move.sets_kept`, known from the kernel until the move is made (least
        disturbance counts them)."""
        fields = self.__dict__
        if "_kept" in fields and "table" not in fields and "previous" not in fields:
            return fields["_kept"]
        return Move.sets_kept.fget(self)

    def _fields(self) -> tuple:
        return (self.played, self.table, self.tiles, self.value, self.new_sets)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Move):
            return self._fields() == (other.played, other.table, other.tiles, other.value,
                                      other.new_sets)  # fmt: skip
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  (as Move's: mutable)

    def __reduce__(self) -> tuple:
        return (Move, (*self._fields(), self.previous, self.tile_set))

    def __repr__(self) -> str:
        return repr(Move(*self._fields(), self.previous))


_TABLE_MELDS: dict[tuple, Meld] = {}
_TABLE_MELDS_MAX = 100_000  # bounded: cleared when full


def _table_melds(table: Sequence[Sequence], tile_set: tuple[int, int] = (4, 13)
                 ) -> list[Meld]:
    """The sets of a table as melds (jokers' stand-ins resolved within ``tile_set``, the
    colours and numbers: ``J K7 J`` is a run with two colours), cached per set."""
    out = []
    small = tile_set != (4, 13)
    for s in table:
        key = (*tile_set, *s) if small else tuple(s)
        meld = _TABLE_MELDS.get(key)
        if meld is None:
            if len(_TABLE_MELDS) >= _TABLE_MELDS_MAX:
                _TABLE_MELDS.clear()
            meld = _TABLE_MELDS[key] = validate_set(s, min_len=SHORTEST_SET,  # (checked)
                                                    colours=tile_set[0], numbers=tile_set[1])
        out.append(meld)
    return out


#: The canonical name of each tile kind (the joker last).
KIND_NAMES: list[str] = [str(t) for t in _TILE_OF]


def played_names(played: np.ndarray) -> list[list[str]]:
    """The names of the tiles each row of ``played`` counts, in kind order (the joker last)."""
    n = len(played)
    ends = np.cumsum(played.sum(axis=1)).tolist()
    kinds = np.repeat(np.tile(np.arange(N_KINDS), n), played.ravel()).tolist()
    names = list(map(KIND_NAMES.__getitem__, kinds))
    return [names[start:end] for start, end in zip([0, *ends], ends)]


_SET_NAMES: dict[int, list[str]] = {}


def set_names(code: int) -> list[str]:
    """The tile names of the set of a :func:`solvers.rummikub.meld_codes_batch` code (a
    list shared by every caller: read it, do not change it)."""
    names = _SET_NAMES.get(code)
    if names is None:
        names = _SET_NAMES[code] = [str(slot.tile) for slot in _meld(code)]
    return names
