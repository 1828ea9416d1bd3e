"""The dominance of the DP's layers under two real tiles per set with three or four copies
(six or seven open runs a colour over numbered codes, the runs short of real tiles listed in
the second key word): :func:`solvers.rummikub._real2.drop_dominated_listed` drops a state
whose colour's runs, one of them longer or with more real tiles (or one long run more),
make another state of the layer with a score at least as high.  The oracle draws below
lay several runs of a colour side by side, jokers among them, where it bites; the
``_more_rules`` draws of ``test_rummikub_three_copies_real2`` check the rest."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rummikub_random_sets import oracle_and_batch, same_as_the_oracle

from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile
from solvers.rummikub._layout import COLOUR_BITS, SHORT_HIGH_AT
from solvers.rummikub._lengths import _rank_of, length_tables
from solvers.rummikub._pairs import rehash
from solvers.rummikub._real2 import (
    RUN_LENGTH,
    RUN_REAL,
    UP_FROM,
    UP_TO,
    drop_dominated_listed,
    short_pack3,
)

DIGITS, BINOM = length_tables(3, 7)


def _code(a1: int, a2: int, a3: int) -> int:
    return int(_rank_of(np.array([a1, a2, a3], np.int64), BINOM))


def _state(codes: dict[int, tuple[int, int, int]], listed: dict[int, list[int]]):
    """``(key, key2)`` of the colours' class counts and listed runs by kind (0 one joker,
    1 a joker and a real tile, 2 two jokers, 3 length 3+ and one real tile, 4 three jokers)."""
    key = 0
    for c, counts in codes.items():
        key |= _code(*counts) << (COLOUR_BITS * c)
    packed = 0
    for c, kinds in listed.items():
        by_kind = [kinds.count(k) for k in range(5)]
        packed = short_pack3(packed, c, *by_kind)
        assert packed >= 0
    return key, packed << SHORT_HIGH_AT


def _kept(states: list[tuple[int, int]], scores: list[int]) -> list[bool]:
    k1 = np.array([s[0] for s in states], np.int64)
    k2 = np.array([s[1] for s in states], np.int64)
    score = np.array(scores, np.int64)
    table = rehash(k1, k2, 0, len(states), 6)
    drop_dominated_listed(table, 6, 0, len(states), k1, k2, score, DIGITS, BINOM)
    return (k1 >= 0).tolist()


def test_the_moves_are_the_order_of_length_and_real_tiles():
    ups = set(zip(UP_FROM.tolist(), UP_TO.tolist(), strict=True))
    for a in range(8):
        for b in range(8):
            wider = (a != b and RUN_LENGTH[b] >= RUN_LENGTH[a] and RUN_REAL[b] >= RUN_REAL[a])
            assert ((a, b) in ups) == wider
    assert (-1, 7) in ups  # one long run more
    assert len(ups) == 24


@pytest.mark.parametrize(("weaker", "stronger"), [
    # a joker and a real tile (listed) -> two real tiles (code, length 2)
    (({0: (0, 0, 1)}, {0: [1]}), ({0: (0, 1, 1)}, {})),
    # one real tile (code) -> a joker and a real tile (listed)
    (({0: (1, 0, 0)}, {1: [0]}), ({}, {0: [1], 1: [0]})),
    # one joker -> two jokers (both listed), another colour's entry kept
    (({2: (0, 0, 2)}, {2: [0], 3: [2]}), ({2: (0, 0, 2)}, {2: [2], 3: [2]})),
    # three jokers -> length 3+ with one real tile
    (({1: (2, 0, 0)}, {1: [4]}), ({1: (2, 0, 0)}, {1: [3]})),
    # one long run more
    (({3: (1, 1, 0)}, {}), ({3: (1, 1, 1)}, {})),
])
def test_a_state_with_a_stronger_run_of_a_score_as_high_drops_it(weaker, stronger):
    a, b = _state(*weaker), _state(*stronger)
    assert _kept([a, b], [10, 10]) == [False, True]
    assert _kept([b, a], [10, 11]) == [True, True]  # (a scores more: both stay)


def test_no_drop_where_more_than_one_run_differs_or_another_colour_is_weaker():
    a = _state({0: (1, 0, 0), 1: (0, 1, 0)}, {})
    two_runs = _state({0: (0, 0, 1), 1: (0, 0, 1)}, {})  # (two colours better: not a move)
    mixed = _state({0: (0, 1, 0), 1: (1, 0, 0)}, {})  # (one better, one worse)
    assert _kept([a, two_runs, mixed], [5, 9, 9]) == [True, True, True]
    listed_lost = _state({0: (0, 0, 1)}, {0: [0]})  # (a joker run of colour 0 dropped)
    assert _kept([listed_lost, _state({0: (0, 0, 2)}, {1: [0]})], [3, 3]) == [True, True]


def _side_by_side_rules(rng: random.Random, least: bool) -> Rules:
    jokers = rng.choice((3, 3, 2, 1))
    return Rules(copies=rng.choice((3, 4)), min_real_tiles=2, least_disturbance=least,
                 jokers=jokers, colours=rng.randint(2, 3), numbers=rng.randint(6, 10),
                 meld_threshold=0)


def _side_by_side(seed: int, least: bool):
    """Runs of one or two colours laid side by side (three or four copies), jokers on the
    table among them and on the rack, the rack of tiles near them."""
    rng = random.Random(seed)
    rules = _side_by_side_rules(rng, least)
    letters = ALL_COLOURS[: rules.colours]
    pool = {(c, n): rules.copies for c in letters for n in range(1, rules.numbers + 1)}
    jokers = rules.jokers
    table = []
    for _ in range(rng.randint(3, 6)):
        c = rng.choice(letters[:2])
        start = rng.randint(1, rules.numbers - 2)
        run = [(c, n) for n in range(start, min(rules.numbers, start + rng.randint(2, 4)) + 1)]
        if any(pool[t] == 0 for t in run):
            continue
        for t in run:
            pool[t] -= 1
        tiles = [Tile(c, n) for c, n in run]
        if jokers and rng.random() < 0.4 and len(tiles) > 3:
            tiles[rng.randrange(len(tiles))] = JOKER
            jokers -= 1
        table.append(tiles)
    left = [Tile(c, n) for (c, n), k in pool.items() if c in letters[:2] for _ in range(k)]
    rack = rng.sample(left, min(len(left), rng.randint(2, 8))) + [JOKER] * jokers
    return rules, table, rack, True


@pytest.mark.parametrize("seed", range(48))
def test_runs_side_by_side_match_the_oracle(seed):
    (same_as_the_oracle if seed % 3 == 2 else oracle_and_batch)(
        *_side_by_side(seed + 9100, seed % 3 == 2))
