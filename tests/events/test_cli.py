"""``qipai events …`` commands on the shipped example files, text and ``--json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "engines" / "data" / "events" / "examples"


def run(capsys, *argv):
    assert main(["events", *argv]) == 0
    return capsys.readouterr().out


def test_swiss_rank_text_and_result_file(capsys):
    text = run(capsys, "rank", str(EXAMPLES / "swiss.json"))
    assert text.splitlines()[1].split() == ["1", "1", "p1a", "/", "p1b", "7", "5", "6", "yes", "3"]
    data = json.loads(run(capsys, "rank", "--json", str(EXAMPLES / "swiss.json")))
    assert data["format"] == "qipai-bridge-result/1" and data["completed_pairs"] == 4
    assert [row["pair"] for row in data["ranking"]] == [1, 5, 2, 3, 4]
    assert data["ranking"][4] == {
        "pair": 4,
        "players": ["p4a", "p4b"],
        "rank": None,
        "score": 0,
        "boards": 4,
        "scheduled": 6,
        "completed": False,
        "masterpoints": 0,
    }
    board1 = data["boards"][0]
    assert board1["board"] == 1 and board1["results"][0]["ns_value"] == 3


def test_pairs_rank_two_winners(capsys):
    data = json.loads(run(capsys, "rank", "--json", str(EXAMPLES / "pairs.json")))
    assert [(r["pair"], r["score"]) for r in data["ranking"]["EW"]] == [(6, 19), (4, -8), (5, -11)]


def test_next_pairing_and_standings(capsys):
    data = json.loads(run(capsys, "pair", "--json", str(EXAMPLES / "swiss.json")))
    assert data == {
        "round": 3,
        "tables": [[1, 5], [4, 2]],
        "bye": 3,
        "rematches": 0,
        "order": [1, 5, 4, 2, 3],
    }
    text = run(capsys, "pair", "--withdraw", "3", str(EXAMPLES / "swiss.json"))
    assert "bye" not in text and "2 tables" in text
    standings = json.loads(run(capsys, "standings", "--json", str(EXAMPLES / "swiss.json")))
    assert [s["pair"] for s in standings["standings"]] == [1, 5, 4, 2, 3]


def test_rate_week(capsys):
    data = json.loads(run(capsys, "rate", "--json", str(EXAMPLES / "week.json")))
    assert data["format"] == "qipai-bridge-players/1"
    assert data["players"]["t3E"]["points"] == -11 and data["players"]["t3E"]["board_rates"] == [0]
    assert data["players"]["t1N"]["rate"] == 54.583333
    assert "t5E  76.25" in run(capsys, "rate", str(EXAMPLES / "week.json"))


def test_match_ladder_tiedian(capsys):
    assert json.loads(run(capsys, "match", "--json", str(EXAMPLES / "match.json")))["vp_a"] == 14.39
    ladder = json.loads(run(capsys, "ladder", "--json", str(EXAMPLES / "ladder.json")))
    assert ladder["order"] == ["A", "E", "B", "C", "D", "G", "F"]
    tiedian = json.loads(run(capsys, "tiedian", "--json", str(EXAMPLES / "tiedian.json")))
    assert tiedian == {"results": [4, 0], "total": -16}


def test_errors_exit_2(tmp_path, capsys):
    bad = tmp_path / "event.json"
    bad.write_text(
        json.dumps(
            {
                "format": "qipai-bridge-event/1",
                "type": "swiss",
                "method": "mp",
                "pairs": [],
                "results": [],
                "rounds": [],
            }
        ),
        encoding="utf-8",
    )
    assert main(["events", "pair", str(EXAMPLES / "pairs.json")]) == 2
    assert "pairing needs a swiss event" in capsys.readouterr().err
    assert main(["events", "pair", "--withdraw", "x", str(EXAMPLES / "swiss.json")]) == 2
    assert main(["events", "rank", str(tmp_path / "none.json")]) == 2
    assert "cannot open" in capsys.readouterr().err


def test_demo_joins_the_dd_solver_and_the_swiss_engine(capsys):
    from engines.bridge.compare import imps

    data = json.loads(run(capsys, "demo", "--json", "--pairs", "5", "--rounds", "2",
                          "--boards", "1", "--seed", "7"))  # fmt: skip
    assert [len(r["tables"]) for r in data["rounds"]] == [2, 2]
    assert data["rounds"][0]["bye"] == 5 and data["rounds"][1]["bye"] != 5
    par = {b["board"]: b["par"] for b in data["boards"]}
    for result in data["results"]:
        assert result["ns_imps_vs_par"] == imps(result["ns_score"] - par[result["board"]])
    assert sorted(row["pair"] for row in data["ranking"]) == [1, 2, 3, 4, 5]
    assert sum(row["imps_vs_par"] for row in data["ranking"]) == 0


def test_rate_over_several_week_files_matches_ex11(tmp_path, capsys):
    case = next(
        json.loads(line)
        for line in (Path(__file__).parents[1] / "data/bridge-events/cases.jsonl").open()
        if '"EX11"' in line
    )
    paths = []
    for index, week in enumerate(case["weeks"]):
        path = tmp_path / f"w{index}.json"
        data = {"format": "qipai-bridge-week/1", "boards": week}
        if index == 0:
            data["players"] = case["players"]
        path.write_text(json.dumps(data), encoding="utf-8")
        paths.append(str(path))
    got = json.loads(run(capsys, "rate", "--json", *paths))["players"]
    for name, expected in case["expected"]["players"].items():
        assert got[name]["rate"] == pytest.approx(expected["rate"], abs=1e-6)
        assert got[name]["total_boards"] == expected["total_boards"]


def test_masterpoints_and_grade_commands(capsys):
    assert run(capsys, "masterpoints", "12").strip() == "1:3 2:2 3:2 4:2 5:1 6:1"
    assert json.loads(run(capsys, "grade", "--json", "1500")) == {"grade": 12, "name": "专业牌手"}
    assert main(["events", "grade", "-3"]) == 2
