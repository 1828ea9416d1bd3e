"""A straightforward pure-Python implementation of the 升级 rules, used as the test oracle.

It shares no code with the kernels: cards are token strings, collections are
``collections.Counter`` objects, the requirement order is the literal sorted
list of all derivable shapes (section 5), and enumeration is brute force over
every sub-multiset of the hand.  The benchmark imports it for the speed
comparison.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from functools import cache

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def card_info(card: str, level: str, trump: str) -> tuple[str, int]:
    """(effective suit 'S'/'H'/'C'/'D'/'T', position) of a card (section 2)."""
    if card == "BJ":
        return "T", 15
    if card == "LJ":
        return "T", 14
    suit, rank = card[0], card[1:]
    if rank == level:
        if trump == "NT" or suit == trump:
            return "T", 13
        return "T", 12
    ranks = [r for r in RANKS if r != level]
    return ("T" if suit == trump else suit), ranks.index(rank)


def pair_positions(cards: Counter, level: str, trump: str) -> Counter:
    """Position → number of pairs."""
    out: Counter = Counter()
    for card, k in cards.items():
        if k >= 2:
            out[card_info(card, level, trump)[1]] += 1
    return out


def realises(pairs: Counter, parts: tuple[int, ...]) -> bool:
    """Disjoint chains of the given lengths exist among ``pairs`` (plain recursion)."""
    if not parts:
        return True
    m, rest = parts[0], parts[1:]
    for start in range(0, 16 - m + 1):
        span = range(start, start + m)
        if all(pairs[p] > 0 for p in span):
            for p in span:
                pairs[p] -= 1
            ok = realises(pairs, rest)
            for p in span:
                pairs[p] += 1
            if ok:
                return True
    return False


def shape_of(cards: Counter, level: str, trump: str) -> tuple[int, ...]:
    """Section 4 shape."""
    pairs = pair_positions(cards, level, trump)
    parts = []
    p = 0
    while p < 16:
        if pairs[p] == 0:
            p += 1
            continue
        q = p
        while q < 16 and pairs[q] > 0:
            q += 1
        if q - p >= 2:
            parts.append(q - p)
            parts.extend([1] * sum(pairs[x] - 1 for x in range(p, q)))
        else:
            parts.extend([1] * pairs[p])
        p = q
    return tuple(sorted(parts, reverse=True))


def _partitions(n: int, largest: int) -> Iterable[tuple[int, ...]]:
    if n == 0:
        yield ()
        return
    for first in range(min(n, largest), 0, -1):
        for rest in _partitions(n - first, first):
            yield (first, *rest)


def _derivable(lam: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    def place(i: int, caps: list[int]) -> bool:
        if i == len(lam):
            return True
        for j in range(len(caps)):
            if caps[j] >= lam[i]:
                caps[j] -= lam[i]
                if place(i + 1, caps):
                    caps[j] += lam[i]
                    return True
                caps[j] += lam[i]
        return False

    return place(0, list(shape))


@cache
def requirement_order(shape: tuple[int, ...]) -> list[tuple[int, ...]]:
    """All shapes derivable from ``shape``, in the section 5 order."""
    total = sum(shape)
    found = [
        lam
        for n in range(total + 1)
        for lam in _partitions(n, max(shape, default=0))
        if _derivable(lam, shape)
    ]
    return sorted(found, key=lambda lam: (-sum(lam), tuple(-x for x in lam)))


def follow_legal(hand: list[str], lead: list[str], play: list[str], level: str,
                 trump: str) -> bool:
    """Section 6.1, literally."""
    h, ld, p = Counter(hand), Counter(lead), Counter(play)
    n = sum(ld.values())
    if sum(p.values()) != n or any(p[c] > h[c] for c in p):
        return False
    suit = card_info(next(iter(ld)), level, trump)[0]
    hs = Counter({c: k for c, k in h.items() if card_info(c, level, trump)[0] == suit})
    ps = Counter({c: k for c, k in p.items() if card_info(c, level, trump)[0] == suit})
    if sum(hs.values()) <= n:
        return ps == hs
    if sum(ps.values()) < n:
        return False
    hs_pairs = pair_positions(hs, level, trump)
    for lam in requirement_order(shape_of(ld, level, trump)):
        if realises(hs_pairs, lam):
            return realises(pair_positions(ps, level, trump), lam)
    raise AssertionError("the empty shape is always realised")


def legal_follows(hand: list[str], lead: list[str], level: str, trump: str) -> set[tuple]:
    """Brute force: every distinct sub-multiset of the hand of the lead's size that is legal."""
    h = Counter(hand)
    cards = sorted(h)
    n = len(lead)
    out = set()
    for counts in itertools.product(*[range(h[c] + 1) for c in cards]):
        if sum(counts) != n:
            continue
        play = [c for c, k in zip(cards, counts) for _ in range(k)]
        if follow_legal(hand, lead, play, level, trump):
            out.add(tuple(sorted(play)))
    return out


def trick_winner(plays: list[list[str]], level: str, trump: str) -> int:
    """Section 8, literally."""
    lead = Counter(plays[0])
    n = len(plays[0])
    suit = card_info(plays[0][0], level, trump)[0]
    shape = shape_of(lead, level, trump)
    best, best_key = 0, (-1, -1)
    for i, play in enumerate(plays):
        if len(play) != n:
            continue
        suits = {card_info(c, level, trump)[0] for c in play}
        if suits == {suit}:
            cls = 1
        elif suit != "T" and suits == {"T"}:
            cls = 2
        else:
            continue
        pc = Counter(play)
        pairs = pair_positions(pc, level, trump)
        if not realises(pairs, shape):
            continue
        if not shape:
            key = max(card_info(c, level, trump)[1] for c in play)
        else:
            m, rest = shape[0], shape[1:]
            key = -1
            for top in range(15, m - 2, -1):
                span = range(top - m + 1, top + 1)
                if all(pairs[p] > 0 for p in span):
                    for p in span:
                        pairs[p] -= 1
                    ok = realises(pairs, rest)
                    for p in span:
                        pairs[p] += 1
                    if ok:
                        key = top
                        break
        if (cls, key) > best_key:
            best, best_key = i, (cls, key)
    return best


def legal_follows_filtered(hand: list[str], lead: list[str], level: str,
                           trump: str) -> set[tuple]:
    """The plain way to list follows: filter n-subsets (of the suit, or of the fillers when short).

    Faster than :func:`legal_follows` on full-size hands; the benchmark's reference.
    """
    n = len(lead)
    suit = card_info(lead[0], level, trump)[0]
    in_suit = [c for c in hand if card_info(c, level, trump)[0] == suit]
    others = [c for c in hand if card_info(c, level, trump)[0] != suit]
    if len(in_suit) <= n:
        return {tuple(sorted(in_suit + list(fill)))
                for fill in itertools.combinations(others, n - len(in_suit))}
    out = set()
    for combo in set(itertools.combinations(sorted(in_suit), n)):
        if follow_legal(hand, lead, list(combo), level, trump):
            out.add(tuple(sorted(combo)))
    return out


def components(cards: list[str], level: str, trump: str) -> list[tuple[int, int, int, tuple]]:
    """Section 4 decomposition as (size, top, printed suit of lowest card, cards), sorted."""
    count = Counter(cards)
    info = {c: card_info(c, level, trump) for c in count}
    order = "SHCD"

    def psuit(card: str) -> int:
        return 4 if card in ("LJ", "BJ") else order.index(card[0])

    pairs_at: dict[int, list[str]] = {}
    for c, k in count.items():
        if k == 2:
            pairs_at.setdefault(info[c][1], []).append(c)
    for p in pairs_at:
        pairs_at[p].sort(key=psuit)
    out = []
    used: Counter = Counter()
    positions = sorted(pairs_at)
    runs: list[list[int]] = []
    for p in positions:
        if runs and runs[-1][-1] == p - 1:
            runs[-1].append(p)
        else:
            runs.append([p])
    for run in runs:
        if len(run) >= 2:
            chosen = [pairs_at[p][0] for p in run]
            for c in chosen:
                used[c] = 2
            out.append((2 * len(run), run[-1], psuit(chosen[0]),
                        tuple(sorted(chosen * 2))))
    for c, k in count.items():
        left = k - used[c]
        if left:
            out.append((left, info[c][1], psuit(c), (c,) * left))
    return sorted(out)


def throw_check(lead: list[str], others: list[list[str]], level: str,
                trump: str) -> tuple[bool, list[str] | None]:
    """Section 7, literally: (valid, forced cards or None)."""
    comps = components(lead, level, trump)
    if len(comps) <= 1:
        return True, None
    suit = card_info(lead[0], level, trump)[0]

    def beats(size: int, top: int, hand: list[str]) -> bool:
        mine = [c for c in hand if card_info(c, level, trump)[0] == suit]
        if size == 1:
            return any(card_info(c, level, trump)[1] > top for c in mine)
        pairs = pair_positions(Counter(mine), level, trump)
        k = size // 2
        return any(all(pairs[p] > 0 for p in range(t - k + 1, t + 1))
                   for t in range(top + 1, 16) if t - k + 1 >= 0)

    for size, top, _, cards in comps:
        if any(beats(size, top, hand) for hand in others):
            return False, sorted(cards)
    return True, None
