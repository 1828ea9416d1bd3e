"""A new store is built whole beside its path and linked into place
(``store_files.create_new``): the same file as one created in place, one valid store when
several runs create it at once, no store at all when its creation is killed part way, and
a stale log of an earlier file of that name is never replayed into it."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import engines.batch.store
import engines.batch.store_files as store_files
from engines.batch.store import ResultRow, ResultStore
from engines.batch.store_files import in_wal_mode
from engines.batch.store_schema import PAGE_SIZE, SCHEMA_VERSION

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")


def _row(i: int) -> ResultRow:
    return ResultRow("t", f"{i:032x}", f"p{i}", "in.jsonl", i, {"n": i}, {"sq": i * i}, None, 0.0)


def _layout(path: Path) -> tuple:
    with sqlite3.connect(path) as db:
        return (
            db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name")
            .fetchall(),
            db.execute("SELECT * FROM meta").fetchall(),
            db.execute("PRAGMA page_size").fetchone()[0],
            db.execute("PRAGMA integrity_check").fetchone()[0],
        )


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".creating"))


def test_a_new_store_is_the_file_an_in_place_creation_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = tmp_path / "made.sqlite"
    with ResultStore(made) as store:
        run = store.begin_run("t", ["in.jsonl"], workers=1, mode="local")
        assert store.add([_row(1), _row(2)], run) == 2
        store.end_run(run, computed=2, skipped=0, bad_inputs=0, status="finished")
    assert in_wal_mode(str(made)) and not _leftovers(tmp_path)
    in_place = tmp_path / "in_place.sqlite"
    with monkeypatch.context() as patch:
        patch.setattr(store_files, "create_new", lambda path, journal, **_: False)
        ResultStore(in_place).close()
    assert _layout(made) == _layout(in_place)
    assert _layout(made)[1:] == ([("schema_version", str(SCHEMA_VERSION))], PAGE_SIZE, "ok")
    assert made.stat().st_mode == in_place.stat().st_mode
    with ResultStore.open_existing(made) as store:
        assert store.count() == 2 and store.runs()[0]["status"] == "finished"


def test_runs_creating_one_store_at_once_end_with_one_store(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite"
    start = threading.Barrier(8)
    failures: list[BaseException] = []

    def one(k: int) -> None:
        try:
            start.wait()
            with ResultStore(path) as store:
                run = store.begin_run("t", ["in.jsonl"], workers=1, mode="local")
                store.add([_row(k), _row(100 + k)], run)
                store.end_run(run, computed=2, skipped=0, bad_inputs=0, status="finished")
        except BaseException as exc:  # (reported below)
            failures.append(exc)

    threads = [threading.Thread(target=one, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert _layout(path)[1:] == ([("schema_version", str(SCHEMA_VERSION))], PAGE_SIZE, "ok")
    with ResultStore.open_existing(path) as store:
        assert store.count() == 16 and len(store.runs()) == 8
    assert not _leftovers(tmp_path)


def test_a_run_that_loses_the_race_opens_the_store_the_winner_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.sqlite"
    build = store_files._build
    raced: list[int] = []

    def racing(temp: str, journal: str, payload_task: str | None = None) -> None:
        build(temp, journal, payload_task)
        if not raced:  # another run creates the store while this one builds its own
            raced.append(1)
            with ResultStore(path) as other:
                other.add([_row(1)], other.begin_run("t", ["a"], workers=1, mode="local"))

    monkeypatch.setattr(store_files, "_build", racing)
    with ResultStore(path) as store:
        assert store.done_hashes("t", [_row(1).input_hash]) == {_row(1).input_hash}
        store.add([_row(2)], store.begin_run("t", ["b"], workers=1, mode="local"))
    with ResultStore.open_existing(path) as store:
        assert store.count() == 2 and len(store.runs()) == 2
    assert _layout(path)[3] == "ok" and not _leftovers(tmp_path)


@pytest.mark.parametrize("where", ["build", "link"])
def test_a_creation_killed_part_way_leaves_no_store(tmp_path: Path, where: str) -> None:
    path = tmp_path / "r.sqlite"
    kill = {
        # killed while writing the tables, or once the file is whole and synced
        "build": "store_schema.SCHEMA = Cut()",
        "link": "os.link = lambda *a: os._exit(9)",
    }[where]
    script = (
        "import os\n"
        "import engines.batch.store_files as store_files\n"
        "import engines.batch.store_schema as store_schema\n"
        "from engines.batch.store_schema import SCHEMA\n"
        "class Cut:\n"
        "    def __iter__(self):\n"
        "        yield from SCHEMA[:3]\n"
        "        os._exit(9)\n"
        f"{kill}\n"
        f"store_files.connect({str(path)!r}, readonly=False, journal='WAL', busy=1.0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 9, done.stderr
    assert not path.exists() and len(_leftovers(tmp_path)) == 1
    with ResultStore(path) as store:
        store.add([_row(1)], store.begin_run("t", ["a"], workers=1, mode="local"))
    with ResultStore.open_existing(path) as store:
        assert store.count() == 1
    assert _layout(path)[3] == "ok"


def test_the_log_of_an_earlier_file_of_that_name_is_not_replayed(tmp_path: Path) -> None:
    old = tmp_path / "old.sqlite"
    with ResultStore(old) as store:
        store.add([_row(i) for i in range(50)], store.begin_run("t", ["a"], workers=1,
                                                                 mode="local"))  # fmt: skip
        store._db.execute("PRAGMA wal_autocheckpoint=0")
        store.add([_row(i) for i in range(50, 90)], 1)
        shutil.copyfile(f"{old}-wal", tmp_path / "r.sqlite-wal")  # the file itself deleted
    path = tmp_path / "r.sqlite"
    with ResultStore(path) as store:
        assert store.count() == 0
        store.add([_row(1)], store.begin_run("t", ["a"], workers=1, mode="local"))
    with ResultStore.open_existing(path) as store:
        assert store.count() == 1
    assert _layout(path)[3] == "ok"


def test_a_store_made_for_packed_blocks_is_the_one_a_run_chooses_them_in(
    tmp_path: Path,
) -> None:
    """``payload_task``: the new store hashes that task's payloads from its creation, the file
    a store created plain and then chosen so in (``payload_hashes``) is; an existing store,
    or one where the task has rows, is left as it is."""
    made = tmp_path / "made.sqlite"
    with ResultStore(made, payload_task="t") as store:
        assert store.input_hashes("t") == "payload" and store.input_hashes("u") == "text"
        assert store.payload_hashes("t", want=True)
    chosen = tmp_path / "chosen.sqlite"
    with ResultStore(chosen) as store:
        assert store.payload_hashes("t", want=True)
    assert _layout(made) == _layout(chosen)
    assert _layout(made)[1] == [("schema_version", "7"), ("input_hash:t", "payload")]
    rows = tmp_path / "rows.sqlite"
    with ResultStore(rows) as store:
        store.add([_row(1)], store.begin_run("t", ["in.jsonl"], workers=1, mode="local"))
    with ResultStore(rows, payload_task="t") as store:
        assert store.input_hashes("t") == "text" and store.count("t") == 1


def test_a_whole_store_is_opened_without_its_schema_statements(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that has every table, index and view is opened without running the schema's
    statements again; one that lacks some gets them when opened for writing."""
    path = tmp_path / "r.sqlite"
    ResultStore(path).close()
    with monkeypatch.context() as patch:
        patch.setattr(engines.batch.store, "create_tables", None)  # (not called)
        ResultStore(path).close()
    with sqlite3.connect(path) as db:
        db.execute("DROP INDEX claims_by_task")
        db.execute("DROP VIEW results")
    ResultStore(path).close()
    with sqlite3.connect(path) as db:
        names = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    assert {"claims_by_task", "results"} <= names and _layout(path)[3] == "ok"


def test_a_packed_run_makes_its_new_store_packed_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``qipai batch`` of packed files into a new store (the command line and run_batch with a
    path) creates it hashing payloads: no transaction after it chooses them."""
    from tests.batch.test_batch_packed_store import _inputs

    from engines.batch.runner import run_batch
    from engines.cli import main

    _jsonl, qpk = _inputs(tmp_path, "shengji-legal", 40, 3)
    monkeypatch.setattr(engines.batch.store, "choose_payload_hashes", None)  # (not called)
    db = tmp_path / "cli.sqlite"
    assert main(["batch", str(qpk), "--task", "shengji-legal", "--db", str(db), "-j", "1",
                 "--no-progress"]) == 0  # fmt: skip
    run_batch([str(qpk)], "shengji-legal", str(tmp_path / "api.sqlite"), jobs=1, progress=False)
    for path in (db, tmp_path / "api.sqlite"):
        with ResultStore.open_existing(path) as store:
            assert store.input_hashes("shengji-legal") == "payload"
            assert store.count("shengji-legal") == 40
