"""Every bad argument a careless or hostile caller was seen to send: a named InputError, never
a silent answer, a coercion, or a KeyError / IndexError / TypeError / AttributeError."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engines.bridge.cards import Card, Deal, DealSyntaxError, Hand, HandError, Status
from engines.bridge.dd import dd_tables, solve_position
from engines.bridge.seats import BridgeInputError, Seat, SeatError, Strain, StrainError
from engines.errors import InputError
from engines.rummikub.position import Position, PositionError, best_move
from engines.rummikub.tiles import Tile, TileError, parse_tiles
from engines.shengji import arrays
from engines.shengji.rules import TrickError, TrumpContext, trick_winner

DEAL = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"
CTX = TrumpContext("10", "H")


@pytest.mark.parametrize(
    "tile", [Tile("K", 0), Tile("R", 14), Tile("X", 3), Tile("J", 5), Tile("R", -1)]
)
def test_hand_built_tiles_are_range_checked(tile: Tile) -> None:
    with pytest.raises(TileError, match="not a tile"):
        best_move([], [tile, "B12", "B11"])
    with pytest.raises(TileError):
        parse_tiles([tile])


@pytest.mark.parametrize(
    ("colour", "number"), [("R", 5.0), ("R", True), ("R", np.int64(5)), ("R", "5"), (None, 5)]
)
def test_tiles_of_the_wrong_type_are_refused_not_coerced(colour: object, number: object) -> None:
    with pytest.raises(TileError, match="the number an int"):
        Tile(colour, number)  # type: ignore[arg-type]


def test_the_joker_and_every_real_tile_still_pass() -> None:
    assert parse_tiles([Tile("J", 0), Tile("B", 13), Tile("K", 1)]) == parse_tiles("J B13 K1")
    assert [str(t) for t in best_move([], [Tile("B", 13), "B12", "B11"]).played] == [
        "B11",
        "B12",
        "B13",
    ]


@pytest.mark.parametrize("flag", ["false", "true", 0, 1, None, 0.0])
def test_initial_meld_done_must_be_a_bool(flag: object) -> None:
    with pytest.raises(PositionError, match="initial_meld_done must be True or False"):
        best_move([], "R1 R2 R3", initial_meld_done=flag)  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        Position.from_strings([], "R1 R2 R3", initial_meld_done=flag)  # type: ignore[arg-type]
    assert best_move([], "R1 R2 R3", initial_meld_done=np.bool_(False)).tiles == 0


@pytest.mark.parametrize(
    ("plays", "needle"),
    [
        (["S3", "S4 S5", "S6", "S7"], "play 1 has 2 cards, the lead 1"),
        (["S3", "S4", "S5", "S6", "S7"], "1 to 4 plays, got 5"),
        ([], "1 to 4 plays, got 0"),
        (["", "S4"], "the lead has no cards"),
        (["S3", "", "S5", "S6"], "play 1 has 0 cards"),
        ("S3 S4", "expected a list"),
    ],
)
def test_trick_winner_refuses_plays_that_are_not_a_trick(plays: object, needle: str) -> None:
    with pytest.raises(TrickError, match=needle):
        trick_winner(plays, CTX)  # type: ignore[arg-type]


def test_batch_trick_winners_refuse_the_same_and_name_the_row() -> None:
    good = ["S5 S4 S4", "H9 H7 H7", "H8 H8 H4", "C2 C3 C4"]
    assert arrays.trick_winners([good], CTX).tolist() == [trick_winner(good, CTX)]
    with pytest.raises(TrickError, match="plays row 1: play 1 has 2 cards"):
        arrays.trick_winners([good, ["S3", "S4 S5", "S6", "S7"]], CTX)
    with pytest.raises(TrickError, match="the lead has no cards"):
        arrays.trick_winners([good, ["", "", "", ""]], CTX)
    with pytest.raises(InputError):
        arrays.trick_winners([good, ["S3", "S4", "S5"]], CTX)


@pytest.mark.parametrize("threads", [1.5, "2", -1, True])
def test_shengji_batch_threads_are_checked(threads: object) -> None:
    with pytest.raises(InputError, match="threads"):
        arrays.are_legal_follows(["S3 S4 H5"], ["S6"], ["S7"], CTX, threads=threads)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "masks",
    [[math.nan, 0, 0, 0], [1.9, 0, 0, 0], ["8191", 0, 0, 0], [8192, 0, 0, 0], [-1, 0, 0, 0],
     [True, 0, 0, 0], [1, 2, 3], None, "AKQ"],
)  # fmt: skip
def test_hand_masks_are_four_integers_in_range(masks: object) -> None:
    with pytest.raises(HandError):
        Hand(masks)  # type: ignore[arg-type]


def test_hands_are_immutable_and_status_refuses_phantom_cards() -> None:
    hand = Hand([1, 0, 0, 0])
    with pytest.raises(AttributeError):
        hand.masks = (1 << 14, 0, 0, 0)  # type: ignore[misc]
    assert Hand(np.array([8191, 0, 0, 0], dtype=np.uint16)).masks == (8191, 0, 0, 0)
    deal = Deal.from_pbn(DEAL)
    object.__setattr__(deal.hands[0], "_masks", (1 << 13, 0, 0, 0))  # bypassing on purpose
    assert deal.status() == Status.BAD_MASK
    with pytest.raises(InputError, match=r"outside 0\.\.8191"):
        deal.validate()


def test_wrong_types_at_the_bridge_boundary_are_named_errors() -> None:
    with pytest.raises(DealSyntaxError, match="bad card 5"):
        solve_position("N:AK... Q2... JT... 43...", "NT", "N", [5])  # type: ignore[list-item]
    with pytest.raises(SeatError, match="unknown seat 4"):
        Deal.from_pbn(DEAL, leader=4)
    with pytest.raises(SeatError):
        Deal.from_pbn(DEAL, leader=1.0)  # type: ignore[arg-type]
    with pytest.raises(StrainError):
        Strain.from_str(3)  # type: ignore[arg-type]
    with pytest.raises(DealSyntaxError):
        Deal.from_pbn(None)  # type: ignore[arg-type]
    with pytest.raises(DealSyntaxError, match=r"suit must be 0\.\.3"):
        Deal(Deal.from_pbn(DEAL).hands, leader=Seat.NORTH, trick=[Card(7, 2)])
    with pytest.raises(HandError, match="four Hands"):
        Deal([[1, 0, 0, 0]] * 4)  # type: ignore[list-item]
    with pytest.raises(DealSyntaxError):
        Card.from_index(52)


@pytest.mark.parametrize(
    ("deals", "needle"),
    [(3, "deals: expected a list"), (True, "deals: expected a list"), (DEAL, "use dd_table")],
)
def test_dd_tables_wants_a_list_of_deals(deals: object, needle: str) -> None:
    with pytest.raises(BridgeInputError, match=needle):
        dd_tables(deals)  # type: ignore[arg-type]
    with pytest.raises(BridgeInputError, match="chunk: expected an integer"):
        dd_tables([DEAL], chunk=1.5)  # type: ignore[arg-type]
