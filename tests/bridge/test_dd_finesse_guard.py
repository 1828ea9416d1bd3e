"""Later tricks in notrump: a guard sitting in front of the hand with the side's top cards.

Where the leader's side needs every trick, ``_later_tricks._guarded_suit`` bounds the
tricks a suit gives while an opponent keeps its best outstanding card X.  With the
guard in front of the hand holding a card above X (the finesse position), the count
allows a finesse lead of the other hand for each card below X of the shorter of the two
hands, less the guard's cards equal to X (his run down from X).  These endings deal
such a suit: the partner of the hand before the guard a top card and some middle ones,
the guard X with a run or small cards, and compare every card's score with the brute
force, with later tricks alone and with every feature on.
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
NOTRUMP = _endings.NOTRUMP
LATER_TRICKS_ONLY = 4
FEATURE_SETS = (LATER_TRICKS_ONLY, _endings.ALL_FEATURES)


def _finesse_ending(rng: random.Random, size: int) -> tuple[list[set[Card]], int]:
    """Hands of ``size`` cards from two suits and the leader: in the first suit the hand
    after the guard holds the ace and some middle cards, the guard the king with a run
    below it or small cards, the hand before the guard small cards."""
    suit, other = rng.sample(range(4), 2)
    leader = rng.randrange(4)
    guard = (leader + rng.choice([1, 3])) % 4
    before, after = (guard + 3) % 4, (guard + 1) % 4
    hands: list[set[Card]] = [set() for _ in range(4)]
    ranks = list(range(2, 13))  # below the king
    rng.shuffle(ranks)
    hands[after].add((suit, 14))
    hands[guard].add((suit, 13))
    run = rng.choice([0, 1, 2])
    for rank in range(12, 12 - run, -1):
        hands[guard].add((suit, rank))
        ranks.remove(rank)
    for seat, count in ((after, rng.choice([1, 2])), (guard, rng.choice([0, 1, 2])),
                        (before, rng.choice([1, 2, 3]))):
        for _ in range(min(count, size - len(hands[seat]))):
            hands[seat].add((suit, ranks.pop()))
    rest = [(suit, r) for r in ranks] + [(other, r) for r in range(2, 15)]
    rng.shuffle(rest)
    for seat in range(4):
        while len(hands[seat]) < size:
            hands[seat].add(rest.pop())
    return hands, leader


def test_the_guards_run_stops_the_finesse() -> None:
    # South leads and needs every trick: North's heart ace over West's K Q J, and North's
    # 9 and 5 could win two finesses of South's small hearts; but West plays the jack
    # and then the queen on them, so North must spend the ace at once: the hearts give
    # one trick only (the count: one card above the king, plus at most 3 - 2 leads)
    north = {(1, 14), (1, 9), (1, 5)}
    east = {(1, 3), (2, 5), (2, 3)}
    south = {(1, 10), (1, 8), (1, 7)}
    west = {(1, 13), (1, 12), (1, 11)}
    hands = [north, east, south, west]
    expected = _endings.brute_force(hands, NOTRUMP, 2)
    assert max(expected.values()) < 3
    _endings.check(hands, NOTRUMP, 2, FEATURE_SETS)


@pytest.mark.parametrize("seed", range(6))
def test_finesse_position_endings_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        hands, leader = _finesse_ending(rng, rng.choice([3, 4, 4]))
        _endings.check(hands, NOTRUMP, leader, FEATURE_SETS)
