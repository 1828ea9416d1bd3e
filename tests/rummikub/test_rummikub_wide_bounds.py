"""The wide DP's bounds from the linear relaxation (least disturbance on wide tile sets).

:func:`engines.rummikub.wide._kept_bounds` bounds the table sets kept by every move at least
as good in the objective as a score, per number (those starting after it) and in all; the
kernel prunes with them and skips the aims they prove out of reach.  Checked here: every
bound holds for the optimal move found (against the HiGHS oracle elsewhere:
``test_rummikub_wide.py``), and the answers with the bounds are the answers of the same
passes without them on denser tables, where they prune.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rummikub_random_sets import check_answer, random_table_and_rack

from engines.rummikub import best_move, wide
from engines.rummikub.position import Position, _counts, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS


def _case(seed: int, most_sets: int) -> tuple[Rules, list, list]:
    rng = random.Random(seed)
    colours = rng.choice((5, 6, 8))
    rules = Rules(colours=colours, numbers=rng.choice((13, 17, 20)) if colours < 8 else 13,
                  copies=rng.choice((2, 2, 3)), jokers=rng.choice((1, 2, 3)),
                  min_set_length=rng.choice((3, 3, 4)))
    table, rack = random_table_and_rack(rng, rules, most_sets, 14, 0.7)
    return rules, table, rack


def _kept_sets(table: list, move) -> list[int]:
    """The indices of the table sets that ``move`` keeps (a set of exactly their tiles)."""
    after = Counter(tuple(sorted(str(s.tile) for s in m)) for m in move.table)
    kept = []
    for i, tiles in enumerate(table):
        key = tuple(sorted(str(t) for t in tiles))
        if after[key] > 0:
            after[key] -= 1
            kept.append(i)
    return kept


@pytest.mark.parametrize("seed", range(40))
def test_bounds_hold_for_the_optimal_move(seed):
    rules, table, rack = _case(seed, 14)
    pos = Position(table, rack, True, **rules.position_limits())
    move = best_move(table, rack, True, "tiles", rules)
    melds = wide._table_melds(pos, rules)
    if not melds:
        return
    colours, numbers = rules.colours, rules.numbers
    must, must_j = _counts(pos.table_tiles, colours, numbers)
    rack_counts, rack_j = _counts(pos.rack, colours, numbers)
    weight, jw = objective_weights("tiles", colours, numbers)
    jokers = sum(t.is_joker for t in move.played) + must_j
    objective = sum(int(weight[ALL_COLOURS.index(t.colour), t.number - 1])
                    for t in move.played if not t.is_joker) + jokers * jw
    starts = wide._hold_arrays(melds, colours, numbers)[0]
    bounds = wide._kept_bounds(melds, starts, must, rack_counts, must_j, rack_j, weight, jw,
                               rules.min_set_length, objective * 512 + 7, 512)
    kept = _kept_sets(table, move)
    assert len(kept) == move.sets_kept
    first = [min(s.stands_for.number for s in melds[i]) for i in kept]
    assert bounds[numbers] == objective * 512 and bounds[numbers + 1] >= len(kept)
    for v in range(numbers):
        assert bounds[v] >= sum(f > v + 1 for f in first)
    alone = wide._kept_bounds(melds, starts, must, rack_counts, must_j, rack_j, weight, jw,
                              rules.min_set_length, objective * 512 + 7, 512, False)
    assert alone[numbers:].tolist() == bounds[numbers:].tolist()  # (the most in all alone)
    assert not alone[:numbers].any()


def test_bounds_prove_an_aim_out_of_reach():
    """A rack tile that no move plays (R20 with no R18/R19/R21/R22 or other 20s to join and
    no joker) leaves the whole rack out of reach: the relaxation's most is negative."""
    rules = Rules(colours=6, numbers=20, jokers=0)
    pos = Position.from_strings(["R1 R2 R3"], "R20 K5 K6 K7", **rules.position_limits())
    melds = wide._table_melds(pos, rules)
    must, must_j = _counts(pos.table_tiles, 6, 20)
    rack, rack_j = _counts(pos.rack, 6, 20)
    weight, jw = objective_weights("tiles", 6, 20)
    starts = wide._hold_arrays(melds, 6, 20)[0]
    whole = int(weight[1, 19] + weight[0, 4] + weight[0, 5] + weight[0, 6])
    out = wide._kept_bounds(melds, starts, must, rack, must_j, rack_j, weight, jw, 3,
                            whole * 512, 512)
    assert out[21] < 0
    reached = wide._kept_bounds(melds, starts, must, rack, must_j, rack_j, weight, jw, 3,
                                (whole - int(weight[1, 19])) * 512, 512)
    assert reached[21] == 1


@pytest.mark.parametrize("seed", range(100, 116))
def test_answers_with_and_without_the_bounds(seed, monkeypatch):
    rules, table, rack = _case(seed, 30)
    with_bounds = best_move(table, rack, True, "tiles", rules)
    monkeypatch.setattr(wide, "BOUNDS", False)
    plain = best_move(table, rack, True, "tiles", rules)
    assert (with_bounds.tiles, with_bounds.value, with_bounds.sets_kept) == (
        plain.tiles, plain.value, plain.sets_kept)
    check_answer(rules, table, rack, True, with_bounds)
