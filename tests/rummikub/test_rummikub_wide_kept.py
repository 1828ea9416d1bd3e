"""Least disturbance on wide tile sets: the most sets kept at an optimum short of the whole
rack, by the branched relaxation's node (:mod:`engines.rummikub.wide_kept`).

When the optimum leaves rack tiles out (the kernel's ``ASK_PARTS``), the engine first
branches the relaxation of the sets kept and looks for a move keeping its node's sets (the
exact pass on the rest of the table); found, it is the answer, with no pass over the
held-out subsets.  Checked: the rest of the table, the answers against the oracle on small
positions where narrow passes of one state a layer send most of them down that path (the
node answering on most), and the bench's position that was the wide rows' tail.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

from engines.rummikub import Position, best_move, check_move, wide, wide_kept
from engines.rummikub.position import _counts
from engines.rummikub.rules import Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict


def test_the_rest_of_the_table_is_the_table_less_the_sets_chosen():
    rules = Rules(colours=5, jokers=2)
    pos = Position.from_strings([["K1", "K2", "K3"], ["R5", "J", "R7"], ["B9", "O9", "J"]], "",
                                **rules.position_limits())
    melds = wide._table_melds(pos, rules)
    must, _ = _counts(pos.table_tiles, rules.colours, rules.numbers)
    rest, rest_j = wide_kept.rest_of_table(melds, np.array([1, 1, 0]), must, 2)
    assert rest_j == 1 and rest.sum() == must.sum() - 5
    assert rest[0, :3].sum() == 0 and rest[1, 4] == 0 and rest[1, 6] == 0  # (K1-3, R5, R7)


def _case(seed: int) -> tuple[Rules, list, list]:
    rng = random.Random(seed)
    if seed % 2:  # (the bench's wide crossing: 4 x 13, four copies, three jokers, sets of 4)
        rules = Rules(copies=4, jokers=rng.choice((2, 3)), min_set_length=4)
    else:
        rules = Rules(colours=rng.choice((5, 6)), numbers=rng.choice((8, 13)),
                      copies=rng.choice((2, 3)), jokers=rng.choice((1, 2)),
                      min_set_length=rng.choice((3, 4)))
    table, rack = random_table_and_rack(rng, rules, 9, 9, 0.7)
    return rules, table, rack


def _answered(monkeypatch) -> list[bool]:
    """Narrow passes of one state a layer, and whether the node answered, per call."""
    answered: list[bool] = []
    node = wide_kept.kept_at_node

    def recorded(*args):
        found = node(*args)
        answered.append(found is not None)
        return found

    monkeypatch.setattr(wide, "WIDTH", 1)
    monkeypatch.setattr(wide_kept, "kept_at_node", recorded)
    return answered


@pytest.mark.parametrize("seed", range(40))
def test_the_nodes_answers_match_the_oracle(seed, monkeypatch):
    _answered(monkeypatch)
    same_as_the_oracle(*_case(seed), True)


def test_the_node_answers_most_of_those_positions(monkeypatch):
    """Both objectives: the optima short of the whole rack (one call each) are many, and
    the node answers at least half of them."""
    answered = _answered(monkeypatch)
    cases = [_case(seed) for seed in range(40)]
    for (rules, table, rack), objective in itertools.product(cases, ("tiles", "value")):
        best_move(table, rack, True, objective, rules)
    assert len(answered) >= 16 and 2 * sum(answered) >= len(answered)


def test_the_wide_rows_tail_keeps_the_nodes_sets():
    """copies=4 + jokers=3 + sets of 4, the bench's seed 4 80J #4 (the tiles objective's
    optimum leaves five tiles out in 153 ways; the relaxation says 8 sets kept, 6 the most):
    the exact pass from the optimum over the held-out subsets stored 314 k states (241 k
    whether it asked for 8, 7 or 6 sets); the branched relaxation's node keeps 6 and the
    rest of the table makes the move, a twentieth of the states, the same answer."""
    rules = Rules(least_disturbance=True, copies=4, jokers=3, min_set_length=4)
    p = restrict(band_positions(80, True, n=5, seed=4)[4], rules)
    states = []
    for branch in (True, False):
        wide_kept.BRANCH = branch
        try:
            wide.STATS[:] = 0
            move = best_move(p["table"], p["rack"], True, "tiles", rules)
        finally:
            wide_kept.BRANCH = True
        states.append(int(wide.STATS[0]))
        assert (move.tiles, move.value, move.sets_kept) == (17, 116, 6)
        pos = Position.from_json(dict(p, initial_meld_done=True), **rules.position_limits())
        assert check_move(pos, move, rules) == []
    assert states[0] < 30_000 < 200_000 < states[1]
