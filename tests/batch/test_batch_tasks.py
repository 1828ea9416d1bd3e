"""The game tasks: answers equal the reference corpora and the engines' single-position APIs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.batch.runner import run_batch
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from engines.shengji.generate import shengji_cases

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"


def _corpus(game: str, name: str) -> Path:
    return DATA / game / name


def _rows(store, task):
    return {r["position_id"]: r for r in store.rows(task)}


def test_shengji_legal_reproduces_the_conformance_corpus(tmp_path):
    path = _corpus("shengji", "cases.jsonl")
    records = {json.loads(x)["id"]: json.loads(x) for x in path.read_text().splitlines() if x}
    bad = []
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch(
            [str(path)], "shengji-legal", store, jobs=2, progress=False, on_bad_input=bad.append
        )
        rows = _rows(store, "shengji-legal")
    handled = {"follow_legal", "legal_follows_count", "trick_winner", "throw_valid"}
    assert summary.solver_errors == 0
    assert {records[b_id]["kind"] for b_id in _bad_ids(bad, path)} == {"is_tractor", "score", "bid"}
    checked = 0
    for rid, rec in records.items():
        if rec["kind"] not in handled:
            assert rid not in rows
            continue
        result = rows[rid]["result"]
        expected = rec["expected"]
        if rec["kind"] == "follow_legal":
            assert result == {"legal": expected}, rid
        elif rec["kind"] == "legal_follows_count":
            assert result == {"count": expected}, rid
        elif rec["kind"] == "trick_winner":
            assert result == {"winner": expected}, rid
        else:
            forced = sorted(expected["forced"]) if expected["forced"] else None
            got = sorted(result["forced"]) if result["forced"] else None
            assert (result["valid"], got) == (expected["valid"], forced), rid
        checked += 1
    assert checked == summary.computed + summary.duplicates


def _bad_ids(bad, path):
    lines = path.read_text().splitlines()
    return [json.loads(lines[b.line - 1])["id"] for b in bad]


def test_shengji_generated_cases_solve_without_errors_and_card_order_does_not_matter(tmp_path):
    cases = list(shengji_cases(120, seed=4))
    path = tmp_path / "g.jsonl"
    shuffled = []
    for c in cases[:20]:
        twin = dict(c, id=c["id"] + "-rev")
        for key in ("hand", "lead", "play"):
            if key in twin:
                twin[key] = list(reversed(twin[key]))
        shuffled.append(twin)
    path.write_text("".join(json.dumps(c) + "\n" for c in cases + shuffled))
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "shengji-legal", store, jobs=1, progress=False)
    assert summary.solver_errors == 0 and summary.computed == 120
    assert summary.duplicates == 20  # the same positions with the cards in another order
    task = get_task("shengji-legal")
    assert task.input_hash(task.prepare(cases[0])) == task.input_hash(task.prepare(shuffled[0]))


@pytest.mark.parametrize(
    ("task", "field"), [("rummikub-best", "max_tiles"), ("rummikub-best-value", "max_value")]
)
def test_rummikub_best_reaches_the_corpus_optima(tmp_path, task, field):
    path = _corpus("rummikub", "positions.jsonl")
    records = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], task, store, jobs=2, progress=False)
        rows = _rows(store, task)
    assert summary.solver_errors == 0 and not summary.bad_inputs
    key = "tiles" if field == "max_tiles" else "value"
    for rec in records:
        result = rows[rec["id"]]["result"] if rec["id"] in rows else None
        if result is None:  # an identical position earlier in the file holds the answer
            continue
        assert result[key] == rec["optimal"][field], rec["id"]
    assert len(rows) + summary.duplicates == len(records)


def test_rummikub_generated_positions_solve_and_table_order_is_canonical(tmp_path):
    from engines.rummikub.generate import rummikub_positions

    positions = list(rummikub_positions(60, seed=8, table_tiles=(3, 25), joker_rate=0.5))
    source = next(p for p in positions if len(p["table"]) >= 3)
    twin = dict(source, id="twin", table=list(reversed(source["table"])))
    assert twin["table"] != source["table"]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(p) + "\n" for p in [*positions, twin]))
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "rummikub-best", store, jobs=2, progress=False)
        rows = list(store.rows("rummikub-best"))
    assert summary.solver_errors == 0 and summary.computed == 60
    assert summary.duplicates == 1  # the same table with its sets in another order
    for row in rows:
        assert row["result"]["tiles"] == len(row["result"]["played"])


def test_rummikub_on_dask_equals_the_local_run(tmp_path):
    distributed = pytest.importorskip("distributed")
    from engines.batch.runner import run_batch_distributed
    from engines.rummikub.generate import rummikub_positions

    path = tmp_path / "g.jsonl"
    path.write_text(
        "".join(json.dumps(p) + "\n" for p in rummikub_positions(30, seed=12, joker_rate=0.4))
    )
    with ResultStore(tmp_path / "local.sqlite") as store:
        run_batch([str(path)], "rummikub-best", store, jobs=2, progress=False)
        local = {r["position_id"]: r["result"] for r in store.rows("rummikub-best")}
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
        ResultStore(tmp_path / "dask.sqlite") as store,
    ):
        summary = run_batch_distributed(client, [str(path)], "rummikub-best", store, progress=False)
        remote = {r["position_id"]: r["result"] for r in store.rows("rummikub-best")}
    assert summary.computed == 30 and remote == local
