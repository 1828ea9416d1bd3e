"""Quick tricks with nothing to ruff: the leader crosses to partner's top card first.

When the leader's own count (his winners, then partner's after a crossing) falls short,
``_quick_tricks._no_ruff_tricks`` counts from partner's side where partner's top
cards of a suit would leave a card of the leader's high there: the leader leads low to
partner's top card, and partner cashes his winners, then the leader's.  These endings
deal such a suit (partner the ace and maybe more, the leader a lower card or more of it)
and winners split between the two hands, in notrump and in a suit contract whose trumps
only the leader's side holds, and compare every card's score with the brute force, with
quick tricks alone and every feature on.
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

FEATURE_SETS = (2, _endings.ALL_FEATURES)  # quick tricks alone, then every feature


def _entry_ending(rng: random.Random, size: int) -> tuple[list[set[tuple[int, int]]], int, int]:
    """Hands of ``size`` cards: partner the ace of an entry suit the leader holds a card
    of (small, or the king: a blocked suit), the rest of three suits dealt at random,
    high cards more often to the side on lead.  Returns the hands, the leader and the
    strain."""
    suits = rng.sample(range(4), 3)
    entry = suits[0]
    leader = rng.randrange(4)
    partner = (leader + 2) % 4
    hands: list[set[tuple[int, int]]] = [set() for _ in range(4)]
    hands[partner].add((entry, 14))
    hands[leader].add((entry, rng.choice([13, *range(2, 7)])))
    deck = [(s, r) for s in suits for r in range(2, 15) if (s, r) not in hands[partner]
            and (s, r) not in hands[leader]]
    rng.shuffle(deck)
    deck.sort(key=lambda card: -card[1] * rng.random())  # high cards first, loosely
    seats = [partner, leader, partner, leader, (leader + 1) % 4, (leader + 3) % 4]
    while any(len(h) < size for h in hands):
        card = deck.pop(0)
        for seat in seats + list(range(4)):
            if len(hands[seat]) < size:
                hands[seat].add(card)
                break
        rng.shuffle(seats)
    strain = _endings.NOTRUMP
    trumps_on_side = [s for s in suits if all(
        card[0] != s for seat in ((leader + 1) % 4, (leader + 3) % 4) for card in hands[seat])]
    if trumps_on_side and rng.random() < 0.4:
        strain = trumps_on_side[0]  # the opponents hold no trump
    return hands, leader, strain


def test_the_leader_crosses_to_partners_king_first() -> None:
    # South leads in notrump: a low spade to North's king (East's jack falls), a spade
    # back to South's six, then the diamond queen: three tricks whatever South leads (an
    # ending where the partner-first count cuts inside the search)
    north = {(2, 11), (0, 13), (0, 3)}
    east = {(2, 9), (1, 14), (0, 11)}
    south = {(2, 12), (0, 6), (0, 5)}
    west = {(1, 12), (1, 10), (0, 4)}
    hands = [north, east, south, west]
    assert set(_endings.brute_force(hands, _endings.NOTRUMP, 2).values()) == {3}
    _endings.check(hands, _endings.NOTRUMP, 2, FEATURE_SETS)


@pytest.mark.parametrize("seed", range(6))
def test_partner_entry_endings_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        size = rng.choice([3, 4, 4])
        hands, leader, strain = _entry_ending(rng, size)
        _endings.check(hands, strain, leader, FEATURE_SETS)
