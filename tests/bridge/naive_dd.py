"""A slow, obviously correct double-dummy minimax: the reference for property tests.

Plain Python over lists of cards, no pruning beyond memoising whole positions.
"""

from __future__ import annotations

from functools import cache

Card = tuple[int, int]  # (suit 0..3 in S H D C order, rank 2..14)


def trick_winner(cards: list[Card], trump: int) -> int:
    """Index in ``cards`` (play order) of the card that wins the trick."""
    best = 0
    for i in range(1, len(cards)):
        s, r = cards[i]
        bs, br = cards[best]
        if (s == bs and r > br) or (s == trump and bs != trump):
            best = i
    return best


def legal(hand: frozenset[Card], trick: tuple[Card, ...]) -> list[Card]:
    if trick:
        follow = [c for c in hand if c[0] == trick[0][0]]
        if follow:
            return sorted(follow)
    return sorted(hand)


def solve(
    hands: tuple[frozenset[Card], ...], trump: int, leader: int, trick: tuple[Card, ...]
) -> dict[Card, int]:
    """Tricks (current one included) for the side to move after each legal card."""

    @cache
    def value(hands: tuple[frozenset[Card], ...], leader: int, trick: tuple[Card, ...]) -> int:
        """Tricks N-S take from here."""
        if not trick and not any(hands):
            return 0
        seat = (leader + len(trick)) % 4
        results = []
        for card in legal(hands[seat], trick):
            results.append(after(hands, leader, trick, seat, card))
        return max(results) if seat % 2 == 0 else min(results)

    def after(hands, leader, trick, seat, card) -> int:
        new_hands = list(hands)
        new_hands[seat] = hands[seat] - {card}
        new_trick = (*trick, card)
        if len(new_trick) < 4:
            return value(tuple(new_hands), leader, new_trick)
        winner = (leader + trick_winner(list(new_trick), trump)) % 4
        return (winner % 2 == 0) + value(tuple(new_hands), winner, ())

    seat = (leader + len(trick)) % 4
    total = max(len(h) for h in hands)
    out = {}
    for card in legal(hands[seat], trick):
        ns = after(hands, leader, trick, seat, card)
        out[card] = ns if seat % 2 == 0 else total - ns
    return out
