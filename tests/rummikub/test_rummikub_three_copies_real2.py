"""A third copy with two real tiles per set (``Rules(copies=3, min_real_tiles=2)``).

With three copies a colour may give three tiles to a number's groups, counted in the key
bits where the runs short of real tiles are listed under two copies; the DP then lists
those runs in its second key word (``solvers/rummikub/_layout.py``: ``second_word``,
``SHORT_HIGH_AT``).  Random positions on random tile sets (2-4 colours, 5-13 numbers, up
to two jokers, free or official retrieval), jokers on the table and the rack, melded or
not, both objectives, least disturbance on and off: the optimum (tiles, value, jokers
played; with least disturbance the sets kept) is the integer programme's, and the DP's
table is valid under the rules.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import oracle_and_batch, random_case, same_as_the_oracle

from engines.rummikub import best_move
from engines.rummikub.errors import RuleError
from engines.rummikub.rules import Rules

THIRD_COPY = Rules(copies=3, min_real_tiles=2, least_disturbance=False)


def _rules(rng: random.Random, least: bool) -> Rules:
    return Rules(copies=3, min_real_tiles=2, least_disturbance=least,
                 jokers=rng.choice((0, 1, 2, 2)), colours=rng.randint(2, 4),
                 numbers=rng.randint(5, 13), meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval=rng.choice(("free", "free", "official")))


def _case(seed: int, least: bool = False, few: bool = False):
    return random_case(_rules, seed, least, few, few_most=6, most_rack=14)


@pytest.mark.parametrize("seed", range(60))
def test_third_copy_two_real_tiles_match_the_oracle(seed):
    oracle_and_batch(*_case(seed + 3500))


@pytest.mark.parametrize("seed", range(40))
def test_third_copy_two_real_tiles_with_few_real_tiles(seed):
    oracle_and_batch(*_case(seed + 3600, few=True))


@pytest.mark.parametrize("seed", range(30))
def test_third_copy_two_real_tiles_with_least_disturbance(seed):
    same_as_the_oracle(*_case(seed + 3700, least=True, few=seed % 2 == 1))


def test_third_copy_two_real_tiles_by_hand():
    # three copies of R5 in a group and a run while two runs hold a joker and a real tile
    move = best_move([], "R5 R5 R5 K5 O5 B5 K5 O5 B5 R6 J R8 K8 J K10", rules=THIRD_COPY)
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    assert move.tiles == 15
    assert best_move([], "R5 J R7 R5 R5", rules=THIRD_COPY).tiles == 3
    # one real tile and two jokers: a set under one real tile per set only
    assert best_move([], "R5 J J R5 R5", rules=THIRD_COPY).tiles == 0
    assert best_move([], "R5 J J R5 R5", rules=Rules(copies=3, least_disturbance=False)).tiles == 3


def test_third_copy_two_real_tiles_refused_crossings():
    for options in (["copies=4"], ["jokers=3"], ["min_set_length=4"], ["meld_continue=on"]):
        with pytest.raises(RuleError, match="not supported by the exact"):
            best_move([], "R1 R5 R5 R5 J", rules=Rules.parse(["copies=3", "min_real_tiles=2",
                                                              *options]))
