"""The dominance of the DP's layers under two real tiles per set with three or four copies
(six or seven open runs a colour over numbered codes, the runs short of real tiles listed in
the second key word): :func:`solvers.rummikub._real2_dominance.drop_dominated_listed` drops
a state whose runs, colour by colour, go each to a distinct run of another state of the
layer at least as long and with at least as many real tiles, the other's runs left over
long with two real tiles, where the other's score is at least as high.  The oracle draws below
lay several runs of a colour side by side, jokers among them, where it bites; the
``_more_rules`` draws of ``test_rummikub_three_copies_real2`` check the rest."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from rummikub_random_sets import oracle_and_batch, same_as_the_oracle

from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile
from solvers.rummikub._layout import COLOUR_BITS, SHORT_HIGH_AT
from solvers.rummikub._lengths import _rank_of, length_tables
from solvers.rummikub._real2 import short_pack3
from solvers.rummikub._real2_dominance import (
    AS_STRONG,
    AS_WEAK,
    GUARDS,
    MOST_RUNS,
    RUN_LENGTH,
    RUN_REAL,
    TOTAL_FIELD,
    drop_dominated_listed,
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
    drop_dominated_listed(0, len(states), k1, k2, score, DIGITS)
    return (k1 >= 0).tolist()


def _matched(weak: list[int], strong: list[int]) -> bool:
    """Whether the runs (types) ``weak`` go each to a distinct run of ``strong`` of at least
    their length and real tiles, ``strong``'s left over all long with two real tiles (every
    assignment tried)."""
    if len(weak) > len(strong):
        return False
    return any(
        all(RUN_LENGTH[strong[j]] >= RUN_LENGTH[t] and RUN_REAL[strong[j]] >= RUN_REAL[t]
            for t, j in zip(weak, chosen, strict=True))
        and all(strong[j] == 7 for j in range(len(strong)) if j not in chosen)
        for chosen in itertools.permutations(range(len(strong)), len(weak)))


def _packed(runs: list[int], table: np.ndarray) -> int:
    return sum(int(table[t]) for t in runs) | (MOST_RUNS - len(runs)) << 4 * TOTAL_FIELD


def test_the_packed_comparison_is_the_matching():
    # the guard-bit subtraction of a colour's packed counts says what trying every
    # assignment says, over random colours of up to four runs against up to five
    rng = random.Random(3)
    both = 0
    for _ in range(4000):
        weak = [rng.randrange(8) for _ in range(rng.randint(0, 4))]
        strong = [rng.randrange(8) for _ in range(rng.randint(len(weak), 5))]
        if rng.random() < 0.5:  # (near a dominator: the weak runs moved up, long runs added)
            strong = [min(7, t + rng.choice((0, 0, 1, 3))) for t in weak] + [7] * rng.randint(0, 1)
        packed = ((_packed(weak, AS_WEAK) | GUARDS) - _packed(strong, AS_STRONG)) & GUARDS
        assert (packed == GUARDS) == _matched(weak, strong), (weak, strong)
        both += packed == GUARDS
    assert 500 < both < 3500


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


def test_moves_in_two_colours_or_two_runs_of_a_colour_drop_it():
    # (the one-move dominance before kept ``a`` beside each of these)
    a = _state({0: (1, 0, 0), 1: (0, 1, 0)}, {})
    two_colours = _state({0: (0, 0, 1), 1: (0, 0, 1)}, {})
    assert _kept([a, two_colours], [5, 9]) == [False, True]
    assert _kept([a, two_colours], [10, 9]) == [True, True]
    two_runs = _state({0: (2, 0, 0)}, {3: [0]})  # (two runs of one real tile)
    longer = _state({0: (0, 0, 1)}, {0: [3], 3: [0]})  # (one long, one length 3+ of one real)
    assert _kept([two_runs, longer], [4, 4]) == [False, True]


def test_no_drop_where_a_colour_is_weaker_or_a_short_run_left_over():
    a = _state({0: (1, 0, 0), 1: (0, 1, 0)}, {})
    mixed = _state({0: (0, 1, 0), 1: (1, 0, 0)}, {})  # (one better, one worse)
    assert _kept([a, mixed], [5, 9]) == [True, True]
    listed_lost = _state({0: (0, 0, 1)}, {0: [0]})  # (a joker run of colour 0 dropped)
    assert _kept([listed_lost, _state({0: (0, 0, 2)}, {1: [0]})], [3, 3]) == [True, True]
    # a run of two real tiles left over (length 2: it must go on) is no long run more
    assert _kept([_state({2: (0, 0, 1)}, {}), _state({2: (0, 1, 1)}, {})], [3, 3]) == [True, True]


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
