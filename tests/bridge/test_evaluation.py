"""Hand evaluation: differential against endplay's evaluate module, and hand-counted cases."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.evaluation import (
    ShapeClass,
    cccc,
    controls,
    hcp,
    is_balanced,
    losers,
    quick_tricks,
    shape,
    shape_class,
    suit_lengths,
)
from engines.bridge.seats import BridgeInputError


def _random_hands(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    deck = list(range(52))
    hands = []
    for _ in range(count):
        rng.shuffle(deck)
        hands.append(Hand.from_cards(Card.from_index(i) for i in deck[:13]))
    return hands


def test_matches_endplay_on_random_hands() -> None:
    endplay_types = pytest.importorskip("endplay.types")
    ev = pytest.importorskip("endplay.evaluate")
    for hand in _random_hands(1500, seed=5):
        other = endplay_types.Hand(hand.to_pbn())
        assert hcp(hand) == ev.hcp(other)
        assert controls(hand) == ev.controls(other)
        assert losers(hand) == ev.losers(other)
        assert cccc(hand) == pytest.approx(ev.cccc(other), abs=1e-9), hand
        assert is_balanced(hand) == ev.is_balanced(other)
        assert list(shape(hand)) == ev.shape(other)


@pytest.mark.parametrize(
    ("pbn", "ltc", "nltc", "qt"),
    [
        ("AKQ.AKQ.AKQ.AKQ2", 0, 0.0, 8.0),
        ("A.K.Q.JT98765432", 5, 0 + 1.5 + 1.5 + 3, 1.0),  # singleton K: a loser, no quick trick
        ("KQ.AQ.AJ2.T98765", 7, 1.5 + 1 + 1.5 + 3, 1 + 1.5 + 1),
        ("K3.Q3.432.765432", 9, 1.5 + 2.5 + 3 + 3, 0.5),
        ("..AKQJT98765.432", 3, 3.0, 2.0),
    ],
)
def test_losers_and_quick_tricks_counted_by_hand(
    pbn: str, ltc: int, nltc: float, qt: float
) -> None:
    hand = Hand.from_pbn(pbn)
    assert losers(hand) == ltc
    assert losers(hand, "nltc") == nltc
    assert quick_tricks(hand) == qt


def test_vectorised_equals_one_hand_at_a_time() -> None:
    hands = _random_hands(200, seed=9)
    masks = np.array([[h.masks for h in hands[i : i + 4]] for i in range(0, 200, 4)], np.uint16)
    assert masks.shape == (50, 4, 4)
    flat = [h for h in hands]
    for function in (hcp, controls, losers, quick_tricks, cccc):
        batch = function(masks).reshape(-1)
        assert batch.tolist() == pytest.approx([function(h) for h in flat])
    assert suit_lengths(masks).reshape(-1, 4).tolist() == [list(suit_lengths(h)) for h in flat]
    assert shape_class(masks).reshape(-1).tolist() == [int(shape_class(h)) for h in flat]


def _hand_of_lengths(lengths: tuple[int, ...]) -> Hand:
    return Hand([(1 << n) - 1 for n in lengths])


def test_shape_classes_of_every_pattern() -> None:
    seen = set()
    for lengths in itertools.product(range(14), repeat=4):
        if sum(lengths) != 13:
            continue
        pattern = tuple(sorted(lengths, reverse=True))
        got = shape_class(_hand_of_lengths(lengths))
        seen.add(got)
        if pattern in ((4, 3, 3, 3), (4, 4, 3, 2), (5, 3, 3, 2)):
            assert got is ShapeClass.BALANCED
        elif min(pattern) >= 2:
            assert got is ShapeClass.SEMI_BALANCED, pattern
        else:
            suits4 = sum(1 for n in pattern if n >= 4)
            expected = {3: ShapeClass.THREE_SUITED, 2: ShapeClass.TWO_SUITED}.get(
                suits4, ShapeClass.SINGLE_SUITED
            )
            assert got is expected, pattern
    assert seen == set(ShapeClass)


def test_deal_gives_one_value_per_seat_and_bad_input_is_named() -> None:
    deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
    assert hcp(deal).tolist() == [10, 10, 10, 10]
    assert controls(deal).tolist() == [3, 3, 3, 3]
    with pytest.raises(BridgeInputError, match="last axis 4"):
        hcp(np.zeros((3, 5), dtype=np.uint16))
    with pytest.raises(BridgeInputError, match="13-bit"):
        hcp(np.array([1 << 13, 0, 0, 0]))
    with pytest.raises(BridgeInputError, match="variant"):
        losers(deal, "zar")
