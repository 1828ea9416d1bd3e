"""The embedded SQLite result store of ``qipai batch``.

Each position stored has: its input hash, id and origin (file, line), the
canonical input, the result as JSON (or the error message when the solver
refused the position), the seconds it took and the solver version.  They are
kept per committed block: one ``blocks`` row holds a block's input hashes, its
source file and its positions' rows (schema 3; schema 2's ``chunks`` rows, which
:meth:`ResultStore.add` still writes, spelled more; schema 1 spent an SQLite row,
an index entry and a claim row on every position, more than a Shengji solve
costs), and the view ``results`` shows one row per position, with the same
columns as before.
Results are committed in small transactions, one per finished chunk (or per
quarter second of small chunks), so an interrupted run (Ctrl-C, ``kill -9``,
power loss) loses at most the chunks in flight and the last quarter second; the
database runs in WAL mode (:data:`engines.batch.store_files.JOURNAL_MODE`), which
keeps every committed transaction across a crash.  Rerunning the same command asks
the store which hashes are already present and computes only the rest, so nothing
is computed or stored twice.

>>> store = ResultStore(":memory:")
>>> run = store.begin_run("demo-task", ["in.jsonl"], workers=1, mode="local")
>>> row = ResultRow("demo-task", "ab12", "p1", "in.jsonl", 1, {"x": 1}, {"y": 2}, None, 0.5)
>>> store.add([row], run)
1
>>> store.done_hashes("demo-task", ["ab12", "cd34"])
{'ab12'}
>>> store.add([row], run)  # the same position again: ignored
0
>>> store.count("demo-task")
1

Faults end in a :class:`StoreError` (``qipai: error: FILE: …`` on the command
line) that names the file and what to do: a damaged file, a SQLite file that
is not a result store (it is never written to), a full disk, a file that
cannot be opened.  :meth:`ResultStore.open_existing` opens read-only (export
and report work on a database in a read-only folder).

Several ``qipai batch`` processes may write one database at once: before
solving, a run *claims* the positions it will compute (one transaction that
also checks what is stored), and skips the positions another live run has
claimed; the claims go when the run ends (a claimed position that is stored
counts as stored: :meth:`ResultStore.claim` looks at the results first).  The
runner's claims of a fast task are kept in memory while no other run of the
task runs, and written once one does (:mod:`engines.batch.store_claims`).  A
run whose process is gone (``kill -9``, power loss) is marked ``interrupted``
by the next run that opens the database, and its claims are released.  A
connection keeps the hashes it has seen stored and claimed in memory and reads
only the chunks and claims written since (by row id), inside the write
transaction that claims or stores, so the check stays exact with several
writers.  A store of schema 1, 2 or 3 is upgraded when opened for writing
(:mod:`engines.batch.store_v1`), and read as it is when opened read-only.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import __version__
from engines.batch.store_claims import StoreClaims, kept_key, serialized
from engines.batch.store_errors import StoreError, explain
from engines.batch.store_files import BUSY_SECONDS, JOURNAL_MODE, connect
from engines.batch.store_known import Known, sync_known
from engines.batch.store_packed import (
    PackedColumns,
    choose_payload_hashes,
    fresh_columns,
    insert_blocks,
    stores_digests,
    task_hashes,
)
from engines.batch.store_placed import (
    PlacedFile,
    choose_place,
    claim_range,
    file_id,
    insert_block,
    kept_by_place,
    release_claims,
)
from engines.batch.store_read import StoreReading
from engines.batch.store_rows import dumps_rows, listed, source_runs, written_runs
from engines.batch.store_schema import (
    PAGE_SIZE,
    SCHEMA,
    SCHEMA_NAMES,
    SCHEMA_VERSION,
    create_tables,
    stored_version,
)
from engines.batch.store_v1 import (
    STALE_AFTER_SECONDS,
    UpgradeRefused,
    is_dead,
    upgrade_from_v1,
    upgrade_from_v2,
    upgrade_from_v3,
)
from engines.errors import InputError
from solvers._batch_hashes import select

#: Rows' text committed after which the store thread checkpoints the log (see _checkpoint).
CHECKPOINT_BYTES = 4 << 20

__all__ = ["STALE_AFTER_SECONDS", "EncodedRow", "ResultRow", "ResultStore", "StoreError"]


@dataclass(frozen=True)
class ResultRow:
    """One solved (or refused) position, as stored.

    ``result`` is the task's JSON-able answer, ``error`` the message when the
    solver refused the position (then ``result`` is ``None``); ``seconds`` is
    the solver time charged to this position (see :mod:`engines.batch.runner`).
    """

    task: str
    input_hash: str
    position_id: str
    source: str
    line: int
    input: dict[str, Any]
    result: Any
    error: str | None
    seconds: float
    solver_version: str = __version__


#: A row for :meth:`ResultStore.add_encoded`: ``(input_hash, position_id, source, line,
#: input_json, result_json, error, seconds, solver_version)``.
EncodedRow = tuple[str, str, str, int, str, "str | None", "str | None", float, str]


#: Columns added to ``runs`` after the first release (added in place to older stores).
_RUN_COLUMNS = {"pid": "INTEGER", "host": "TEXT", "heartbeat": "REAL"}


class ResultStore(StoreClaims, StoreReading):
    """A result database; ``path`` is created when missing (``":memory:"`` works too).

    ``readonly=True`` opens an existing file without ever writing to it (nor
    to its folder).  ``payload_task``: a task that a store created here hashes by its packed
    payloads from the start (:meth:`payload_hashes`; an existing store is left as it is).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False,
                 payload_task: str | None = None) -> None:  # fmt: skip
        if not isinstance(path, str | os.PathLike) or not isinstance(readonly, bool):
            raise InputError(
                f"ResultStore needs a database path and readonly True or False, got {path!r}, "
                f"{readonly!r}"[:300]
            )
        self.path = str(path)
        self.readonly = readonly
        self._per_row = False
        self._blocks = True
        self._packed = False  # the store has packed blocks (engines.batch.store_packed)
        self._placed = False  # it keeps a task by place (engines.batch.store_placed)
        self._lean: bool | None = None  # they hold no digests (schema 7), once looked up
        self._hash_kinds: dict[str, str] = {}  # what payload_hashes chose, checked by claims
        self._known: dict[str, Known] = {}
        self._kept: dict[int, list[bytes]] = {}  # see engines.batch.store_claims
        self._unanswered: set[int] = set()  # (the same)
        self._runs_epoch = 0  # runs begun, ended or reaped on this connection (the same)
        self._sync_mode = "FULL"
        self._wal = False  # the store is in WAL mode (see _check_or_create)
        self._logged = 0  # bytes of rows committed since the last checkpoint
        self._copies = itertools.count()  # names of the temporary tables of _read
        # One connection, used by the runner's thread (claims, bad lines) and its store
        # thread (results): one transaction at a time, with what it updates in _known.
        self._lock = threading.RLock()
        with self._guard():
            self._db = connect(self.path, readonly=readonly, journal=JOURNAL_MODE,
                               busy=BUSY_SECONDS, payload_task=payload_task)  # fmt: skip
            try:
                self._check_or_create()
            except BaseException:
                self._db.close()
                raise

    def _check_or_create(self) -> None:
        names = dict(self._db.execute("SELECT name, type FROM sqlite_master"))
        tables = {name for name, kind in names.items() if kind == "table"}
        if tables:
            version = stored_version(self.path, self._db, tables)
            upgrades = {"1": upgrade_from_v1, "2": upgrade_from_v2, "3": upgrade_from_v3}
            self._packed = "packed_blocks" in tables
            # Older schemas are read as they are, and upgraded when written.
            self._per_row = version == "1" and self.readonly
            self._blocks = "blocks" in tables
            if version in upgrades and not self.readonly:
                upgrade = upgrades[version]
                try:
                    upgrade(self._db, self._create_statements)
                except UpgradeRefused as exc:
                    raise StoreError(
                        f"{self.path}: a result store of schema {version} that this qipai "
                        f"upgrades to schema {SCHEMA_VERSION} when writing, but {exc}"
                    ) from None
                self._blocks, names = True, {}
        elif self.readonly:
            raise StoreError(f"{self.path}: not a qipai result database (it is empty)")
        else:
            self._db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # a new file: before any table
        if self.readonly:
            return
        mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        if mode != "wal":
            mode = self._db.execute(f"PRAGMA journal_mode={JOURNAL_MODE}").fetchone()[0]
        self._wal = mode == "wal"
        # Results are committed with synchronous=FULL (a committed chunk survives power
        # loss, not only a killed process); in WAL mode the schema and bookkeeping without
        # waiting for the disk (see _write).  A rollback journal commits everything so: with
        # less, a power loss at the wrong moment could damage the file.
        self._sync_mode = "NORMAL" if self._wal else "FULL"
        self._db.execute(f"PRAGMA synchronous={self._sync_mode}")
        if names.keys() >= SCHEMA_NAMES and self._run_columns() >= _RUN_COLUMNS.keys():
            return  # (what the transaction below would add is there: a store made whole)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            create_tables(self._db)
            have = self._run_columns()
            for name, kind in _RUN_COLUMNS.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")

    def _run_columns(self) -> set[str]:
        return {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}

    def _create_statements(self) -> None:
        for statement in SCHEMA:
            self._db.execute(statement)

    @contextmanager
    def _write(self, *, durable: bool) -> Iterator[None]:
        """One write transaction.  ``durable``: results, committed once on disk
        (``synchronous=FULL``).  Otherwise bookkeeping (runs, claims, bad lines), whose
        commit in a WAL store does not wait for the disk: the next durable commit syncs it
        with its own (the log is written in order), and a power loss before that undoes
        only what no result depends on (a run record the next run reaps, claims, bad lines
        a rerun reports again).  With a rollback journal every commit is durable."""
        mode = "FULL" if durable or not self._wal else "NORMAL"
        with self._lock, self._guard():
            if self._sync_mode != mode:
                self._db.execute(f"PRAGMA synchronous={mode}")
                self._sync_mode = mode
            with self._db:
                yield

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn every sqlite3 error into a :class:`StoreError` naming the file and the cure."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(explain(self.path, exc)) from exc

    @classmethod
    def open_existing(cls, path: str | Path) -> ResultStore:
        """Open a database that must already exist, read-only (for export and report)."""
        if str(path) == ":memory:":
            return cls(path)
        if not Path(path).is_file():
            raise StoreError(f"{path}: no such result database")
        return cls(path, readonly=True)

    def close(self) -> None:
        if not (self.readonly or self._wal):
            with contextlib.suppress(sqlite3.Error):  # (the empty journal file deleted)
                self._db.execute("PRAGMA journal_mode=DELETE")
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------

    def begin_run(self, task: str, inputs: Sequence[str], *, workers: int, mode: str) -> int:
        """Record the start of a run (first marking dead runs ``interrupted``); returns its id."""
        self.reap_stale_runs()
        now = time.time()
        with self._write(durable=False):
            cur = self._db.execute(
                "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, "
                "pid, host, heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (task, json.dumps(list(inputs)), mode, workers, __version__, now,
                 os.getpid(), socket.gethostname(), now),
            )  # fmt: skip
            self._runs_epoch += 1
        return int(cur.lastrowid)

    def end_run(
        self, run_id: int, *, computed: int, skipped: int, bad_inputs: int, status: str
    ) -> None:
        """Close a run record (``status``: ``finished``, ``interrupted`` or ``failed``)."""
        with self._write(durable=False):
            self._db.execute(
                "UPDATE runs SET finished_at=?, computed=?, skipped=?, bad_inputs=?, status=? "
                "WHERE run_id=?",
                (time.time(), computed, skipped, bad_inputs, status, run_id),
            )
            self._release_run(run_id)
            self._runs_epoch += 1
        self._kept.pop(run_id, None)

    def _release_run(self, run_id: int) -> None:
        self._db.execute("DELETE FROM claims WHERE run_id=?", (run_id,))
        self._db.execute("DELETE FROM meta WHERE key=?", (kept_key(run_id),))
        if self._has_placed():
            release_claims(self._db, run_id)

    def reap_stale_runs(self) -> list[int]:
        """Mark ``interrupted`` every ``running`` run whose process is gone; returns their ids.

        A run is gone when it ran on this host and its process id is not alive, or
        when it has not stored anything for :data:`STALE_AFTER_SECONDS`.
        """
        now = time.time()
        with self._guard():
            running = self._db.execute(
                "SELECT run_id, pid, host, heartbeat FROM runs WHERE status='running'"
            ).fetchall()
            stale = [run_id for run_id, *rest in running if is_dead(*rest, now)]
        if stale:
            with self._write(durable=False):
                for run_id in stale:
                    self._db.execute(
                        "UPDATE runs SET status='interrupted', finished_at=? WHERE run_id=?",
                        (now, run_id),
                    )
                    self._release_run(run_id)
                self._runs_epoch += 1
        return stale

    def runs(self) -> list[dict[str, Any]]:
        with self._guard():
            cur = self._db.execute("SELECT * FROM runs ORDER BY run_id")
            names = [d[0] for d in cur.description]
            return [dict(zip(names, row)) for row in cur]

    # -- results ------------------------------------------------------------------------

    def _sync(self, task: str, *, claims: bool, own_run: int | None = None) -> Known:
        """This connection's view of ``task``, brought up to date (:func:`sync_known`);
        ``own_run``'s stored digests may stay aside (:meth:`Known.put_aside`)."""
        known = self._known.get(task)
        if known is None:
            known = self._known[task] = Known()
        known.settle(own_run)
        return sync_known(self._db, task, known, blocks=self._blocks, claims=claims,
                          packed=self._has_packed(), damaged=self._damaged)

    @serialized
    def done_hashes(self, task: str, hashes: Iterable[str]) -> set[str]:
        """The subset of ``hashes`` already stored for ``task``."""
        with self._guard():
            if self._per_row:
                return self._stored_per_row(task, list(hashes))
            stored = self._sync(task, claims=False).stored
            return {h for h in hashes if h in stored}

    def _stored_per_row(self, task: str, hashes: list[str]) -> set[str]:
        found: set[str] = set()
        # SQLite limits bound parameters; 500 per query stays far below every build's limit.
        for start in range(0, len(hashes), 500):
            part = hashes[start : start + 500]
            marks = ",".join("?" * len(part))
            cur = self._db.execute(
                f"SELECT input_hash FROM results WHERE task=? AND input_hash IN ({marks})",
                (task, *part),
            )
            found.update(h for (h,) in cur)
        return found

    def add(self, rows: Sequence[ResultRow], run_id: int) -> int:
        """Store ``rows`` in one transaction; returns how many were new."""
        dumps = functools.partial(json.dumps, sort_keys=True, separators=(",", ":"))
        by_task: dict[str, list[EncodedRow]] = {}
        for r in rows:
            result = None if r.error is not None else dumps(r.result)
            by_task.setdefault(r.task, []).append(
                (r.input_hash, r.position_id, r.source, r.line, dumps(r.input), result,
                 r.error, r.seconds, r.solver_version)
            )  # fmt: skip
        return sum(self.add_encoded(task, encoded, run_id) for task, encoded in by_task.items())

    @serialized
    def add_encoded(self, task: str, rows: Sequence[EncodedRow], run_id: int) -> int:
        """:meth:`add` for rows of one task whose input and result are JSON text already.

        Each row is ``(input_hash, position_id, source, line, input_json,
        result_json, error, seconds, solver_version)``; the batch runner makes
        the text with a faster encoder (:mod:`engines.batch.jsontext`).  The
        rows not stored yet become one ``chunks`` row per solver version.  A task whose
        positions this store hashes by their packed payloads (``store_packed``) is refused:
        rows hashed by their text would store its positions a second time.
        """
        now = time.time()
        with self._write(durable=True):
            self._db.execute("BEGIN IMMEDIATE")
            if task_hashes(self._db, task) != "text":
                raise StoreError(f"{self.path}: task {task} is stored here as packed blocks, "
                                 "hashed by its packed payloads: rows hashed by their text "
                                 "cannot be added to it; use another store")  # fmt: skip
            stored = self._sync(task, claims=False).stored
            fresh: dict[str, EncodedRow] = {}
            for row in rows:
                if row[0] not in stored and row[0] not in fresh:
                    fresh[row[0]] = row
            versions: dict[str, list[EncodedRow]] = {}
            for row in fresh.values():
                versions.setdefault(row[8], []).append(row)
            last = 0
            for version, chosen in versions.items():
                cur = self._db.execute(
                    "INSERT INTO chunks (task, run_id, solver_version, finished_at, size, hashes, "
                    "rows) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (task, run_id, version, now, len(chosen), " ".join(r[0] for r in chosen),
                     dumps_rows([r[:8] for r in chosen])),
                )  # fmt: skip
                last = int(cur.lastrowid)
            self._db.execute("UPDATE runs SET heartbeat=? WHERE run_id=?", (now, run_id))
        # Only once committed: a failed transaction stored nothing.
        known = self._known[task]
        known.stored.update(fresh)
        known.chunk_mark = max(known.chunk_mark, last)
        return len(fresh)

    @serialized
    def add_columns(
        self, task: str, run_id: int, digests: bytes, columns: Sequence[Any],
        written: list[tuple[int, int, str]] | None = None, *, distinct: bool = False,
        claimed: bool = False,
    ) -> int:  # fmt: skip
        """:meth:`add_encoded` column by column: ``digests`` the input hashes (16 bytes each),
        ``columns`` ``ids, sources, lines, inputs, results, errors, seconds`` (lists; JSON text
        for inputs and results; ids and inputs may be ``Strings``, lines int64 ``bytes``),
        stored as blocks of this qipai's version (one per run of positions from one source).
        ``written``: blocks already written, ``(lo, hi, text)`` of rows ``lo:hi`` of one
        source (:func:`engines.batch.store_rows.placed_runs`), stored as they are when every
        row is new.  ``distinct``: ``digests`` hold no repeats (the runner's: no set of them
        is made here).  ``claimed`` (with ``distinct``): as :meth:`add_packed`'s."""
        now, own = time.time(), run_id if claimed and distinct else None
        with self._write(durable=True):
            self._db.execute("BEGIN IMMEDIATE")
            known = self._sync(task, claims=False, own_run=own)
            shared = self._share_kept(task, own, known)
            fresh = known.absent(digests, own) if distinct else known.stored.absent_first(digests)
            if fresh is not None and fresh.count(1) != len(fresh):
                digests = select(digests, fresh, 1)
                columns = [list(itertools.compress(listed(c), fresh)) for c in columns]
                written = None
            last = 0
            if written is None:
                ids, sources, lines, inputs, results, errors, seconds = map(listed, columns)
                written = written_runs(sources, ids, lines, inputs, results, errors, seconds,
                                       any_text=True)  # fmt: skip
            for lo, hi, text in written or ():
                cur = self._db.execute(
                    "INSERT INTO blocks (task, run_id, solver_version, finished_at, size, source, "
                    "digests, rows) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (task, run_id, __version__, now, hi - lo, columns[1][lo],
                     digests[16 * lo : 16 * hi], text),
                )  # fmt: skip
                last = int(cur.lastrowid)
            self._db.execute("UPDATE runs SET heartbeat=? WHERE run_id=?", (now, run_id))
        if shared:  # only once committed
            del self._kept[run_id]
        if digests:
            known.block_mark = max(known.block_mark, last)
            self._stored(known, own, digests, sum(len(t) for _lo, _hi, t in written or ()))
        return len(digests) // 16

    def input_hashes(self, task: str) -> str:
        """What ``task``'s input hashes are digests of here: ``"text"`` (the canonical
        text, every older store's) or ``"payload"`` (packed payloads: ``store_packed``)."""
        with self._guard():
            return task_hashes(self._db, task)

    def payload_hashes(self, task: str, *, want: bool) -> bool:
        """Whether ``task`` hashes payloads in this store: ``want`` when the task has nothing
        stored or claimed here (then recorded: payloads make the store schema 7), else as
        recorded."""
        chosen = self.input_hashes(task) == "payload"
        if chosen != want and not self.readonly:
            with self._write(durable=False):
                self._db.execute("BEGIN IMMEDIATE")
                chosen = choose_payload_hashes(self._db, task, want)
        self._packed = self._packed or chosen
        self._hash_kinds[task] = "payload" if chosen else "text"
        return chosen

    # -- tasks kept by place (engines.batch.store_placed) ----------------------------------

    def by_place(self, task: str, *, want: bool) -> bool:
        """Whether ``task`` is kept by place in this store: as recorded, else ``want`` when
        the task has nothing here (then recorded: the store becomes schema 8)."""
        with self._guard():
            chosen = self._has_placed() and kept_by_place(self._db, task)
        if want and not chosen and not self.readonly:
            with self._write(durable=False):
                self._db.execute("BEGIN IMMEDIATE")
                chosen = choose_place(self._db, task)
            self._placed = self._placed or chosen
        return chosen

    def placed_file(self, task: str, file: PlacedFile) -> int:
        """The id of ``file``'s content for ``task`` (see :func:`store_placed.file_id`)."""
        with self._write(durable=False):
            self._db.execute("BEGIN IMMEDIATE")
            return file_id(self._db, task, file)

    def claim_places(self, task: str, fid: int, first: int, last: int, run_id: int
                     ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:  # fmt: skip
        """Claim records ``first..last`` of file ``fid`` for ``run_id``: ``(mine, others')``
        (:func:`store_placed.claim_range`, one transaction)."""
        with self._write(durable=False):
            self._db.execute("BEGIN IMMEDIATE")
            return claim_range(self._db, task, fid, first, last, run_id)

    def add_placed(self, task: str, run_id: int, blocks: Sequence[tuple[Any, ...]]) -> None:
        """Store solved ranges ``(file id, first, last, results, errors, seconds)`` in one
        durable transaction (:func:`store_placed.insert_block`)."""
        now = time.time()
        with self._write(durable=True):
            self._db.execute("BEGIN IMMEDIATE")
            written = sum(insert_block(self._db, task, run_id, __version__, *block)
                          for block in blocks)  # fmt: skip
            self._db.execute("UPDATE runs SET heartbeat=? WHERE run_id=?", (now, run_id))
        self._logged += written
        if self._wal and self._logged >= CHECKPOINT_BYTES:
            self._checkpoint()

    @serialized
    def add_packed(self, task: str, run_id: int, digests: bytes, columns: PackedColumns, *,
                   claimed: bool = False) -> int:  # fmt: skip
        """:meth:`add_columns` for a task that hashes payloads: the new positions of
        ``columns`` (``digests`` their payloads' digests, no repeats: schema 7 does not store
        them, its readers hash the payloads) stored as packed blocks, one a run of one source;
        returns how many were new.  ``claimed``: all claimed by ``run_id`` here, none stored
        yet (the runner's; see :meth:`Known.absent`)."""
        now, own = time.time(), run_id if claimed else None
        with self._write(durable=True):
            self._db.execute("BEGIN IMMEDIATE")
            known = self._sync(task, claims=False, own_run=own)
            shared = self._share_kept(task, own, known)
            digests, columns = fresh_columns(digests, columns, known.absent(digests, own))
            if self._lean is None:  # (the table is there: its form is the store's for good)
                self._lean = not stores_digests(self._db)
            last, written = insert_blocks(self._db, task, run_id, __version__, now, digests,
                                          columns, source_runs(columns.sources),
                                          lean=self._lean)  # fmt: skip
            self._db.execute("UPDATE runs SET heartbeat=? WHERE run_id=?", (now, run_id))
        if shared:  # only once committed
            del self._kept[run_id]
        if digests:
            known.packed_mark = max(known.packed_mark, last)
            self._stored(known, own, digests, written)
        return len(digests) // 16

    def _stored(self, known: Known, own: int | None, digests: bytes, logged: int) -> None:
        """``digests`` committed (``logged`` bytes of rows): kept aside when run ``own``
        claimed each, and the log checkpointed once :data:`CHECKPOINT_BYTES` wait."""
        if own is not None:
            known.put_aside(own, digests)
        else:
            known.stored.add_digests(digests)
        self._logged += logged
        if self._wal and self._logged >= CHECKPOINT_BYTES:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """Copy the log into the database now, on this (the store) thread, rather than when
        the store closes (on the runner's thread); the log is then written from its start
        again, so it stays small.  PASSIVE: a reader or writer elsewhere is not waited for."""
        self._logged = 0
        with self._lock, self._guard():
            self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()

    def add_bad_input(self, task: str, source: str, line: int, reason: str, run_id: int) -> None:
        with self._write(durable=False):
            self._db.execute(
                "INSERT OR REPLACE INTO bad_inputs VALUES (?, ?, ?, ?, ?)",
                (task, source, line, reason, run_id),
            )
