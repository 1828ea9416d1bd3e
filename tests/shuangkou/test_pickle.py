"""Public 双扣 objects pickle (process pools and batch workers rely on it)."""

from __future__ import annotations

import pickle

from engines.shuangkou import (
    Card,
    IllegalPlayError,
    Policy,
    Round,
    classify,
    round_result,
    trick_next,
)


def test_public_objects_pickle() -> None:
    for obj in (Card.parse("S10"), Policy("straight", (4, 2, 1)), classify("S3 S3"),
                trick_next([0, 1, 3], 2, [3]), round_result([1, 0, 3])):
        assert pickle.loads(pickle.dumps(obj)) == obj
    err = pickle.loads(pickle.dumps(IllegalPlayError("no", "not_held")))
    assert err.reason == "not_held"
    game = pickle.loads(pickle.dumps(Round([["S3"], ["S4"], ["S5"], ["S6"]], leader=0)))
    assert game.to_move == 0
