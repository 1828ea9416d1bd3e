"""The bound on the sets kept branched on the sets held out (``solvers.rummikub._branch``).

It must stay at or above the most sets kept (brute force over the sets held out on small
tables; the exact passes on the bench's), lower the relaxation's bound where that one is
above it, and leave least disturbance's answer as it was.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, check_move, least

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from test_rummikub_bound import _inputs
from test_rummikub_bound_parts import _most_kept_brute, small_tables

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

COPIES4 = Rules(least_disturbance=True, copies=4)


def _bounds(pos: Position, obj: dict, objective: str, rules: Rules, nodes: int
            ) -> tuple[int, int, int]:
    """(the relaxation's bound, the branched one, the plain move's sets kept)."""
    from solvers.rummikub._branch import branched_later_bounds
    from solvers.rummikub._least import hold_tables

    plain, args = _inputs(obj, pos, objective, rules)
    n = len(pos.table)
    out = []
    for budget in (0, nodes):
        tables, _crowded = hold_tables(*args[8:], 0, n, np.empty((13, 12), np.int64))
        bound, _pivots, _held = branched_later_bounds(
            *args, 0, n, tables[5].copy(), np.zeros((14, 2), np.int64), 0, budget,
            np.zeros(n, np.int64))
        out.append(bound)
    return out[0], out[1], plain.sets_kept


def _checked_move(obj: dict) -> tuple[tuple[int, int, int], int]:
    """copies=4 least disturbance on the bench position ``obj``: (tiles, value, sets kept)
    of its move, checked valid, and the held-out passes' states."""
    pos = Position.from_strings(obj["table"], obj["rack"], max_copies=4)
    before = least.WORK.copy()
    move = best_move(obj["table"], obj["rack"], True, "tiles", COPIES4)
    assert check_move(pos, move, COPIES4) == []
    return (move.tiles, move.value, move.sets_kept), int((least.WORK - before)[1])


@pytest.mark.parametrize("rules", [Rules(least_disturbance=True, copies=4),
                                   Rules(least_disturbance=True, copies=3, jokers=3)])
def test_the_branched_bound_is_never_below_brute_force(rules: Rules) -> None:
    checked = 0
    for obj, pos, objective in small_tables(rules):
        root, branched, _plain = _bounds(pos, obj, objective, rules, 10_000)
        most = _most_kept_brute(pos, objective, rules)
        assert most <= branched <= root, (obj, objective)
        checked += 1
    assert checked >= 20


def test_the_branched_bound_reaches_the_most_kept_on_four_copies_tails() -> None:
    """copies=4 60J seed 5: positions 3 and 19, the relaxation's bound 10 and 7, the most
    kept 8 and 5 (and never below it on the band); position 8, the bound 8, the most kept
    5: branching on the held-out columns alone left 7, on the rack tiles held once too 6,
    64 nodes a target 6, four copies' 256 nodes 5."""
    reached = {}
    for i, p in enumerate(band_positions(60, True, n=20, seed=5)):
        obj = restrict(p, COPIES4)
        pos = Position.from_strings(obj["table"], obj["rack"], max_copies=4)
        root, branched, _plain = _bounds(pos, obj, "tiles", COPIES4,
                                         least.BRANCH_NODES_FOUR_COPIES)
        best = best_move(obj["table"], obj["rack"], True, "tiles", COPIES4).sets_kept
        assert best <= branched <= root, i
        reached[i] = (root, branched, best)
    assert reached[3] == (10, 8, 8) and reached[19] == (7, 5, 5) and reached[8] == (8, 5, 5)


def test_branching_on_the_copies_played_reaches_the_most_kept() -> None:
    """copies=4 60J seed 1 #4 and seed 3 #8: the relaxation's bound 11 and 10, the most kept
    8.  Branching on the held-out columns and the rack tiles of one copy left 10 and 9: the
    relaxation played the rack's tiles of two copies a fraction of times (seed 1: B3 0.83,
    B11 1.83, B13 1.33).  Branching on how many copies of each are played reaches 8."""
    reached = {}
    for seed, i in ((1, 4), (3, 8)):
        obj = restrict(band_positions(60, True, n=20, seed=seed)[i], COPIES4)
        pos = Position.from_strings(obj["table"], obj["rack"], max_copies=4)
        root, branched, _plain = _bounds(pos, obj, "tiles", COPIES4,
                                         least.BRANCH_NODES_FOUR_COPIES)
        reached[seed] = (root, branched)
    assert reached == {1: (11, 8), 3: (10, 8)}


def test_least_disturbance_keeps_as_many_sets_with_and_without_branching(monkeypatch) -> None:
    """The bench's copies=4 60J seed 5 (its slowest band): the same tiles, value and sets
    kept with the branched bound as without it."""
    positions = [restrict(p, COPIES4) for p in band_positions(60, True, n=20, seed=5)]
    answers = []
    for nodes in (0, least.BRANCH_NODES_FOUR_COPIES):
        monkeypatch.setattr(least, "BRANCH_NODES_FOUR_COPIES", nodes)
        answers.append([(m.tiles, m.value, m.sets_kept) for m in (
            best_move(p["table"], p["rack"], True, "tiles", COPIES4) for p in positions)])
    assert answers[0] == answers[1]
    plain = [best_move(p["table"], p["rack"], True, "tiles",
                       replace(COPIES4, least_disturbance=False)).sets_kept for p in positions]
    assert sum(a[2] for a in answers[1]) > sum(plain)


def test_the_sets_of_the_node_at_the_bound_give_the_move_without_the_exact_pass(
        monkeypatch) -> None:
    """copies=4 80J seed 3 #4: the branched bound, 13, is the most kept, and the node that
    reached it holds out 13 whole sets; the DP's exact pass on the rest of the table
    (``least.KEPT_EXACT``) finds a move keeping them, where without the tries the exact pass
    at 13 takes 272 k states.  The same tiles, value and sets kept, a valid move, far fewer
    states."""
    obj = restrict(band_positions(80, True, n=20, seed=3)[4], COPIES4)
    found = []
    for widths, after, exact in (((0, 0), 0, 0),
                                 (least.CHECK_WIDTHS, least.CHECK_AFTER, least.KEPT_EXACT)):
        monkeypatch.setattr(least, "CHECK_WIDTHS", widths)
        monkeypatch.setattr(least, "CHECK_AFTER", after)
        monkeypatch.setattr(least, "KEPT_EXACT", exact)
        found.append(_checked_move(obj))
    (without, states_without), (with_check, states_with) = found
    assert without == with_check == (20, 120, 13)
    assert states_with < states_without / 3, found


@pytest.mark.parametrize("cut", [0, least.LEFT_OUT], ids=["no-cut", "left-out-cut"])
def test_the_node_s_sets_checked_exactly_take_fewer_states_than_the_narrow_tries(
        monkeypatch, cut: int) -> None:
    """copies=4 60J seed 2 #10: the bound 5, the node that reached it keeps 5 sets.  Without
    the left-out cut the narrow pass of 1,024 holding out only those and the exact pass
    within 25,000 miss the move, the 4,096-wide one finds it (117,550 states); the DP's
    exact pass on the rest of the table (those sets' tiles out) finds it in 15,562.  With
    the cut in both checks, 18,006 against 6,294.  The same move every way."""
    monkeypatch.setattr(least, "LEFT_OUT", cut)
    obj = restrict(band_positions(60, True, n=20, seed=2)[10], COPIES4)
    found = []
    for exact in (0, least.KEPT_EXACT):
        monkeypatch.setattr(least, "KEPT_EXACT", exact)
        found.append(_checked_move(obj))
    (narrow, states_narrow), (exact, states_exact) = found
    assert narrow == exact and exact[2] == 5
    assert states_exact < states_narrow / 2, found


def test_a_basis_below_zero_branches_on_a_column_not_deeper_than_the_columns() -> None:
    """Meld then continue + official, bench seed 8 60J #0, the value objective: a basis the
    pivot budget cut held a fixed rack-tile column at -0.3, and the branch on it (j = -1)
    fixed no column, deeper at each node: past the search's arrays (a column each), which
    the compiled kernel wrote over (``free(): invalid next size``, the process aborted).
    The move stands under the rules and is optimal (least disturbance off: its tiles and
    value)."""
    rules = Rules(meld_threshold=30, joker_retrieval="official", meld_continue=True)
    table = ["R1 R2 R3 R4", "O3 O4 O5", "B2 B3 B4", "K2 K3 K4 K5 K6", "K3 O3 B3",
             "O6 O7 O8 O9", "R7 R8 R9 R10 R11", "R11 R12 R13", "K12 O12 B12",
             "O5 O6 O7 O8 O9", "B9 B10 B11 J B13", "B5 B6 B7", "R5 R6 R7 R8", "K4 K5 K6",
             "K1 O1 B1", "R2 R3 R4", "K8 K9 K10"]
    rack = ["K11", "O13", "K11", "K7", "K2", "K13", "B5", "K10", "O12", "K1", "O2", "K13",
            "O2", "J"]
    sets = [s.split() for s in table]
    move = best_move(sets, rack, False, "value", rules)
    plain = best_move(sets, rack, False, "value", replace(rules, least_disturbance=False))
    assert check_move(Position.from_strings(sets, rack, initial_meld_done=False), move,
                      rules) == []
    assert (move.tiles, move.value) == (plain.tiles, plain.value)
    assert move.sets_kept >= plain.sets_kept


def test_three_or_four_copies_and_jokers_branch_on_to_the_node_that_keeps_the_most() -> None:
    """copies=3 + jokers=4, the bench's seed 6 40J #6: at 64 nodes the bound stayed a set
    above the most kept (four passes, 242 k held-out states); with
    ``least.BRANCH_NODES_JOKERS`` nodes (four jokers in play) the search reaches a node whose
    sets the exact check keeps: one pass, the same move (the oracle's)."""
    rules = Rules(least_disturbance=True, copies=3, jokers=4)
    assert least.policy(rules)[1][7] == least.BRANCH_NODES_JOKERS
    assert least.policy(replace(rules, jokers=2))[1][7] == least.BRANCH_NODES
    assert least.policy(replace(rules, copies=2))[1][7] == least.BRANCH_NODES_TWO_COPIES_JOKERS
    assert least.policy(rules, 2)[1][7] == least.BRANCH_NODES  # (two jokers in play)
    p = restrict(band_positions(40, True, n=7, seed=6)[6], rules)
    before = least.WORK.copy()
    move = best_move(p["table"], p["rack"], True, "tiles", rules)
    passes, states = (least.WORK - before).tolist()
    assert (move.tiles, move.value, move.sets_kept) == (18, 91, 2)
    assert passes == 1 and states < 20_000
    pos = Position.from_json(dict(p, initial_meld_done=True), **rules.position_limits())
    assert check_move(pos, move, rules) == []


def _passes_of(p: dict, objective: str, rules: Rules) -> tuple:
    """Least disturbance's move of the melded bench position ``p`` and its held-out passes
    and states (``least.WORK``)."""
    before = least.WORK.copy()
    move = best_move(p["table"], p["rack"], True, objective, rules)
    passes, states = (least.WORK - before).tolist()
    return move, passes, states


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_two_copies_and_three_jokers_branch_on_to_the_most_kept(objective: str) -> None:
    """official + jokers=3, the bench's seed 8 60J #1: at 64 nodes exact passes of 172 k
    (tiles) or 298 k (value) states proved the plain move keeps the most; with
    ``least.BRANCH_NODES_TWO_COPIES_JOKERS`` the bound falls to its sets kept, no pass."""
    rules = Rules(least_disturbance=True, joker_retrieval="official", jokers=3)
    assert least.policy(rules)[1][7] == least.BRANCH_NODES_TWO_COPIES_JOKERS
    assert least.policy(rules, 2)[1][7] == least.BRANCH_NODES  # (two jokers in play)
    p = restrict(band_positions(60, True, n=2, seed=8)[1], rules)
    move, passes, _states = _passes_of(p, objective, rules)
    assert (move.tiles, move.value, move.sets_kept) == (13, 80, 4)
    assert passes == 0
    pos = Position.from_json(dict(p, initial_meld_done=True), **rules.position_limits())
    assert check_move(pos, move, rules) == []


def test_three_jokers_rule_out_fewer_node_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """official + copies=3 + jokers=3, the bench's seed 17 60J #0: with 128 nodes each
    round's nodes reached another node at the bound (114 rounds, 41.5 k states); at most
    ``least.NOGOOD_ROUNDS_JOKERS`` rounds, then the exact passes: the same move."""
    rules = Rules(least_disturbance=True, joker_retrieval="official", copies=3, jokers=3)
    assert least.policy(rules)[1][11] == least.NOGOOD_ROUNDS_JOKERS
    assert least.policy(rules, 2)[1][11] == least.NOGOOD_ROUNDS
    p = restrict(band_positions(60, True, n=1, seed=17)[0], rules)
    move, passes, states = _passes_of(p, "tiles", rules)
    assert passes <= least.NOGOOD_ROUNDS_JOKERS + 3 and states < 25_000
    monkeypatch.setattr(least, "NOGOOD_ROUNDS_JOKERS", least.NOGOOD_ROUNDS)
    every, passes_every, _states = _passes_of(p, "tiles", rules)
    assert passes_every > passes
    assert (move.tiles, move.value, move.sets_kept) == (every.tiles, every.value,
                                                        every.sets_kept) == (17, 98, 4)


def test_a_rounds_node_budget_is_the_policys(monkeypatch) -> None:
    """copies=4 + jokers=3, the bench's seed 3 80 #8: a nogood round goes on with the nodes
    the policy's entry 12 gives (``least.NOGOOD_NODES_FOUR_COPIES``; None, as now: the first
    search's).  With 0 more, the nodes its target had left, 5 passes where the first
    search's nodes more ran 18: the same move (fresh seed 24 60J #0 lost with 0, so it is
    not the default)."""
    rules = Rules(least_disturbance=True, copies=4, jokers=3)
    assert least.NOGOOD_NODES_FOUR_COPIES is None
    assert least.policy(rules, 3)[1][12] == least.policy(rules, 3)[1][7]
    assert least.policy(replace(rules, copies=3))[1][12] == least.BRANCH_NODES_JOKERS
    p = restrict(band_positions(80, False, n=9, seed=3)[8], rules)
    move, passes, _states = _passes_of(p, "tiles", rules)
    monkeypatch.setattr(least, "NOGOOD_NODES_FOUR_COPIES", 0)
    assert least.policy(rules, 0)[1][12] == 0
    fewer, passes_fewer, _states = _passes_of(p, "tiles", rules)
    assert passes_fewer < passes
    assert (move.tiles, move.value, move.sets_kept) == (fewer.tiles, fewer.value,
                                                        fewer.sets_kept)


def test_four_copies_rule_out_fewer_node_sets(monkeypatch: pytest.MonkeyPatch) -> None:
    """official + jokers=3 + copies=4, the bench's seed 17 60J #0, value: with 256 rounds
    the search ruled out 210 node sets (217 k states, ~100 ms); at most
    ``least.NOGOOD_ROUNDS_FOUR_COPIES`` rounds, then the exact passes: the same move."""
    rules = Rules(least_disturbance=True, joker_retrieval="official", jokers=3, copies=4)
    assert least.policy(rules)[1][11] == least.NOGOOD_ROUNDS_FOUR_COPIES < least.NOGOOD_ROUNDS
    p = restrict(band_positions(60, True, n=1, seed=17)[0], rules)
    move, passes, _states = _passes_of(p, "value", rules)
    assert passes <= least.NOGOOD_ROUNDS_FOUR_COPIES + 4
    monkeypatch.setattr(least, "NOGOOD_ROUNDS_FOUR_COPIES", least.NOGOOD_ROUNDS)
    every, passes_every, _states = _passes_of(p, "value", rules)
    assert passes_every > passes
    assert (move.tiles, move.value, move.sets_kept) == (every.tiles, every.value,
                                                        every.sets_kept)


def test_four_copies_without_jokers_in_play_branch_on_fewer_nodes(monkeypatch) -> None:
    """copies=4 + jokers=3, the bench's seed 4 60 #9 (no joker in play): since the bound is
    exact (rkb9), four copies' 256 nodes a target were spent on nodes the check rules out
    (55.9 ms against 9.9 at 64, benches/README); with no joker in play the policy gives
    ``least.BRANCH_NODES``, with jokers in play (or unknown) still 256: the same move."""
    rules = Rules(least_disturbance=True, copies=4, jokers=3)
    assert least.policy(rules, 0)[1][7] == least.BRANCH_NODES
    assert least.policy(rules)[1][7] == least.policy(rules, 1)[1][7] == \
        least.BRANCH_NODES_FOUR_COPIES
    p = restrict(band_positions(60, False, n=10, seed=4)[9], rules)
    move, _passes, _states = _passes_of(p, "tiles", rules)
    monkeypatch.setattr(least, "BRANCH_NODES", least.BRANCH_NODES_FOUR_COPIES)
    more, _passes, _states = _passes_of(p, "tiles", rules)
    assert (move.tiles, move.value, move.sets_kept) == (more.tiles, more.value,
                                                        more.sets_kept) == (16, 122, 7)
    pos = Position.from_json(dict(p, initial_meld_done=True), **rules.position_limits())
    assert check_move(pos, move, rules) == []
