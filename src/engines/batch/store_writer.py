"""How the batch runner stores finished rows: in few transactions, on a thread of their own.

The runner's thread reads, claims and hands out chunks; :class:`Writer` gathers the
finished rows and hands each transaction to a store thread, so SQLite's work (and its
disk syncs) overlaps the reading and the solving.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import time
from collections import deque
from collections.abc import Sequence
from itertools import chain
from typing import TYPE_CHECKING, Any

from engines.batch.rows import Rows
from engines.batch.store import ResultStore
from engines.batch.store_claims import COMMIT_PAUSE
from engines.batch.store_packed import PackedColumns
from engines.batch.store_rows import placed_runs

if TYPE_CHECKING:
    from engines.batch.runner import BatchSummary

# Finished chunks smaller than the chunk size wait at most this long to be stored, so
# that one transaction (one disk sync, milliseconds) stores several small chunks.
COMMIT_SECONDS = 0.25


class Writer:
    """Stores finished rows: at once when ``rows_per_commit`` wait, else every
    :data:`COMMIT_SECONDS`, and whatever is left when the run ends or stops.

    Each transaction runs on a store thread (the sqlite3 module releases the GIL while
    SQLite works), at most :data:`_STORES_AHEAD` waiting, so this thread reads, claims
    and hands out chunks meanwhile.  A failed transaction's rows come back to the buffer
    (:meth:`store_after_failure` tries them once more); its error is raised here."""

    def __init__(
        self, db: ResultStore, task: str, run_id: int, summary: BatchSummary,
        rows_per_commit: int, *, packed: bool = False,
    ) -> None:  # fmt: skip
        self.db, self.task, self.run_id, self.summary = db, task, run_id, summary
        self.packed = packed  # stored as packed blocks (engines.batch.store_packed)
        self.rows_per_commit = rows_per_commit
        self.parts: list[tuple[Rows, list[str | None], list[str | None], list[float]]] = []
        self.runs: list[list[tuple[int, int, str]] | None] = []
        self.waiting = 0
        self.since = self.looked = time.perf_counter()
        self.pool = cf.ThreadPoolExecutor(max_workers=1, thread_name_prefix="qipai-store")
        self.flying: deque[tuple[cf.Future[int], list[Any], list[Any]]] = deque()
        self.failed = False  # a transaction failed (its rows came back to the buffer)

    def add(
        self, rows: Rows, results: list[str | None], errors: list[str | None],
        seconds: list[float], runs: list[tuple[int, int, str]] | None = None,
    ) -> None:  # fmt: skip
        """Rows solved: the JSON text of each result (``None`` where ``errors`` has one);
        ``runs``: their text when a helper thread wrote it (``runner._Written``)."""
        self.parts.append((rows, results, errors, seconds))
        self.runs.append(runs)
        self.waiting += len(rows)
        if self.waiting >= self.rows_per_commit:
            self.store()

    def store_if_due(self) -> None:
        self._reap(wait=False)
        now = time.perf_counter()
        if self.parts and now - self.since >= COMMIT_SECONDS:
            self.store()
        elif not self.parts and not self.flying and now - self.looked >= COMMIT_PAUSE:
            # (no commit will come until a solve ends: another run may wait for the claims
            # this one keeps in memory)
            self.looked = now
            self.db.share_kept_claims(self.task, self.run_id)

    def store(self) -> None:
        """Hand the rows waiting to the store thread (one transaction)."""
        self._reap(wait=False)
        if self.parts:
            parts, runs = self.parts, self.runs
            self.flying.append((self.pool.submit(self._commit, parts, runs), parts, runs))
            self.parts, self.runs, self.waiting = [], [], 0
            while len(self.flying) > _STORES_AHEAD:
                self._reap(wait=True, one=True)
        self.since = time.perf_counter()

    def _commit(self, parts: list[Any], runs: list[Any]) -> int:
        """One transaction, on the store thread: the new rows of ``parts`` stored."""
        if self.packed:
            rows = Rows.join([p[0] for p in parts])
            # (the runner's positions, each claimed by this run: none is stored, unless a
            # transaction that failed had stored its rows before its error)
            return self.db.add_packed(self.task, self.run_id, rows.digests,
                                      _packed_columns(rows, parts),
                                      claimed=not self.failed)  # fmt: skip
        digests = b"".join([p[0].digests for p in parts])
        # (the runner's positions, claimed as above, no repeats: see engines.batch.rows.todo)
        return self.db.add_columns(self.task, self.run_id, digests, _Columns(parts),
                                   placed_runs(runs, [len(p[0]) for p in parts]),
                                   distinct=True, claimed=not self.failed)  # fmt: skip

    def _reap(self, *, wait: bool, one: bool = False) -> None:
        """Count the transactions done (all, waiting for them, with ``wait``; the oldest
        with ``one``); a failed one's rows go back to the buffer and its error is raised."""
        while self.flying and (wait or self.flying[0][0].done()):
            future, parts, runs = self.flying[0]
            try:
                computed = future.result()
            except BaseException:
                if future.done():  # (not a Ctrl-C while waiting: that one is still running)
                    self.failed = True
                    self.flying.popleft()
                    self.parts[:0], self.runs[:0] = parts, runs
                    self.waiting += sum(len(p[0]) for p in parts)
                raise
            self.flying.popleft()
            self.summary.computed += computed
            # (rows another run stored first: see engines.batch.store_claims)
            self.summary.already_stored += sum(len(p[0]) for p in parts) - computed
            if one:
                return

    def finish(self) -> None:
        """Store every row left and wait until each transaction is done (raising a failed
        one's error)."""
        self.store()
        self._reap(wait=True)

    def store_after_failure(self) -> None:
        """Keep the finished rows when something else failed; a store fault stays the error."""
        for _ in range(2):  # a failed transaction's rows are tried once more
            with contextlib.suppress(Exception):  # the run's own exception says more
                self.finish()

    def close(self) -> None:
        self.pool.shutdown(wait=True)


class _Columns(Sequence[Any]):
    """The columns of the rows of ``Writer`` parts for :meth:`ResultStore.add_columns`, joined
    when first read: a commit whose rows' text was written ahead, every row new, reads
    only the sources (no copy of the ids', texts' and payloads' buffers)."""

    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts
        self.sources = list(chain.from_iterable(p[0].sources for p in parts))
        self.joined: list[Any] | None = None

    def __len__(self) -> int:
        return 7

    def __getitem__(self, k: Any) -> Any:
        if k == 1:
            return self.sources
        if self.joined is None:
            rows = Rows.join([p[0] for p in self.parts])
            rest = (list(chain.from_iterable(p[k] for p in self.parts)) for k in (1, 2, 3))
            self.joined = [rows.ids, self.sources, rows.lines, rows.texts, *rest]
        return self.joined[k]


def _packed_columns(rows: Rows, parts: list[Any]) -> PackedColumns:
    """The columns of ``Writer`` parts (``rows`` their rows joined) as packed blocks store
    them.  (Lists joined by ``+=``, a third of the CPU of ``chain``'s; the errors only when
    a part has one.)"""
    if rows.texts.text:  # (positions hashed by payloads carry their compact forms)
        raise RuntimeError("a position without its compact payload in a packed block")
    results: list[str | None] = []
    seconds: list[float] = []
    for p in parts:
        results += p[1]
        seconds += p[3]
    errors: list[str | None] = [None] * len(results)
    if any(p[2].count(None) != len(p[2]) for p in parts):
        errors = []
        for p in parts:
            errors += p[2]
    return PackedColumns.of(rows.sources, rows.lines, rows.ids, rows.texts, results, errors,
                            seconds)  # fmt: skip


# Transactions handed to the store thread and not done yet, at most (then the runner waits).
_STORES_AHEAD = 2
