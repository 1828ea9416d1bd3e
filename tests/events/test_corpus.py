"""Every conformance case of the event rules (337, the 50 worked examples first) reproduced."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engines.cli import main
from engines.events.verify import case_mismatches

CASES_FILE = Path(__file__).resolve().parents[1] / "data" / "bridge-events" / "cases.jsonl"
CASES = [json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line]


def test_corpus_is_complete():
    assert len(CASES) == 337
    assert sum("worked_example" in case["tags"] for case in CASES) == 50


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_case(case):
    assert [str(m) for m in case_mismatches(case)] == []


def test_verify_command_reports_every_record(capsys):
    assert main(["events", "verify", str(CASES_FILE)]) == 0
    assert (
        capsys.readouterr().out.strip().splitlines()[-1]
        == "verified 337 records: 337 match, 0 differ"
    )


def test_verify_command_fails_on_a_difference(tmp_path, capsys):
    changed = copy.deepcopy(CASES[:3])
    changed[1]["expected"]["imps"][0] += 1
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(case) + "\n" for case in changed), encoding="utf-8")
    assert main(["events", "verify", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "MISMATCH EX02 imps[0]: expected 1, got 0",
        "verified 3 records: 2 match, 1 differ",
    ]


def test_rounded_values_are_compared_with_the_tolerance():
    case = copy.deepcopy(next(c for c in CASES if c["id"] == "EX24"))
    case["expected"]["ranking"]["all"][0]["score"] = 83.333334  # still within 1e-6 of 250/3
    assert case_mismatches(case) == []
    case["expected"]["ranking"]["all"][0]["score"] = 83.333336
    assert [m.field for m in case_mismatches(case)] == ["ranking.all[0].score"]
