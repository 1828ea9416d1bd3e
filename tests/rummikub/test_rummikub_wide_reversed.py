"""A position searched with its numbers reversed (:func:`engines.rummikub.wide._solve`).

Under least disturbance, a melded position whose rack lies at higher numbers than its
table, on average, is searched reversed (the tile counts, the objective's weights and the
table sets; :func:`~engines.rummikub.wide._rack_later`), and its sets turned back.  Every
position searched reversed: the answers (both objectives, least disturbance on and off)
are the oracle's and valid; so are they where a search gives its orientation up
(``TURN_STATES``) for the other one, the two then going on in turn under twice the budget
each round, each from the pass where it stopped.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import best_move, wide
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules
from solvers.rummikub.wide._exact import ASK, ASK_FREE


@pytest.mark.parametrize("least", (False, True))
def test_positions_searched_reversed_are_the_oracles(least, monkeypatch):
    reversed_searches: list[bool] = []
    search = wide._search

    def recorded(pos, objective, rules, old, reverse, most, *first):
        reversed_searches.append(reverse)
        return search(pos, objective, rules, old, reverse, most, *first)

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


def _case(seed: int) -> tuple[Rules, list, list]:
    rng = random.Random(seed)
    rules = Rules(colours=rng.choice((5, 6, 8)), numbers=rng.choice((8, 13)),
                  copies=rng.choice((2, 3)), jokers=rng.choice((0, 1, 2)))
    return (rules, *random_table_and_rack(rng, rules, 9, 9, 0.7))


def test_searches_past_their_budget_go_on_in_turn(monkeypatch):
    """Under a budget of 64 states a pass the two ways take turns, the budgets growing,
    until one finishes: the oracle's answers."""
    turns: list[tuple[bool, int]] = []  # (per turn of a move: reversed, the budget)
    search = wide._search

    def recorded(pos, objective, rules, old, reverse, budget, first=None):
        searching = search(pos, objective, rules, old, reverse, budget, first)
        while True:
            turns.append((reverse, budget[0]))
            try:
                answered = next(searching)
            except StopIteration as stop:
                return stop.value
            yield answered

    monkeypatch.setattr(wide, "TURN_STATES", 64)
    monkeypatch.setattr(wide, "_search", recorded)
    rounds = 0
    for seed in range(12):
        rules, table, rack = _case(seed)
        turns.clear()
        best_move(table, rack, True, "tiles", rules)
        assert turns[0][1] == 64 and {way for way, _ in turns} <= {False, True}
        rounds += len({way for way, _ in turns}) == 2 and len(turns) >= 3
        same_as_the_oracle(rules, table, rack, True)
    assert rounds >= 4  # (moves where both ways stopped at their budgets)


def _scripted_ways(monkeypatch, ways: dict[bool, tuple[int, int]]) -> tuple[bool, list]:
    """``wide._ways`` over two scripted searches (per way, reversed or not: the status of
    its first kernel call and the budget its search needs after it), the way as it is
    first: which way finished, and each turn's (way, budget, what it did)."""
    turns: list[tuple[bool, int, str]] = []

    def scripted(pos, objective, rules, old, reverse, budget, first=None):
        status, needs = ways[reverse]
        first.append(status)
        turns.append((reverse, budget[0], "first call"))
        yield True
        while budget[0] < needs:
            turns.append((reverse, budget[0], "stopped"))
            yield None
        turns.append((reverse, budget[0], "found"))
        return reverse

    monkeypatch.setattr(wide, "_search", scripted)
    monkeypatch.setattr(wide, "_rack_later", lambda pos, rules: False)
    rules = Rules(colours=6, numbers=20)
    pos = Position.from_strings([["G4", "G5", "G6"]], "G7", True, **rules.position_limits())
    reverse, found = wide._ways(pos, "tiles", rules, wide._table_melds(pos, rules))
    assert found == reverse
    return reverse, turns


def test_a_way_whose_narrow_passes_found_the_rack_goes_on_where_the_others_missed_it(
        monkeypatch):
    """Stopped at its budget, the way whose first call found the whole rack (ASK) goes on
    under twice its budget where the other way's first call missed it (ASK_FREE): the
    other makes that call alone."""
    turn = wide.TURN_STATES
    reverse, turns = _scripted_ways(monkeypatch, {False: (ASK, 3 * turn),
                                                  True: (ASK_FREE, 100 * turn)})
    assert not reverse
    assert turns == [(False, turn, "first call"), (False, turn, "stopped"),
                     (True, turn, "first call"), (False, 2 * turn, "stopped"),
                     (False, 4 * turn, "found")]
    assert wide._stays([ASK], [ASK_FREE], turn)
    assert not wide._stays([ASK], [ASK_FREE], wide.STAY_STATES)
    assert not wide._stays([ASK_FREE], [ASK], turn) and not wide._stays([ASK], [], turn)
    assert not wide._stays([ASK], [ASK], turn) and not wide._stays([], [ASK_FREE], turn)


def test_the_other_way_has_a_look_then_the_budgets_double(monkeypatch):
    """The other way's first turn after its first call is a look under a share of the
    budget (LOOK_SHARE): a cheap way finishes there; else the two go on in turn, each
    under twice its budget, at least the other's."""
    turn, look = wide.TURN_STATES, wide.TURN_STATES // wide.LOOK_SHARE
    reverse, turns = _scripted_ways(monkeypatch, {False: (ASK_FREE, 10 * turn),
                                                  True: (ASK_FREE, look)})
    assert reverse and turns[-1] == (True, look, "found")
    reverse, turns = _scripted_ways(monkeypatch, {False: (ASK_FREE, 3 * turn),
                                                  True: (ASK, 2 * turn)})
    assert reverse
    assert turns == [(False, turn, "first call"), (False, turn, "stopped"),
                     (True, turn, "first call"), (True, look, "stopped"),
                     (True, turn, "stopped"), (True, 2 * turn, "found")]
    reverse, turns = _scripted_ways(monkeypatch, {False: (ASK, 3 * turn),
                                                  True: (ASK, 2 * turn)})
    assert reverse
    assert [t for t in turns if t[2] != "first call"] == [
        (False, turn, "stopped"), (True, look, "stopped"), (False, 2 * turn, "stopped"),
        (True, 2 * turn, "found")]


def test_a_search_resumed_stores_each_state_once():
    """A way's search stopped at 64 states a pass and resumed under twice the budget each
    time stores the same states as without a budget (every pass finished before it
    stopped is not run again, the stopped pass goes on from its last layer), and finds
    the same arrangement."""
    resumed = 0
    for seed in range(12):
        rules, table, rack = _case(seed)
        pos = Position(table, rack, True, **rules.position_limits())
        old = wide._table_melds(pos, rules)
        found = []
        for start in (wide.MAX_STATES, 64):
            wide.STATS[:] = 0
            budget = [start]
            searching = wide._search(pos, "tiles", rules, old, False, budget)
            while (got := wide._went_on(searching)) is None:
                budget[0] *= 2
            found.append((int(wide.STATS[0]), got[0], *(a.tolist() for a in got[1:])))
            resumed += budget[0] > start
        assert found[0] == found[1]
    assert resumed >= 4
