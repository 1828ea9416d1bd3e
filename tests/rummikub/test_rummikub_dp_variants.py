"""The exact search under house rules against the reference oracle (the integer programme).

The DP solves official joker retrieval, two real tiles per set and the tile sets its state
key holds (1-4 colours, numbers up to 13, 1-2 copies, 0-3 jokers) by its own transitions
and group tables, not by filtering the default's answer.  Random positions on random such
tile sets and rules, melded or not, with random thresholds and both objectives: the DP's
optimum (tiles, value, jokers played) is the oracle's, and the DP's table is valid under
the rules (each set checked by the oracle's own set reader) with every tile conserved.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from rummikub_ip_reference import reference_move
from rummikub_random_sets import check_answer as _check_answer
from rummikub_random_sets import oracle_and_batch as _oracle_and_batch
from rummikub_random_sets import random_table_and_rack
from rummikub_random_sets import same_as_the_oracle as _same_as_the_oracle

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import PositionError, RuleError, SetError, TileError
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import Tile


def _random_rules(rng: random.Random) -> Rules:
    # the variants' optimum (least disturbance with them: its own tests below)
    return Rules(least_disturbance=False, colours=rng.randint(2, 4),
                 numbers=rng.randint(5, 13),
                 copies=rng.randint(1, 2), jokers=rng.choice((0, 1, 2, 2)),
                 min_real_tiles=rng.choice((1, 2, 2)),
                 meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval=rng.choice(("free", "official")))


def _case(seed: int, longer: bool = False, pairs: bool = False, three: bool = False,
          copies: int = 0, longest: bool = False, real2: bool | str = False):
    rng = random.Random(seed)
    rules = _random_rules(rng)
    if copies:  # a third or fourth copy (sets of 3+, one real tile per set, up to two jokers)
        rules = replace(rules, copies=copies, min_real_tiles=1)
    if three:  # a third joker (sets of 3+, free retrieval, one real tile per set)
        rules = replace(rules, jokers=3, min_real_tiles=1, joker_retrieval="free")
    if longer:  # sets of 4 or 5 tiles at least (not with two real tiles per set)
        rules = replace(rules, min_set_length=rng.choice((4, 5)), min_real_tiles=1,
                        numbers=max(rules.numbers, 7))
    if longest:  # sets of 6..13 tiles at least (colour codes past 7 bits: two key words)
        length = rng.randint(6, 13)
        rules = replace(rules, min_set_length=length, min_real_tiles=1,
                        numbers=max(rules.numbers, min(13, length + rng.randint(0, 4))))
    if pairs:  # sets of 2 tiles at least (not with two real tiles per set)
        rules = replace(rules, min_set_length=2, min_real_tiles=1)
    if real2:  # two real tiles per set with sets of 2, 4 or 5 tiles at least (or 6..13)
        length = rng.choice((2, 4, 5)) if real2 is True else rng.randint(6, 13)
        numbers = (max(rules.numbers, 7) if real2 is True
                   else max(rules.numbers, min(13, length + rng.randint(1, 4))))
        rules = replace(rules, min_set_length=length, min_real_tiles=2, numbers=numbers,
                        jokers=rng.choice((1, 2, 2)))
    small = rng.random() < 0.5  # few tiles: the rules decide more answers
    # the jokers left mostly go to the rack: two real tiles per set bites where they are
    table, rack = random_table_and_rack(rng, rules, 3 if small else 12, 4 if small else 12, 0.8)
    melded = rng.random() < 0.75
    return rules, table, rack, melded


@pytest.mark.parametrize("seed", range(60))
def test_dp_matches_the_oracle_on_random_tile_sets(seed):
    _same_as_the_oracle(*_case(seed))


def test_two_real_tiles_on_joker_rich_bench_positions():
    # The standard tile set, both jokers in play on most tables: where the rule bites.
    from engines.rummikub.generate import rummikub_positions

    rules = Rules(least_disturbance=False, min_real_tiles=2)
    compared = 0
    for pos in rummikub_positions(40, seed=23, table_tiles=(10, 40)):
        p = Position.from_json(pos)
        if any(sum(not t.is_joker for t in s) < 2 for s in p.table):
            continue  # a table set the rule does not allow
        args = (pos["table"], pos["rack"], pos["initial_meld_done"])
        for objective in ("tiles", "value"):
            dp = best_move(*args, objective, rules)
            ip = reference_move(*args, objective, rules)[0]
            assert (dp.tiles, dp.value) == (ip.tiles, ip.value), (pos, objective)
            _check_answer(rules, p.table, p.rack, p.initial_meld_done, dp)
        compared += 1
    assert compared >= 20


def test_two_real_tiles_by_hand():
    rules = Rules(least_disturbance=False, min_real_tiles=2)
    assert best_move([], "R5 J J", rules=rules).tiles == 0
    assert best_move([], "R5 J J").tiles == 3
    assert best_move([], "R5 R6 J J", rules=rules).tiles == 4  # R5 R6 J J or J R5 R6 J
    assert best_move([["K7", "R7", "O7"]], "J", rules=rules).tiles == 1
    # both jokers: one each to two runs, never both to one three-tile set
    move = best_move([["R5", "R6", "R7"]], "J J K2 K3", rules=rules)
    assert move.tiles == 4
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    with pytest.raises(SetError, match="table set 1"):
        best_move([["K7", "J", "J"]], "R2", rules=rules)


def test_smaller_tile_sets_by_hand():
    # three colours: K R O; a group has at most three tiles, so no joker joins K5 R5 O5
    assert best_move([["K5", "R5", "O5"]], "J", rules=Rules(colours=3)).tiles == 0
    assert best_move([["K5", "R5", "O5"]], "J").tiles == 1
    # numbers 1..3: a joker cannot stand for 4 (nor 0)
    assert best_move([["K1", "K2", "K3"]], "J", rules=Rules(numbers=3)).tiles == 0
    assert best_move([["K1", "K2", "K3"]], "J").tiles == 1
    assert best_move([["K1", "K2", "K3"]], "J K5", rules=Rules(numbers=5)).tiles == 2
    with pytest.raises(TileError, match="B5"):
        best_move([], "B5", rules=Rules(colours=3))
    with pytest.raises(TileError, match="K12"):
        best_move([], "K12", rules=Rules(numbers=10))
    with pytest.raises(PositionError, match="copies"):
        best_move([["K1", "K2", "K3"]], "K1", rules=Rules(copies=1))
    with pytest.raises(PositionError, match="jokers"):
        best_move([], "J J", rules=Rules(jokers=1))
    with pytest.raises(TileError):
        best_moves([Position.from_strings([], "K12")], rules=Rules(numbers=11))


@pytest.mark.parametrize("seed", range(50))
def test_longer_sets_match_the_oracle(seed):
    # min_set_length 4 or 5 (solvers/rummikub/_lengths.py: the open runs in L length
    # classes), melded or not, both objectives, free or official retrieval
    _oracle_and_batch(*_case(seed, longer=True))


@pytest.mark.parametrize("seed", [*range(20), *range(1000, 1015), *range(2000, 2012),
                                  *range(3000, 3012), *range(4000, 4012), *range(5000, 5016),
                                  *range(6000, 6016), *range(7000, 7016)])
def test_least_disturbance_with_longer_sets(seed):
    # sets of 4 or 5 tiles at least (seeds below 1000), sets of 2 (1000 and up), a third
    # joker (2000 and up: seeds 350-361 of the draws), a third copy (3000 and up), a fourth
    # (4000 and up), sets of 6..13 (5000 and up), two real tiles per set with sets of 2, 4
    # or 5 (6000 and up), with sets of 6..13 (7000 and up)
    rules, table, rack, melded = _case(
        seed % 1000 + (500, 700, 350, 650, 950, 1100, 1300, 1500)[seed // 1000],
        longer=seed < 1000, pairs=1000 <= seed < 2000, three=2000 <= seed < 3000,
        copies=(0, 0, 0, 3, 4, 0, 0, 0)[seed // 1000], longest=5000 <= seed < 6000,
        real2=(False, True, "long")[(seed >= 6000) + (seed >= 7000)])
    rules = replace(rules, least_disturbance=True, joker_retrieval="free")
    dp = best_move(table, rack, melded, "tiles", rules)
    ip = reference_move(table, rack, melded, "tiles", rules)[0]
    assert (dp.tiles, dp.value, dp.sets_kept) == (ip.tiles, ip.value, ip.sets_kept), (
        rules, table, rack, melded)
    _check_answer(rules, table, rack, melded, dp)


def test_longer_sets_by_hand():
    four = Rules(least_disturbance=False, min_set_length=4)
    assert best_move([], "R5 R6 R7", rules=four).tiles == 0
    assert best_move([], "R5 R6 R7 J", rules=four).tiles == 4
    assert best_move([], "K5 R5 O5").tiles == 3
    assert best_move([], "K5 R5 O5", rules=four).tiles == 0
    assert best_move([], "K5 R5 O5 B5", rules=four).tiles == 4
    # five: no group (four colours); a run of five from R3..R7 with a joker
    five = Rules(least_disturbance=False, min_set_length=5)
    assert best_move([], "K5 R5 O5 B5 J", rules=five).tiles == 0
    assert best_move([], "R3 R4 R6 R7 J K1", rules=five).tiles == 5
    assert best_move([["R1", "R2", "R3", "R4", "R5"]], "R6 R7 R8 R9", rules=five).tiles == 4
    with pytest.raises(SetError, match="fewer than 4 tiles"):
        best_move([["R1", "R2", "R3"]], "R6", rules=four)


@pytest.mark.parametrize("seed", range(50))
def test_sets_of_six_to_thirteen_match_the_oracle(seed):
    # min_set_length 6..13: C(L + 4, 4) class counts a colour, 210..2380 codes whose high
    # bits are in the second key word (solvers/rummikub/_layout.code_high), free or official
    # retrieval, melded or not, both objectives, the batch path too
    _oracle_and_batch(*_case(seed + 1200, longest=True))


def test_sets_of_six_to_thirteen_by_hand():
    six = Rules(least_disturbance=False, min_set_length=6)
    assert best_move([], "R1 R2 R3 R4 R5", rules=six).tiles == 0
    assert best_move([], "R1 R2 R3 R4 R5 J", rules=six).tiles == 6
    assert best_move([], "R1 R2 R3 R4 R5 R6 R1 R2 R3 R4 R5 R6", rules=six).tiles == 12
    assert best_move([], "K5 R5 O5 B5 J J", rules=six).tiles == 0  # no group of six
    # two runs of one colour side by side, and a joker bridging a gap
    assert best_move([], "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12", rules=six).tiles == 12
    assert best_move([["O2", "O3", "O4", "O5", "O6", "O7"]], "O8 J O10 O11 O12",
                     rules=six).tiles == 5
    seven = Rules(least_disturbance=False, min_set_length=7, meld_threshold=60)
    assert best_move([], "R2 R3 R4 R5 R6 R7 R8", False, rules=seven).tiles == 0  # 35 < 60
    assert best_move([], "R7 R8 R9 R10 R11 R12 R13", False, rules=seven).tiles == 7  # 70
    twelve = Rules(min_set_length=12)
    run = " ".join(f"K{n}" for n in range(1, 12))
    assert best_move([], run, rules=twelve).tiles == 0
    assert best_move([], run + " J", rules=twelve).tiles == 12
    assert best_move([], run + " J K13", rules=twelve).tiles == 13
    # sets of 13: only the whole run of a colour, 1 to 13 (2,380 codes a colour)
    thirteen = Rules(min_set_length=13, meld_threshold=0)
    assert best_move([], run + " J", rules=thirteen).tiles == 0
    assert best_move([], run + " J K13 R1 R2", rules=thirteen).tiles == 13
    assert best_move([], run.replace("K", "O") + " J J", rules=thirteen).tiles == 13
    whole = [f"B{n}" for n in range(1, 14)]
    assert best_move([whole], "B7 R1", rules=thirteen).tiles == 0
    assert best_move([whole], run + " K12 K13 J", rules=thirteen).tiles == 13  # no room: J
    # official retrieval: the table joker stands for R6; R6 from the rack frees it
    official = Rules(min_set_length=6, joker_retrieval="official")
    table = [["R3", "R4", "R5", "J", "R7", "R8"]]
    assert best_move(table, "R6 K1 K2 K3 K4 K5", rules=official).tiles == 6
    assert best_move(table, "K1 K2 K3 K4 K5", rules=official).tiles == 0
    with pytest.raises(SetError, match="fewer than 6 tiles"):
        best_move([["R1", "R2", "R3", "R4", "R5"]], "R6", rules=six)


@pytest.mark.parametrize("options", [["min_set_length=2", "min_real_tiles=2",
                                      "meld_continue=on"],
                                     ["min_set_length=13", "jokers=3", "meld_continue=on"],
                                     ["min_set_length=4", "min_real_tiles=2", "jokers=3",
                                      "meld_continue=on"]])  # (two jokers: unbound_rules)
def test_sets_of_six_and_more_with_what_the_dp_lacks_are_refused(options):
    with pytest.raises(RuleError, match=r"with .* not supported by the exact search yet"):
        best_move([], "K1 K2 K3 K4 K5 K6", False, rules=Rules.parse(options))


@pytest.mark.parametrize("seed", range(50))
def test_sets_of_two_match_the_oracle(seed):
    # min_set_length 2: the open runs in two length classes, runs of jokers alone tracked
    # (solvers/rummikub/_lengths.bare_step), table sets of two tiles
    _oracle_and_batch(*_case(seed + 200, pairs=True))


def test_sets_of_two_by_hand():
    two = Rules(least_disturbance=False, min_set_length=2, meld_threshold=0)
    assert best_move([], "R5 R6", rules=two).tiles == 2
    assert best_move([], "K5 B5", rules=two).tiles == 2
    assert best_move([], "R5 J", rules=two).tiles == 2
    # two jokers alone are no set; with a real tile they make one
    assert best_move([], "J J", rules=two).tiles == 0
    assert best_move([["R5", "R6"]], "J J", rules=two).tiles == 2
    assert best_move([], "J J K9", rules=two).tiles == 3
    # both jokers between two real tiles of a run: R5 J J R8 or two sets
    assert best_move([["K1", "K2"]], "J J", rules=two).tiles == 2
    move = best_move([["R12", "R13"]], "J J", rules=two)
    assert move.tiles == 2 and all(any(not s.tile.is_joker for s in m) for m in move.table)
    # table sets of two tiles need the rules (and a Position that reads them)
    with pytest.raises(SetError, match="at least 3 tiles"):
        best_move([["R5", "R6"]], "R7")
    with pytest.raises(SetError, match="fewer than 3 tiles"):
        best_moves([Position([["R5", "R6"]], [], True, min_set_length=2)])
    with pytest.raises(SetError, match="fewer than 4 tiles"):
        best_moves([Position([["R5", "R6"]], [], True, min_set_length=2)],
                   rules=Rules(least_disturbance=False, min_set_length=4))
    assert best_move([["R5", "R6"]], "R7", rules=two).tiles == 1


@pytest.mark.parametrize("options", [["min_set_length=2", "min_real_tiles=2",
                                      "meld_continue=on"]])
def test_sets_of_two_with_what_the_dp_lacks_are_refused(options):
    with pytest.raises(RuleError, match=r"with .* not supported by the exact search yet"):
        best_move([], "K1 K2", False, rules=Rules.parse(options))


@pytest.mark.parametrize("seed", range(50))
def test_three_jokers_match_the_oracle(seed):
    # a third joker: five open runs a colour, joker digits 0..3, and the run of the three
    # jokers alone (no set) tracked (solvers/rummikub/_lengths.triple_step)
    _oracle_and_batch(*_case(seed + 300, three=True))


def test_three_jokers_by_hand():
    three = Rules(jokers=3)
    assert best_move([], "J J J", rules=three).tiles == 0  # three jokers alone: no set
    assert best_move([], "J J J R5", rules=three).tiles == 4
    assert best_move([["K1", "K2", "K3"]], "J J J", rules=three).tiles == 3
    assert best_move([["R11", "R12", "R13"]], "J J J", rules=three).tiles == 3
    assert best_move([], "R1 R2 J J J", rules=three).tiles == 5
    assert best_move([], "R5 R9 J J J", rules=three).tiles == 5  # R5 J J J R9
    move = best_move([["K1", "K2", "K3"], ["O7", "O8", "O9"]], "J J J B13", rules=three)
    assert move.tiles == 4 and all(any(not s.tile.is_joker for s in m) for m in move.table)
    assert best_move([], "R10 R11 J J J", False, rules=three).tiles == 5  # R9..R13: 55
    assert best_move([], "K5 R5 J J J", False, rules=three).tiles == 0  # at most 26
    assert best_move([], "J J J", False, rules=replace(three, meld_threshold=0)).tiles == 0
    # a Position reads three jokers only when asked; the default rules refuse them
    with pytest.raises(TileError, match="3 jokers"):
        best_move([], "J J J R5")
    with pytest.raises(TileError, match="3 jokers"):
        best_moves([Position.from_strings([], "J J J R5", max_jokers=3)])
    # (sets of 4-12: the wide DP, test_rummikub_wide_route; two real tiles per set:
    # test_rummikub_three_jokers_real2; official retrieval: test_rummikub_official_three_jokers;
    # meld then continue, with one to three copies: test_rummikub_meld_continue)
    for options in (["min_set_length=2"], ["meld_continue=on", "min_real_tiles=2"]):
        with pytest.raises(RuleError, match=r"jokers=3 with .* not supported by the exact"):
            best_move([], "J J J R5", rules=Rules.parse(["jokers=3", *options]))


@pytest.mark.parametrize("seed", range(50))
def test_three_copies_match_the_oracle(seed):
    # a third copy: five open runs a colour, a colour giving three tiles to a number's
    # groups (n3 in the key), base-4 group profiles, free or official retrieval
    _oracle_and_batch(*_case(seed + 600, copies=3))


def test_three_copies_by_hand():
    three = Rules(copies=3)
    assert best_move([], "R5 R5 R5 R6 R6 R6 R7 R7 R7", rules=three).tiles == 9
    assert best_move([], "K5 K5 K5 R5 R5 R5 O5 O5 O5", rules=three).tiles == 9
    assert best_move([["K5", "R5", "O5"], ["K5", "R5", "B5"]], "K5 R5 B5 J",
                     rules=three).tiles == 4
    assert best_move([], "R1 R2 R3 R1 R2 R3 R1 R2 R3 J J", False, rules=three).tiles == 0
    assert best_move([], "R9 R10 R11 R9 R10 R11 R9 R10 R11", False, rules=three).tiles == 9
    with pytest.raises(TileError, match="3 copies"):
        best_move([], "R5 R5 R5")
    with pytest.raises(TileError, match="3 copies"):
        best_moves([Position.from_strings([], "R5 R5 R5", max_copies=3)])
    for options in (["min_real_tiles=2", "min_set_length=4", "jokers=3"],  # (two jokers
                    ["min_set_length=13"],  # bind no set: test_rummikub_unbound_rules)
                    ["meld_continue=on", "min_real_tiles=2"]):
        # (sets of 2 or 4-12: the wide DP, test_rummikub_wide_route; meld then continue
        # with one real tile per set: test_rummikub_meld_continue)
        with pytest.raises(RuleError, match=r"copies=3 with .* not supported by the exact"):
            best_move([], "R5 R6 R7", rules=Rules.parse(["copies=3", *options]))


@pytest.mark.parametrize("seed", range(50))
def test_four_copies_match_the_oracle(seed):
    # a fourth copy: six open runs a colour (numbered codes, solvers/rummikub/_lengths.py
    # length_tables(3, 6)), a colour giving four tiles to a number's groups (n4 in the key),
    # base-5 group profiles, free or official retrieval
    _oracle_and_batch(*_case(seed + 800, copies=4))


@pytest.mark.parametrize("seed", range(40))
def test_three_jokers_with_more_copies_match_the_oracle(seed):
    # three jokers with three or four copies: six or seven open runs a colour (numbered
    # codes, length_tables(3, 6 or 7)), the run of jokers alone tracked in the longer sets'
    # transition (triple_step), n3/n4 beside it in the key
    _oracle_and_batch(*_case(seed + 900, three=True, copies=3 + seed % 2))


def test_three_jokers_with_more_copies_by_hand():
    for copies in (3, 4):
        rules = Rules(copies=copies, jokers=3)
        assert best_move([], "J J J", rules=rules).tiles == 0  # three jokers alone: no set
        assert best_move([], "R5 R9 J J J", rules=rules).tiles == 5  # R5 J J J R9
        runs = " ".join(f"R{n}" for n in (1, 2, 3) for _ in range(copies))
        assert best_move([], runs + " J J J", rules=rules).tiles == 3 * copies + 3
        groups = " ".join(f"{c}5" for c in "KR" for _ in range(copies))
        assert best_move([], groups + " J J J", rules=rules).tiles == 9  # three K5 R5 J
        # (official retrieval: the cover of three table jokers at one number in word B)
        official = replace(rules, joker_retrieval="official")
        assert best_move([["R4", "J", "R6"]] * 3, "R5 R5 R5 B1", rules=official).tiles == 4


def test_four_copies_by_hand():
    four = Rules(copies=4)
    assert best_move([], "R5 R5 R5 R5 R6 R6 R6 R6 R7 R7 R7 R7", rules=four).tiles == 12
    groups = " ".join(f"{c}5" for c in "KRO" for _ in range(4))
    move = best_move([], groups, rules=four)  # four groups K5 R5 O5
    assert move.tiles == 12 and len(move.table) == 4
    assert best_move([], groups + " B5 B5 J", rules=four).tiles == 15  # five groups
    runs = " ".join(f"R{n}" for n in (1, 2, 3) for _ in range(4))
    assert best_move([], runs + " J J", rules=four).tiles == 14
    assert best_move([["R1", "R2", "R3"]] * 4, "J J R4", rules=four).tiles == 3
    assert best_move([], "R1 R2 R3 R1 R2 R3 R1 R2 R3 R1 R2 R3", False, rules=four).tiles == 0
    assert best_move([], "R9 R10 R11 " * 4, False, rules=four).tiles == 12
    with pytest.raises(TileError, match="4 copies"):
        best_move([], "R5 R5 R5 R5", rules=Rules(copies=3))
    with pytest.raises(TileError, match="4 copies"):
        best_moves([Position.from_strings([], "R5 R5 R5 R5", max_copies=4)],
                   rules=Rules(copies=3))
    everything = [f"{c}{n}" for c in "KROB" for n in range(1, 14) for _ in range(4)]
    with pytest.raises(PositionError, match="210 tiles, more than the search's answer"):
        best_move([], " ".join([*everything, "J", "J"]), rules=four)
    for options in (["min_real_tiles=2", "min_set_length=4", "jokers=3"],  # (two jokers
                    ["min_set_length=13"],  # bind no set: test_rummikub_unbound_rules)
                    ["meld_continue=on", "min_real_tiles=2"]):
        # (sets of 2 or 4-12: the wide DP, test_rummikub_wide_route; meld then continue
        # with four copies, one real tile per set: test_rummikub_meld_continue)
        with pytest.raises(RuleError, match=r"copies=4 with .* not supported by the exact"):
            best_move([], "R5 R6 R7", rules=Rules.parse(["copies=4", *options]))


def test_tile_sets_beyond_the_state_key_are_refused():
    with pytest.raises(RuleError, match=r"beyond the tile sets .* state key holds"):
        best_move([], "K1 K2 K3", rules=Rules.parse(["min_set_length=14"]))


def _two_real(length: int) -> Rules:
    """Two real tiles per set, sets of ``length`` at least, no initial meld."""
    return Rules(min_set_length=length, min_real_tiles=2, meld_threshold=0)


@pytest.mark.parametrize("seed", range(50))
def test_two_real_tiles_with_other_lengths_match_the_oracle(seed):
    # two real tiles per set with sets of 2, 4 or 5 tiles at least: the runs short of real
    # tiles listed apart, the colour codes by length class (solvers/rummikub/_real2.
    # long_joker_runs), free or official retrieval, melded or not, both objectives
    _oracle_and_batch(*_case(seed + 1400, real2=True))


def test_two_real_tiles_with_other_lengths_by_hand():
    assert best_move([], "R5 R6 J J", rules=_two_real(4)).tiles == 4
    assert best_move([], "R5 J J", rules=_two_real(4)).tiles == 0
    assert best_move([], "R5 J J K1", rules=_two_real(4)).tiles == 0
    assert best_move([], "K5 R5 J J", rules=_two_real(4)).tiles == 4  # a group, two real
    assert best_move([], "K5 J J O9", rules=_two_real(4)).tiles == 0
    assert best_move([], "R1 R2 J J R5", rules=_two_real(5)).tiles == 5
    assert best_move([], "R1 J J R4 K7", rules=_two_real(5)).tiles == 0  # R1 J J R4 + ?: no
    assert best_move([], "R5 J", rules=_two_real(2)).tiles == 0
    assert best_move([], "R5 R6", rules=_two_real(2)).tiles == 2
    assert best_move([], "J J K9", rules=_two_real(2)).tiles == 0
    assert best_move([], "K9 K10 J J", rules=_two_real(2)).tiles == 4
    assert best_move([], "K5 J R9 B9", rules=_two_real(2)).tiles == 3  # R9 B9 J; K5 J has one
    # a joker in a short run of two real tiles stays harmless; one real tile is not enough
    move = best_move([["R3", "R4", "R5", "R6"]], "J J K1 K2", rules=_two_real(4))
    assert move.tiles == 4
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    with pytest.raises(SetError, match="table set 1"):
        best_move([["K7", "J"]], "R2", rules=_two_real(2))


@pytest.mark.parametrize("seed", range(50))
def test_two_real_tiles_with_sets_of_six_and_more_match_the_oracle(seed):
    # two real tiles per set with sets of 6..13 tiles at least: the list of runs short of
    # real tiles keeps its key bits (the codes' high bits are in the second key word)
    _oracle_and_batch(*_case(seed + 1600, real2="long"))


def test_two_real_tiles_with_sets_of_six_and_more_by_hand():
    assert best_move([], "R1 R2 R3 R4 J J", rules=_two_real(6)).tiles == 6
    assert best_move([], "R1 J J R4 R5 R6", rules=_two_real(6)).tiles == 6
    assert best_move([], "R1 J J K9 K10 K11", rules=_two_real(6)).tiles == 0
    assert best_move([], "R5 J J R8 R9 R10 R11", rules=_two_real(7)).tiles == 7
    run = " ".join(f"O{n}" for n in range(2, 13))
    assert best_move([], run + " J J", rules=_two_real(13)).tiles == 13
    assert best_move([], "O1 J J " + " ".join(f"O{n}" for n in range(4, 13)),
                     rules=_two_real(13)).tiles == 0  # O1..O12: no O13
    assert best_move([], "O1 J J " + " ".join(f"O{n}" for n in range(4, 14)),
                     rules=_two_real(13)).tiles == 13
    # a joker run of one real tile in a long table run: the rule holds there too
    move = best_move([["K3", "K4", "K5", "K6", "K7", "K8"]], "J J K1 K2", rules=_two_real(6))
    assert move.tiles == 4
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)


@pytest.mark.parametrize("table", [[], [["O10", "O11", "O12"]], [["K2", "R2", "B2"]]])
def test_two_jokers_with_every_small_rack(table):
    # Both jokers and every subset of a few tiles that can make runs and groups with them:
    # where two real tiles per set decides the answer (and where it does not).
    from itertools import combinations

    universe = ["R4", "R5", "R7", "R8", "K5", "O5", "B9"]
    rules = Rules(least_disturbance=False, min_real_tiles=2)
    differs = 0
    for size in range(1, 5):
        for tiles in combinations(universe, size):
            rack = [*tiles, "J", "J"]
            dp = best_move(table, rack, True, "tiles", rules)
            ip = reference_move(table, rack, True, "tiles", rules)[0]
            assert (dp.tiles, dp.value) == (ip.tiles, ip.value), (table, rack)
            _check_answer(rules, [[Tile.parse(t) for t in s] for s in table],
                          [Tile.parse(t) for t in rack], True, dp)
            differs += dp.tiles != best_move(table, rack, True, "tiles").tiles
    assert differs >= 10



@pytest.mark.parametrize("seed", range(40))
def test_least_disturbance_with_the_dp_house_rules(seed):
    # the least-disturbance search under the DP's house rules: the oracle's optimum and
    # most table sets kept
    from dataclasses import replace

    rules, table, rack, melded = _case(seed)
    rules = replace(rules, least_disturbance=True, joker_retrieval="free")
    dp = best_move(table, rack, melded, "tiles", rules)
    ip = reference_move(table, rack, melded, "tiles", rules)[0]
    jokers = [sum(t.is_joker for t in m.played) for m in (dp, ip)]
    assert (dp.tiles, dp.value, jokers[0], dp.sets_kept) == \
        (ip.tiles, ip.value, jokers[1], ip.sets_kept), (rules, table, rack, melded)
    _check_answer(rules, table, rack, melded, dp)


def _official_least_cases(count: int):
    """Random melded positions whose table holds jokers, under official retrieval."""
    from dataclasses import replace

    cases, seed = [], 1000
    while len(cases) < count:
        rules, table, rack, _melded = _case(seed)
        seed += 1
        if any(t.is_joker for s in table for t in s):
            cases.append((replace(rules, least_disturbance=True, joker_retrieval="official"),
                          table, rack))
    return cases


@pytest.mark.parametrize("case", range(30))
def test_least_disturbance_with_official_retrieval(case):
    # least disturbance under official retrieval (each DP call gets the jokers of the sets
    # in play only) against the oracle: the optimum and most table sets kept
    rules, table, rack = _official_least_cases(30)[case]
    for objective in ("tiles", "value"):
        dp = best_move(table, rack, True, objective, rules)
        ip = reference_move(table, rack, True, objective, rules)[0]
        jokers = [sum(t.is_joker for t in m.played) for m in (dp, ip)]
        assert (dp.tiles, dp.value, jokers[0], dp.sets_kept) == \
            (ip.tiles, ip.value, jokers[1], ip.sets_kept), (rules, table, rack, objective)
        _check_answer(rules, table, rack, True, dp)


def test_official_retrieval_on_joker_tables():
    # Bench-like positions whose tables hold jokers: the DP under official retrieval (with
    # and without two real tiles per set) against the oracle.
    from engines.rummikub.generate import rummikub_positions

    compared = differs = 0
    for pos in rummikub_positions(60, seed=31, table_tiles=(6, 40)):
        p = Position.from_json(pos)
        if not pos["initial_meld_done"] or not any(t.is_joker for s in p.table for t in s):
            continue
        for rules in (Rules(least_disturbance=False, joker_retrieval="official"),
                      Rules(least_disturbance=False, joker_retrieval="official",
                            min_real_tiles=2)):
            if any(sum(not t.is_joker for t in s) < rules.min_real_tiles for s in p.table):
                continue
            args = (pos["table"], pos["rack"], True)
            for objective in ("tiles", "value"):
                dp = best_move(*args, objective, rules)
                ip = reference_move(*args, objective, rules)[0]
                assert (dp.tiles, dp.value) == (ip.tiles, ip.value), (pos, rules, objective)
                _check_answer(rules, p.table, p.rack, True, dp)
            differs += dp.value != best_move(*args, "value").value
            compared += 1
    assert compared >= 15 and differs >= 1


def test_check_move_names_official_retrieval_and_tile_set_problems():
    from engines.rummikub.position import Move
    from engines.rummikub.sets import validate_set
    from engines.rummikub.tiles import parse_tiles

    def move(table, rack, played, after, rules):
        pos = Position.from_strings(table, rack)
        played = parse_tiles(played)
        sets = [validate_set(parse_tiles(s)) for s in after]
        return check_move(pos, Move(played, sets, len(played), sum(t.number for t in played),
                                    previous=list(pos.table)), rules)

    official = Rules(joker_retrieval="official")
    run = [["R3", "R4", "R5", "J"]]  # the joker stands for R6
    taken = move(run, "K11 K12", "K11 K12", ["R3 R4 R5", "K11 K12 J"], official)
    assert taken == ["joker retrieval (official): the joker of table set 1 (as R6) left its "
                     "place without a tile it stands for played from the rack"]
    assert move(run, "K11 K12", "K11 K12", ["R3 R4 R5", "K11 K12 J"], Rules()) == []
    # R6 from the rack frees it; a joker left at R6 in a run stays
    assert move(run, "K11 K12 R6", "K11 K12 R6", ["R3 R4 R5 R6", "K11 K12 J"], official) == []
    assert move(run, "R7", "R7", ["R3 R4 R5 J R7"], official) == []
    # a group joker: freed by a colour its group lacks (B7), not by one it has (K7)
    group = [["K7", "R7", "O7", "J"], ["K8", "K9", "K10"]]  # the joker stands for B7
    freed = ["K7 R7 O7 B7", "K8 K9 K10", "B9 B10 J"]
    assert move(group, "B9 B10 B7", "B9 B10 B7", freed, official) == []
    has = ["K7 R7 O7", "K7 K8 K9 K10", "B9 B10 J"]
    assert move(group, "B9 B10 K7", "B9 B10 K7", has, official) == [
        "joker retrieval (official): the joker of table set 1 (as B7) left its place without "
        "a tile it stands for played from the rack"]
    # the tile set: a tile beyond it, a set too short
    small = Rules(numbers=10)
    assert any("R11 is not in the tile set" in p
               for p in move([], "R9 R10 R11", "R9 R10 R11", ["R9 R10 R11"], small))
    assert any("fewer than 4 tiles" in p for p in move(
        [], "R1 R2 R3", "R1 R2 R3", ["R1 R2 R3"], Rules(min_set_length=4)))


def test_official_retrieval_by_hand():
    official = Rules(joker_retrieval="official")
    table = [["R3", "R4", "R5", "J"]]  # the joker stands for R6
    assert best_move(table, "K11 K12", rules=official).tiles == 0
    assert best_move(table, "K11 K12").tiles == 2
    # R6 from the rack frees the joker for K11 K12
    move = best_move(table, "K11 K12 R6", rules=official)
    assert move.tiles == 3
    # a group joker may stand for any colour its group lacks: B7 or O7 frees it
    group = [["K7", "R7", "J"], ["K1", "K2", "K3"]]
    assert best_move(group, "B9 B10", rules=official).tiles == 0
    assert best_move(group, "B9 B10 O7", rules=official).tiles == 3
    assert best_move(group, "B9 B10 K7", rules=official).tiles == 0
    # the joker may stay in place in a rearranged set: R6 as a joker in R5 J R7
    assert best_move(table, "R7 R8", rules=official).tiles == 2
