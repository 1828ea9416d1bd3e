"""Least disturbance for a batch in one kernel (``solvers.rummikub._least.least_range``):
the same moves as one position at a time, the sets kept known before a move is made, and
the errors of the one-position path."""

from __future__ import annotations

import pytest

from engines.rummikub import Position, best_move, best_moves
from engines.rummikub.errors import PositionError
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import check_move
from engines.rummikub.rules import Rules


def _positions(seed: int, n: int) -> list[Position]:
    return [Position.from_json(p) for p in rummikub_positions(
        n, seed, table_tiles=(10, 70), rack_size=(3, 14), joker_rate=0.5,
        initial_meld_rate=0.8)]  # fmt: skip


def _fields(move) -> tuple:
    return (move.played, move.table, move.tiles, move.value, move.new_sets, move.previous,
            move.sets_kept)


@pytest.mark.parametrize("objective, rules, threads", [
    ("tiles", Rules(), 1), ("value", Rules(), 2),
    ("tiles", Rules(joker_retrieval="official"), 2), ("tiles", Rules(min_real_tiles=2), 2),
])
def test_a_batch_gives_the_moves_of_one_position_at_a_time(objective, rules, threads) -> None:
    # best_move solves one position through least.least_disturbing_move (least_position);
    # best_moves hands its melded positions to least_range together (or, with two real
    # tiles per set, to the relaxation)
    positions = _positions(21, 24)
    moves = best_moves(positions, objective, threads=threads, rules=rules)
    for pos, move in zip(positions, moves):
        alone = best_move(pos.table, pos.rack, pos.initial_meld_done, objective, rules)
        assert _fields(move) == _fields(alone)
        assert check_move(pos, move, rules) == []


def test_sets_kept_are_known_before_the_move_is_made() -> None:
    positions = [p for p in _positions(22, 30) if p.initial_meld_done and p.table]
    moves = best_moves(positions)
    kept = [m.sets_kept for m in moves]
    assert all("played" not in m.__dict__ for m in moves)  # counted, nothing made
    assert kept == [best_move(p.table, p.rack).sets_kept for p in positions]
    assert [m.sets_kept for m in moves if m.table is not None] == kept  # made: counted again
    fresh = best_moves(positions[:1])[0]
    fresh.table = []  # a caller's change counts, not the kernel's count
    assert fresh.sets_kept == 0


def test_too_many_sets_over_one_number_are_refused_as_before() -> None:
    # three copies: twelve runs through 5 and a thirteenth (J J K7 K8 stands for K5-K8);
    # the DP holds out 12 sets at a time
    rules = Rules(copies=3)
    table = [[f"{c}4", f"{c}5", f"{c}6"] for c in "KROB" for _ in range(3)]
    table.append(["J", "J", "K7", "K8"])
    pos = Position.from_strings(table, "K9", max_copies=3)
    for solve in (lambda: best_moves([pos], rules=rules)[0],
                  lambda: best_move(pos.table, pos.rack, rules=rules)):
        with pytest.raises(PositionError, match="more than 12 table sets cover number 5"):
            solve()
