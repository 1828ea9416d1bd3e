"""Counting legal follows when the lead asks for chains: by the follow's set of pairs.

The count no longer enumerates the follows (``_count_with_chains``), so it is checked here
against the enumeration on positions larger than the brute-force oracle can take, and on
two positions counted by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from engines.shengji import arrays
from engines.shengji.cards import RANKS
from engines.shengji.rules import TrumpContext, legal_follows

HAND = "D3 D3 D4 D4 D5 D5 D7 D8 C2"


@pytest.mark.parametrize(("lead", "expected"), [
    # a two-pair tractor: the pairs 3-4 or 4-5, nothing else
    ("DK DK DQ DQ", 2),
    # and a single beside it: either tractor, then one of the three other diamonds left
    ("DK DK DQ DQ DJ", 6),
    # a three-pair tractor with two singles: pairs 3-4-5, then two of D7 D8 (one way)
    ("DK DK DQ DQ DJ DJ D9 D6", 1),
])
def test_counts_worked_by_hand(lead, expected):
    ctx = TrumpContext("10", "H")
    assert legal_follows(HAND, lead, ctx).count() == expected
    assert len(list(legal_follows(HAND, lead, ctx))) == expected


def _chain_position(rng, ctx):
    """A lead of one or two tractors (and maybe singles) and a hand rich in its suit's pairs."""
    suit = int(rng.choice(sorted({int(s) for s in ctx.esuit})))
    cards = [c for c in range(54) if ctx.esuit[c] == suit]
    by_pos: dict[int, list[int]] = {}
    for c in cards:
        by_pos.setdefault(int(ctx.pos[c]), []).append(c)
    positions = sorted(by_pos)
    lead = np.zeros(54, dtype=np.int8)
    for _ in range(rng.integers(1, 3)):
        length = int(rng.integers(2, 5))
        start = int(rng.integers(0, max(1, len(positions) - length + 1)))
        for p in positions[start:start + length]:
            lead[by_pos[p][rng.integers(len(by_pos[p]))]] = 2
    for _ in range(rng.integers(0, 3)):
        c = cards[rng.integers(len(cards))]
        lead[c] = max(int(lead[c]), 1)
    hand = np.zeros(54, dtype=np.int8)
    for c in range(54):
        chance = 0.7 if ctx.esuit[c] == suit else 0.15
        if rng.random() < chance:
            hand[c] = min(2 - int(lead[c]), int(rng.integers(0, 3)))
    return hand, lead


@pytest.mark.parametrize("seed", [1, 2])
def test_counts_equal_the_enumeration(seed):
    rng = np.random.default_rng(seed)
    contexts, hands, leads = [], [], []
    for _ in range(1500):
        ctx = TrumpContext(RANKS[int(rng.integers(len(RANKS)))],
                           ["S", "H", "C", "D", "NT"][int(rng.integers(5))])
        hand, lead = _chain_position(rng, ctx)
        contexts.append(ctx)
        hands.append(hand)
        leads.append(lead)
    hands_a, leads_a = np.stack(hands), np.stack(leads)
    counts = arrays.count_legal_follows(hands_a, leads_a, contexts, threads=2)
    offsets, _ = arrays.legal_follows_batch(hands_a, leads_a, contexts)
    assert counts.tolist() == np.diff(offsets).tolist()
    assert (counts > 1).sum() > 300  # positions with a choice, not only forced follows
