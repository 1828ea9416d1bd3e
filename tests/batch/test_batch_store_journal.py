"""The store's journal: a new store keeps a write-ahead log; a store in a rollback journal
(``store_files.JOURNAL_MODE``, measured against WAL) is converted when written and
resumes; readers and a writer of a rollback-journal store all finish (a reader never
holds a commit back for longer than its copy); a transaction a killed writer left half
done is undone before a read-only reader reads."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import engines.batch.store as store_module
from engines.batch.runner import run_batch
from engines.batch.store import ResultRow, ResultStore
from engines.batch.store_files import in_wal_mode
from engines.cli import main


def _journal(db: Path) -> str:
    with ResultStore(db) as store:
        return str(store._db.execute("PRAGMA journal_mode").fetchone()[0])


def _inputs(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "sj.jsonl"
    if not path.exists():
        assert main(["gen", "shengji", "-n", str(n), "--seed", "4", "-o", str(path)]) == 0
    return path


def _rows(start: int, n: int) -> list[ResultRow]:
    return [ResultRow("t", f"{i:032x}", f"p{i}", "in.jsonl", i, {"n": i}, {"sq": i * i}, None,
                      0.0) for i in range(start, start + n)]  # fmt: skip


@pytest.fixture
def rollback(monkeypatch: pytest.MonkeyPatch) -> None:
    """New stores of the test keep a rollback journal."""
    monkeypatch.setattr(store_module, "JOURNAL_MODE", "TRUNCATE")


def test_a_new_store_keeps_a_write_ahead_log(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    run_batch([str(_inputs(tmp_path, 300))], "shengji-legal", str(db), jobs=1, progress=False)
    assert _journal(db) == "wal" and in_wal_mode(str(db))
    with ResultStore.open_existing(db) as store:
        assert store.count() == 300


def test_a_rollback_journal_store_resumes_and_is_converted(tmp_path: Path, monkeypatch) -> None:
    inputs = _inputs(tmp_path, 600)
    half = tmp_path / "half.jsonl"
    half.write_text("".join(inputs.read_text().splitlines(keepends=True)[:300]))
    db = tmp_path / "r.sqlite"
    with monkeypatch.context() as patch:
        patch.setattr(store_module, "JOURNAL_MODE", "TRUNCATE")
        run_batch([str(half)], "shengji-legal", str(db), jobs=1, progress=False)
        assert not in_wal_mode(str(db)) and not Path(f"{db}-journal").exists()
        with ResultStore.open_existing(db) as store:
            assert store.count() == 300
    summary = run_batch([str(inputs)], "shengji-legal", str(db), jobs=1, progress=False)
    assert (summary.already_stored, summary.computed) == (300, 300)
    assert in_wal_mode(str(db))
    with ResultStore.open_existing(db) as store:
        assert store.count() == 600
        assert len({row["input_hash"] for row in store.rows()}) == 600


@pytest.mark.parametrize("journal", ["TRUNCATE", "WAL"])
def test_readers_and_a_writer_of_one_store_all_finish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, journal: str
) -> None:
    monkeypatch.setattr(store_module, "JOURNAL_MODE", journal)
    db = tmp_path / "r.sqlite"
    writer = ResultStore(db)
    run = writer.begin_run("t", ["in.jsonl"], workers=1, mode="local")
    writer.add(_rows(0, 50), run)
    seen: list[int] = []
    failures: list[BaseException] = []

    def read() -> None:
        try:
            for _ in range(15):
                with ResultStore.open_existing(db) as reader:
                    rows = list(reader.rows("t"))
                    seen.append(len(rows))
                    assert len(rows) % 50 == 0  # whole transactions only
                    assert [r["line"] for r in rows] == sorted(r["line"] for r in rows)
        except BaseException as exc:  # (reported by the test's thread)
            failures.append(exc)

    readers = [threading.Thread(target=read) for _ in range(2)]
    for thread in readers:
        thread.start()
    for k in range(1, 40):
        writer.add(_rows(50 * k, 50), run)
    for thread in readers:
        thread.join()
    writer.close()
    assert not failures, failures
    assert len(seen) == 30 and all(n <= 2000 for n in seen)
    out = tmp_path / "out.jsonl"
    assert main(["results", "export", str(db), "-o", str(out)]) == 0
    assert len(out.read_text().splitlines()) == 2000


@pytest.mark.usefixtures("rollback")
def test_a_reader_part_way_through_its_rows_does_not_hold_a_commit_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "r.sqlite"
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.5)  # a held lock fails the commit
    writer = ResultStore(db)
    run = writer.begin_run("t", ["in.jsonl"], workers=1, mode="local")
    writer.add(_rows(0, 100), run)
    with ResultStore.open_existing(db) as reader:
        rows = reader.rows("t")
        assert next(rows)["line"] == 0  # the reader is part way through
        assert writer.add(_rows(100, 100), run) == 100
        assert sum(1 for _ in rows) == 99  # what was there when it began
    writer.close()


HALF_WRITTEN = """
import os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=TRUNCATE")
db.execute("PRAGMA cache_size=1")  # the transaction's pages spill into the file
db.execute("BEGIN IMMEDIATE")
db.execute("UPDATE blocks SET rows = '[]', size = 0")
db.execute("INSERT INTO meta VALUES ('filler', hex(randomblob(2000000)))")
os._exit(9)  # killed with the transaction half done
"""


@pytest.mark.usefixtures("rollback")
def test_a_transaction_a_killed_writer_left_half_done_is_undone_before_reading(
    tmp_path: Path,
) -> None:
    db = tmp_path / "r.sqlite"
    run_batch([str(_inputs(tmp_path, 300))], "shengji-legal", str(db), jobs=1, progress=False)
    script = tmp_path / "half.py"
    script.write_text(HALF_WRITTEN)
    assert subprocess.run([sys.executable, str(script), str(db)]).returncode == 9
    assert Path(f"{db}-journal").stat().st_size > 0  # a hot journal is left
    # read as it is, the file holds the half transaction
    raw = sqlite3.connect(f"{db.resolve().as_uri()}?immutable=1", uri=True)
    assert raw.execute("SELECT SUM(size) FROM blocks").fetchone()[0] == 0
    raw.close()
    with ResultStore.open_existing(db) as store:
        assert store.count() == 300
        rows = list(store.rows())
    assert len(rows) == 300 and all(json.dumps(r["result"]) for r in rows)


def test_a_runs_deleted_claims_are_not_written_again_as_zeros(tmp_path):
    """``end_run`` deletes the run's claims (10 pages of digests here): their freed pages are
    not rewritten (SQLite builds with SECURE_DELETE would log each one, then copy it into the
    database at the next checkpoint); the claims are gone, the stored rows stay."""
    path = str(tmp_path / "s.sqlite")
    digests = b"".join(k.to_bytes(16, "little") for k in range(20_000))  # 320,000 bytes
    with ResultStore(path) as store:
        run = store.begin_run("t", ["in"], workers=1, mode="x")
        assert store.claim_digests("t", digests, run) == bytearray(20_000)
        store.add([ResultRow("t", "ab12", "p", "in", 1, {}, {}, None, 0.5)], run)
        logged = Path(path + "-wal").stat().st_size
        store.end_run(run, computed=1, skipped=0, bad_inputs=0, status="finished")
        frames = (Path(path + "-wal").stat().st_size - logged) // (store_module.PAGE_SIZE + 24)
        assert frames <= 5, frames
        assert store._db.execute("SELECT COUNT(*) FROM claims").fetchone() == (0,)
        assert store.count("t") == 1
