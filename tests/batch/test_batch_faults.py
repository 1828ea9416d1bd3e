"""The result store under faults: two writers, killed runs, damaged or foreign files, a full
disk, read-only opening.  Each fault is a ``qipai: error: FILE: …`` line, never a traceback."""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from engines.batch.runner import run_batch
from engines.batch.store import ResultStore, StoreError
from engines.batch.store_v1 import alive, is_dead
from engines.batch.tasks import Task
from engines.cli import main

# A slow task that logs every position it solves, to prove no position is solved twice.
LOGGED_TASK_SCRIPT = """
import os, sys, time
from engines.batch.tasks import Task, register_task
from engines.cli import main

def solve(payloads, threads):
    time.sleep(0.01 * len(payloads))
    with open(os.environ["SOLVED_LOG"], "a") as log:
        log.write("".join(f"{p['n']}\\n" for p in payloads))
    return [{"cube": p["n"] ** 3} for p in payloads]

register_task(Task("test-logged-cube", "test", "n cubed, logged",
                   lambda o: {"n": int(o["n"])}, solve, chunk_size=4))
sys.exit(main(sys.argv[1:]))
"""


def _summary_numbers(stderr: str) -> dict[str, int]:
    line = next(x for x in stderr.splitlines() if "positions read" in x)
    numbers: dict[str, int] = {}
    for part in line.split(";")[0].split(", "):
        words = part.split()
        value = next(int(w) for w in words if w.isdigit())
        key = " ".join(w for w in words[words.index(str(value)) + 1 :])
        numbers[key] = value
    return numbers


def test_two_writers_on_one_database_split_the_work_and_their_summaries_add_up(
    tmp_path: Path,
) -> None:
    n = 300
    inputs = tmp_path / "n.jsonl"
    inputs.write_text("".join(json.dumps({"id": f"c{i}", "n": i}) + "\n" for i in range(n)))
    script = tmp_path / "logged_cli.py"
    script.write_text(LOGGED_TASK_SCRIPT)
    db, log = tmp_path / "r.sqlite", tmp_path / "solved.log"
    cmd = [sys.executable, str(script), "batch", str(inputs), "--task", "test-logged-cube"]
    cmd += ["--db", str(db), "-j", "1", "--no-progress"]
    env = {**os.environ, "SOLVED_LOG": str(log)}
    first = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env)
    deadline = time.time() + 60
    while not log.exists() and time.time() < deadline:
        time.sleep(0.01)
    second = subprocess.run(cmd, stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    _, first_err = first.communicate(timeout=120)
    assert first.returncode == 0 and second.returncode == 0, (first_err, second.stderr)
    solved = Counter(int(x) for x in log.read_text().split())
    assert sorted(solved) == list(range(n)) and max(solved.values()) == 1  # each solved once
    totals = Counter()
    for err in (first_err, second.stderr):
        numbers = _summary_numbers(err)
        skipped = numbers.get("already stored", 0) + numbers.get(
            "left to another run computing them", 0
        )
        assert numbers["positions read"] == n == numbers["computed"] + skipped, err
        totals["computed"] += numbers["computed"]
    assert totals["computed"] == n
    with ResultStore(db) as store:
        assert store.count("test-logged-cube") == n
        assert [r["status"] for r in store.runs()] == ["finished", "finished"]
        assert store._db.execute("SELECT COUNT(*) FROM claims").fetchone()[0] == 0


def _square_task() -> Task:
    return Task("test-fault-square", "test", "x squared", lambda o: {"x": int(o["x"])},
                lambda ps, threads: [p["x"] ** 2 for p in ps], chunk_size=8)  # fmt: skip


def _inputs(tmp_path: Path, n: int = 40) -> str:
    path = tmp_path / "xs.jsonl"
    path.write_text("".join(json.dumps({"id": f"p{i}", "x": i}) + "\n" for i in range(n)))
    return str(path)


def test_a_dead_running_run_is_marked_interrupted_on_the_next_start(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:
        dead = store.begin_run("test-fault-square", ["x"], workers=1, mode="local")
        store.claim("test-fault-square", ["h1", "h2"], dead)
        # a process id that cannot be alive: the run was killed without closing its record
        store._db.execute("UPDATE runs SET pid=? WHERE run_id=?", (2**22 + 12345, dead))
        store._db.commit()
    with ResultStore(db) as store:
        run_batch([_inputs(tmp_path)], _square_task(), store, jobs=1, on_bad_input=None)
        runs = {r["run_id"]: r["status"] for r in store.runs()}
        assert runs[dead] == "interrupted" and list(runs.values())[-1] == "finished"
        assert store.claim("test-fault-square", ["h1"], 999) == (set(), set())  # released


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="no /proc on this system")
@pytest.mark.parametrize("another_user", [False, True])
def test_a_killed_run_not_yet_reaped_is_not_alive(
    monkeypatch: pytest.MonkeyPatch, another_user: bool
) -> None:
    """A run killed with kill -9 whose parent has not reaped it (a zombie, for good under an
    init that does not reap) is dead: its claims are released by the next run.  Also a run
    of another user, which ``os.kill(pid, 0)`` may not signal (PermissionError)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    real_kill = os.kill

    def refused(pid: int, sig: int) -> None:
        if pid == child.pid and sig == 0:
            raise PermissionError(1, "Operation not permitted")
        real_kill(pid, sig)

    try:
        if another_user:
            monkeypatch.setattr(os, "kill", refused)
        assert alive(child.pid)
        child.kill()
        deadline = time.monotonic() + 10
        while Path(f"/proc/{child.pid}/stat").read_bytes().split(b") ")[-1][:1] != b"Z":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert not alive(child.pid)  # (not reaped yet: os.kill(pid, 0) still succeeds)
        assert is_dead(child.pid, socket.gethostname(), time.time(), time.time())
    finally:
        monkeypatch.undo()
        child.kill()
        child.wait()


def _made_db(tmp_path: Path) -> Path:
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:
        run_batch([_inputs(tmp_path, 400)], _square_task(), store, jobs=1, on_bad_input=None)
    return db


def test_damaged_pages_end_in_a_clean_error_naming_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = _made_db(tmp_path)
    data = bytearray(db.read_bytes())
    with sqlite3.connect(db) as con:
        page = con.execute("PRAGMA page_size").fetchone()[0]
    assert len(data) > 6 * page
    data[page : 5 * page] = b"\xa5" * (4 * page)  # the header page stays, the tables go
    db.write_bytes(bytes(data))
    assert main(["results", "export", str(db)]) == 2
    assert main(["batch", _inputs(tmp_path), "--task", "shengji-legal", "--db", str(db)]) == 2
    for line in capsys.readouterr().err.splitlines():
        assert line.startswith(f"qipai: error: {db}: the result database is damaged"), line
        assert ".recover" in line


def test_a_foreign_sqlite_file_is_refused_and_left_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = tmp_path / "app.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE results (player TEXT, score INTEGER)")
    con.execute("INSERT INTO results VALUES ('ana', 3)")
    con.commit()
    con.close()
    before = db.read_bytes()
    argv = ["batch", _inputs(tmp_path), "--task", "shengji-legal", "--db", str(db)]
    assert main(argv) == 2
    assert main(["results", "export", str(db)]) == 2
    err = capsys.readouterr().err
    assert f"qipai: error: {db}: this SQLite file is not a qipai result database" in err
    assert "left untouched" in err and "Traceback" not in err
    assert db.read_bytes() == before and not Path(f"{db}-wal").exists()


def test_a_full_disk_is_a_store_error_that_keeps_the_stored_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # small commits, so that several fit in the room left before the disk is "full"
    monkeypatch.setattr("engines.batch.runner._COMMIT_ROWS", 256)
    db = tmp_path / "r.sqlite"
    store = ResultStore(db)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    room = max(2, 40 * 4096 // store._db.execute("PRAGMA page_size").fetchone()[0])
    # SQLite's own limit on the file size fails writes exactly as a full disk does
    store._db.execute(f"PRAGMA max_page_count = {pages + room}")
    with pytest.raises(StoreError, match=r"the disk is full .*rerun the same command"):
        run_batch([_inputs(tmp_path, 3000)], _square_task(), store, jobs=1, on_bad_input=None)
    stored = store.count()
    store.close()
    assert 0 < stored < 3000
    with ResultStore(db) as again:
        summary = run_batch([_inputs(tmp_path, 3000)], _square_task(), again, jobs=1,
                            on_bad_input=None)  # fmt: skip
        assert (summary.already_stored, summary.computed) == (stored, 3000 - stored)


def test_export_and_report_open_the_database_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = _made_db(tmp_path)
    before = (db.read_bytes(), db.stat().st_mtime_ns)
    with ResultStore.open_existing(db) as store:
        assert store.readonly and store.count() == 400
        with pytest.raises(StoreError, match="cannot write"):
            store.begin_run("x", [], workers=1, mode="local")
    assert main(["results", "export", str(db), "-o", str(tmp_path / "out.jsonl")]) == 0
    assert main(["report", str(db), "--no-plots"]) == 0
    assert (db.read_bytes(), db.stat().st_mtime_ns) == before
    assert "test-fault-square" in capsys.readouterr().out


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders anyway")
def test_export_works_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    db = _made_db(folder)
    folder.chmod(0o555)
    try:
        assert main(["results", "export", str(db), "-o", str(tmp_path / "out.jsonl")]) == 0
        assert len((tmp_path / "out.jsonl").read_text().splitlines()) == 400
    finally:
        folder.chmod(0o755)
