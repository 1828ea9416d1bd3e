"""Meld then continue (``meld_continue``) by the DP against the reference oracle.

The DP carries the final arrangement and the meld together
(:mod:`solvers.rummikub._continue`); the oracle is the integer programme with a second
arrangement of the played tiles that must reach the threshold.  Random tile sets within
the DP's limits, random tables and racks, thresholds 0-45, both joker values, free or
official joker retrieval, one or two real tiles per set and both objectives: the DP's
optimum (tiles, value, jokers) is the oracle's, and its answer passes ``check_move`` (the
meld it names is made of played tiles and worth the threshold).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from rummikub_ip_reference import reference_move
from rummikub_random_sets import random_set

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import RuleError
from engines.rummikub.position import Position, check_move, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile


def _case(seed: int, longer: bool = False, pairs: bool = False, longest: bool = False,
          third: bool = False, jokers3: bool = False, fourth: bool = False):
    rng = random.Random(seed)
    rules = Rules(least_disturbance=False, meld_continue=True, colours=rng.randint(3, 4),
                  numbers=rng.randint(6, 13),
                  copies=rng.randint(1, 2), jokers=rng.choice((0, 1, 2, 2)),
                  meld_threshold=rng.choice((0, 10, 20, 30, 30, 45)),
                  meld_joker=rng.choice(("stands-for", "zero")),
                  joker_retrieval=rng.choice(("free", "free", "official")),
                  min_real_tiles=rng.choice((1, 1, 2)))
    if longer:  # sets of 4 or 5 tiles at least (not with two real tiles per set)
        rules = replace(rules, min_set_length=rng.choice((4, 5)), min_real_tiles=1,
                        numbers=max(rules.numbers, 7))
    if pairs:  # sets of 2 tiles at least (not with two real tiles per set)
        rules = replace(rules, min_set_length=2, min_real_tiles=1)
    if longest:  # sets of 6..13 tiles at least (not with two real tiles per set)
        length = rng.randint(6, 13)
        rules = replace(rules, min_set_length=length, min_real_tiles=1,
                        numbers=max(rules.numbers, min(13, length + rng.randint(0, 4))))
    if third:  # three copies of each tile (sets of 3, one real tile per set)
        rules = replace(rules, copies=3, min_real_tiles=1)
    if fourth:  # four copies of each tile (sets of 3, one real tile per set, up to two jokers)
        rules = replace(rules, copies=4, min_real_tiles=1)
    if jokers3:  # a third joker (sets of 3, one real tile per set; with ``third``, 3 copies)
        rules = replace(rules, jokers=3, copies=3 if third else rng.randint(1, 2),
                        min_real_tiles=1)
    letters = ALL_COLOURS[: rules.colours]
    pool = Counter({Tile(c, n): rules.copies for c in letters
                    for n in range(1, rules.numbers + 1)})
    jokers = rules.jokers
    table = []
    for _ in range(rng.randint(0, 8)):
        s = random_set(rng, rules, pool, jokers,
                       run_when_few_colours=True)
        if s is not None:
            table.append(s)
            pool -= Counter(t for t in s if not t.is_joker)
            jokers -= sum(t.is_joker for t in s)
    left = [t for t, k in pool.items() for _ in range(k)]
    rack = rng.sample(left, min(len(left), rng.randint(3, 12)))
    rack += [JOKER] * sum(rng.random() < 0.6 for _ in range(jokers))
    if jokers3 and rng.random() < 0.5:  # every joker left on the rack: runs of them alone
        rack += [JOKER] * (jokers - rack.count(JOKER))
    if longest and rng.random() < 0.8:  # a run of L-1..L+1 tiles: a meld within reach
        size = min(rules.numbers, rules.min_set_length + rng.randint(-1, 1))
        colour = rng.choice(letters)
        first = rng.randint(1, rules.numbers - size + 1)
        left_over = pool - Counter(rack)
        rack += [t for t in (Tile(colour, n) for n in range(first, first + size))
                 if left_over[t] > 0]
    if (third or fourth) and rng.random() < 0.6:  # more of a tile: groups given 3 or 4 tiles
        tile = rng.choice([t for t in rack if not t.is_joker] or [Tile(letters[0], 1)])
        rack += [tile] * min(rules.copies - 1, (pool - Counter(rack))[tile])
    if (third or fourth) and rng.random() < 0.5:  # a number's copies in three colours
        number = rng.randint(1, rules.numbers)
        for colour in rng.sample(letters, 3):
            rack += [Tile(colour, number)] * (pool - Counter(rack))[Tile(colour, number)]
    return rules, table, rack, rng.random() < 0.15


@pytest.mark.parametrize("seed", range(50))
def test_meld_continue_matches_the_oracle(seed):
    rules, table, rack, melded = _case(seed)
    for objective in ("tiles", "value"):
        answers = [solve(table, rack, melded, objective, rules)
                   for solve in (best_move, lambda *a: reference_move(*a)[0])]
        assert [(m.tiles, m.value, m.played.count(JOKER)) for m in answers][1:] == [
            (answers[0].tiles, answers[0].value, answers[0].played.count(JOKER))], (
            rules, table, rack, melded, objective)
        assert check_move(Position(table, rack, melded), answers[0], rules) == []


@pytest.mark.parametrize("seed", [*range(30), *range(1000, 1030)])
def test_meld_continue_with_longer_sets_matches_the_oracle(seed):
    # min_set_length 4 or 5 (seeds below 1000): both arrangements' runs in L length
    # classes; 2 (1000 and up): and both keys' runs of jokers alone
    rules, table, rack, melded = _case(seed % 1000 + (100 if seed < 1000 else 300),
                                       longer=seed < 1000, pairs=seed >= 1000)
    for objective in ("tiles", "value"):
        dp = best_move(table, rack, melded, objective, rules)
        ip = reference_move(table, rack, melded, objective, rules)[0]
        assert (dp.tiles, dp.value, dp.played.count(JOKER)) == (
            ip.tiles, ip.value, ip.played.count(JOKER)), (rules, table, rack, melded, objective)
        position = Position(table, rack, melded, min(3, rules.min_set_length))
        assert check_move(position, dp, rules) == []


def _score(move, objective: str) -> int:
    weight, joker_weight = objective_weights(objective)
    return sum(joker_weight if t.is_joker else weight["KROB".index(t.colour), t.number - 1]
               for t in move.played)


def _least_off_then_on(rules: Rules, table, rack) -> None:
    """The first play's optimum (tiles, value, jokers) is the oracle's under ``rules``, and
    with least disturbance on its score too, the sets kept compared where the oracle's
    second solve held its own optimum (on 78-point melds HiGHS's feasibility tolerance lets
    it drop a joker worth 9 of ~8e7); both answers valid."""
    position = Position(table, rack, False, **rules.position_limits())
    least = replace(rules, least_disturbance=True)
    for objective in ("tiles", "value"):
        dp = best_move(table, rack, False, objective, rules)
        ip = reference_move(table, rack, False, objective, rules)[0]
        assert (dp.tiles, dp.value, dp.played.count(JOKER)) == (
            ip.tiles, ip.value, ip.played.count(JOKER)), (rules, table, rack, objective)
        assert check_move(position, dp, rules) == []
        kept = best_move(table, rack, False, objective, least)
        ip_kept = reference_move(table, rack, False, objective, least)[0]
        assert _score(kept, objective) == _score(ip, objective), (rules, table, rack)
        if _score(ip_kept, objective) == _score(ip, objective):
            assert kept.sets_kept == ip_kept.sets_kept, (rules, table, rack, objective)
        assert check_move(position, kept, least) == []


@pytest.mark.parametrize("seed", range(40))
def test_meld_continue_with_a_third_copy_matches_the_oracle(seed):
    # copies=3 (up to two jokers, sets of 3): the colours giving three tiles to a number's
    # groups counted in both keys (n3, solvers/rummikub/_continue.py), base-4 choice
    # digits; least disturbance off, then on
    _least_off_then_on(*_case(seed + 700, third=True)[:3])


@pytest.mark.parametrize("seed", range(40))
def test_meld_continue_with_a_third_joker_matches_the_oracle(seed):
    # jokers=3 (copies 1-2, sets of 3): each key's run of three jokers alone at SHORT_AT
    # (solvers/rummikub/_continue.py, _lengths.triple_step), base-4 joker digits; least
    # disturbance off, then on
    _least_off_then_on(*_case(seed + 900, jokers3=True)[:3])


@pytest.mark.parametrize("seed", range(40))
def test_meld_continue_with_three_copies_and_three_jokers_matches_the_oracle(seed):
    # copies=3 and jokers=3 (sets of 3): six open runs a colour, numbered codes in both keys
    # with each key's run of jokers alone and n3 (solvers/rummikub/_continue.py); least
    # disturbance off, then on
    _least_off_then_on(*_case(seed + 1100, third=True, jokers3=True)[:3])


@pytest.mark.parametrize("seed", range(40))
def test_meld_continue_with_sets_of_six_and_more_matches_the_oracle(seed):
    # min_set_length 6..13: colour codes past 7 bits, both arrangements' high bits in the
    # pair's free fields (solvers/rummikub/_continue_spill.py); least disturbance off, then on
    _least_off_then_on(*_case(seed + 500, longest=True)[:3])


def test_meld_then_continue_by_hand():
    rules = Rules(least_disturbance=False, meld_continue=True)
    table = [["O8", "O9", "O10"]]
    # meld K10 R10 B10 (30), then O11 onto the table's run in the same turn
    move = best_move(table, "K10 R10 B10 O11", False, rules=rules)
    assert move.tiles == 4
    assert sorted(str(s.tile) for m in move.new_sets for s in m) == ["B10", "K10", "R10"]
    assert best_move(table, "K10 R10 B10 O11", False).tiles == 3  # the rules document's
    # without a meld worth 30 nothing may touch the table
    assert best_move(table, "K1 R1 B1 O11", False, rules=rules).tiles == 0
    # a threshold of 0: any first play may go onto the table
    move = best_move(table, "O11", False, rules=Rules(meld_continue=True, meld_threshold=0))
    assert move.tiles == 1 and move.new_sets == []
    # the meld's jokers are rack jokers: J J R13 makes the meld (J J as R11 R12: 36)
    assert best_move(table, "R13 J J O7", False, rules=rules).tiles == 4
    # sets of two tiles: the meld K10 R10 O10 (30), then O11 O12 as a set of their own...
    pairs = Rules(meld_continue=True, min_set_length=2)
    assert best_move([], "K10 R10 O10 O12 O13", False, rules=pairs).tiles == 5
    # ... but two jokers alone are no set, in the meld or after it
    assert best_move([], "K10 R10 O10 J J", False, rules=pairs).tiles == 5
    assert best_move([], "K10 R10 O10 J J", False, rules=Rules(min_set_length=2)).tiles == 5
    assert best_move([["B1", "B2"]], "K1 K2 J J", False, rules=pairs).tiles == 0


# (copies, rack: groups K4 R4 B4 of every copy and O11 onto the table's run, a threshold
# past the groups' value, two refusals with that many copies)
MORE_COPIES = [
    (3, "K4 K4 K4 R4 R4 R4 B4 B4 B4 O11", 40,
     (({"min_real_tiles": 2}, "copies=3 with meld_continue=true and min_real_tiles=2"),
      ({"copies": 4, "min_set_length": 4},
       "copies=4 with meld_continue=true and min_set_length=4"))),
    (4, "K4 K4 K4 K4 R4 R4 R4 R4 B4 B4 B4 B4 O11", 50,
     (({"min_real_tiles": 2}, "copies=4 with meld_continue=true and min_real_tiles=2"),
      ({"jokers": 3}, "jokers=3 with meld_continue=true and copies=4"))),
]


@pytest.mark.parametrize(("copies", "rack", "too_high", "refusals"), MORE_COPIES)
def test_meld_continue_with_more_copies_by_hand(copies, rack, too_high, refusals):
    rules = Rules(least_disturbance=False, meld_continue=True, copies=copies)
    table = [["O8", "O9", "O10"]]
    move = best_move(table, rack, False, rules=rules)  # a group of K4 R4 B4 a copy, O11
    assert move.tiles == 3 * copies + 1 and len(move.new_sets) == copies
    assert best_move(table, rack, False, rules=replace(rules, meld_threshold=too_high)
                     ).tiles == 0
    for options, refusal in refusals:
        with pytest.raises(RuleError, match=refusal):
            best_move(table, rack, False, rules=replace(rules, **options))


@pytest.mark.parametrize("seed", range(40))
def test_meld_continue_with_four_copies_matches_the_oracle(seed):
    # copies=4 (up to two jokers, sets of 3): six open runs a colour, numbered codes in both
    # keys, the colours giving four tiles to a number's groups counted in both (n4,
    # solvers/rummikub/_continue.py), base-5 choice digits; least disturbance off, then on
    _least_off_then_on(*_case(seed + 1300, fourth=True)[:3])


# Played tiles whose only meld would need a colour's third or fourth tile of a number in
# groups: the whole rack fits the table (the extra 3s onto its runs), but no meld of 30 is
# in it.  The exact search's check for a meld among the tiles played (solvers.rummikub.
# _exact._meld_continue) read the copies as two and left those tiles out of the group
# counts: it took the 10 (9) played tiles as their meld, and naming the meld raised.
# (The copies=4 case is oracle seed 5378's rack, cut down.)
MELD_NEEDS_THE_COPIES = [
    (4, [["O4", "O5", "O6"]], "K3 K3 K3 O3 O3 O3 O3 R3 R3 R3", "B3 B3"),
    (3, [["K4", "K5", "K6"], ["K4", "K5", "K6"]], "K3 K3 K3 O3 R3 B3 O4 R4 B4", "O3 R3"),
]


@pytest.mark.parametrize(("copies", "table", "rack", "more"), MELD_NEEDS_THE_COPIES)
def test_meld_continue_counts_every_copy_in_the_meld_check(copies, table, rack, more):
    rules = Rules(least_disturbance=False, meld_continue=True, copies=copies)
    for least in (False, True):
        for objective in ("tiles", "value"):
            dp = best_move(table, rack, False, objective,
                           replace(rules, least_disturbance=least))
            assert dp.tiles == 0, (least, objective)
    # with ``more`` a meld of 33 (groups of 3s, and O4 R4 B4) and the rest onto the runs
    rack = f"{rack} {more}"
    move = best_move(table, rack, False, rules=rules)
    ip = reference_move(table, rack, False, "tiles", rules)[0]
    assert move.tiles == ip.tiles == len(rack.split())
    assert check_move(Position.from_strings(table, rack, False, **rules.position_limits()),
                      move, rules) == []


@pytest.mark.parametrize(("copies", "rack", "meld"), [
    (3, "K3 K3 K3 O3 O3 O3 R3 R3 R3 B3", 30), (4, "K3 K3 K3 K3 O3 O3 O3 O3 R3 R3 R3 R3 B3", 39)])
def test_meld_continue_finds_a_meld_that_needs_every_copy(copies, rack, meld):
    # The whole rack is the only meld: groups K O R B and then K O R (twice; four copies:
    # three times).  The exits' search for a meld in the rack, with the copies read as two,
    # left the colours giving three (four) tiles out of the group counts, where B3 alone makes
    # no group: it found 27 (36) at most and answered no move
    rules = Rules(least_disturbance=False, meld_continue=True, copies=copies,
                  meld_threshold=meld)
    for objective in ("tiles", "value"):
        assert best_move([], rack, False, objective, rules).tiles == len(rack.split())


@pytest.mark.default_forms
def test_the_two_arrangement_pass_with_four_copies_by_hand():
    # The pass alone (the engine's exits answer the case above): four groups K4 R4 B4 need
    # each colour's four tiles counted (n4) until the last colour closes the number, in the
    # final arrangement and in a meld of 45 (three groups make 36), and two colours' four
    # tiles make no group; four runs R5-R7 (six open runs' numbered codes on the way), two of
    # them with a joker; R5 in a run and three groups (the choice's digits base 5)
    rules = Rules(least_disturbance=False, meld_continue=True, copies=4, jokers=2)
    groups = "K4 K4 K4 K4 R4 R4 R4 R4 B4 B4 B4 B4"
    for table, rack, meld, tiles in (
            ([["O8", "O9", "O10"]], groups + " O11", 45, 13), ([], groups + " O9", 30, 12),
            ([], groups[:-3] + " O9", 30, 9), ([], "K4 K4 K4 K4 R4 R4 R4 R4 K10 R10 O10", 30, 3),
            ([], "R5 R5 R5 R5 R6 R6 R6 R6 R7 R7 R7 R7", 30, 12),
            ([], "R5 R5 R5 R5 R6 R6 R6 R6 R7 R7 J J", 30, 12),
            ([], "R4 R5 R5 R5 R5 R6 K5 K5 K5 B5 B5 B5", 30, 12)):
        state, choice = _pass_alone(replace(rules, meld_threshold=meld), table, rack)
        assert state == (1, tiles), (table, rack)
        if tiles == 13:
            assert choice[[0, 1, 3], 3, 1].tolist() == [4, 4, 4]  # (four group tiles each)
    assert choice[1, 4, :2].tolist() == [1, 3]  # (R5: one run tile, three group tiles)


def test_meld_continue_with_a_third_joker_by_hand():
    rules = Rules(least_disturbance=False, meld_continue=True, jokers=3, meld_threshold=9)
    table = [["O8", "O9", "O10"]]
    # three jokers alone are no run, in the meld or after it; with R5 they make one (R2-R5
    # or R5-R8), and then O11 goes onto the table's run
    assert best_move(table, "J J J", False, rules=rules).tiles == 0
    assert best_move(table, "J J J R5 O11", False, rules=rules).tiles == 5
    for options, refusal in (({"min_real_tiles": 2}, "jokers=3 with meld_continue=true and "
                                                     "min_real_tiles=2"),
                             ({"copies": 4}, "jokers=3 with meld_continue=true and copies=4"),
                             ({"jokers": 4}, "jokers=4 with meld_continue=true")):
        with pytest.raises(RuleError, match=refusal):
            best_move(table, "J J J R5", False, rules=replace(rules, **options))


def _pass_alone(rules: Rules, table, rack):
    """The two-arrangement pass alone (no exits, no bound, no beam), tiles as the objective:
    ``(status, score)`` and the final arrangement's choices."""
    import numpy as np

    from engines.rummikub.arrays import position_arrays
    from solvers.rummikub._one_pass import solve_pass

    pos = Position.from_strings(table, rack, False, **rules.position_limits())
    counts, rack_counts, modes, _ = position_arrays([pos], rules)
    must, opt = counts[0, :52].reshape(4, 13), rack_counts[0, :52].reshape(4, 13)
    choice, gj = np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64)
    status, score, _t = solve_pass(must, opt, counts[0, 52], rack_counts[0, 52],
                                   np.ones((4, 13), np.int64), 1, modes[0],
                                   rules.group_tables()[0], choice, gj, np.zeros(2, np.int64),
                                   np.int64(-(2**62)), 0)
    return (status, score if status else 0), choice


def test_the_two_arrangement_pass_with_three_jokers_alone():
    # The pass alone (the engine's exits answer these before it): three jokers alone make no
    # run, in the meld nor in the final arrangement (each key's candidate run of jokers
    # alone, _lengths.triple_step); with R5 they make one
    rules = Rules(least_disturbance=False, meld_continue=True, jokers=3, meld_threshold=9)
    for table, rack, tiles in (([], "J J J", 0), ([["O8", "O9", "O10"]], "J J J", 0),
                               ([], "J J J R5", 4)):
        assert _pass_alone(rules, table, rack)[0] == (int(tiles > 0), tiles), (table, rack)


def test_the_two_arrangement_pass_with_three_copies_and_three_jokers_by_hand():
    # The pass alone, numbered codes in both keys: three jokers alone are no run (each key's
    # candidate read from the code's counts); three groups K10 R10 B10 of three copies make
    # the meld and R7 goes onto R4 J R6 while the table's three jokers stand at number 5
    # (official retrieval: the cover of the third, kept in the meld's key, must account for
    # it until the number closes)
    rules = Rules(least_disturbance=False, meld_continue=True, jokers=3, copies=3,
                  meld_threshold=9)
    for table, rack, tiles in (([], "J J J", 0), ([["O8", "O9", "O10"]], "J J J", 0),
                               ([], "J J J R5", 4), ([], "J J J R5 R5 R5", 4)):
        assert _pass_alone(rules, table, rack)[0] == (int(tiles > 0), tiles), (table, rack)
    official = replace(rules, joker_retrieval="official", meld_threshold=30)
    runs = [["R4", "J", "R6"], ["K4", "J", "K6"], ["B4", "J", "B6"]]
    for order in (runs, runs[::-1], runs[1:] + runs[:1]):
        state, choice = _pass_alone(official, order, "K10 K10 K10 R10 R10 R10 B10 B10 B10 R7")
        assert state == (1, 10), order
        assert choice[[0, 1, 3], 9, 1].tolist() == [3, 3, 3]


def test_the_two_arrangement_pass_with_a_third_copy_by_hand():
    # The pass alone (the engine's exits answer the case above): three groups K4 R4 B4 need
    # each colour's three tiles counted (n3) until the last colour closes the number, in the
    # final arrangement and in the meld (O11 goes onto the table's run after the meld)
    import numpy as np

    from engines.rummikub.arrays import position_arrays
    from solvers.rummikub._one_pass import solve_pass

    rules = Rules(least_disturbance=False, meld_continue=True, copies=3)
    for table, rack, tiles in (([["O8", "O9", "O10"]], "K4 K4 K4 R4 R4 R4 B4 B4 B4 O11", 10),
                               ([], "K4 K4 K4 R4 R4 R4 B4 B4 B4 O9", 9)):
        pos = Position.from_strings(table, rack, False, **rules.position_limits())
        counts, rack_counts, modes, _ = position_arrays([pos], rules)
        must, opt = counts[0, :52].reshape(4, 13), rack_counts[0, :52].reshape(4, 13)
        choice, gj = np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64)
        status, score, _t = solve_pass(must, opt, 0, 0, np.ones((4, 13), np.int64), 1,
                                       modes[0], rules.group_tables()[0], choice, gj,
                                       np.zeros(2, np.int64), np.int64(-(2**62)), 0)
        assert (status, score) == (1, tiles), (table, rack)
        assert choice[[0, 1, 3], 3, 1].tolist() == [3, 3, 3]  # (K, R, B: three group tiles each)


def test_meld_continue_in_batches_and_refusals():
    rules = Rules(least_disturbance=False, meld_continue=True)
    positions = [Position.from_strings(["O8 O9 O10"], "K10 R10 B10 O11", False),
                 Position.from_strings(["O8 O9 O10"], "K10 R10 B10 O11", True),
                 Position.from_strings(["O8 O9 O10"], "K1 R1 B1", False)]
    assert [m.tiles for m in best_moves(positions, rules=rules)] == [4, 4, 0]
    least = Rules(meld_continue=True, least_disturbance=True)
    assert [m.tiles for m in best_moves(positions, rules=least)] == [4, 4, 0]


def test_meld_continue_on_bench_positions():
    # Standard tiles, tables of 10-50 tiles with jokers: the two-arrangement DP (where the
    # melded optimum's tiles hold no meld) and the cheap exits (no meld at all, or the melded
    # optimum holds one) all agree with the oracle; the rule changes some answers.
    from engines.rummikub.generate import rummikub_positions

    rules = Rules(least_disturbance=False, meld_continue=True)
    changed = 0
    for pos in rummikub_positions(24, seed=31, table_tiles=(10, 50)):
        args = (pos["table"], pos["rack"], False)
        for objective in ("tiles", "value"):
            dp = best_move(*args, objective, rules)
            ip = reference_move(*args, objective, rules)[0]
            assert (dp.tiles, dp.value, dp.played.count(JOKER)) == (
                ip.tiles, ip.value, ip.played.count(JOKER)), (pos, objective)
            assert check_move(Position.from_json(dict(pos, initial_meld_done=False)), dp,
                              rules) == []
        changed += dp.tiles != best_move(*args).tiles
    assert changed >= 3


@pytest.mark.parametrize("seed", [*range(40), *range(1000, 1030), *range(2000, 2040),
                                  *range(3000, 3040), *range(4000, 4040)])
def test_the_two_arrangement_pass_alone(seed):
    # The engine's answer usually comes from the cheap exits (no meld in the rack, or the
    # melded optimum's tiles hold one), so the DP over both arrangements is checked here on
    # its own: its exact pass (no bound, no beam) reaches the optimum of the oracle-checked
    # answer, and its arrangement is a table (the replay packs it into sets).  Seeds 1000
    # and up: sets of 6..13 tiles (the pair's spilled high bits); 2000 and up: three copies;
    # 3000 and up: three jokers; 4000 and up: both (numbered codes).
    import numpy as np

    from engines.rummikub.arrays import position_arrays
    from engines.rummikub.position import objective_weights
    from solvers.rummikub import meld_codes
    from solvers.rummikub._one_pass import solve_pass

    rules, table, rack, _melded = _case(seed % 1000 + (500 if seed >= 1000 else 0),
                                       longest=1000 <= seed < 2000,
                                       third=2000 <= seed < 3000 or seed >= 4000,
                                       jokers3=seed >= 3000)
    if rules.meld_threshold == 0:
        rules = replace(rules, meld_threshold=10)
    pos = Position(tuple(map(tuple, table)), tuple(rack), False, **rules.position_limits())
    counts, rack_counts, modes, _ = position_arrays([pos], rules)  # (official: joker places)
    must, opt = counts[0, :52].reshape(4, 13), rack_counts[0, :52].reshape(4, 13)
    group_ok, part_count, part_masks = rules.group_tables()
    for objective in ("tiles", "value"):
        weight, jw = objective_weights(objective)
        choice, gj = np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64)
        status, score, _t = solve_pass(must, opt, counts[0, 52], rack_counts[0, 52], weight,
                                       jw, modes[0], group_ok, choice, gj,
                                       np.zeros(2, np.int64), np.int64(-(2**62)), 0)
        move = best_move(table, rack, False, objective, rules)
        want = sum(weight["KROB".index(t.colour), t.number - 1] for t in move.played
                   if not t.is_joker) + jw * move.played.count(JOKER)
        assert (status == 1) == (move.tiles > 0) and (status == 0 or score == want), (
            rules, table, rack, objective)
        if status == 1:
            codes = np.zeros(64, np.int64)
            # (the default shortest set given, an int64: the form the engines' kernels compile)
            assert meld_codes(choice, gj, part_count, part_masks, codes, 3) >= 0


def test_room_per_parent_holds_every_run_option():
    # The pass makes room per parent for all its successors (_continue._joker_choices:
    # each run-joker count times its placements); a bound short of the options that
    # _run_options lists would write past the arrays.  Random colour codes, lists of runs
    # short of real tiles, tiles and jokers under two real tiles per set: never more
    # options than the bound counts for that many run jokers (alone and at the last
    # colour, where each also takes every count of group jokers).
    import numpy as np

    from solvers.rummikub._continue import _joker_choices, _run_options
    from solvers.rummikub._lengths import MAX_OPEN, length_tables
    from solvers.rummikub._real2 import COMBO_FIRST, COMBO_T1, COMBO_T2

    # (the combinations of up to two jokers, those meld then continue's pass takes; a third
    # joker's follow them)
    two = COMBO_FIRST[-1]
    placements = [sum(int(a >= 0) + int(b >= 0) == jr
                      for a, b in zip(COMBO_T1[:two], COMBO_T2[:two])) for jr in range(3)]
    for left in range(3):
        assert _joker_choices(left, False, 1) == sum(placements[: left + 1])
        assert _joker_choices(left, True, 1) == sum(
            placements[jr] * (left - jr + 1) for jr in range(left + 1))
        assert _joker_choices(left, True, 0) == sum(left - jr + 1 for jr in range(left + 1))
    digits, binom = length_tables(3, MAX_OPEN)
    lengths = (digits, binom, np.full((4, 13), 2, np.int64))
    buf = np.zeros((16, 4), np.int64)
    rng = random.Random(18)
    most = [0, 0, 0]
    for _ in range(4000):
        c = rng.randrange(4)
        slots = [1 + 4 * rng.randrange(4) + rng.randrange(4) if rng.random() < 0.7 else 0
                 for _ in range(2)]
        short_key = max(slots) | min(slots) << 5
        code = rng.randrange(3) + 5 * rng.randrange(3) + 25 * rng.randrange(3)
        jr = rng.randrange(3)
        t = jr + rng.randrange(4)
        n = _run_options(code, short_key, c, t, jr, 2 - jr, rng.randrange(3), rng.randrange(3),
                         rng.randrange(11), 13, rng.random() < 0.3, 1, buf, lengths)
        assert n <= placements[jr], (code, short_key, c, t, jr)
        most[jr] = max(most[jr], n)
    assert min(most[1:]) > 1  # (the sample reaches several placements a joker count)
