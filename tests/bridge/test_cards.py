"""Cards, hands and deals: PBN round trips, bit layout, validation of every defect."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bridge import (
    BridgeInputError,
    Card,
    Deal,
    DealSyntaxError,
    Hand,
    InvalidDealError,
    Seat,
    Status,
)

DATA = Path(__file__).parent.parent / "data" / "bridge"


def corpus_deals() -> list[str]:
    return [json.loads(line)["pbn"] for line in (DATA / "deals.jsonl").read_text().splitlines()]


def test_rank_bits_and_card_numbering() -> None:
    assert Card.from_str("SA").bit == 1 << 12
    assert Card.from_str("C2").bit == 1
    assert Card.from_str("h10") == Card.from_str("HT") == Card(1, 10)
    assert [Card.from_index(i) for i in (0, 12, 13, 51)] == [
        Card(0, 14),
        Card(0, 2),
        Card(1, 14),
        Card(3, 2),
    ]
    assert all(Card.from_index(i).index == i for i in range(52))
    assert str(Card.from_str("♦q")) == "DQ"


@pytest.mark.parametrize("bad", ["", "S", "X5", "S1", "SAK", "5S"])
def test_bad_card_text_is_quoted(bad: str) -> None:
    with pytest.raises(DealSyntaxError, match=repr(bad).replace("[", r"\[")):
        Card.from_str(bad)


def test_corpus_deals_round_trip_and_are_valid() -> None:
    for pbn in corpus_deals():
        deal = Deal.from_pbn(pbn)
        assert deal.to_pbn() == pbn
        assert deal.status() == Status.VALID
        assert sum(len(h) for h in deal.hands) == 52


def test_first_seat_voids_tens_and_unknown_hand() -> None:
    deal = Deal.from_pbn("E:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 -")
    assert deal[Seat.EAST].to_pbn() == "AKQJ.T98.765.432"
    assert deal[Seat.NORTH] == Hand.from_pbn("-.5432.JT98.AKQ87")
    assert deal.to_pbn(Seat.EAST).startswith("E:AKQJ.T98.765.432 ")
    assert Deal.from_pbn("N:AKQJ.1098.765.432 ... ... ...").is_valid() is False
    assert Hand.from_pbn("AK10..-.2").masks == (0b1100000000000 | 1 << 8, 0, 0, 1)


@pytest.mark.parametrize(
    "bad",
    [
        "N:AKQ.JT9.876 2.3.4.5 ... ...",  # three suits in the first hand
        "N:AKQ.JT9.876.5",  # one hand
        "N:AXQ... ... ... ...",  # bad rank
        "Q:A... ... ... ...",  # bad first seat
        "N:AA... ... ... ...",  # one card twice in a hand
        "N:- - A... ...",  # two unknown hands
    ],
)
def test_syntax_errors_quote_text(bad: str) -> None:
    with pytest.raises(DealSyntaxError) as info:
        Deal.from_pbn(bad)
    assert isinstance(info.value, BridgeInputError) and isinstance(info.value, ValueError)
    assert "'" in str(info.value)


def test_status_lists_every_defect() -> None:
    deal = Deal.from_pbn("N:AKQJ.T98.765.432 AKQJ.T98.765.43 ... ...")
    status = deal.status()
    assert Status.DUPLICATE_CARD in status and Status.WRONG_HAND_SIZE in status
    with pytest.raises(InvalidDealError) as info:
        deal.validate()
    assert info.value.status == status
    message = str(info.value)
    assert "duplicate card SA" in message and "wrong hand size" in message
    assert "N 13, E 12, S 0, W 0" in message


def test_too_many_cards_and_empty() -> None:
    assert Status.TOO_MANY_CARDS in Deal.from_pbn("N:AKQJT98765432.2.. ... ... ...").status()
    assert Deal.from_pbn("N:... ... ... ...").status() == Status.EMPTY


def test_current_trick_validation() -> None:
    ok = Deal.from_pbn("N:A... K2... Q5... J...", leader=Seat.WEST, trick=["S3", "S4"])
    assert ok.status() == Status.VALID
    assert ok.to_move == Seat.EAST
    assert [str(c) for c in ok.legal_plays()] == ["SK", "S2"]
    # a trick without a leader
    assert Status.BAD_CURRENT_TRICK in Deal.from_pbn("N:A... K... Q... J...", trick=["S2"]).status()
    # four cards
    four = Deal.from_pbn("N:A... K... Q... J...", leader=Seat.NORTH, trick=["S2", "S3", "S4", "S5"])
    assert Status.BAD_CURRENT_TRICK in four.status()
    # a revoke: East discarded a heart while holding a spade
    revoke = Deal.from_pbn("N:A... K... Q2... J3...", leader=Seat.NORTH, trick=["S5", "H4"])
    assert revoke.status() == Status.BAD_CURRENT_TRICK
    with pytest.raises(InvalidDealError, match="E played H4 but still holds S"):
        revoke.validate()
    # the trick card is also in a hand
    dup = Deal.from_pbn("N:A... K... Q2... J3...", leader=Seat.NORTH, trick=["SK", "S4"])
    assert Status.DUPLICATE_CARD in dup.status()


def test_pickle_and_equality() -> None:
    deal = Deal.from_pbn(corpus_deals()[0], leader=Seat.SOUTH)
    assert pickle.loads(pickle.dumps(deal)) == deal
    assert hash(pickle.loads(pickle.dumps(deal))) == hash(deal)
    assert eval(repr(deal), {"Deal": Deal, "Seat": Seat}) == deal


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 13))
def test_random_deals_round_trip(seed: int, size: int) -> None:
    rng = random.Random(seed)
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [
        Hand.from_cards(Card.from_index(i) for i in cards[k * size : (k + 1) * size])
        for k in range(4)
    ]
    deal = Deal(hands)
    assert deal.status() == Status.VALID
    first = Seat(rng.randrange(4))
    assert Deal.from_pbn(deal.to_pbn(first)) == deal
    assert deal.masks()[0] == list(hands[0].masks)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_input_errors(text: str) -> None:
    try:
        deal = Deal.from_pbn(text)
    except BridgeInputError:
        return
    deal.status()
