"""Packed blocks (schema 6): a task read from packed files stored as its columns, hashed by
its payloads.

The rows read back (``ResultStore.rows``: ``qipai results``, export, report) equal those of
the rows layout but for the input hash, which is the payload's BLAKE2b digest; a store
records which hash each task uses and refuses inputs that would mix them; it resumes, and a
damaged block is an error naming the file, never a crash.
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import io
import itertools
import json
import random
import re
import sqlite3
import struct
import tracemalloc
from array import array

import numpy as np
import pytest
from tests.batch.test_batch_records import CASES

from engines.batch import store_packed
from engines.batch.export import export
from engines.batch.packed import header, write_packed
from engines.batch.report import summary_text
from engines.batch.runner import run_batch
from engines.batch.store import ResultRow, ResultStore, StoreError
from engines.batch.store_packed import block_order, block_rows
from engines.batch.store_read import _record_spec
from engines.batch.tasks import TASKS, get_task, register_task
from engines.errors import InputError
from solvers._batch_columns import Strings, expanded_payloads
from solvers._batch_hashes import blake2b16
from solvers._batch_store import distinct_items, distinct_texts
from solvers._records import unpacked_texts

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")

TASK_NAMES = ["shengji-legal", "shuangkou-legal"]


def _inputs(tmp_path, task_name: str, n: int, seed: int, name: str = "in"):
    path = tmp_path / f"{name}.jsonl"
    cases = list(CASES[task_name](n, seed))
    for case in cases[::7]:
        case.pop("id", None)  # ids named after the file and line
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    qpk = tmp_path / f"{name}.qpk"
    with open(qpk, "wb") as handle:
        write_packed(get_task(task_name), [str(path)], handle, lambda *_: None)
    return path, qpk


def _compact(payload: bytes) -> bytes:
    """The compact form of a payload, as the store keeps and hashes it: the length (2 bytes),
    2 bits a byte (3: the byte follows the symbols), the bytes of 3 or more."""
    symbols, extra = bytearray((len(payload) + 3) // 4), bytearray()
    for i, v in enumerate(payload):
        symbols[i >> 2] |= min(v, 3) << (2 * (i & 3))
        if v >= 3:
            extra.append(v)
    return struct.pack("<H", len(payload)) + bytes(symbols) + bytes(extra)


def _ends(items: list[bytes]) -> bytes:
    return struct.pack(f"<{len(items)}q", *itertools.accumulate(map(len, items)))


def test_compact_payloads_read_back_and_damaged_ones_are_refused():
    rng = random.Random(11)
    payloads = [bytes(rng.choice([0, 0, 0, 1, 2, 3, 7, 255]) for _ in range(rng.randrange(60)))
                for _ in range(400)] + [b"", bytes(180), bytes([2] * 64)]  # fmt: skip
    forms = [_compact(p) for p in payloads]
    data, ends = expanded_payloads(b"".join(forms), _ends(forms))
    assert data == b"".join(payloads) and ends == _ends(payloads)
    refused = 0
    for form in forms[:200]:
        for _ in range(5):
            bad = bytearray(form)
            if rng.random() < 0.3 or not bad:
                bad = bad[: rng.randrange(len(bad) + 1)] + bytes(rng.randrange(3))
            else:
                bad[rng.randrange(len(bad))] = rng.randrange(256)
            try:
                got, _ = expanded_payloads(bytes(bad), _ends([bytes(bad)]))
            except ValueError:
                refused += 1
                continue
            assert _compact(got) == bytes(bad)  # only a compact form is read
    assert refused > 200


def _rows(db, task=None) -> list[tuple]:
    with ResultStore.open_existing(db) as store:
        return [(r["task"], r["position_id"], r["line"], r["input"], r["result"], r["error"])
                for r in store.rows(task)]  # fmt: skip


@pytest.mark.parametrize("task_name", TASK_NAMES)
def test_packed_blocks_read_back_as_rows_and_resume(tmp_path, task_name):
    path, qpk = _inputs(tmp_path, task_name, 500, 3)
    for jobs in (1, 2):
        packed_db, rows_db = tmp_path / f"p{jobs}.sqlite", tmp_path / f"r{jobs}.sqlite"
        packed = run_batch([str(qpk)], task_name, str(packed_db), jobs=jobs, progress=False,
                           chunk_size=64)  # fmt: skip
        plain = run_batch([str(qpk)], task_name, str(rows_db), jobs=jobs, progress=False,
                          store_layout="rows")  # fmt: skip
        assert packed.computed == plain.computed > 400
        assert packed.duplicates == plain.duplicates
        # the same rows but for the input hash (and the line: a record's number either way)
        assert _rows(packed_db) == _rows(rows_db)
        with ResultStore.open_existing(packed_db) as store:
            assert store.input_hashes(task_name) == "payload"
            assert store.count(task_name) == packed.computed
            assert store.tasks() == [task_name]
            hashes = {r["input_hash"] for r in store.rows()}
        with ResultStore.open_existing(rows_db) as store:
            assert store.input_hashes(task_name) == "text"
            assert hashes.isdisjoint(r["input_hash"] for r in store.rows())
        layout = get_task(task_name).records()
        status, _texts, _ids, packs = layout.scan(path.read_text().splitlines())
        read = [p for p, state in zip(packs, status) if state == 0]
        _status, (forms, _form_ends), _digests = unpacked_texts(layout.spec, b"".join(read),
                                                                _ends(read), False)  # fmt: skip
        assert forms == b"".join(map(_compact, read))
        assert hashes == {hashlib.blake2b(_compact(p), digest_size=16).hexdigest()
                          for p, state in zip(packs, status) if state == 0}  # fmt: skip
        again = run_batch([str(qpk)], task_name, str(packed_db), jobs=jobs, progress=False)
        assert (again.computed, again.already_stored) == (0, packed.computed)
    with sqlite3.connect(packed_db) as db:
        assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("7",)


def test_a_packed_run_resumes_an_interrupted_one(tmp_path):
    task_name = "shengji-legal"
    _path, qpk = _inputs(tmp_path, task_name, 600, 5)
    data = qpk.read_bytes()
    head = data.index(b"\n") + 1
    first = tmp_path / "first.qpk"
    first.write_bytes(data[: head + (len(data) - head) // 3])  # cut inside a record
    db = tmp_path / "s.sqlite"
    part = run_batch([str(first)], task_name, str(db), jobs=2, progress=False,
                     on_bad_input=None)  # fmt: skip
    whole = run_batch([str(qpk)], task_name, str(db), jobs=1, progress=False)
    assert part.computed > 100 and whole.already_stored == part.computed
    fresh = tmp_path / "fresh.sqlite"
    once = run_batch([str(qpk)], task_name, str(fresh), jobs=1, progress=False)
    assert once.computed == part.computed + whole.computed
    assert _rows(db) == _rows(fresh)


def test_mixing_hashes_is_refused(tmp_path):
    task_name = "shuangkou-legal"
    path, qpk = _inputs(tmp_path, task_name, 100, 6)
    db = str(tmp_path / "s.sqlite")
    run_batch([str(qpk)], task_name, db, jobs=1, progress=False)
    # (naming the command that packs them as qipai pack reads its arguments)
    with pytest.raises(InputError, match=rf"inputs must be packed too \(qipai pack --task "
                       rf"{task_name} -o IN\.qpk IN\.jsonl\)"):  # fmt: skip
        run_batch([str(path)], task_name, db, jobs=1, progress=False)
    with pytest.raises(InputError, match="stored here as packed blocks"):
        run_batch([str(qpk)], task_name, db, jobs=1, progress=False, store_layout="rows")
    with pytest.raises(InputError, match="needs packed inputs"):
        run_batch([str(path)], task_name, db, jobs=1, progress=False, store_layout="packed")
    # a store that holds the task's rows keeps text hashes for packed inputs too
    other = str(tmp_path / "o.sqlite")
    run_batch([str(path)], task_name, other, jobs=1, progress=False)
    again = run_batch([str(qpk)], task_name, other, jobs=1, progress=False)
    assert again.computed == 0 and again.already_stored > 80
    with pytest.raises(InputError, match="hashed by their text"):
        run_batch([str(qpk)], task_name, other, jobs=1, progress=False, store_layout="packed")
    with ResultStore.open_existing(other) as store:
        assert store.input_hashes(task_name) == "text"
    # a run that chose text hashes meets a packed choice made meanwhile: its claims refuse
    _claims_meet_another_choice(tmp_path / "late.sqlite", task_name, False, "packed payloads")
    with pytest.raises(InputError, match="store_layout must be"):
        run_batch([str(qpk)], task_name, other, jobs=1, progress=False, store_layout="x")


def test_rows_added_by_the_api_to_a_packed_task_are_refused(tmp_path):
    task_name = "shengji-legal"
    _, qpk = _inputs(tmp_path, task_name, 50, 3)
    db = str(tmp_path / "s.sqlite")
    run_batch([str(qpk)], task_name, db, jobs=1, progress=False)
    row = ResultRow(task_name, "ab" * 16, "p1", "f.jsonl", 1, {"x": 1}, {"y": 2}, None, 0.25)
    with ResultStore(db) as store:
        before = store.count(task_name)
        run = store.begin_run(task_name, ["f.jsonl"], workers=1, mode="local")
        with pytest.raises(StoreError, match="stored here as packed blocks"):
            store.add([row], run)
        assert store.count(task_name) == before
        # another task in the same store still takes rows
        assert store.add([dataclasses.replace(row, task="t")], run) == 1


def _claims_meet_another_choice(db, task_name: str, payloads: bool, then: str) -> None:
    """A run chooses ``payloads`` (or text) hashes, another run the other before the first
    claims: its claim is refused, naming the hashing the task has now (``then``)."""
    with ResultStore(db) as store:
        assert store.payload_hashes(task_name, want=payloads) is payloads
        with ResultStore(db) as other:
            assert other.payload_hashes(task_name, want=not payloads) is not payloads
        run = store.begin_run(task_name, ["in"], workers=1, mode="x")
        with pytest.raises(StoreError, match=f"hashed by its {then} here meanwhile"):
            store.claim_digests(task_name, bytes(16), run)


def test_other_tasks_rows_are_unchanged_and_read_in_order(tmp_path):
    """A store of rows (schema 4) gets packed blocks of another task: schema 6, the first
    task's rows as they were, every row read in task order."""
    _p1, qpk = _inputs(tmp_path, "shengji-legal", 200, 7, "a")
    plain, _q2 = _inputs(tmp_path, "shuangkou-legal", 200, 7, "b")
    db = str(tmp_path / "s.sqlite")
    run_batch([str(plain)], "shuangkou-legal", db, jobs=1, progress=False)
    with sqlite3.connect(db) as con:
        before = con.execute("SELECT * FROM blocks").fetchall()
    assert _rows(db)[0][0] == "shuangkou-legal"
    run_batch([str(qpk)], "shengji-legal", db, jobs=2, progress=False)
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT * FROM blocks").fetchall() == before
    rows = _rows(db)
    assert [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert _rows(db, "shuangkou-legal") == [r for r in rows if r[0] == "shuangkou-legal"]
    with ResultStore.open_existing(db) as store:
        assert store.tasks() == ["shengji-legal", "shuangkou-legal"]
        text = summary_text(store)
    assert text.count("stored as packed blocks") == 1


def test_solver_errors_are_stored_in_packed_blocks(tmp_path):
    base = get_task("shengji-legal")

    def solve(payloads, threads):
        if len(payloads) > 1:
            raise RuntimeError("one at a time")  # then solved one by one
        if payloads[0][-1] % 3 == 0:
            raise ValueError("refused here")
        return base.solve(payloads, threads)

    name = "test-packed-errors"
    task = TASKS[name] if name in TASKS else register_task(
        dataclasses.replace(base, name=name, solve=solve, payload_columns=False))
    path, _ = _inputs(tmp_path, "shengji-legal", 60, 8)
    qpk = tmp_path / "e.qpk"
    with open(qpk, "wb") as handle:
        write_packed(task, [str(path)], handle, lambda *_: None)
    assert qpk.read_bytes().startswith(header(task))
    db = str(tmp_path / "s.sqlite")
    summary = run_batch([str(qpk)], task, db, jobs=1, progress=False)
    assert 0 < summary.solver_errors < summary.computed
    rows = [r for r in ResultStore.open_existing(db).rows()]
    refused = [r for r in rows if r["error"] is not None]
    assert len(refused) == summary.solver_errors
    assert all(r["result"] is None and "refused here" in r["error"] for r in refused)
    assert all(r["result"] is not None for r in rows if r["error"] is None)


def test_damaged_packed_blocks_are_errors_not_crashes(tmp_path):
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 120, 9)
    db = tmp_path / "s.sqlite"
    total = run_batch([str(qpk)], "shuangkou-legal", str(db), jobs=1, progress=False).computed
    with sqlite3.connect(db) as con:
        good = con.execute("SELECT block_id, * FROM packed_blocks").fetchone()
        names = [d[0] for d in con.execute("SELECT * FROM packed_blocks").description]
    rng = random.Random(3)
    blobs = [i for i, name in enumerate(names) if name in ("digests", "ids", "id_sizes", "lines",
             "payloads", "payload_sizes", "results", "result_sizes", "result_codes", "errors",
             "seconds", "second_codes")]
    failures = sync_failures = 0
    for trial in range(120):
        column = rng.choice(blobs)
        value = bytearray(good[1 + column])
        if value and trial % 3:
            for _ in range(rng.randint(1, 4)):
                value[rng.randrange(len(value))] = rng.randrange(256)
        else:
            value = value[: rng.randrange(len(value) + 1)] + bytes(rng.randrange(3))
        with sqlite3.connect(db) as con:
            con.execute(f"UPDATE packed_blocks SET {names[column]}=? WHERE block_id=?",
                        (bytes(value), good[0]))  # fmt: skip
        try:
            rows = list(ResultStore.open_existing(db).rows())
            assert len(rows) == total
        except StoreError as exc:
            failures += 1
            assert "damaged" in str(exc) and f"packed block {good[0]} of task" in str(exc)
        try:  # (the stored hashes, which schema 7 reads from the payloads and their sizes)
            with ResultStore.open_existing(db) as store:
                store.done_hashes("shuangkou-legal", ["00"])
        except StoreError as exc:
            sync_failures += 1
            assert "damaged" in str(exc) and f"packed block {good[0]} of task" in str(exc)
        with sqlite3.connect(db) as con:
            con.execute(f"UPDATE packed_blocks SET {names[column]}=? WHERE block_id=?",
                        (good[1 + column], good[0]))  # fmt: skip
    assert failures > 20 and sync_failures > 5


def _export_text(db, task=None) -> str:
    out = io.StringIO()
    with ResultStore.open_existing(db) as store:
        export(store, out, "jsonl", task=task)
    return out.getvalue()


def test_an_export_of_many_blocks_holds_a_few_at_a_time(tmp_path, monkeypatch):
    """Blocks are read lazily, in the order of their first lines, a slice at a time: the
    export equals the eager merge of every block (byte for byte), and its memory peak stays
    that of a few blocks however many the store holds."""
    _path, qpk = _inputs(tmp_path, "shengji-legal", 400, 4)
    plain, _q = _inputs(tmp_path, "shuangkou-legal", 100, 4, "b")
    db = str(tmp_path / "s.sqlite")
    run_batch([str(qpk)], "shengji-legal", db, jobs=2, progress=False, chunk_size=32)
    run_batch([str(plain)], "shuangkou-legal", db, jobs=1, progress=False)
    with sqlite3.connect(db) as con:  # 40 more sources, newest first (block ids out of order)
        names = [d[0] for d in con.execute("SELECT * FROM packed_blocks").description][1:]
        columns = ", ".join(names)
        for k in range(40, 0, -1):
            con.execute(f"INSERT INTO packed_blocks ({columns}) SELECT "
                        + columns.replace("source", f"'f{k:02d}.qpk' || source", 1)
                        + " FROM packed_blocks WHERE source NOT LIKE 'f%'")  # fmt: skip
    with ResultStore.open_existing(db) as store:
        order = block_order(store._db, None)
        eager = heapq.merge(
            *(block_rows(store._db, key[3], _record_spec, store._damaged) for key in order),
            store.rows("shuangkou-legal"),
            key=lambda r: (r["task"], r["source"], r["line"], r["position_id"]))  # fmt: skip
        want = _Sink()
        export(_Rows(list(eager)), want, "jsonl")
    monkeypatch.setattr(store_packed, "READ_SLICE", 50)
    got = _Sink()
    tracemalloc.start()
    try:
        with ResultStore.open_existing(db) as store:
            export(store, got, "jsonl")
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert got.digest.digest() == want.digest.digest() and got.lines > 41 * 300
    assert peak < got.size / 16, (peak, got.size)  # (a block's columns: ~40 KB)


def test_packed_export_equals_the_rows_layouts_but_hashes_and_seconds(tmp_path):
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 300, 2)
    texts = []
    for layout in ("packed", "rows"):
        db = str(tmp_path / f"{layout}.sqlite")
        run_batch([str(qpk)], "shuangkou-legal", db, jobs=2, progress=False, chunk_size=16,
                  store_layout=layout)  # fmt: skip
        texts.append(re.sub(r'"(input_hash|seconds)": [^,]*,', "", _export_text(db)))
    assert texts[0] == texts[1] and texts[0].count("\n") > 250


class _Sink:
    """An export's output, kept as its digest, size and line count only."""

    def __init__(self):
        self.digest, self.size, self.lines = hashlib.sha256(), 0, 0

    def write(self, text: str) -> None:
        self.digest.update(text.encode())
        self.size += len(text)
        self.lines += text.count("\n")


class _Rows:
    """A store's stand-in for export: the given rows."""

    def __init__(self, rows):
        self._rows = rows

    def rows(self, task=None):
        return iter(self._rows)


@pytest.mark.parametrize("journal", ["TRUNCATE", "WAL"])
def test_a_reader_part_way_through_packed_blocks_holds_no_commit_back(tmp_path, monkeypatch,
                                                                      journal):  # fmt: skip
    """A reader opens blocks as it goes: a run that stores more blocks meanwhile commits (no
    lock held between the reader's statements), and the reader gives the rows that were
    there when it began."""
    import engines.batch.store as store_module

    monkeypatch.setattr(store_module, "JOURNAL_MODE", journal)
    monkeypatch.setattr(store_module, "BUSY_SECONDS", 0.5)  # a held lock fails the commit
    monkeypatch.setattr(store_packed, "READ_SLICE", 20)
    _p1, first = _inputs(tmp_path, "shengji-legal", 300, 1, "a")
    _p2, second = _inputs(tmp_path, "shengji-legal", 300, 2, "b")
    db = str(tmp_path / "s.sqlite")
    before = run_batch([str(first)], "shengji-legal", db, jobs=2, progress=False, chunk_size=16)
    want = _rows(db)
    with ResultStore.open_existing(db) as reader:
        rows = reader.rows()
        head = next(rows)
        more = run_batch([str(second)], "shengji-legal", db, jobs=1, progress=False)
        got = [head, *rows]
    assert more.computed > 100 and len(got) == before.computed == len(want)
    assert [(r["task"], r["position_id"], r["line"], r["input"], r["result"], r["error"])
            for r in got] == want  # fmt: skip
    assert len(_rows(db)) == before.computed + more.computed


def test_a_store_opened_before_another_run_packs_a_task_reads_its_blocks(tmp_path):
    """A connection opened while the store had no packed blocks (a long-lived ResultStore,
    a second run's) sees the blocks another process writes later: counts, tasks, rows and
    stored hashes, as a connection opened afterwards does."""
    task_name = "shuangkou-legal"
    _path, qpk = _inputs(tmp_path, task_name, 80, 4)
    db = str(tmp_path / "s.sqlite")
    with ResultStore(db) as early:
        done = run_batch([str(qpk)], task_name, db, jobs=1, progress=False).computed
        with ResultStore.open_existing(db) as late:
            rows = list(late.rows())
        assert done > 50 and len(rows) == done
        assert early.count(task_name) == done and early.tasks() == [task_name]
        assert list(early.rows()) == rows
        hashes = [r["input_hash"] for r in rows]
        assert early.done_hashes(task_name, hashes) == set(hashes)


def test_packed_blocks_of_a_task_this_qipai_lacks_are_a_store_error(tmp_path, monkeypatch):
    """A packed task that is not registered in the reading process (a task registered by
    the user's code, exported with plain ``qipai results export``): the export ends in a
    StoreError naming the store and the task, not an unknown ``--task`` error."""
    name = "test-packed-unregistered"
    if name not in TASKS:
        register_task(dataclasses.replace(get_task("shengji-legal"), name=name))
    path, _ = _inputs(tmp_path, "shengji-legal", 30, 2)
    qpk = tmp_path / "u.qpk"
    with open(qpk, "wb") as handle:
        write_packed(TASKS[name], [str(path)], handle, lambda *_: None)
    db = tmp_path / "s.sqlite"
    assert run_batch([str(qpk)], name, str(db), jobs=1, progress=False).computed > 20
    monkeypatch.delitem(TASKS._tasks, name)
    with pytest.raises(StoreError, match=rf"s\.sqlite: task {name} is stored here as packed"):
        _export_text(db)
    monkeypatch.setitem(TASKS._tasks, name, dataclasses.replace(get_task("shengji-legal"),
                                                                name=name, records=None))
    with pytest.raises(StoreError, match=rf"task {name} is stored here as packed"):
        _export_text(db)


@pytest.mark.parametrize("first_line", ["first_line + 1", "first_line - 1", "'x'"])
def test_a_damaged_first_line_is_an_error_not_rows_out_of_order(tmp_path, first_line):
    """The readers' order trusts each block's first_line: a block whose rows do not start
    there (a damaged value, or one of another type) is refused like other damage."""
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 120, 9)
    db = tmp_path / "s.sqlite"
    run_batch([str(qpk)], "shuangkou-legal", str(db), jobs=1, progress=False, chunk_size=16)
    with sqlite3.connect(db) as con:
        block = con.execute("SELECT max(block_id) FROM packed_blocks").fetchone()[0]
        con.execute(f"UPDATE packed_blocks SET first_line={first_line} WHERE block_id=?",
                    (block,))  # fmt: skip
    with pytest.raises(StoreError, match=f"packed block {block} of task shuangkou-legal is "
                       "damaged"):  # fmt: skip
        _export_text(db)


def test_a_task_with_nothing_stored_follows_the_next_runs_inputs(tmp_path):
    """The layout chosen by a run that stored and claimed nothing of the task (refused: a
    packed file of another task) does not bind the next run: JSON Lines inputs then store
    rows hashed by their text, after which a packed layout is refused as before."""
    task_name = "shengji-legal"
    path, qpk = _inputs(tmp_path, task_name, 40, 3)
    _other_path, other = _inputs(tmp_path, "shuangkou-legal", 20, 3, "other")
    db = str(tmp_path / "s.sqlite")
    with pytest.raises(InputError, match="packed for task shuangkou-legal"):
        run_batch([str(other)], task_name, db, jobs=1, progress=False)
    assert run_batch([str(path)], task_name, db, jobs=1, progress=False).computed > 30
    with ResultStore.open_existing(db) as store:
        assert store.input_hashes(task_name) == "text"
    with pytest.raises(InputError, match="hashed by their text"):
        run_batch([str(qpk)], task_name, db, jobs=1, progress=False, store_layout="packed")
    again = run_batch([str(qpk)], task_name, db, jobs=1, progress=False)
    assert again.computed == 0 and again.already_stored > 30
    # a packed run whose choice another run undid before its first claim: its claims refuse
    _claims_meet_another_choice(tmp_path / "late.sqlite", task_name, True, "canonical text")


def test_a_store_of_the_first_packed_form_is_refused_naming_it(tmp_path):
    """Schema 5 (packed blocks as a development qipai wrote them: seconds as float64, texts
    a position) reads in no other way than its own: refused by name, not misread."""
    _path, qpk = _inputs(tmp_path, "shengji-legal", 60, 2)
    db = tmp_path / "s.sqlite"
    run_batch([str(qpk)], "shengji-legal", str(db), jobs=1, progress=False)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE meta SET value='5' WHERE key='schema_version'")
    for opened in (lambda: ResultStore.open_existing(db), lambda: ResultStore(db),
                   lambda: run_batch([str(qpk)], "shengji-legal", str(db), progress=False)):
        with pytest.raises(StoreError, match=r"schema 5, packed blocks in the form of a "
                           r"development qipai .* reads schemas 1 to 4, 6 and 7"):  # fmt: skip
            opened()


@pytest.mark.parametrize(("ids", "lines", "numbered"), [
    (["gs6-000000", "gs6-000001", "gs6-000003"], [1, 2, 4], (b"gs6-", 6, -1)),
    ([f"in.jsonl:{n}" for n in range(7, 13)], range(7, 13), (b"in.jsonl:", 1, 0)),
    (["p100", "p98", "p99", "p101"], [100, 98, 99, 101], (b"p", 2, 0)),
    (["局-09", "局-10"], [9, 10], ("局-".encode(), 2, 0)),
    (["7", "8", "9", "10"], [1, 2, 3, 4], (b"", 1, 6)),
    # (consecutive lines: the digits are the last id's plus one, carries and a digit more)
    ([f"g-{n:04d}" for n in range(996, 1003)], range(996, 1003), (b"g-", 4, 0)),
    (["p98", "p99", "p100", "p101", "p7", "p8"], [98, 99, 100, 101, 7, 8], (b"p", 1, 0)),
    (["p98", "p99", "p100", "p102"], [98, 99, 100, 101], None),
    (["p0099", "p0100", "p0101", "p0111"], [99, 100, 101, 102], None),
    (["p09", "p010"], [9, 10], None),  # (zero-padded past its width)
    (["p1", "p2", "q3"], [1, 2, 3], None),
    (["p1", "p2", "p4"], [1, 2, 3], None),
    (["a", "b"], [1, 2], None),
    (["x12345678901234567890"], [1], None),
    ([], [], None),
])  # fmt: skip
def test_numbered_ids_are_kept_as_their_form_and_read_back_exactly(ids, lines, numbered):
    column, line_array = Strings.of(ids), np.array(lines, dtype=np.int64)
    assert store_packed._numbered(column, line_array.tobytes()) == numbered
    blob, sizes = store_packed._id_columns(column, line_array.tobytes())
    assert (blob == numbered[0]) if numbered else (blob, sizes) == (column.data,
                                                                    store_packed._sizes(column))
    assert store_packed._id_texts(blob, sizes, line_array, len(ids)) == ids


def test_distinct_results_and_seconds_read_back_bit_for_bit():
    seconds = [-0.0, 0.0, float("nan"), 5e-324, 1e-300, float("inf"), 0.0, -0.0, 2.5e-6]
    data, _ends, codes = distinct_items(array("d", seconds).tobytes(), None, 8)
    assert len(data) == 8 * 7
    back = store_packed._picked(np.frombuffer(data, dtype=np.float64),
                                store_packed._codes(codes), len(seconds))  # fmt: skip
    assert array("d", back).tobytes() == array("d", seconds).tobytes()
    for distinct in (3, 300, 70_000):  # (codes of 1, 2 and 4 bytes)
        texts = [f'{{"count":{i % distinct}}}' for i in range(2 * distinct)] + ["", "é"]
        column = Strings.of(texts)
        data, ends, codes = distinct_items(column.data, column.ends, 0)
        assert len(ends) == 8 * (distinct + 2)
        picked = store_packed._picked(np.array(Strings(data, ends).tolist(), dtype=object),
                                      store_packed._codes(codes), len(texts))  # fmt: skip
        assert picked == texts
    with pytest.raises(ValueError, match="codes of no distinct item"):
        store_packed._picked(np.array(["a"], dtype=object), store_packed.narrow(np.array([1])), 1)


def _columns(count: int, first_line: int) -> store_packed.PackedColumns:
    lines = list(range(first_line, first_line + count))
    ids = [f"p{line}".encode() for line in lines]
    forms = [bytes([line % 256]) * 3 for line in lines]  # (never read back: not payloads)
    return store_packed.PackedColumns.of(
        ["in"] * count, struct.pack(f"<{count}q", *lines), Strings(b"".join(ids), _ends(ids), True),
        Strings(b"".join(forms), _ends(forms), False), ["1"] * count, [None] * count,
        [0.5] * count)  # fmt: skip


def test_claimed_positions_stored_meanwhile_by_another_connection_are_stored_once(tmp_path):
    """A run's claimed positions are not looked up among the stored while nobody else stored
    since its first claim; once another connection stored (a run reaped as stale that still
    runs), they are, and what it stored is not stored again."""
    task_name, db = "shengji-legal", str(tmp_path / "s.sqlite")
    digests = [blake2b16(bytes([line]) * 3) for line in range(1, 5)]  # (_columns' forms')
    with ResultStore(db) as store, ResultStore(db) as other:
        assert store.payload_hashes(task_name, want=True)
        assert other.payload_hashes(task_name, want=True)
        run = store.begin_run(task_name, ["in"], workers=1, mode="x")
        assert store.claim_digests(task_name, b"".join(digests), run) == bytearray(4)
        assert store.add_packed(task_name, run, digests[0], _columns(1, 1), claimed=True) == 1
        alive = other.begin_run(task_name, ["in"], workers=1, mode="x")
        assert other.add_packed(task_name, alive, digests[1], _columns(1, 2)) == 1
        assert store.add_packed(task_name, run, b"".join(digests[1:]), _columns(3, 2),
                                claimed=True) == 2  # fmt: skip
        assert store.count(task_name) == 4
    with sqlite3.connect(db) as con:
        blobs = b"".join(store_packed.block_digests(con, *block) for block in
                         con.execute("SELECT block_id, digests, size FROM packed_blocks"))
    assert sorted(blobs[k : k + 16] for k in range(0, len(blobs), 16)) == sorted(digests)


def test_rows_of_a_transaction_that_failed_after_storing_them_are_not_stored_twice(
    tmp_path, monkeypatch
):
    """A packed transaction that stored its rows and then failed (say, its checkpoint): the
    runner hands its rows over again, and the store looks them up (not stored twice)."""
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 300, 4)
    monkeypatch.setattr("engines.batch.runner._COMMIT_ROWS", 4)
    stored_by, calls = ResultStore.add_packed, []

    def failing_after_the_second(self, *args, **kwargs):
        calls.append(kwargs.get("claimed"))
        new = stored_by(self, *args, **kwargs)
        if len(calls) == 2:
            raise StoreError("s.sqlite: the disk is full (test)")
        return new

    monkeypatch.setattr(ResultStore, "add_packed", failing_after_the_second)
    db = str(tmp_path / "s.sqlite")
    with pytest.raises(StoreError, match="disk is full"):
        run_batch([str(qpk)], "shuangkou-legal", db, jobs=1, progress=False, chunk_size=16)
    # (a transaction handed over before the failure was seen may skip the lookup: its rows
    # are new; the failed one's rows, handed over again, are looked up)
    assert calls[:2] == [True, True] and calls[-1] is False
    with ResultStore.open_existing(db) as store:
        hashes = [r["input_hash"] for r in store.rows("shuangkou-legal")]
        assert store.count("shuangkou-legal") == len(hashes) == len(set(hashes)) > 16


def test_distinct_texts_and_a_blocks_results_equal_distinct_items_of_the_texts():
    """distinct_texts (by object first, then by text) gives distinct_items' answer for the
    texts' UTF-8, and a part or a selection of a commit's columns stores its results as
    distinct_items of its own texts would (the block's order, its texts only)."""
    rng = random.Random(5)
    pool = ['{"legal":true}', '{"count":1}', "é", "\ud800x", "", *(f"t{k}" for k in range(40))]
    for _ in range(200):
        texts = [rng.choice(pool) if rng.random() < 0.6 else "".join(rng.choice(pool))
                 for _ in range(rng.randint(0, 1500))]  # fmt: skip
        column = Strings.of(texts)
        assert distinct_texts(texts) == distinct_items(column.data, column.ends, 0)
        if not texts:
            continue
        count = len(texts)
        columns = store_packed.PackedColumns.of(
            ["in"] * count, bytes(8 * count), column, column, texts, [None] * count, [0.0] * count)
        lo, hi = sorted(rng.sample(range(count + 1), 2)) if count > 1 else (0, 1)
        status = bytearray(rng.randint(0, 1) for _ in range(count))
        for part, kept in ((columns, texts), (columns.part(lo, hi), texts[lo:hi]),
                           (columns.chosen(status, 1), list(itertools.compress(texts, status)))):
            if kept:
                own = Strings.of(kept)
                assert store_packed._block_results(part.results, part.result_codes) == \
                    distinct_items(own.data, own.ends, 0)  # fmt: skip


def test_repeated_integers_and_lines_of_schema_7_read_back():
    """Schema 7 writes a column of one repeated integer as its code and the value (9 bytes),
    read back only with the count the block knows, and its lines from one before the first
    (a line-ordered block's differences all 1)."""
    for values in ([5], [7] * 1000, [-3] * 4, [2**40] * 3):
        blob = store_packed.narrow(np.array(values, dtype=np.int64), True)
        assert len(blob) == 9 and store_packed.widened(blob, len(values)).tolist() == values
        with pytest.raises(ValueError, match="unknown width"):
            store_packed.widened(blob)
    assert store_packed.narrow(np.array([1, 2]), True) == store_packed.narrow(np.array([1, 2]))
    assert store_packed.narrow(np.array([], dtype=np.int64), True) == bytes([0])
    for lines in ([10, 11, 12, 13], [10, 14, 11, 12], [4]):
        line_array = np.array(lines, dtype=np.int64)
        blob = store_packed._line_column(line_array.tobytes(), min(lines) - 1, True)
        assert store_packed._line_array(blob, len(lines)).tolist() == lines
    assert len(store_packed._line_column(np.arange(10, 1010).tobytes(), 9, True)) == 17


def test_a_store_of_schema_6_keeps_its_form_and_reads_like_one_of_7(tmp_path):
    """A store whose packed table a qipai of schema 6 made: this qipai writes its blocks in
    that form (digests stored, no repeated-integer column: the older qipai still reads them)
    and resumes it; its rows equal those of a store of schema 7."""
    _path, qpk = _inputs(tmp_path, "shuangkou-legal", 300, 4)
    old, new = str(tmp_path / "six.sqlite"), str(tmp_path / "seven.sqlite")
    with ResultStore(old) as store:
        assert store.payload_hashes("shuangkou-legal", want=True)
    with sqlite3.connect(old) as con:
        con.execute("UPDATE meta SET value='6' WHERE key='schema_version'")
    first = run_batch([str(qpk)], "shuangkou-legal", old, jobs=1, progress=False)
    run_batch([str(qpk)], "shuangkou-legal", new, jobs=1, progress=False)
    again = run_batch([str(qpk)], "shuangkou-legal", old, jobs=1, progress=False)
    assert (again.computed, again.already_stored) == (0, first.computed) and first.computed
    with sqlite3.connect(old) as con:
        assert con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("6",)
        for size, digests, *codes in con.execute(
                "SELECT size, digests, payload_sizes, second_codes, substr(lines, 9) "
                "FROM packed_blocks"):  # (narrow()'s code bytes: none is 7, repeated)
            assert len(digests) == 16 * size and [c[0] for c in codes] == [0, 0, 0]
    with sqlite3.connect(new) as con:
        assert {d for (d,) in con.execute("SELECT digests FROM packed_blocks")} == {b""}
    with ResultStore.open_existing(old) as six, ResultStore.open_existing(new) as seven:
        rows = [[{k: r[k] for k in r if k not in ("run_id", "finished_at", "seconds")}
                 for r in store.rows()] for store in (six, seven)]  # fmt: skip
    assert rows[0] == rows[1] and len(rows[0]) > 100
