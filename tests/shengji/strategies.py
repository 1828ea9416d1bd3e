"""Hypothesis strategies for 升级 positions (small hands, so brute force stays cheap)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from engines.shengji.cards import CARD_NAMES, RANKS
from engines.shengji.rules import TrumpContext

contexts = st.builds(
    TrumpContext, st.sampled_from(RANKS), st.sampled_from(["S", "H", "C", "D", "NT"])
)


def names(counts: np.ndarray) -> list[str]:
    return [CARD_NAMES[c] for c in range(54) for _ in range(int(counts[c]))]


@st.composite
def follow_positions(draw, max_distinct: int = 8):
    """(ctx, hand counts, lead counts): a one-suit lead and a hand rich in that suit."""
    ctx = draw(contexts)
    suit = draw(st.sampled_from(sorted({int(s) for s in ctx.esuit})))
    suit_cards = [c for c in range(54) if ctx.esuit[c] == suit]
    other_cards = [c for c in range(54) if ctx.esuit[c] != suit]
    # a narrow band of the suit makes pairs and tractors likely
    band = draw(st.lists(st.sampled_from(suit_cards), min_size=1, max_size=7, unique=True))
    extra = draw(st.lists(st.sampled_from(other_cards), max_size=3, unique=True))
    pool = sorted(set(band + extra))[:max_distinct]
    hand = np.zeros(54, dtype=np.int8)
    for c in pool:
        hand[c] = draw(st.integers(0, 2))
    lead = np.zeros(54, dtype=np.int8)
    lead_pool = draw(st.lists(st.sampled_from(suit_cards), min_size=1, max_size=4, unique=True))
    for c in lead_pool:
        room = 2 - int(hand[c])
        if room > 0:
            lead[c] = draw(st.integers(1, room))
    if lead.sum() == 0:
        # every drawn lead card is held twice by the hand: lead a suit card the hand lacks
        c = draw(st.sampled_from(suit_cards))
        hand[c] = min(int(hand[c]), 1)
        lead[c] = 1
    return ctx, hand, lead


@st.composite
def tricks(draw):
    """(ctx, four plays): a one-suit lead and three same-size plays from the rest of 2 decks."""
    ctx = draw(contexts)
    suit = draw(st.sampled_from(sorted({int(s) for s in ctx.esuit})))
    suit_cards = [c for c in range(54) if ctx.esuit[c] == suit]
    left = np.full(54, 2, dtype=np.int8)
    lead = np.zeros(54, dtype=np.int8)
    for c in draw(st.lists(st.sampled_from(suit_cards), min_size=1, max_size=4, unique=True)):
        lead[c] = draw(st.integers(1, 2))
    left -= lead
    n = int(lead.sum())
    plays = [lead]
    for _ in range(3):
        focus = draw(st.sampled_from(["suit", "trump", "any"]))
        if focus == "suit":
            pool = suit_cards
        elif focus == "trump":
            pool = [c for c in range(54) if ctx.esuit[c] == 4]
        else:
            pool = list(range(54))
        play = np.zeros(54, dtype=np.int8)
        need = n
        for c in draw(st.permutations(pool)):
            if need == 0:
                break
            take = min(int(left[c]), need, draw(st.integers(0, 2)))
            play[c] += take
            left[c] -= take
            need -= take
        for c in range(54):  # top up from anything still unplayed
            while need and left[c]:
                play[c] += 1
                left[c] -= 1
                need -= 1
        plays.append(play)
    return ctx, plays


@st.composite
def level_heavy_positions(draw):
    """(ctx, hand, lead) in the trump suit around the level cards, where one position holds
    several distinct pairs (the off-suit level cards, or all four level cards with no trump)."""
    ctx = draw(contexts)
    trumps = [c for c in range(54) if ctx.esuit[c] == 4]
    top = [c for c in trumps if ctx.pos[c] >= 9]  # A K Q of the trump suit, level cards, jokers
    hand = np.zeros(54, dtype=np.int8)
    for c in draw(st.lists(st.sampled_from(top), min_size=2, max_size=8, unique=True)):
        hand[c] = draw(st.sampled_from([1, 2, 2]))
    for c in draw(st.lists(st.sampled_from(trumps), max_size=2, unique=True)):
        hand[c] = max(int(hand[c]), 1)
    lead = np.zeros(54, dtype=np.int8)
    room = [c for c in trumps if hand[c] < 2]
    if not room:  # no trump: the hand may hold all six trumps twice
        hand[trumps[0]] = 1
        room = [trumps[0]]
    for c in draw(st.lists(st.sampled_from(room), min_size=1, max_size=4, unique=True)):
        lead[c] = draw(st.integers(1, 2 - int(hand[c])))
    return ctx, hand, lead
