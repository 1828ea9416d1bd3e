"""The plain DP searched both ways (``solvers.rummikub._exact.solve_either``): for a melded
player (not meld then continue), the passes run over the position as it is and over the
position with its numbers reversed (official retrieval's table jokers' places too), under a
budget of states that grows until one finishes; a choice found reversed is read back
(``solvers.rummikub._pooled._turn_back``, ``_melds.turned_codes``).
Checked: the budget stops a pass; a way cut in its last pass resumes there, its budget
growing sixteenfold (``_exact.next_budget``); a pass the budget cut goes on from its last
layer (``_resume``), to the same answer and states, unless its floor rose (then it starts
over); the sets read backwards; on bench positions
that only the reversed search solves within the first budget, the reversed answer and the
engine's move (legal, the exact optimum of the forward pass alone, ``beam=0``); the way
given first (``first_way``) searched first, and least disturbance's relaxation solve given
the way the solve under the rules turned (``engines.rummikub.least._relaxed_move``), the
solve under the rules after a relaxation, and its move made again under them, the way
that turned (``engines.rummikub.relaxed_first``, ``least_loose.rearranged``); a
solve capped at its optimum (``cap``: a relaxation's) stopping there."""

from __future__ import annotations

import itertools
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, check_move
from engines.rummikub.position import _counts, objective_weights
from engines.rummikub.tiles import Tile, parse_tiles
from solvers.rummikub import _exact
from solvers.rummikub._dp import solve_pass
from solvers.rummikub._exact import (
    FIRST_STATES_FOUR_JOKERS_REAL2,
    LAST_PASS,
    LAST_PASS_GROWTH,
    ROUND_GROWTH,
    TURN_STATES,
    _passes,
    _turnable,
    first_budget,
    next_budget,
    solve_arrays,
    solve_either,
)
from solvers.rummikub._layout import BEAM, NEG, NO_CAP
from solvers.rummikub._melds import MAX_SETS, turned_codes
from solvers.rummikub._resume import CUT, END, FLOOR, LAYER, STATES, no_kept

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

RULES = Rules(copies=3, jokers=4, least_disturbance=False)
# (seed, table band, index) of jokers' bands: 0.3-0.4 M states a pass as they are, under
# 10 k reversed (the bench's slowest plain moves of copies=3 + jokers=4)
TURNED = ((7, 60, 1), (4, 40, 13))
# numbers 1-11 only: positions whose plain move the reversed search answers
ELEVEN = Rules(copies=3, jokers=4, numbers=11, least_disturbance=False)
TURNED_ELEVEN = ((1, 40, 4), (1, 40, 16))
# two real tiles per set over sets of two tiles: 0.1-0.45 s as they are, 2-6 ms reversed
PAIRS = Rules(min_real_tiles=2, min_set_length=2, least_disturbance=False)
TURNED_PAIRS = ((6, 60, 0), (4, 40, 13), (5, 40, 11))
# sets of two tiles alone, two real tiles alone: 20-45 ms as they are, 1-3 ms reversed
SETS_OF_2 = Rules(min_set_length=2, least_disturbance=False)
TURNED_SETS_OF_2 = ((4, 40, 13),)
REAL_2 = Rules(min_real_tiles=2, least_disturbance=False)
TURNED_REAL_2 = ((6, 60, 0), (7, 60, 1), (6, 60, 18))
# official retrieval, table jokers at their places read backwards: 0.2-0.35 s as they are,
# 1 ms reversed (official + both), 70 ms and 2 ms (official + sets of 2)
OFFICIAL = Rules(joker_retrieval="official", min_real_tiles=2, min_set_length=2,
                 least_disturbance=False)
TURNED_OFFICIAL = ((5, 60, 16), (6, 60, 0))
# (official + sets of 2, seed 2 80J #9: since the DP drops the states short of the jokers
# the later table jokers' places owe, rkoj5, the position as it is finishes within the first
# budget, 8.7 k states, and no longer turns; its moves stay checked below)
OFFICIAL_2 = Rules(joker_retrieval="official", min_set_length=2, least_disturbance=False)
TURNED_OFFICIAL_2 = ((2, 80, 9),)
# both ways dear (official retrieval, four copies): the last pass as it is stores 74 k states
# (by value 75 k), past the first budget; the reversed way, given its floor, finishes in the
# first round with 10.8 k (seed 2 80J #18 before rkoj5: once the DP dropped the states short
# of the jokers the later table jokers' places owe, its last pass fits the first budget)
BOTH_DEAR = Rules(joker_retrieval="official", copies=4, least_disturbance=False)
BOTH_DEAR_AT = (5, 60, 9)
# two real tiles per set, four jokers, three copies: the position as it is gets half the
# first budget (_exact.first_budget); bench positions whose last pass as they are stores
# 16 k states (within the whole first budget, cut by the half), reversed 1.3-3.5 k
FOUR_REAL2 = Rules(min_real_tiles=2, jokers=4, copies=3, least_disturbance=False)
TURNED_FOUR_REAL2 = ((3, 20, 0), (2, 20, 2))


def _position(seed: int, size: int, index: int, rules: Rules = RULES) -> tuple[dict, Position]:
    p = restrict(band_positions(size, True, n=index + 1, seed=seed)[index], rules)
    return p, Position.from_strings(p["table"], p["rack"], True, **rules.position_limits())


def _arrays(pos: Position, objective: str = "tiles", rules: Rules = RULES) -> tuple:
    must, must_j = _counts(pos.table_tiles)
    rack, rack_j = _counts(pos.rack)
    weight, joker_weight = objective_weights(objective)
    return (must, rack, np.int64(must_j), np.int64(rack_j), np.ascontiguousarray(weight),
            np.int64(joker_weight), np.int64(rules.search_mode(True, pos.table)))


def _outputs() -> tuple:
    return np.zeros((4, 13, 4), np.int64), np.zeros(13, np.int64), np.zeros(2, np.int64)


@pytest.mark.default_forms
def test_a_budget_stops_the_pass() -> None:
    must, rack, must_j, rack_j, weight, joker_weight, mode = _arrays(_position(*TURNED[0])[1])
    group_ok = RULES.group_tables()[0]
    whole = solve_pass(must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok,
                       *_outputs(), NEG, np.int64(0), None, 1_000)
    assert whole[0] == -1
    # (hold and budget given, no budget: omitted, Numba would compile solve_pass again)
    status, score, _ = solve_pass(must, rack, must_j, rack_j, weight, joker_weight, mode,
                                  group_ok, *_outputs(), NEG, np.int64(BEAM), None, 0)
    assert status == 1 and score > 0


def test_turned_codes_read_the_sets_backwards() -> None:
    codes = np.zeros(MAX_SETS, np.int64)
    # a run R5 R6 (joker as R7), a group of 10s (K O B), then as 13 numbers reversed
    codes[0] = 1 << 32 | 5 << 24 | 3 << 16 | 0b100
    codes[1] = 1 << 40 | 10 << 32 | 10 << 24 | 3 << 16 | 0b1101
    turned_codes(codes, 2, 13)
    assert codes[0] == 1 << 32 | 7 << 24 | 3 << 16 | 0b001  # (R7 joker) R8 R9
    assert codes[1] == 1 << 40 | 4 << 32 | 4 << 24 | 3 << 16 | 0b1101
    codes[0] = 1 << 40 | 2 << 32 | 2 << 24 | 3 << 16 | 0b0111  # groups sort after runs
    codes[1] = 3 << 32 | 1 << 24 | 4 << 16 | 0b0011  # B1 B2 as jokers, B3 B4, of 10 numbers
    turned_codes(codes, 2, 10)
    assert codes[:2].tolist() == [3 << 32 | 7 << 24 | 4 << 16 | 0b1100,
                                  1 << 40 | 9 << 32 | 9 << 24 | 3 << 16 | 0b0111]


def test_melded_rules_turn_unless_tied_to_the_numbers() -> None:
    for rules in (RULES, PAIRS, SETS_OF_2, REAL_2, OFFICIAL, Rules(), Rules(min_set_length=4)):
        assert _turnable(np.int64(rules.search_mode(True)))
        assert not _turnable(np.int64(rules.search_mode(False)))  # (the meld's value)
    table = [parse_tiles("R4 J R6"), parse_tiles("K9 O9 J")]
    assert _turnable(np.int64(OFFICIAL.search_mode(True, table)))
    continued = Rules(meld_continue=True, min_set_length=2)
    assert not _turnable(np.int64(continued.search_mode(False)))


def test_table_jokers_places_read_backwards() -> None:
    table = [parse_tiles("R4 J R6"), parse_tiles("K9 O9 J")]
    for numbers in (13, 11):
        rules = Rules(joker_retrieval="official", numbers=numbers)
        back = [[t if t.is_joker else Tile(t.colour, numbers + 1 - t.number)
                 for t in reversed(s)] for s in table]
        assert _exact.turned_rules(np.int64(rules.search_mode(True, table)), numbers) == (
            rules.search_mode(True, back))
    assert _exact.turned_rules(np.int64(Rules().search_mode(True, table)), 13) == 0


@pytest.mark.parametrize("objective", ["tiles", "value"])
@pytest.mark.parametrize("rules, positions", [(RULES, TURNED), (PAIRS, TURNED_PAIRS),
                                              (SETS_OF_2, TURNED_SETS_OF_2),
                                              (REAL_2, TURNED_REAL_2),
                                              (OFFICIAL, TURNED_OFFICIAL)])
def test_the_reversed_search_finds_the_optimum(objective: str, rules: Rules,
                                               positions: tuple) -> None:
    for where in positions:
        status, score, back, states, exact = _either_and_exact(rules, where, objective)
        assert (status, score) == exact, where
        if objective == "tiles":  # (the forward passes pass the first budget there)
            assert back and states < TURN_STATES, where


def test_official_sets_of_two_finish_as_they_are() -> None:
    status, score, back, states, exact = _either_and_exact(OFFICIAL_2, TURNED_OFFICIAL_2[0])
    assert (status, score) == exact
    assert not back and states < TURN_STATES


def _either_and_exact(rules: Rules, where: tuple, objective: str = "tiles") -> tuple:
    """solve_either's status, score, way and states (the last pass's) on a bench position,
    and the plain exact pass's status and score."""
    must, rack, must_j, rack_j, weight, joker_weight, mode = _arrays(
        _position(*where, rules)[1], objective, rules)
    choice, group_jokers, stats = _outputs()
    status, score, back = solve_either(must, rack, must_j, rack_j, weight, joker_weight, mode,
                                       rules.group_tables()[0], choice, group_jokers, stats,
                                       np.int64(BEAM), True, np.int64(0), np.int64(NEG), NO_CAP)
    exact = solve_arrays(must[None], rack[None], np.array([must_j]), np.array([rack_j]),
                         weight[None], np.array([joker_weight]), np.array([mode]),
                         parallel=False, beam=0, group_ok=rules.group_tables()[0])
    return status, score, back, stats[0], (exact[0][0], exact[1][0])


def _tiles_and_value(choice: np.ndarray, group_jokers: np.ndarray, arrays: tuple) -> tuple:
    """The tiles a choice of the kernel plays and their value (jokers: 0)."""
    must, must_j = arrays[0], arrays[2]
    real = choice[:, :, 0] + choice[:, :, 1] - must
    jokers = int(choice[:, :, 2].sum() + group_jokers.sum() - must_j)
    return int(real.sum()) + jokers, int((real * np.arange(1, 14)).sum())


@pytest.mark.parametrize("rules, positions", [(RULES, TURNED), (ELEVEN, TURNED_ELEVEN),
                                              (PAIRS, TURNED_PAIRS),
                                              (SETS_OF_2, TURNED_SETS_OF_2),
                                              (REAL_2, TURNED_REAL_2),
                                              (OFFICIAL, TURNED_OFFICIAL),
                                              (OFFICIAL_2, TURNED_OFFICIAL_2)])
def test_turned_moves_are_legal_and_optimal(rules: Rules, positions: tuple) -> None:
    for where in positions:
        p, pos = _position(*where, rules)
        for objective in ("tiles", "value"):
            move = best_move(p["table"], p["rack"], True, objective, rules)
            assert check_move(pos, move, rules) == [], (where, objective)
            arrays = _arrays(pos, objective, rules)
            _status, _best, choice, group_jokers, _stats = solve_arrays(
                *(np.array([a]) for a in arrays), parallel=False, beam=0,
                group_ok=rules.group_tables()[0])
            assert (move.tiles, move.value) == _tiles_and_value(choice[0], group_jokers[0],
                                                                arrays), (where, objective)


def test_a_way_cut_in_its_last_pass_resumes_there_with_a_larger_budget() -> None:
    must, rack, must_j, rack_j, weight, joker_weight, mode = _arrays(
        _position(*BOTH_DEAR_AT, BOTH_DEAR)[1], rules=BOTH_DEAR)
    group_ok = BOTH_DEAR.group_tables()[0]
    args = (must, rack, must_j, rack_j, weight, joker_weight, mode, group_ok)
    share = np.array([TURN_STATES, NEG, 0, 0, NO_CAP], np.int64)
    status, _score, kept = _passes(*args, *_outputs(), np.int64(BEAM), NO_CAP, share,
                                   no_kept(), True)
    assert status == -1 and share[2] == LAST_PASS
    assert kept[0][CUT] == 1 and kept[2].shape[0] >= kept[0][END] > 1  # (the pass, kept)
    assert next_budget(np.int64(TURN_STATES), share) == TURN_STATES * LAST_PASS_GROWTH
    share[0] = 1 << 40  # (resumed: the last pass alone, from its last layer)
    choice, group_jokers, stats = _outputs()
    resumed = _passes(*args, choice, group_jokers, stats, np.int64(BEAM), NO_CAP, share, kept, True)
    whole_out = _outputs()
    whole = _passes(*args, *whole_out, np.int64(BEAM), NO_CAP, _exact._unbounded(), no_kept(),
                    True)
    assert resumed[:2] == whole[:2] and resumed[0] == 1
    # (the same states, stored once: the kept ones and those after them)
    assert stats.tolist() == whole_out[2].tolist() and choice.tolist() == whole_out[0].tolist()
    assert stats[0] > TURN_STATES  # (past the first budget: it went on from its last layer)
    assert resumed[2][0][CUT] == 0 and resumed[2][2].shape[0] == 0  # (its arrays freed)
    earlier = np.array([TURN_STATES, NEG, 2, 0, NO_CAP], np.int64)
    assert next_budget(np.int64(TURN_STATES), earlier) == TURN_STATES * ROUND_GROWTH


def test_a_cut_pass_starts_over_where_its_floor_rose() -> None:
    # (the other way's score, the next round's floor, prunes more than the pass cut at NEG:
    # going on would store other states than a pass from that floor, and may replay another
    # optimal arrangement than the rounds did before passes went on)
    # (objective value: the floor the last pass starts from is below the optimum)
    args = (*_arrays(_position(*BOTH_DEAR_AT, BOTH_DEAR)[1], "value", rules=BOTH_DEAR),
            BOTH_DEAR.group_tables()[0])
    share = np.array([TURN_STATES, NEG, 0, 0, NO_CAP], np.int64)
    kept = _passes(*args, *_outputs(), np.int64(BEAM), NO_CAP, share, no_kept(), True)[2]
    whole = _passes(*args, *_outputs(), np.int64(BEAM), NO_CAP, _exact._unbounded(), no_kept(),
                    True)
    assert share[2] == LAST_PASS and kept[0][CUT] == 1
    assert kept[0][FLOOR] < whole[1] + args[2] * args[5]
    share[:2] = 1 << 40, whole[1] + args[2] * args[5]  # (raw: the table jokers' gain too)
    fresh_share, fresh_out, out = share.copy(), _outputs(), _outputs()
    resumed = _passes(*args, *out, np.int64(BEAM), NO_CAP, share, kept, True)
    fresh = _passes(*args, *fresh_out, np.int64(BEAM), NO_CAP, fresh_share, no_kept(), True)
    assert resumed[:2] == fresh[:2] == whole[:2]
    assert [a.tolist() for a in out] == [a.tolist() for a in fresh_out]


# (a pass of each kind: states of two key words, two real tiles per set over length classes,
# one key word (sets of two tiles; official retrieval with four copies))
@pytest.mark.parametrize("rules, where", [(RULES, TURNED[1]), (PAIRS, TURNED_PAIRS[2]),
                                          (SETS_OF_2, TURNED_SETS_OF_2[0]),
                                          (BOTH_DEAR, BOTH_DEAR_AT)])
def test_a_pass_cut_at_every_budget_goes_on_to_the_same_answer(rules: Rules,
                                                               where: tuple) -> None:
    args = (*_arrays(_position(*where, rules)[1], rules=rules), rules.group_tables()[0])
    whole_out = _outputs()
    whole = _passes(*args, *whole_out, np.int64(BEAM), NO_CAP, _exact._unbounded(), no_kept(),
                    True)
    share, kept, cuts = np.array([256, NEG, 0, 0, NO_CAP], np.int64), no_kept(), []
    while True:
        out = _outputs()
        status, score, kept = _passes(*args, *out, np.int64(BEAM), NO_CAP, share, kept, True)
        if status >= 0:
            break
        assert kept[0][CUT] == 1, where
        cuts.append((share[2], kept[0][LAYER], kept[0][STATES], kept[2][:kept[0][END]].copy()))
        share[0] = 2 * kept[0][STATES]  # (the next call: twice the states the pass holds)
    assert (status, score) == whole[:2], where
    for got, want in zip(out, whole_out):  # (the choice, and the last pass's states)
        assert got.tolist() == want.tolist(), where
    assert kept[0][CUT] == 0 and kept[2].shape[0] == 0, where
    # the same pass cut again went on from its layers (the states kept before, still there)
    again = [(a, b) for a, b in itertools.pairwise(cuts) if a[0] == b[0]]
    assert len(cuts) > 2 and again, where
    for (_k, layer, states, keys), (_k2, layer2, states2, keys2) in again:
        assert layer2 > layer and states2 > states, where
        assert keys2[:keys.shape[0]].tolist() == keys.tolist(), where


def test_both_ways_dear_the_way_in_its_last_pass_finishes() -> None:
    must, rack, must_j, rack_j, weight, joker_weight, mode = _arrays(
        _position(*BOTH_DEAR_AT, BOTH_DEAR)[1], rules=BOTH_DEAR)
    group_ok = BOTH_DEAR.group_tables()[0]
    choice, group_jokers, stats = _outputs()
    status, score, back = solve_either(must, rack, must_j, rack_j, weight, joker_weight, mode,
                                       group_ok, choice, group_jokers, stats, np.int64(BEAM),
                                       True, np.int64(0), np.int64(NEG), NO_CAP)
    exact = solve_arrays(must[None], rack[None], np.array([must_j]), np.array([rack_j]),
                         weight[None], np.array([joker_weight]), np.array([mode]),
                         parallel=False, beam=0, group_ok=group_ok)
    assert (status, score) == (exact[0][0], exact[1][0])
    # (as it is, cut in its last pass in the first round; the reversed way, given the floor
    # found, finishes in the first round: 10.8 k states)
    assert back and stats[0] < TURN_STATES


def test_four_jokers_with_two_real_tiles_and_three_copies_turn_sooner() -> None:
    mode = np.int64(FOUR_REAL2.search_mode(True))
    assert first_budget(mode, np.int64(4)) == FIRST_STATES_FOUR_JOKERS_REAL2 < TURN_STATES
    for rules, jokers in ((FOUR_REAL2, 3), (Rules(min_real_tiles=2, jokers=4), 4),
                          (Rules(copies=3, jokers=4), 4)):
        assert first_budget(np.int64(rules.search_mode(True)), np.int64(jokers)) == TURN_STATES
    group_ok = FOUR_REAL2.group_tables()[0]
    for where in TURNED_FOUR_REAL2:
        arrays = _arrays(_position(*where, FOUR_REAL2)[1], rules=FOUR_REAL2)
        for budget, finished in ((TURN_STATES, True), (FIRST_STATES_FOUR_JOKERS_REAL2, False)):
            share = np.array([budget, NEG, 0, 0, NO_CAP], np.int64)
            status = _passes(*arrays, group_ok, *_outputs(), np.int64(BEAM), NO_CAP, share,
                             no_kept(), True)[0]
            assert (status >= 0) == finished, (where, budget)
        choice, group_jokers, stats = _outputs()
        status, score, back = solve_either(*arrays, group_ok, choice, group_jokers, stats,
                                           np.int64(BEAM), True, np.int64(0), np.int64(NEG),
                                           NO_CAP)
        exact = solve_arrays(*(np.array([a]) for a in arrays), parallel=False, beam=0,
                             group_ok=group_ok)
        # (the reversed position answers, with the exact optimum)
        assert back and (status, score) == (exact[0][0], exact[1][0]), where


# bench positions of copies=3 + jokers=4 + two real tiles (least disturbance on) whose plain
# move the reversed search finds, and whose relaxation's solve (one real tile) finishes
# fastest reversed too: seed 11 40J #3, 26.6 ms as it is first, 9.6 ms reversed first
RELAXED_TURNS = (11, 40, 3)


@pytest.mark.parametrize("where", [TURNED_FOUR_REAL2[0], RELAXED_TURNS])
def test_the_first_way_is_searched_first(where: tuple) -> None:
    rules = Rules(jokers=4, copies=3, least_disturbance=False)  # (a relaxation's rules)
    arrays = _arrays(_position(*where, FOUR_REAL2)[1], rules=rules)
    group_ok = rules.group_tables()[0]
    found = []
    for first_way in (0, 1):
        choice, group_jokers, stats = _outputs()
        status, score, back = solve_either(*arrays, group_ok, choice, group_jokers, stats,
                                           np.int64(BEAM), True, np.int64(first_way),
                                           np.int64(NEG), NO_CAP)
        found.append((status, score, back))
    # (the same optimum either way; reversed first, the reversed position answers)
    assert found[0][:2] == found[1][:2] and found[0][0] == 1 and found[1][2], (where, found)
    # (as it is first: its first budget holds the position as it is)
    assert not found[0][2] or where == RELAXED_TURNS, found


def _after_the_rules(monkeypatch) -> None:
    """The relaxation solved after the solve under the rules, as where its move is not
    allowed (least.relaxation_first tried first: off)."""
    from engines.rummikub import least

    monkeypatch.setattr(least, "relaxation_pays_first", lambda rules: False)


def test_a_relaxation_searches_first_the_way_its_rules_turned(monkeypatch) -> None:
    from engines.rummikub import arrays

    rules = Rules(min_real_tiles=2, jokers=4, copies=3)
    p = _position(*RELAXED_TURNS, rules)[0]
    solve = arrays._solve_moves
    calls = []

    def spy(positions, objective, threads, rules, turn=None, above=None):
        given = None if turn is None else turn.tolist()
        moves = solve(positions, objective, threads, rules, turn, above)
        calls.append((rules.min_real_tiles, given, None if turn is None else turn.tolist()))
        return moves

    monkeypatch.setattr(arrays, "_solve_moves", spy)
    _after_the_rules(monkeypatch)
    move = best_move(p["table"], p["rack"], True, "tiles", rules)
    monkeypatch.undo()
    # (the relaxation's solve, within the solve under two real tiles that found the plain
    # move reversed, given that way first, and finishing there)
    assert calls == [(1, [1], [1]), (2, None, None)], calls
    # (the same answer as the relaxation's solve as it is first: tiles, value, sets kept)
    from engines.rummikub import least

    relaxed = least._relaxed_move
    monkeypatch.setattr(least, "_relaxed_move", lambda *a: relaxed(*a[:6], False))
    _after_the_rules(monkeypatch)
    before = best_move(p["table"], p["rack"], True, "tiles", rules)
    assert (move.tiles, move.value, move.sets_kept) == (before.tiles, before.value,
                                                        before.sets_kept)
    assert not check_move(Position.from_strings(p["table"], p["rack"], True,
                                                **rules.position_limits()), move, rules)


# jokers=3 + two real tiles (least disturbance on): the relaxation (one real tile a set) found
# its move reversed, scores more than the rules' optimum, and its least-disturbing move is
# not allowed: that move made again under the rules (least_loose.rearranged, no arrangement)
# and the solve under the rules, capped at its optimum, search reversed first
RULES_AFTER_TURNED = (8, 40, 9)


def test_the_solve_after_a_turned_relaxation_searches_its_way_first(monkeypatch) -> None:
    from engines.rummikub import arrays, least_loose

    rules = Rules(min_real_tiles=2, jokers=3)
    p = _position(*RULES_AFTER_TURNED, rules)[0]
    solve = arrays._solve_rules
    calls = []
    rearranged = least_loose.rearranged
    again = []

    def spy_again(pos, objective, rules, move, turn=None):
        again.append(None if turn is None else turn.tolist())
        return rearranged(pos, objective, rules, move, turn)

    monkeypatch.setattr(least_loose, "rearranged", spy_again)

    def spy(positions, objective, threads, rules, turn=None, above=None, relaxed_known=None,
            cap=None, way=None):
        if cap is not None:  # (the solve under the rules after the relaxation)
            calls.append(turn.tolist())
            turn = turn if way is None else np.full(len(positions), way, np.int64)
        return solve(positions, objective, threads, rules, turn, above, relaxed_known, cap)

    monkeypatch.setattr(arrays, "_solve_rules", spy)
    moves = {}
    for objective in ("tiles", "value"):
        move = best_move(p["table"], p["rack"], True, objective, rules)
        assert calls == [[1]] and again == [[1]], (calls, again)
        # (the same answer as that solve as it is first: tiles, value, sets kept)
        monkeypatch.setattr(arrays, "_solve_rules", lambda *a, **k: spy(*a, **k, way=0))
        before = best_move(p["table"], p["rack"], True, objective, rules)
        monkeypatch.setattr(arrays, "_solve_rules", spy)
        calls.clear()
        again.clear()
        moves[objective] = move
        assert (move.tiles, move.value, move.sets_kept) == (before.tiles, before.value,
                                                            before.sets_kept)
        assert not check_move(Position.from_strings(p["table"], p["rack"], True,
                                                    **rules.position_limits()), move, rules)
    assert (moves["tiles"].tiles, moves["tiles"].value, moves["tiles"].sets_kept) == (14, 80, 9)


# copies=3 + jokers=4 + two real tiles (least disturbance on): the relaxation's optimum (one
# real tile a set) is the plain move's under two; its solve as it is first stores 36.9 k
# states in its last pass, 5.1 k looking only for more than that score
ABOVE_FIRST = (6, 40, 3)


def test_a_search_above_the_optimum_finds_nothing() -> None:
    from engines.rummikub.arrays import solve_moves
    from engines.rummikub.least import _score

    rules = Rules(jokers=4, copies=3, least_disturbance=False)  # (a relaxation's rules)
    pos = _position(*ABOVE_FIRST, FOUR_REAL2)[1]
    move = solve_moves([pos], "tiles", None, rules)[0]
    score = _score(move, "tiles", rules)
    # (above one less: the optimum again; above the optimum: nothing, the search pruned)
    again = solve_moves([pos], "tiles", None, rules, np.zeros(1, np.int64),
                        np.array([score - 1]))[0]
    assert again is not None and (again.tiles, again.value, _score(again, "tiles", rules)) \
        == (move.tiles, move.value, score)
    assert solve_moves([pos], "tiles", None, rules, np.zeros(1, np.int64),
                       np.array([score])) == [None]


def test_a_relaxation_looks_only_above_the_move_under_its_rules(monkeypatch) -> None:
    from engines.rummikub import arrays, least

    rules = Rules(min_real_tiles=2, jokers=4, copies=3)
    p, pos = _position(*ABOVE_FIRST, rules)
    first = arrays.solve_moves([pos], "tiles", None, FOUR_REAL2)[0]
    solve = arrays._solve_moves
    calls = []

    def spy(positions, objective, threads, rules, turn=None, above=None):
        moves = solve(positions, objective, threads, rules, turn, above)
        calls.append((rules.min_real_tiles, None if above is None else above.tolist(),
                      moves[0] is None))
        return moves

    monkeypatch.setattr(arrays, "_solve_moves", spy)
    _after_the_rules(monkeypatch)
    move = best_move(p["table"], p["rack"], True, "tiles", rules)
    monkeypatch.undo()
    # (the relaxation's solve, within the solve under two real tiles, given that move's
    # score, finds nothing more: the relaxation's plain move is that move)
    assert calls == [(1, [least._score(first, "tiles", rules)], True), (2, None, False)], calls
    # (the same answer as the relaxation's solve looking for its optimum as it did)
    monkeypatch.setattr(least, "_score", lambda *a: NEG)
    _after_the_rules(monkeypatch)
    before = best_move(p["table"], p["rack"], True, "tiles", rules)
    assert (move.tiles, move.value, move.sets_kept, sorted(map(str, move.played))) == (
        before.tiles, before.value, before.sets_kept, sorted(map(str, before.played)))
    assert not check_move(pos, move, rules)


# copies=3 + jokers=4 + two real tiles (least disturbance on): the relaxation's
# least-disturbing move (one real tile a set) is allowed under two on ABOVE_FIRST, not on
# seed 11 20J #0 (its optimum breaks two real tiles); copies=4 + jokers=3: allowed on seed 11
# 60J #5 (197.6 -> 64.4 ms); copies=3 + jokers=3: on seed 11 40J #0; with two jokers (copies
# 3 and 4) or two copies (jokers 3 and 4): on seed 11 20J positions
RELAXATION_NOT_ALLOWED = (11, 20, 0)
FOUR_COPIES_ALLOWED = (11, 60, 5)
THREE_COPIES = Rules(min_real_tiles=2, jokers=4, copies=3)
FOUR_COPIES = Rules(min_real_tiles=2, jokers=3, copies=4)
THREE_AND_THREE = Rules(min_real_tiles=2, jokers=3, copies=3)
TWO_JOKERS = [((11, 20, 6), "allowed", Rules(min_real_tiles=2, copies=3)),
              ((11, 20, 1), "allowed", Rules(min_real_tiles=2, copies=4)),
              ((11, 20, 7), "allowed",
               Rules(min_real_tiles=2, copies=3, joker_retrieval="official"))]
TWO_COPIES = [((11, 20, 7), "allowed", Rules(min_real_tiles=2, jokers=3)),
              ((11, 20, 5), "allowed", Rules(min_real_tiles=2, jokers=4)),
              ((11, 40, 4), "allowed",
               Rules(min_real_tiles=2, jokers=4, joker_retrieval="official"))]
# The relaxation's least-disturbing move breaks two real tiles, but its played tiles and the
# table sets it does not keep arrange under them (least._rearranged): that move is the
# answer, the position not solved under the rules (jokers=4 seed 2 60J #0: 28.6 -> 10.9 ms;
# copies=3 + jokers=3 seed 2 60J #0; jokers=4 + official seed 7 40J #8)
REARRANGED = [((2, 60, 0), "rearranged", Rules(min_real_tiles=2, jokers=4)),
              ((2, 60, 0), "rearranged", THREE_AND_THREE),
              ((7, 40, 8), "rearranged",
               Rules(min_real_tiles=2, jokers=4, joker_retrieval="official"))]


@pytest.mark.parametrize("where, route, rules", [(ABOVE_FIRST, "allowed", THREE_COPIES),
                                                 (RELAXATION_NOT_ALLOWED, "solved", THREE_COPIES),
                                                 (FOUR_COPIES_ALLOWED, "allowed", FOUR_COPIES),
                                                 ((11, 40, 0), "allowed", THREE_AND_THREE),
                                                 *TWO_JOKERS, *TWO_COPIES, *REARRANGED])
def test_a_relaxation_allowed_under_the_rules_is_the_answer(monkeypatch, where: tuple,
                                                             route: str, rules: Rules) -> None:
    from engines.rummikub import arrays
    from engines.rummikub.least import _score

    p, pos = _position(*where, rules)
    solve = arrays.solve_counts
    calls = []

    def spy(*args, **kwargs):
        calls.append((args[5].min_real_tiles,
                      *(None if a is None else a.tolist() for a in args[7:9])))
        return solve(*args, **kwargs)

    monkeypatch.setattr(arrays, "solve_counts", spy)
    move = best_move(p["table"], p["rack"], True, "tiles", rules)
    monkeypatch.undo()
    _after_the_rules(monkeypatch)
    before = best_move(p["table"], p["rack"], True, "tiles", rules)
    # (the relaxation's solve first; where its move is not allowed, its played tiles
    # arranged under two real tiles beside the sets it keeps (a solve looking only for
    # all of them: above their score less one); where they do not arrange, the solve under
    # two real tiles, the relaxation's bound then known: not solved again, and its
    # optimum, one real tile a set, the cap of that solve)
    relaxed = _score(best_move(p["table"], p["rack"], True, "tiles",
                               replace(rules, min_real_tiles=1, least_disturbance=False)),
                     "tiles", rules)
    arranged = [(2, [relaxed - 1], None)]
    expected = {"allowed": [], "rearranged": arranged,
                "solved": [*arranged, (2, None, [relaxed])]}[route]
    assert calls == [(1, None, None), *expected], calls
    assert (move.tiles, move.value, move.sets_kept, sorted(map(str, move.played))) == (
        before.tiles, before.value, before.sets_kept, sorted(map(str, before.played)))
    assert not check_move(pos, move, rules)


# copies=3 + jokers=4 + two real tiles: a bench position whose relaxation's least-disturbing
# move (one real tile a set) breaks two real tiles, so it is solved under them after it
# (least disturbance on: engines.rummikub.arrays._solve_moves), capped at the relaxation's
# optimum, the same as theirs and below the whole rack's score: the narrow search finds it
# (27.7 -> 18.6 ms; its last pass stores 10.9 k states uncapped, 2.0 k capped)
CAPPED_AT = (7, 20, 0)


def test_a_solve_capped_at_its_optimum_stops_there() -> None:
    arrays = _arrays(_position(*CAPPED_AT, FOUR_REAL2)[1], rules=FOUR_REAL2)
    group_ok = FOUR_REAL2.group_tables()[0]

    def solve(cap: np.int64) -> tuple:
        choice, group_jokers, stats = _outputs()
        status, score, _back = solve_either(*arrays, group_ok, choice, group_jokers, stats,
                                            np.int64(BEAM), True, np.int64(0), np.int64(NEG),
                                            cap)
        return status, score, int(stats[0])

    uncapped = solve(NO_CAP)
    optimum = uncapped[1]
    capped, above = solve(np.int64(optimum)), solve(np.int64(optimum + 1))
    # (the optimum whatever the cap; at the cap, fewer states: the search stops there)
    assert uncapped[0] == capped[0] == above[0] == 1
    assert capped[1] == above[1] == optimum, (uncapped, capped, above)
    assert capped[2] * 4 < uncapped[2], (uncapped, capped)
