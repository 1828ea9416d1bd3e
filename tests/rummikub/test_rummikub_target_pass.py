"""The plain DP's passes skip the exact pass at the whole-rack target where the wider
flexible searches ran and missed it (``solvers.rummikub._aims._skip_target_pass``): the
exact pass from the beam pass's floor then finds the optimum alone.  Checked on bench
positions with four jokers that take that path (the three searches at the target truncated,
none reaching it): the answer equals the exact pass's alone (``beam=0``), for both
objectives; and the gate (every tile set that runs the wider searches but three or more
copies with four jokers)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules
from engines.rummikub.position import _counts, objective_weights
from solvers.rummikub._aims import WIDER_FLEXIBLE, _skip_target_pass
from solvers.rummikub._dp import solve_pass
from solvers.rummikub._exact import solve_arrays
from solvers.rummikub._layout import BEAM, rules_mode
from solvers.rummikub._one_pass import _playable, playable_width

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

FOUR = Rules(jokers=4, least_disturbance=False)
# (seed, position) of the 40J band whose whole-rack target is out of reach and that the wider
# searches cannot rule out (the bench's slowest plain moves with four jokers)
MISSED = ((11, 6), (4, 13), (1, 8))


def _arrays(seed: int, index: int, objective: str) -> tuple:
    p = restrict(band_positions(40, True, n=20, seed=seed)[index], FOUR)
    pos = Position.from_strings(p["table"], p["rack"], True, **FOUR.position_limits())
    must, must_j = _counts(pos.table_tiles)
    rack, rack_j = _counts(pos.rack)
    weight, joker_weight = objective_weights(objective)
    return must, rack, must_j, rack_j, weight, joker_weight, int(FOUR.search_mode(True))


def _searches_miss_the_target(must, rack, must_j, rack_j, weight, joker_weight, mode) -> bool:
    """Whether the flexible searches of ``_exact._passes`` at the whole-rack target all
    truncate without reaching it (so the exact pass at the target would run)."""
    group_ok = FOUR.group_tables()[0]
    opt = _playable(must, rack, must_j + rack_j, playable_width(mode))
    target = (must_j * joker_weight + rack_j * max(0, joker_weight)
              + int((opt * np.maximum(0, weight)).sum()))
    for width in (BEAM // 4, *(BEAM * k for k in WIDER_FLEXIBLE)):
        # (hold and budget given, as every test gives them: one compiled form of solve_pass)
        status, score, truncated = solve_pass(
            must, opt, must_j, rack_j, weight, joker_weight, mode, group_ok,
            np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64), np.zeros(2, np.int64),
            target, -width, None, 0)
        if not truncated or (status == 1 and score + must_j * joker_weight >= target):
            return False
    return True


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_skipping_the_target_pass_keeps_the_optimum(objective: str) -> None:
    took = 0
    for seed, index in MISSED:
        must, rack, must_j, rack_j, weight, joker_weight, mode = _arrays(seed, index, objective)
        took += _searches_miss_the_target(must, rack, must_j, rack_j, weight, joker_weight, mode)
        answers = [
            [int(a[0]) for a in solve_arrays(
                must[None], rack[None], np.array([must_j]), np.array([rack_j]), weight[None],
                np.array([joker_weight]), np.array([mode]), parallel=False, beam=beam,
                group_ok=FOUR.group_tables()[0])[:2]]
            for beam in (0, BEAM)]
        assert answers[0] == answers[1], (seed, index, objective)
    if objective == "tiles":  # (the path is taken: the tiles target is what these miss)
        assert took == len(MISSED)


def test_the_target_pass_is_skipped_except_with_more_copies_and_four_jokers() -> None:
    for copies, jokers, skipped in ((2, 3, True), (2, 4, True), (3, 2, True), (4, 3, True),
                                    (3, 4, False)):
        mode = rules_mode(True, copies=copies)
        assert bool(_skip_target_pass(mode, jokers)) is skipped, (copies, jokers)
