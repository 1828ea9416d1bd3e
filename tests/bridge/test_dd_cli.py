"""``qipai bridge table|solve|verify`` and the bridge demo, end to end through engines.cli.main."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engines.bridge.demo import demo, sample_deals
from engines.bridge.verify import deal_record_mismatches, position_record_mismatches
from engines.cli import main

DATA = Path(__file__).parent.parent / "data" / "bridge"
DEALS = [json.loads(line) for line in (DATA / "deals.jsonl").read_text().splitlines()]
POSITIONS = [json.loads(line) for line in (DATA / "positions.jsonl").read_text().splitlines()]
FAST = [DEALS[1], DEALS[151]]  # solve in well under a second each


def test_table_json_lines_from_plain_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "deals.txt"
    path.write_text("# two deals\n" + "\n".join(r["pbn"] for r in FAST) + "\n")
    assert main(["bridge", "table", str(path), "--json", "-j", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["dd"] for line in lines] == [r["dd"] for r in FAST]


def test_table_text_from_pbn_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "boards.pbn"
    path.write_text(
        "".join(f'[Board "{i}"]\n[Deal "{r["pbn"]}"]\n\n' for i, r in enumerate(FAST, 1))
    )
    assert main(["bridge", "table", str(path), "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "board 1: " + FAST[0]["pbn"] in out
    assert "      C  D  H  S NT" in out
    row = " ".join(str(FAST[0]["dd"][s]["N"]) for s in ("C", "D", "H", "S", "NT"))
    assert any(line.split()[1:] == row.split() for line in out.splitlines() if line[:1] == "N")


def test_table_reports_bad_deals(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "deals.txt"
    path.write_text("N:AKQ.. x\n" + FAST[0]["pbn"] + "\n")
    assert main(["bridge", "table", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert f"{path}: line 1: board at line 1: deal: expected four hands" in captured.err
    assert len(captured.out.splitlines()) == 1


def test_table_missing_file_is_input_error(capsys: pytest.CaptureFixture) -> None:
    assert main(["bridge", "table", "/nonexistent/deals.pbn"]) == 2
    assert "qipai: error:" in capsys.readouterr().err


def test_solve_command(capsys: pytest.CaptureFixture) -> None:
    assert main(["bridge", "solve", "N:AK... Q2... JT... 43...", "-t", "NT", "-l", "N"]) == 0
    assert capsys.readouterr().out.split() == ["SA", "2", "*", "SK", "2", "*"]
    record = next(r for r in POSITIONS if len(r["trick"]) == 2)
    args = ["bridge", "solve", record["pbn"], "-t", record["trump"], "-l", record["leader"]]
    assert main([*args, "--trick", ",".join(record["trick"]), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == record["solutions"]
    assert main(["bridge", "solve", "N:AK... Q2... JT... 43...", "-t", "X", "-l", "N"]) == 2


def test_verify_reports_match_and_mismatch(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    good = [*FAST, *POSITIONS[:5]]
    path = tmp_path / "ok.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in good))
    assert main(["bridge", "verify", str(path)]) == 0
    assert (
        capsys.readouterr().out.strip()
        == f"verified {len(good)} records: {len(good)} match, 0 differ"
    )

    broken_deal = json.loads(json.dumps(FAST[0]))
    broken_deal["dd"]["NT"]["E"] += 1
    broken_pos = json.loads(json.dumps(POSITIONS[0]))
    card = next(iter(broken_pos["solutions"]))
    broken_pos["solutions"][card] += 1
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(broken_deal) + "\n" + json.dumps(broken_pos) + "\n")
    assert main(["bridge", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    expected = FAST[0]["dd"]["NT"]["E"]
    assert f"MISMATCH {FAST[0]['id']} dd.NT.E: expected {expected + 1}, got {expected}" in out
    assert f"MISMATCH {POSITIONS[0]['id']} solutions.{card}:" in out
    assert out.strip().endswith("verified 2 records: 0 match, 2 differ")


def test_verify_functions_directly() -> None:
    assert deal_record_mismatches(FAST[1]) == []
    assert position_record_mismatches(POSITIONS[3]) == []


def test_demo_solves_sample() -> None:
    assert len(sample_deals()) >= 3
    out = io.StringIO()
    demo(out)
    text = out.getvalue()
    assert sample_deals()[0][1].to_pbn() in text
    assert "      C  D  H  S NT" in text
