"""Tasks kept by place (schema 8): 升级's and 双扣's packed inputs keyed by their file and
record number, nothing hashed or stored of the inputs.

The rows read back equal those of packed blocks for the same file (every record, repeats
too); a run resumes after an interruption and after a killed run; two runs on one store
never solve one record; the inputs are read back from the file, and a file changed or gone
is refused by name; a store that keeps a task otherwise keeps it so.
"""

from __future__ import annotations

import io
import itertools
import os
import sqlite3
import threading

import pytest
from tests.batch.test_batch_packed_store import _inputs

from engines.batch import placed
from engines.batch.export import export
from engines.batch.runner import BatchInterrupted, run_batch
from engines.batch.store import ResultStore, StoreError
from engines.batch.store_placed import PLACED_SCHEMA_VERSION, _uncovered, mapped
from engines.errors import InputError

TASK_NAMES = ["shengji-legal", "shuangkou-legal"]


def _rows(db, task=None) -> list[dict]:
    with ResultStore.open_existing(db) as store:
        return list(store.rows(task))


def _damaged_qpk(qpk, records: list[int]) -> None:
    """Make the payloads of ``records`` (1-based) ones no layout reads (a count of 9)."""
    data = bytearray(qpk.read_bytes())
    at = data.index(b"\n") + 1
    number = 1
    while at < len(data):
        size = 3 + data[at] + data[at + 1] + 256 * data[at + 2]
        if number in records:
            data[at + size - 1] = 9
        at, number = at + size, number + 1
    qpk.write_bytes(bytes(data))


@pytest.mark.parametrize("task_name", TASK_NAMES)
def test_placed_rows_equal_packed_blocks_rows_with_every_repeat_and_bad_record(
        tmp_path, task_name, monkeypatch):  # fmt: skip
    _path, qpk = _inputs(tmp_path, task_name, 700, 5)
    _damaged_qpk(qpk, [1, 2, 77, 300, 301, 699])
    qpk = str(qpk)
    for jobs in (1, 2):
        by_place, packed_db = tmp_path / f"a{jobs}.sqlite", tmp_path / f"p{jobs}.sqlite"
        got = run_batch([qpk], task_name, str(by_place), jobs=jobs, progress=False,
                        chunk_size=64, on_bad_input=None)  # fmt: skip
        ref = run_batch([qpk], task_name, str(packed_db), jobs=jobs, progress=False,
                        store_layout="packed", on_bad_input=None)  # fmt: skip
        assert (got.positions, got.rejected, got.duplicates) == (ref.positions, 6, 0)
        assert got.computed == ref.computed + ref.duplicates > 600
        rows, reference = _rows(by_place), _rows(packed_db)
        assert [r["line"] for r in rows] == sorted({r["line"] for r in rows})
        assert len(rows) == got.computed == 700 - 6
        at_line = {r["line"]: r for r in rows}
        first_of = {}
        keys = ("task", "position_id", "source", "line", "input_hash", "input", "result",
                "error")  # fmt: skip
        for r in reference:
            assert {k: at_line[r["line"]][k] for k in keys} == {k: r[k] for k in keys}
            first_of[r["input_hash"]] = r
        repeats = [r for r in rows if r["line"] not in {x["line"] for x in reference}]
        assert len(repeats) == ref.duplicates
        for r in repeats:  # (a repeat: solved again, to the same answer)
            same = first_of[r["input_hash"]]
            assert (r["input"], r["result"]) == (same["input"], same["result"])
        with ResultStore.open_existing(by_place) as store, \
                ResultStore.open_existing(packed_db) as other:  # fmt: skip
            assert store.bad_inputs() == other.bad_inputs()
            assert store.count(task_name) == len(rows) and store.tasks() == [task_name]
            version = store._db.execute("SELECT value FROM meta WHERE key='schema_version'")
            assert version.fetchone()[0] == str(PLACED_SCHEMA_VERSION)
            # nothing of the inputs is stored
            assert not store._has_packed()
            assert store._db.execute("SELECT COUNT(*) FROM blocks").fetchone()[0] == 0
        again = run_batch([qpk], task_name, str(by_place), jobs=jobs, progress=False,
                          on_bad_input=None)  # fmt: skip
        assert (again.computed, again.already_stored) == (0, 700)


@pytest.mark.parametrize("held", [2, 3])
def test_an_interrupted_run_resumes_where_it_stopped(tmp_path, monkeypatch, held):
    """Ctrl-C (here: at the fourth chunk) drops the chunks not started and stores those being
    solved.  With one helper thread, chunk ``held``'s solve is held until the run collects it
    after the Ctrl-C: held=3, the three chunks submitted have started and are stored; held=2,
    the third is still queued behind the second, so it is dropped, never solved."""
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 900, 6)
    db = str(tmp_path / "r.sqlite")
    submit, collect, solve = placed.PlacedRun._submit, placed.PlacedRun._collect, \
        placed._timed_solve  # fmt: skip
    submitted, solves = [], []
    started, release, interrupting = threading.Event(), threading.Event(), []

    def interrupted_at_the_fourth(self, chunk):
        if len(submitted) == 3:
            started.wait()  # (chunk ``held`` is being solved, not queued)
            interrupting.append(True)
            raise KeyboardInterrupt
        submitted.append((chunk.first, chunk.last))
        submit(self, chunk)

    def counted_solve(task, payloads, threads):
        solves.append(len(payloads))
        if len(solves) == held:
            started.set()
            # (bounded only so that a broken interrupt fails rather than hangs the tests)
            release.wait(60)
        return solve(task, payloads, threads)

    def collect_released(self, future):
        if interrupting:
            release.set()
        collect(self, future)

    monkeypatch.setattr(placed.PlacedRun, "_submit", interrupted_at_the_fourth)
    monkeypatch.setattr(placed.PlacedRun, "_collect", collect_released)
    monkeypatch.setattr(placed, "_timed_solve", counted_solve)
    with pytest.raises(BatchInterrupted) as info:
        run_batch([str(qpk)], "shuangkou-legal", db, jobs=1, progress=False, chunk_size=100)
    first = info.value.summary
    assert submitted == [(1, 100), (101, 200), (201, 300)]
    assert solves == [100] * held and first.computed == 100 * held
    assert [r["line"] for r in _rows(db)] == list(range(1, 100 * held + 1))
    for name, original in (("_submit", submit), ("_collect", collect)):
        monkeypatch.setattr(placed.PlacedRun, name, original)
    del solves[:]
    rest = run_batch([str(qpk)], "shuangkou-legal", db, jobs=1, progress=False)
    assert (rest.already_stored, rest.computed) == (first.computed, 900 - first.computed)
    assert sum(solves) == 900 - first.computed  # (no record solved twice)
    assert [r["line"] for r in _rows(db)] == list(range(1, 901))
    with ResultStore(db) as store:
        assert [r["status"] for r in store.runs()] == ["interrupted", "finished"]
        assert store._db.execute("SELECT COUNT(*) FROM placed_claims").fetchone()[0] == 0


def test_a_killed_runs_claims_are_released_and_a_live_runs_are_left(tmp_path):
    _path, qpk = _inputs(tmp_path, "shengji-legal", 600, 7)
    db = str(tmp_path / "r.sqlite")
    assert run_batch([str(qpk)], "shengji-legal", db, jobs=1, progress=False,
                     chunk_size=50).computed == 600  # fmt: skip
    fresh = str(tmp_path / "fresh.sqlite")
    with ResultStore(fresh) as store:
        assert store.by_place("shengji-legal", want=True)
        fid = store.placed_file("shengji-legal", mapped(str(qpk)))
        live = store.begin_run("shengji-legal", [str(qpk)], workers=1, mode="local")
        dead = store.begin_run("shengji-legal", [str(qpk)], workers=1, mode="local")
        assert store.claim_places("shengji-legal", fid, 101, 200, live, ) == ([(101, 200)], [])
        assert store.claim_places("shengji-legal", fid, 151, 400, dead) == ([(201, 400)],
                                                                            [(151, 200)])
        # the second was killed: a process id that cannot be alive
        store._db.execute("UPDATE runs SET pid=? WHERE run_id=?", (2**22 + 12345, dead))
        store._db.commit()
    summary = run_batch([str(qpk)], "shengji-legal", fresh, jobs=1, progress=False)
    assert (summary.computed, summary.other_run) == (500, 100)
    lines = [r["line"] for r in _rows(fresh)]
    assert lines == [n for n in range(1, 601) if not 101 <= n <= 200]
    with ResultStore(fresh) as store:
        runs = {r["run_id"]: r["status"] for r in store.runs()}
        assert (runs[live], runs[dead]) == ("running", "interrupted")
        store.end_run(live, computed=0, skipped=0, bad_inputs=0, status="finished")
    rest = run_batch([str(qpk)], "shengji-legal", fresh, jobs=2, progress=False)
    assert (rest.computed, rest.already_stored) == (100, 500)
    keys = ("line", "position_id", "input", "result")
    assert [[r[k] for k in keys] for r in _rows(fresh)] == \
        [[r[k] for k in keys] for r in _rows(db)]  # fmt: skip


def test_two_runs_on_one_store_solve_each_record_once(tmp_path, monkeypatch):
    """The second run starts while the first holds claims it has not solved yet."""
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 6000, 8)
    db = str(tmp_path / "r.sqlite")
    monkeypatch.setattr(placed, "FIRST_CLAIM", 1000)
    monkeypatch.setattr(placed, "MOST_CLAIM", 1000)
    submit, other = placed.PlacedRun._submit, []

    def second_run_meanwhile(self, chunk):
        if not other:
            other.append(None)
            with ResultStore(db) as store:
                other[0] = run_batch([str(qpk)], "shuangkou-legal", store, jobs=1,
                                     progress=False)  # fmt: skip
        submit(self, chunk)

    monkeypatch.setattr(placed.PlacedRun, "_submit", second_run_meanwhile)
    first = run_batch([str(qpk)], "shuangkou-legal", db, jobs=1, progress=False)
    second = other[0]
    assert first.computed + second.computed == 6000
    assert second.other_run == first.computed and first.already_stored == second.computed
    assert 0 < first.computed < 6000  # (the first claims a block of records ahead)
    with ResultStore.open_existing(db) as store:
        ranges = store._db.execute("SELECT first, last, size FROM placed_blocks ORDER BY "
                                   "first").fetchall()  # fmt: skip
    assert sum(size for *_, size in ranges) == 6000
    assert all(a[1] < b[0] for a, b in itertools.pairwise(ranges))  # no record twice
    assert [r["line"] for r in _rows(db)] == list(range(1, 6001))


def test_exports_read_the_inputs_back_and_refuse_a_changed_or_missing_file(tmp_path):
    _path, qpk = _inputs(tmp_path, "shengji-legal", 300, 9)
    db = str(tmp_path / "r.sqlite")
    run_batch([str(qpk)], "shengji-legal", db, jobs=1, progress=False)
    with ResultStore.open_existing(db) as store:
        assert export(store, io.StringIO(), "jsonl") == 300
    original = qpk.read_bytes()
    changed = bytearray(original)
    changed[-1] ^= 1
    qpk.write_bytes(bytes(changed))
    with ResultStore.open_existing(db) as store, pytest.raises(StoreError) as info:
        list(store.rows())
    assert str(qpk) in str(info.value) and "has changed since" in str(info.value)
    os.unlink(qpk)
    with ResultStore.open_existing(db) as store, pytest.raises(StoreError) as info:
        list(store.rows())
    assert str(qpk) in str(info.value) and "cannot be read" in str(info.value)
    moved = tmp_path / "moved.qpk"
    moved.write_bytes(original)  # the same content under another name: found again by a run
    again = run_batch([str(moved)], "shengji-legal", db, jobs=1, progress=False)
    assert (again.computed, again.already_stored) == (0, 300)
    assert {r["source"] for r in _rows(db)} == {str(moved)}


def test_a_store_keeps_each_task_as_it_has_it(tmp_path):
    path, qpk = _inputs(tmp_path, "shengji-legal", 200, 10)
    packed_db, placed_db = str(tmp_path / "p.sqlite"), str(tmp_path / "a.sqlite")
    run_batch([str(qpk)], "shengji-legal", packed_db, jobs=1, progress=False,
              store_layout="packed")  # fmt: skip
    again = run_batch([str(qpk)], "shengji-legal", packed_db, jobs=1, progress=False)
    assert again.already_stored > 150 and again.computed == 0  # still packed blocks
    with ResultStore(packed_db) as store:
        assert not store._has_placed()
    run_batch([str(qpk)], "shengji-legal", placed_db, jobs=1, progress=False)
    for layout in ("rows", "packed"):
        with pytest.raises(InputError, match="stored here by place"):
            run_batch([str(qpk)], "shengji-legal", placed_db, jobs=1, progress=False,
                      store_layout=layout)  # fmt: skip
    with pytest.raises(InputError, match="stored here by place"):
        run_batch([str(path)], "shengji-legal", placed_db, jobs=1, progress=False)
    with pytest.raises(InputError, match="store layout placed needs"):
        run_batch([str(qpk)], "shengji-legal", packed_db, jobs=1, progress=False,
                  store_layout="placed")  # fmt: skip
    # another task of the same store: rows as ever
    sk_path, _sk = _inputs(tmp_path, "shuangkou-legal", 50, 11, "sk")
    assert run_batch([str(sk_path)], "shuangkou-legal", placed_db, jobs=1,
                     progress=False).computed > 40  # fmt: skip
    con = sqlite3.connect(placed_db)
    assert con.execute("SELECT COUNT(*) FROM blocks WHERE task='shuangkou-legal'").fetchone()[0]
    con.close()


def test_uncovered_ranges():
    assert _uncovered(5, 9, []) == [(5, 9)]
    assert _uncovered(5, 9, [(1, 4), (10, 12)]) == [(5, 9)]
    assert _uncovered(5, 9, [(5, 9)]) == []
    assert _uncovered(5, 9, [(7, 7), (1, 5)]) == [(6, 6), (8, 9)]


@pytest.mark.parametrize("task_name", TASK_NAMES)
def test_the_check_without_compact_forms_refuses_the_same_records(tmp_path, task_name):
    """``packed_records(..., compact=False)`` (a run by place) checks each payload byte by byte
    where the default reads where its bytes over 2 are from the compact form it writes."""
    import random

    from engines.batch.tasks import get_task
    from solvers._records import packed_records

    _path, qpk = _inputs(tmp_path, task_name, 1500, 12)
    spec = get_task(task_name).records().spec
    clean = qpk.read_bytes()
    clean = clean[clean.index(b"\n") + 1 :]
    rng = random.Random(13)
    refused = 0
    for _ in range(20):
        data = bytearray(clean)
        for _ in range(300):
            data[rng.randrange(len(data))] = rng.choice([0, 1, 2, 3, 7, 200, 255])
        status, ids, packs, _forms, digests, lines = packed_records(spec, bytes(data), 1, False,
                                                                    True, False, False)
        want = packed_records(spec, bytes(data), 1, False, True, True, True)
        assert (status, ids, packs, lines) == (want[0], want[1], want[2], want[5])
        assert digests == b""
        refused += len(status) - status.count(0)
    assert refused > 1000


def test_one_file_twice_in_a_run_is_solved_once(tmp_path):
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 400, 14)
    twin = tmp_path / "twin.qpk"
    twin.write_bytes(qpk.read_bytes())
    db = str(tmp_path / "r.sqlite")
    summary = run_batch([str(qpk), str(twin)], "shuangkou-legal", db, jobs=1, progress=False,
                        chunk_size=64)  # fmt: skip
    assert (summary.positions, summary.computed, summary.already_stored) == (800, 400, 400)
    assert [r["line"] for r in _rows(db)] == list(range(1, 401))
