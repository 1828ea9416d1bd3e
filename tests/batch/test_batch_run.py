"""``qipai batch`` end to end: CLI, export, report, kill -9 and resume, Dask."""

from __future__ import annotations

import base64
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines.batch.report import summarize, write_report
from engines.batch.runner import run_batch, run_batch_distributed
from engines.batch.store import ResultStore
from engines.batch.tasks import Task, register_task
from engines.cli import main

HERE = Path(__file__).parent
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _prepare(obj):
    return {"n": int(obj["n"])}


def _solve(payloads, threads):
    return [{"square": p["n"] ** 2, "even": p["n"] % 2 == 0} for p in payloads]


register_task(
    Task("test-square", "test", "n squared", _prepare, _solve, chunk_size=5, result_kind="answers")
)


@pytest.fixture
def numbers(tmp_path):
    path = tmp_path / "n.jsonl"
    lines = [json.dumps({"id": f"n{i}", "n": i}) for i in range(40)]
    lines.insert(10, '{"id": "broken", "n": "ten"}')
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _rows(db, task):
    with ResultStore(db) as store:
        return {r["position_id"]: r["result"] for r in store.rows(task)}


def test_batch_cli_export_and_report(tmp_path, numbers, capsys):
    db = tmp_path / "r.sqlite"
    argv = ["batch", numbers, "--task", "test-square", "--db", str(db), "-j", "1"]
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "n.jsonl:11: invalid literal for int() with base 10: 'ten'" in err
    assert "40 computed" in err and "1 bad input lines" in err
    assert main(argv) == 0
    assert "0 computed, 40 already stored" in capsys.readouterr().err
    assert len(_rows(db, "test-square")) == 40

    out = tmp_path / "r.csv"
    assert main(["results", "export", str(db), "-f", "csv", "-o", str(out)]) == 0
    assert out.read_text().count("\n") == 41
    assert main(["results", "export", str(db), "--task", "test-square"]) == 0
    exported = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [e["id"] for e in exported] == [f"n{i}" for i in range(40)]
    assert exported[7]["result"] == {"square": 49, "even": False}

    report_dir = tmp_path / "rep"
    assert main(["report", str(db), "-o", str(report_dir)]) == 0
    text = capsys.readouterr().out
    assert "positions          40" in text and "bad input lines    1" in text
    assert "p50" in text and "p99" in text
    page = (report_dir / "report.html").read_text()
    pngs = sorted(report_dir.glob("*.png"))
    assert [p.name for p in pngs] == [
        "test-square-even.png",  # booleans: two bars
        "test-square-square.png",  # integers over a wide range: a log histogram
        "test-square-time.png",
    ]
    for png in pngs:
        data = png.read_bytes()
        assert data.startswith(PNG_MAGIC)
        assert base64.b64encode(data).decode() in page  # embedded, self-contained
    assert "<table>" in page and "n.jsonl:11" in page


def test_strict_and_missing_inputs_exit_2(tmp_path, numbers, capsys):
    db = str(tmp_path / "r.sqlite")
    assert main(["batch", numbers, "--task", "test-square", "--db", db, "--strict", "-j", "1"]) == 2
    assert "n.jsonl:11" in capsys.readouterr().err
    assert main(["batch", str(tmp_path / "nope.jsonl"), "--task", "test-square", "--db", db]) == 2
    assert "no such input file" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.sqlite")]) == 2
    with pytest.raises(SystemExit):
        main(["batch", numbers, "-t", "no-such-task"])


def test_report_statistics(tmp_path, numbers):
    with ResultStore(tmp_path / "r.sqlite") as store:
        run_batch([numbers], "test-square", store, jobs=1, progress=False, on_bad_input=None)
        (stats,) = summarize(store)
        assert stats.positions == 40 and stats.errors == 0 and stats.bad_inputs == 1
        assert 0 < stats.p50 <= stats.p90 <= stats.p99
        assert stats.throughput > 0
        page = write_report(store, tmp_path / "rep", plots=False)
        assert page.exists() and not list((tmp_path / "rep").glob("*.png"))


def test_dask_run_gives_the_same_rows_as_the_local_run(tmp_path, numbers):
    distributed = pytest.importorskip("distributed")
    with ResultStore(tmp_path / "local.sqlite") as local:
        run_batch([numbers], "test-square", local, jobs=1, progress=False, on_bad_input=None)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        ResultStore(tmp_path / "dask.sqlite") as remote,
    ):
        summary = run_batch_distributed(
            client, [numbers], "test-square", remote, chunk_size=3, progress=False,
            on_bad_input=None,
        )  # fmt: skip
        assert summary.computed == 40 and len(summary.bad_inputs) == 1
        assert remote.runs()[0]["mode"] == "dask-2"
    assert _rows(tmp_path / "dask.sqlite", "test-square") == _rows(
        tmp_path / "local.sqlite", "test-square"
    )


SLOW_TASK_SCRIPT = """
import sys, time
from engines.batch.tasks import Task, register_task
from engines.cli import main

def solve(payloads, threads):
    time.sleep(0.05 * len(payloads))
    return [{"cube": p["n"] ** 3} for p in payloads]

register_task(Task("test-slow-cube", "test", "n cubed, slowly",
                   lambda o: {"n": int(o["n"])}, solve, chunk_size=2))
sys.exit(main(sys.argv[1:]))
"""


def _count(db):
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def test_kill_9_then_rerun_finishes_with_every_row_once(tmp_path):
    inputs = tmp_path / "n.jsonl"
    inputs.write_text("".join(json.dumps({"id": f"c{i}", "n": i}) + "\n" for i in range(60)))
    script = tmp_path / "slow_cli.py"
    script.write_text(SLOW_TASK_SCRIPT)
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, str(script), "batch", str(inputs), "-t", "test-slow-cube"]
    cmd += ["--db", str(db), "-j", "1"]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while _count(db) < 10 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    landed = _count(db)
    assert 10 <= landed < 60, landed
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"{60 - landed} computed, {landed} already stored" in done.stderr
    rows = _rows(db, "test-slow-cube")
    assert rows == {f"c{i}": {"cube": i**3} for i in range(60)}
    with ResultStore(db) as store:
        statuses = [r["status"] for r in store.runs()]
    assert statuses == ["interrupted", "finished"]  # the rerun marked the killed run


@pytest.mark.slow
def test_cli_dask_local_cluster_matches_the_local_run(tmp_path, capsys):
    pytest.importorskip("distributed")
    cases = tmp_path / "c.jsonl"
    assert main(["gen", "shengji", "-n", "60", "--seed", "5", "-o", str(cases)]) == 0
    local, dask = tmp_path / "local.sqlite", tmp_path / "dask.sqlite"
    base = ["batch", str(cases), "--task", "shengji-legal", "--no-progress"]
    assert main([*base, "--db", str(local), "-j", "1"]) == 0
    assert main([*base, "--db", str(dask), "--dask-local", "2"]) == 0
    assert "60 computed" in capsys.readouterr().err
    assert _rows(dask, "shengji-legal") == _rows(local, "shengji-legal")
