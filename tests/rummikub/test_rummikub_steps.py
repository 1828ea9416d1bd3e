"""Move.steps(): every step replayed on a real table, ending in the move's table, and no
sequence of the same actions shorter (every matching of old to new sets enumerated)."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from engines.cli import main
from engines.rummikub import Position, Rules, best_move, best_moves, check_move
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.sets import meld_tiles, validate_set
from engines.verify import read_jsonl

HERE = Path(__file__).resolve().parent
CORPUS = HERE.parent / "data" / "rummikub" / "positions.jsonl"
_spec = importlib.util.spec_from_file_location("rummikub_properties_positions",
                                               HERE / "test_rummikub_properties.py")
_props = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_props)


def replay(pos: Position, move) -> list[Counter]:
    """Apply the steps to ``pos``'s table; return the sets at the end (checks every step)."""
    table = {i: Counter(s) for i, s in enumerate(pos.table, start=1)}
    laid: list[Counter] = []
    hand: Counter = Counter()
    rack = Counter(pos.rack)
    for step in move.steps():
        tiles = Counter(step.tiles)
        if step.action in ("take", "pick up"):
            assert tiles <= table[step.set_index], step
            if step.action == "pick up":
                assert tiles == table[step.set_index], step
            table[step.set_index] -= tiles
            hand += tiles
            continue
        from_rack, from_hand = Counter(step.from_rack), Counter(step.from_hand)
        assert from_rack + from_hand == tiles, step
        assert from_rack <= rack and from_hand <= hand, step  # only what the player holds
        rack -= from_rack
        hand -= from_hand
        if step.action == "add":
            table[step.set_index] += tiles
        else:
            laid.append(tiles)
    assert not hand, "tiles left in the hand"
    assert rack == Counter(pos.rack) - Counter(move.played)
    return [s for s in table.values() if s] + laid


def _check(pos: Position, move) -> None:
    assert check_move(pos, move) == []
    after = replay(pos, move)
    expected = [Counter(meld_tiles(m)) for m in move.table]
    key = lambda c: sorted((str(t), n) for t, n in c.items())  # noqa: E731
    assert sorted(map(key, after)) == sorted(map(key, expected))
    for s in after:
        validate_set(list(s.elements()))
    # a set the move leaves alone gets no step
    old_sets = Counter(tuple(sorted(map(str, s))) for s in pos.table)
    new_sets = Counter(tuple(sorted(str(t) for t in meld_tiles(m))) for m in move.table)
    unchanged = sum((old_sets & new_sets).values())
    touched = {step.set_index for step in move.steps() if step.set_index}
    assert len(touched) <= len(pos.table) - unchanged
    assert move.sets_kept == unchanged
    old_tiles = sum(len(s) for s in pos.table)
    kept_tiles = sum(len(k) * n for k, n in (old_sets & new_sets).items())
    assert move.tiles_moved <= old_tiles - kept_tiles


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_props.positions())
def test_steps_replay_on_random_positions(case) -> None:
    table, rack, melded = case
    pos = Position.from_strings(table, rack, melded)
    _check(pos, best_move(table, rack, initial_meld_done=melded))


def test_steps_replay_on_the_corpus() -> None:
    positions = [Position.from_json(obj) for _, obj in read_jsonl(CORPUS)]
    for objective in ("tiles", "value"):
        for pos, move in zip(positions, best_moves(positions, objective)):
            _check(pos, move)


def fewest_steps(old: list[Counter], new: list[Counter]) -> int:
    """The fewest take / pick up / add / lay down actions over every matching of old to new
    sets (the lower bound of the steps module's proof, minimised by enumeration)."""
    best = len(old) + len(new)  # pick up everything, lay everything down

    def search(j: int, used: frozenset, cost: int) -> None:
        nonlocal best
        if cost >= best:
            return
        if j == len(new):
            best = min(best, cost + len(old) - len(used))
            return
        search(j + 1, used, cost + 1)  # new set j laid down
        for i, o in enumerate(old):
            if i not in used:
                search(j + 1, used | {i}, cost + (not o <= new[j]) + (not new[j] <= o))

    search(0, frozenset(), 0)
    return best


def test_steps_are_fewest() -> None:
    positions = [Position.from_json(obj) for _, obj in read_jsonl(CORPUS)]
    positions += [Position.from_json(obj) for obj in rummikub_positions(
        80, seed=5, table_tiles=(6, 20), rack_size=(4, 14), initial_meld_rate=0.0)]
    checked = 0
    for rules in (Rules(least_disturbance=False), Rules()):  # any optimal, least
        for pos in positions:
            if len(pos.table) > 6:
                continue
            move = best_move(pos.table, pos.rack, pos.initial_meld_done, rules=rules)
            new = [Counter(meld_tiles(m)) for m in move.table]
            if len(new) > 7:
                continue
            steps = move.steps()
            assert len(steps) == fewest_steps([Counter(s) for s in pos.table], new), pos
            _check(pos, move)
            checked += 1
    assert checked >= 40, checked


def test_steps_by_hand() -> None:
    # the plain DP's move (least disturbance would lay down J R9 R10 and keep a set)
    move = best_move([["R6", "R7", "R8", "R9"], ["K9", "O9", "B9"], ["B1", "B2", "B3"]],
                     "R10 J K5 R5 O5 B4 R9", rules=Rules(least_disturbance=False))
    assert [str(s) for s in move.steps()] == [
        "add R5 R10 (from the rack) to set 1 [R6 R7 R8 R9] -> R5 R6 R7 R8 R9 R10",
        "add B4 (from the rack) to set 3 [B1 B2 B3] -> B1 B2 B3 B4",
        "lay down K5 J(R5) O5 (from the rack)",
        "add R9 (from the rack) to set 2 [K9 O9 B9] -> K9 R9 O9 B9",
    ]
    # a run split to make room: tiles taken into the hand and laid down again
    move = best_move([["R3", "R4", "R5", "R6", "R7", "R8"]], "R5 R6")
    steps = [str(s) for s in move.steps()]
    assert move.tiles == 2 and len(steps) == 2
    assert steps[0].startswith("take ") and "into the hand" in steps[0]


def test_cli_explain(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [["R6", "R7", "R8"]], "rack": ["R5", "R9"],
                                "initial_meld_done": True}))
    assert main(["rummikub", "best", str(path), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "steps:\n  1. add R5 R9 (from the rack) to set 1 [R6 R7 R8] -> R5 R6 R7 R8 R9" in out
    assert "table sets kept: 0 of 1; table tiles moved: 0" in out
    assert main(["rummikub", "best", str(path), "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["steps"] == ["add R5 R9 (from the rack) to set 1 [R6 R7 R8] -> R5 R6 R7 R8 R9"]
    assert (data["sets_kept"], data["tiles_moved"]) == (0, 0)


def test_cli_tiles_moved_in_a_smaller_tile_set(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # numbers=10: the table's J stands for R7 (R11 is no tile), where R6 J R8 R9 R10 keeps it
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [["R8", "R9", "R10", "J"]], "rack": ["R6"],
                                "initial_meld_done": True}))
    assert main(["rummikub", "best", str(path), "--explain", "--json",
                 "--rule", "numbers=10"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["tiles"], data["tiles_moved"]) == (1, 0)
    assert data["annotated"] == [["R6", "J(R7)", "R8", "R9", "R10"]]


def test_cli_least_disturbance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [["R3", "R4", "R5"], ["R6", "R7", "R8"]],
                                "rack": ["R9", "K13"], "initial_meld_done": True}))
    assert main(["rummikub", "best", str(path), "--explain", "--json",
                 "--rule", "least_disturbance=on"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["tiles"], data["sets_kept"], data["tiles_moved"]) == (1, 1, 0)
    assert len(data["steps"]) == 1


@pytest.mark.parametrize("rules", [
    {"least_disturbance": True}, {"joker_retrieval": "official", "min_real_tiles": 2},
    {"meld_continue": True},
])
def test_steps_replay_for_reference_oracle_moves(rules) -> None:
    # Moves of house rules the exact search does not solve yet, from the reference oracle
    # (the integer programme), on every fifteenth corpus position.
    from rummikub_ip_reference import reference_move

    from engines.rummikub import Rules

    rules = Rules(**rules)
    positions = [Position.from_json(obj) for _, obj in read_jsonl(CORPUS)][::15]
    if rules.min_real_tiles == 2:  # tables valid under that rule only
        positions = [p for p in positions
                     if all(sum(not t.is_joker for t in s) >= 2 for s in p.table)]
    for pos in positions:
        move, _ = reference_move(pos.table, pos.rack, pos.initial_meld_done, "tiles", rules)
        assert check_move(pos, move, rules) == []
        if pos.initial_meld_done or not rules.meld_continue:
            _check(pos, move)
        else:  # meld then continue: the table may change too; replay the steps
            after = replay(pos, move)
            expected = [Counter(meld_tiles(m)) for m in move.table]
            key = lambda c: sorted((str(t), n) for t, n in c.items())  # noqa: E731
            assert sorted(map(key, after)) == sorted(map(key, expected))
