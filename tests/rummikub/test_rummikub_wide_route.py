"""Crossings at 4 x 13 or less that the fast kernels' key cannot hold, solved by the
width-generic DP (``Rules.wide_search``) instead of being refused.

A third or fourth copy with sets of 2 or 4-12 tiles at least, and a third or fourth joker
with sets of 4-12, are answered by ``best_move`` and ``best_moves`` (the CLI's ``--rule`` and the
batch task: ``test_rummikub_rules.py``) with the oracle's optimum (tiles, value, jokers
played and, with least disturbance, the sets kept); the crossings neither DP carries keep their
``RuleError`` naming them.  Where both DPs solve the rules, the wide one at 4 x 13 gives
the fast one's answers.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import Position, RuleError, Rules, best_move, best_moves
from engines.rummikub.wide import solve_wide_moves

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict


def route_case(seed: int, least: bool):
    """Random rules of a newly routed crossing (three or four copies with sets of 2 or
    4-12; three jokers with sets of 4-12) on a tile set of 2-4 colours and up to 13 numbers,
    and a random position of it."""
    rng = random.Random(seed)
    length = rng.choice((2, 4, 4, 5, 5, 6, 8, 12) if seed % 2 else (4, 4, 5, 5, 6, 9, 12))
    if seed % 2:  # more copies, up to as many jokers as the set length (3 at most)
        copies, jokers = rng.choice((3, 4)), rng.randint(0, min(3, length))
    else:  # a third joker, any copies
        copies, jokers = rng.randint(1, 4), 3
    rules = Rules(least_disturbance=least, colours=rng.randint(2, 4),
                  numbers=rng.randint(min(13, length + 1), 13), copies=copies, jokers=jokers,
                  min_set_length=length, meld_threshold=rng.choice((0, 10, 30)),
                  meld_joker=rng.choice(("stands-for", "zero")))
    assert rules.wide_search and not rules.wide_tiles, rules
    small = rng.random() < 0.4  # few tiles: the rules decide more answers
    table, rack = random_table_and_rack(rng, rules, 3 if small else 10, 5 if small else 12,
                                        0.8)
    held = Counter(t for s in table for t in s) + Counter(rack)
    real = sorted({t for t in held if not t.is_joker}, key=str)
    for tile in rng.sample(real, min(len(real), rng.randint(0, 3))):  # (copies past two)
        rack += [tile] * (rules.copies - held[tile])
    return rules, table, rack, least or rng.random() < 0.7


@pytest.mark.parametrize("seed", range(40))
def test_routed_crossings_match_the_oracle(seed):
    same_as_the_oracle(*route_case(seed, least=False))


@pytest.mark.parametrize("seed", range(100, 124))
def test_routed_crossings_least_disturbance_matches_the_oracle(seed):
    same_as_the_oracle(*route_case(seed, least=True))


# (rules, a position the rules decide) answered now, refused before by the fast kernels
ROUTED = [
    (Rules(copies=3, min_set_length=4), [["R1", "R2", "R3", "R4"]], "R1 R2 R3 R4 R1 R2 R3 R4",
     8),
    (Rules(copies=4, min_set_length=2, meld_threshold=0), [], "K5 K5 K5 K5 R5 R5 R5 R5", 8),
    (Rules(jokers=3, min_set_length=4), [["K1", "K2", "K3", "K4"]], "J J J R9", 4),
    (Rules(copies=4, jokers=3, min_set_length=12), [], "B1 B2 B3 B4 B5 B6 B7 B8 B9 J J J", 12),
    (Rules(jokers=4, min_set_length=4), [["K1", "K2", "K3", "K4"]], "J J J J R9", 5),
    (Rules(copies=3, jokers=4, min_set_length=6), [], "O7 O8 O8 J J J J", 6),
]


@pytest.mark.parametrize(("rules", "table", "rack", "tiles"), ROUTED)
def test_routed_crossings_by_hand(rules, table, rack, tiles, monkeypatch):
    from engines.rummikub import wide

    calls = []
    solve = wide._solve
    monkeypatch.setattr(wide, "_solve", lambda *a: calls.append(a) or solve(*a))
    assert rules.check_supported() is rules and rules.wide_search
    move = best_move(table, rack, rules=rules)
    assert move.tiles == tiles and calls  # (the width-generic DP's answer)
    pos = Position.from_strings(table, rack, **rules.position_limits())
    assert best_moves([pos], rules=rules)[0].tiles == tiles


# Crossings neither DP carries, with the refusal's text: meld then continue, two real tiles
# per set and official retrieval are the fast kernels' alone; more jokers than the set
# length, codes past its 64-bit word and sets of 13 the wide DP's key does not hold
STILL_REFUSED = [
    (Rules(copies=3, min_set_length=4, min_real_tiles=2, jokers=3),  # (jokers=2 bind no set:
     "copies=3 with min_real_tiles=2"),  # test_rummikub_unbound_rules.py)
    (Rules(copies=4, min_set_length=2, meld_continue=True), "copies=4 with "
     "meld_continue=true and min_set_length=2"),
    (Rules(jokers=3, min_set_length=4, joker_retrieval="official"),
     "jokers=3 with min_set_length=4"),
    (Rules(jokers=3, min_set_length=2), "jokers=3 with min_set_length=2"),
    (Rules(jokers=4, min_set_length=2), "jokers=4 with min_set_length=2"),
    (Rules(copies=4, jokers=4, min_set_length=11),  # (8 open runs a colour: 75,582 codes,
     "jokers=4 with min_set_length=11"),  # 17 bits, four colours past the 64-bit word)
    (Rules(jokers=4, copies=4), "jokers=4 with copies=4"),
    (Rules(copies=3, min_set_length=13), "copies=3 with min_set_length=13"),
    (Rules(copies=3, min_set_length=6, meld_continue=True), "copies=3 with "
     "meld_continue=true and min_set_length=6"),
]


@pytest.mark.parametrize(("rules", "message"), STILL_REFUSED)
def test_crossings_neither_dp_solves_keep_their_refusal(rules, message):
    assert not rules.wide_search
    assert rules.unsupported()[0] == message
    with pytest.raises(RuleError, match=f"rule {message} is not supported by the exact"):
        best_move([], "R5 R6 R7 R8", rules=rules)


@pytest.mark.parametrize("rules", [Rules(copies=3), Rules(copies=4, jokers=3),
                                   Rules(min_set_length=4), Rules(jokers=3),
                                   Rules(min_set_length=2)], ids=str)
def test_wide_dp_at_four_by_thirteen_gives_the_fast_answers(rules):
    # crossings the fast kernels solve: the same optimum and sets kept from both DPs
    for melded in (True, False):
        for p in band_positions(40, True, n=2, seed=3) + band_positions(60, False, n=2, seed=4):
            p = restrict(p, rules)
            fast = best_move(p["table"], p["rack"], melded, "tiles", rules)
            pos = Position.from_strings(p["table"], p["rack"], melded,
                                        **rules.position_limits())
            for least in (True, False):
                off = replace(rules, least_disturbance=least)
                fast = best_move(p["table"], p["rack"], melded, "tiles", off)
                wide = solve_wide_moves([pos], "tiles", off)[0]
                assert (wide.tiles, wide.value, wide.sets_kept if least else 0) == (
                    fast.tiles, fast.value, fast.sets_kept if least else 0), (off, p)
