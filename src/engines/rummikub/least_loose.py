"""Least disturbance from a relaxation: its least-disturbing move as a move under the rules.

:mod:`engines.rummikub.least` solves some rules through a relaxation (rules that allow every
move they allow, solved faster: one real tile a set for two, a melded player's turn for
meld then continue).  Where the relaxation's optimum is the rules' (or above it), its
least-disturbing move keeps at least as many table sets as any optimal move under the
rules; if the rules allow that move, it is their answer (:func:`loose_answer`).

If they do not (a set of one real tile, under two real tiles), the move can often be made
again under them (:func:`rearranged`): the table sets it keeps stay as they are, and the
rest of the table with the rack tiles it plays is arranged under the rules.  That move plays
the same tiles and keeps the same sets, so it is the answer too, where the relaxation was
solved first (:func:`~engines.rummikub.least.relaxation_first`: its optimum is at least the
rules').  On the bench bands (``--combos -n 10``, seeds 11 and 1-3, tiles objective; the
seven rows that solve the relaxation first with two jokers or two copies, and copies=3 +
jokers=3) 46 of the 60 positions whose relaxed move the rules do not allow are made again
so, at about 1 ms each, instead of solved under the rules (jokers=4 + two real tiles, seed 2
60J #0: 28.6 -> 10.9 ms); where they are not (the relaxation scores more, or the sets it
keeps leave no arrangement under the rules), the attempt costs 1-6 ms (once 16 ms: jokers=4
seed 6 60J #9; benches/README, rkfall).  The relaxation solved after the rules
(:func:`~engines.rummikub.least._relaxed_move`) does not make the attempt: where it served
sets of 2 with two real tiles (relaxed to one before
:func:`~engines.rummikub.least.relaxes_real_tiles`), 49 of 61 attempts failed (seeds 11 and
2: a joker's pair breaks the rule) and the rows' medians rose.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from engines.rummikub.least import _score, least_disturbing_move
from engines.rummikub.position import Move, Position
from engines.rummikub.rules import Rules
from engines.rummikub.sets import Meld


def loose_answer(pos: Position, objective: str, rules: Rules,
                 relaxation: tuple[Position, Rules], start: Move,
                 rearrange: bool = False, turn: np.ndarray | None = None) -> Move | int:
    """The least-disturbing move under ``relaxation`` (its position and rules) from
    ``start``, optimal under it, as a move of ``pos`` if ``rules`` allow it (with its meld,
    for meld then continue), or else, with ``rearrange`` (a melded ``pos``), that move made
    again under ``rules`` (:func:`rearranged`, ``turn``: see there) where it can be; else
    the sets it keeps."""
    from engines.rummikub.arrays import solve_moves
    from engines.rummikub.position import check_move

    loose_pos, loose = relaxation
    move = start if start.sets_kept == len(pos.table) else least_disturbing_move(
        loose_pos, objective, replace(loose, least_disturbance=True), start)
    new_sets: list[Meld] = []
    if not pos.initial_meld_done:  # the meld its played tiles hold (the initial-meld search)
        own = replace(rules, meld_continue=False, least_disturbance=False)
        new_sets = solve_moves([replace(pos, table=(), rack=tuple(move.played))], "value",
                               None, own)[0].new_sets
    answer = Move(move.played, move.table, move.tiles, move.value, new_sets=new_sets,
                  previous=list(pos.table), tile_set=(rules.colours, rules.numbers))
    if not check_move(pos, answer, rules):
        return answer
    again = rearranged(pos, objective, rules, move, turn) if rearrange else None
    return move.sets_kept if again is None else again


def rearranged(pos: Position, objective: str, rules: Rules, move: Move,
               turn: np.ndarray | None = None) -> Move | None:
    """A relaxation's least-disturbing ``move`` for melded ``pos`` that ``rules`` do not
    allow, made again under them: the table sets it keeps stay as they are (first, in the
    table's order), and the rest of the table with the rack tiles it plays is arranged
    under ``rules`` (the plain DP, looking only for an arrangement that plays all of them:
    ``above`` their score less one); None where there is none.  It plays the same tiles and
    keeps at least the same sets, so where ``move`` scores at least the optimum under
    ``rules`` and keeps the most sets of the relaxation's optimal moves, it is the answer
    under ``rules``.  ``turn`` (int64, one, or None; not written): the way the relaxation's
    solve found its move, which that DP searches first (of the 248 attempts on the
    relaxation-first rows' bench positions, seeds 11 and 1-8, tiles: where the relaxation
    turned, 22, the DP reversed first 17.0 ms in all against 106.7 as it is first, faster on
    every one; benches/README, rkdp8)."""
    from engines.rummikub.arrays import _table_melds, solve_moves
    from engines.rummikub.move import kept_sets
    from engines.rummikub.position import check_move
    from solvers.rummikub._layout import NEG

    score = _score(move, objective, rules)
    if score == NEG:  # (a tile set wider than the DP's arrays)
        return None
    kept = sorted(kept_sets(pos.table, move.table))
    rest = replace(pos, table=tuple(s for i, s in enumerate(pos.table) if i not in kept),
                   rack=tuple(move.played))
    arranged = solve_moves([rest], objective, None, replace(rules, least_disturbance=False),
                           None if turn is None else np.array(turn, np.int64),
                           np.array([score - 1], np.int64))[0]
    if arranged is None:  # (no arrangement plays them all)
        return None
    tile_set = (rules.colours, rules.numbers)
    answer = Move(move.played, _table_melds([pos.table[i] for i in kept], tile_set)
                  + list(arranged.table), move.tiles, move.value, previous=list(pos.table),
                  tile_set=tile_set)
    return None if check_move(pos, answer, rules) else answer
