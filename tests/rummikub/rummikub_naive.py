"""A brute-force Rummikub reference for the property tests (independent of the kernel).

It enumerates subsets of the rack and, for each, every way to split the
tiles into runs and groups, picking the set that holds the lowest remaining
real tile each time.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, product

COLOURS = "KROB"


def _key(counts: Counter) -> tuple:
    return tuple(sorted((k, v) for k, v in counts.items() if v))


@cache
def _arrange(real: tuple, jokers: int) -> int | None:
    """Max total stands-for value of a full arrangement of ``real`` + ``jokers``; None if none."""
    if not real:
        return 0 if jokers == 0 else None
    counts = Counter(dict(real))
    (c, n) = min(counts)
    counts[(c, n)] -= 1
    best = None
    candidates = []
    for s in range(1, n + 1):
        for e in range(max(n, s + 2), 14):
            candidates.append([(c, k) for k in range(s, e + 1) if k != n])
    others = [x for x in COLOURS if x != c]
    for size in (2, 3):
        for cols in combinations(others, size):
            candidates.append([(x, n) for x in cols])
    total = sum(counts.values()) + jokers
    for need in candidates:
        if len(need) > total:
            continue
        for use_joker in product((False, True), repeat=len(need)):
            j = sum(use_joker)
            if j > jokers:
                continue
            left = counts.copy()
            ok = True
            for tile, uj in zip(need, use_joker):
                if not uj:
                    if left[tile] == 0:
                        ok = False
                        break
                    left[tile] -= 1
            if not ok:
                continue
            rest = _arrange(_key(left), jokers - j)
            if rest is None:
                continue
            value = n + sum(k for _, k in need) + rest
            if best is None or value > best:
                best = value
    return best


def arrange_value(tiles: list[str]) -> int | None:
    """Best arrangement value of exactly these tiles (text form), or None."""
    real = Counter((t[0], int(t[1:])) for t in tiles if t != "J")
    return _arrange(_key(real), tiles.count("J"))


def brute_force(table: list[list[str]], rack: list[str], initial_meld_done: bool,
                threshold: int = 30, joker_zero: bool = False):
    """(max tiles, value at max tiles, max value, tiles at max value) over all legal plays.

    An initial meld must be worth ``threshold``, a joker counting as the tile it stands for
    (the best arrangement's value) or, with ``joker_zero``, as nothing (the real tiles' sum).
    """
    base = [t for s in table for t in s] if initial_meld_done else []
    best_t = (0, 0)
    best_v = (0, 0)
    seen = set()
    for r in range(len(rack) + 1):
        for sub in combinations(sorted(rack), r):
            if sub in seen:
                continue
            seen.add(sub)
            worth = arrange_value(base + list(sub))
            if worth is None:
                continue
            if joker_zero:
                worth = sum(int(t[1:]) for t in sub if t != "J")
            if not initial_meld_done and sub and worth < threshold:
                continue
            tiles = len(sub)
            value = sum(int(t[1:]) for t in sub if t != "J")
            best_t = max(best_t, (tiles, value))
            best_v = max(best_v, (value, tiles))
    return best_t[0], best_t[1], best_v[0], best_v[1]
