"""A straightforward pure-Python implementation of the 双扣 rules, written from the
rules document alone: the oracle of the property tests and the baseline of the
benchmarks.  Cards are ``(rank, suit)`` pairs (rank values 0–14, jokers suit 0);
a multiset is a ``collections.Counter`` of them.
"""

from __future__ import annotations

import itertools
from collections import Counter

SEQUENCE_TOP = 11
NON_BOMBS = ("single", "pair", "triple", "consecutive_pairs", "consecutive_triples", "straight")


def classify(cards: Counter, sf_bomb: bool = True) -> tuple[str, int, int] | None:
    """(type, rank, length) by the algorithm of section 4, or None."""
    n = sum(cards.values())
    if n == 0:
        return None
    per_rank = Counter()
    for (rank, _suit), c in cards.items():
        per_rank[rank] += c
    ranks = sorted(r for r, c in per_rank.items() if c)
    if n == 4 and per_rank[13] == 2 and per_rank[14] == 2:
        return ("king_bomb", 14, 4)
    if len(ranks) == 1:
        names = {1: "single", 2: "pair", 3: "triple"}
        return (names.get(n, "bomb"), ranks[0], n)
    if ranks[-1] > SEQUENCE_TOP or ranks != list(range(ranks[0], ranks[-1] + 1)):
        return None
    widths = {per_rank[r] for r in ranks}
    if len(widths) != 1:
        return None
    w, k, top = widths.pop(), len(ranks), ranks[-1]
    if w == 1 and k >= 5:
        suits = {s for (_r, s), c in cards.items() if c}
        if sf_bomb and len(suits) == 1:
            return ("straight_flush", top, n)
        return ("straight", top, n)
    if w == 2 and k >= 3:
        return ("consecutive_pairs", top, n)
    if w == 3 and k >= 3:
        return ("consecutive_triples", top, n)
    return None


def bomb_key(combo: tuple[str, int, int]) -> tuple[int, int, int] | None:
    kind, rank, length = combo
    if kind == "bomb":
        tier = {4: 1, 5: 2, 6: 4, 7: 5, 8: 6}[length]
        return (tier, rank, 0)
    if kind == "straight_flush":
        return (3, length, rank)
    if kind == "king_bomb":
        return (7, 0, 0)
    return None


def beats(play: tuple | None, previous: tuple | None) -> bool:
    """Section 5.2 on classified combinations."""
    if play is None or previous is None:
        return False
    a, b = bomb_key(play), bomb_key(previous)
    if a is None and b is None:
        return play[0] == previous[0] and play[2] == previous[2] and play[1] > previous[1]
    if b is None:
        return True
    if a is None:
        return False
    return a > b


def _rank_subsets(hand: Counter, rank: int, m: int) -> list[Counter]:
    tokens = [(rank, s) for s in range(4) if hand[(rank, s)]]
    out = []
    ranges = [range(min(hand[t], m) + 1) for t in tokens]
    for counts in itertools.product(*ranges):
        if sum(counts) == m:
            out.append(Counter({t: c for t, c in zip(tokens, counts) if c}))
    return out


def plays(hand: Counter, previous: tuple | None = None, sf_bomb: bool = True) -> list[Counter]:
    """Every distinct play of ``hand`` beating ``previous`` (all when None): candidates
    generated rank by rank and window by window, each classified and compared."""
    candidates: list[Counter] = []
    for rank in range(15):
        for m in range(1, 9):
            candidates.extend(_rank_subsets(hand, rank, m))
    if hand[(13, 0)] == 2 and hand[(14, 0)] == 2:
        candidates.append(Counter({(13, 0): 2, (14, 0): 2}))
    for w, kmin in ((1, 5), (2, 3), (3, 3)):
        for lo in range(SEQUENCE_TOP + 1):
            for hi in range(lo + kmin - 1, SEQUENCE_TOP + 1):
                options = [_rank_subsets(hand, r, w) for r in range(lo, hi + 1)]
                for choice in itertools.product(*options):
                    total = Counter()
                    for part in choice:
                        total.update(part)
                    candidates.append(total)
    out = []
    for cand in candidates:
        combo = classify(cand, sf_bomb)
        if combo is not None and (previous is None or beats(combo, previous)):
            out.append(cand)
    return out


def brute_force_plays(hand: Counter, previous: tuple | None = None, sf_bomb: bool = True):
    """The same set by brute force over every sub-multiset (small hands only)."""
    tokens = sorted(t for t, c in hand.items() if c)
    out = []
    for counts in itertools.product(*[range(hand[t] + 1) for t in tokens]):
        sub = Counter({t: c for t, c in zip(tokens, counts) if c})
        combo = classify(sub, sf_bomb)
        if combo is not None and (previous is None or beats(combo, previous)):
            out.append(sub)
    return out


def trick_next(holding: set[int], last: int, passes: int) -> tuple[int, bool, bool]:
    """Section 7.4 with ``passes`` passes since ``last``'s play."""
    others = [(last + i) % 4 for i in (1, 2, 3) if (last + i) % 4 in holding]
    if passes < len(others):
        return others[passes], False, False
    if last in holding:
        return last, True, False
    if (last + 2) % 4 in holding:
        return (last + 2) % 4, True, True
    return others[0], True, False
