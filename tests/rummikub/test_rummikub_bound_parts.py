"""The linear relaxation's rows of the optimum's parts (``solvers.rummikub._bound.
objective_parts``): every optimal move plays the same rack tiles, value and jokers, so the
relaxation may hold each at the optimum's instead of their one weighted sum.

The bound must stay at or above the most sets kept (brute force over the sets held out on
small tables, the exact passes on the bench's) and reach it where the one row did not.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import _counts, objective_weights

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from test_rummikub_bound import _inputs

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

COPIES4 = Rules(least_disturbance=True, copies=4)


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_parts_of_an_engine_score_are_its_tiles_value_and_jokers(objective: str) -> None:
    from solvers.rummikub._bound import objective_parts

    weight, joker_weight = objective_weights(objective)
    rng = random.Random(5)
    for _ in range(200):
        rack = np.array([[rng.randint(0, 2) for _v in range(13)] for _c in range(4)],
                        np.int64)
        rack_j = rng.randint(0, 4)
        played = np.array([[rng.randint(0, k) for k in row] for row in rack], np.int64)
        jokers = rng.randint(0, rack_j)
        score = int((weight * played).sum()) + joker_weight * jokers
        value = int((played * np.arange(1, 14)).sum())
        parts = objective_parts(weight, joker_weight, score, rack, rack_j)
        assert parts == (int(played.sum()), value, jokers)


def test_weights_of_another_form_or_a_score_that_splits_two_ways_have_no_parts() -> None:
    from solvers.rummikub._bound import objective_parts

    rack = np.ones((4, 13), np.int64)
    weight, joker_weight = objective_weights("tiles")
    other = weight.copy()
    other[2, 5] += 1  # (not a + b * number)
    assert objective_parts(other, joker_weight, 2_000_030, rack, 2) == (-1, -1, -1)
    assert objective_parts(weight, joker_weight + 1, 2_000_030, rack, 2) == (-1, -1, -1)
    close = np.broadcast_to(3 + np.arange(1, 14, dtype=np.int64), (4, 13)).copy()
    assert objective_parts(close, 2, 12, rack, 0) == (-1, -1, -1)  # 3 tiles of 1 or 2 of 3


def _bound(pos: Position, obj: dict, objective: str, rules: Rules) -> tuple[int, int, int]:
    """(the bound, the plain move's sets kept, the most sets kept by the exact passes)."""
    from solvers.rummikub._bound import sets_bound

    plain, args = _inputs(obj, pos, objective, rules)
    bound, _pivots, _columns = sets_bound(*args, 0, len(pos.table))
    best = best_move(obj["table"], obj["rack"], True, objective, rules).sets_kept
    return bound, plain.sets_kept, best


def test_the_bound_reaches_the_most_sets_kept_where_one_objective_row_did_not() -> None:
    """copies=4 60J seed 11: the one weighted row's bound was 10 on positions 1 and 17, two
    sets above the most kept; with the parts it is the most kept, and never below it on
    the band's other positions."""
    equal = {}
    for i, p in enumerate(band_positions(60, True, n=20, seed=11)):
        obj = restrict(p, COPIES4)
        pos = Position.from_strings(obj["table"], obj["rack"], max_copies=4)
        bound, _plain, best = _bound(pos, obj, "tiles", COPIES4)
        assert best <= bound <= len(pos.table), i
        equal[i] = bound == best
    assert equal[1] and equal[17]


def _most_kept_brute(pos: Position, objective: str, rules: Rules) -> int:
    """The most table sets an optimal move keeps: the DP on every subset of sets in play."""
    weight, joker_weight = objective_weights(objective)
    rack, rack_j = _counts(pos.rack)
    oracle = least._Oracle(list(pos.table), rack, rack_j, weight, joker_weight, rules)
    full = (1 << len(pos.table)) - 1
    target = oracle.solve(full)[0]
    return max((full & ~in_play).bit_count() for in_play in range(full + 1)
               if oracle.solve(in_play)[0] == target)


def small_tables(rules: Rules):
    """Random positions of 2-7 table sets under ``rules`` (the bench's extra copies and
    jokers in the rack): ``(obj, position, objective)``, a third with the value objective."""
    for i, p in enumerate(rummikub_positions(40, 17, table_tiles=(12, 24), rack_size=(5, 10),
                                             initial_meld_rate=0.0)):
        obj = restrict(p, rules)
        pos = Position.from_strings(obj["table"], obj["rack"], max_jokers=rules.jokers,
                                    max_copies=rules.copies)
        if 2 <= len(pos.table) <= 7:
            yield obj, pos, "value" if i % 3 == 0 else "tiles"


@pytest.mark.parametrize("rules", [Rules(least_disturbance=True, copies=4),
                                   Rules(least_disturbance=True, copies=3, jokers=3)])
def test_the_bound_is_never_below_brute_force_on_small_tables(rules: Rules) -> None:
    checked = tight = 0
    for obj, pos, objective in small_tables(rules):
        bound, plain_kept, _best = _bound(pos, obj, objective, rules)
        most = _most_kept_brute(pos, objective, rules)
        assert plain_kept <= most <= bound, (obj, objective)
        checked += 1
        tight += most == bound
    assert checked >= 20
    assert tight >= 0.7 * checked, (tight, checked)
