"""Properties of the kernels against the pure-Python oracle (tests/shuangkou/oracle.py)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import shuangkou_oracle as oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from shuangkou_strategies import hands, random_counter, to_array, to_counter

import solvers.shuangkou as K

NAMES = K.TYPE_NAMES


def kernel_combo(cards: Counter, sf_bomb: bool = True):
    code = int(K.classify(to_array(cards), sf_bomb))
    if code == 0:
        return None
    return (NAMES[code >> 16], code & 255, (code >> 8) & 255)


def readings(cards: Counter) -> set[str]:
    """Every type whose section 3 definition the set meets, tested one by one."""
    per_rank = Counter()
    for (r, _s), c in cards.items():
        per_rank[r] += c
    ranks = sorted(per_rank)
    n = sum(cards.values())
    found = set()
    one_rank = len(ranks) == 1
    if one_rank and n == 1:
        found.add("single")
    if one_rank and n == 2:
        found.add("pair")
    if one_rank and n == 3:
        found.add("triple")
    if one_rank and n >= 4:
        found.add("bomb")
    if cards == Counter({(13, 0): 2, (14, 0): 2}):
        found.add("king_bomb")
    run = len(ranks) >= 1 and ranks[-1] <= 11 and ranks == list(range(ranks[0], ranks[-1] + 1))
    for w, kmin, name in ((2, 3, "consecutive_pairs"), (3, 3, "consecutive_triples")):
        if run and len(ranks) >= kmin and all(per_rank[r] == w for r in ranks):
            found.add(name)
    if run and len(ranks) >= 5 and all(per_rank[r] == 1 for r in ranks):
        if len({s for (_r, s) in cards}) == 1:
            found.add("straight_flush")
        else:
            found.add("straight")
    return found


@settings(max_examples=300, deadline=None)
@given(hands(0, 14), st.booleans())
def test_classification_matches_oracle_and_is_unique(cards, sf_bomb):
    got = kernel_combo(cards, sf_bomb)
    assert got == oracle.classify(cards, sf_bomb)
    types = readings(cards)
    assert len(types) <= 1
    if sf_bomb:
        assert (got[0] if got else None) == (types.pop() if types else None)


def _random_combos(rng: random.Random, n: int) -> list[tuple]:
    combos = []
    while len(combos) < n:
        hand = random_counter(rng, rng.randint(5, 27), packed=True)
        plays = oracle.plays(hand) if sum(hand.values()) <= 14 else None
        if plays is None:
            arr = np.zeros((K.count_plays(to_array(hand), 0, True), 15, 4), dtype=np.uint8)
            K.enumerate_plays(to_array(hand), 0, True, arr)
            plays = [to_counter(a) for a in arr]
        combos.extend(oracle.classify(p) for p in rng.sample(plays, min(8, len(plays))))
    return combos


def test_beats_is_a_strict_partial_order_within_a_class():
    rng = random.Random(7)
    combos = _random_combos(rng, 160)
    codes = {c: K.make_code(NAMES.index(c[0]), c[2], c[1]) for c in combos}
    unique = list(codes)
    b = {(x, y): bool(K.code_beats(codes[x], codes[y])) for x in unique for y in unique}
    for x in unique:
        assert not b[x, x]
        for y in unique:
            assert b[x, y] == oracle.beats(x, y)
            assert not (b[x, y] and b[y, x])
            if b[x, y]:
                for z in unique:
                    if b[y, z]:
                        assert b[x, z]


@settings(max_examples=120, deadline=None)
@given(hands(1, 27), hands(1, 10), st.booleans())
def test_enumerated_responses_beat_and_are_held(hand, source, sf_bomb):
    arr = to_array(hand)
    prev_cards = source  # a random combination drawn from another random hand
    prev = oracle.classify(prev_cards, sf_bomb)
    previous = 0 if prev is None else K.make_code(NAMES.index(prev[0]), prev[2], prev[1])
    n = K.count_plays(arr, previous, sf_bomb)
    out = np.zeros((n + 1, 15, 4), dtype=np.uint8)
    written = K.enumerate_plays(arr, previous, sf_bomb, out)
    assert written == n
    seen = set()
    for play in out[:n]:
        assert (play <= arr).all() and play.any()
        code = int(K.classify(play, sf_bomb))
        assert code != 0
        if previous:
            assert K.code_beats(code, previous)
        seen.add(play.tobytes())
    assert len(seen) == n
    codes = np.empty(K.CENSUS_CAPACITY, dtype=np.int64)
    counts = np.empty(K.CENSUS_CAPACITY, dtype=np.int64)
    m = K.census(arr, sf_bomb, codes, counts)
    wanted = [
        c for c, code in zip(counts[:m], codes[:m]) if not previous or K.code_beats(code, previous)
    ]
    assert sum(wanted) == n
    if sum(hand.values()) <= 12:
        expect = oracle.plays(hand, prev if previous else None, sf_bomb)
        assert {to_array(p).tobytes() for p in expect} == seen


@settings(max_examples=60, deadline=None)
@given(hands(1, 9), st.booleans())
def test_counts_equal_brute_force_on_small_hands(hand, sf_bomb):
    arr = to_array(hand)
    brute = oracle.brute_force_plays(hand, None, sf_bomb)
    assert K.count_plays(arr, 0, sf_bomb) == len(brute)
    for target in brute[:5]:
        prev = oracle.classify(target, sf_bomb)
        code = K.make_code(NAMES.index(prev[0]), prev[2], prev[1])
        expect = oracle.brute_force_plays(hand, prev, sf_bomb)
        assert K.count_plays(arr, code, sf_bomb) == len(expect)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 15), st.integers(0, 3), st.integers(0, 3))
def test_trick_next_matches_oracle(mask, last, passes):
    holding = {s for s in range(4) if mask >> s & 1}
    others = len(holding - {last})
    if passes > others or not holding & {0, 2} or not holding & {1, 3}:
        return
    assert tuple(K.trick_next(mask, last, passes)) == oracle.trick_next(holding, last, passes)
