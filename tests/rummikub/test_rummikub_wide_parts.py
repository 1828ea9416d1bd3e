"""Least disturbance on wide tile sets when the optimum leaves rack tiles out.

Once the narrow passes miss the whole rack, the kernel finds the objective's optimum by a
pass that holds no table set out (status ``ASK_PARTS``), and the engine
(:func:`engines.rummikub.wide._kept_by_parts`) searches the most sets kept per part of the
rack that such a move leaves out (:func:`solvers.rummikub.wide._exact.left_out`).  Checked:
``left_out`` lists exactly the parts of a gain (brute force), and on small positions, where
narrow passes of one state a layer (``WIDTH = 1``) send most of them down that path (and
``MAX_PARTS = 1`` down its fallback over the whole rack), the answers are the oracle's.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

import solvers.rummikub.wide as kernels
from engines.rummikub import best_move, wide, wide_kept
from engines.rummikub.rules import Rules
from solvers.rummikub.wide._exact import ASK_FREE, ASK_PARTS, PLAYS, left_out
from solvers.rummikub.wide._pass import NEG


@pytest.mark.parametrize("seed", range(30))
def test_left_out_lists_every_part_of_a_gain(seed):
    rng = random.Random(seed)
    colours, numbers = rng.randint(1, 3), rng.randint(1, 4)
    opt = np.array([[rng.choice((0, 0, 1, 2)) for _ in range(numbers)]
                    for _ in range(colours)], np.int64)
    weight = np.array([[rng.randint(1, 6) for _ in range(numbers)] for _ in range(colours)],
                      np.int64)
    opt_j, joker_weight = rng.randint(0, 2), rng.randint(1, 6)
    counts = [*opt.ravel().tolist(), opt_j]
    gains = [*weight.ravel().tolist(), joker_weight]
    gain = rng.randint(0, 12)
    want = sorted(take for take in itertools.product(*(range(k + 1) for k in counts))
                  if sum(t * g for t, g in zip(take, gains)) == gain)
    parts = np.zeros((64, colours * numbers + 1), np.int64)
    count = left_out(opt, weight, opt_j, joker_weight, gain, parts)
    assert sorted(tuple(row) for row in parts[:count].tolist()) == want
    if want:  # (one row short: the count says there are more)
        fewer = np.zeros((len(want) - 1, colours * numbers + 1), np.int64)
        assert left_out(opt, weight, opt_j, joker_weight, gain, fewer) == len(want)


def _case(seed: int) -> tuple[Rules, list, list]:
    rng = random.Random(seed)
    rules = Rules(colours=rng.choice((5, 6, 8)), numbers=rng.choice((8, 13)),
                  copies=rng.choice((2, 3)), jokers=rng.choice((0, 1, 2)),
                  min_set_length=rng.choice((3, 3, 4)))
    table, rack = random_table_and_rack(rng, rules, 9, 9, 0.7)
    return rules, table, rack


def _counting(monkeypatch) -> list[int]:
    """Narrow passes of one state a layer, and the calls of ``_kept_by_parts`` counted (the
    branched relaxation's node, which would answer most first, left out: ``wide_kept``)."""
    calls: list[int] = []
    searched = wide._kept_by_parts

    def counted(*args):
        calls.append(1)
        return searched(*args)

    monkeypatch.setattr(wide, "WIDTH", 1)
    monkeypatch.setattr(wide_kept, "BRANCH", False)
    monkeypatch.setattr(wide, "_kept_by_parts", counted)
    return calls


@pytest.mark.parametrize("seed", range(40))
def test_sets_kept_by_parts_match_the_oracle(seed, monkeypatch):
    _counting(monkeypatch)
    if seed % 3 == 2:  # (the fallback: the passes over the whole rack)
        monkeypatch.setattr(wide, "MAX_PARTS", 1)
    if seed % 3 == 1:  # (the pass over the whole rack first, past its states: the parts)
        monkeypatch.setattr(wide, "FEW_PARTS", 0)
        monkeypatch.setattr(wide, "PART_STATES", 1 if seed % 2 else wide.MAX_STATES)
    same_as_the_oracle(*_case(seed), True)


def test_the_parts_are_searched_on_most_of_those_positions(monkeypatch):
    calls = _counting(monkeypatch)
    for seed in range(40):
        rules, table, rack = _case(seed)
        best_move(table, rack, True, "tiles", rules)
    assert len(calls) >= 8


def test_the_objective_is_searched_from_an_aims_floor(monkeypatch):
    """The pass that holds no set out starts from the floor of an aim that the relaxation
    leaves in reach (the kernel asks for its bounds: ``ASK_FREE``), on most of the positions
    that go down that path; the answers: :func:`test_sets_kept_by_parts_match_the_oracle`."""
    statuses: list[int] = []
    solve = kernels.solve_wide

    def recorded(*args):
        status, score = solve(*args)
        statuses.append(int(status))
        return status, score

    monkeypatch.setattr(wide, "WIDTH", 1)
    monkeypatch.setattr(kernels, "solve_wide", recorded)
    for seed in range(40):
        rules, table, rack = _case(seed)
        best_move(table, rack, True, "tiles", rules)
    assert statuses.count(ASK_PARTS) >= 8
    assert statuses.count(ASK_FREE) >= statuses.count(ASK_PARTS)


def test_rests_that_no_move_plays_are_skipped_without_the_relaxation(monkeypatch):
    """Per part, an exact pass holding no set out (``PLAYS``, at most ``PLAYS_STATES``
    states) first: a rest it cannot play whole is skipped before its relaxation."""
    plays: list[int] = []
    searched = wide._kept_by_parts

    def recorded(search, bound, *args):
        def checked(opt, opt_j, bounds, resume, start, *most):
            status, score = yield from search(opt, opt_j, bounds, resume, start, *most)
            if resume == PLAYS:
                plays.append(int(status))
            return status, score
        return searched(checked, bound, *args)

    monkeypatch.setattr(wide, "WIDTH", 1)
    monkeypatch.setattr(wide_kept, "BRANCH", False)
    monkeypatch.setattr(wide, "_kept_by_parts", recorded)
    for seed in range(400):
        rules, table, rack = _case(seed)
        best_move(table, rack, True, "tiles", rules)
    assert 0 in plays and 1 in plays


@pytest.mark.parametrize(("probed", "asked_per_number"), [
    ((-1, -1), (True, True, False, False)),  # (two in a row past them: the bounds first)
    ((-1, 0, -1, -1), (True, True, True)),  # (a rest not played between: the probes first)
])
def test_after_probes_past_their_states_the_relaxation_comes_first(probed, asked_per_number,
                                                                   monkeypatch):
    """Scripted: four parts of one tile each, whose probes answer ``probed`` in turn (-1:
    past their states, 0: the rest is not played); once ``PROBES_PAST`` (here two) in a row
    passed their states, a part asks the relaxation for the most kept alone (not per
    number) before its probe, and none reaches more than the best found."""
    monkeypatch.setattr(wide, "PROBES_PAST", 2)
    colours, numbers = 4, 8
    must = np.ones((colours, numbers), np.int64)  # (a run of every colour: each tile fits)
    rack = np.zeros((colours, numbers), np.int64)
    rack[0, 1] = rack[1, 3] = rack[2, 5] = rack[3, 7] = 1
    weight = np.full((colours, numbers), 512, np.int64)
    objective = 3 * 512  # (the whole rack less one tile: four parts)
    answers = list(probed)
    asked: list[tuple[int, bool]] = []

    def search(opt, opt_j, bounds, resume, start, *most):
        assert resume == PLAYS
        return answers.pop(0), NEG
        yield  # (a generator, as the engine's)

    def bound(opt, opt_j, score, per_number=True):
        asked.append((int(opt.sum()), per_number))
        return np.array([0, score, 2 if opt.sum() == 4 else 0])  # (rests: none kept more)

    found = wide._kept_by_parts(search, bound, objective, must, 0, rack, 0, (weight, 512), 3,
                                np.zeros((colours, numbers, 4), np.int64),
                                np.zeros(numbers, np.int64))
    with pytest.raises(StopIteration) as stop:
        next(found)
    assert stop.value.value == (1, objective)
    assert not answers  # (every probe scripted was made)
    assert asked == [(4, False)] + [(3, p) for p in asked_per_number]


@pytest.mark.parametrize("reach", range(7))
def test_the_free_passes_floor_bisects_the_aims(reach):
    """The relaxation asked at most three times for six aims; the floor of the aim below
    the highest in reach (none in reach, or the last: no floor)."""
    floors = np.array([60, 50, 40, 30, 20, 10], np.int64)
    asked: list[int] = []

    def bound(score):
        asked.append(score)
        return np.array([0 if score <= floors[min(reach, 5)] and reach < 6 else -1])

    want = floors[reach + 1] if reach + 1 < 6 else NEG
    assert wide._free_floor(bound, floors, 60) == want
    assert len(asked) <= 3
    assert wide._free_floor(bound, floors, 40) == (want if reach >= 2 else 30)


def test_a_run_of_three_jokers_beside_a_second_copy():
    """Found by the pass without held sets (8 x 26 bench, sets of 5 with three jokers):
    R8 left out, P10 J J J P14 is a run of five, so five tiles.  Eight colours of 8-bit
    codes fill the key: W's two runs at 8, closed before R's sub-step, set its sign bit,
    which the close once read as "cannot be completed" (three tiles)."""
    rules = Rules(colours=8, numbers=26, min_set_length=5, jokers=3, least_disturbance=False)
    table = [["W6", "W7", "W8", "W9", "W10"], ["K8", "R8", "G8", "Y8", "P8"],
             ["W4", "W5", "W6", "W7", "W8"]]
    rack = ["R8", "P10", "P14", "J", "J", "J"]
    assert best_move(table, rack, True, "tiles", rules).tiles == 5
