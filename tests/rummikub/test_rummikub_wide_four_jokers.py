"""A fourth joker with sets of 4-12 tiles at least (``Rules(jokers=4, min_set_length=L)``),
solved by the width-generic DP (``Rules.wide_search``): the oracle and brute force.

With fewer jokers than L no run of jokers alone reaches a set's length; with four jokers and
sets of 4 the DP's key tracks the one run of jokers alone that could, which then holds every
joker (its length up to four: ``solvers/rummikub/wide/_steps.bare_step``).  Random positions
on random tile sets (2-4 colours, 1-4 copies, thresholds 0-30, either joker value, most
jokers on the rack, melded or not, both objectives): the optimum (tiles, value, jokers
played; with least disturbance the sets kept) is the integer programme's and the DP's table
is valid; small positions against the brute force of ``rummikub_variant_naive.py`` (the sets
kept too).
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest
from rummikub_random_sets import (
    brute_force_rack,
    random_table_and_rack,
    same_as_brute_force,
    same_as_the_oracle,
)

from engines.rummikub import Rules, best_move

_SPEC = importlib.util.spec_from_file_location(
    "rummikub_variant_naive", Path(__file__).resolve().parent / "rummikub_variant_naive.py")
naive = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(naive)


def oracle_case(seed: int, least: bool):
    """Random rules with four jokers and sets of 4-12 (sets of 4 most often: the run of four
    jokers alone), a random position of them and whether the player has melded."""
    rng = random.Random(seed)
    length = rng.choice((4, 4, 4, 5, 6, 9, 12))
    rules = Rules(least_disturbance=least, colours=rng.randint(2, 4),
                  numbers=rng.randint(min(13, length + 1), 13),
                  copies=rng.randint(1, 4 if length < 11 else 3), jokers=4,
                  min_set_length=length, meld_threshold=rng.choice((0, 10, 30)),
                  meld_joker=rng.choice(("stands-for", "zero")))
    assert rules.wide_search and not rules.unsupported(), rules
    small = rng.random() < 0.5  # few tiles: the jokers decide more answers
    table, rack = random_table_and_rack(rng, rules, 3 if small else 8, 4 if small else 12, 0.9)
    return rules, table, rack, rng.random() < 0.7


@pytest.mark.parametrize("seed", range(16))
def test_four_jokers_with_longer_sets_match_the_oracle(seed):
    same_as_the_oracle(*oracle_case(seed + 2600, least=False))


@pytest.mark.parametrize("seed", range(12))
def test_four_jokers_with_longer_sets_least_disturbance_matches_the_oracle(seed):
    same_as_the_oracle(*oracle_case(seed + 2700, least=True))


def _brute_case(seed: int):
    rng = random.Random(seed)
    length = rng.choice((4, 4, 5))
    spec = naive.Spec(rng.randint(2, 3), rng.randint(length + 1, 9), rng.randint(1, 2), 4,
                      length, 1)
    table = []
    if rng.random() < 0.6:  # a run of the first colour, with a joker or (then the rack
        # may hold all four: a run of four jokers alone beside it would keep it) without
        joker_at = 1 if rng.random() < 0.5 else -1
        # (without: at the bottom, so that a run of the four jokers fits above it)
        n = rng.randint(1, spec.numbers - length + 1) if joker_at > 0 else 1
        table = [[(i == joker_at, "K", n + i) for i in range(length)]]
    return spec, table, brute_force_rack(rng, spec, table, 4)


# (seeds 91 and 130: a table run without a joker and four rack jokers, where a run of four
# jokers alone would keep the table set; the key's 2-bit length before let it through)
@pytest.mark.parametrize("seed", [*range(20), 91, 130])
def test_four_jokers_with_longer_sets_match_brute_force(seed):
    spec, table, rack = _brute_case(seed + 5000)
    for objective in ("tiles", "value"):
        for least in (False, True):
            rules = Rules(colours=spec.colours, numbers=spec.numbers, copies=spec.copies,
                          jokers=4, min_set_length=spec.min_len, meld_threshold=0,
                          least_disturbance=least)
            same_as_brute_force(naive, spec, table, rack, bool(table) or seed % 2 == 0,
                                objective, rules)


def test_four_jokers_with_longer_sets_by_hand():
    four = Rules(jokers=4, min_set_length=4, least_disturbance=False)
    assert best_move([], "J J J J", rules=four).tiles == 0  # four jokers alone: no set
    assert best_move([], "J J J J R5", rules=four).tiles == 5  # one run, one real tile
    assert best_move([], "J J J J R5 K9", rules=four).tiles == 5  # (K9 J J J leaves R5 J)
    # the run of four jokers alone must take a real tile: at the top, below R13
    move = best_move([["K1", "K2", "K3", "K4"]], "J J J J R13", rules=four)
    assert move.tiles == 5 and all(any(not s.tile.is_joker for s in m) for m in move.table)
    # four jokers beside a table set: a run of four jokers alone would keep it, but is no
    # set (a key field of length 3 at most let it through)
    for least in (True, False):
        move = best_move([["K1", "K2", "K3", "K4"]], "J J J J",
                         rules=Rules(jokers=4, min_set_length=4, least_disturbance=least))
        assert move.tiles == 4 and move.sets_kept == 0
        assert all(any(not s.tile.is_joker for s in m) for m in move.table)
    # four jokers in groups of four: K5 R5 J J twice (two copies)
    assert best_move([], "K5 K5 R5 R5 J J J J", rules=four).tiles == 8
    five = Rules(jokers=4, min_set_length=5, copies=4)
    assert best_move([], "J J J J B7", rules=five).tiles == 5
    assert best_move([], "J J J J", False, rules=Rules(jokers=4, min_set_length=6,
                                                       meld_threshold=0)).tiles == 0
