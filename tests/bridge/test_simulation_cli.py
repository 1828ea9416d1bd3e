"""``qipai bridge deal|lead|contracts`` end to end, with the batch store (resume, report)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.batch.store import ResultStore
from engines.cli import main

# A deal fixed but for three cards (N, E, S one each): 6 layouts, solved in seconds.
FIXED = [
    "--north", "AK86.T652.T7.KQ", "--east", "Q7.3.AQ2.965432",
    "--south", "9543.QJ984.83.7",
]  # fmt: skip
WEST = "JT.A7.KJ9654.AT8"


def test_deal_prints_pbn_and_the_acceptance_rate(capsys: pytest.CaptureFixture) -> None:
    assert main(["bridge", "deal", "-n", "3", "--south", "AKQ2.KQ3.A54.K32",
                 "--constraints", "opens_1nt(N)", "--seed", "5", "--json"]) == 0  # fmt: skip
    captured = capsys.readouterr()
    deals = [json.loads(line)["pbn"] for line in captured.out.splitlines()]
    assert len(deals) == 3 and all(" AKQ2.KQ3.A54.K32 " in d for d in deals)
    assert "acceptance" in captured.err and "seed 5" in captured.err
    assert main(["bridge", "deal", "-n", "1", "--constraints", "hcp(N) >", "--seed", "1"]) == 2
    assert "invalid syntax" in capsys.readouterr().err


def test_lead_stores_resumes_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    db = tmp_path / "lead.sqlite"
    args = ["bridge", "lead", WEST, "--contract", "3NT", "--by", "S", *FIXED, "--seed", "2",
            "--db", str(db), "-j", "2", "--no-progress", "--vul", "NS"]  # fmt: skip
    assert main([*args, "-n", "30"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("3NT by S, W leads JT.A7.KJ9654.AT8: 30 deals")
    assert "SJ/T" in text  # equal cards grouped
    with ResultStore(db) as store:
        assert store.count("bridge-lead") == 6  # six layouts, each solved once
    assert main([*args, "-n", "60", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deals"] == 60 and result["leads"][0]["mean_tricks"] >= 0
    with ResultStore(db) as store:
        assert store.count("bridge-lead") == 6
    assert main(["report", str(db), "-o", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "bridge-lead-sj.png").is_file()


def test_contracts_text_and_json(capsys: pytest.CaptureFixture) -> None:
    args = ["bridge", "contracts", "--north", "AK862.T652.T7.KQ", "--south",
            "9543.QJ984.83.J7", "--east", "Q7.K3.AQ2.96543", "--west", "JT.A7.KJ965.AT8",
            "-n", "20", "--strains", "H,NT", "--vul", "NS", "--no-progress"]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "vulnerability NS" in text and " H by N" in text and "IMPs vs best" in text
    assert main([*args, "--json", "--top", "3", "--declarers", "S"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert len(result["contracts"]) == 3 and set(result["tricks"]) == {"S H", "S NT"}
    best = result["contracts"][0]
    assert best["imps_vs_best"] == 0 and 0 <= best["make_rate"] <= 1
