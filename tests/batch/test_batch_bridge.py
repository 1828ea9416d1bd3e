"""Bridge batch tasks: DD tables and par equal DDS's; kill -9 and resume; Dask equals local."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engines.batch.generate import bridge_deals
from engines.batch.runner import run_batch, run_batch_distributed
from engines.batch.store import ResultStore
from engines.batch.tasks import TASKS, get_task
from engines.cli import main

pytestmark = pytest.mark.skipif(
    "bridge-table" not in TASKS, reason="bridge DD solver not in this build"
)

ROOT = Path(__file__).resolve().parents[2]
CORPUS_DIRS = (ROOT / "tests" / "data" / "bridge", Path("/work/shared/corpus/bridge"))


def _deals_corpus() -> list[dict]:
    for base in CORPUS_DIRS:
        if (base / "deals.jsonl").is_file():
            text = (base / "deals.jsonl").read_text()
            return [json.loads(x) for x in text.splitlines() if x.strip()]
    pytest.skip("no bridge deals corpus in this checkout")


def _rows(store: ResultStore, task: str) -> dict[str, dict]:
    return {r["position_id"]: r for r in store.rows(task)}


def _endplay_table(pbn: str) -> dict[str, dict[str, int]]:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    rows = calc_dd_table(Deal(pbn)).to_list()  # [strain S H D C NT][player N E S W]
    order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
    return {s: {p: rows[order[s]][i] for i, p in enumerate("NESW")} for s in order}


def test_bridge_table_and_par_reproduce_the_dds_corpus(tmp_path):
    records = [r for r in _deals_corpus() if not r["id"].startswith("db-special")][:12]
    records += [r for r in _deals_corpus() if r["id"].startswith("db-special")]
    lines = []
    for rec in records:
        for vul in ("None", "NS", "EW", "Both"):
            lines.append({"id": f"{rec['id']}/{vul}", "pbn": rec["pbn"], "dealer": rec["dealer"],
                          "vulnerability": vul})  # fmt: skip
    path = tmp_path / "deals.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    with ResultStore(tmp_path / "r.sqlite") as store:
        tables = run_batch([str(path)], "bridge-table", store, jobs=2, progress=False)
        pars = run_batch([str(path)], "bridge-par", store, jobs=2, progress=False)
        table_rows = _rows(store, "bridge-table")
        par_rows = _rows(store, "bridge-par")
    # One table per deal (dealer and vulnerability do not change it), one par per board.
    assert (tables.computed, tables.duplicates) == (len(records), 3 * len(records))
    assert pars.computed == 4 * len(records) and pars.solver_errors == 0
    for rec in records:
        assert table_rows[f"{rec['id']}/None"]["result"] == rec["dd"], rec["id"]
        for vul in ("None", "NS", "EW", "Both"):
            got = par_rows[f"{rec['id']}/{vul}"]["result"]
            want = rec["par"][vul]
            assert got["table"] == rec["dd"]
            assert got["par"]["score"] == want["score"], (rec["id"], vul)
            assert sorted(got["par"]["contracts"]) == sorted(want["contracts"]), (rec["id"], vul)


def test_pbn_input_equal_deals_hash_alike_and_bad_boards_are_reported(tmp_path):
    pbn = tmp_path / "d.pbn"
    assert main(["gen", "bridge", "-n", "6", "--seed", "2", "--rotate", "-o", str(pbn)]) == 0
    text = pbn.read_text()
    text += '\n[Board "7"]\n[Dealer "N"]\n[Deal "N:AKQ.. ... ..."]\n'
    pbn.write_text(text)
    bad = []
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch(
            [str(pbn)], "bridge-par", store, jobs=2, progress=False, on_bad_input=bad.append
        )
        rows = _rows(store, "bridge-par")
    assert summary.computed == 6 and len(bad) == 1 and bad[0].source == str(pbn)
    assert sorted(rows) == ["1", "2", "3", "4", "5", "6"]
    assert rows["4"]["input"]["dealer"] == "W" and rows["4"]["input"]["vulnerability"] == "Both"
    task = get_task("bridge-table")
    deal = next(bridge_deals(1, seed=2))["pbn"]
    east_first = "E:" + " ".join(deal[2:].split()[1:] + deal[2:].split()[:1])
    assert task.input_hash(task.prepare({"pbn": deal})) == task.input_hash(
        task.prepare({"deal": east_first.replace("T", "10")})
    )


def test_generated_deals_match_endplay(tmp_path):
    pytest.importorskip("endplay")
    path = tmp_path / "d.jsonl"
    deals = list(bridge_deals(8, seed=21))
    path.write_text("".join(json.dumps(d) + "\n" for d in deals))
    with ResultStore(tmp_path / "r.sqlite") as store:
        run_batch([str(path)], "bridge-table", store, jobs=2, progress=False)
        rows = _rows(store, "bridge-table")
    for d in deals:
        assert rows[d["id"]]["result"] == _endplay_table(d["pbn"]), d["id"]


def test_bridge_on_dask_equals_the_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    path = tmp_path / "d.pbn"
    main(["gen", "bridge", "-n", "10", "--seed", "4", "--rotate", "-o", str(path)])
    with ResultStore(tmp_path / "local.sqlite") as store:
        run_batch([str(path)], "bridge-par", store, jobs=2, progress=False)
        local = {k: r["result"] for k, r in _rows(store, "bridge-par").items()}
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        ResultStore(tmp_path / "dask.sqlite") as store,
    ):
        summary = run_batch_distributed(client, [str(path)], "bridge-par", store, progress=False)
        remote = {k: r["result"] for k, r in _rows(store, "bridge-par").items()}
    assert summary.computed == 10 and remote == local


def _count(db: Path) -> int:
    try:
        con = sqlite3.connect(db, timeout=5)
        try:
            return con.execute("SELECT COUNT(*) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_kill_9_half_way_then_the_same_command_completes_40_deals(tmp_path):
    pbn = tmp_path / "deals.pbn"
    assert main(["gen", "bridge", "-n", "40", "--seed", "40", "--rotate", "-o", str(pbn)]) == 0
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, "-m", "engines", "batch", str(pbn), "--task", "bridge-par"]
    cmd += ["--db", str(db), "-j", "2", "--chunk-size", "2"]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while _count(db) < 6 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    landed = _count(db)
    assert 6 <= landed < 40, landed
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{40 - landed} computed, {landed} already stored" in done.stderr
    with ResultStore(db) as store:
        rows = _rows(store, "bridge-par")
        assert store.count() == 40
    # Every row is correct: the table equals DDS's, the par follows from it.
    from engines.bridge.par import par

    deals = {str(d["board"]): d for d in bridge_deals(40, seed=40, rotate=True)}
    assert sorted(rows, key=int) == [str(i) for i in range(1, 41)]
    try:
        import endplay  # noqa: F401

        reference = {d["pbn"]: _endplay_table(d["pbn"]) for d in deals.values()}
    except ImportError:  # no DDS here: compare with an uninterrupted run of our own
        fresh_path = tmp_path / "fresh.jsonl"
        fresh_path.write_text("".join(json.dumps(d) + "\n" for d in deals.values()))
        with ResultStore(tmp_path / "fresh.sqlite") as store:
            run_batch([str(fresh_path)], "bridge-table", store, jobs=2, progress=False)
            reference = {r["input"]["pbn"]: r["result"] for r in store.rows("bridge-table")}
    for board, row in rows.items():
        result = row["result"]
        assert result["table"] == reference[row["input"]["pbn"]], board
        want = par(result["table"], deals[board]["dealer"], deals[board]["vulnerability"])
        assert result["par"] == want.to_dict(), board
