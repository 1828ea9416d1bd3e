"""The linear relaxation's bound on the table sets kept (``solvers.rummikub._bound``).

It must never be below the most sets an optimal move keeps (the passes stop at it: a bound
too low would end them on a worse answer), under the rules document's game and the house
rules the held-out passes solve; it should equal the most sets kept on most positions (it
is there to skip the proof); the passes that stop at it, pruned by its per-number caps,
keep as many sets.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import _counts, objective_weights
from engines.rummikub.sets import meld_tiles

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

LEAST = Rules(least_disturbance=True)


def _inputs(obj: dict, pos: Position, objective: str, rules: Rules):
    """The kernels' inputs for ``pos`` (``obj``: as text): the plain DP's move, then
    :func:`~solvers.rummikub._bound.sets_bound`'s arguments before the table sets' range."""
    plain = best_move(obj["table"], obj["rack"], True, objective,
                      replace(rules, least_disturbance=False))
    weight, joker_weight = objective_weights(objective)
    rack, rack_j = _counts(pos.rack)
    must, must_j = _counts(pos.table_tiles)
    played, played_j = _counts(t for m in plain.table for t in meld_tiles(m))
    optimum = int((weight * (played - must)).sum()) + joker_weight * (played_j - must_j)
    slot_number, slot_colour, set_start, _keys, _firsts = least.table_slots([pos.table], rules)
    mode = int(rules.search_mode(True, list(pos.table)))
    return plain, (must, rack, must_j, rack_j, weight, joker_weight, optimum, mode,
                   slot_number, slot_colour, set_start)


def _cases():
    """Random positions (tables of 20-80 tiles, both objectives) and the bench bands' under
    the house rules whose tails the bound is for (three jokers, four copies) and others."""
    out = []
    for i, obj in enumerate(rummikub_positions(24, 31, table_tiles=(20, 80), rack_size=(8, 14),
                                               initial_meld_rate=0.0)):
        out.append((obj, "tiles" if i % 3 else "value", LEAST))
    for rules in (Rules(jokers=3), Rules(copies=4), Rules(copies=3),
                  Rules(joker_retrieval="official"), Rules(min_real_tiles=2),
                  Rules(min_set_length=4)):
        for size, jokers in ((60, True), (80, False), (80, True)):
            for p in band_positions(size, jokers, n=2, seed=3):
                out.append((restrict(p, rules), "tiles", rules))
    for p in band_positions(40, True, n=3, seed=3):  # (two-word passes: hold_pairs' caps)
        out.append((restrict(p, Rules(jokers=4)), "tiles", Rules(jokers=4)))
    return out


CASES = _cases()


def _moving_cases(rules: Rules):
    """The cases under ``rules`` whose plain move does not keep every table set: ``(obj,
    objective, position, plain move, sets_bound's arguments)``."""
    for obj, objective, case_rules in CASES:
        if case_rules != rules:
            continue
        pos = Position.from_strings(obj["table"], obj["rack"], max_jokers=rules.jokers,
                                    max_copies=rules.copies)
        plain, args = _inputs(obj, pos, objective, rules)
        if plain.sets_kept < len(pos.table):
            yield obj, objective, pos, plain, args


def test_the_bound_is_never_below_the_sets_kept_and_mostly_equal() -> None:
    from solvers.rummikub._bound import sets_bound

    counted = equal = 0
    for obj, objective, rules in CASES:
        pos = Position.from_strings(obj["table"], obj["rack"], max_jokers=rules.jokers,
                                    max_copies=rules.copies)
        plain, args = _inputs(obj, pos, objective, rules)
        if plain.sets_kept == len(pos.table):
            continue
        best = best_move(obj["table"], obj["rack"], True, objective, rules).sets_kept
        bound, _pivots, _columns = sets_bound(*args, 0, len(pos.table))
        assert best <= bound <= len(pos.table), (obj, rules)
        counted += 1
        equal += bound == best
    assert counted >= 30
    assert equal >= 0.7 * counted, (equal, counted)


@pytest.mark.parametrize("rules", [Rules(jokers=3), Rules(copies=4), Rules(jokers=4), LEAST])
def test_passes_that_stop_at_the_bound_keep_as_many_sets(rules: Rules) -> None:
    """The bounded passes (the bound and its per-number caps prune: the most sets kept
    stays, a move among equally good ones may differ) give an arrangement keeping as many
    sets as the plain passes, and mostly the same one."""
    from solvers.rummikub import MAX_SETS
    from solvers.rummikub._least import NO_BOUND, bounded_passes, hold_tables
    from solvers.rummikub._melds import meld_codes

    narrow, exact_budget, wider = least.policy()
    # (the bound where the tile sets apply it: under BOUND_ANY the rules document's
    # positions run it too, their arrangement among equally good ones may differ; its
    # answers: test_rummikub_bound_first)
    exact_budget = exact_budget.copy()
    exact_budget[3] &= ~least.BOUND_ANY
    compared = same = 0
    for obj, _objective, pos, plain, args in _moving_cases(rules):
        must, rack, must_j, rack_j, weight, joker_weight, optimum, mode, *slots = args
        n = len(pos.table)
        tables, crowded = hold_tables(*slots, 0, n, np.empty((13, 12), np.int64))
        assert not crowded
        answers = []
        for no_bound in (NO_BOUND, 0):  # (the plain passes, then the bounded ones)
            out = (np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64),
                   np.zeros(13, np.int64), np.zeros(2, np.int64))
            budget = exact_budget.copy()
            budget[3] |= no_bound
            kept = bounded_passes(must, rack, must_j, rack_j, weight, joker_weight, mode,
                                  rules.group_tables()[0], tables, plain.sets_kept, optimum, n,
                                  n, narrow, budget, wider, *out, *slots, 0, n, True)
            answers.append((kept, *(a.tolist() for a in out[:3])))
            _group_ok, part_count, part_masks = rules.group_tables()
            assert meld_codes(out[0], out[1], part_count, part_masks,
                              np.zeros(MAX_SETS, np.int64), rules.min_set_length) >= 0
        assert answers[0][0] == answers[1][0], obj
        if rules == LEAST:  # (the bound's caps never run there)
            assert answers[0] == answers[1], obj
        compared += 1
        same += answers[0] == answers[1]
    assert compared >= 3
    assert same >= 0.5 * compared, (same, compared)


@pytest.mark.parametrize("rules", [Rules(jokers=3), Rules(copies=4), Rules(copies=3),
                                   Rules(jokers=4)])
def test_the_per_number_caps_hold_for_the_least_disturbing_move(rules: Rules) -> None:
    """``later_bounds``' caps bound the sets kept by number for every optimal move, so for
    the one least disturbance finds: among the sets starting after each number (``later``),
    up to it (``caps[v, 0]``), and twice those plus the later ones (``caps[v, 1]``)."""
    from solvers.rummikub._bound import later_bounds
    from solvers.rummikub._least import hold_tables

    checked = 0
    for obj, objective, pos, _plain, args in _moving_cases(rules):
        n = len(pos.table)
        move = best_move(obj["table"], obj["rack"], True, objective, rules)
        weight, joker_weight = objective_weights(objective)
        rack, rack_j = _counts(pos.rack)
        oracle = least._Oracle(list(pos.table), rack, rack_j, weight, joker_weight, rules)
        kept = oracle.unchanged((1 << n) - 1, move.table)
        assert kept.bit_count() == move.sets_kept
        slot_number, _colour, set_start = args[8], args[9], args[10]
        first = [min(slot_number[set_start[i]:set_start[i + 1]]) for i in range(n)]
        tables, _crowded = hold_tables(*args[8:], 0, n, np.empty((13, 12), np.int64))
        later = tables[5].copy()
        caps = np.zeros((14, 2), np.int64)
        bound, _pivots = later_bounds(*args, 0, n, later, caps)
        assert move.sets_kept <= bound <= n
        assert caps[13, 0] == n + 1
        for v in range(13):
            before = sum(1 for i in range(n) if kept >> i & 1 and first[i] <= v + 1)
            after = move.sets_kept - before
            assert after <= later[v] <= tables[5][v], (obj, v)
            assert before <= caps[v, 0] and 2 * before + after <= caps[v, 1], (obj, v)
        checked += 1
    assert checked >= 3
