"""A position searched with its numbers reversed (:func:`engines.rummikub.wide._solve`).

Under least disturbance, a melded position whose rack lies at higher numbers than its
table, on average, is searched reversed (the tile counts, the objective's weights and the
table sets; :func:`~engines.rummikub.wide._rack_later`), and its sets turned back.  Every
position searched reversed: the answers (both objectives, least disturbance on and off)
are the oracle's and valid; so are they where a search gives its orientation up
(``TURN_STATES``) for the other one, and that one too for the first one unbounded.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import wide
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules


@pytest.mark.parametrize("least", (False, True))
def test_positions_searched_reversed_are_the_oracles(least, monkeypatch):
    reversed_searches: list[bool] = []
    search = wide._search

    def recorded(pos, objective, rules, old, reverse, most):
        reversed_searches.append(reverse)
        return search(pos, objective, rules, old, reverse, most)

    monkeypatch.setattr(wide, "_rack_later", lambda pos, rules: pos.initial_meld_done)
    monkeypatch.setattr(wide, "_search", recorded)
    for seed in range(30):
        rng = random.Random(seed)
        rules = Rules(colours=rng.choice((5, 6, 8)), numbers=rng.choice((8, 13)),
                      copies=rng.choice((2, 3)), jokers=rng.choice((0, 1, 2)),
                      least_disturbance=least)
        table, rack = random_table_and_rack(rng, rules, 9, 9, 0.7)
        same_as_the_oracle(rules, table, rack, True)
    assert reversed_searches.count(True) >= 60


def test_a_reversed_run_ascends_again():
    rules = Rules(colours=6, numbers=20)
    run = wide._table_melds(Position.from_strings(
        [["G14", "J", "G16"]], "", **rules.position_limits()), rules)[0]
    turned = wide._reversed_meld(run, rules.numbers)
    assert [str(s.stands_for) for s in turned] == ["G5", "G6", "G7"]
    assert [s.tile.is_joker for s in turned] == [False, True, False]
    assert wide._reversed_meld(turned, rules.numbers) == run


@pytest.mark.parametrize(("rack", "least", "melded", "later"), [
    ("G17 Y15 J", True, True, True), ("G2 Y5", True, True, False),
    ("G17 Y15", False, True, False), ("G17 Y15", True, False, False)])
def test_the_rack_later_than_the_table_under_least_disturbance(rack, least, melded, later):
    rules = Rules(colours=6, numbers=20, least_disturbance=least)
    pos = Position.from_strings([["G4", "G5", "G6"], ["Y9", "G9", "B9"]], rack, melded,
                                **rules.position_limits())
    assert wide._rack_later(pos, rules) is later


@pytest.mark.parametrize("turns", (1, 2))
def test_a_search_past_its_bound_goes_on_the_other_way(turns, monkeypatch):
    searches: list[tuple[bool, int]] = []  # (per search: reversed, its bound)
    given_up = [0]  # (the searches given up in this move's)
    search = wide._search

    def bounded(pos, objective, rules, old, reverse, most):
        searches.append((reverse, most))
        if most == wide.TURN_STATES and given_up[0] < turns:
            given_up[0] += 1
            return -1, None, None, None  # (as a pass past the bound returns)
        given_up[0] = 0
        return search(pos, objective, rules, old, reverse, most)

    monkeypatch.setattr(wide, "_search", bounded)
    for seed in range(12):
        rng = random.Random(seed)
        rules = Rules(colours=rng.choice((5, 6, 8)), numbers=rng.choice((8, 13)),
                      copies=rng.choice((2, 3)), jokers=rng.choice((0, 1, 2)))
        table, rack = random_table_and_rack(rng, rules, 9, 9, 0.7)
        searches.clear()
        same_as_the_oracle(rules, table, rack, True)
        first = searches[0][0]
        want = [(first, wide.TURN_STATES), (not first, wide.TURN_STATES)]
        want += [(first, wide.MAX_STATES)] if turns == 2 else []
        assert searches[: turns + 1] == want
