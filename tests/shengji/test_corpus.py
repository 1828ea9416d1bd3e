"""Every conformance case of the corpus, through the engine and through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.cli import main
from engines.shengji.verify import compare, evaluate
from engines.verify import read_jsonl

CASES = Path(__file__).resolve().parents[1] / "data" / "shengji" / "cases.jsonl"
RECORDS = [record for _, record in read_jsonl(CASES)]


def test_corpus_is_complete():
    kinds = {r["kind"] for r in RECORDS}
    assert len(RECORDS) == 494
    assert kinds == {"is_tractor", "follow_legal", "legal_follows_count", "trick_winner",
                     "throw_valid", "score", "bid"}


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_case(record):
    got = evaluate(record)
    assert compare(record, got) == [], (record["id"], got)


def test_verify_command(capsys):
    assert main(["shengji", "verify", str(CASES)]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "verified 494 records: 494 match, 0 differ"


def test_verify_reports_a_difference(tmp_path, capsys):
    records = RECORDS[:3]
    bad = dict(records[1])
    bad["expected"] = not bad["expected"] if isinstance(bad["expected"], bool) else 999
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [records[0], bad, records[2]]) + "\n")
    assert main(["shengji", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH {bad['id']}" in out
    assert "verified 3 records: 2 match, 1 differ" in out


def test_check_command(tmp_path, capsys):
    record = next(r for r in RECORDS if r["kind"] == "throw_valid" and not r["expected"]["valid"])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(record))
    assert main(["shengji", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "agrees with expected" in out
    answer = json.loads(out.splitlines()[0])["answer"]
    assert sorted(answer["forced"]) == sorted(record["expected"]["forced"])


def test_check_without_expected(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"kind": "trick_winner", "level": "10", "trump": "H",
                                "plays": [["S5", "S4", "S4"], ["H9", "H7", "H7"],
                                          ["H8", "H8", "H4"], ["C2", "C3", "C4"]]}))
    assert main(["shengji", "check", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == 2


def test_check_bad_card_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"kind": "is_tractor", "level": "10", "trump": "H",
                                "cards": ["HK", "HK", "XQ"]}))
    assert main(["shengji", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "XQ" in err and "pos.json" in err

