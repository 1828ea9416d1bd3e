"""Schema 3's blocks: the text of every column comes back exactly through the ``results`` view,
and stores of schema 2 are read as they are, upgraded in place when written, and resumed."""

from __future__ import annotations

import json
import math
import os
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.batch.runner import run_batch
from engines.batch.store import ResultStore, StoreError
from engines.batch.store_schema import PAGE_SIZE
from engines.batch.tasks import Task, hash_text
from solvers._batch_rows import block_json

# Schema 2 as released (tables and view), and one stored chunk of it.
SCHEMA_2 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE chunks (chunk_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
    run_id INTEGER NOT NULL, solver_version TEXT NOT NULL, finished_at REAL NOT NULL,
    size INTEGER NOT NULL, hashes TEXT NOT NULL, rows TEXT NOT NULL);
CREATE INDEX chunks_by_task ON chunks (task, chunk_id);
CREATE TABLE runs (run_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
    inputs TEXT NOT NULL, mode TEXT NOT NULL, workers INTEGER NOT NULL,
    solver_version TEXT NOT NULL, started_at REAL NOT NULL, finished_at REAL,
    computed INTEGER NOT NULL DEFAULT 0, skipped INTEGER NOT NULL DEFAULT 0,
    bad_inputs INTEGER NOT NULL DEFAULT 0, status TEXT NOT NULL DEFAULT 'running',
    pid INTEGER, host TEXT, heartbeat REAL);
CREATE TABLE claims (claim_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
    run_id INTEGER NOT NULL, hashes TEXT NOT NULL);
CREATE INDEX claims_by_task ON claims (task, claim_id);
CREATE TABLE bad_inputs (task TEXT NOT NULL, source TEXT NOT NULL, line INTEGER NOT NULL,
    reason TEXT NOT NULL, run_id INTEGER NOT NULL, PRIMARY KEY (task, source, line));
CREATE VIEW results AS SELECT c.task AS task, json_extract(r.value, '$[0]') AS input_hash,
    json_extract(r.value, '$[1]') AS position_id, json_extract(r.value, '$[2]') AS source,
    json_extract(r.value, '$[3]') AS line, json_extract(r.value, '$[4]') AS input,
    json_extract(r.value, '$[5]') AS result, json_extract(r.value, '$[6]') AS error,
    json_extract(r.value, '$[7]') AS seconds, c.solver_version AS solver_version,
    c.run_id AS run_id, c.finished_at AS finished_at
    FROM chunks AS c, json_each(c.rows) AS r;
INSERT INTO meta VALUES ('schema_version', '2');
INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, status)
    VALUES ('test-block-square', '[]', 'local', 1, '0.9', 1.0, 'finished');
"""

COLUMNS = "input_hash, position_id, source, line, input, result, error, seconds"


def _square_task() -> Task:
    return Task("test-block-square", "test", "x squared", lambda o: {"x": int(o["x"])},
                lambda ps, threads: [{"sq": p["x"] ** 2} for p in ps], chunk_size=7)  # fmt: skip


def _inputs(tmp_path: Path, n: int, name: str = "xs.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps({"id": f"p{i}", "x": i}) + "\n" for i in range(n)))
    return str(path)


def _schema_2_store(path: Path, n: int) -> None:
    """Every third of the first ``n`` positions of ``_inputs`` stored in schema 2."""
    task = _square_task()
    rows, hashes = [], []
    for i in range(0, n, 3):
        text = task.json_text({"x": i})
        hashes.append(hash_text(text))
        rows.append([hashes[-1], f"p{i}", "xs.jsonl", i + 1, text, json.dumps({"sq": i * i}),
                     None, 0.5])  # fmt: skip
    con = sqlite3.connect(path)
    con.executescript(SCHEMA_2)
    con.execute(
        "INSERT INTO chunks (task, run_id, solver_version, finished_at, size, hashes, rows) "
        "VALUES ('test-block-square', 1, '0.9', 2.0, ?, ?, ?)",
        (len(rows), " ".join(hashes), json.dumps(rows)),
    )
    con.commit()
    con.close()


def _view(store: ResultStore) -> list[tuple]:
    return store._db.execute(f"SELECT {COLUMNS} FROM results ORDER BY line").fetchall()


def test_a_new_store_writes_blocks_with_large_pages(tmp_path: Path) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([_inputs(tmp_path, 50)], _square_task(), store, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert summary.computed == 50 and store.count() == 50
        db = store._db
        assert db.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
        assert db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 0
        block = db.execute("SELECT source, size, length(digests), rows FROM blocks").fetchone()
        assert block[:3] == (str(tmp_path / "xs.jsonl"), 50, 16 * 50)
        # inputs and results are JSON values (no escaped quotes), the source is not repeated
        assert json.loads(block[3])[3] == ["p3", 4, {"x": 3}, json.loads(block[3])[3][3],
                                           {"sq": 9}]  # fmt: skip
        rows = list(store.rows())
        assert [r["input"] for r in rows[:2]] == [{"x": 0}, {"x": 1}]
        assert rows[7]["result"] == {"sq": 49} and rows[7]["error"] is None
        assert rows[7]["input_hash"] == hash_text('{"x":7}')


def test_positions_from_several_files_get_one_block_per_file(tmp_path: Path) -> None:
    first, second = _inputs(tmp_path, 5, "a.jsonl"), _inputs(tmp_path, 9, "b.jsonl")
    Path(second).write_text(Path(second).read_text().replace('"x": ', '"x": 10'))
    with ResultStore(tmp_path / "r.sqlite") as store:
        run_batch([first, second], _square_task(), store, jobs=1, on_bad_input=None)
        blocks = store._db.execute("SELECT source, size FROM blocks ORDER BY block_id").fetchall()
        assert blocks == [(first, 5), (second, 9)]
        assert [(r["source"], r["line"]) for r in store.rows()][4:6] == [(first, 5), (second, 1)]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                  max_size=4),
    max_leaves=12,
)  # fmt: skip


# SQLite's json_extract ends a string at a NUL character and gives a lone surrogate as bytes
# that are not UTF-8 (schema 2 read ids and errors the same way): the texts of ids and
# messages here have neither.
_text = st.text(st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)),
                max_size=10)  # fmt: skip


def _canonical(value) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(_json_values, _json_values, _text, st.one_of(st.none(), _text),
                       st.floats(min_value=0, max_value=10)), min_size=1, max_size=6),
)  # fmt: skip
def test_every_text_comes_back_exactly_through_the_view(rows) -> None:
    inputs = [_canonical(r[0]) for r in rows]
    results = [None if r[3] is not None else _canonical(r[1]) for r in rows]
    ids, errors, seconds = [r[2] for r in rows], [r[3] for r in rows], [r[4] for r in rows]
    digests = b"".join(os.urandom(16) for _ in rows)
    with ResultStore(":memory:") as store:
        run = store.begin_run("t", [], workers=1, mode="test")
        lines = list(range(1, len(rows) + 1))
        columns = [ids, ["f.jsonl"] * len(rows), lines, inputs, results, errors, seconds]
        assert store.add_columns("t", run, digests, columns) == len(rows)
        assert _view(store) == [
            (digests[16 * i : 16 * i + 16].hex(), ids[i], "f.jsonl", i + 1, inputs[i],
             results[i], errors[i], seconds[i]) for i in range(len(rows))
        ]  # fmt: skip


def test_texts_that_are_no_plain_json_value_are_written_as_strings() -> None:
    deep = "[" * 70 + "]" * 70
    texts = ['{"a":NaN}', "[Infinity]", deep, '"s"', "3", "null", '{"a":1}{"b":2}', '{"a":1}']
    text = block_json(["p"] * 8, list(range(8)), texts, texts, [None] * 8, [0.5] * 8)
    rows = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} outside a string"))
    assert [r[2] for r in rows[:7]] == texts[:7] and rows[7][2] == {"a": 1}
    assert all(isinstance(r[4], str) for r in rows[:7])
    assert block_json(["é"], [1], ["{}"], ["{}"], [None], [0.5]) is None  # not ASCII
    assert math.isnan(json.loads(texts[0])["a"])


def test_a_schema_2_store_is_read_as_it_is_and_upgraded_when_written(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    _schema_2_store(db, 300)
    with ResultStore.open_existing(db) as store:  # read-only: untouched
        assert store.count("test-block-square") == 100 and store.tasks() == ["test-block-square"]
        before = list(store.rows("test-block-square"))
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("2",)
    with ResultStore(db) as store:
        assert list(store.rows("test-block-square")) == before
        summary = run_batch([_inputs(tmp_path, 300)], _square_task(), store, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert (summary.already_stored, summary.computed) == (100, 200)
        assert store.count() == 300 and store.tasks() == ["test-block-square"]
        rows = {r["position_id"]: r for r in store.rows("test-block-square")}
        assert store._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0] == 1
    assert len(rows) == 300 and all(rows[f"p{i}"]["result"] == {"sq": i * i} for i in range(300))
    assert all(rows[f"p{i}"]["input_hash"] == hash_text(f'{{"x":{i}}}') for i in range(300))
    with ResultStore.open_existing(db) as store:
        assert store.count() == 300 and len(list(store.rows())) == 300
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("4",)
    with ResultStore(db) as store:  # resumes across both tables
        summary = run_batch([_inputs(tmp_path, 300)], _square_task(), store, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert (summary.already_stored, summary.computed) == (300, 0)


def test_a_schema_2_store_with_a_live_old_run_is_not_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite"
    _schema_2_store(db, 30)
    with sqlite3.connect(db) as con:
        con.execute(
            "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, pid, "
            "host, heartbeat) VALUES ('t', '[]', 'local', 1, '0.9', 1.0, ?, ?, 1e18)",
            (os.getpid(), os.uname().nodename),
        )
    with pytest.raises(StoreError, match=r"schema 2 .* still writing it"):
        ResultStore(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("2",)
        assert "blocks" not in {n for (n,) in con.execute("SELECT name FROM sqlite_master")}


def _schema_3_store(path: Path, n: int) -> None:
    """``_inputs``' first ``n`` positions stored, then the store marked schema 3 (the same
    tables) with a claim in schema 3's form: hexadecimal text, of run 1 (finished)."""
    with ResultStore(path) as store:
        run_batch([_inputs(path.parent, n)], _square_task(), store, jobs=1, on_bad_input=None)
    with sqlite3.connect(path) as con:
        con.execute("UPDATE meta SET value='3' WHERE key='schema_version'")
        con.execute("INSERT INTO claims (task, run_id, hashes) VALUES (?, 1, ?)",
                    ("test-block-square", hash_text('{"x":0}')))  # fmt: skip


def _live_run(path: Path) -> int:
    with sqlite3.connect(path) as con:
        return con.execute(
            "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, pid, "
            "host, heartbeat) VALUES ('t', '[]', 'local', 1, '0.9', 1.0, ?, ?, 1e18)",
            (os.getpid(), os.uname().nodename),
        ).lastrowid


def test_claims_are_digests_and_hex_claims_of_older_runs_still_count(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    digests = bytes(range(48))
    with ResultStore(db) as a, ResultStore(db) as b:
        run_a = a.begin_run("t", [], workers=1, mode="local")
        run_b = b.begin_run("t", [], workers=1, mode="local")
        assert a.claim_digests("t", digests, run_a) == bytearray(3)
        row = a._db.execute("SELECT hashes FROM claims").fetchone()[0]
        assert row == digests  # one blob: 16 bytes a position
        # hexadecimal text (ResultStore.claim, and every claim of schema 3) is read too
        assert b.claim("t", [digests[32:].hex(), bytes(range(100, 116)).hex()], run_b) == (
            set(), {digests[32:].hex()})
        more = digests + bytes(range(100, 116)) + bytes(range(200, 216))
        assert a.claim_digests("t", more, run_a) == bytearray([0, 0, 0, 2, 0])
        assert b.claim_digests("t", more, run_b) == bytearray([2, 2, 2, 0, 2])
        a.end_run(run_a, computed=0, skipped=0, bad_inputs=0, status="finished")
        assert b.claim_digests("t", more, run_b) == bytearray(5)


def test_a_schema_3_store_is_upgraded_when_written_and_resumed(tmp_path: Path) -> None:
    db = tmp_path / "v3.sqlite"
    _schema_3_store(db, 40)
    with ResultStore.open_existing(db) as store:  # read-only: untouched
        assert store.count() == 40
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("3",)
    with ResultStore(db) as store:
        summary = run_batch([_inputs(tmp_path, 60)], _square_task(), store, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert (summary.already_stored, summary.computed) == (40, 20)
        # the run's own claims went with it; the finished older run's text claim is ignored
        assert store._db.execute("SELECT typeof(hashes) FROM claims").fetchall() == [("text",)]
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("4",)


def test_a_schema_3_store_with_a_live_old_run_is_not_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "v3.sqlite"
    _schema_3_store(db, 5)
    _live_run(db)
    with pytest.raises(StoreError, match=r"schema 3 .* still writing it"):
        ResultStore(db)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta").fetchone() == ("3",)


def test_a_store_of_a_newer_schema_is_refused_by_name(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite"
    ResultStore(db).close()
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value='9' WHERE key='schema_version'")
    refusal = r"result store schema 9, this qipai reads schemas 1 to 4, 6, 7 and 8; use the qipai"
    with pytest.raises(StoreError, match=refusal):
        ResultStore(db)
