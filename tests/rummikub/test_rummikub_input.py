"""Tile parsing, set validation, input errors and fuzzing of the public entry points."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.errors import InputError
from engines.rummikub import (
    Position,
    PositionError,
    SetError,
    Tile,
    TileError,
    arrange,
    best_move,
    best_moves,
    check_meld,
    format_meld,
    parse_tiles,
    validate_set,
)


def test_tile_round_trip() -> None:
    for text in ["R5", "K13", "B1", "O7", "J"]:
        assert str(Tile.parse(text)) == text
    assert Tile.parse(" k13 ") == Tile("K", 13)
    assert Tile.parse("j").is_joker


@pytest.mark.parametrize("bad", ["R14", "X3", "R0", "R", "", "R05", "5R", "JJ", "R-1", "R1.5"])
def test_bad_tile_names_the_text(bad: str) -> None:
    with pytest.raises(TileError) as err:
        Tile.parse(bad)
    assert repr(bad) in str(err.value)
    assert isinstance(err.value, InputError)


def test_third_copy_and_third_joker() -> None:
    with pytest.raises(TileError, match="3 copies of R5"):
        best_move([], ["R5", "R5", "R5"])
    with pytest.raises(TileError, match="3 jokers"):
        best_move([["R1", "R2", "J"]], ["J", "J"])
    with pytest.raises(TileError, match="3 copies of K7"):
        best_move([["K7", "R7", "O7"], ["K6", "K7", "K8"]], ["K7"])


def test_invalid_table_set_is_named() -> None:
    with pytest.raises(SetError, match=r"table set 2 \[R4 R5 B6\]"):
        best_move([["K1", "K2", "K3"], ["R4", "R5", "B6"]], ["R7"])
    with pytest.raises(SetError, match="at least 3 tiles"):
        validate_set(parse_tiles("R4 R5"))
    with pytest.raises(SetError, match=r"wrap|gap"):
        validate_set(parse_tiles("R12 R13 R1"))
    with pytest.raises(SetError, match="colour K twice"):
        validate_set(parse_tiles("K4 K4 R4"))


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("R4 J R6", "R4 J(R5) R6"),
        ("J R12 R13", "J(R11) R12 R13"),
        ("R11 R12 J", "R11 R12 J(R13)"),
        ("K7 R7 O7 J", "K7 R7 O7 J(B7)"),
        ("J J R1", "J(K1) J(O1) R1"),
        ("R1 R2 J J", "R1 R2 J(R3) J(R4)"),
        (" ".join(f"R{n}" for n in range(1, 14)), " ".join(f"R{n}" for n in range(1, 14))),
    ],
)
def test_valid_sets_with_joker_meaning(text: str, shown: str) -> None:
    meld = validate_set(parse_tiles(text))
    assert format_meld(meld) == shown
    assert check_meld(meld) is None


@pytest.mark.parametrize("text", ["R12 R13 R13", "K7 R7 O7 B7 J", "J J J", "R1 R3 R5", "K1 R2 O3"])
def test_invalid_sets(text: str) -> None:
    with pytest.raises(InputError):
        validate_set(parse_tiles(text))


def test_position_from_json_errors() -> None:
    with pytest.raises(PositionError, match="missing field 'rack'"):
        Position.from_json({"table": []})
    with pytest.raises(PositionError, match="initial_meld_done"):
        Position.from_json({"table": [], "rack": ["R1"], "initial_meld_done": "yes"})
    with pytest.raises(PositionError, match="list of lists"):
        Position.from_json({"table": ["R1 R2 R3"], "rack": []})
    with pytest.raises(TileError, match=r"p1: unknown tile 'Q1'"):
        Position.from_json({"table": [], "rack": ["Q1"]}, where="p1")


def test_unknown_objective() -> None:
    with pytest.raises(InputError, match="unknown objective"):
        best_move([], ["R1"], objective="points")  # type: ignore[arg-type]


def test_rule_cases() -> None:
    # joker as fourth tile of a group and at the end of a run
    assert best_move([["K4", "O4", "R4"]], ["J"]).tiles == 1
    assert best_move([["R5", "R6", "R7"]], ["J"]).tiles == 1
    # initial meld: joker counts the number it stands for; table untouched
    move = best_move([["R9", "R10", "R11"]], ["K10", "B10", "J", "R12"], initial_meld_done=False)
    assert (move.tiles, move.value) == (3, 20)
    assert [str(s) for s in move.table[0]] == ["R9", "R10", "R11"]
    assert best_move([], ["K6", "K7", "K8"], initial_meld_done=False).tiles == 0
    # table jokers must stay on the table
    move = best_move([["R1", "R2", "J"]], ["B9"])
    assert move.tiles == 0 and sum(s.tile.is_joker for m in move.table for s in m) == 1
    # two jokers in one set
    assert best_move([], ["R3", "J", "J"]).tiles == 3


def test_arrange() -> None:
    assert arrange([]) == []
    assert arrange("R1 R2") is None
    melds = arrange("K1 K2 K3 K4 K5 K6 R1 O1 B1")
    assert melds is not None and sum(len(m) for m in melds) == 9


def test_empty_batch() -> None:
    assert best_moves([]) == []


TEXTS = st.one_of(
    st.text(max_size=4),
    st.sampled_from(["R5", "K13", "J", "B1", "O7", "R14", "X1", "r5", " J "]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(TEXTS, max_size=5), max_size=3), st.lists(TEXTS, max_size=6),
       st.booleans())
def test_fuzz_best_move_raises_only_input_errors(table, rack, done) -> None:
    try:
        move = best_move(table, rack, initial_meld_done=done)
    except InputError:
        return
    assert move.tiles == len(move.played)


@settings(max_examples=100, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["table", "rack", "initial_meld_done"]),
                                      inner, max_size=3), max_leaves=8))
def test_fuzz_from_json(obj) -> None:
    with contextlib.suppress(InputError):
        Position.from_json(obj)  # type: ignore[arg-type]


def test_fuzz_from_json_text() -> None:
    pos = Position.from_json(json.loads('{"table": [["R1","R2","R3"]], "rack": ["R4"]}'))
    assert best_moves([pos])[0].tiles == 1
