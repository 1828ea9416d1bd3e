"""The reading side of a result store (:class:`~engines.batch.store.ResultStore` inherits it):
counts, tasks, bad lines and every stored row, whichever table holds it (schema 1's
``results``, schema 2's ``chunks``, schema 3's ``blocks``, schema 6 and 7's ``packed_blocks``)."""

from __future__ import annotations

import heapq
import itertools
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from engines.batch.store_errors import StoreError
from engines.batch.store_files import in_wal_mode
from engines.batch.store_packed import block_order, block_rows, has_packed_table
from engines.batch.store_placed import (
    FileReader,
    has_placed_table,
    placed_count,
    placed_order,
    placed_rows,
)
from engines.errors import InputError


class StoreReading:
    """Reads of a result store (its connection ``_db``, behind ``_guard``)."""

    path: str
    _db: sqlite3.Connection
    _lock: threading.RLock
    _wal: bool
    _per_row: bool
    _blocks: bool
    _packed: bool
    _placed: bool
    _copies: itertools.count[int]

    def _guard(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _has_packed(self) -> bool:
        """Whether the store has packed blocks, looked up again until it has: another
        connection may add them after this one opened the store."""
        if not self._packed:
            self._packed = has_packed_table(self._db)
        return self._packed

    def _has_placed(self) -> bool:
        """Whether the store keeps a task by place (looked up again until it does)."""
        if not self._placed:
            self._placed = has_placed_table(self._db)
        return self._placed

    def _snapshots(self) -> bool:
        """Whether a long read here holds no writer back: a WAL store (its readers read a
        snapshot) or one in memory (nobody else writes it)."""
        return self._wal or self.path == ":memory:" or in_wal_mode(self.path)

    @contextmanager
    def _read(self, sql: str, params: tuple[Any, ...]) -> Iterator[sqlite3.Cursor]:
        """The rows of ``sql``.  Unless :meth:`_snapshots`, they are first copied into a
        temporary table (native, one statement) and read from there: the store's lock is
        held for the copy only, not while the caller handles each row (an export or a
        report of millions of rows would hold every commit back meanwhile)."""
        if self._snapshots():
            yield self._db.execute(sql, params)
            return
        table = f"temp.rows_read_{next(self._copies)}"
        self._db.execute(f"CREATE TEMP TABLE {table} AS {sql}", params)
        try:
            yield self._db.execute(f"SELECT * FROM {table} ORDER BY rowid")
        finally:
            self._db.execute(f"DROP TABLE {table}")

    def bad_inputs(self, task: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT task, source, line, reason FROM bad_inputs"
        with self._guard():
            cur = (
                self._db.execute(sql + " WHERE task=? ORDER BY source, line", (task,))
                if task
                else self._db.execute(sql + " ORDER BY task, source, line")
            )
            return [dict(zip(("task", "source", "line", "reason"), row)) for row in cur]

    def count(self, task: str | None = None) -> int:
        """How many positions are stored (for ``task``, or in all)."""
        where, params = (" WHERE task=?", (task,)) if task is not None else ("", ())
        with self._guard():
            if self._per_row:
                tables = [("SELECT COUNT(*) FROM results", "")]
            else:
                tables = [("SELECT SUM(size) FROM chunks", "")]
                if self._blocks:
                    tables.append(("SELECT SUM(size) FROM blocks", ""))
                if self._has_packed():
                    tables.append(("SELECT SUM(size) FROM packed_blocks", ""))
            placed = placed_count(self._db, task) if self._has_placed() else 0
            return placed + sum(
                int(self._db.execute(sql + where, params).fetchone()[0] or 0) for sql, _ in tables
            )

    def tasks(self) -> list[str]:
        tables = ["results"] if self._per_row else ["chunks", "blocks"][: 1 + self._blocks]
        with self._guard():
            tables += ["packed_blocks"] if self._has_packed() else []
            tables += ["placed_blocks"] if self._has_placed() else []
            sql = " UNION ".join(f"SELECT DISTINCT task FROM {t}" for t in tables)
            return [t for (t,) in self._db.execute(sql + " ORDER BY task")]

    def rows(self, task: str | None = None) -> Iterator[dict[str, Any]]:
        """Every stored row in input order (file, line), with ``input``/``result`` decoded."""
        sql = (
            "SELECT task, position_id, source, line, input_hash, input, result, error, seconds, "
            "solver_version, run_id, finished_at FROM results"
        )
        params: tuple[Any, ...] = ()
        if task is not None:
            sql += " WHERE task=?"
            params = (task,)
        sql += " ORDER BY task, source, line, position_id"
        with self._guard():
            packed = self._has_packed()  # (before _read: a read of it after holds its lock)
            placed = self._has_placed()
        with self._guard(), self._read(sql, params) as cur:
            names = [d[0] for d in cur.description]
            decoded = map(_decoded, (dict(zip(names, raw)) for raw in cur))
            if not (packed or placed):
                yield from decoded
                return
            blocks = [(*key, False) for key in block_order(self._db, task)] if packed else []
            if placed:
                blocks = sorted(blocks + [(*key, True) for key in placed_order(self._db, task)])
            files = FileReader(self._db, self._changed)
            try:
                yield from self._merged(decoded, blocks, files)
            finally:
                files.close()

    def _merged(self, rows: Iterator[dict[str, Any]], blocks: list[tuple[str, str, int, int, bool]],
                files: FileReader) -> Iterator[dict[str, Any]]:  # fmt: skip
        """``rows`` (in :func:`_row_order`) merged with the packed blocks' in the same order;
        a block is opened only when the merge reaches its first line (``blocks``: their keys
        in :func:`~engines.batch.store_packed.block_order`, and the placed blocks', marked
        True, whose records ``files`` reads back), so only the blocks whose lines overlap are
        open at once, each writing its rows back a slice at a time."""
        heap: list[tuple[tuple[Any, ...], int, dict[str, Any], Iterator[dict[str, Any]]]] = []
        order = itertools.count()

        def push(source: Iterator[dict[str, Any]]) -> None:
            row = next(source, None)
            if row is not None:
                heapq.heappush(heap, (_row_order(row), next(order), row, source))

        push(rows)
        pending = iter(blocks)
        block = next(pending, None)
        while heap or block is not None:
            while block is not None and (not heap or block[:3] <= heap[0][0][:3]):
                push(placed_rows(self._db, block[3], files, self._spec_of, self._damaged)
                     if block[4] else block_rows(self._db, block[3], self._spec_of,
                                                 self._damaged))  # fmt: skip
                block = next(pending, None)
            if heap:
                _key, _n, row, source = heapq.heappop(heap)
                yield row
                push(source)

    def _spec_of(self, task: str) -> Any:
        """:func:`_record_spec`, or an error naming the store when this process has no such
        task (one the user's code registers) to write the inputs of its packed blocks back."""
        try:
            return _record_spec(task)
        except (InputError, AttributeError, TypeError):
            raise StoreError(f"{self.path}: task {task} is stored here as packed blocks, whose "
                             "inputs only the task's record layout writes back, and this "
                             "process has no such task: read the store where the task is "
                             "registered (with its record layout)") from None  # fmt: skip

    def _changed(self, why: str) -> StoreError:
        return StoreError(f"{self.path}: {why}: put the file back as it was, or run the task "
                          "again on the file as it is now into a new --db file")

    def _damaged(self, why: str) -> StoreError:
        return StoreError(f"{self.path}: {why}: the file is damaged; restore it from a copy, or "
                          "rerun into a new --db file")


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    row["input"] = json.loads(row["input"])
    row["result"] = None if row["result"] is None else json.loads(row["result"])
    return row


def _row_order(row: dict[str, Any]) -> tuple[Any, ...]:
    return row["task"], row["source"], row["line"], row["position_id"]


def _record_spec(task: str) -> Any:
    """The record spec of ``task`` (a task whose store hashes payloads has one)."""
    from engines.batch.tasks import get_task

    return get_task(task).records().spec  # type: ignore[misc, union-attr]

