"""``qipai bench``: both solvers timed on the same positions; a missing reference is skipped."""

from __future__ import annotations

import importlib.util
import json

import pytest

from engines.batch import bench
from engines.cli import main


def _has(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


@pytest.mark.skipif(not _has("rummikub_solver"), reason="rummikub-solver not installed")
def test_bench_rummikub_times_both_and_reports_the_ratio(capsys):
    assert main(["bench", "rummikub", "-n", "6", "-r", "1", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "qipai bench rummikub: 6 positions, 1 runs each" in out
    assert "qipai best_moves" in out and "rummikub-solver" in out
    assert "ratio ours/reference per position: median" in out and ", p90 " in out
    assert "answers agree on" in out and "HiGHS" not in out.split("\n", 1)[0]


def test_bench_skips_a_missing_reference_with_a_message(monkeypatch, tmp_path):
    real = importlib.util.find_spec

    def fake(name, *args):
        return None if name == "rummikub_solver" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", fake)
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"id": "a", "table": [], "rack": ["K1", "K2", "K3"]}) + "\n")
    result = bench.run("rummikub", path=str(path), repeat=1)
    text = result.text()
    assert result.reference is None and len(result.ours) == 1
    assert "reference rummikub-solver skipped: package 'rummikub_solver' is not installed" in text
    assert "ratio" not in text


def test_bench_rejects_bad_arguments(capsys):
    assert main(["bench", "rummikub", "-r", "0"]) == 2
    assert "--repeat must be >= 1" in capsys.readouterr().err


@pytest.mark.skipif(not _has("endplay"), reason="endplay not installed")
def test_bench_bridge_on_a_file_agrees_with_dds(tmp_path, capsys):
    from pathlib import Path

    corpus = Path(__file__).resolve().parents[1] / "data" / "bridge" / "deals.jsonl"
    # Two hand-picked deals our solver finishes in well under a second.
    wanted = ("db-special-00-flat4333", "db-special-01-one-suit-each")
    lines = [x for x in corpus.read_text().splitlines() if json.loads(x)["id"] in wanted]
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert main(["bench", "bridge", str(path), "-r", "1"]) == 0
    out = capsys.readouterr().out
    assert "qipai bench bridge: 2 positions, 1 runs each" in out
    assert "endplay/DDS calc_dd_table (1 thread)" in out and "ratio ours/reference" in out
    assert "answers agree on 2/2 positions" in out


@pytest.mark.skipif(not _has("endplay"), reason="endplay not installed")
def test_bench_bridge_lead_scores_every_card_like_dds():
    pbn = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"
    deals = [{"id": "x", "pbn": pbn}]
    result = bench.run("bridge-lead", positions=deals, repeat=2)
    assert result.agree == 1 and result.positions == 1
    ratios = result.ratios()
    assert set(ratios) == {"median", "total", "p90", "max"} and ratios["median"] > 0
