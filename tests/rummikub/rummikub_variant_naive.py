"""Brute force for house-rule variants on small tile sets (independent of the solvers).

Tiles are ``(colour, number)`` pairs with colours as letters; a joker is ``"J"``.  Every
arrangement of a multiset of tiles is enumerated (the set through the lowest real tile
first, each joker given its meaning), and every sub-multiset of the rack is tried.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations, product

LETTERS = "KROBGYPW"


class Spec:
    def __init__(self, colours, numbers, copies, jokers, min_len, min_real):
        self.colours, self.numbers, self.copies = colours, numbers, copies
        self.jokers, self.min_len, self.min_real = jokers, min_len, min_real
        self.letters = LETTERS[:colours]


def _candidates(spec: Spec, tile):
    """Every set (tuple of (is_joker, colour, number)) through real tile ``tile``."""
    c, n = tile
    out = []
    for lo in range(1, n + 1):
        for hi in range(max(n, lo + spec.min_len - 1), spec.numbers + 1):
            out.append([(c, k) for k in range(lo, hi + 1)])
    others = [x for x in spec.letters if x != c]
    for size in range(max(spec.min_len, 2) - 1, spec.colours):
        for cols in combinations(others, size):
            out.append([(c, n), *[(x, n) for x in cols]])
    return out


def arrangements(spec: Spec, counts: Counter, jokers: int):
    """Yield every arrangement (list of sets of (is_joker, colour, number)) of the tiles."""
    real = sorted(t for t, k in counts.items() if k)
    if not real:
        if jokers == 0:
            yield []
        return
    first = real[0]
    for shape in _candidates(spec, first):
        rest = [t for t in shape]
        rest.remove(first)
        for use in product((False, True), repeat=len(rest)):
            j = sum(use)
            if j > jokers or len(shape) - j < spec.min_real:
                continue
            left = counts.copy()
            left[first] -= 1
            ok = True
            for t, uj in zip(rest, use):
                if not uj:
                    if left[t] == 0:
                        ok = False
                        break
                    left[t] -= 1
            if not ok:
                continue
            this = [(False, *first)] + [(uj, *t) for t, uj in zip(rest, use)]
            this.sort(key=lambda s: (s[2], s[1]))
            for more in arrangements(spec, left, jokers - j):
                yield [this, *more]


def is_run(s) -> bool:
    return len({c for _, c, _ in s}) == 1 and len(s) > 1 and len({n for _, _, n in s}) == len(s)


def official_ok(spec: Spec, places, arrangement, played: Counter) -> bool:
    """Official retrieval: ``places`` per table joker ``("run", c, n)`` or ``("group", allowed
    colours, n)``; each stays (a run joker meaning (c, n) in a run, a group joker in a group
    of number n) or a distinct played tile it may stand for replaces it."""
    run_j = Counter((c, n) for s in arrangement if is_run(s) for j, c, n in s if j)
    group_j = Counter(n for s in arrangement if not is_run(s) for j, _, n in s if j)
    for stay in product((True, False), repeat=len(places)):
        rj, gj = run_j.copy(), group_j.copy()
        fine = True
        taken = []
        for (kind, what, n), st in zip(places, stay):
            if not st:
                taken.append([(what, n)] if kind == "run" else [(x, n) for x in what])
            elif kind == "run":
                fine = fine and rj[(what, n)] > 0
                rj[(what, n)] -= 1
            else:
                fine = fine and gj[n] > 0
                gj[n] -= 1
        if fine and _distinct(taken, played):
            return True
    return False


def _distinct(options, played: Counter) -> bool:
    for order in permutations(range(len(options))):
        left = played.copy()
        if _pick(options, order, left):
            return True
    return not options


def _pick(options, order, left) -> bool:
    for i in order:
        t = next((t for t in options[i] if left[t] > 0), None)
        if t is None:
            return False
        left[t] -= 1
    return True


def value(sets, joker_counts=True) -> int:
    return sum(n for s in sets for j, _, n in s if joker_counts or not j)


def score(played: Counter, objective: str):
    tiles = sum(played.values())
    v = sum(k * t[1] for t, k in played.items() if t != "J")
    jokers = played["J"]
    if objective == "tiles":
        return (tiles, v, -jokers)
    return (v, tiles, -jokers)


def _key(s) -> tuple:
    return tuple(sorted(("J", 0) if j else (c, n) for j, c, n in s))


def kept(table_keys, arrangement) -> int:
    after = Counter(_key(s) for s in arrangement)
    n = 0
    for k in table_keys:
        if after[k]:
            after[k] -= 1
            n += 1
    return n


def _shares(s) -> tuple:
    """A set's kind and what a heir of that kind can share with it, by place: a run's
    numbers (real or joker), a group's colours and jokers."""
    if is_run(s):
        return ("run", s[0][1]), Counter((n, j) for j, _, n in s)
    return ("group", s[0][2]), Counter("J" if j else c for j, c, _ in s)


def stays(table, arrangement) -> int:
    """Table tiles in their set's heir (positional): the most, over one-to-one matches of
    table sets to new sets of the same kind (a run of the same colour, a group of the same
    number), of the places they share (a table set whose tiles form a new set: all of them)."""
    old = [(_key(s), *_shares(s), len(s)) for s in table]
    new = [(_key(s), *_shares(s)) for s in arrangement]
    best = 0

    def share(i: int, k: int) -> int:
        (key, kind, places, size), (key2, kind2, places2) = old[i], new[k]
        if key == key2:
            return size
        return sum((places & places2).values()) if kind == kind2 else 0

    def match(i: int, used: frozenset, total: int) -> None:
        nonlocal best
        if i == len(old):
            best = max(best, total)
            return
        match(i + 1, used, total)
        for k in range(len(new)):
            if k not in used and share(i, k):
                match(i + 1, used | {k}, total + share(i, k))

    match(0, frozenset(), 0)
    return best


def _sub_multisets(rack: Counter):
    items = sorted(rack.items(), key=lambda kv: str(kv[0]))
    for ks in product(*[range(k + 1) for _, k in items]):
        yield Counter({t: k for (t, _), k in zip(items, ks) if k})


def brute(spec: Spec, table, table_places, rack: Counter, objective: str, *, melded: bool,
          threshold: int = 30, joker_counts: bool = True, meld_continue: bool = False,
          official: bool = False):
    """``(best score, most table sets kept among best moves, fewest table tiles moved among
    those)``; table sets are lists of ``(is_joker, colour, number)``."""
    table_real = Counter((c, n) for s in table for j, c, n in s if not j)
    table_j = sum(j for s in table for j, _, _ in s)
    table_keys = [_key(s) for s in table]
    best, best_kept = score(Counter(), objective), (len(table), sum(map(len, table)))
    for played in _sub_multisets(rack):
        if not played:
            continue
        sc = score(played, objective)
        if sc < best:
            continue
        real = Counter({t: k for t, k in played.items() if t != "J"})
        if not melded:
            meld_ok = (meld_continue and threshold == 0) or any(value(a, joker_counts) >= threshold
                          for a in (arrangements(spec, real, played["J"]) if not meld_continue
                                    else _any_meld(spec, played)))
            if not meld_ok:
                continue
            if not meld_continue:
                if sc > best:
                    best, best_kept = sc, (len(table), sum(map(len, table)))
                continue
        most = None
        for a in arrangements(spec, table_real + real, table_j + played["J"]):
            if official and not official_ok(spec, table_places, a, played):
                continue
            k = (kept(table_keys, a), stays(table, a))
            most = k if most is None else max(most, k)
        if most is None:
            continue
        if sc > best:
            best, best_kept = sc, most
        elif sc == best:
            best_kept = max(best_kept, most)
    return best, best_kept[0], sum(map(len, table)) - best_kept[1]


def _any_meld(spec: Spec, played: Counter):
    for sub in _sub_multisets(played):
        if sub:
            real = Counter({t: k for t, k in sub.items() if t != "J"})
            yield from arrangements(spec, real, sub["J"])
