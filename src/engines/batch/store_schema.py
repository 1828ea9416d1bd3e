"""The result store's SQL schema (version 4; :mod:`engines.batch.store_v1` upgrades 1 to 3).

Schema 3 adds the table ``blocks``: what the batch runner stores, about half the bytes of
schema 2's ``chunks`` rows (the source once a block, the input hashes as 16-byte digests,
inputs and results as JSON values rather than escaped strings, no ``null`` error).  The
``chunks`` table of schema 2 stays: a store of schema 2 becomes one of schema 3 by adding
``blocks`` and the view over both (:data:`UPGRADE_FROM_2`), nothing is rewritten, and the
general :meth:`~engines.batch.store.ResultStore.add` still writes ``chunks`` rows (its
hashes need not be digests).

Schema 4 has schema 3's tables; what changed is what a ``claims`` row may hold: the batch
runner writes the hashes it claims as one blob of 16-byte digests (half the bytes of
schema 3's hexadecimal text, with nothing to format), which a qipai of schema 3 would not
read, so such a qipai refuses a store of schema 4 (it names the version) and a store of
schema 3 is upgraded (its version changed) only when no run of an older qipai is alive.

Schema 6 is schema 4 with the table ``packed_blocks``, made (and the version changed) only
when a task first chooses to be stored so (:mod:`engines.batch.store_packed`); a new store
is of schema 4 until then.  Schema 5 was that table's first form, written only by a
development qipai, and is refused by name (:func:`engines.batch.store_packed.refused_schema`).
Schema 7 is schema 6 whose packed blocks hold no input hashes (the readers hash the stored
payloads) and a column of one repeated integer once: what this qipai makes when it adds
the table; a store of schema 6 keeps the form of 6 (a qipai of 6 may write it too).
Schema 8 is schema 7 (or 4) with the tables of tasks kept by place
(:mod:`engines.batch.store_placed`), made when a task first chooses to be stored so.
"""

from __future__ import annotations

import re
import sqlite3

from engines.batch.store_errors import StoreError
from engines.batch.store_packed import (
    DIGESTS_SCHEMA_VERSION,
    PACKED_SCHEMA_VERSION,
    refused_schema,
)
from engines.batch.store_placed import PLACED_SCHEMA_VERSION

SCHEMA_VERSION = 4

#: Page size of a new store: SQLite writes a block's bytes twice (log and database) one page
#: at a time, so large pages cost less a byte (64 KiB: ~30 % less CPU than 4 KiB), but each
#: small transaction (claims, runs, the index entries of a commit) and the new store's empty
#: tables write whole pages: 32 KiB gives a run of 20,000 packed positions 3-7 % less CPU on
#: the runner's main thread than 64 KiB, the same at 100,000 (benches/README #16).
PAGE_SIZE = 32768

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )""",
    # One row per stored chunk: ``hashes`` the input hashes separated by spaces (read by
    # every run that checks what is stored), ``rows`` a JSON array of one
    # [input_hash, position_id, source, line, input, result, error, seconds] per position.
    """CREATE TABLE IF NOT EXISTS chunks (
        chunk_id INTEGER PRIMARY KEY AUTOINCREMENT,
        task TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        solver_version TEXT NOT NULL,
        finished_at REAL NOT NULL,
        size INTEGER NOT NULL,
        hashes TEXT NOT NULL,
        rows TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS chunks_by_task ON chunks (task, chunk_id)",
    # (pid, host, heartbeat: added to an older store's table by ALTER TABLE, see
    # engines.batch.store._RUN_COLUMNS; a new one has them at once)
    """CREATE TABLE IF NOT EXISTS runs (
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
        status TEXT NOT NULL DEFAULT 'running',
        pid INTEGER,
        host TEXT,
        heartbeat REAL
    )""",
    # One row per claim transaction: the hashes a run will compute, 16-byte digests in one
    # blob (schema 4, the batch runner) or text separated by spaces (ResultStore.claim).
    """CREATE TABLE IF NOT EXISTS claims (
        claim_id INTEGER PRIMARY KEY AUTOINCREMENT,
        task TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        hashes TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS claims_by_task ON claims (task, claim_id)",
    """CREATE TABLE IF NOT EXISTS bad_inputs (
        task TEXT NOT NULL,
        source TEXT NOT NULL,
        line INTEGER NOT NULL,
        reason TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        PRIMARY KEY (task, source, line)
    )""",
    # One row per block the runner stored (schema 3): ``digests`` the input hashes, 16 bytes
    # each, ``source`` the input file of every position, ``rows`` a JSON array of one
    # [position_id, line, input, seconds, result] (error rows: [..., seconds, null, error])
    # per position, where input and result are the JSON value when their canonical text is
    # an object or array of plain JSON, else that text as a JSON string.
    """CREATE TABLE IF NOT EXISTS blocks (
        block_id INTEGER PRIMARY KEY AUTOINCREMENT,
        task TEXT NOT NULL,
        run_id INTEGER NOT NULL,
        solver_version TEXT NOT NULL,
        finished_at REAL NOT NULL,
        size INTEGER NOT NULL,
        source TEXT NOT NULL,
        digests BLOB NOT NULL,
        rows TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS blocks_by_task ON blocks (task, block_id)",
    # The rows of the chunks and blocks, one per position, with the columns of schema 1's
    # table: what ``rows()`` reads and what a user's own SQL may query.  json_extract gives
    # an object's or array's JSON text as it was written (the canonical text), and a
    # string's text.
    """CREATE VIEW IF NOT EXISTS results AS SELECT
        c.task AS task,
        json_extract(r.value, '$[0]') AS input_hash,
        json_extract(r.value, '$[1]') AS position_id,
        json_extract(r.value, '$[2]') AS source,
        json_extract(r.value, '$[3]') AS line,
        json_extract(r.value, '$[4]') AS input,
        json_extract(r.value, '$[5]') AS result,
        json_extract(r.value, '$[6]') AS error,
        json_extract(r.value, '$[7]') AS seconds,
        c.solver_version AS solver_version,
        c.run_id AS run_id,
        c.finished_at AS finished_at
    FROM chunks AS c, json_each(c.rows) AS r
    UNION ALL SELECT
        b.task AS task,
        lower(hex(substr(b.digests, 16 * r.key + 1, 16))) AS input_hash,
        json_extract(r.value, '$[0]') AS position_id,
        b.source AS source,
        json_extract(r.value, '$[1]') AS line,
        json_extract(r.value, '$[2]') AS input,
        json_extract(r.value, '$[4]') AS result,
        json_extract(r.value, '$[5]') AS error,
        json_extract(r.value, '$[3]') AS seconds,
        b.solver_version AS solver_version,
        b.run_id AS run_id,
        b.finished_at AS finished_at
    FROM blocks AS b, json_each(b.rows) AS r""",
)

#: The tables, indexes and view of :data:`SCHEMA`: a store that has them all (and the run
#: columns) is opened without the write transaction of :func:`create_tables`.
SCHEMA_NAMES = frozenset(re.search(r"IF NOT EXISTS (\w+)", s)[1] for s in SCHEMA)

#: A store of schema 2 made one of schema 3 (in one transaction, with SCHEMA after it).
UPGRADE_FROM_2 = ("DROP VIEW IF EXISTS results",)


def create_tables(db: sqlite3.Connection) -> None:
    """Every table, index and view of :data:`SCHEMA` that ``db`` lacks, and the
    ``schema_version`` row when there is none (in the caller's transaction)."""
    for statement in SCHEMA:
        db.execute(statement)
    db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))


def stored_version(path: str, db: sqlite3.Connection, tables: set[str]) -> str:
    """The schema version of the store ``path`` (``db``, with ``tables``, some), one this qipai
    reads (1 to 4, 6 or :data:`~engines.batch.store_packed.PACKED_SCHEMA_VERSION`); a file that
    is not a result store, or one of another schema, is refused by a :class:`StoreError`."""
    if "meta" not in tables:
        raise StoreError(
            f"{path}: this SQLite file is not a qipai result database (it has tables "
            f"{', '.join(sorted(tables)[:5])} and no qipai meta table); it was left "
            "untouched: pass another --db file"
        )
    found = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    if found is None:
        raise StoreError(
            f"{path}: this SQLite file is not a qipai result database (its meta "
            "table has no schema_version); it was left untouched: pass another --db file"
        )
    version = found[0]
    if refusal := refused_schema(path, version):
        raise StoreError(refusal)
    readable = ("1", "2", "3", str(SCHEMA_VERSION), str(DIGESTS_SCHEMA_VERSION),
                str(PACKED_SCHEMA_VERSION), str(PLACED_SCHEMA_VERSION))  # fmt: skip
    if version not in readable:
        raise StoreError(
            f"{path}: result store schema {version}, this qipai reads schemas 1 "
            f"to 4, {DIGESTS_SCHEMA_VERSION}, {PACKED_SCHEMA_VERSION} and {PLACED_SCHEMA_VERSION}; "
            "use the qipai that "
            "wrote it, or a new --db file"
        )
    return version
