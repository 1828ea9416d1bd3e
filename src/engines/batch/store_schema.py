"""The result store's SQL schema (version 2; :mod:`engines.batch.store_v1` upgrades version 1)."""

from __future__ import annotations

SCHEMA_VERSION = 2

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
        status TEXT NOT NULL DEFAULT 'running'
    )""",
    # One row per claim transaction: the hashes (separated by spaces) a run will compute.
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
    # The rows of the chunks, one per position, with the columns of schema 1's table: what
    # ``rows()`` reads and what a user's own SQL may query.
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
    FROM chunks AS c, json_each(c.rows) AS r""",
)
