"""The embedded SQLite result store of ``qipai batch``.

One row per (task, input hash): the position's id and origin (file, line), the
canonical input, the result as JSON (or the error message when the solver
refused the position), the seconds it took and the solver version.  Results are
committed in small transactions, one per finished chunk, so an interrupted run
(Ctrl-C, ``kill -9``, power loss) loses at most the chunks in flight; the
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
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
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


class StoreError(InputError):
    """The database file cannot be used as a result store."""


class ResultStore:
    """A result database; ``path`` is created when missing (``":memory:"`` works too)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=30.0)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: a committed chunk survives power loss, not only a killed process.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_SCHEMA)
            found = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if found is None:
                with self._db:
                    self._db.execute(
                        "INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                    )
            elif int(found[0]) != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: result store schema {found[0]}, this qipai reads "
                    f"{SCHEMA_VERSION}"
                )
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot open the result database: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a qipai result database: {exc}") from exc

    @classmethod
    def open_existing(cls, path: str | Path) -> ResultStore:
        """Open a database that must already exist (for export and report)."""
        if str(path) != ":memory:" and not Path(path).is_file():
            raise StoreError(f"{path}: no such result database")
        return cls(path)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- runs ---------------------------------------------------------------------------

    def begin_run(self, task: str, inputs: Sequence[str], *, workers: int, mode: str) -> int:
        """Record the start of a run; returns its id."""
        with self._db:
            cur = self._db.execute(
                "INSERT INTO runs (task, inputs, mode, workers, solver_version, started_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (task, json.dumps(list(inputs)), mode, workers, __version__, time.time()),
            )
        return int(cur.lastrowid)

    def end_run(
        self, run_id: int, *, computed: int, skipped: int, bad_inputs: int, status: str
    ) -> None:
        """Close a run record (``status``: ``finished``, ``interrupted`` or ``failed``)."""
        with self._db:
            self._db.execute(
                "UPDATE runs SET finished_at=?, computed=?, skipped=?, bad_inputs=?, status=? "
                "WHERE run_id=?",
                (time.time(), computed, skipped, bad_inputs, status, run_id),
            )

    def runs(self) -> list[dict[str, Any]]:
        cur = self._db.execute("SELECT * FROM runs ORDER BY run_id")
        names = [d[0] for d in cur.description]
        return [dict(zip(names, row)) for row in cur]

    # -- results ------------------------------------------------------------------------

    def done_hashes(self, task: str, hashes: Iterable[str]) -> set[str]:
        """The subset of ``hashes`` already stored for ``task``."""
        hashes = list(hashes)
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
        now = time.time()
        with self._db:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO results (task, input_hash, position_id, source, line, "
                "input, result, error, seconds, solver_version, run_id, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.task,
                        r.input_hash,
                        r.position_id,
                        r.source,
                        r.line,
                        json.dumps(r.input, sort_keys=True, separators=(",", ":")),
                        None
                        if r.error is not None
                        else json.dumps(r.result, sort_keys=True, separators=(",", ":")),
                        r.error,
                        r.seconds,
                        r.solver_version,
                        run_id,
                        now,
                    )
                    for r in rows
                ],
            )
            return self._db.total_changes - before

    def add_bad_input(self, task: str, source: str, line: int, reason: str, run_id: int) -> None:
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO bad_inputs VALUES (?, ?, ?, ?, ?)",
                (task, source, line, reason, run_id),
            )

    def bad_inputs(self, task: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT task, source, line, reason FROM bad_inputs"
        cur = (
            self._db.execute(sql + " WHERE task=? ORDER BY source, line", (task,))
            if task
            else self._db.execute(sql + " ORDER BY task, source, line")
        )
        return [dict(zip(("task", "source", "line", "reason"), row)) for row in cur]

    def count(self, task: str | None = None) -> int:
        if task is None:
            return int(self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        return int(
            self._db.execute("SELECT COUNT(*) FROM results WHERE task=?", (task,)).fetchone()[0]
        )

    def tasks(self) -> list[str]:
        return [t for (t,) in self._db.execute("SELECT DISTINCT task FROM results ORDER BY task")]

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
        cur = self._db.execute(sql, params)
        names = [d[0] for d in cur.description]
        for raw in cur:
            row = dict(zip(names, raw))
            row["input"] = json.loads(row["input"])
            row["result"] = None if row["result"] is None else json.loads(row["result"])
            yield row
