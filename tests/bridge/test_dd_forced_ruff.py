"""Quick tricks in suit contracts when the leader's partner must ruff his winners.

The suit-contract quick tricks count the leader's side-suit winners against the
opponents holding trumps only; they do not check whether partner, void in the suit,
is forced to ruff (taking the lead away from the leader's remaining winners).
These endings put partner on trumps only (or nearly), the opponents with a trump
or two and the leader on side-suit top cards, and compare every card's score with
the brute force, with quick tricks alone and with every feature on.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("endings", Path(__file__).with_name("endings.py"))
assert _spec is not None and _spec.loader is not None
_endings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_endings)

Card = _endings.Card
QUICK_TRICKS_ONLY = 2
FEATURE_SETS = (QUICK_TRICKS_ONLY, _endings.ALL_FEATURES)


def _forced_ruff_ending(rng: random.Random, size: int) -> tuple[list[set[Card]], int, int]:
    """Hands of ``size`` cards, the trump suit and the leader, partner short of side cards."""
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    partner = (leader + 2) % 4
    deck = [(s, r) for s in range(4) for r in range(2, 15)]
    hands: list[set[Card]] = [set() for _ in range(4)]

    def give(seat: int, cards: list[Card]) -> None:
        for card in cards:
            hands[seat].add(card)
            deck.remove(card)

    low_trumps = sorted((c for c in deck if c[0] == trump), key=lambda c: c[1])
    give(partner, rng.sample(low_trumps[: size + 2], size - rng.choice([0, 0, 1])))
    for opponent in ((leader + 1) % 4, (leader + 3) % 4):
        trumps = [c for c in deck if c[0] == trump]
        give(opponent, rng.sample(trumps, min(len(trumps), rng.choice([1, 1, 2]))))
    high_side = sorted((c for c in deck if c[0] != trump), key=lambda c: -c[1])[:12]
    give(leader, rng.sample(high_side, size - rng.choice([0, 0, 1])))
    rng.shuffle(deck)
    for seat in range(4):
        while len(hands[seat]) < size:
            give(seat, [deck[-1]])
    return hands, trump, leader


def test_partner_with_trumps_only_ruffs_the_leaders_winners() -> None:
    # spades trumps, North leads: North's side-suit aces, South holds only trumps
    # (each of North's winners is ruffed by partner, who must then lead a trump into
    # West's ace); East and West follow the side suits
    north = {(1, 14), (1, 13), (2, 14)}
    east = {(1, 3), (2, 3), (0, 14)}
    south = {(0, 2), (0, 3), (0, 4)}
    west = {(3, 14), (3, 13), (3, 12)}
    _endings.check([north, east, south, west], 0, 0, FEATURE_SETS)


@pytest.mark.parametrize("seed", range(6))
def test_forced_ruff_endings_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        hands, trump, leader = _forced_ruff_ending(rng, rng.choice([3, 4]))
        _endings.check(hands, trump, leader, FEATURE_SETS)
