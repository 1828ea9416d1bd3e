"""The bound before any narrow pass (``solvers.rummikub._least.BOUND_FIRST``, the engine's
``least.BOUND_FIRST``, on under every rule): where the bound applies (three or four copies
or jokers in play), the narrow passes at the plain move's floor are skipped and the bound's
own checks look for the move.  The narrow passes only find moves to start from, so the tiles,
value and sets kept are those without it; where the bound does not apply (no jokers in
play, and the policy's ``least.BOUND_ANY`` off) nothing changes, the narrow passes included.

``solvers.rummikub._least.BOUND_ANY`` (the engine's ``least.BOUND_ANY``, on under every
rule) lets the bound apply with two copies and at most two jokers in play too: the rules
document's tails were exact passes proving that no move keeps one set more, which the bound
(the most kept there) spares; the tiles, value and sets kept are those without it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engines.rummikub import Position, Rules, best_move, check_move, least

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

FOUR_JOKERS = Rules(least_disturbance=True, jokers=4)


def _solve(monkeypatch, bit: int, size: int, jokers: bool, seed: int, indices,
           rules: Rules = FOUR_JOKERS, name: str = "BOUND_FIRST") -> tuple:
    """(answers, held-out states) of the bench positions under ``rules``, the policy bit
    ``name`` set to ``bit``."""
    monkeypatch.setattr(least, name, bit)
    answers = []
    work = least.WORK.copy()
    for index in indices:
        p = restrict(band_positions(size, jokers, n=index + 1, seed=seed)[index], rules)
        move = best_move(p["table"], p["rack"], True, "tiles", rules)
        pos = Position.from_strings(p["table"], p["rack"], **rules.position_limits())
        assert check_move(pos, move, rules) == [], p
        answers.append((sorted(map(str, move.played)), move.value, move.tiles, move.sets_kept))
    return answers, int((least.WORK - work)[1])


def test_on_under_every_rule() -> None:
    for rules in (FOUR_JOKERS, None, Rules(), Rules(jokers=3), Rules(copies=4),
                  Rules(copies=3), Rules(joker_retrieval="official")):
        assert least.policy(rules)[1][3] & least.BOUND_FIRST, rules


@pytest.mark.parametrize("rules, size, jokers, seed, indices", [
    (FOUR_JOKERS, 40, True, 4, (13,)),  # 71,779 held-out states without it, 40,176 with it
    (FOUR_JOKERS, 60, True, 7, (1, 0, 2)),  # 104,912 + ... -> 68,694 + ...
    (FOUR_JOKERS, 20, True, 11, range(4)),
    (Rules(least_disturbance=True, copies=4), 80, False, 11, range(3)),
    (Rules(least_disturbance=True, copies=3), 40, True, 2, range(3)),
    (Rules(least_disturbance=True, jokers=3), 60, True, 11, range(3)),
], ids=["jokers4-40J", "jokers4-60J", "jokers4-20J", "copies4-80", "copies3-40J",
        "jokers3-60J"])
def test_the_same_answers_with_fewer_states(monkeypatch, rules: Rules, size: int,
                                            jokers: bool, seed: int, indices) -> None:
    on = least.BOUND_FIRST
    with_it = _solve(monkeypatch, on, size, jokers, seed, indices, rules)
    without = _solve(monkeypatch, 0, size, jokers, seed, indices, rules)
    assert with_it[0] == without[0]
    assert with_it[1] < without[1], (with_it, without)


def test_no_change_where_the_bound_does_not_apply(monkeypatch) -> None:
    # (four jokers in the tile set, none in play, two copies: no bound without BOUND_ANY,
    # so the narrow passes run as before)
    monkeypatch.setattr(least, "BOUND_ANY", 0)
    on = least.BOUND_FIRST
    with_it = _solve(monkeypatch, on, 40, False, 2, range(6))
    without = _solve(monkeypatch, 0, 40, False, 2, range(6))
    assert with_it == without
    assert with_it[1] > 0


def test_any_tiles_on_under_every_rule() -> None:
    for rules in (None, Rules(), Rules(joker_retrieval="official"), Rules(min_real_tiles=2),
                  Rules(min_set_length=4), Rules(copies=4), FOUR_JOKERS):
        assert least.policy(rules)[1][3] & least.BOUND_ANY, rules


RULES = Rules(least_disturbance=True)


@pytest.mark.parametrize("rules, size, jokers, seed, indices", [
    (RULES, 60, True, 6, (0,)),  # 938,677 held-out states without it, 33,549 with it
    (RULES, 80, True, 3, (6, 4)),  # 914,893 + 702,008 -> ...
    (RULES, 40, False, 2, range(4)),
    (Rules(least_disturbance=True, joker_retrieval="official"), 80, True, 11, range(3)),
], ids=["rules-60J", "rules-80J", "rules-40", "official-80J"])
def test_any_tiles_the_same_answers_with_fewer_states(monkeypatch, rules: Rules, size: int,
                                                      jokers: bool, seed: int,
                                                      indices) -> None:
    on = least.BOUND_ANY
    with_it = _solve(monkeypatch, on, size, jokers, seed, indices, rules, "BOUND_ANY")
    without = _solve(monkeypatch, 0, size, jokers, seed, indices, rules, "BOUND_ANY")
    assert with_it[0] == without[0]
    assert with_it[1] < without[1], (with_it, without)


def test_any_tiles_no_change_where_the_bound_applies_anyway(monkeypatch) -> None:
    # (four copies: the bound applies without the bit, so the passes are the same)
    rules = Rules(least_disturbance=True, copies=4)
    on = least.BOUND_ANY
    with_it = _solve(monkeypatch, on, 60, True, 11, range(3), rules, "BOUND_ANY")
    without = _solve(monkeypatch, 0, 60, True, 11, range(3), rules, "BOUND_ANY")
    assert with_it == without
    assert with_it[1] > 0


def test_kept_exact_under_every_rule(monkeypatch) -> None:
    # (the node's sets checked by the plain DP on the rest of the table: 33,549 held-out
    # states without it, 2,938 with it, the rules document's 60J seed 6 #0)
    for rules in (None, Rules(), Rules(min_set_length=2), Rules(copies=4)):
        assert least.policy(rules)[1][3] & least.KEPT_EXACT, rules
    on = least.KEPT_EXACT
    with_it = _solve(monkeypatch, on, 60, True, 6, (0, 18), RULES, "KEPT_EXACT")
    without = _solve(monkeypatch, 0, 60, True, 6, (0, 18), RULES, "KEPT_EXACT")
    assert with_it[0] == without[0]
    assert with_it[1] < without[1], (with_it, without)
