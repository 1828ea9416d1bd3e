"""Positions keyed by their place: the result store's layout for microsecond tasks (schema 8).

A 升级 or 双扣 position solves in about a microsecond, less than hashing it, looking its
hash up and storing its compact input cost the runner (benches/README, "Batch
throughput").  A task that a store keeps *by place* keys each position by its packed file
(``qipai pack``) and its record number in it: no hash a position, no repeat check, and no
input stored.  ``placed_files`` holds one row a file a run read (its size and XXH64 of
all its bytes, and the path it was read from); ``placed_blocks`` one row a solved run of
records ``[first, last]`` of one file: every record of the range that reads (status 0 of
:func:`solvers._records.packed_records`) has its result there, in record order, coded as
:mod:`engines.batch.store_packed` codes them (the distinct texts once, an index a
position; the seconds the same; an error flag a position when any); the bad records of the
range are in ``bad_inputs``.  ``placed_claims`` holds the record ranges a running run has
claimed, so that two runs on one store never solve one record, and a killed run's claims
die with it (a claim counts only while its run is ``running``: see
:meth:`~engines.batch.store.ResultStore.reap_stale_runs`).

The readers (:meth:`~engines.batch.store.ResultStore.rows`: ``qipai results``, export,
report) read the records back from the file: its size and digest must be the stored ones,
else the read stops with a :class:`~engines.batch.store_errors.StoreError` naming the file
(changed, or gone).  The rows are those a packed-blocks store gives for the same file: the
ids, the record numbers as lines, the canonical input written back from the payload, and
the input hash of the compact form (hashed by the reader, not the run).  The same position
in two files, or twice in one, is solved and stored once a place.

The layout is chosen per store and task (``meta`` key ``input_hash:TASK``, value
``place``) by a run that finds nothing of the task in the store; the tables are added, and
the schema becomes 8, then (an older qipai refuses it, naming the version).  A store of
schema 6 (packed blocks holding their digests, which a qipai of 6 may still write) is not
changed so: its tasks are kept as packed blocks.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import sqlite3
import time
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from engines.batch.store_packed import (
    DIGESTS_SCHEMA_VERSION,
    PackedColumns,
    _block_results,
    _block_rows,
    _codes,
    _id_columns,
    _line_column,
    _sizes,
    hash_key,
    task_has_rows,
)
from solvers._batch_columns import Strings
from solvers._batch_store import distinct_items

#: The schema of a store in which some task is kept by place (this module's tables).
PLACED_SCHEMA_VERSION = 8
#: ``meta`` value of a task kept by place.
PLACE = "place"

PLACED_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS placed_files (
        file_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
        size INTEGER NOT NULL, digest TEXT NOT NULL, path TEXT NOT NULL,
        UNIQUE (task, size, digest)
    )""",
    """CREATE TABLE IF NOT EXISTS placed_blocks (
        block_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
        run_id INTEGER NOT NULL, solver_version TEXT NOT NULL, finished_at REAL NOT NULL,
        file_id INTEGER NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL,
        size INTEGER NOT NULL,
        results BLOB NOT NULL, result_sizes BLOB NOT NULL, result_codes BLOB NOT NULL,
        errors BLOB NOT NULL, seconds BLOB NOT NULL, second_codes BLOB NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS placed_blocks_in_order ON placed_blocks (task, file_id, first)",
    """CREATE TABLE IF NOT EXISTS placed_claims (
        file_id INTEGER NOT NULL, first INTEGER NOT NULL, last INTEGER NOT NULL,
        run_id INTEGER NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS placed_claims_by_file ON placed_claims (file_id, first)",
)


def has_placed_table(db: sqlite3.Connection) -> bool:
    sql = "SELECT 1 FROM sqlite_master WHERE type='table' AND name='placed_blocks'"
    return db.execute(sql).fetchone() is not None


def kept_by_place(db: sqlite3.Connection, task: str) -> bool:
    found = db.execute("SELECT value FROM meta WHERE key=?", (hash_key(task),)).fetchone()
    return found is not None and found[0] == PLACE


def choose_place(db: sqlite3.Connection, task: str) -> bool:
    """Keep ``task`` by place in this store if it has nothing of the task yet (no rows, no
    claims: another layout chosen but not used is undone) and is not of schema 6; True if
    it is kept so (inside the caller's write transaction)."""
    if kept_by_place(db, task):
        return True
    version = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if version is not None and version[0] == str(DIGESTS_SCHEMA_VERSION):
        return False
    if task_has_rows(db, task):
        return False
    for statement in PLACED_SCHEMA:
        db.execute(statement)
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(PLACED_SCHEMA_VERSION),))
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (hash_key(task), PLACE))
    return True


class PlacedFile(NamedTuple):
    """A packed file as a run or a reader sees it: its bytes (mapped), size and digest
    (``xxh64:`` and XXH64 of its bytes in hexadecimal: :func:`solvers._records.xxh64`)."""

    path: str
    data: Any  # mmap.mmap, or bytes for an empty file
    size: int
    digest: str

    def close(self) -> None:
        """Unmap the file now, or (where a view of it is still alive: a run stopped by an
        exception, whose traceback holds its frame) when the last view goes."""
        if isinstance(self.data, mmap.mmap):
            with contextlib.suppress(BufferError):
                self.data.close()


def mapped(path: str) -> PlacedFile:
    """``path``'s bytes mapped read-only, with their digest (OSError: no such file)."""
    from solvers._records import xxh64

    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) if size else b""
    return PlacedFile(path, data, size, f"xxh64:{xxh64(data):016x}")


def file_id(db: sqlite3.Connection, task: str, file: PlacedFile) -> int:
    """The id of ``file``'s content for ``task`` (added, or its path updated), inside the
    caller's write transaction."""
    db.execute("INSERT INTO placed_files (task, size, digest, path) VALUES (?, ?, ?, ?) "
               "ON CONFLICT (task, size, digest) DO UPDATE SET path=excluded.path",
               (task, file.size, file.digest, os.path.abspath(file.path)))  # fmt: skip
    found = db.execute("SELECT file_id FROM placed_files WHERE task=? AND size=? AND digest=?",
                       (task, file.size, file.digest)).fetchone()  # fmt: skip
    return int(found[0])


def claim_range(db: sqlite3.Connection, task: str, fid: int, first: int, last: int,
                run_id: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:  # fmt: skip
    """Claim records ``first..last`` of file ``fid`` for ``run_id`` (inside the caller's
    write transaction): ``(mine, others)``, the ranges claimed now (those neither stored
    nor claimed by a running run: this one too, which has the same file twice) and those
    another running run holds."""
    stored = db.execute("SELECT first, last FROM placed_blocks WHERE task=? AND file_id=? AND "
                        "last>=? AND first<=?", (task, fid, first, last)).fetchall()  # fmt: skip
    claimed = db.execute("SELECT c.first, c.last, c.run_id FROM placed_claims AS c JOIN runs AS "
                         "r ON r.run_id=c.run_id WHERE c.file_id=? AND c.last>=? AND "
                         "c.first<=? AND r.status='running'",
                         (fid, first, last)).fetchall()  # fmt: skip
    mine = _uncovered(first, last, stored + [(lo, hi) for lo, hi, _run in claimed])
    db.executemany("INSERT INTO placed_claims VALUES (?, ?, ?, ?)",
                   [(fid, lo, hi, run_id) for lo, hi in mine])  # fmt: skip
    held = [(max(lo, first), min(hi, last)) for lo, hi, rid in claimed if rid != run_id]
    return mine, held


def _uncovered(first: int, last: int, taken: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges of ``first..last`` outside every range of ``taken``.

    >>> _uncovered(1, 10, [(3, 4), (4, 6), (9, 12)])
    [(1, 2), (7, 8)]
    """
    out, at = [], first
    for lo, hi in sorted(taken):
        if lo > at:
            out.append((at, min(lo - 1, last)))
        at = max(at, hi + 1)
        if at > last:
            break
    if at <= last:
        out.append((at, last))
    return out


def release_claims(db: sqlite3.Connection, run_id: int) -> None:
    db.execute("DELETE FROM placed_claims WHERE run_id=?", (run_id,))


_INSERT = (
    "INSERT INTO placed_blocks (task, run_id, solver_version, finished_at, file_id, first, "
    "last, size, results, result_sizes, result_codes, errors, seconds, second_codes) VALUES "
    f"({', '.join(['?'] * 14)})"
)


def insert_block(db: sqlite3.Connection, task: str, run_id: int, version: str, fid: int,
                 first: int, last: int, results: list[str | None], errors: list[str | None],
                 seconds: list[float]) -> int:  # fmt: skip
    """Store the results of the readable records of ``first..last`` (in record order);
    returns the bytes written."""
    columns = PackedColumns.of([], b"", Strings(b"", b""), Strings(b"", b""), results, errors,
                               seconds)  # fmt: skip
    texts, text_ends, text_codes = _block_results(columns.results, columns.result_codes)
    second_values, _ends, second_codes = distinct_items(columns.seconds, None, 8)
    values = (task, run_id, version, time.time(), fid, first, last, len(results), texts,
              _sizes(Strings(texts, text_ends)), _codes(text_codes, True), columns.errors,
              second_values, _codes(second_codes, True))  # fmt: skip
    db.execute(_INSERT, values)
    return sum(len(v) for v in values[8:])


def placed_count(db: sqlite3.Connection, task: str | None) -> int:
    where, params = (" WHERE task=?", (task,)) if task is not None else ("", ())
    return int(db.execute("SELECT SUM(size) FROM placed_blocks" + where, params).fetchone()[0]
               or 0)  # fmt: skip


class PlacedOrder(NamedTuple):
    """A placed block as the readers order it: by its file's path, then its first record."""

    task: str
    source: str
    first: int
    block_id: int


def placed_order(db: sqlite3.Connection, task: str | None) -> list[PlacedOrder]:
    sql = ("SELECT b.task, f.path, b.first, b.block_id FROM placed_blocks AS b JOIN "
           "placed_files AS f ON f.file_id=b.file_id")  # fmt: skip
    sql, params = (sql + " WHERE b.task=?", (task,)) if task is not None else (sql, ())
    rows = db.execute(sql + " ORDER BY b.task, f.path, b.first, b.block_id", params).fetchall()
    return [PlacedOrder(*row) for row in rows]


class FileReader:
    """The files of a store's placed blocks, each mapped and checked once while read."""

    def __init__(self, db: sqlite3.Connection, changed: Any) -> None:
        self.db, self.changed = db, changed
        self.files: dict[int, PlacedFile] = {}
        self.cursors: dict[int, list[int]] = {}

    def file(self, fid: int) -> PlacedFile:
        if fid in self.files:
            return self.files[fid]
        path, size, digest = self.db.execute("SELECT path, size, digest FROM placed_files "
                                             "WHERE file_id=?", (fid,)).fetchone()  # fmt: skip
        try:
            file = mapped(path)
        except OSError as exc:
            raise self.changed(f"its inputs are read back from {path}, which cannot be read "
                               f"now ({exc.strerror})") from None  # fmt: skip
        if (file.size, file.digest) != (size, digest):
            file.close()
            raise self.changed(f"its inputs are read back from {path}, which has changed since "
                               f"it was read (now {file.size} bytes, {file.digest}; then "
                               f"{size} bytes, {digest})")  # fmt: skip
        self.files[fid] = file
        return file

    def close(self) -> None:
        for file in self.files.values():
            file.close()
        self.files.clear()


def placed_rows(db: sqlite3.Connection, block_id: int, files: FileReader, spec_of: Any,
                damaged: Any) -> Iterator[dict[str, Any]]:  # fmt: skip
    """The rows of placed block ``block_id`` in record order, as a packed block of the same
    records gives them (:func:`~engines.batch.store_packed.block_rows`)."""
    block = db.execute("SELECT task, run_id, solver_version, finished_at, size, file_id, "
                       "first, last, results, result_sizes, result_codes, errors, seconds, "
                       "second_codes FROM placed_blocks WHERE block_id=?",
                       (block_id,)).fetchone()  # fmt: skip
    if block is None:
        return
    task, run_id, version, finished, size, fid, first, last, *results = block
    file = files.file(fid)
    cursor = files.cursors.setdefault(fid, [0, 1])
    status, ids, forms, lines = records_of(file, spec_of(task), first, last, cursor)
    if status.count(0) != size:
        raise damaged(f"placed block {block_id} of task {task} holds {size} results for the "
                      f"{status.count(0)} readable records {first} to {last} of {file.path}")
    line_array = np.frombuffer(lines, np.int64)
    first_line = int(line_array[0]) if size else first
    id_data, id_sizes = _id_columns(Strings(*ids, True), lines)
    columns = (task, run_id, version, finished, size, file.path, first_line, b"", id_data,
               id_sizes, _line_column(lines, first_line - 1), forms[0],
               _sizes(Strings(*forms, False)), *results)  # fmt: skip
    yield from _block_rows(block_id, columns, spec_of, damaged)


def records_of(file: PlacedFile, spec: Any, first: int, last: int, cursor: list[int]
               ) -> tuple[bytearray, tuple[bytes, bytes], tuple[bytes, bytes], bytes]:  # fmt: skip
    """Records ``first..last`` of ``file`` read and checked: ``(status, ids, compact forms,
    lines)`` as :func:`solvers._records.packed_records` gives them.  ``cursor``: ``[offset,
    number]`` of a record of the file already found (the walk starts there when it can, and
    ends it past ``last``)."""
    from solvers._records import packed_records

    data = memoryview(file.data)
    if cursor[1] > first or cursor[0] == 0:
        cursor[:] = [bytes(data[:200]).find(b"\n") + 1, 1]
    start = _walked(data, cursor, first)
    end = _walked(data, cursor, last + 1)
    status, ids, _packs, forms, _digests, lines = packed_records(
        spec, data[start:end], first, False, False, False)
    return status, ids, forms, lines


def _walked(data: memoryview, cursor: list[int], number: int) -> int:
    """Move ``cursor`` (``[offset, number]`` of a record) to record ``number`` (or the end of
    the whole records) and return its offset: whole blocks of records skipped natively."""
    from solvers._records import whole_frames

    at, count = cursor
    while count < number:
        end, whole = whole_frames(data[at : at + (1 << 18)])
        if count + whole <= number and whole:
            at, count = at + end, count + whole
            continue
        size = 3 + data[at] + data[at + 1] + 256 * data[at + 2] if at + 3 <= len(data) else 0
        if not size or at + size > len(data):
            break
        at, count = at + size, count + 1
    cursor[:] = [at, count]
    return at
