"""The ``qipai shuangkou`` commands, ``qipai demo shuangkou`` and the batch task."""

from __future__ import annotations

import io
import json
from pathlib import Path

from engines.cli import main

CASES = Path(__file__).parent.parent / "data" / "shuangkou" / "cases.jsonl"


def run(argv, capsys):
    code = main(argv)
    return code, capsys.readouterr().out


def test_verify_corpus(capsys):
    code, out = run(["shuangkou", "verify", str(CASES)], capsys)
    assert code == 0 and out.strip().endswith("verified 418 records: 418 match, 0 differ")


def test_verify_reports_a_difference(tmp_path, capsys):
    record = json.loads(CASES.read_text().splitlines()[0])
    record["expected"] = None
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(record) + "\n")
    code, out = run(["shuangkou", "verify", str(path)], capsys)
    assert code == 1 and "MISMATCH cl001 expected" in out and "0 match, 1 differ" in out


def test_check_and_follows(tmp_path, capsys):
    path = tmp_path / "q.json"
    path.write_text(json.dumps({"kind": "legal_responses_count",
                                "hand": ["S3", "H3", "D3", "S4", "S5", "S6", "S7", "HA"],
                                "previous": ["C10"], "expected": 3}))
    code, out = run(["shuangkou", "check", str(path)], capsys)
    assert code == 0 and '"answer": 3' in out and "agrees" in out
    code, out = run(["shuangkou", "follows", "--hand", "S3 H3 D3 S4 S5 S6 S7 HA",
                     "--previous", "C10"], capsys)
    assert code == 0 and out.splitlines()[0] == "2 beating plays (3 legal responses with pass)"
    assert "S3 S4 S5 S6 S7" in out


def test_play_and_solve(capsys):
    code, out = run(["shuangkou", "play", "--seed", "3", "-n", "2", "--match", "--json"], capsys)
    rounds = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rounds) == 2 and rounds[0]["result"]["order"]
    code, out = run(["shuangkou", "solve", "--hands", "S3 S4|H9|SQ SK|S8 S8", "--leader", "0",
                     "--json"], capsys)
    answer = json.loads(out)
    assert code == 0 and answer["points"] == -1 and answer["finishing_order"][0] == 1


def test_bad_input_exit_status(capsys):
    assert main(["shuangkou", "follows", "--hand", "S3 S3 S3"]) == 2
    assert "appears 3 times" in capsys.readouterr().err


def test_demo(capsys):
    from engines.demo import run_demo

    out = io.StringIO()
    assert run_demo(["shuangkou"], out) == 0
    assert "king_bomb" in out.getvalue() and "end-game" in out.getvalue()


def test_batch_task_matches_the_corpus(tmp_path):
    from engines.batch.tasks import get_task

    task = get_task("shuangkou-legal")
    records = [json.loads(line) for line in CASES.read_text().splitlines()]
    records = [r for r in records if r["kind"] in ("classify", "beats",
                                                   "legal_responses_count", "trick_next")]
    payloads = [task.prepare(r) for r in records]
    results = [json.loads(res) for res, _ in task.solve(payloads, 2)]  # canonical texts
    for record, result in zip(records, results):
        expected = record["expected"]
        if record["kind"] == "classify":
            assert result == ({"valid": False} if expected is None else {"valid": True, **expected})
        elif record["kind"] == "beats":
            assert result == {"beats": expected}
        elif record["kind"] == "legal_responses_count":
            assert result == {"count": expected}
        else:
            assert result == expected
