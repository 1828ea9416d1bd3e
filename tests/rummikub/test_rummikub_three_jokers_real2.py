"""A third joker with two real tiles per set (``Rules(jokers=3, min_real_tiles=2)``).

With three jokers up to three runs can hold a joker and fewer than two real tiles at once,
one of them possibly three jokers alone; the DP lists them in three slots, the third in its
second key word (``solvers/rummikub/_real2.py``: ``short_kinds3``, ``joker_runs3``), and
the replay follows its joker placements (``_melds._runs_two_real``).  Random positions on
random tile sets (2-4 colours, 5-13 numbers, 1-2 copies), jokers on the table and the
rack, melded or not, both objectives, least disturbance on and off: the optimum (tiles,
value, jokers played; with least disturbance the sets kept) is the integer programme's,
and the DP's table is valid under the rules.  The CLI and the batch: ``test_rummikub_rules``.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import oracle_tests

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import RuleError
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules

THREE = Rules(jokers=3, min_real_tiles=2, least_disturbance=False)


def _rules(rng: random.Random, least: bool) -> Rules:
    return Rules(jokers=3, min_real_tiles=2, least_disturbance=least,
                 colours=rng.randint(2, 4), numbers=rng.randint(5, 13),
                 copies=rng.randint(1, 2), meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")))


(test_three_jokers_two_real_tiles_match_the_oracle,
 test_three_jokers_two_real_tiles_with_few_real_tiles,
 test_three_jokers_two_real_tiles_with_least_disturbance) = oracle_tests(
    _rules, (60, 3100), (40, 3200), (30, 3300))


def test_three_jokers_two_real_tiles_by_hand():
    # three runs short of real tiles at once (each a real tile and a joker after number 2)
    move = best_move([], "K1 J K3 R1 J R3 O1 J O3", rules=THREE)
    assert move.tiles == 9 and len(move.table) == 3
    assert all(sum(not s.tile.is_joker for s in m) == 2 for m in move.table)
    # three jokers between two real tiles; three jokers alone never
    assert best_move([], "R1 R5 J J J", rules=THREE).tiles == 5
    assert best_move([], "R5 J J J", rules=THREE).tiles == 0
    assert best_move([], "R5 R6 J J J", rules=THREE).tiles == 5
    assert best_move([], "R5 J J J", rules=Rules(jokers=3, least_disturbance=False)).tiles == 4
    # a table run of three jokers and two real tiles kept, a rack tile joins it
    move = best_move([["R1", "J", "J", "J", "R5"]], "R6", rules=THREE)
    assert move.tiles == 1
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    batch = best_moves([Position.from_strings([], "K1 J K3 R1 J R3 O1 J O3", max_jokers=3)],
                       rules=THREE)
    assert batch[0].tiles == 9


def test_three_jokers_two_real_tiles_refused_crossings():
    # (official retrieval is solved beside them: test_rummikub_official_three_jokers)
    for options in (["min_set_length=4"], ["meld_continue=on"], ["fewest_tiles_moved=true"]):
        with pytest.raises(RuleError, match="not supported by the exact"):
            best_move([], "R1 R5 J J J",
                      rules=Rules.parse(["jokers=3", "min_real_tiles=2", *options]))
    # (a fourth joker with two real tiles per set: test_rummikub_four_jokers_real2)
    with pytest.raises(RuleError, match="jokers=4 with copies=4"):
        best_move([], "R1 R5 J J J J", rules=Rules(jokers=4, min_real_tiles=2, copies=4))

