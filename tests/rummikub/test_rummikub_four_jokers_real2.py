"""A fourth joker with two real tiles per set (``Rules(jokers=4, min_real_tiles=2)``).

With four jokers up to four runs can hold a joker and fewer than two real tiles at once,
one of them possibly three or four jokers alone; the DP lists them in four slots of its
second key word (``solvers/rummikub/_real2.py``: ``short_kinds4``, ``short_pack4``;
``_real2_four.py``: the 67 joker combinations, ``long_joker_runs4``), and the replay follows
its joker placements (``_melds._runs_two_real``, ``_real2_four.COMBO_COUNTS``).  Random
positions on random tile sets (2-4 colours, 5-13 numbers, 1-3 copies, free or official
retrieval), jokers on the table and the rack, melded or not, both objectives, least
disturbance on and off: the optimum (tiles, value, jokers played; with least disturbance
the sets kept) is the integer programme's, and the DP's table is valid under the rules.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from rummikub_random_sets import oracle_and_batch, random_case, same_as_the_oracle

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import RuleError
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules
from solvers.rummikub._frame import CHOICE_BASE, MELD_CHOICES
from solvers.rummikub._real2 import short_kinds4, short_pack4
from solvers.rummikub._real2_four import COMBO4_CODES, COMBO4_COUNTS, COMBO4_FIRST, COMBO_COUNTS

FOUR = Rules(jokers=4, min_real_tiles=2, least_disturbance=False)


def _rules(rng: random.Random, least: bool) -> Rules:
    return Rules(jokers=4, min_real_tiles=2, least_disturbance=least,
                 colours=rng.randint(2, 4), numbers=rng.randint(5, 13),
                 copies=rng.randint(1, 3), meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval=rng.choice(("free", "free", "official")))


def _case(seed: int, least: bool = False, few: bool = False):
    return random_case(_rules, seed, least, few)


@pytest.mark.parametrize("seed", range(40))
def test_four_jokers_two_real_tiles_match_the_oracle(seed):
    oracle_and_batch(*_case(seed + 4100))


@pytest.mark.parametrize("seed", range(30))
def test_four_jokers_two_real_tiles_with_few_real_tiles(seed):
    oracle_and_batch(*_case(seed + 4200, few=True))


@pytest.mark.parametrize("seed", range(20))
def test_four_jokers_two_real_tiles_with_least_disturbance(seed):
    same_as_the_oracle(*_case(seed + 4300, least=True, few=seed % 2 == 1))


def test_four_jokers_two_real_tiles_by_hand():
    # four runs short of real tiles at once (each a real tile and a joker after number 2;
    # two colours: no group takes the jokers instead)
    move = best_move([], "K1 J K3 K1 J K3 R1 J R3 R1 J R3", rules=replace(FOUR, colours=2))
    assert move.tiles == 12 and len(move.table) == 4
    assert all(sum(not s.tile.is_joker for s in m) == 2 for m in move.table)
    # four jokers alone before two real tiles at the top (a joker to three jokers alone)
    move = best_move([], "R12 R13 J J J J", rules=FOUR)
    assert move.tiles == 6 and len(move.table) == 1
    assert best_move([], "R5 J J J J", rules=FOUR).tiles == 0
    assert best_move([], "R1 R6 J J J J", rules=FOUR).tiles == 6
    # a table run of four jokers and two real tiles kept, a rack tile joins it
    move = best_move([["J", "J", "J", "J", "R5", "R6"]], "R7", rules=FOUR)
    assert move.tiles == 1
    assert all(sum(not s.tile.is_joker for s in m) >= 2 for m in move.table)
    batch = best_moves([Position.from_strings([], "K1 J K3 R1 J R3 O1 J O3 B1 J B3",
                                              max_jokers=4)], rules=FOUR)
    assert batch[0].tiles == 12


def test_the_four_joker_combinations():
    # every multiset of targets whose jokers fit in four, once; its code decodes to it
    assert COMBO4_FIRST.tolist() == [0, 1, 9, 30, 52, 67]
    seen = set()
    for jr in range(5):
        for pick in range(COMBO4_FIRST[jr], COMBO4_FIRST[jr + 1]):
            counts = tuple(COMBO4_COUNTS[pick].tolist())
            assert sum(counts) == jr and counts not in seen
            seen.add(counts)
            assert COMBO_COUNTS[jr, COMBO4_CODES[pick]].tolist() == list(counts)
    # (code + 1, times 512, in an int16 choice, read modulo MELD_CHOICES)
    assert COMBO4_CODES.max() + 1 < MELD_CHOICES // CHOICE_BASE
    # the four slots: the fourth only when four runs are listed, in descending order
    three = short_pack4(0, 1, 1, 1, 1, 0, 0)
    assert three >> 15 == 0 and short_kinds4(three, 1)[:5] == (1, 1, 1, 0, 0)
    four = short_pack4(three, 2, 0, 0, 0, 0, 1)
    assert four >> 15 != 0 and short_kinds4(four, 2)[4] == 1 and short_kinds4(four, 1)[:3] == (
        1, 1, 1)
    assert short_pack4(four, 0, 1, 0, 0, 0, 0) == -1


def test_four_jokers_two_real_tiles_limits():
    for copies in (1, 2, 3):
        assert Rules(jokers=4, min_real_tiles=2, copies=copies).unsupported() == []
    assert Rules(jokers=4, min_real_tiles=2, joker_retrieval="official").unsupported() == []
    for options, message in ((["copies=4"], "jokers=4 with copies=4"),
                             (["meld_continue=on"], "jokers=4 with meld_continue=true"),
                             (["min_set_length=4"], "jokers=4 with min_set_length=4")):
        with pytest.raises(RuleError, match=f"rule {message}"):
            best_move([], "R1 R6 J J J J",
                      rules=Rules.parse(["jokers=4", "min_real_tiles=2", *options]))
