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

from engines.batch.runner import run_batch, run_batch_distributed
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from engines.bridge.generate import bridge_deals
from engines.cli import main

ROOT = Path(__file__).resolve().parents[2]
DEALS = ROOT / "tests" / "data" / "bridge" / "deals.jsonl"


def _deals_corpus() -> list[dict]:
    return [json.loads(x) for x in DEALS.read_text().splitlines() if x.strip()]


def _rows(store: ResultStore, task: str) -> dict[str, dict]:
    return {r["position_id"]: r for r in store.rows(task)}


def _endplay_table(pbn: str) -> dict[str, dict[str, int]]:
    from endplay.dds import calc_dd_table
    from endplay.types import Deal

    rows = calc_dd_table(Deal(pbn)).to_list()  # [strain S H D C NT][player N E S W]
    order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
    return {s: {p: rows[order[s]][i] for i, p in enumerate("NESW")} for s in order}


@pytest.mark.slow
def test_bridge_table_and_par_reproduce_the_dds_corpus(tmp_path):
    # Full deals cost the solver seconds each: two random deals and the pass-out special.
    corpus = _deals_corpus()
    records = [r for r in corpus if not r["id"].startswith("db-special")][:2]
    records += [r for r in corpus if r["id"] == "db-special-02-passout"]
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


def _endings(tmp_path: Path, count: int, seed: int, cards: int) -> Path:
    path = tmp_path / f"endings-{cards}.jsonl"
    argv = ["gen", "bridge", "-n", str(count), "--seed", str(seed), "--cards", str(cards)]
    assert main([*argv, "-f", "jsonl", "-o", str(path)]) == 0
    return path


def test_bridge_table_rows_equal_the_engine_on_endings(tmp_path):
    from engines.bridge.dd import dd_table

    path = _endings(tmp_path, 24, seed=3, cards=6)
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "bridge-table", store, jobs=2, progress=False)
        rows = _rows(store, "bridge-table")
    assert summary.computed == 24 and summary.solver_errors == 0
    for line in path.read_text().splitlines():
        deal = json.loads(line)
        assert rows[deal["id"]]["result"] == dd_table(deal["pbn"]).to_dict(), deal["id"]


def test_bridge_par_needs_full_deals(tmp_path):
    path = _endings(tmp_path, 2, seed=1, cards=5)
    bad = []
    with ResultStore(":memory:") as store:
        summary = run_batch(
            [str(path)], "bridge-par", store, jobs=1, progress=False, on_bad_input=bad.append
        )
    assert summary.computed == 0 and [b.line for b in bad] == [1, 2]
    assert "par needs a full deal (13 cards each)" in bad[0].reason


def test_pbn_boards_become_par_positions_and_bad_boards_are_reported(tmp_path):
    from engines.batch.inputs import BadInput, read_inputs

    pbn = tmp_path / "d.pbn"
    assert main(["gen", "bridge", "-n", "6", "--seed", "2", "--rotate", "-o", str(pbn)]) == 0
    pbn.write_text(pbn.read_text() + '\n[Board "7"]\n[Dealer "N"]\n[Deal "N:AKQ.. ... ..."]\n')
    task = get_task("bridge-par")
    items = list(read_inputs([str(pbn)]))
    assert [type(i).__name__ for i in items] == ["Record"] * 6 + ["BadInput"]
    assert isinstance(items[-1], BadInput) and "expected four hands" in items[-1].reason
    payloads = [task.prepare(i.obj) for i in items[:6]]
    assert [(p["dealer"], p["vulnerability"]) for p in payloads] == [
        ("N", "None"), ("E", "NS"), ("S", "EW"), ("W", "Both"), ("N", "NS"), ("E", "EW"),
    ]  # fmt: skip
    assert [i.position_id for i in items[:6]] == ["1", "2", "3", "4", "5", "6"]
    # The same deal written from East with 10 for T hashes like the North-first original.
    table_task = get_task("bridge-table")
    deal = next(bridge_deals(1, seed=2))["pbn"]
    hands = deal[2:].split()
    east_first = "E:" + " ".join(hands[1:] + hands[:1])
    assert table_task.input_hash(table_task.prepare({"pbn": deal})) == table_task.input_hash(
        table_task.prepare({"deal": east_first.replace("T", "10")})
    )


def test_bridge_on_dask_equals_the_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    path = _endings(tmp_path, 16, seed=4, cards=6)
    with ResultStore(tmp_path / "local.sqlite") as store:
        run_batch([str(path)], "bridge-table", store, jobs=2, progress=False)
        local = {k: r["result"] for k, r in _rows(store, "bridge-table").items()}
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        ResultStore(tmp_path / "dask.sqlite") as store,
    ):
        summary = run_batch_distributed(
            client, [str(path)], "bridge-table", store, chunk_size=3, progress=False
        )
        remote = {k: r["result"] for k, r in _rows(store, "bridge-table").items()}
    assert summary.computed == 16 and remote == local


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
    from engines.bridge.dd import dd_table

    # 40 random deals that take the solver a few seconds in all, so that the kill lands
    # half-way: ten-card endings, or full deals once the solver makes those cheap.
    sample = [d["pbn"] for d in bridge_deals(3, seed=41, cards=10)]
    start = time.perf_counter()
    for pbn in sample:
        dd_table(pbn)
    cards = 10 if (time.perf_counter() - start) / 3 > 0.02 else 13
    path = _endings(tmp_path, 40, seed=40, cards=cards)
    db = tmp_path / "r.sqlite"
    cmd = [sys.executable, "-m", "engines", "batch", str(path), "--task", "bridge-table"]
    cmd += ["--db", str(db), "-j", "1", "--chunk-size", "1", "--no-progress"]
    proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while _count(db) < 6 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    landed = _count(db)
    assert 6 <= landed < 40, landed
    done = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"{40 - landed} computed, {landed} already stored" in done.stderr
    with ResultStore(db) as store:
        rows = _rows(store, "bridge-table")
        assert store.count() == 40
    deals = [json.loads(x) for x in path.read_text().splitlines()]
    assert sorted(rows) == sorted(d["id"] for d in deals)
    for d in deals:  # every row correct: equal to the engine's own single-deal answer
        assert rows[d["id"]]["result"] == dd_table(d["pbn"]).to_dict(), d["id"]


def test_a_pbn_game_without_a_deal_is_reported(tmp_path):
    from engines.batch.inputs import BadInput, Record, read_inputs

    path = tmp_path / "x.pbn"
    path.write_text(
        '[Event "x"]\n[Board "1"]\n[Dealer "N"]\n\n[Board "2"]\n'
        '[Deal "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"]\n'
    )
    first, second = read_inputs([str(path)])
    assert isinstance(first, BadInput) and (first.line, first.reason) == (
        1,
        "no Deal tag: the game has no cards",
    )
    assert isinstance(second, Record) and second.position_id == "2"


def test_deal_payloads_equal_the_engines_text_whatever_the_spelling():
    """The canonical-deal shortcut of the bridge tasks' ``prepare`` gives the engine's own
    text (``Deal.from_pbn(text).to_pbn()``) for canonical and other spellings alike."""
    import random

    from engines.bridge.cards import Deal
    from engines.bridge.seats import Seat

    rng = random.Random(5)
    deals = [d["pbn"] for d in _deals_corpus() if "pbn" in d]
    for cards in (13, 8, 3, 1):
        deals += [Deal.from_pbn(next(bridge_deals(1, seed=s, cards=cards))["pbn"]).to_pbn()
                  for s in range(20)]  # fmt: skip
    variants = []
    for pbn in deals:
        deal = Deal.from_pbn(pbn)
        variants += [pbn, deal.to_pbn(), deal.to_pbn(Seat(rng.randrange(4))), pbn.lower(),
                     pbn.replace("T", "10"),
                     " " + pbn, pbn.replace(" ", "  "), f'"{pbn}"', pbn.replace(".", "-", 1),
                     pbn.replace("N:", "N: "), pbn[2:], pbn.replace(" ", " - ", 1),
                     pbn + "\n", pbn.replace(".", "..", 1), pbn.replace("A", "AA", 1)]  # fmt: skip
        hands = pbn[2:].split(" ")
        variants.append("N:" + " ".join(hands[::-1]))
        variants.append("N:" + " ".join(h[::-1] for h in hands))  # suits' ranks reversed
    task = get_task("bridge-table")
    for text in variants:
        try:
            expected = Deal.from_pbn(text).to_pbn()
        except ValueError as exc:
            with pytest.raises(ValueError) as caught:
                task.prepare({"pbn": text})
            assert str(caught.value) == str(exc)
            continue
        assert task.prepare({"pbn": text}) == {"pbn": expected}, text
