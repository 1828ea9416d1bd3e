"""The chunked result store (schema 2): exact claims across connections, and schema 1 stores
read as they are or upgraded in place."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from engines.batch.runner import run_batch
from engines.batch.store import ResultRow, ResultStore, StoreError
from engines.batch.tasks import Task

# Schema 1 as released: one row per position, one claim row per position.
SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (
    task TEXT NOT NULL, input_hash TEXT NOT NULL, position_id TEXT NOT NULL,
    source TEXT NOT NULL, line INTEGER NOT NULL, input TEXT NOT NULL, result TEXT, error TEXT,
    seconds REAL NOT NULL, solver_version TEXT NOT NULL, run_id INTEGER NOT NULL,
    finished_at REAL NOT NULL, PRIMARY KEY (task, input_hash));
CREATE TABLE runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL, inputs TEXT NOT NULL,
    mode TEXT NOT NULL, workers INTEGER NOT NULL, solver_version TEXT NOT NULL,
    started_at REAL NOT NULL, finished_at REAL, computed INTEGER NOT NULL DEFAULT 0,
    skipped INTEGER NOT NULL DEFAULT 0, bad_inputs INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running', pid INTEGER, host TEXT, heartbeat REAL);
CREATE TABLE claims (task TEXT NOT NULL, input_hash TEXT NOT NULL, run_id INTEGER NOT NULL,
    PRIMARY KEY (task, input_hash));
CREATE TABLE bad_inputs (task TEXT NOT NULL, source TEXT NOT NULL, line INTEGER NOT NULL,
    reason TEXT NOT NULL, run_id INTEGER NOT NULL, PRIMARY KEY (task, source, line));
INSERT INTO meta VALUES ('schema_version', '1');
"""


def _square_task() -> Task:
    return Task("test-chunk-square", "test", "x squared", lambda o: {"x": int(o["x"])},
                lambda ps, threads: [{"sq": p["x"] ** 2} for p in ps], chunk_size=7)  # fmt: skip


def _inputs(tmp_path: Path, n: int) -> str:
    path = tmp_path / "xs.jsonl"
    path.write_text("".join(json.dumps({"id": f"p{i}", "x": i}) + "\n" for i in range(n)))
    return str(path)


def _row(h: str, i: int, error: str | None = None) -> ResultRow:
    result = None if error else {"v": i, "text": "é\"\\"}
    return ResultRow("t", h, f"id{i}", "f.jsonl", i, {"i": i}, result, error, 0.125 * i)


def test_two_connections_never_claim_one_position_twice(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as a, ResultStore(db) as b:
        run_a = a.begin_run("t", [], workers=1, mode="test")
        run_b = b.begin_run("t", [], workers=1, mode="test")
        assert a.claim("t", ["h1", "h2", "h3"], run_a) == (set(), set())
        assert b.claim("t", ["h2", "h3", "h4"], run_b) == (set(), {"h2", "h3"})
        assert a.add([_row("h1", 1), _row("h2", 2)], run_a) == 2
        # h1, h2 stored by a; h3 still claimed by a; h4 claimed by b itself
        assert b.claim("t", ["h1", "h2", "h3", "h4"], run_b) == ({"h1", "h2"}, {"h3"})
        a.end_run(run_a, computed=2, skipped=0, bad_inputs=0, status="interrupted")
        assert b.claim("t", ["h3"], run_b) == (set(), set())  # released with a's run
        assert a.claim("t", ["h3", "h4"], run_a) == (set(), {"h3", "h4"})
        assert b.add([_row("h2", 2), _row("h3", 3)], run_b) == 1  # h2 was stored by a
        assert a.done_hashes("t", ["h1", "h2", "h3", "h4"]) == {"h1", "h2", "h3"}
        assert a.count("t") == b.count("t") == 3 and a.count() == 3


def test_rows_come_back_with_every_field(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run("t", [], workers=1, mode="test")
        store.add([_row("h3", 3), _row("h1", 1, error="ValueError: ü"), _row("h2", 2)], run)
        rows = list(store.rows("t"))
        assert [r["position_id"] for r in rows] == ["id1", "id2", "id3"]
        assert rows[0]["result"] is None and rows[0]["error"] == "ValueError: ü"
        assert rows[1]["result"] == {"v": 2, "text": "é\"\\"} and rows[1]["error"] is None
        assert [r["seconds"] for r in rows] == [0.125, 0.25, 0.375]
        assert rows[2]["input"] == {"i": 3} and rows[2]["line"] == 3
        assert rows[2]["input_hash"] == "h3" and rows[2]["run_id"] == run
        assert store.tasks() == ["t"]


def _schema_1_store(path: Path, n: int) -> list[tuple]:
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_1)
    con.execute(
        "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, status) "
        "VALUES ('test-chunk-square', '[]', 'local', 1, '0.9', 1.0, 'finished')"
    )
    task = _square_task()
    rows = []
    for i in range(0, n, 2):  # every other position stored
        payload = {"x": i}
        text = task.json_text(payload)
        rows.append(("test-chunk-square", task.input_hash(payload), f"p{i}", "xs.jsonl", i + 1,
                     text, json.dumps({"sq": i * i}), None, 0.5, "0.9", 1, 2.0))  # fmt: skip
    con.executemany("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.commit()
    con.close()
    return rows


def test_a_schema_1_store_is_read_as_it_is_and_upgraded_when_written(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    old = _schema_1_store(db, 5000)
    with ResultStore.open_existing(db) as store:  # read-only: untouched
        assert store.count("test-chunk-square") == 2500
        before = list(store.rows("test-chunk-square"))
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("1",)
    with ResultStore(db) as store:
        assert list(store.rows("test-chunk-square")) == before
        assert store._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 1
        summary = run_batch([_inputs(tmp_path, 5000)], _square_task(), store, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert summary.already_stored == 2500 and summary.computed == 2500
        rows = {r["position_id"]: r for r in store.rows("test-chunk-square")}
    assert len(rows) == 5000 and all(rows[f"p{i}"]["result"] == {"sq": i * i} for i in range(5000))
    assert {r["input_hash"] for r in rows.values()} >= {r[1] for r in old}
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("4",)


def test_a_schema_1_store_with_a_live_old_run_is_not_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    _schema_1_store(db, 10)
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, pid, "
            "host, heartbeat) VALUES ('t', '[]', 'local', 1, '0.9', 1.0, ?, ?, 1e18)",
            (os.getpid(), os.uname().nodename),
        )
    with pytest.raises(StoreError, match="still writing it"):
        ResultStore(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("1",)
        assert con.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 5


def test_fast_tasks_claim_in_growing_batches_slow_ones_in_small(tmp_path: Path, monkeypatch):
    import time

    sizes: list[int] = []
    claim = ResultStore.claim_digests

    def recording(self, task, digests, run_id, **how):
        sizes.append(len(digests) // 16)
        return claim(self, task, digests, run_id, **how)

    monkeypatch.setattr(ResultStore, "claim_digests", recording)
    with ResultStore(tmp_path / "fast.sqlite") as store:
        run_batch([_inputs(tmp_path, 6000)], _square_task(), store, jobs=1, on_bad_input=None)
    assert sizes[0] == 256 and max(sizes) > 256 and sum(sizes) == 6000
    slow = Task("test-chunk-slow", "test", "x", lambda o: {"x": int(o["x"])},
                lambda ps, threads: [time.sleep(0.002) or p["x"] for p in ps], chunk_size=8)
    sizes.clear()
    with ResultStore(tmp_path / "slow.sqlite") as store:
        run_batch([_inputs(tmp_path, 600)], slow, store, jobs=1, on_bad_input=None)
    assert sizes == [256, 256, 88]


def test_quick_one_thread_chunks_grow_slow_ones_and_given_sizes_do_not(tmp_path: Path):
    import time

    def task(name: str, pause: float, sizes: list[int]) -> Task:
        def solve(ps, threads):
            sizes.append(len(ps))
            time.sleep(pause)
            return [p["x"] for p in ps]

        return Task(name, "test", "x", lambda o: {"x": int(o["x"])}, solve,
                    native_threads=True, gil_free=True, chunk_size=4)  # fmt: skip

    quick: list[int] = []
    with ResultStore(tmp_path / "quick.sqlite") as store:
        run_batch([_inputs(tmp_path, 400)], task("test-grow-quick", 0, quick), store, jobs=1)
        assert [r["result"] for r in store.rows()] == list(range(400))
    assert sum(quick) == 400 and quick[0] == 4 and max(quick) == 32
    slow: list[int] = []
    with ResultStore(tmp_path / "slow.sqlite") as store:
        run_batch([_inputs(tmp_path, 40)], task("test-grow-slow", 0.03, slow), store, jobs=1)
    assert slow == [4] * 10
    given: list[int] = []
    with ResultStore(tmp_path / "given.sqlite") as store:
        run_batch([_inputs(tmp_path, 40)], task("test-grow-given", 0, given), store, jobs=1,
                  chunk_size=5)  # fmt: skip
    assert given == [5] * 8
