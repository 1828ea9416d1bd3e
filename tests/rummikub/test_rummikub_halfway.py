"""Four copies and three or more jokers: the exact pass from halfway between the beam pass's
score and the target (``solvers.rummikub._halfway.halfway_first``), and least disturbance
starting from the relaxation's plain move where the rules allow it
(``engines.rummikub.relaxed_first._from_relaxed_plain``).

Checked: on bench positions of copies=4 + jokers=3 (one real tile a set: least disturbance's
relaxation of two real tiles) the passes reach the optimum of the exact pass alone
(``beam=0``), the halfway pass answering where the optimum reaches it (seed 2 60J #9) and
the pass from the beam's score after it where not (seed 1 60J #9); a halfway pass cut at
any budget goes on at its own floor to the same answer; three copies and four jokers run no
halfway pass; a position whose relaxation's least-disturbing move breaks two real tiles but
whose relaxation's plain move does not is answered with no solve under the rules, as the
integer programme answers it."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from rummikub_random_sets import same_as_the_oracle

from engines.rummikub import Position, Rules, arrays, best_move, least_loose
from engines.rummikub.position import _counts, objective_weights
from engines.rummikub.tiles import parse_tiles
from solvers.rummikub import _exact
from solvers.rummikub._exact import LAST_PASS, _passes
from solvers.rummikub._halfway import HALFWAY_TABLE, halfway_first
from solvers.rummikub._layout import BEAM, NEG, NO_CAP
from solvers.rummikub._resume import CUT, FLOOR, STATES, no_kept

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

TWO_REAL = Rules(least_disturbance=True, min_real_tiles=2, copies=4, jokers=3)
RELAXED = Rules(copies=4, jokers=3, least_disturbance=False)
HALFWAY = LAST_PASS - 1  # (the halfway pass's index in _passes' share[2])


def _arrays(seed: int, size: int, index: int, objective: str = "tiles") -> tuple:
    p = restrict(band_positions(size, True, n=index + 1, seed=seed)[index], TWO_REAL)
    pos = Position.from_strings(p["table"], p["rack"], True, **RELAXED.position_limits())
    must, must_j = _counts(pos.table_tiles)
    rack, rack_j = _counts(pos.rack)
    weight, joker_weight = objective_weights(objective)
    return (must, rack, np.int64(must_j), np.int64(rack_j), np.ascontiguousarray(weight),
            np.int64(joker_weight), np.int64(RELAXED.search_mode(True, pos.table)),
            RELAXED.group_tables()[0])


def _outputs() -> tuple:
    return np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64), np.zeros(2, np.int64)


def test_four_copies_with_three_jokers_on_a_large_table_only() -> None:
    for copies in (2, 3, 4):
        mode = np.int64(Rules(copies=copies).search_mode(True))
        for jokers in (2, 3, 4):  # (in play)
            for table in (HALFWAY_TABLE - 1, HALFWAY_TABLE):
                assert halfway_first(mode, np.int64(jokers), np.int64(table)) == (
                    copies == 4 and jokers >= 3 and table == HALFWAY_TABLE)


@pytest.mark.parametrize("where, answered_halfway", [((2, 60, 9), True), ((1, 60, 9), False)])
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_passes_reach_the_exact_optimum(where: tuple, answered_halfway: bool,
                                            objective: str) -> None:
    args = _arrays(*where, objective)
    share = _exact._unbounded()
    status, score, _kept = _passes(*args, *_outputs(), np.int64(BEAM), NO_CAP, share,
                                   no_kept(), True)
    exact = _passes(*args, *_outputs(), np.int64(0), NO_CAP, _exact._unbounded(), no_kept(),
                    True)
    assert status == exact[0] == 1 and score == exact[1], (where, objective)
    if objective == "tiles":  # (measured: the optimum reaches halfway on seed 2 #9 only)
        assert (share[2] == HALFWAY) == answered_halfway, where


def test_a_halfway_pass_cut_at_every_budget_goes_on_to_the_same_answer() -> None:
    args = _arrays(2, 60, 9)
    whole_out = _outputs()
    whole = _passes(*args, *whole_out, np.int64(BEAM), NO_CAP, _exact._unbounded(), no_kept(),
                    True)
    share, kept, floors = np.array([256, NEG, 0, 0, NO_CAP], np.int64), no_kept(), set()
    while True:
        out = _outputs()
        status, score, kept = _passes(*args, *out, np.int64(BEAM), NO_CAP, share, kept, True)
        if status >= 0:
            break
        if share[2] == HALFWAY:
            assert kept[0][CUT] == 1
            floors.add(int(kept[0][FLOOR]))
        share[0] = 2 * max(256, kept[0][STATES])  # (the next call: more states)
    assert (status, score) == whole[:2] and share[2] == HALFWAY
    assert [a.tolist() for a in out[:2]] == [a.tolist() for a in whole_out[:2]]
    assert len(floors) == 1  # (the pass went on at the floor it was cut at)


def test_a_relaxed_plain_move_the_rules_allow_needs_no_solve_under_them(monkeypatch) -> None:
    # (a random position: the relaxation's least-disturbing move keeps two sets with a run
    # of one real tile; its plain move keeps none and the rules allow it)
    table = [parse_tiles(s) for s in ("J B7 B8 B9 B10", "J O7 K7", "R4 R5 R6 R7")]
    rack = parse_tiles("K10 J")
    solve_rules = arrays._solve_rules

    def no_solve_under_the_rules(positions, objective, threads, rules, *rest, **options):
        assert rules.min_real_tiles == 1, "solved under two real tiles"
        return solve_rules(positions, objective, threads, rules, *rest, **options)

    monkeypatch.setattr(arrays, "_solve_rules", no_solve_under_the_rules)
    # (the least-disturbing move made again under the rules would answer first, its own
    # small solve under two real tiles: this test is of the route after it)
    monkeypatch.setattr(least_loose, "rearranged", lambda *args: None)
    for objective in ("tiles", "value"):
        move = best_move(table, rack, True, objective, TWO_REAL)
        assert (move.tiles, move.value, move.sets_kept) == (2, 10, 2), objective
    same_as_the_oracle(TWO_REAL, table, rack, True)
