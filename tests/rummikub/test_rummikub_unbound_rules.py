"""Rules refused as they are but solved through options that bind no set of their tile set.

Two real tiles per set binds no set when ``jokers <= min_set_length - 2`` (a set of
``min_set_length`` tiles or more keeps two real tiles however many of the game's jokers it
holds), official retrieval none without jokers: ``Rules.solved_as`` sets them back to the
rules document's values where the search refuses the rules as given and solves them so
(``Rules.unsupported`` and ``check_supported`` follow it).  The answers are checked against
the oracle, which reads the rules as given.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import fields

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import RuleError, Rules, best_move

GRID = [Rules(copies=c, jokers=j, min_set_length=length, min_real_tiles=real,
              meld_continue=cont, joker_retrieval=retrieval, least_disturbance=least)
        for c, j, length, real, cont, retrieval, least in itertools.product(
            range(1, 5), range(5), range(2, 7), (1, 2), (False, True), ("free", "official"),
            (False, True))]
SOLVED_AS_OTHERS = [r for r in GRID if r.solved_as() is not r]


def _changed(rules: Rules, solved: Rules) -> dict[str, tuple[object, object]]:
    return {f.name: (getattr(rules, f.name), getattr(solved, f.name)) for f in fields(rules)
            if getattr(rules, f.name) != getattr(solved, f.name)}


def test_only_options_that_bind_no_set_are_set_back():
    assert SOLVED_AS_OTHERS  # (the grid holds such rules)
    for rules in GRID:
        solved = rules.solved_as()
        if solved is rules:
            continue
        assert rules._refusals() and not solved._refusals(), rules
        assert rules.unsupported() == [] and rules.check_supported() == solved
        for name, (given, used) in _changed(rules, solved).items():
            if name == "min_real_tiles":
                assert (given, used) == (2, 1) and rules.jokers <= rules.min_set_length - 2
            else:
                assert name == "joker_retrieval" and rules.jokers == 0, (rules, name)
                assert (given, used) == ("official", "free")


def test_rules_the_search_solves_as_given_are_kept():
    for rules in (Rules(min_real_tiles=2, jokers=1), Rules(joker_retrieval="official",
                                                           jokers=0),
                  Rules(copies=3, min_real_tiles=2, jokers=4)):
        assert not rules._refusals() and rules.solved_as() is rules
        assert rules.check_supported() is rules


def test_an_option_that_binds_keeps_its_refusal():
    rules = Rules(copies=3, min_set_length=4, min_real_tiles=2, jokers=3)
    assert rules.solved_as() is rules
    assert rules.unsupported()[0] == "copies=3 with min_real_tiles=2"
    with pytest.raises(RuleError, match="copies=3 with min_real_tiles=2 is not supported"):
        best_move([], "R5 R5 R5 R6", rules=rules)


def test_hand_cases():
    # three copies, sets of 4, two real tiles: R5 R6 J J R9 is a run (R7, R8 the jokers)
    rules = Rules(copies=3, min_set_length=4, min_real_tiles=2)
    assert rules.wide_search  # (the width-generic DP solves it as one real tile a set)
    assert best_move([], "R5 R6 J J R9 R9 R9", rules=rules).tiles == 5
    assert best_move([], "R5 J J B9 B9 B9", rules=rules).tiles == 0  # (no set of 4)
    # no jokers, official retrieval, two real tiles, a third copy: meld R10 R11 R12 (33),
    # then B7 joins the table's group
    rules = Rules(copies=3, jokers=0, joker_retrieval="official", meld_continue=True,
                  min_real_tiles=2)
    assert rules._refusals() and rules.solved_as() != rules
    move = best_move([["K7", "R7", "O7"]], "R10 R11 R12 B7 B7", False, rules=rules)
    assert move.tiles == 4 and move.value == 40


def unbound_case(seed: int):
    """Random rules among those solved through options that bind no set, and a position."""
    rng = random.Random(seed)
    rules = rng.choice(SOLVED_AS_OTHERS)
    table, rack = random_table_and_rack(rng, rules, rng.choice((3, 8)), rng.choice((5, 10)),
                                        0.8)
    return rules, table, rack, rng.random() < 0.75


@pytest.mark.parametrize("seed", range(24))
def test_unbound_options_match_the_oracle(seed):
    same_as_the_oracle(*unbound_case(seed))
