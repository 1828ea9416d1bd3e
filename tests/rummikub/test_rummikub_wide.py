"""The wide tile sets (5-8 colours, numbers up to 26; 1-4 copies, up to 3 jokers, sets of
2-12 tiles at least) against the reference oracle.

They are solved by the width-generic DP (:mod:`solvers.rummikub.wide`), not by filtering
the default's answer.  Random positions on random wide tile sets and rules, melded or not,
with random thresholds, both objectives and least disturbance on or off: the DP's optimum
(tiles, value, jokers played, and with least disturbance the sets kept) is the oracle's,
and the DP's table is valid under the rules with every tile conserved.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import RuleError, TileError
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules


def _wide_case(seed: int, least: bool = False):
    rng = random.Random(seed)
    colours = rng.choice((3, 4, 5, 6, 7, 8))
    numbers = rng.randint(14, 26) if colours <= 4 else rng.choice((8, 13, 17, 26))
    rules = Rules(least_disturbance=least, colours=colours, numbers=numbers,
                  copies=rng.randint(1, 2), jokers=rng.choice((0, 1, 2, 2)),
                  meld_threshold=rng.choice((0, 10, 30, 60)),
                  meld_joker=rng.choice(("stands-for", "zero")))
    small = rng.random() < 0.4
    table, rack = random_table_and_rack(rng, rules, 3 if small else 14, 5 if small else 14, 0.7)
    melded = least or rng.random() < 0.7
    return rules, table, rack, melded


@pytest.mark.parametrize("seed", range(60))
def test_wide_tile_sets_match_the_oracle(seed):
    same_as_the_oracle(*_wide_case(seed))


def _generalised_case(seed: int, least: bool):
    """A wide tile set with 1-4 copies, up to three jokers (no more than the set length)
    and sets of 2-6 tiles at least, within the wide DP's key (else redrawn)."""
    rng = random.Random(seed)
    while True:
        colours = rng.choice((3, 4, 5, 6, 8))
        numbers = rng.randint(14, 20) if colours <= 4 else rng.choice((8, 13, 17))
        length = rng.choice((2, 3, 3, 4, 5, 6))
        rules = Rules(least_disturbance=least, colours=colours, numbers=numbers,
                      copies=rng.randint(1, 4), jokers=rng.randint(0, min(3, length)),
                      min_set_length=length, meld_threshold=rng.choice((0, 10, 30)))
        if not rules.unsupported():
            break
    table, rack = random_table_and_rack(rng, rules, rng.choice((3, 8)), rng.choice((5, 10)),
                                        0.7)
    return rules, table, rack, least or rng.random() < 0.7


@pytest.mark.parametrize("seed", range(2000, 2040))
def test_wide_generalised_tile_sets_match_the_oracle(seed):
    same_as_the_oracle(*_generalised_case(seed, least=False))


@pytest.mark.parametrize("seed", range(3000, 3030))
def test_wide_generalised_least_disturbance_matches_the_oracle(seed):
    same_as_the_oracle(*_generalised_case(seed, least=True))


@pytest.mark.parametrize("seed", range(1000, 1030))
def test_wide_least_disturbance_matches_the_oracle(seed):
    same_as_the_oracle(*_wide_case(seed, least=True))


def test_wide_tile_sets_by_hand():
    rules = Rules(colours=8, numbers=26)
    # groups of up to eight colours, and a run past 13: least disturbance keeps the group
    move = best_move([["K20", "R20", "O20"]], "B20 G20 Y20 P20 W20 W14 W15 W16", rules=rules)
    assert move.tiles == 8 and move.sets_kept == 1
    assert sorted(len(m) for m in move.table) == [3, 3, 5]
    move = best_move([["K20", "R20", "O20"]], "B20 G20 Y20 P20 W20 W14 W15 W16",
                     rules=Rules(colours=8, numbers=26, least_disturbance=False))
    assert move.tiles == 8
    # a joker at the top of a 26-number run, none past it
    move = best_move([], "P24 P25 J", initial_meld_done=False, rules=Rules(
        colours=7, numbers=26, meld_threshold=75))
    assert [str(s) for s in move.table[0]] == ["P24", "P25", "J(P26)"]
    assert best_move([], "P25 P26 J", False, rules=Rules(colours=7, numbers=26,
                                                            meld_threshold=76)).tiles == 0
    assert best_move([], "P25 P26 J", False, rules=Rules(
        colours=7, numbers=26, meld_threshold=75, meld_joker="zero")).tiles == 0
    # least disturbance keeps the eight-colour group and takes the run's end
    table = [["K9", "R9", "O9", "B9", "G9", "Y9"], ["W7", "W8", "W9", "W10"]]
    move = best_move(table, "W11 P9", rules=Rules(colours=8))
    assert move.tiles == 2 and move.sets_kept == 0
    move = best_move(table, "W11", rules=Rules(colours=8))
    assert move.tiles == 1 and move.sets_kept == 1


def test_wide_tiles_are_read_only_under_wide_rules():
    with pytest.raises(TileError, match=r"number must be 1\.\.13"):
        best_move([], "K14 K15 K16")
    with pytest.raises(TileError, match="not in the tile set"):
        best_move([], "K14 K15 K16", rules=Rules(numbers=15))
    with pytest.raises(TileError, match="unknown tile"):
        best_move([], "K27 K25 K26", rules=Rules(numbers=26))
    with pytest.raises(TileError, match="not in the tile set"):
        best_move([], "Y1 Y2 Y3", rules=Rules(colours=5, numbers=14))
    assert best_move([], "K14 K15 K16", rules=Rules(numbers=16)).tiles == 3


@pytest.mark.parametrize("options", [["joker_retrieval=official"], ["min_real_tiles=2"],
                                     ["meld_continue=on"],
                                     ["min_set_length=2", "jokers=3"]])
def test_wide_tile_sets_refuse_what_their_dp_lacks(options):
    for wide in ("colours=5", "numbers=14"):
        with pytest.raises(RuleError, match=rf"{wide} with .* not supported by the exact"):
            best_move([], "K1 K2 K3", rules=Rules.parse([wide, *options]))


def test_wide_tile_sets_refuse_codes_past_the_key():
    # eight colour codes of sets of 12+ with seven open runs: 16 bits each, past 64 bits
    with pytest.raises(RuleError, match=r"colours=5 with min_set_length=12, copies=4 and "
                                        r"jokers=3 is not supported"):
        best_move([], "K1 K2 K3", rules=Rules(colours=5, min_set_length=12, copies=4, jokers=3))
    assert not Rules(colours=8, copies=4, jokers=2).unsupported()


def test_wide_generalised_by_hand():
    rules = Rules(colours=6, numbers=16, copies=4, jokers=3, min_set_length=4)
    # four copies of a tile make four groups (with the jokers), runs of four at least
    move = best_move([], "K5 K5 K5 K5 R5 R5 R5 R5 O5 O5 O5 O5 J J J B5", False, rules=rules)
    assert move.tiles == 16 and sorted(len(m) for m in move.table) == [4, 4, 4, 4]
    move = best_move([["G14", "G15", "G16", "J"]], "G13 J", rules=rules)
    assert move.tiles == 2 and move.sets_kept == 0
    assert best_move([], "Y1 Y2 Y3", False, rules=rules).tiles == 0
    assert best_move([], "Y1 Y2 J", False, rules=Rules(colours=6, min_set_length=2,
                                                       jokers=1, meld_threshold=3)).tiles == 3
    # as many jokers as the set length: jokers alone make no set, with a real tile they do
    three = Rules(colours=6, numbers=15, jokers=3, meld_threshold=0)
    assert best_move([], "J J J", False, rules=three).tiles == 0
    assert best_move([], "J J J Y15", False, rules=three).tiles == 4
    move = best_move([["K14", "K15", "J"], ["R1", "R2", "J"]], "J G7", rules=three)
    assert move.tiles == 1 and all(any(not s.tile.is_joker for s in m) for m in move.table)
    two = Rules(colours=5, min_set_length=2, jokers=2, meld_threshold=0)
    assert best_move([], "J J", False, rules=two).tiles == 0
    assert best_move([["K1", "J"]], "J", rules=two).tiles == 1


def test_wide_batch_of_positions():
    rules = Rules(colours=6, numbers=18)
    limits = rules.position_limits()
    ps = [Position.from_strings(["Y16 Y17 Y18"], "Y15 G15 K15", True, **limits),
          Position.from_strings([], "G18 Y18 K18 J", False, **limits)]
    moves = best_moves(ps, "tiles", rules=rules)
    assert [m.tiles for m in moves] == [3, 4]
