"""Random hands for the property tests: sub-multisets of the double deck, often
packed into a few ranks and suits so that sequences, bombs and flushes occur."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
from hypothesis import strategies as st

from engines.shuangkou.cards import deck_list


def random_counter(rng: random.Random, size: int, packed: bool) -> Counter:
    deck = [(c.rank, c.suit) for c in deck_list()]
    if packed:
        lo = rng.randrange(0, 13)
        ranks = set(range(lo, lo + rng.randint(3, 9)))
        suits = set(rng.sample(range(4), rng.randint(1, 4)))
        deck = [(r, s) for r, s in deck if r in ranks and (s in suits or r >= 13)] or deck
    return Counter(rng.sample(deck, min(size, len(deck))))


def to_array(cards: Counter) -> np.ndarray:
    arr = np.zeros((15, 4), dtype=np.uint8)
    for (r, s), c in cards.items():
        arr[r, s] = c
    return arr


def to_counter(arr: np.ndarray) -> Counter:
    return Counter({(r, s): int(arr[r, s]) for r in range(15) for s in range(4) if arr[r, s]})


@st.composite
def hands(draw, min_size: int = 0, max_size: int = 27) -> Counter:
    seed = draw(st.integers(0, 2**32 - 1))
    size = draw(st.integers(min_size, max_size))
    packed = draw(st.booleans())
    return random_counter(random.Random(seed), size, packed)
