"""The rack tiles a held-out state may still leave out (``solvers.rummikub._skips``, the
engine's ``least.LEFT_OUT`` cut, on under every rule): every move reaching a pass's floor
leaves out exactly the optimum's real tiles (count and value) and places its jokers, so a
hold layer drops the states whose played tiles so far cannot be completed to that.

Checked against brute force over every prefix of random racks, and through ``best_move``:
the same tiles, value and sets kept with the cut and without it, on bench positions where
it removes states (one a rule: the rules document, official retrieval, sets of 2 and 4,
three jokers or copies, meld then continue's relaxation and its own passes)."""

from __future__ import annotations

import itertools
import random
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, best_move, check_move, least
from engines.rummikub.position import objective_weights
from solvers.rummikub._skips import may_leave_out, most_jokers, no_skips, skip_table

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict


def _pairs(tiles: list[int]) -> set[tuple[int, int]]:
    """Every (count, value) of a subset of the tiles (their numbers)."""
    out = {(0, 0)}
    for number in tiles:
        out |= {(k + 1, s + number) for k, s in out}
    return out


def _random_rack(rng: random.Random) -> np.ndarray:
    rack = np.zeros((4, 13), np.int64)
    for _ in range(rng.randint(1, 9)):
        rack[rng.randrange(4), rng.randrange(13)] += 1
    return np.minimum(rack, 2)


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_cut_keeps_exactly_the_completable_prefixes(objective: str) -> None:
    rng = random.Random(7 if objective == "tiles" else 8)
    weight, joker_weight = objective_weights(objective)
    checked = dropped = 0
    for _ in range(60):
        rack = _random_rack(rng)
        rack_j, must_j = rng.randint(0, 2), rng.randint(0, 1)
        numbers = [v + 1 for c in range(4) for v in range(13) for _ in range(rack[c, v])]
        played = rng.sample(numbers, rng.randint(0, len(numbers)))
        jokers = rng.randint(0, rack_j)
        optimum = sum(int(weight[0, n - 1]) for n in played) + jokers * joker_weight
        scale = rng.randint(2, 9)
        table = skip_table(rack, rack_j, must_j, weight, joker_weight, optimum, scale)
        assert table[0] == 1  # (the engine's weights split every score one way)
        assert most_jokers(table, 9) == must_j + jokers
        goal = (len(played), sum(played))
        for v in range(14):
            before = [n for n in numbers if n <= v]
            after = _pairs([n for n in numbers if n > v])
            for count, value in _pairs(before):
                placed = rng.randint(0, must_j + rack_j)
                reals = int(weight[0, 0] - (weight[0, 1] - weight[0, 0])) * count + int(
                    weight[0, 1] - weight[0, 0]) * value
                score = scale * (reals + placed * joker_weight) + rng.randrange(scale)
                want = (goal[0] - count, goal[1] - value) in after
                got = may_leave_out(table, v, score, placed, joker_weight * scale)
                assert got == want, (rack, played, v, count, value)
                checked += 1
                dropped += not got
    assert checked > 1000 and dropped > checked // 10, (checked, dropped)


def test_no_cut_where_the_score_does_not_split() -> None:
    weight = np.full((4, 13), 5, np.int64)  # (not a tile's a + b * number)
    rack = np.ones((4, 13), np.int64)
    table = skip_table(rack, 1, 0, weight, 4, 20, 3)
    assert table[0] == 0 and most_jokers(table, 4) == 4
    assert all(may_leave_out(table, v, s, 0, 12) for v, s in itertools.product(range(14),
                                                                               (0, 7, 99)))
    assert no_skips()[0] == 0


def test_the_same_answers_with_fewer_states(monkeypatch) -> None:
    rules = Rules(least_disturbance=True, jokers=4)
    # (the narrow passes at the plain move's floor, which the bound skips with four jokers:
    # there the exact pass at the bound stops at its budget either way)
    monkeypatch.setattr(least, "BOUND_FIRST", 0)
    states = {}
    on = least.LEFT_OUT
    for cut in (on, 0):
        monkeypatch.setattr(least, "LEFT_OUT", cut)
        answers = []
        work = least.WORK.copy()
        for size, seed, index in ((40, 11, 6), (40, 5, 0), (60, 5, 1), (80, 5, 0)):
            p = restrict(band_positions(size, True, n=index + 1, seed=seed)[index], rules)
            move = best_move(p["table"], p["rack"], True, "tiles", rules)
            pos = Position.from_strings(p["table"], p["rack"], **rules.position_limits())
            assert check_move(pos, move, rules) == [], p
            answers.append((sorted(map(str, move.played)), move.value, move.sets_kept))
        states[cut] = (answers, int((least.WORK - work)[1]))
    assert states[on][0] == states[0][0]
    # (40J seed 11 #6: 294,648 held-out states without the cut, 203,237 with it)
    assert states[on][1] < states[0][1], states


# (rules, melded, seed, band, jokers, index): a position where the cut drops states, per rule
# (held-out states without it -> with it, on the bench's deals)
_EVERY_RULE = [
    (Rules(), True, 11, 20, False, 8),  # the rules document: 153 -> 97
    (Rules(joker_retrieval="official"), True, 11, 20, True, 7),  # 407 -> 320
    (Rules(min_set_length=4), True, 2, 20, False, 7),  # 94 -> 71
    (Rules(min_set_length=2), True, 2, 20, True, 0),  # 1,809 -> 1,768
    (Rules(jokers=3), True, 11, 20, False, 12),  # 89 -> 48
    (Rules(copies=3), True, 11, 20, False, 0),  # 79 -> 28
    # (the relaxation's passes, a melded player's turn: 931 -> 725)
    (Rules(meld_continue=True), False, 11, 20, True, 15),
    # (meld then continue's own two-arrangement passes, where the relaxation's move breaks
    # the rule: 19,856 -> 9,217)
    (Rules(meld_continue=True), False, 2, 40, False, 6),
]


@pytest.mark.parametrize("rules, melded, seed, size, jokers, index", _EVERY_RULE)
def test_the_cut_is_on_under_every_rule(monkeypatch, rules: Rules, melded: bool, seed: int,
                                        size: int, jokers: bool, index: int) -> None:
    rules = replace(rules, least_disturbance=True)
    assert least.policy(rules)[1][3] & least.LEFT_OUT
    monkeypatch.setattr(least, "BOUND_FIRST", 0)  # (the passes these positions measured)
    p = restrict(band_positions(size, jokers, n=index + 1, seed=seed)[index], rules)
    pos = Position.from_strings(p["table"], p["rack"], melded, **rules.position_limits())
    found = {}
    for cut in (least.LEFT_OUT, 0):
        monkeypatch.setattr(least, "LEFT_OUT", cut)
        work = least.WORK.copy()
        move = best_move(p["table"], p["rack"], melded, "tiles", rules)
        assert check_move(pos, move, rules) == [], p
        found[cut] = ((sorted(map(str, move.played)), move.value, move.sets_kept),
                      int((least.WORK - work)[1]))
    off = found.pop(0)
    on = found.popitem()[1]
    assert on[0] == off[0]
    assert on[1] < off[1], (on, off)


@pytest.mark.parametrize("exact", [0, least.KEPT_EXACT], ids=["narrow", "exact"])
def test_the_cut_in_the_bounds_own_check(monkeypatch, exact: int) -> None:
    # jokers=4 40J seed 5 #11: the bound's node holds out whole sets, and the check of those
    # sets finds the move (``_least._keeps_chosen``), its one pass: the narrow pass holding
    # out only those (35,780 held-out states without the cut, 10,906 with it) or the DP's
    # exact pass on the rest of the table (``least.KEPT_EXACT``: 5,137 without, 4,120 with)
    monkeypatch.setattr(least, "KEPT_EXACT", exact)
    rules = Rules(least_disturbance=True, jokers=4)
    p = restrict(band_positions(40, True, n=12, seed=5)[11], rules)
    pos = Position.from_strings(p["table"], p["rack"], **rules.position_limits())
    found = []
    for cut in (least.LEFT_OUT, 0):
        monkeypatch.setattr(least, "LEFT_OUT", cut)
        work = least.WORK.copy()
        move = best_move(p["table"], p["rack"], True, "tiles", rules)
        assert check_move(pos, move, rules) == [], p
        passes, states = (least.WORK - work).tolist()
        assert passes == 1, passes  # (that pass alone)
        found.append(((sorted(map(str, move.played)), move.value, move.sets_kept), states))
    assert found[0][0] == found[1][0]
    assert found[0][1] < found[1][1], found
