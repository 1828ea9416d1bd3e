"""The batch path (positions to arrays, one kernel call, arrays to moves) answers exactly
like solving each position alone, on generated positions of every kind."""

from __future__ import annotations

import pytest

from engines.rummikub import Position, best_move, best_moves
from engines.rummikub.arrays import solve_moves
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.sets import RummikubInputError


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_batch_equals_one_by_one(objective):
    positions = [Position.from_json(p) for p in rummikub_positions(
        60, seed=5, table_tiles=(0, 60), joker_rate=0.5, initial_meld_rate=0.3)]
    moves = best_moves(positions, objective=objective, threads=2)
    for pos, move in zip(positions, moves):
        alone = best_move(pos.table, pos.rack, pos.initial_meld_done, objective)
        assert move == alone


def test_positions_are_checked():
    pos = Position.from_strings(["R6 R7 R8"], "R5 R9 B2")
    with pytest.raises(RummikubInputError, match=r"positions\[1\]: expected a Position"):
        solve_moves([pos, {"rack": ["R5"]}])
    assert solve_moves([]) == []


def test_batch_follows_house_rules():
    from engines.rummikub.rules import Rules

    positions = [Position.from_json(p) for p in rummikub_positions(
        30, seed=8, table_tiles=(0, 30), joker_rate=0.5, initial_meld_rate=1.0)]
    rules = Rules(meld_threshold=6)
    moves = best_moves(positions, rules=rules)
    for pos, move in zip(positions, moves):
        assert move == best_move(pos.table, pos.rack, pos.initial_meld_done, rules=rules)
