"""Upgrading a result store of schema 1 (one row per position) to schema 2 (one row per chunk).

Schema 1 stored every position as its own ``results`` row and claimed each position with its
own ``claims`` row: two SQLite statements per position, which cost more than solving a
Shengji or 双扣 position.  Schema 2 keeps the same information in one ``chunks`` row per
stored chunk (and one ``claims`` row per claim transaction) and shows it as the view
``results`` with schema 1's columns.  A writable store of schema 1 is upgraded in place, in
one transaction, the first time a ``ResultStore`` opens it for writing; opened read-only it
is read as it is.

A store of schema 2 becomes one of schema 3 (:func:`upgrade_from_v2`) the same way: its
``chunks`` stay as they are, the table ``blocks`` and the view over both are added; one of
schema 3 becomes one of schema 4 (:func:`upgrade_from_v3`: claims may be digests) by its
version number alone.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import sqlite3
import time
from collections.abc import Callable

from engines.batch.store_schema import SCHEMA_VERSION, UPGRADE_FROM_2

#: Positions per chunk made from schema 1's rows.
UPGRADE_CHUNK = 4096
#: A running run that has not stored anything for this long is taken for dead, even when
#: a process of its id exists (ids are reused).
STALE_AFTER_SECONDS = 6 * 3600.0


def alive(pid: int) -> bool:
    """True when a process ``pid`` runs on this host (it may belong to another user); a
    zombie (killed, not yet reaped by its parent) is not alive."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # (another user's process: it exists, but may be a zombie)
        pass
    except OSError:
        return True
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether Linux's ``/proc`` says ``pid`` is a zombie: a run killed with ``kill -9`` stays
    one until its parent reaps it, which an init that does not reap (a container's) never
    does, and its claims would be left to it for :data:`STALE_AFTER_SECONDS`."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read()
    except OSError:  # (no /proc: another system; or the process went meanwhile)
        return False
    # (the state follows the command's name in parentheses, which may hold anything)
    return fields[fields.rfind(b")") + 1 :].split()[:1] == [b"Z"]


def is_dead(pid: int | None, host: str | None, heartbeat: float | None, now: float) -> bool:
    """A ``running`` run is dead when it ran on this host and its process is gone, or when it
    has not stored anything for :data:`STALE_AFTER_SECONDS`."""
    if host == socket.gethostname() and pid is not None and not alive(pid):
        return True
    return heartbeat is None or now - heartbeat > STALE_AFTER_SECONDS


class UpgradeRefused(Exception):
    """A live run of an older qipai still writes the store (the message names it)."""


def upgrade_from_v1(db: sqlite3.Connection, create_schema: Callable[[], None]) -> None:
    """Rewrite schema 1's ``results`` rows as ``chunks`` (per task, run and solver version,
    in file and line order) and drop its per-position claims, in one transaction.

    Raises :class:`UpgradeRefused` while a run recorded ``running`` is alive: its
    process (an older qipai) writes per-position rows and claims.
    """
    with db:
        if not _begin_upgrade(db, "1"):
            return
        db.execute("ALTER TABLE results RENAME TO results_v1")
        db.execute("DROP TABLE IF EXISTS claims")
        create_schema()
        cur = db.execute(
            "SELECT task, run_id, solver_version, finished_at, input_hash, position_id, source, "
            "line, input, result, error, seconds FROM results_v1 "
            "ORDER BY task, run_id, solver_version, source, line, position_id"
        )
        for (task, run_id, version), rows in itertools.groupby(cur, key=lambda r: r[:3]):
            while part := list(itertools.islice(rows, UPGRADE_CHUNK)):
                db.execute(
                    "INSERT INTO chunks (task, run_id, solver_version, finished_at, size, "
                    "hashes, rows) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (task, run_id, version, max(r[3] for r in part), len(part),
                     " ".join(r[4] for r in part),
                     json.dumps([r[4:] for r in part], separators=(",", ":"))),
                )  # fmt: skip
        db.execute("DROP TABLE results_v1")
        _mark_current(db)


def upgrade_from_v2(db: sqlite3.Connection, create_schema: Callable[[], None]) -> None:
    """Add schema 3's ``blocks`` table and the view over ``chunks`` and ``blocks``, in one
    transaction.  Raises :class:`UpgradeRefused` while a run recorded ``running`` is alive:
    an older qipai, which would not see the positions stored in ``blocks``."""
    _add_schema(db, "2", UPGRADE_FROM_2, create_schema)


def upgrade_from_v3(db: sqlite3.Connection, create_schema: Callable[[], None]) -> None:
    """Mark a store of schema 3 as one of schema 4 (the same tables; claims written as
    digests from now on).  Raises :class:`UpgradeRefused` while a run recorded ``running``
    is alive: an older qipai, which reads claims as text."""
    _add_schema(db, "3", (), create_schema)


def _add_schema(db: sqlite3.Connection, version: str, statements: tuple[str, ...],
                create_schema: Callable[[], None]) -> None:
    """The upgrades that rewrite no rows: in one transaction, ``statements``, the current
    schema's tables (those missing), and the version number."""
    with db:
        if not _begin_upgrade(db, version):
            return
        for statement in statements:
            db.execute(statement)
        create_schema()
        _mark_current(db)


def _mark_current(db: sqlite3.Connection) -> None:
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION),))


def _begin_upgrade(db: sqlite3.Connection, version: str) -> bool:
    """Start the write transaction of an upgrade from ``version``: False when another
    process upgraded the store meanwhile; :class:`UpgradeRefused` when a run recorded
    ``running`` is alive (an older qipai)."""
    db.execute("BEGIN IMMEDIATE")
    found = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if found is None or found[0] != version:
        return False
    columns = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    if {"pid", "host", "heartbeat"} <= columns:
        now = time.time()
        sql = "SELECT run_id, pid, host, heartbeat FROM runs WHERE status='running'"
        for run_id, pid, host, beat in db.execute(sql).fetchall():
            if not is_dead(pid, host, beat, now):
                raise UpgradeRefused(
                    f"run {run_id} (process {pid} on {host}) of an older qipai is still "
                    "writing it; rerun when it has finished"
                )
    return True
