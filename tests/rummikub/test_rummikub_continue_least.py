"""Meld then continue with least disturbance (engines.rummikub.continue_least): the melded
player's plain move is solved once; the meld-then-continue DP runs only where its tiles
hold no meld, and the answers are the route's without it."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Rules, arrays
from engines.rummikub.continue_least import continue_moves, routes
from engines.rummikub.position import Position

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub_rules import band_positions, restrict

RULES = Rules(least_disturbance=True, meld_continue=True)


def _positions(rules: Rules, melded: bool = False) -> list[Position]:
    found = []
    for size, jokers in ((20, False), (40, True), (60, True)):
        for p in band_positions(size, jokers, n=4, seed=11):
            p = restrict(p, rules)
            found.append(Position.from_strings(p["table"], p["rack"], initial_meld_done=melded,
                                               **rules.position_limits()))
    return found


def _answer(move) -> tuple:
    return (move.tiles, move.value, move.sets_kept, sorted(map(str, move.played)),
            sorted(" ".join(map(str, m)) for m in move.table),
            sorted(" ".join(map(str, m)) for m in move.new_sets))


@pytest.mark.parametrize("rules", [RULES, replace(RULES, min_real_tiles=2),
                                   replace(RULES, joker_retrieval="official"),
                                   replace(RULES, meld_threshold=127)])  # (racks with no meld)
def test_the_same_answers_as_the_meld_then_continue_dp(rules: Rules) -> None:
    positions = _positions(rules) + _positions(rules, melded=True)[:3]
    assert routes(rules)
    routed = arrays.solve_moves(positions, "tiles", 1, rules)
    direct = arrays._solve_moves(positions, "tiles", 1, rules)
    assert [_answer(m) for m in routed] == [_answer(m) for m in direct]


def test_the_meld_then_continue_dp_only_where_the_melded_move_holds_no_meld() -> None:
    positions = _positions(RULES)
    continued = []

    def solve(batch, objective, threads, rules):
        if rules.meld_continue:
            continued.extend(batch)
        return arrays._solve_moves(batch, objective, threads, rules)

    continue_moves(positions, "tiles", 1, RULES, solve)
    assert len(continued) < len(positions) // 2  # (most melded moves hold a meld)


def test_the_relaxation_takes_the_melded_move(monkeypatch) -> None:
    positions = [p for p in _positions(RULES) if p.table]
    melded_solves = []
    solve_moves = arrays.solve_moves

    def spy(batch, objective="tiles", threads=None, rules=RULES):
        melded_solves.extend(p for p in batch if p.initial_meld_done and p.table)
        return solve_moves(batch, objective, threads, rules)

    monkeypatch.setattr(arrays, "solve_moves", spy)
    continue_moves(positions, "tiles", 1, RULES, arrays._solve_moves)
    assert melded_solves == []  # (the relaxation drops meld then continue alone: no DP again)


def test_no_route_without_a_threshold_or_least_disturbance() -> None:
    assert not routes(replace(RULES, meld_threshold=0))
    assert not routes(replace(RULES, least_disturbance=False))
    assert not routes(replace(RULES, meld_continue=False))


@pytest.mark.parametrize("options", [dict(copies=4), dict(copies=3), dict(min_real_tiles=2),
                                     dict(joker_retrieval="official")])
def test_the_bound_keeps_as_many_sets_on_a_first_turn(monkeypatch, options: dict) -> None:
    """The bound on the sets kept (:data:`solvers.rummikub._least.CONTINUE_BOUND`) keeps as
    many sets as the passes without it on a first turn that runs them (seed 13 40J #6 of
    the --combos bench, whose melded optimum is above the rules'); with four copies the
    check of its node's sets is the move (1,261 held-out states, 92,220 without)."""
    from engines.rummikub import continue_least, least
    from solvers.rummikub._least import CONTINUE_BOUND

    rules = replace(RULES, **options)
    p = restrict(band_positions(40, True, n=7, seed=13)[6], rules)
    pos = Position.from_strings(p["table"], p["rack"], initial_meld_done=False,
                                **rules.position_limits())
    policy = continue_least.continue_policy
    found = []
    for bit in (0, CONTINUE_BOUND):
        def without(rules_policy, bit=bit):
            narrow, exact_budget, wider = policy(rules_policy)
            exact_budget[3] &= ~CONTINUE_BOUND | bit
            return narrow, exact_budget, wider

        monkeypatch.setattr(continue_least, "continue_policy", without)
        monkeypatch.setattr(least, "WORK", np.zeros(2, np.int64))
        move = least.least_disturbing_move(pos, "tiles", rules)
        found.append((move.tiles, move.value, move.sets_kept, int(least.WORK[1])))
    assert found[0][:3] == found[1][:3]
    assert found[0][2] > 0 and found[0][3] > 0  # (the passes ran)
    if rules.copies == 4:
        assert found[1][3] < found[0][3] // 10
