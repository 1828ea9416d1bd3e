"""Claims kept in memory (``ResultStore.claim_digests(..., lazy=True)``, the runner's claims
of a fast task; ``engines.batch.store_claims``): not written while the run is alone on its
task, written as soon as it sees another run of the task, which waits for them; a position
is never solved twice by runs that overlap, nor stored twice."""

from __future__ import annotations

import dataclasses
import sqlite3
import threading
import time

import pytest
from tests.batch.test_batch_packed_store import _columns, _inputs

from engines.batch.runner import run_batch
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from solvers._batch_hashes import blake2b16

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")

TASK = "shengji-legal"
# (D[k]: the digest of _columns' line k + 1, as the store hashes it)
D = [blake2b16(bytes([line]) * 3) for line in range(1, 9)]


def _claim_rows(path: str) -> int:
    with sqlite3.connect(path) as con:
        return con.execute("SELECT COUNT(*) FROM claims").fetchone()[0]


def _kept_keys(path: str) -> list[str]:
    with sqlite3.connect(path) as con:
        return [k for (k,) in con.execute("SELECT key FROM meta WHERE key GLOB 'claims_kept:*'")]


def _ended(store: ResultStore, run: int) -> None:
    store.end_run(run, computed=0, skipped=0, bad_inputs=0, status="finished")


def test_claims_are_kept_in_memory_while_the_run_is_alone_on_its_task(tmp_path):
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store, ResultStore(path) as other:
        assert store.payload_hashes(TASK, want=True) and other.payload_hashes(TASK, want=True)
        run = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, D[0], run, lazy=True) == bytearray(1)
        assert _claim_rows(path) == 1 and _kept_keys(path) == []  # (the run's first: written)
        assert store.claim_digests(TASK, D[1], run, lazy=True) == bytearray(1)
        other_task = store.begin_run("shuangkou-legal", ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, D[2], run, lazy=True) == bytearray(1)
        assert _claim_rows(path) == 1  # alone on its task: in memory only, and said so
        assert _kept_keys(path) == [f"claims_kept:{run}"]
        # (a second run on the same connection sees the claims kept in memory)
        same = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(D[:3]), same) == bytearray([2, 2, 2])
        _ended(store, same)
        assert store.add_packed(TASK, run, D[1], _columns(1, 2), claimed=True) == 1
        rival = other.begin_run(TASK, ["in"], workers=1, mode="x")
        # another run of the task runs: what was kept and is not stored is written, then all
        assert store.claim_digests(TASK, D[3], run, lazy=True) == bytearray(1)
        assert _claim_rows(path) == 3 and _kept_keys(path) == []
        assert other.claim_digests(TASK, b"".join(D[:5]), rival) == bytearray([2, 1, 2, 2, 0])
        assert store.claim_digests(TASK, b"".join(D[4:6]), run, lazy=True) == bytearray([2, 0])
        assert _claim_rows(path) == 5
        _ended(other, rival)
        assert store.claim_digests(TASK, D[6], run, lazy=True) == bytearray(1)
        assert _claim_rows(path) == 4  # (the rival's went with it; alone again: kept)
        assert _kept_keys(path) == [f"claims_kept:{run}"]
        _ended(store, other_task)
        _ended(store, run)
        assert _claim_rows(path) == 0 and _kept_keys(path) == []


def _keeping(store: ResultStore) -> int:
    """A run of ``store`` that keeps ``D[1:3]`` in memory."""
    run = store.begin_run(TASK, ["in"], workers=1, mode="x")
    assert store.claim_digests(TASK, D[0], run, lazy=True) == bytearray(1)
    assert store.claim_digests(TASK, b"".join(D[1:3]), run, lazy=True) == bytearray(2)
    return run


def _statements(store: ResultStore) -> list[str]:
    """The SQL statements ``store``'s connection runs from now on."""
    ran: list[str] = []
    store._db.set_trace_callback(ran.append)
    return ran


def test_a_run_alone_looks_for_kept_claims_at_its_first_claim_only(tmp_path):
    """The look in ``meta`` for other runs' kept claims is made at a run's first claim (it
    removes the keys of runs gone) and again only while another run of the task runs."""
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store, ResultStore(path) as other:
        ran = _statements(store)
        run = _keeping(store)
        assert sum("GLOB" in s for s in ran) == 1
        ran.clear()
        assert store.claim_digests(TASK, D[3], run, lazy=True) == bytearray(1)
        assert ran and not any("GLOB" in s for s in ran)
        rival = other.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, D[4], run, lazy=True) == bytearray(1)
        assert any("GLOB" in s for s in ran)  # (another run: its kept claims waited for)
        _ended(other, rival)
        _ended(store, run)


def test_a_run_alone_that_keeps_claims_claims_without_a_transaction(tmp_path):
    """While nothing changed since its last claim's transaction (SQLite's data_version: no
    other connection committed; no run began or ended here), a claim of a run that keeps
    its claims reads nothing: the transaction would find nothing new."""
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store, ResultStore(path) as other:
        assert store.payload_hashes(TASK, want=True) and other.payload_hashes(TASK, want=True)
        ran = _statements(store)
        run = _keeping(store)
        ran.clear()
        assert store.claim_digests(TASK, D[3], run, lazy=True) == bytearray(1)
        assert ran == ["PRAGMA data_version"]
        other.add_bad_input(TASK, "in", 9, "bad", 999)  # (another connection commits)
        ran.clear()
        assert store.claim_digests(TASK, D[4], run, lazy=True) == bytearray(1)
        assert "BEGIN IMMEDIATE" in ran
        ran.clear()
        assert store.claim_digests(TASK, D[5], run, lazy=True) == bytearray(1)
        assert ran == ["PRAGMA data_version"] and _claim_rows(path) == 1
        assert store.add_packed(TASK, run, D[1], _columns(1, 2), claimed=True) == 1
        rival = other.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, D[6], run, lazy=True) == bytearray(1)
        assert _kept_keys(path) == []  # (the rival seen: what was kept is written)
        assert other.claim_digests(TASK, b"".join(D), rival) == bytearray([2, 1, 2, 2, 2, 2, 2, 0])
        _ended(other, rival)
        _ended(store, run)


def test_a_run_begun_on_the_same_connection_is_seen_by_the_next_claim(tmp_path):
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store:
        run = _keeping(store)
        assert _claim_rows(path) == 1
        second = store.begin_run(TASK, ["in"], workers=1, mode="x")  # (no data_version change)
        assert store.claim_digests(TASK, D[3], run, lazy=True) == bytearray(1)
        assert _claim_rows(path) == 3 and _kept_keys(path) == []  # kept ones written, and D[3]
        _ended(store, second)
        _ended(store, run)


def _claimed_meanwhile(store: ResultStore, run: int) -> tuple[threading.Thread, list]:
    got: list = []
    thread = threading.Thread(target=lambda: got.append(
        (store.claim_digests(TASK, b"".join(D[:4]), run), time.monotonic())))  # fmt: skip
    thread.start()
    return thread, got


def test_a_claim_waits_until_another_run_writes_the_claims_it_keeps(tmp_path):
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store, ResultStore(path) as other:
        first = _keeping(store)
        second = other.begin_run(TASK, ["in"], workers=1, mode="x")
        thread, got = _claimed_meanwhile(other, second)
        time.sleep(0.3)
        assert got == []  # (waiting for the first run's claims)
        shared_at = time.monotonic()
        store.share_kept_claims(TASK, first)  # (what its runner does while a solve runs)
        thread.join(10)
        assert got[0][0] == bytearray([2, 2, 2, 0]) and got[0][1] >= shared_at
        assert _kept_keys(path) == []
        _ended(other, second)
        _ended(store, first)


def test_a_claim_waits_for_kept_claims_a_bounded_time(tmp_path, monkeypatch):
    """A run that keeps claims and never looks (stopped, stuck) holds another back only so
    long, and only once: then positions may be solved twice, never stored twice (the commits
    look them up)."""
    monkeypatch.setattr("engines.batch.store_claims.SHARE_WAIT_SECONDS", 0.3)
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store, ResultStore(path) as other:
        assert store.payload_hashes(TASK, want=True) and other.payload_hashes(TASK, want=True)
        first = _keeping(store)
        second = other.begin_run(TASK, ["in"], workers=1, mode="x")
        started = time.monotonic()
        assert other.claim_digests(TASK, b"".join(D[:4]), second) == bytearray([2, 0, 0, 0])
        assert time.monotonic() - started >= 0.3
        # once: the run's later claims wait no more for it (a stopped run, Ctrl-Z, would
        # otherwise hold back each of them by the whole wait)
        started = time.monotonic()
        assert other.claim_digests(TASK, D[4], second) == bytearray(1)
        assert time.monotonic() - started < 0.25
        assert other.add_packed(TASK, second, b"".join(D[1:4]), _columns(3, 2),
                                claimed=True) == 3  # fmt: skip
        assert store.add_packed(TASK, first, b"".join(D[:3]), _columns(3, 1),
                                claimed=True) == 1  # fmt: skip
        assert store.count(TASK) == 4


def test_the_key_of_a_run_gone_holds_nobody_back(tmp_path):
    path = str(tmp_path / "s.sqlite")
    with ResultStore(path) as store:
        first = _keeping(store)
        with sqlite3.connect(path) as con:  # (as a kill -9 leaves it, reaped by an older qipai)
            con.execute("UPDATE runs SET status='interrupted' WHERE run_id=?", (first,))
    with ResultStore(path) as other:
        second = other.begin_run(TASK, ["in"], workers=1, mode="x")
        started = time.monotonic()
        assert other.claim_digests(TASK, b"".join(D[:4]), second) == bytearray(4)
        assert time.monotonic() - started < 1 and _kept_keys(path) == []


def _stored(path: str) -> list[tuple]:
    with ResultStore.open_existing(path) as store:
        return sorted((r["source"], r["line"], r["input_hash"], r["position_id"], r["input"],
                       r["result"], r["error"]) for r in store.rows(TASK))  # fmt: skip


@pytest.mark.parametrize("packed, jobs", [(False, 1), (True, 1), (False, 2), (True, 2)])
def test_a_run_started_while_another_keeps_claims_solves_none_of_them(
    tmp_path, monkeypatch, packed, jobs
):
    """The first run holds a chunk of a claim it kept in memory (every claim after its first:
    they all come fast here) while a second run, on another connection, runs the whole
    input: the second waits for the first's claims (written by the first's runner while it
    waits for the held solve) and leaves them to it; the store ends with every row once,
    equal to a run alone's, and no position was solved twice."""
    monkeypatch.setattr("engines.batch.rows._CLAIM_SECONDS", 3600.0)
    jsonl, qpk = _inputs(tmp_path, TASK, 3000, 5)
    source = str(qpk if packed else jsonl)
    layout = "packed" if packed else "rows"
    alone = str(tmp_path / "alone.sqlite")
    run_batch([source], TASK, alone, jobs=jobs, chunk_size=64, progress=False,
              on_bad_input=None, store_layout=layout)  # fmt: skip
    real = get_task(TASK)
    held, release, calls, lock = threading.Event(), threading.Event(), [0], threading.Lock()
    solved: list[int] = []

    def solve(payloads, threads):
        with lock:
            calls[0] += 1
            hold = calls[0] == 12  # (a chunk of a claim after the first)
            solved.append(len(payloads))
        if hold:
            held.set()
            release.wait(60)
        return real.solve(payloads, threads)

    task = dataclasses.replace(real, solve=solve)
    db = str(tmp_path / "s.sqlite")
    summaries = {}

    def first() -> None:
        summaries["first"] = run_batch([source], task, db, jobs=jobs, chunk_size=64,
                                       progress=False, on_bad_input=None,
                                       store_layout=layout)  # fmt: skip

    thread = threading.Thread(target=first)
    thread.start()
    try:
        assert held.wait(60)
        time.sleep(1.0)  # (the first's finished rows committed: it waits for the held solve)
        assert _claim_rows(db) == 1  # only the first run's first claim is written
        summaries["second"] = run_batch([source], task, db, jobs=jobs, chunk_size=64,
                                        progress=False, on_bad_input=None,
                                        store_layout=layout)  # fmt: skip
    finally:
        release.set()
        thread.join(60)
    assert _stored(db) == _stored(alone)
    with ResultStore.open_existing(db) as store:
        assert store.count(TASK) == len(_stored(alone))
        assert [r["status"] for r in store.runs()] == ["finished", "finished"]
    assert _claim_rows(db) == 0 and _kept_keys(db) == []
    assert sum(solved) == len(_stored(alone)) and summaries["second"].other_run >= 64
    for summary in summaries.values():
        assert summary.unfinished == 0, summary
    assert sum(s.computed for s in summaries.values()) == len(_stored(alone))
