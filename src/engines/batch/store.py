"""The embedded SQLite result store of ``qipai batch``.

One row per (task, input hash): the position's id and origin (file, line), the
canonical input, the result as JSON (or the error message when the solver
refused the position), the seconds it took and the solver version.  Results are
committed in small transactions, one per finished chunk (or per quarter second
of small chunks), so an interrupted run (Ctrl-C, ``kill -9``, power loss) loses
at most the chunks in flight and the last quarter second; the
database runs in WAL mode, which keeps every committed transaction across a
crash.  Rerunning the same command asks the store which hashes are already
present and computes only the rest, so nothing is computed or stored twice.

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
counts as stored: :meth:`ResultStore.claim` looks at the results first).  A run
whose process is gone (``kill -9``, power loss) is marked ``interrupted`` by
the next run that opens the database, and its claims are released.
"""

from __future__ import annotations

import functools
import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import __version__
from engines.errors import InputError

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    task TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    position_id TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    input TEXT NOT NULL,
    result TEXT,
    error TEXT,
    seconds REAL NOT NULL,
    solver_version TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    finished_at REAL NOT NULL,
    PRIMARY KEY (task, input_hash)
);
CREATE TABLE IF NOT EXISTS runs (
    run_id INTEGER PRIMARY KEY AUTOINCREMENT,
    task TEXT NOT NULL,
    inputs TEXT NOT NULL,
    mode TEXT NOT NULL,
    workers INTEGER NOT NULL,
    solver_version TEXT NOT NULL,
    started_at REAL NOT NULL,
    finished_at REAL,
    computed INTEGER NOT NULL DEFAULT 0,
    skipped INTEGER NOT NULL DEFAULT 0,
    bad_inputs INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'running'
);
CREATE TABLE IF NOT EXISTS claims (
    task TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    PRIMARY KEY (task, input_hash)
);
CREATE TABLE IF NOT EXISTS bad_inputs (
    task TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    reason TEXT NOT NULL,
    run_id INTEGER NOT NULL,
    PRIMARY KEY (task, source, line)
);
"""


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


class StoreError(InputError):
    """The database file cannot be used as a result store (the message says what to do)."""


#: Columns added to ``runs`` after the first release (added in place to older stores).
_RUN_COLUMNS = {"pid": "INTEGER", "host": "TEXT", "heartbeat": "REAL"}
#: A running run that has not stored anything for this long is taken for dead, even when
#: a process of its id exists (ids are reused).
STALE_AFTER_SECONDS = 6 * 3600.0


def _explain(path: str, exc: sqlite3.Error) -> str:
    """``FILE: what went wrong; what to do`` for an sqlite3 error."""
    text = str(exc)
    low = text.lower()
    if "not a database" in low:
        return (
            f"{path}: not a qipai result database: not an SQLite file, or damaged beyond "
            f"reading ({text}); pass another --db file (a new name creates a new store)"
        )
    if "malformed" in low or "disk image" in low or "corrupt" in low:
        return (
            f"{path}: the result database is damaged ({text}); recover what it holds with "
            f"'sqlite3 {path} .recover | sqlite3 NEW.sqlite', or start a new one with --db"
        )
    if "full" in low:
        return (
            f"{path}: the disk is full ({text}); free space and rerun the same command: "
            "every chunk stored so far is kept"
        )
    if "readonly" in low or "read-only" in low:
        return f"{path}: cannot write the result database ({text}); use --db in a writable folder"
    if "locked" in low or "busy" in low:
        return (
            f"{path}: the result database stayed locked by another process ({text}); "
            "rerun when it has finished"
        )
    return f"{path}: result database error: {text}"


class ResultStore:
    """A result database; ``path`` is created when missing (``":memory:"`` works too).

    ``readonly=True`` opens an existing file without ever writing to it (nor
    to its folder).
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        if not isinstance(path, str | os.PathLike) or not isinstance(readonly, bool):
            raise InputError(
                f"ResultStore needs a database path and readonly True or False, got {path!r}, "
                f"{readonly!r}"[:300]
            )
        self.path = str(path)
        self.readonly = readonly
        with self._guard():
            self._db = self._connect()
            try:
                self._check_or_create()
            except BaseException:
                self._db.close()
                raise

    def _connect(self) -> sqlite3.Connection:
        if not self.readonly:
            return sqlite3.connect(self.path, timeout=60.0)
        uri = Path(self.path).resolve().as_uri()
        try:
            db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=60.0)
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            # A WAL database in a folder we cannot write: read it as a fixed file.
            return sqlite3.connect(f"{uri}?immutable=1", uri=True)

    def _check_or_create(self) -> None:
        sql = "SELECT name FROM sqlite_master WHERE type='table'"
        tables = {name for (name,) in self._db.execute(sql)}
        if tables and "meta" not in tables:
            raise StoreError(
                f"{self.path}: this SQLite file is not a qipai result database (it has tables "
                f"{', '.join(sorted(tables)[:5])} and no qipai meta table); it was left "
                "untouched: pass another --db file"
            )
        if tables:
            found = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if found is None:
                raise StoreError(
                    f"{self.path}: this SQLite file is not a qipai result database (its meta "
                    "table has no schema_version); it was left untouched: pass another --db file"
                )
            if found[0] != str(SCHEMA_VERSION):
                raise StoreError(
                    f"{self.path}: result store schema {found[0]}, this qipai reads "
                    f"{SCHEMA_VERSION}; use the qipai that wrote it, or a new --db file"
                )
        elif self.readonly:
            raise StoreError(f"{self.path}: not a qipai result database (it is empty)")
        if self.readonly:
            return
        self._db.execute("PRAGMA journal_mode=WAL")
        # FULL: a committed chunk survives power loss, not only a killed process.
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        with self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )
            have = {row[1] for row in self._db.execute("PRAGMA table_info(runs)")}
            for name, kind in _RUN_COLUMNS.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE runs ADD COLUMN {name} {kind}")

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Turn every sqlite3 error into a :class:`StoreError` naming the file and the cure."""
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreError(_explain(self.path, exc)) from exc

    @classmethod
    def open_existing(cls, path: str | Path) -> ResultStore:
        """Open a database that must already exist, read-only (for export and report)."""
        if str(path) == ":memory:":
            return cls(path)
        if not Path(path).is_file():
            raise StoreError(f"{path}: no such result database")
        return cls(path, readonly=True)

    def close(self) -> None:
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
        with self._guard(), self._db:
            cur = self._db.execute(
                "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at, "
                "pid, host, heartbeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (task, json.dumps(list(inputs)), mode, workers, __version__, now,
                 os.getpid(), socket.gethostname(), now),
            )  # fmt: skip
        return int(cur.lastrowid)

    def end_run(
        self, run_id: int, *, computed: int, skipped: int, bad_inputs: int, status: str
    ) -> None:
        """Close a run record (``status``: ``finished``, ``interrupted`` or ``failed``)."""
        with self._guard(), self._db:
            self._db.execute(
                "UPDATE runs SET finished_at=?, computed=?, skipped=?, bad_inputs=?, status=? "
                "WHERE run_id=?",
                (time.time(), computed, skipped, bad_inputs, status, run_id),
            )
            self._db.execute("DELETE FROM claims WHERE run_id=?", (run_id,))

    def reap_stale_runs(self) -> list[int]:
        """Mark ``interrupted`` every ``running`` run whose process is gone; returns their ids.

        A run is gone when it ran on this host and its process id is not alive, or
        when it has not stored anything for :data:`STALE_AFTER_SECONDS`.
        """
        host, now = socket.gethostname(), time.time()
        with self._guard():
            running = self._db.execute(
                "SELECT run_id, pid, host, heartbeat FROM runs WHERE status='running'"
            ).fetchall()
            stale = [
                run_id
                for run_id, pid, run_host, beat in running
                if (run_host == host and pid is not None and not _alive(pid))
                or (beat is None or now - beat > STALE_AFTER_SECONDS)
            ]
            if stale:
                with self._db:
                    for run_id in stale:
                        self._db.execute(
                            "UPDATE runs SET status='interrupted', finished_at=? WHERE run_id=?",
                            (now, run_id),
                        )
                        self._db.execute("DELETE FROM claims WHERE run_id=?", (run_id,))
        return stale

    def runs(self) -> list[dict[str, Any]]:
        with self._guard():
            cur = self._db.execute("SELECT * FROM runs ORDER BY run_id")
            names = [d[0] for d in cur.description]
            return [dict(zip(names, row)) for row in cur]

    # -- results ------------------------------------------------------------------------

    def done_hashes(self, task: str, hashes: Iterable[str]) -> set[str]:
        """The subset of ``hashes`` already stored for ``task``."""
        with self._guard():
            return self._select_hashes("results", task, list(hashes))

    def _select_hashes(
        self, table: str, task: str, hashes: list[str], extra: str = "", args: tuple = ()
    ) -> set[str]:
        found: set[str] = set()
        # SQLite limits bound parameters; 500 per query stays far below every build's limit.
        for start in range(0, len(hashes), 500):
            part = hashes[start : start + 500]
            marks = ",".join("?" * len(part))
            cur = self._db.execute(
                f"SELECT input_hash FROM {table} WHERE task=? AND input_hash IN ({marks}){extra}",
                (task, *part, *args),
            )
            found.update(h for (h,) in cur)
        return found

    def claim(self, task: str, hashes: Sequence[str], run_id: int) -> tuple[set[str], set[str]]:
        """Claim the positions of ``hashes`` for ``run_id``: ``(stored, claimed by others)``.

        In one write transaction: the hashes already stored and those another
        run claimed are returned; every other hash is claimed for this run, which
        must then store it or end (:meth:`end_run` releases its claims).  A hash
        both stored and claimed counts as stored.
        """
        hashes = list(hashes)
        with self._guard(), self._db:
            self._db.execute("BEGIN IMMEDIATE")
            stored = self._select_hashes("results", task, hashes)
            others = self._select_hashes("claims", task, hashes, " AND run_id != ?", (run_id,))
            others -= stored
            self._db.executemany(
                "INSERT OR REPLACE INTO claims VALUES (?, ?, ?)",
                [(task, h, run_id) for h in hashes if h not in stored and h not in others],
            )
        return stored, others

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

    def add_encoded(self, task: str, rows: Sequence[EncodedRow], run_id: int) -> int:
        """:meth:`add` for rows of one task whose input and result are JSON text already.

        Each row is ``(input_hash, position_id, source, line, input_json,
        result_json, error, seconds, solver_version)``; the batch runner makes
        the text with a faster encoder (:mod:`engines.batch.jsontext`).
        """
        now = time.time()
        with self._guard(), self._db:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO results (task, input_hash, position_id, source, line, "
                "input, result, error, seconds, solver_version, run_id, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(task, *row, run_id, now) for row in rows],
            )
            added = self._db.total_changes - before
            self._db.execute("UPDATE runs SET heartbeat=? WHERE run_id=?", (now, run_id))
            return added

    def add_bad_input(self, task: str, source: str, line: int, reason: str, run_id: int) -> None:
        with self._guard(), self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO bad_inputs VALUES (?, ?, ?, ?, ?)",
                (task, source, line, reason, run_id),
            )

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
        with self._guard():
            if task is None:
                return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
            sql = "SELECT COUNT(*) FROM results WHERE task=?"
            return int(self._db.execute(sql, (task,)).fetchone()[0])

    def tasks(self) -> list[str]:
        with self._guard():
            sql = "SELECT DISTINCT task FROM results ORDER BY task"
            return [t for (t,) in self._db.execute(sql)]

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
            cur = self._db.execute(sql, params)
            names = [d[0] for d in cur.description]
            for raw in cur:
                row = dict(zip(names, raw))
                row["input"] = json.loads(row["input"])
                row["result"] = None if row["result"] is None else json.loads(row["result"])
                yield row


def _alive(pid: int) -> bool:
    """True when a process ``pid`` exists on this host (it may belong to another user)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True
