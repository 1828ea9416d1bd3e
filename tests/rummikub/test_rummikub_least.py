"""Least disturbance (``Rules(least_disturbance=True)``): the most table sets kept.

Checked three ways: against the reference integer programme (which maximises the kept sets
with the objective held at its optimum) on random positions up to bench-band sizes; against
every subset of held-out sets on small tables (the plain DP on each); and on hand positions
whose plain DP answer rebuilds a set it need not touch.  The narrow passes that find moves
to start from are checked to change nothing but the work.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, best_moves, check_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.least import _Oracle, least_disturbing_move
from engines.rummikub.position import Move, _counts, objective_weights

LEAST = Rules(least_disturbance=True)
ANY_OPTIMAL = Rules(least_disturbance=False)  # the plain DP's move


def _jokers(move) -> int:
    return sum(t.is_joker for t in move.played)


def _positions(seed: int, count: int, tiles=(10, 40)) -> list[tuple[dict, str]]:
    """Melded positions with ``tiles`` table tiles and 8-14 rack tiles, and an objective."""
    rng = random.Random(seed)
    return [(obj, rng.choice(("tiles", "value"))) for obj in rummikub_positions(
        count, seed, table_tiles=tiles, rack_size=(8, 14), initial_meld_rate=0.0)]


@pytest.mark.parametrize("seed", [1, 2])
def test_matches_the_reference_programme(seed: int) -> None:
    from rummikub_ip_reference import reference_move

    for obj, objective in _positions(seed, 12):
        pos = Position.from_strings(obj["table"], obj["rack"])
        ours = best_move(obj["table"], obj["rack"], objective=objective, rules=LEAST)
        theirs, _ = reference_move(obj["table"], obj["rack"], True, objective, LEAST)
        assert (ours.tiles, ours.value, _jokers(ours), ours.sets_kept) == \
            (theirs.tiles, theirs.value, _jokers(theirs), theirs.sets_kept), obj
        assert check_move(pos, ours) == []
        plain = best_move(obj["table"], obj["rack"], objective=objective, rules=ANY_OPTIMAL)
        assert (plain.tiles, plain.value, _jokers(plain)) == \
            (ours.tiles, ours.value, _jokers(ours))
        assert ours.sets_kept >= plain.sets_kept


def test_large_tables_match_the_reference_programme() -> None:
    # bench-sized tables (50-90 tiles, jokers on the table and the rack), where the DP's
    # held-out field is widest and the narrow passes most often stop short of the best
    from rummikub_ip_reference import reference_move

    for obj, objective in _positions(5, 6, tiles=(50, 90)):
        ours = best_move(obj["table"], obj["rack"], objective=objective, rules=LEAST)
        theirs, _ = reference_move(obj["table"], obj["rack"], True, objective, LEAST)
        assert (ours.tiles, ours.value, _jokers(ours), ours.sets_kept) == \
            (theirs.tiles, theirs.value, _jokers(theirs), theirs.sets_kept), obj
        assert check_move(Position.from_strings(obj["table"], obj["rack"]), ours) == []


@pytest.mark.parametrize("narrow", [(), (256,), (-32,), (64, -16, -64)])
def test_the_narrow_passes_change_only_the_work(narrow, monkeypatch) -> None:
    # The narrow passes only find moves to start from; the exact pass decides.  Any choice
    # of them (none: the exact pass from the plain answer's kept sets) gives the same most
    # sets kept.
    cases = [(Position.from_strings(o["table"], o["rack"]), objective)
             for o, objective in _positions(9, 30, tiles=(20, 70))]
    expected = [least_disturbing_move(pos, objective).sets_kept for pos, objective in cases]
    monkeypatch.setattr(least, "NARROW", narrow)
    for (pos, objective), kept in zip(cases, expected):
        move = least_disturbing_move(pos, objective)
        assert move.sets_kept == kept
        assert check_move(pos, move) == []


@pytest.mark.parametrize("budget, wider", [((1, 0, 1), (1024,)), ((1, 0, 1), (-64, 16)),
                                           ((3000, 1, 20_000), (8,))])
def test_the_exact_pass_budget_changes_only_the_work(budget, wider, monkeypatch) -> None:
    # An exact pass that outgrows its budget stops without an answer; wider narrow passes
    # then look for more sets kept and the exact pass runs again (without a budget once
    # they are spent): the same most sets kept, whatever the budget stops.
    cases = [(Position.from_strings(o["table"], o["rack"]), objective)
             for o, objective in _positions(10, 24, tiles=(30, 80))]
    expected = [least_disturbing_move(pos, objective).sets_kept for pos, objective in cases]
    monkeypatch.setattr(least, "EXACT_BUDGET", budget)
    monkeypatch.setattr(least, "WIDER", wider)
    for (pos, objective), kept in zip(cases, expected):
        move = least_disturbing_move(pos, objective)
        assert move.sets_kept == kept
        assert check_move(pos, move) == []


def test_a_budget_stops_the_exact_pass() -> None:
    from solvers.rummikub._held import held_arrays

    obj, _ = _positions(11, 1, tiles=(60, 70))[0]
    pos = Position.from_strings(obj["table"], obj["rack"])
    sets = list(pos.table)
    tables = least.hold_tables(sets)
    must, must_j = _counts(pos.table_tiles)
    rack, rack_j = _counts(pos.rack)
    weight, joker_weight = objective_weights("tiles")
    args = (must, rack, must_j, rack_j, weight, joker_weight, 0, -(2**40), tables)
    status, _s, *_answer, stats, truncated = held_arrays(*args)
    assert status == 1 and not truncated and stats[0] > 4096
    whole = int(stats[0])
    status, _s, *_answer, stats, truncated = held_arrays(*args, budget=1024)
    assert status == 0 and truncated and stats[0] < whole


def _keepable_by_enumeration(pos: Position, objective: str) -> int:
    weight, joker_weight = objective_weights(objective)
    rack, rack_jokers = _counts(pos.rack)
    oracle = _Oracle(pos.table, rack, rack_jokers, weight, joker_weight)
    n = len(pos.table)
    full = (1 << n) - 1
    oracle.target = oracle.solve(full)[0]
    return max(n - bin(in_play).count("1") for in_play in range(1 << n)
               if oracle.solve(in_play)[0] == oracle.target)


def test_matches_enumeration_of_held_out_sets() -> None:
    checked = 0
    for obj, objective in _positions(7, 40, tiles=(8, 20)):
        pos = Position.from_strings(obj["table"], obj["rack"])
        if len(pos.table) > 7:
            continue
        move = least_disturbing_move(pos, objective)
        assert move.sets_kept == _keepable_by_enumeration(pos, objective), obj
        assert check_move(pos, move) == []
        checked += 1
    assert checked >= 20


def test_keeps_a_set_the_plain_answer_rebuilds() -> None:
    # Two runs R3-R5 and R6-R8 and a rack R9: the DP may rebuild both (R3-R9 is one
    # run); least disturbance extends one and keeps the other.
    table = [["R3", "R4", "R5"], ["R6", "R7", "R8"], ["K1", "O1", "B1"]]
    move = best_move(table, "R9 K13", rules=LEAST)
    assert move.tiles == 1 and move.sets_kept == 2
    assert [str(t) for t in move.played] == ["R9"]


def test_batch_and_single_agree() -> None:
    cases = _positions(3, 8, tiles=(20, 30))
    positions = [Position.from_strings(o["table"], o["rack"]) for o, _ in cases]
    batch = best_moves(positions, rules=LEAST)
    for pos, move in zip(positions, batch):
        single = least_disturbing_move(pos, "tiles")
        assert (move.tiles, move.value, move.sets_kept) == \
            (single.tiles, single.value, single.sets_kept)


def test_least_disturbance_is_the_default() -> None:
    # Rules() keeps the most sets (best_move's fast path, best_moves and the batch task
    # rummikub-best); least_disturbance=False gives the plain DP's move, which here
    # rebuilds a set it need not touch.
    from engines.batch.tasks import get_task
    from engines.rummikub import tasks  # noqa: F401 (registers the task)

    assert Rules().least_disturbance and Rules().to_json() == {}
    assert Rules(least_disturbance=False).to_json() == {"least_disturbance": False}
    cases = _positions(3, 8, tiles=(20, 30))
    positions = [Position.from_strings(o["table"], o["rack"]) for o, _ in cases]
    least = best_moves(positions, rules=LEAST)
    plain = best_moves(positions, rules=ANY_OPTIMAL)
    assert [m.sets_kept for m in best_moves(positions)] == [m.sets_kept for m in least]
    assert [best_move(p.table, p.rack).sets_kept for p in positions] == \
        [m.sets_kept for m in least]
    assert sum(m.sets_kept for m in least) > sum(m.sets_kept for m in plain)
    task = get_task("rummikub-best")
    stored = [json.loads(r) for r in task.solve([task.prepare(o) for o, _ in cases], 1)]
    for pos, result, move in zip(positions, stored, least):
        after = Counter(tuple(sorted(s)) for s in result["sets"])
        kept = 0
        for s in pos.table:
            key = tuple(sorted(map(str, s)))
            kept += after[key] > 0
            after[key] -= 1
        assert (result["tiles"], kept) == (move.tiles, move.sets_kept)


def test_initial_meld_keeps_the_table() -> None:
    move = best_move([["R3", "R4", "R5"]], "K10 R10 B10 R6", initial_meld_done=False,
                     rules=LEAST)
    assert move.sets_kept == 1 and move.tiles == 3


def test_empty_table_and_pass() -> None:
    assert best_move([], "R1 R2 R3", rules=LEAST).tiles == 3
    move = best_move([["R3", "R4", "R5"]], "K9", rules=LEAST)
    assert move.is_pass and move.sets_kept == 1


def test_oracle_is_monotone_under_holding_out() -> None:
    # The property the search relies on: holding out more sets never raises the optimum.
    for obj, objective in _positions(11, 6, tiles=(20, 30)):
        pos = Position.from_strings(obj["table"], obj["rack"])
        weight, joker_weight = objective_weights(objective)
        rack, rack_jokers = _counts(pos.rack)
        oracle = _Oracle(pos.table, rack, rack_jokers, weight, joker_weight)
        rng = np.random.default_rng(0)
        n = len(pos.table)
        for _ in range(6):
            mask = int(rng.integers(0, 1 << n)) if n else 0
            sub = mask & int(rng.integers(0, 1 << n)) if n else 0
            assert oracle.solve(sub)[0] <= oracle.solve(mask)[0]


@pytest.mark.parametrize("seed", range(6))
def test_keep_best_keeps_what_a_stable_sort_keeps(seed: int) -> None:
    # The narrow passes' layer ranking (a selection) against the sort it replaced: by the
    # sets held out so far (the score modulo the scale, or the score), then obligations
    # (positive width) or the other way round (negative), equal states in their order.
    from solvers.rummikub._hold import WIDTH_BITS, keep_best
    from solvers.rummikub._layers import obligations

    rng = np.random.default_rng(seed)
    for _ in range(40):
        n = int(rng.integers(1, 400))
        start = int(rng.integers(0, 5))
        keys = rng.integers(0, 1 << 45, start + n, dtype=np.int64)
        keys[rng.random(start + n) < 0.1] = -1
        scale = int(rng.choice([0, 7, 31]))
        score = rng.integers(0, 6, start + n, dtype=np.int64) * 1_000_003 \
            + rng.integers(0, 40, start + n, dtype=np.int64)
        width = int(rng.integers(1, 300)) * int(rng.choice([1, -1]))
        rank = score % scale if scale else score
        live = [i for i in range(start, start + n) if keys[i] >= 0]
        if width > 0:
            order = sorted(live, key=lambda i: (-rank[i], obligations(keys[i]), i))
        else:
            order = sorted(live, key=lambda i: (obligations(keys[i]), -rank[i], i))
        expected = sorted(order[:abs(width)])
        beam = int(np.sign(width)) * (abs(width) | scale << WIDTH_BITS)
        got = keys.copy()
        cut = keep_best(got, score, start, start + n, beam, None, False)
        assert [i for i in range(start, start + n) if got[i] >= 0] == expected
        assert cut == (len(live) > abs(width))
        assert (got[:start] == keys[:start]).all()


def test_meld_then_continue_matches_the_reference_programme() -> None:
    # Meld then continue: the final table holds table sets out as a melded player's does
    # (the meld's sets are the rack's own); the same optimum and most sets kept as the
    # reference programme, and a move that check_move accepts under these rules.
    from rummikub_ip_reference import reference_move

    rules = Rules(least_disturbance=True, meld_continue=True)
    rng = random.Random(23)
    more = 0
    for obj in rummikub_positions(10, 23, table_tiles=(15, 45), rack_size=(8, 14),
                                  joker_rate=0.5, initial_meld_rate=1.0):
        objective = rng.choice(("tiles", "value"))
        ours = best_move(obj["table"], obj["rack"], False, objective=objective, rules=rules)
        theirs, _ = reference_move(obj["table"], obj["rack"], False, objective, rules)
        assert (ours.tiles, ours.value, _jokers(ours), ours.sets_kept) == \
            (theirs.tiles, theirs.value, _jokers(theirs), theirs.sets_kept), obj
        pos = Position.from_strings(obj["table"], obj["rack"], False)
        assert check_move(pos, ours, rules) == []
        plain = best_move(obj["table"], obj["rack"], False, objective=objective,
                          rules=Rules(meld_continue=True, least_disturbance=False))
        more += ours.sets_kept > plain.sets_kept
    assert more > 0  # positions where the plain answer rebuilds sets it need not touch


def _relaxation_cases(melded: bool) -> list[dict]:
    """Meld then continue (``melded`` False) or melded positions whose table sets hold two
    real tiles each (two real tiles per set), 15-45 table tiles with jokers."""
    cases = []
    for obj in rummikub_positions(12, 29, table_tiles=(15, 45), rack_size=(8, 14),
                                  joker_rate=0.5, initial_meld_rate=0.0 if melded else 1.0):
        if not melded or all(sum(t != "J" for t in s) >= 2 for s in obj["table"]):
            cases.append(obj)
    return cases[:8]


@pytest.mark.parametrize("relaxed", ["ceiling", "none"])
@pytest.mark.parametrize("option", ["meld_continue", "min_real_tiles"])
def test_relaxations_with_a_ceiling_or_none(monkeypatch, relaxed: str, option: str) -> None:
    # Meld then continue (a melded player's turn) and two real tiles per set (one, with three
    # or more copies or jokers: forced here on two, where the passes under the rules are the
    # direct exit) are solved from a relaxation's least-disturbing move, the answer when the
    # rules allow it.  Where they do not, the sets it keeps only stop the passes early, and
    # where the optima differ nothing does.  Both paths, forced here on every position, give
    # the answers of the direct exit.
    melded = option != "meld_continue"
    rules = Rules(meld_continue=not melded, min_real_tiles=2 if melded else 1)
    cases = _relaxation_cases(melded)
    direct = [best_move(o["table"], o["rack"], melded, rules=rules) for o in cases]
    monkeypatch.setattr(least, "relaxes_real_tiles", lambda rules: True)
    relaxation = least._relaxed_move
    calls = []

    def forced(pos, *args):
        out = relaxation(pos, *args)
        calls.append(out)
        kept = out.sets_kept if isinstance(out, Move) else out
        return kept if relaxed == "ceiling" else len(pos.table)

    monkeypatch.setattr(least, "_relaxed_move", forced)
    for obj, move in zip(cases, direct):
        again = best_move(obj["table"], obj["rack"], melded, rules=rules)
        assert (again.tiles, again.value, _jokers(again), again.sets_kept) == \
            (move.tiles, move.value, _jokers(move), move.sets_kept), obj
        pos = Position.from_strings(obj["table"], obj["rack"], melded)
        assert check_move(pos, again, rules) == []
    assert len(calls) >= 3
