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

import numpy as np
import pytest
from rummikub_random_sets import oracle_tests

from engines.rummikub import best_move, best_moves
from engines.rummikub.errors import RuleError
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules
from solvers.rummikub._frame import CHOICE_BASE, MELD_CHOICES
from solvers.rummikub._layout import COLOUR_BITS, SHORT_FOURTH_AT, SHORT_HIGH_AT
from solvers.rummikub._lengths import _rank_of, length_tables
from solvers.rummikub._real2 import listed_step, short_kinds4, short_pack4
from solvers.rummikub._real2_dominance import drop_dominated_listed
from solvers.rummikub._real2_four import (
    COMBO4_CODES,
    COMBO4_COUNTS,
    COMBO4_FIRST,
    COMBO_COUNTS,
    combo4_picks,
)

FOUR = Rules(jokers=4, min_real_tiles=2, least_disturbance=False)


def _rules(rng: random.Random, least: bool) -> Rules:
    return Rules(jokers=4, min_real_tiles=2, least_disturbance=least,
                 colours=rng.randint(2, 4), numbers=rng.randint(5, 13),
                 copies=rng.randint(1, 3), meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")),
                 joker_retrieval=rng.choice(("free", "free", "official")))


(test_four_jokers_two_real_tiles_match_the_oracle,
 test_four_jokers_two_real_tiles_with_few_real_tiles,
 test_four_jokers_two_real_tiles_with_least_disturbance) = oracle_tests(
    _rules, (40, 4100), (30, 4200), (20, 4300))


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


DIGITS, BINOM = length_tables(3, 6)  # (two copies and four jokers: six open runs a colour)


def _state(codes: dict[int, tuple[int, int, int]], listed: dict[int, list[int]]):
    """``(key, key2)`` of the colours' class counts and listed runs by kind (0 one joker,
    1 a joker and a real tile, 2 two jokers, 3 length 3+ and one real tile), the list's
    first three slots from SHORT_HIGH_AT and the fourth at SHORT_FOURTH_AT (as the DP
    stores them)."""
    key = 0
    for c, (a1, a2, a3) in codes.items():
        key |= int(_rank_of(np.array([a1, a2, a3], np.int64), BINOM)) << (COLOUR_BITS * c)
    packed = 0
    for c, kinds in listed.items():
        packed = int(short_pack4(packed, c, *[kinds.count(k) for k in range(5)]))
        assert packed >= 0
    return key, (packed & 32767) << SHORT_HIGH_AT | (packed >> 15) << SHORT_FOURTH_AT


def _kept(states, scores) -> list[bool]:
    """Which states of a layer :func:`drop_dominated_listed` keeps."""
    k1 = np.array([s[0] for s in states], np.int64)
    k2 = np.array([s[1] for s in states], np.int64)
    drop_dominated_listed(0, len(states), k1, k2, np.array(scores, np.int64), DIGITS)
    return (k1 >= 0).tolist()


# four listed runs: colour 0's joker alone (the smallest entry, so the fourth slot) and a
# joker and a real tile of colours 1, 2 and 3
FOUR_LISTED = {0: [0], 1: [1], 2: [1], 3: [1]}


def test_the_dominance_reads_the_fourth_slot():
    # colour 0's joker alone -> two jokers (listed in the fourth slot both): dropped
    weaker, stronger = _state({}, FOUR_LISTED), _state({}, {**FOUR_LISTED, 0: [2]})
    assert stronger[1] >> SHORT_FOURTH_AT != 0
    assert _kept([weaker, stronger], [10, 10]) == [False, True]
    assert _kept([weaker, stronger], [11, 10]) == [True, True]
    # without the fourth slot's run a state is no dominator, though colour 1 has a long
    # run more: the run of colour 0 that the other lacks may take tiles later
    fewer = _state({1: (0, 0, 1)}, {c: kinds for c, kinds in FOUR_LISTED.items() if c})
    assert _kept([_state({}, FOUR_LISTED), fewer], [10, 10]) == [True, True]


def test_the_sub_step_skips_only_combinations_listed_step_refuses():
    # combo4_picks' bits: every combination left out is one that listed_step refuses (list
    # -1) whatever the tiles after, so skipping it leaves the layer as it was
    real = np.full((4, 13), 2, np.int64)  # (tiles at every number: only its first test)
    counts = np.zeros(3, np.int64)
    rng = random.Random(5)
    skipped = 0
    for _ in range(3000):
        jr, t, code = rng.randint(0, 4), rng.randint(0, 9), rng.randrange(DIGITS.shape[0])
        listed = [rng.choice((0, 0, 1)) for _ in range(5)]
        picks = int(combo4_picks(jr, t, code, *listed, DIGITS))
        for pick in range(COMBO4_FIRST[jr], COMBO4_FIRST[jr + 1]):
            kept = listed_step(*COMBO4_COUNTS[pick], jr, t, code, *listed, 0, 1, 4 - jr,
                               real, 3, 13, DIGITS, BINOM, counts)[1] >= 0
            if not picks >> (pick - COMBO4_FIRST[jr]) & 1:
                assert not kept, (jr, t, code, listed, pick)
                skipped += 1
    assert skipped > 10000  # (most combinations are refused at once)


def test_the_dominance_in_a_large_group():
    # 20 states that differ in colour 0's code alone (every count of up to three runs), one
    # group: the three long runs dominate every other
    counts = [(a1, a2, a3) for a1 in range(4) for a2 in range(4) for a3 in range(4)
              if a1 + a2 + a3 <= 3]
    assert len(counts) == 20
    states = [_state({0: counts[i], 1: (1, 0, 1)}, {2: [1]}) for i in range(len(counts))]
    kept = _kept(states, [10] * len(states))
    assert [counts[i] for i in range(len(counts)) if kept[i]] == [(0, 0, 3)]
    # a dominator of lower score drops nothing: with (0, 0, 3) at 9, the two that no other
    # state dominates stay (a run of length 2 left over is no long run more)
    scores = [9 if counts[i] == (0, 0, 3) else 10 for i in range(len(counts))]
    kept = _kept(states, scores)
    stay = sorted(counts[i] for i in range(len(counts)) if kept[i])
    assert stay == [(0, 0, 2), (0, 0, 3), (0, 1, 2)]


def test_the_dominance_reads_the_other_colours_list():
    # colour 0's joker alone -> two jokers, but colour 1's listed run is gone too: two
    # colours differ, so neither state dominates the other
    weaker = _state({1: (0, 1, 0)}, {0: [0], 1: [1]})
    assert _kept([weaker, _state({1: (0, 1, 0)}, {0: [2]})], [10, 10]) == [True, True]
    assert _kept([weaker, _state({1: (0, 1, 0)}, {0: [2], 1: [1]})], [10, 10]) == [False, True]
