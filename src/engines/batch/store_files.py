"""How the result store's SQLite file is opened: its journal, and reading it read-only.

A new store keeps a write-ahead log (:data:`JOURNAL_MODE`).  A store in a rollback
journal (converted when written) is read safely: a read-only connection cannot undo a
transaction that a killed writer left half done (SQLite calls its journal "hot"), and
would read half a transaction if it read the file as it is, so :func:`connect_readonly`
has it undone first, as any connection that may write does on opening; it reads a WAL
store in a folder it cannot write as a fixed file.

A new store is built whole in a file of its own next to the target (:func:`create_new`:
no journal, no disk syncs, its empty tables written once, not to the log and then to
the database), synced once and linked into place, so a store file never exists half made.

>>> in_wal_mode("/no/such/file.sqlite")
False
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from pathlib import Path

from engines.batch.store_errors import StoreError
from engines.batch.store_packed import choose_payload_hashes
from engines.batch.store_schema import PAGE_SIZE, create_tables

#: Journal of a new store: a write-ahead log, whose bookkeeping commits (claims, runs) do
#: not wait for the disk.  A rollback journal ("TRUNCATE") writes the rows once instead of
#: twice (log, then checkpoint): 5-9 % less CPU a position for 升级/双扣 when the disk
#: syncs in under a millisecond, but 37-55 syncs a 20,000-position run against 14 (each
#: commit syncs two or three times), so 20-70 % more wall time and no CPU gained where a
#: sync takes 4 ms (benches/README.md #16).  A store in another mode is converted when
#: opened for writing; one in a rollback journal is read safely (:func:`connect_readonly`,
#: ``ResultStore.rows``).
JOURNAL_MODE = "WAL"

#: How long a connection waits for another's lock (a commit, a reader's copy).
BUSY_SECONDS = 60.0


def connect(path: str, *, readonly: bool, journal: str, busy: float,
            payload_task: str | None = None) -> sqlite3.Connection:  # fmt: skip
    """The store's connection: :func:`connect_readonly`, or one that writes, which first
    creates a new store whole (:func:`create_new`) when nothing is at ``path``, with
    ``payload_task`` hashing payloads already when given."""
    if readonly:
        return connect_readonly(path)
    create_new(path, journal, payload_task=payload_task)
    db = sqlite3.connect(path, timeout=busy, check_same_thread=False)
    # What a write frees (a run's claims, deleted when it ends: 16 bytes a position it
    # claimed) is not overwritten with zeros, which SQLite builds with SECURE_DELETE do (and
    # so write every freed page to the log, then to the database): the claims hold digests
    # that the stored blocks hold too.  ~1.5 ms of the main thread's CPU at 100,000 positions.
    db.execute("PRAGMA secure_delete=FAST")
    return db


def connect_readonly(path: str) -> sqlite3.Connection:
    """A connection that never writes ``path`` (nor its folder), but to undo a transaction
    cut short (see the module's notes)."""
    uri = Path(path).resolve().as_uri()
    for attempt in range(2):
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS)
        try:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError as exc:
            db.close()
            if exc.sqlite_errorname == "SQLITE_READONLY_ROLLBACK" and not attempt:
                _roll_back(path)
            elif in_wal_mode(path):
                # A WAL database in a folder we cannot write: read it as a fixed file.
                return sqlite3.connect(f"{uri}?immutable=1", uri=True)
            else:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _roll_back(path: str) -> None:
    """Undo the transaction whose journal is hot: a connection that may write does it on
    its first read."""
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=BUSY_SECONDS)) as db:
            db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        raise StoreError(
            f"{path}: a write to this result database was cut short and must be undone from "
            f"{path}-journal first, which needs write access to the file and its folder: "
            "rerun qipai batch on it where it is writable"
        ) from None


def in_wal_mode(path: str) -> bool:
    """Whether the SQLite file ``path`` is in WAL mode (its header's format bytes are 2)."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(20)
    except OSError:
        return False
    return header[:16] == b"SQLite format 3\x00" and header[18:20] == b"\x02\x02"


def create_new(path: str, journal: str, *, payload_task: str | None = None) -> bool:
    """Create the store ``path`` whole when nothing is there yet; whether it did.

    The schema is written into a new file beside ``path`` (no journal, no syncs: until it
    is linked nobody else sees it), which is synced once, linked to ``path`` (which fails
    if ``path`` appeared meanwhile: another run created it first) and then removed.  A
    crash leaves either no ``path`` or a whole one (a hidden ``.NAME.*.creating`` file may
    stay behind).  The folder is not synced here: SQLite syncs it when it creates the
    store's log (or rollback journal) in it, on the first write and before any commit that
    waits for the disk, and that makes the link durable too; a power loss before then
    loses a store that holds nothing.  False (nothing done) for ``:memory:``, when ``path``
    exists, or a ``-wal``/``-journal`` file of it does (a stale log of an earlier file of
    that name: the in-place creation discards it, a whole store would replay it), or on any
    failure: the caller then opens ``path`` as before, which creates it in place or reports
    the fault as usual.

    ``payload_task``: a task that the new store hashes by its packed payloads from the start,
    recorded as a run that chose so in it records it (``choose_payload_hashes``), but in the
    same transaction rather than in one of its own after (which wrote the whole pages it
    touched twice, to the log and the database: ~0.7 ms a run).
    """
    if not path or path == ":memory:" or path.startswith("file:"):
        return False
    if any(os.path.lexists(path + end) for end in ("", "-wal", "-journal")):
        return False
    folder, name = os.path.split(os.path.abspath(path))
    temp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.creating")
    try:
        os.close(os.open(temp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except OSError:
        return False
    try:
        _build(temp, journal, payload_task)
        with open(temp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.link(temp, path)
    except (OSError, sqlite3.Error):
        return False
    finally:
        for end in ("", "-wal", "-shm"):
            with contextlib.suppress(OSError):
                os.unlink(temp + end)
    return True


def _build(temp: str, journal: str, payload_task: str | None = None) -> None:
    """The empty store in ``temp``: in one transaction without journal nor syncs, then put
    in WAL mode (the header's format bytes: no log is written) when ``journal`` is WAL."""
    with contextlib.closing(sqlite3.connect(temp, isolation_level=None)) as db:
        db.execute(f"PRAGMA page_size={PAGE_SIZE}")
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("BEGIN")
        create_tables(db)
        if payload_task is not None:
            choose_payload_hashes(db, payload_task)
        db.execute("COMMIT")
        if journal.upper() == "WAL":
            db.execute("PRAGMA journal_mode=WAL").fetchone()
