"""The examples in the Rummikub docstrings run as written."""

from __future__ import annotations

import doctest
import importlib
import pickle

import pytest

MODULES = [
    "solvers.rummikub._dp",
    "solvers.rummikub._groups",
    "engines.rummikub",
    "engines.rummikub.tiles",
    "engines.rummikub.sets",
    "engines.rummikub.position",
    "engines.rummikub.game",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL)
    assert result.failed == 0


def test_public_objects_pickle() -> None:
    from engines.rummikub import Position, best_move

    pos = Position.from_strings([["R6", "R7", "R8"]], "R5 R9 J", True)
    move = best_move(pos.table, pos.rack)
    assert pickle.loads(pickle.dumps(pos)) == pos
    again = pickle.loads(pickle.dumps(move))
    assert again.table == move.table and again.played == move.played
