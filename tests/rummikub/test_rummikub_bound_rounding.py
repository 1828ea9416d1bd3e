"""The bound on the sets kept (``solvers.rummikub._bound``) in floating point: the floor of
the linear programme's optimum (HiGHS's, the same columns priced on by the kernel's own
pricing) at the root and at the branched search's nodes, and never below it, whatever its
duals' rounding: rounded down only past its own rounding error, and the trivial bound where
the duals are not finite (a bound one too low would end the held-out passes on a move
keeping fewer sets than the best).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from ip_model import _highs
from test_rummikub_bound import _inputs

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

FOUR_THREE = Rules(least_disturbance=True, copies=4, jokers=3)


def _programme(obj: dict, objective: str, rules: Rules, solved: bool = True):
    """The branched bound's programme of ``obj`` (:func:`solvers.rummikub._branch.
    branch_programme`'s): ``(lp, bound)`` solved, else ``(lp, None)``."""
    from solvers.rummikub._bound import programme
    from solvers.rummikub._branch import branch_programme
    from solvers.rummikub._layout import REAL2_BIT, highest_number, min_set_length
    from solvers.rummikub._official import placed_run_jokers

    pos = Position.from_strings(obj["table"], obj["rack"], max_jokers=rules.jokers,
                                max_copies=rules.copies)
    _plain, args = _inputs(obj, pos, objective, rules)
    if solved:
        lp, bound, _pivots = branch_programme(*args, 0, len(pos.table))
        return lp, bound
    must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, number, colour, start = args
    colours = placed_run_jokers(mode, rack, number, colour, start, 0, len(pos.table))
    return programme(must, rack, must_j, rack_j, weight, joker_weight, optimum,
                     highest_number(mode), min_set_length(mode), number, colours, start, 0,
                     len(pos.table), True, True, 1 + (mode >> REAL2_BIT & 1)), None


def _lp_optimum(lp) -> float:
    """HiGHS's optimum of the programme ``lp`` (its artificials priced as the kernel's), the
    sets priced on by the kernel's :func:`~solvers.rummikub._bound._price_sets` until none
    prices below zero (on a copy: ``lp`` stays as it was)."""
    import highspy

    from solvers.rummikub._bound import _price_sets

    lp = copy.deepcopy(lp)
    count = lp[0][0]
    idx, val, nnz, cost, upper = lp[1]
    row, joker_row, jokers, numbers, min_len, _tiles, run_row, min_real = lp[2]
    b = lp[3][0]
    h = _highs()  # (quiet)
    while True:
        n = int(count[0])
        model = highspy.HighsLp()
        model.num_col_, model.num_row_ = n, len(b)
        model.col_cost_ = cost[:n].copy()
        model.col_lower_ = np.zeros(n)
        model.col_upper_ = np.where(np.isinf(upper[:n]), highspy.kHighsInf, upper[:n])
        model.row_lower_ = model.row_upper_ = b.astype(float)
        model.sense_ = highspy.ObjSense.kMaximize
        model.a_matrix_.format_ = highspy.MatrixFormat.kColwise
        model.a_matrix_.start_ = np.concatenate([[0], np.cumsum(nnz[:n])]).astype(np.int32)
        model.a_matrix_.index_ = np.concatenate([idx[j, :nnz[j]] for j in range(n)]).astype(
            np.int32)
        model.a_matrix_.value_ = np.concatenate([val[j, :nnz[j]] for j in range(n)])
        h.passModel(model)
        h.run()
        assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
        y = np.array(h.getSolution().row_dual)  # (a maximum's: the optimum's rate in b)
        ncols, _least = _price_sets(y, row, joker_row, jokers, numbers, min_len, idx, val,
                                    nnz, cost, upper, n, len(nnz), run_row, min_real)
        if ncols == n:
            return h.getInfo().objective_function_value
        count[0] = ncols


def _bench_programmes():
    """copies=4 + jokers=3 on the bench's seed 17 (60J, 80J) and seed 5 (60, 80): the
    positions the branched bound serves most."""
    for size, jokers, seed in ((60, True, 17), (80, True, 17), (60, False, 5), (80, False, 5)):
        for p in band_positions(size, jokers, n=3, seed=seed):
            yield restrict(p, FOUR_THREE)


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_bound_is_the_floor_of_the_lp_optimum_at_the_root_and_nodes(objective: str
                                                                        ) -> None:
    """The root, then nodes as the branched search prices them (held-out columns and
    rack-tile copies at +-P, each solved from the basis before): the bound is the floor of
    HiGHS's optimum less P a column raised."""
    from solvers.rummikub._bound import MAX_PIVOTS, _solve
    from solvers.rummikub._branch import _branch_columns

    rng = np.random.default_rng(3)
    for obj in _bench_programmes():
        lp, bound = _programme(obj, objective, FOUR_THREE)
        n_sets = len(obj["table"])
        assert bound == min(n_sets, np.floor(_lp_optimum(lp) + 1e-6))
        cost = lp[1][3]
        columns, price, _tile_end = _branch_columns(lp, n_sets)
        fix = np.zeros(len(columns), np.int64)
        penalty = 2 * (n_sets + 1)
        for _node in range(3):
            fix[rng.integers(len(columns))] = rng.choice([-1, 1])
            cost[columns] = price + penalty * fix
            value, _pivots = _solve(lp, np.int64(MAX_PIVOTS))
            assert value == np.floor(_lp_optimum(lp) + 1e-6)


def test_duals_gone_wrong_give_a_valid_bound_not_a_low_one() -> None:
    """A basis inverse of NaNs (as an overflow would leave it) gives NaN duals: the bound is
    then the trivial one (zero duals: every held-out set), never the int64 floor of NaN."""
    from solvers.rummikub._bound import MAX_PIVOTS, _solve

    obj = restrict(band_positions(60, True, n=1, seed=17)[0], FOUR_THREE)
    lp, bound = _programme(obj, "tiles", FOUR_THREE)
    optimum = np.floor(_lp_optimum(lp) + 1e-6)
    lp[0][4][:] = np.nan
    spoilt, _pivots = _solve(lp, np.int64(MAX_PIVOTS))
    assert optimum <= spoilt <= len(obj["table"]) + 1
    assert bound == optimum
