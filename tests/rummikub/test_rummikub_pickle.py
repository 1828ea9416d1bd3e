"""Rummikub public objects survive pickling (worker processes and Dask send them)."""

from __future__ import annotations

import pickle


def test_public_objects_pickle() -> None:
    from engines.rummikub import Position, best_move

    pos = Position.from_strings([["R6", "R7", "R8"]], "R5 R9 J", True)
    move = best_move(pos.table, pos.rack)
    assert pickle.loads(pickle.dumps(pos)) == pos
    again = pickle.loads(pickle.dumps(move))
    assert again.table == move.table and again.played == move.played
