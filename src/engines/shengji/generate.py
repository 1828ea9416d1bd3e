"""Random 升级 cases for ``qipai gen shengji`` (seeded, reproducible).

``follow_legal``, ``legal_follows_count``, ``trick_winner`` and
``throw_valid`` records in the conformance-case format (rules section 15,
``docs/rules/shengji.md``) without ``expected``: leads are one effective suit
(rules section 2, decided by :class:`~engines.shengji.rules.TrumpContext`),
hands are biased towards the led suit so following is not trivial, and every
record respects the two-deck limit.

>>> case = next(shengji_cases(1, seed=5, kinds=("follow_legal",)))
>>> case["kind"], len(case["play"]) == len(case["lead"])
('follow_legal', True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from engines.errors import InputError
from engines.shengji.cards import CARD_NAMES, RANKS, SUITS
from engines.shengji.rules import TrumpContext

__all__ = ["SHENGJI_KINDS", "shengji_cases"]

SHENGJI_KINDS = ("follow_legal", "legal_follows_count", "trick_winner", "throw_valid")
_DECK = tuple(CARD_NAMES)


def shengji_cases(
    count: int, seed: int = 0, *, kinds: Sequence[str] = SHENGJI_KINDS
) -> Iterator[dict[str, Any]]:
    """``count`` random cases of the given ``kinds`` (cycled in order), without ``expected``."""
    for kind in kinds:
        if kind not in SHENGJI_KINDS:
            raise InputError(
                f"unknown shengji case kind {kind!r}; known: {', '.join(SHENGJI_KINDS)}"
            )
    rng = random.Random(seed)
    for i in range(count):
        kind = kinds[i % len(kinds)]
        level = rng.choice(RANKS)
        trump = rng.choice(("S", "H", "C", "D", "NT"))
        ctx = TrumpContext(level, trump)
        pool = Counter(dict.fromkeys(_DECK, 2))
        throw = kind == "throw_valid"
        lead, shape = _lead(rng, pool, ctx, throw=throw)
        suit = ctx.suit_of(lead[0])
        record: dict[str, Any] = {
            "id": f"gs{seed}-{i:06d}",
            "kind": kind,
            "level": level,
            "trump": trump,
        }
        if kind in ("follow_legal", "legal_follows_count"):
            hand = _hand(rng, pool, ctx, suit, rng.randint(len(lead), 25))
            record["hand"] = hand
            record["lead"] = lead
            if kind == "follow_legal":
                record["play"] = _play(rng, hand, len(lead), ctx, suit)
        elif kind == "trick_winner":
            plays = [lead]
            for _ in range(3):
                hand = _hand(rng, pool, ctx, suit, len(lead))
                plays.append(hand)
            record["plays"] = plays
        else:
            record["lead"] = lead
            record["others"] = [
                _hand(rng, pool, ctx, suit, rng.randint(5, 25)) for _ in range(3)
            ]
        record["tags"] = ["generated", shape]
        yield record


def _take(pool: Counter, card: str, n: int = 1) -> None:
    pool[card] -= n
    assert pool[card] >= 0


def _lead(
    rng: random.Random, pool: Counter, ctx: TrumpContext, *, throw: bool
) -> tuple[list[str], str]:
    """A lead of one effective suit: single, pair, tractor or (multi-component) throw."""
    plain = [s for s in SUITS if s != ctx.trump_name]
    suit = "T" if rng.random() < 0.3 else rng.choice(plain)
    members = [c for c in _DECK if ctx.suit_of(c) == suit]
    by_position: dict[int, list[str]] = {}
    for card in members:
        by_position.setdefault(ctx.position(card), []).append(card)
    shape = rng.choice(("throw",) if throw else ("single", "single", "pair", "tractor", "throw"))
    if shape == "single":
        card = rng.choice(members)
        _take(pool, card)
        return [card], shape
    if shape == "pair":
        card = rng.choice(members)
        _take(pool, card, 2)
        return [card, card], shape
    if shape == "tractor":
        positions = sorted(by_position)
        length = rng.choice((2, 2, 3))
        starts = [p for p in positions if all(p + k in by_position for k in range(length))]
        start = rng.choice(starts)
        lead = []
        for k in range(length):
            card = rng.choice(by_position[start + k])
            _take(pool, card, 2)
            lead += [card, card]
        return lead, shape
    # A throw: two to four components (singles and pairs) of distinct cards of the suit.
    chosen = rng.sample(members, min(len(members), rng.randint(2, 4)))
    lead = []
    for card in chosen:
        copies = 2 if rng.random() < 0.35 else 1
        _take(pool, card, copies)
        lead += [card] * copies
    return lead, "throw"


def _hand(
    rng: random.Random, pool: Counter, ctx: TrumpContext, suit: str, size: int
) -> list[str]:
    """``size`` cards from ``pool``, a random share of them from effective suit ``suit``."""
    in_suit = [
        c for c, n in pool.items() for _ in range(n) if ctx.suit_of(c) == suit
    ]
    other = [
        c for c, n in pool.items() for _ in range(n) if ctx.suit_of(c) != suit
    ]
    # Pairs and tractors only show up when the suit is well stocked, so bias towards it.
    want = min(len(in_suit), rng.randint(0, size))
    hand = rng.sample(sorted(in_suit), want)
    hand += rng.sample(sorted(other), min(len(other), size - want))
    for card in hand:
        _take(pool, card)
    return sorted(hand, key=_DECK.index)


def _play(
    rng: random.Random, hand: list[str], size: int, ctx: TrumpContext, suit: str
) -> list[str]:
    """``size`` cards out of ``hand``: often as many of the led suit as possible, else random."""
    if rng.random() < 0.5:
        return sorted(rng.sample(hand, size), key=_DECK.index)
    in_suit = [c for c in hand if ctx.suit_of(c) == suit]
    other = [c for c in hand if ctx.suit_of(c) != suit]
    pick = rng.sample(in_suit, min(size, len(in_suit)))
    pick += rng.sample(other, size - len(pick))
    return sorted(pick, key=_DECK.index)
