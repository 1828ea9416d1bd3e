"""A fourth joker (``Rules(jokers=4)``): the DP against the oracle and brute force.

Four jokers can make a run of jokers alone three or four tiles long, which is no set.  The
DP lists the runs of jokers alone that could still end so in its second key word
(``solvers/rummikub/_risky.py``), and the replay searches the same joker placements
(``_melds._runs_four_jokers``).  Random positions on random tile sets (2-4 colours, 5-13
numbers, 1-3 copies), most jokers on the rack, melded or not, both objectives: the optimum
(tiles, value, jokers played; with least disturbance the sets kept) is the integer
programme's, and the DP's table is valid under the rules.  Small positions against the
brute force of ``rummikub_variant_naive.py`` too.
"""

from __future__ import annotations

import importlib.util
import random
from dataclasses import replace
from pathlib import Path

import pytest
from rummikub_random_sets import brute_force_rack, oracle_tests, same_as_brute_force

from engines.rummikub import best_move
from engines.rummikub.errors import RuleError, TileError
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules

_SPEC = importlib.util.spec_from_file_location(
    "rummikub_variant_naive", Path(__file__).resolve().parent / "rummikub_variant_naive.py")
naive = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(naive)

FOUR = Rules(jokers=4, least_disturbance=False)


def _rules(rng: random.Random, least: bool = False) -> Rules:
    return Rules(jokers=4, least_disturbance=least, colours=rng.randint(2, 4),
                 numbers=rng.randint(5, 13), copies=rng.randint(1, 3),
                 meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")))


# (the few real tiles' draws: every joker not on the table on the rack, beside one to four
# real tiles: runs of jokers alone are the rule's only threat, and here they are cheap)
(test_four_jokers_match_the_oracle,
 test_four_jokers_with_few_real_tiles_match_the_oracle,
 test_four_jokers_with_least_disturbance_match_the_oracle) = oracle_tests(
    _rules, (40, 1400), (30, 1500), (8, 1600), least_few=False, few_most=4, small_rack=4,
    most_rack=10, rack_jokers=0.9)


def _brute_case(seed: int):
    rng = random.Random(seed)
    spec = naive.Spec(rng.randint(2, 3), rng.randint(4, 7), rng.randint(1, 2), 4, 3, 1)
    table = []
    if rng.random() < 0.5:  # a run of the first colour with a joker, or a group with one
        n = rng.randint(1, spec.numbers - 2)
        table = [[(False, "K", n), (True, "K", n + 1), (False, "K", n + 2)]]
        if spec.colours == 3 and rng.random() < 0.5:
            table = [[(False, "K", n), (False, "R", n), (True, "O", n)]]
    return spec, table, brute_force_rack(rng, spec, table, 5)


@pytest.mark.parametrize("seed", range(40))
def test_four_jokers_match_brute_force(seed):
    spec, table, rack = _brute_case(seed + 1700)
    melded = bool(table) or seed % 2 == 0
    objective = ("tiles", "value")[seed % 3 == 0]
    rules = Rules(colours=spec.colours, numbers=spec.numbers, copies=spec.copies, jokers=4,
                  meld_threshold=0, least_disturbance=False)
    same_as_brute_force(naive, spec, table, rack, melded, objective, rules)


def test_four_jokers_by_hand():
    assert best_move([], "J J J J", rules=FOUR).tiles == 0  # jokers alone: no set
    assert best_move([], "J J J J R5", rules=FOUR).tiles == 5  # R5 with four jokers
    assert best_move([], "J J J J R5 K9", rules=FOUR).tiles == 6  # R5 J J, K9 J J
    assert best_move([["K1", "K2", "K3"]], "J J J J", rules=FOUR).tiles == 4
    assert best_move([["R11", "R12", "R13"]], "J J J J", rules=FOUR).tiles == 4
    assert best_move([], "R5 R10 J J J J", rules=FOUR).tiles == 6  # R5 J J J J R10
    assert best_move([], "R1 R2 R5 R6 J J J J", rules=FOUR).tiles == 8
    move = best_move([["K1", "K2", "K3"], ["O7", "O8", "O9"]], "J J J J B13", rules=FOUR)
    assert move.tiles == 5 and all(any(not s.tile.is_joker for s in m) for m in move.table)
    # four jokers in groups: K5 R5 J J twice (two copies)
    assert best_move([], "K5 K5 R5 R5 J J J J", rules=FOUR).tiles == 8
    assert best_move([], "R10 R11 J J J J", False, rules=FOUR).tiles == 6  # R8..R13: 63
    assert best_move([], "J J J J", False, rules=replace(FOUR, meld_threshold=0)).tiles == 0
    for copies in (1, 3):
        rules = replace(FOUR, copies=copies)
        assert best_move([], "J J J J", rules=rules).tiles == 0
        assert best_move([], "B7 J J J J", rules=rules).tiles == 5
    with pytest.raises(TileError, match="4 jokers"):
        best_move([], "J J J J R5", rules=Rules(jokers=3))
    for options in (["copies=4"], ["min_set_length=2"],  # (sets of 4+: the wide DP's,
                    ["meld_continue=on"]):  # test_rummikub_wide_four_jokers.py; official,
        # two real tiles: their own tests)
        with pytest.raises(RuleError, match=r"jokers=4 with .*not supported by the exact"):
            best_move([], "J J J J R5", rules=Rules.parse(["jokers=4", *options]))


def test_four_jokers_least_disturbance_by_hand():
    rules = Rules(jokers=4)
    table = [["K1", "K2", "K3"], ["R4", "J", "R6"]]
    move = best_move(table, "J J J R7", rules=rules)
    assert move.tiles == 4 and move.sets_kept == 2  # R7 J J J beside both sets
    assert sum(t.is_joker for t in move.played) == 3


def test_wider_searches_for_the_whole_rack_keep_the_optimum():
    # Large joker tables with four jokers (and four copies): the search for an arrangement
    # playing the whole rack keeps 32 states a layer, then 512 and 2,048
    # (solvers.rummikub._aims.WIDER_FLEXIBLE) before the exact pass.  The optimum equals
    # the exact pass's alone (beam 0), and some positions need the wider searches.
    import numpy as np

    from engines.rummikub.generate import rummikub_positions
    from engines.rummikub.position import _counts, objective_weights
    from solvers.rummikub._dp import solve_pass
    from solvers.rummikub._exact import solve_arrays
    from solvers.rummikub._one_pass import _playable, playable_width

    weight, joker_weight = objective_weights("tiles")
    missed = compared = 0
    for copies in (2, 4):
        rules = Rules(jokers=4, copies=copies, least_disturbance=False)
        group_ok = rules.group_tables()[0]
        for pos in rummikub_positions(12, seed=5, table_tiles=(55, 65), joker_rate=1.0):
            if pos["rack"].count("J") + sum(s.count("J") for s in pos["table"]) == 0:
                continue
            p = Position.from_json(dict(pos, rack=pos["rack"] + ["J", "J"],
                                        initial_meld_done=True), max_jokers=4,
                                   max_copies=copies)
            must, must_j = _counts(p.table_tiles)
            rack, rack_j = _counts(p.rack)
            mode = int(rules.search_mode(True, list(p.table)))
            exact, passes = [
                [int(a[0]) for a in solve_arrays(
                    must[None], rack[None], np.array([must_j]), np.array([rack_j]),
                    weight[None], np.array([joker_weight]), np.array([mode]), beam=beam,
                    group_ok=group_ok)[:2]]
                for beam in (0, 128)]
            assert exact == passes, pos
            opt = _playable(must, rack, must_j + rack_j, playable_width(mode))
            target = must_j * joker_weight + rack_j * joker_weight + int((opt * weight).sum())
            # (hold and budget given, as every test gives them: one compiled form of solve_pass)
            narrow = solve_pass(must, opt, must_j, rack_j, weight, joker_weight, mode, group_ok,
                                np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64),
                                np.zeros(2, np.int64), target, -32, None, 0)
            reached = exact[1] + must_j * joker_weight >= target
            missed += reached and not (narrow[0] == 1 and narrow[1] + must_j * joker_weight
                                       >= target)
            compared += 1
    assert compared >= 16 and missed >= 1, (compared, missed)
