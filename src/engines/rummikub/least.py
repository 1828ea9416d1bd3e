"""Least disturbance: among the optimal moves, one that keeps the most table sets unchanged.

A table set is *kept* when the table afterwards holds a set of exactly its tiles.  The
exact DP (:mod:`solvers.rummikub`) finds it itself, with no other solver:

- *Holding out* a table set (it stays on the table as it is and leaves the problem) and
  arranging the rest is an arrangement of the whole position playing the same rack tiles;
  conversely a move that keeps a set is one that holds it out.  So the most sets kept by
  an optimal move is the most sets held out by an arrangement of the rest that reaches the
  optimum, where the DP's score is one integer holding the objective *and* its tie-breaks
  (most tiles, then value, then fewest jokers, or value first: :func:`~engines.rummikub.
  position.objective_weights`).
- The DP decides the sets held out as it goes (:mod:`solvers.rummikub._hold`: a field of
  bits in its state, one per table set covering the number, assigned by an interval
  colouring; at most 10 sets cover a number, 8 tiles and 2 jokers, within the field's 12
  bits).  Its score is the objective's scaled above the number of table sets, plus one per
  set held out, so its best score is the optimum with the most sets kept.
- Each pass prunes what cannot reach a score: the objective's optimum (known from the plain
  DP's move) with a number of sets kept.  Narrow passes (a few hundred states per layer)
  find moves keeping more and more sets; then an exact pass asking for one set more than
  the best found either finds the best move (it keeps the best-scored state) or proves
  that none keeps more.  Under official joker retrieval a held-out set keeps its jokers in
  place, so they need no rack tile (the DP's joker bits).
- The tables, the passes and the answer's sets run in one kernel call a position
  (:mod:`solvers.rummikub._least`, no GIL); this module chooses the policy (the passes'
  widths and budgets), the relaxations that solve some rules faster, and makes the moves.
  A batch's melded positions go to the kernel together (:func:`engines.rummikub.arrays.
  solve_moves`), side by side on its threads.

>>> from engines.rummikub.position import Position
>>> pos = Position.from_strings([["R6", "R7", "R8"], ["R3", "R4", "R5"]], "R9")
>>> move = least_disturbing_move(pos, "tiles")
>>> [format_meld(m) for m in move.table], move.sets_kept
(['R3 R4 R5', 'R6 R7 R8 R9'], 1)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from engines.rummikub.errors import PositionError
from engines.rummikub.position import Move, Position, _counts, kernel_results, objective_weights
from engines.rummikub.rules import DEFAULT_RULES, Rules
from engines.rummikub.sets import Meld, format_meld, meld_tiles
from engines.rummikub.tiles import COLOURS, Tile

__all__ = ["format_meld", "least_disturbing_move"]


def _key(tiles) -> tuple:
    return tuple(sorted(tiles))


class _Oracle:
    """The plain DP on the table sets of a bit mask (the others held out) and the whole
    rack, under ``rules`` (their real tiles per set, tile set and joker retrieval; the
    position is melded): what the tests check least disturbance against, and the optimal
    move least disturbance starts from when none is given."""

    def __init__(self, sets: Sequence[Sequence], rack, rack_jokers: int, weight: np.ndarray,
                 joker_weight: int, rules: Rules = DEFAULT_RULES) -> None:
        self.sets = list(sets)
        self.keys = [_key(s) for s in sets]
        counts = [_counts(s) for s in sets]
        self.counts = np.array([c for c, _ in counts], np.int64).reshape(len(sets), 4, 13)
        self.jokers = np.array([j for _, j in counts], np.int64)
        self.rack = rack[None]
        self.rack_jokers = np.array([rack_jokers], np.int64)
        self.weight = weight[None]
        self.joker_weight = np.array([joker_weight], np.int64)
        self.rules = rules
        self.group_ok = rules.group_tables()[0]

    def solve(self, mask: int):
        """(rack score, the DP's result) for the table sets in ``mask`` (a held-out set
        keeps its jokers in place: the rules integer names the jokers in play only)."""
        from solvers.rummikub import solve_arrays

        chosen = np.array([mask >> i & 1 for i in range(len(self.keys))], np.bool_)
        in_play = [s for i, s in enumerate(self.sets) if mask >> i & 1]
        must = self.counts[chosen].sum(axis=0)[None]
        mode = np.array([self.rules.search_mode(True, in_play)], np.int64)
        status, best, choice, group_jokers, _stats = solve_arrays(
            must, self.rack, self.jokers[chosen].sum(keepdims=True), self.rack_jokers,
            self.weight, self.joker_weight, mode, parallel=False, group_ok=self.group_ok)
        if status[0] != 1:  # cannot happen: the table sets in play are an arrangement
            raise AssertionError("the DP found no arrangement of valid table sets")
        return int(best[0]), kernel_results(status, choice, group_jokers, self.rules)[0]

    def unchanged(self, mask: int, melds: Sequence[Meld]) -> int:
        """The table sets in ``mask`` that ``melds`` holds unchanged (as a mask)."""
        pool = Counter(_key(meld_tiles(m)) for m in melds)
        kept = 0
        for i, key in enumerate(self.keys):
            if mask >> i & 1 and pool[key] > 0:
                pool[key] -= 1
                kept |= 1 << i
        return kept


# A table set -> its slots for the kernel (:func:`_set_slots`); bounded: cleared when full.
_SLOTS: dict[tuple, tuple[list[int], list[int], int]] = {}
_SLOTS_MAX = 100_000


def _set_slots(tiles: Sequence[Tile], tile_set: tuple[int, int]
               ) -> tuple[list[int], list[int], int]:
    """A table set as :mod:`solvers.rummikub._least` reads it: per slot of its meld (the
    jokers' stand-ins within ``tile_set``, the colours and numbers) the number it stands
    for and the real tile's colour (-1 for a joker), and its tiles' key
    (:func:`solvers.rummikub._kept.code_key`; a valid set holds no tile twice)."""
    key = (*tile_set, *tiles)
    slots = _SLOTS.get(key)
    if slots is None:
        from engines.rummikub.arrays import _table_melds

        meld = _table_melds([tiles], tile_set)[0]  # (the moves' cache of table sets)
        numbers = [slot.stands_for.number for slot in meld]
        colours = [-1 if slot.tile.is_joker else COLOURS.index(slot.tile.colour)
                   for slot in meld]
        code = sum(1 << (13 * c + v - 1) for c, v in zip(colours, numbers) if c >= 0)
        if len(_SLOTS) >= _SLOTS_MAX:
            _SLOTS.clear()
        slots = _SLOTS[key] = (numbers, colours, code | colours.count(-1) << 52)
    return slots


def table_slots(tables: Sequence[Sequence[Any]], rules: Rules = DEFAULT_RULES,
                slots_of: Callable[[Any], tuple] | None = None) -> tuple[np.ndarray, ...]:
    """The table sets of several positions for :mod:`solvers.rummikub._least`:
    ``(slot_number, slot_colour, set_start, set_key, set_first)``, position p's sets
    ``set_first[p]..set_first[p + 1] - 1`` (``slots_of``: a set's :func:`_set_slots`, when
    the sets are not tiles)."""
    tile_set = (rules.colours, rules.numbers)
    numbers: list[int] = []
    colours: list[int] = []
    starts = [0]
    keys: list[int] = []
    firsts = [0]
    for table in tables:
        for tiles in table:
            slot_numbers, slot_colours, key = (_set_slots(tiles, tile_set) if slots_of is None
                                               else slots_of(tiles)[:3])
            numbers += slot_numbers
            colours += slot_colours
            starts.append(len(numbers))
            keys.append(key)
        firsts.append(len(keys))
    return tuple(np.array(a, np.int64) for a in (numbers, colours, starts, keys, firsts))


def policy(rules: Rules | None = None, jokers: int | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The passes' policy as the kernel reads it: :data:`NARROW`, :data:`EXACT_BUDGET`,
    :data:`CUTS` (three or four copies or jokers, or ``rules`` None), :data:`KEPT_EXACT`,
    :data:`LEFT_OUT`, :data:`BOUND_FIRST`, :data:`BOUND_ANY`, :data:`DESCENTS`, the kernel's
    ``BOUND_FROM``, :data:`BRANCH_NODES` and :data:`NOGOOD_ROUNDS` (or ``_FOUR_COPIES``; with
    ``jokers`` in play, the positions' most, 3+: ``_JOKERS``, nodes ``_TWO_COPIES_JOKERS`` with
    two copies), :data:`DESCENT_WIDTH` (four jokers), :data:`CHECK_WIDTHS`, :data:`CHECK_AFTER`,
    ``NOGOOD_NODES_FOUR_COPIES`` (or the first search's), :data:`WIDER` (read at each call)."""
    from solvers.rummikub._least import BOUND_FROM

    many = rules is None or rules.copies > 2 or rules.jokers > 2
    width = DESCENT_WIDTH if rules is None or rules.jokers > 3 else 0
    cuts = (CUTS if many else 0) | KEPT_EXACT | LEFT_OUT | BOUND_FIRST | BOUND_ANY
    jokers = (rules.jokers if rules else 0) if jokers is None else jokers
    bound_from, nodes, rounds, round_nodes = BOUND_FROM, BRANCH_NODES, NOGOOD_ROUNDS, BRANCH_NODES
    if rules is None or rules.copies > 3:
        bound_from, rounds = BOUND_FROM_FOUR_COPIES, NOGOOD_ROUNDS_FOUR_COPIES
        nodes = BRANCH_NODES_FOUR_COPIES if rules is None or jokers else BRANCH_NODES
        round_nodes = nodes if NOGOOD_NODES_FOUR_COPIES is None else NOGOOD_NODES_FOUR_COPIES
    elif jokers > 2 and rules.copies > 1:
        nodes = BRANCH_NODES_JOKERS if rules.copies > 2 else BRANCH_NODES_TWO_COPIES_JOKERS
        rounds, round_nodes = NOGOOD_ROUNDS_JOKERS, nodes
    return (np.array(NARROW, np.int64),
            np.array((*EXACT_BUDGET, cuts, DESCENTS, bound_from, width, nodes,
                      *CHECK_WIDTHS, CHECK_AFTER, rounds, round_nodes), np.int64),
            np.array(WIDER, np.int64))


def raise_for(status: int, detail: int) -> None:
    """The error of a :func:`solvers.rummikub._least.least_one` status that found no move
    (``detail``: the number too many table sets cover)."""
    from solvers.rummikub._layout import HOLD_BITS
    from solvers.rummikub._least import MISSED, TOO_MANY

    if status == TOO_MANY:
        raise PositionError(f"least disturbance: more than {HOLD_BITS} table sets cover "
                            f"number {detail} (the DP holds {HOLD_BITS} out at a time); "
                            "solve it with least_disturbance=false")
    if status == MISSED:  # cannot happen: the first move's kept sets reach the floor
        raise AssertionError("the held-out DP passes missed the optimum")
    raise AssertionError("the kernel returned a choice that is not an arrangement")


def hold_tables(sets: Sequence[Sequence[Tile]], rules: Rules = DEFAULT_RULES) -> tuple:
    """The DP's held-out tables (:mod:`solvers.rummikub._hold`) for the table ``sets``."""
    from solvers.rummikub._least import hold_tables as tables_of

    slot_number, slot_colour, set_start, _keys, _firsts = table_slots([sets], rules)
    tables, crowded = tables_of(slot_number, slot_colour, set_start, 0, len(sets),
                                np.empty((13, 12), np.int64))
    if crowded:
        raise_for(-1, crowded)
    return tables


# The narrow passes that look for a move keeping many sets: states per layer, positive for the
# most sets held out so far first (one pass), negative for the fewest obligations first (passes
# asking for one set more each time, until one finds none: a single pass leaves the exact pass
# a lower floor, which under official retrieval cost up to 5 times the states).  Measured on 90
# positions of the 40J/60J/80J bands, seeds 1-2: 4.79 M states, against 7.87 M for the former
# 256, -256, -1,024 ranked by the whole score (docs/CHANGELOG.md).
NARROW = (256, -256)
# The exact pass's budget of states while wider narrow passes remain, and their widths:
# an exact pass that outgrows the budget searches from a floor the narrow passes left
# below the best (measured: ...)
EXACT_BUDGET = (100_000, 12, 400_000)  # states: at least, per narrow pass state, at most
WIDER = (1024,)
# The exact cuts of the held-out passes (bits: :data:`solvers.rummikub._least.FEWEST_HELD`
# 1; the kernel reads them after EXACT_BUDGET): the same sets kept, fewer states.
# FEWEST_HELD: copies=4 seeds 1-3, 60J/80/80J, 37.9 M -> 36.4 M states alone, and it prunes
# the descents' passes (below: 28.7 M without it, 15.7 M with it).  (benches/README #18,
# rktail; twin table sets held out in order measured +0.7 % states and were removed)
# PLAIN_FIRST (2, not a cut: the plain move is the answer the passes start from, so they
# ask for one set more than it keeps, and it stays when none keeps more): measured in
# benches/README "Least disturbance" (rkj4b).
CUTS = 3
# Under every rule, also :data:`solvers.rummikub._least.LEFT_OUT` (4): the hold layers drop the
# states that cannot leave out exactly the rack tiles the optimum leaves out (exact wherever
# every move reaching a pass's floor scores the optimum: the passes arrange the rules' own
# moves, under official retrieval too, and a relaxation's run only where its optimum is the
# rules'; meld then continue's two-arrangement passes score the final arrangement alone).
# jokers=4 seeds 11 and 1-7, 20 a band, alone: 23.54 M -> 22.10 M held-out states (20J 3.18 M
# -> 2.08 M, 40J 6.18 M -> 5.85 M; every 60J and 80J optimum plays the whole rack, which the
# rack bound already asks for: the same states), the same answers (benches/README, rkj4d); the
# other rules, seeds 11 and 2, 20 a band: rules document 8.68 M -> 8.02 M, sets of 4 2.27 M ->
# 0.99 M, copies=4 6.76 M -> 5.44 M, the same answers (rkcut)
LEFT_OUT = 4
# Exact passes asking for the linear relaxation's bound on the sets kept, then one set less,
# before the passes above, where the bound was computed
# (:func:`solvers.rummikub._least.bounded_passes`; the bound is usually the best, and a
# pass at it prunes far more than one from the narrow passes' floor): with FEWEST_HELD,
# copies=4 36.4 M -> 15.7 M states (one descent 17.6 M), jokers=4 25.3 M -> 19.8 M
DESCENTS = 2
# Each descent's exact pass after a narrow pass of this width at the same floor (0: none),
# with four jokers: reaching the bound, it is the answer.  Held-out states, seeds 11 and 1-7,
# 20 a band (with PLAIN_FIRST): jokers=4 20J-80J 28.8 M -> 26.5 M; not set for copies=4
# (34.2 M -> 35.9 M) nor three jokers (22.9 M -> 22.8 M, some positions slower); widths
# -1,024, 4,096 and 16,384 found less (benches/README "Least disturbance", rkj4b)
DESCENT_WIDTH = 1024
# The nodes a target of the search that lowers the bound the descents start from, branching
# on the sets held out (:mod:`solvers.rummikub._branch`; 0: none), where the bound is computed
# (copies=4 25.54 M -> 24.29 M held-out states, rkc4b); four copies 256 (64 left 8, 13, 14 60J's
# exact passes of 130-312 k states), 64 with no joker in play (256 on 4 60 #9 55.9, 64 9.9 ms);
# 3+ jokers in play, three copies 128 (6 40J #6 242 k -> 13 k), two 256 (8 60J #1 official +
# jokers=3 172 k -> 0; rkn128): more nodes only lower the bound or reach a node the check proves
BRANCH_NODES, BRANCH_NODES_JOKERS, BRANCH_NODES_FOUR_COPIES = 64, 128, 256
BRANCH_NODES_TWO_COPIES_JOKERS = 256
# Where the search above reaches the bound at a node holding out whole sets: a narrow pass of
# CHECK_WIDTHS[0] states a layer holding out only the node's sets, an exact pass at the bound
# within CHECK_AFTER states (where it ends there, it found the move or proved there is none),
# then a narrow pass of CHECK_WIDTHS[1] (a width 0: none) look for a move keeping as many
# (:func:`solvers.rummikub._least._at_the_bound`): one found is the answer, with no exact pass.
# Held-out states, seeds 11 and 1-7, 20 a band (1,600 positions a row), with the branching on
# rack tiles: copies=4 28.12 M -> 23.74 M, jokers=3 24.86 M -> 22.40 M, copies=3 23.82 M ->
# 22.00 M, jokers=4 29.78 M -> 25.09 M.  copies=4, other orders: the two widths alone 23.85 M,
# 1,024 alone 23.82 M (60J seed 2 #10 425 k states: 4,096 finds it), the exact pass first
# 25.50 M (5,000: 24.75 M), an exact pass holding out the node's sets 26.88 M (benches/README)
CHECK_WIDTHS = (1024, 4096)
CHECK_AFTER = 25_000
# (:data:`solvers.rummikub._least.KEPT_EXACT`, with CUTS) The node's sets are checked
# instead by the DP's exact pass on the rest of the table (their tiles out: the plain DP's
# problem with the optimum as its floor, 2-16 k states on copies=4 60J tails where the
# narrow passes above took 30-120 k).  With the bound branched on the rack tiles' copies,
# copies=4 seeds 11 and 1-7, 20 a band: held-out states 18.72 M -> 16.69 M (benches/README,
# rkc4d).  Under official retrieval the rest keeps its own jokers' places only (the sets
# held out keep theirs): official + copies=4, same seeds, 3.18 M -> 1.20 M (rkoffc4).
# Under every rule since BOUND_ANY (below): the rules document, seeds 1-7, 20-80J, 1.52 M ->
# 0.70 M states (CPU the same); two real tiles + sets of 2, seed 11 20J #0 104 k -> 61 k
# (its node's sets make no move: the narrow checks spent 69 k finding that) (rkdef)
KEPT_EXACT = 16
# The narrow passes' states past which the bound is computed where BOUND_FIRST (below) is
# off, with four copies (the kernel's BOUND_FROM, 20,000, otherwise): copies=4 29.44 M ->
# 24.29 M states (40J 5.94 M -> 3.33 M); 5,000: 24.13 M, no faster (benches/README, rkc4b)
BOUND_FROM_FOUR_COPIES = 10_000
# Under every rule, :data:`solvers.rummikub._least.BOUND_FIRST` (8, a bit beside the cuts):
# where the bound applies (three or four copies or jokers in play; with BOUND_ANY, below,
# every melded position) it is computed before any
# narrow pass, whose 256 and -256 states a layer at the plain move's floor mostly found
# nothing there (the bound's own checks found the move).  jokers=4 seeds 11 and 1-7, 20 a
# band: 15.05 M -> 2.91 M held-out states, the same answers; after one narrow pass of 256
# (or 128, 64) 8.87 M (5.89 M, 4.34 M); both narrow passes, then the bound 14.74 M.  Seeds
# 11 and 1-7, 20J-80J, 60 and 80: copies=4 18.41 M -> 4.89 M, jokers=3 20.69 M -> 7.15 M,
# copies=3 18.67 M -> 1.98 M, the same answers (rkj4e, benches/README "Least disturbance")
BOUND_FIRST = 8
# Under every rule, :data:`solvers.rummikub._least.BOUND_ANY` (32): the bound (and so
# BOUND_FIRST) applies with two copies and at most two jokers in play too, the rules
# document's game.  Its tails were exact passes proving that no move keeps one set more
# (seed 6 60J #0: 938,677 held-out states, 6 passes; seed 3 80J #6: 914,893), where the
# bound is the most kept: the rules document's bands 20-80J, seeds 1-7, 20 a band, 31.09 M
# -> 1.52 M held-out states, the same answers (benches/README "Least disturbance", rkdef)
BOUND_ANY = 32
# The branched bound's nodes whose sets the exact check of KEPT_EXACT proves no move keeps all
# of, ruled out one after the other while the search goes on from there, each with BRANCH_NODES
# more nodes (0: none; :func:`solvers.rummikub._least._checked_bound`; under official retrieval
# too where the held-out jokers' places serve no other joker that could not swap with them,
# :func:`solvers.rummikub._official.held_places_proven`: official + two real tiles + sets of 2
# seed 4 40J #13 2.29 M -> 899 states, 1.34 s -> 0.22 s, rkoffr2): the bound falls to the most
# kept, whose node's sets a move keeps, with no exact pass.  Two real tiles + sets of 2, seeds
# 11 and 1-7, 20 a band, each position's best of two runs of each interleaved: 15.92 -> 10.68 s
# CPU, held-out states 17.21 M -> 2.17 M, over 50 ms 28 -> 9 (seed 4 40J #13 1,770 -> 243 ms);
# 32 and 64 rounds 10.93 and 10.92 s (benches/README, rks2)
NOGOOD_ROUNDS = 256
# 3+ jokers in play 40 (17 60J #0 official + copies=3 + jokers=3: 114 rounds, 47 -> 22 ms at 32,
# rkn128; 24 60J #0's three-copy rows find the move in round 34: 223 k -> 108 k states, 17 60J #0
# 18 k -> 21 k, no other route seeds 1-18, 22-24, rkc4j3b), four copies 16 (copies=4 row, value:
# 210 rounds, 98 -> 25 ms; 8: 5 80J #7 13 -> 69 ms; rkr4): a round not run leaves the bound higher.
# A round's nodes more (None: the first search's): 0 for four copies won seeds 1-18 a little (3 80
# #8 15 -> 7 ms) but lost fresh seed 24 (60J #0 346 k -> 441 k states; rkbudget, session 28)
NOGOOD_ROUNDS_JOKERS, NOGOOD_ROUNDS_FOUR_COPIES, NOGOOD_NODES_FOUR_COPIES = 40, 16, None
# The held-out passes run and their states, summed (a bench's; threads side by side may miss some)
WORK = np.zeros(2, np.int64)


def least_disturbing_move(pos: Position, objective: str, rules: Rules = DEFAULT_RULES,
                          first: Move | None = None, melded_plain: Move | None = None,
                          first_turned: bool = False,
                          relaxed_known: tuple[Move, int] | None = None) -> Move:
    """The optimal move for ``pos`` (melded, or meld then continue) that keeps the most
    table sets unchanged (``objective``: ``"tiles"`` or ``"value"``, with their tie-breaks;
    ``rules``: real tiles per set, the tile set and joker retrieval, as the DP solves them;
    ``first``: an optimal move already known, else the DP finds one).  The sets kept come
    first, in the table's order, then the DP's sets.

    The DP holds table sets out itself (:mod:`solvers.rummikub._hold`; the module's
    docstring): narrow passes find moves keeping more sets, then an exact pass asking for
    one set more than the best found finds the best move or proves there is none.

    ``melded_plain``: meld then continue, the plain move of the position as a melded
    player's under ``rules`` without meld then continue (:func:`continue_moves` solved it),
    which a relaxation then need not solve again.  ``first_turned``: the DP found ``first``
    searching the position with its numbers reversed (a relaxation's solve searches that
    way first: :func:`_relaxed_move`).  ``relaxed_known``: :func:`relaxation_first`'s
    (a move the rules do not allow), the relaxation not solved again."""
    ceiling = len(pos.table)  # the most sets a move may keep
    if first is None and not pos.initial_meld_done:  # meld then continue
        from engines.rummikub.arrays import solve_moves

        first = solve_moves([pos], objective, None, replace(rules, least_disturbance=False))[0]
    if first is not None and _relaxation(pos, rules) is not None:
        relaxed = (_known_bound(pos, first, *relaxed_known) if relaxed_known else
                   _relaxed_answer(pos, objective, rules, first, melded_plain, first_turned))
        if isinstance(relaxed, Move):
            return relaxed
        ceiling = relaxed
        if first.sets_kept >= ceiling:
            return first
    sets = list(pos.table)
    weight, joker_weight = objective_weights(objective)
    rack, rack_jokers = _counts(pos.rack)
    if first is None:
        oracle = _Oracle(sets, rack, rack_jokers, weight, joker_weight, rules)
        full = (1 << len(sets)) - 1
        melds = oracle.solve(full)[1][0]
        kept = oracle.unchanged(full, melds).bit_count()
    else:
        kept = first.sets_kept
        melds = first.table
    played, played_jokers = _counts(t for m in melds for t in meld_tiles(m))
    must, must_j = _counts(pos.table_tiles)
    optimum = int((weight * (played - must)).sum()) + joker_weight * (played_jokers - must_j)
    move = _passes(pos, rules, weight, joker_weight, (must, must_j, rack, rack_jokers),
                   kept, optimum, ceiling)
    if move is None:  # no move keeps more sets than the first
        move = first if first is not None else _melds_move(pos, melds, rules)
    elif not pos.initial_meld_done:  # meld then continue: the meld its played tiles hold
        from engines.rummikub.arrays import _name_melds

        _name_melds([move], [pos], rules, None)
    if rules.fewest_moved:  # then the fewest tiles moved (melded: the rules allow)
        from engines.rummikub.heirs import fewest_moved_move

        move = fewest_moved_move(pos, objective, rules, move)
    return move


def _melds_move(pos: Position, melds: Sequence[Meld], rules: Rules) -> Move:
    """The move whose table afterwards is ``melds`` (the rack tiles played: their tiles
    beyond the table's)."""
    rest = Counter(pos.table_tiles)
    played = []
    for tile in (t for m in melds for t in meld_tiles(m)):
        if rest[tile] > 0:
            rest[tile] -= 1
        else:
            played.append(tile)
    return Move(played, list(melds), len(played), sum(t.number for t in played),
                previous=list(pos.table), tile_set=(rules.colours, rules.numbers))


def _passes(pos: Position, rules: Rules, weight: np.ndarray, joker_weight: int,
            counts: tuple, kept: int, optimum: int, ceiling: int) -> Move | None:
    """The held-out passes of :func:`least_disturbing_move` in one kernel call
    (:func:`solvers.rummikub._least.least_one`) from an optimal move keeping ``kept`` sets
    (``optimum``: its score), and the move they find (``counts``: the table's and the
    rack's tile counts and jokers); None when that move keeps the most
    (:data:`solvers.rummikub._least.PLAIN_FIRST`)."""
    from engines.rummikub.continue_least import position_policy
    from engines.rummikub.position import _TILE_OF, _meld
    from solvers._rummikub_objects import played_tiles
    from solvers.rummikub import MAX_SETS
    from solvers.rummikub._least import FOUND, UNCHANGED, least_position

    sets = list(pos.table)
    must, must_j, rack, rack_jokers = counts
    slot_number, slot_colour, set_start, set_key, _firsts = table_slots([sets], rules)
    group_ok, part_count, part_masks = rules.group_tables()
    mode = int(rules.search_mode(pos.initial_meld_done, sets))
    codes = np.zeros(MAX_SETS, np.int64)
    played = np.zeros(53, np.int64)
    held = np.zeros(len(sets), np.int64)
    status, count, _kept = least_position(
        must, rack, must_j, rack_jokers, weight, joker_weight, mode, group_ok, part_count,
        part_masks, rules.min_set_length, slot_number, slot_colour, set_start, set_key, kept,
        optimum, ceiling, *position_policy(pos, rules), codes, played, held, WORK)
    if status == UNCHANGED:
        return None
    if status != FOUND:
        raise_for(status, count)
    from engines.rummikub.arrays import _table_melds

    table = [m for m, h in zip(_table_melds(sets, (rules.colours, rules.numbers)), held) if h]
    tiles = played_tiles(played, _TILE_OF)
    return Move(tiles, table + [_meld(code) for code in codes[:count].tolist()], len(tiles),
                sum(t.number for t in tiles), previous=sets,
                tile_set=(rules.colours, rules.numbers))


# The options a relaxation drops (:func:`_relaxation`; two real tiles only where
# :func:`relaxes_real_tiles`).  Measured on the bench bands (seed 11, 20 positions, CPU ms):
# two real tiles 60J max 186 -> 41, 80J 58 -> 42; official + two real tiles (relaxed to
# official) 80J 140 -> 53.  Not official retrieval: relaxed to free joker retrieval, its
# optimum is often higher or its move breaks the rule (80J max 55 -> 76 ms).
RELAXED = ("meld_continue", "min_real_tiles")
# Where dropping :data:`RELAXED` gives a move the rules do not allow (or another optimum),
# the relaxation dropping only these is tried next, its bound the tighter: meld then
# continue with two real tiles, seed 5 60J #5 of the ``--combos`` survey, 13.1 s (16.9 M
# held-out states) -> 0.22 s (benches/README "option combinations")
RELAXED_AGAIN = ("meld_continue",)


def _relaxed_answer(pos: Position, objective: str, rules: Rules, first: Move,
                    melded_plain: Move | None = None, first_turned: bool = False) -> Move | int:
    """:func:`_relaxed_move` of :data:`RELAXED`; where that is only a bound above
    ``first``'s sets kept, and dropping :data:`RELAXED_AGAIN` alone is a closer relaxation,
    that one's move if the rules allow it, else the lesser of the two bounds
    (``melded_plain``, ``first_turned``: see :func:`least_disturbing_move`)."""
    relaxed = _relaxed_move(pos, objective, rules, first, RELAXED, melded_plain, first_turned)
    if isinstance(relaxed, Move) or relaxed <= first.sets_kept:
        return relaxed
    closer = _relaxation(pos, rules, RELAXED_AGAIN)
    if closer is None or closer == _relaxation(pos, rules):
        return relaxed
    again = _relaxed_move(pos, objective, rules, first, RELAXED_AGAIN, melded_plain,
                          first_turned)
    return again if isinstance(again, Move) else min(relaxed, again)


def _relaxation(pos: Position, rules: Rules, dropped: tuple[str, ...] = RELAXED
                ) -> tuple[Position, Rules] | None:
    """A position and rules under which every move ``rules`` allow ``pos`` is allowed, that
    the held-out passes solve faster (the options ``dropped``, by default :data:`RELAXED`): a
    melded player's turn for meld then continue, one real tile per set for two (with three
    or more copies or jokers: :func:`relaxes_real_tiles`; free joker retrieval for
    official); ``None`` if none applies."""
    loose: dict = {}
    if "meld_continue" in dropped and not pos.initial_meld_done:
        loose["meld_continue"] = False
    if "joker_retrieval" in dropped and rules.joker_retrieval == "official":
        loose["joker_retrieval"] = "free"
    if "min_real_tiles" in dropped and rules.min_real_tiles > 1 and relaxes_real_tiles(rules):
        loose["min_real_tiles"] = 1
    if not loose:
        return None
    return replace(pos, initial_meld_done=True), replace(rules, **loose)


def relaxes_real_tiles(rules: Rules) -> bool:
    """Whether a relaxation (:func:`_relaxation`) drops two real tiles a set for one: with
    three or more copies or jokers.  With two of each the held-out passes under the rules
    themselves (their linear bound and the node sets ruled out: :data:`BOUND_ANY`,
    :data:`NOGOOD_ROUNDS`) cost less than the one-real-tile solve and passes before them,
    whose move the rules mostly do not allow: least disturbance on, each position's best of
    three, seeds 11 and 1-7, bands 20-80J (1,280 positions a row), summed thread CPU two
    real tiles + sets of 2 3.69 -> 2.31 s (its official row 3.57 -> 2.13), seeds 11 and 1-3
    two real tiles 1.02 -> 0.62 s, official + two real tiles 1.08 -> 0.61, + sets of 4
    0.69 -> 0.46, meld then continue + two real tiles (the melded player's turn its one
    relaxation) 2.24 -> 2.03 s, + official 2.42 -> 2.11; the same answers (benches/README,
    rksets2)."""
    return rules.copies > 2 or rules.jokers > 2


def _relaxed_move(pos: Position, objective: str, rules: Rules, first: Move,
                  dropped: tuple[str, ...] = RELAXED, melded_plain: Move | None = None,
                  first_turned: bool = False) -> Move | int:
    """Least disturbance from a relaxation's (:func:`_relaxation`): when ``first`` (optimal
    under ``rules``) reaches the relaxation's optimum, every optimal move is one of the
    relaxation's optimal moves, so the relaxation's least-disturbing move keeps at least as
    many sets as any.  If ``rules`` allow it (its played tiles hold a meld, for meld then
    continue; :func:`~engines.rummikub.position.check_move`) it is the answer, returned;
    otherwise the sets it keeps bound the answer's (returned: the passes stop once they
    reach it); if the optima differ, the number of table sets.  ``melded_plain`` (see
    :func:`least_disturbing_move`) is the relaxation's plain move where it drops meld then
    continue alone.  Where the DP found ``first`` with the numbers reversed
    (``first_turned``), the relaxation's solve searches that way first: it finishes fastest
    that way too (copies=3 + jokers=4 + two real tiles, the bench positions of seeds 11
    and 1-7, 5 a band, their relaxation's solve replayed: 36 of 400 turned, 28 of them
    1.5-29 times faster, none 3 ms slower; seeds 11 and 1-3 637 -> 411 ms in all, 4-7
    515 -> 412; benches/README, rkstates).  ``first`` is legal under the relaxation, so its
    optimum is at least ``first``'s score: its solve looks only for more (``above``), and
    where none scores more, ``first`` is its plain move (the same tiles, value and jokers
    as the plain move it found before; copies=3 + jokers=4 + two real tiles: 162 of the
    320 relaxations of seeds 11 and 1-7, 5 a band, which store far fewer states: seed 6
    40J #3's 34.6 -> 10.3 ms; benches/README, rkstates3)."""
    from engines.rummikub.arrays import solve_moves
    from engines.rummikub.least_loose import loose_answer

    loose_pos, loose = _relaxation(pos, rules, dropped)
    plain_rules = replace(loose, least_disturbance=False)
    plain = (melded_plain if melded_plain is not None
             and plain_rules == replace(rules, meld_continue=False, least_disturbance=False)
             else solve_moves([loose_pos], objective, None, plain_rules,
                              np.array([int(first_turned)], np.int64),
                              np.array([_score(first, objective, rules)], np.int64))[0])
    plain = first if plain is None else plain  # (no move scores more than first)
    if not _same_optimum(plain, first):
        return len(pos.table)
    start = first if first.sets_kept > plain.sets_kept else plain
    return loose_answer(pos, objective, rules, (loose_pos, loose), start)


def relaxation_first(pos: Position, objective: str, rules: Rules,
                     turn: np.ndarray | None = None) -> Move | tuple[Move, int] | None:
    """A melded ``pos``'s relaxation's (:func:`_relaxation`) least-disturbing move where
    ``rules`` allow it: it reaches the relaxation's optimum, at least the optimum under
    ``rules``, so it is optimal and keeps the most sets (every optimal move is one of the
    relaxation's); else the relaxation's plain move and the sets that move keeps (for
    :func:`least_disturbing_move`'s ``relaxed_known``); None where no relaxation applies.
    Copies=3 + jokers=4 + two real tiles (:func:`relaxation_pays_first`): allowed on 304 of
    320 (seeds 11, 1-7; 40J maxima 42-133 -> 22-42 ms; benches/README, rkstates4).  Where
    the rules do not allow that move, it is made again under them where it can be
    (:func:`~engines.rummikub.least_loose.rearranged`).  ``turn`` (int64, one, or None): the
    relaxation's solve's first way; on return the way it found its move (rearranged's first)."""
    from engines.rummikub.arrays import solve_moves
    from engines.rummikub.least_loose import loose_answer

    relaxation = _relaxation(pos, rules)
    if not (pos.initial_meld_done and pos.table) or relaxation is None:
        return None
    plain = solve_moves([relaxation[0]], objective, None,
                        replace(relaxation[1], least_disturbance=False), turn)[0]
    answer = loose_answer(pos, objective, rules, relaxation, plain, rearrange=True, turn=turn)
    return answer if isinstance(answer, Move) else (plain, answer)


def _known_bound(pos: Position, first: Move, plain: Move, kept: int) -> int:
    """:func:`_relaxed_move`'s bound, the relaxation solved (:func:`relaxation_first`)."""
    return kept if _same_optimum(plain, first) else len(pos.table)


def relaxation_pays_first(rules: Rules) -> bool:
    """Whether least disturbance tries :func:`relaxation_first` before the solve under
    ``rules``: two real tiles a set with three or more copies or three or more jokers."""
    return rules.least_disturbance and rules.min_real_tiles > 1 and (rules.copies > 2
                                                                      or rules.jokers > 2)


def _same_optimum(a: Move, b: Move) -> bool:
    """Whether two moves tie on the objective's own terms (tiles, value, jokers played)."""
    return (a.tiles, a.value, sum(t.is_joker for t in a.played)) == (
        b.tiles, b.value, sum(t.is_joker for t in b.played))


def _score(move: Move, objective: str, rules: Rules) -> int:
    """``move``'s score as the DP counts it (``objective``'s weights of the rack tiles it
    plays: :func:`~engines.rummikub.arrays.solve_counts`' ``above``); NEG where the tile
    set is wider than the DP's arrays (4 x 13)."""
    from solvers.rummikub._layout import NEG

    if rules.colours > 4 or rules.numbers > 13:
        return NEG
    weight, joker_weight = objective_weights(objective)
    played, jokers = _counts(move.played)
    return int((weight * played).sum()) + joker_weight * jokers
