"""best_moves' moves are made from the batch's arrays when first read (``arrays._LazyMove``):
every field equals what solving each position alone gives, and the objects behave as plain
``Move`` objects (equality both ways, repr, pickle, copy, replace, fields set by callers)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest

from engines.rummikub import Position, best_move, best_moves
from engines.rummikub.arrays import position_arrays, tile_counts
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Move
from engines.rummikub.rules import Rules

FIELDS = ("played", "table", "tiles", "value", "new_sets", "previous")


def _positions(n: int, seed: int) -> list[Position]:
    return [Position.from_json(p) for p in rummikub_positions(
        n, seed=seed, table_tiles=(0, 60), joker_rate=0.5, initial_meld_rate=0.4)]


@pytest.mark.parametrize(("objective", "rules"), [
    ("tiles", Rules(least_disturbance=False)), ("value", Rules(least_disturbance=False)),
    ("tiles", Rules(meld_continue=True, least_disturbance=False))])
def test_every_field_equals_the_one_position_answer(objective, rules):
    positions = _positions(50, 3)
    moves = best_moves(positions, objective=objective, threads=2, rules=rules)
    for pos, move in zip(positions, moves):
        alone = best_move(pos.table, pos.rack, pos.initial_meld_done, objective, rules)
        for name in FIELDS:
            assert getattr(move, name) == getattr(alone, name), name
        assert [type(t) for t in move.played] == [type(t) for t in alone.played]
        assert move == alone and alone == move
        assert repr(move) == repr(alone) and str(move) == str(alone)
        assert move.sets_kept == alone.sets_kept


def test_fields_are_made_on_first_reading_only():
    positions = _positions(20, 5)
    moves = best_moves(positions, rules=Rules(least_disturbance=False))
    assert [m.tiles for m in moves] == [len(m.played) for m in moves]
    fresh = best_moves(positions, rules=Rules(least_disturbance=False))
    assert all("played" not in m.__dict__ for m in fresh)  # counts only: nothing made
    first = fresh[0]
    first.new_sets = ["set by the caller"]
    assert first.new_sets == ["set by the caller"]
    assert first.played == moves[0].played and first.new_sets == ["set by the caller"]
    del first.table
    with pytest.raises(AttributeError):
        first.table  # noqa: B018


def test_copies_are_plain_moves():
    positions = _positions(10, 6)
    for move in best_moves(positions, threads=1, rules=Rules(least_disturbance=False)):
        for again in (pickle.loads(pickle.dumps(move)), copy.copy(move), copy.deepcopy(move)):
            assert type(again) is Move and again == move
            assert again.previous == move.previous
        changed = dataclasses.replace(move, value=move.value + 1)
        assert changed.value == move.value + 1 and changed.table == move.table


def test_native_counts_equal_the_dictionary_look_up():
    positions = _positions(80, 4)
    table, rack, _modes, melded = position_arrays(positions)
    expected_table = tile_counts([[t for s in p.table for t in s] if p.initial_meld_done
                                  else () for p in positions], len(positions))  # fmt: skip
    assert np.array_equal(table, expected_table)
    assert np.array_equal(rack, tile_counts([p.rack for p in positions], len(positions)))
    assert melded.tolist() == [p.initial_meld_done for p in positions]
    # tiles that are equal to the canonical ones but other objects are found too
    from engines.rummikub.tiles import Tile

    odd = Position.__new__(Position)
    object.__setattr__(odd, "table", ((Tile("R", 6), Tile("R", 7), Tile("R", 8)),))
    object.__setattr__(odd, "rack", (Tile("R", 5), Tile("J", 0)))
    object.__setattr__(odd, "initial_meld_done", True)
    table, rack, _modes, _melded = position_arrays([odd])
    assert table[0, [13 + 5, 13 + 6, 13 + 7]].tolist() == [1, 1, 1] and table.sum() == 3
    assert rack[0, [13 + 4, 52]].tolist() == [1, 1] and rack.sum() == 2
