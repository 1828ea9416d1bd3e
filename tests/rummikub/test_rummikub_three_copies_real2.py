"""A third or fourth copy with two real tiles per set (``Rules(copies=3, min_real_tiles=2)``).

With three copies a colour may give three tiles to a number's groups, counted in the key
bits where the runs short of real tiles are listed under two copies; the DP then lists
those runs in its second key word (``solvers/rummikub/_layout.py``: ``second_word``,
``SHORT_HIGH_AT``).  Random positions on random tile sets (2-4 colours, 5-13 numbers, up
to two jokers, free or official retrieval), jokers on the table and the rack, melded or
not, both objectives, least disturbance on and off: the optimum (tiles, value, jokers
played; with least disturbance the sets kept) is the integer programme's, and the DP's
table is valid under the rules.  With three copies and three jokers, or four copies, a
colour has up to six or seven open runs, numbered by length class, and the DP's joker
placements are ``solvers/rummikub/_real2.long_joker_runs3``'s (the ``_more_rules`` draws:
up to three jokers, official retrieval with two at most).
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from rummikub_random_sets import oracle_and_batch, random_case, same_as_the_oracle

from engines.rummikub import best_move
from engines.rummikub.errors import RuleError
from engines.rummikub.rules import Rules
from solvers.rummikub._layers import obligations, obligations_pair
from solvers.rummikub._layout import N3_AT, SHORT_AT, SHORT_HIGH_AT

THIRD_COPY = Rules(copies=3, min_real_tiles=2, least_disturbance=False)


def _rules(rng: random.Random, least: bool) -> Rules:
    return Rules(copies=3, min_real_tiles=2, least_disturbance=least,
                 jokers=rng.choice((0, 1, 2, 2)), colours=rng.randint(2, 4),
                 numbers=rng.randint(5, 13), meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval=rng.choice(("free", "free", "official")))


def _more_rules(rng: random.Random, least: bool) -> Rules:
    """Six or seven open runs a colour: three copies and three jokers, or four copies."""
    jokers = rng.choice((3, 3, 3, 2, 1, 0))
    return Rules(copies=rng.choice((3, 4)), min_real_tiles=2, least_disturbance=least,
                 jokers=jokers, colours=rng.randint(2, 4), numbers=rng.randint(5, 13),
                 meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval="free" if jokers > 2 else rng.choice(("free", "official")))


# the draws: three copies and up to two jokers (five open runs a colour, base-5 codes), and
# six or seven open runs (numbered codes), with their seeds' offsets
_DRAWS = {"five runs": (_rules, 0), "numbered codes": (_more_rules, 300)}


def _case(draw: str, seed: int, least: bool = False, few: bool = False):
    rules, offset = _DRAWS[draw]
    return random_case(rules, seed + offset, least, few, few_most=6, most_rack=14)


@pytest.mark.parametrize("draw", _DRAWS)
@pytest.mark.parametrize("seed", range(60))
def test_third_copy_two_real_tiles_match_the_oracle(draw, seed):
    oracle_and_batch(*_case(draw, seed + 3500))


@pytest.mark.parametrize("draw", _DRAWS)
@pytest.mark.parametrize("seed", range(40))
def test_third_copy_two_real_tiles_with_few_real_tiles(draw, seed):
    oracle_and_batch(*_case(draw, seed + 3600, few=True))


@pytest.mark.parametrize("draw", _DRAWS)
@pytest.mark.parametrize("seed", range(30))
def test_third_copy_two_real_tiles_with_least_disturbance(draw, seed):
    same_as_the_oracle(*_case(draw, seed + 3700, least=True, few=seed % 2 == 1))


def test_third_copy_two_real_tiles_by_hand():
    # three copies of R5 in a group and a run while two runs hold a joker and a real tile
    move = best_move([], "R5 R5 R5 K5 O5 B5 K5 O5 B5 R6 J R8 K8 J K10", rules=THIRD_COPY)
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    assert move.tiles == 15
    assert best_move([], "R5 J R7 R5 R5", rules=THIRD_COPY).tiles == 3
    # one real tile and two jokers: a set under one real tile per set only
    assert best_move([], "R5 J J R5 R5", rules=THIRD_COPY).tiles == 0
    assert best_move([], "R5 J J R5 R5", rules=Rules(copies=3, least_disturbance=False)).tiles == 3


def test_numbered_codes_two_real_tiles_by_hand():
    three = Rules(copies=3, jokers=3, min_real_tiles=2, least_disturbance=False)
    # three runs of a colour, each a joker between two real tiles
    move = best_move([], "R1 R1 R1 J J J R3 R3 R3", rules=three)
    assert move.tiles == 9 and len(move.table) == 3
    # three jokers between two real tiles; one real tile and three jokers never
    assert best_move([], "R1 R5 J J J", rules=three).tiles == 5
    assert best_move([], "R1 R1 R1 J J J", rules=three).tiles == 0
    assert best_move([], "R1 R1 R1 J J J", rules=replace(three, min_real_tiles=1)).tiles == 4
    four = Rules(copies=4, jokers=3, min_real_tiles=2, least_disturbance=False)
    # four runs of one colour, one a joker between two real tiles
    move = best_move([], "R1 R1 R1 R1 R2 R2 R2 J R3 R3 R3 R3 K9", rules=four)
    assert move.tiles == 12 and len(move.table) == 4
    # three jokers for four runs: three runs of a joker between two real tiles
    assert best_move([], "R1 R1 R1 R1 J J J R3 R3 R3 R3", rules=four).tiles == 9


def test_third_copy_two_real_tiles_refused_crossings():
    # (jokers=3 with official retrieval is solved beside them: the cover's third-joker bits
    # in word B, tests/rummikub/test_rummikub_official_three_jokers.py; jokers=4 too, the
    # list's fourth slot in word B: tests/rummikub/test_rummikub_four_jokers_real2.py)
    assert Rules.parse(["copies=3", "min_real_tiles=2", "jokers=4"]).unsupported() == []
    # (sets of 4 with two jokers: two real tiles bind no set: test_rummikub_unbound_rules.py)
    for options in (["min_set_length=4", "jokers=3"], ["meld_continue=on"]):
        with pytest.raises(RuleError, match="not supported by the exact"):
            best_move([], "R1 R5 R5 R5 J", rules=Rules.parse(["copies=3", "min_real_tiles=2",
                                                              *options]))


def test_the_beam_counts_the_list_in_the_second_word():
    # (the narrow passes' ranking, _layers.obligations_pair: with three or four copies the
    # first word's list bits hold the group counts n3 and n4 inside a number)
    slot = np.int64(1 + 4 * 2)  # colour 2, a run of one joker
    two = slot | slot << 5
    assert obligations(two << SHORT_AT) == obligations(np.int64(0)) + 16
    assert obligations_pair(np.int64(3) << N3_AT, two << SHORT_HIGH_AT, True) == obligations(
        two << SHORT_AT)
    three = two | slot << 10
    assert obligations_pair(np.int64(0), three << SHORT_HIGH_AT, True) == obligations(
        two << SHORT_AT) + 8
