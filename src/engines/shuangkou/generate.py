"""Seeded random 双扣 positions (same seed, same records) in the conformance format.

* ``legal_responses_count``: a dealt 27-card hand answering a combination drawn
  from another dealt hand (or leading, one time in five);
* ``beats``: two combinations drawn from dealt hands;
* ``classify``: a random sub-multiset of a dealt hand, often a combination;
* ``endgame``: four hands of ``cards`` cards each, a leader (for
  ``qipai batch --task shuangkou-endgame``).

>>> [r["kind"] for r in shuangkou_cases(3, seed=1)]
['legal_responses_count', 'beats', 'classify']
>>> next(endgame_positions(1, seed=2, cards=2))["leader"] in range(4)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from engines.shuangkou.cards import Card, card_names, deck_list
from engines.shuangkou.errors import ShuangkouInputError

KINDS = ("legal_responses_count", "beats", "classify")


def _deal(rng: random.Random) -> list[list[Card]]:
    deck = deck_list()
    rng.shuffle(deck)
    return [deck[i * 27 : (i + 1) * 27] for i in range(4)]


def _counts(cards: Sequence[Card]) -> np.ndarray:
    arr = np.zeros((15, 4), dtype=np.uint8)
    for c in cards:
        arr[c.rank, c.suit] += 1
    return arr


def _combination(rng: random.Random, hand: Sequence[Card]) -> list[str]:
    """A random combination of ``hand``: a uniformly chosen play among its leads."""
    from engines.shuangkou.rules import legal_plays

    plays = legal_plays(_counts(hand)).arrays()
    return card_names(plays[rng.randrange(len(plays))])


def shuangkou_cases(
    count: int, seed: int = 0, kinds: Sequence[str] = KINDS
) -> Iterator[dict[str, Any]]:
    """``count`` random cases, cycling through ``kinds`` (no ``expected`` field)."""
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or not kinds:
        raise ShuangkouInputError(
            f"unknown case kind {unknown[0] if unknown else ''!r}; known: {', '.join(KINDS)}"
        )
    rng = random.Random(seed)
    for i in range(count):
        kind = kinds[i % len(kinds)]
        hands = _deal(rng)
        record: dict[str, Any] = {"id": f"gen{i + 1:06d}", "kind": kind}
        if kind == "legal_responses_count":
            record["hand"] = card_names(_counts(hands[0]))
            record["previous"] = None if rng.random() < 0.2 else _combination(rng, hands[1])
        elif kind == "beats":
            record["play"] = _combination(rng, hands[0])
            record["previous"] = _combination(rng, hands[1])
        else:
            pick = rng.sample(hands[0], rng.randint(1, 8))
            record["cards"] = card_names(_counts(pick)) if rng.random() < 0.5 else \
                _combination(rng, hands[0])
        yield record


def endgame_positions(count: int, seed: int = 0, cards: int = 3) -> Iterator[dict[str, Any]]:
    """``count`` random end-games: four hands of ``cards`` cards, a random leader."""
    if not 1 <= cards <= 27:
        raise ShuangkouInputError(f"cards: expected 1–27 per hand, got {cards}")
    rng = random.Random(seed)
    for i in range(count):
        deck = deck_list()
        rng.shuffle(deck)
        yield {
            "id": f"end{i + 1:06d}",
            "hands": [card_names(_counts(deck[s * cards : (s + 1) * cards])) for s in range(4)],
            "finished": [],
            "leader": rng.randrange(4),
        }
