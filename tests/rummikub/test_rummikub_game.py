"""Full rounds and the command line."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.cli import main
from engines.rummikub.game import RandomPlayer, play_round, score_round
from engines.rummikub.position import Position, best_move, check_move
from engines.rummikub.sets import meld_tiles
from engines.rummikub.tiles import FULL_SET, parse_tiles

DATA = "tests/data/rummikub/positions.jsonl"


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 1)])
def test_round_is_consistent(players: int, seed: int) -> None:
    kinds = ["solver", "random", "solver", "random"][:players]
    result = play_round(kinds, seed=seed)
    assert sum(result.scores) == 0
    on_table = [t for m in result.table for t in meld_tiles(m)]
    in_racks = [t for r in result.racks for t in r]
    assert len(on_table) + len(in_racks) <= len(FULL_SET)
    assert not (Counter(on_table) + Counter(in_racks)) - Counter(FULL_SET)
    if result.reason == "rack emptied":
        assert result.racks[result.winner] == []
    assert play_round(kinds, seed=seed).scores == result.scores  # seeded = reproducible


def test_scoring_rules() -> None:
    assert score_round([[], parse_tiles("R5 J"), parse_tiles("K2")], winner=0) == (0, [37, -35, -2])
    assert score_round([parse_tiles("R5"), parse_tiles("K2 B1")]) == (1, [-2, 2])


def test_random_player_moves_are_legal() -> None:
    import random

    rng = random.Random(0)
    pos = Position.from_strings([["R3", "R4", "R5"], ["K9", "O9", "B9"]], "R6 R2 R9 J K1 K2 K3")
    for _ in range(10):
        move = RandomPlayer().choose(pos, rng)
        assert check_move(pos, move) == []
        assert move.tiles >= 1
    assert best_move(pos.table, pos.rack).tiles == 7


def test_cli_best_and_json(tmp_path, capsys) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"table": [["R6", "R7", "R8"]], "rack": ["R5", "R9"],
                                "initial_meld_done": True}))
    assert main(["rummikub", "best", str(path)]) == 0
    assert "R5 R6 R7 R8 R9" in capsys.readouterr().out
    assert main(["rummikub", "best", str(path), "--json", "--objective", "value"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["tiles"] == 2 and out["value"] == 14 and out["sets"] == [["R5", "R6", "R7", "R8",
                                                                         "R9"]]


def test_cli_errors(tmp_path, capsys) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"table": [["R6", "R7", "B8"]], "rack": ["R5"]}))
    assert main(["rummikub", "best", str(path)]) == 2
    assert "table set 1 [R6 R7 B8]" in capsys.readouterr().err
    assert main(["rummikub", "best", str(tmp_path / "missing.json")]) == 2
    assert main(["rummikub", "play", "--players", "5"]) == 2


def test_cli_verify(tmp_path, capsys) -> None:
    with open(DATA, encoding="utf-8") as handle:
        lines = handle.read().splitlines()[:8]
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n")
    assert main(["rummikub", "verify", str(good)]) == 0
    assert "verified 8 records: 8 match, 0 differ" in capsys.readouterr().out
    obj = json.loads(lines[0])
    obj["optimal"]["max_tiles"] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(obj) + "\n" + lines[1] + "\n")
    assert main(["rummikub", "verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH {obj['id']} max_tiles" in out
    assert "verified 2 records: 1 match, 1 differ" in out


def test_cli_play_and_arrange(capsys) -> None:
    assert main(["rummikub", "play", "--players", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "round over" in out and "P1 (solver)" in out
    scores = [int(line.split(":")[1].split()[0]) for line in out.splitlines()
              if line.startswith("P") and "rack left" in line]
    assert len(scores) == 2 and sum(scores) == 0
    assert main(["rummikub", "arrange", "R5", "R6", "J"]) == 0
    assert "R5 R6 J(R7)" in capsys.readouterr().out


def test_demo(capsys) -> None:
    assert main(["demo", "rummikub"]) == 0
    out = capsys.readouterr().out
    assert "best move for tiles" in out and "DIFFERS" not in out


def test_blocked_round_ends_with_lowest_rack() -> None:
    from engines.rummikub.game import Player, rack_total
    from engines.rummikub.position import Move

    class Passer(Player):
        name = "passer"

        def choose(self, pos, rng):
            return Move([], [], 0, 0)

    result = play_round([Passer(), Passer(), Passer()], seed=9)
    assert result.reason == "pool empty and nobody can play"
    assert sum(len(r) for r in result.racks) == len(FULL_SET)  # every tile drawn
    totals = [rack_total(r) for r in result.racks]
    assert totals[result.winner] == min(totals)
    assert sum(result.scores) == 0
    assert result.scores == [
        -(t - totals[result.winner]) if p != result.winner else result.scores[p]
        for p, t in enumerate(totals)
    ]


def test_cli_best_reads_json_lines(capsys) -> None:
    sample = "src/engines/data/rummikub/sample_positions.jsonl"
    assert main(["rummikub", "best", sample, "--line", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["tiles"], out["value"]) == (3, 20)  # K10 B10 J: the joker counts 10 for the meld
    assert main(["rummikub", "best", sample, "--line", "9"]) == 2
    assert "out of range" in capsys.readouterr().err


def test_planner_plays_legal_moves_and_empties_the_rack_when_it_can() -> None:
    import random

    from engines.rummikub import Position, check_move
    from engines.rummikub.game import PlannerPlayer

    planner = PlannerPlayer()
    rng = random.Random(0)
    pos = Position.from_strings([["R6", "R7", "R8"]], "R5 R9 K2", True)
    move = planner.choose(pos, rng)
    assert check_move(pos, move) == [] and move.tiles == 2
    pos = Position.from_strings([["R6", "R7", "R8"]], "R5 R9", True)
    assert planner.choose(pos, rng).tiles == 2  # the rack empties: no holding back


def test_planner_holds_back_a_joker_it_can_use_next_turn() -> None:
    """Greedy plays the joker now; the planner keeps it, since over two turns it plays the
    same tiles (R5 now, the joker next turn) and the joker stays flexible in hand."""
    import random

    from engines.rummikub import Position, best_move, check_move
    from engines.rummikub.game import PlannerPlayer

    table = [["R6", "R7", "R8"]]
    pos = Position.from_strings(table, "J R5 K2", True)
    greedy = best_move(table, "J R5 K2")
    move = PlannerPlayer().choose(pos, random.Random(0))
    assert check_move(pos, move) == []
    assert greedy.tiles == 2 and [str(t) for t in move.played] == ["R5"]


def test_tournament_rotates_seats_and_counts_every_round() -> None:
    from engines.rummikub.game import play_round
    from engines.rummikub.tournament import play_tournament, wilson_interval

    result = play_tournament(["solver", "random"], deals=2, seed=5)
    assert result.rounds == 4 and sum(result.wins.values()) == 4
    assert sum(result.scores.values()) == 0  # zero-sum rounds
    expected = {"solver": 0, "random": 0}
    for deal in range(2):
        for seating in (["solver", "random"], ["random", "solver"]):
            played = play_round(seating, seed=5 * 1_000_003 + deal)
            expected[seating[played.winner]] += 1
    assert result.wins == {k: v for k, v in expected.items() if v}
    lo, hi = wilson_interval(result.wins.get("solver", 0), 4)
    assert 0 <= lo <= result.wins.get("solver", 0) / 4 <= hi <= 1


def test_cli_tournament(capsys) -> None:
    assert main(["rummikub", "play", "--players", "planner,random", "-n", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "4 rounds (2 deals x 2 seatings" in out and "95% CI" in out and "planner" in out
