"""The result store's faults as :class:`StoreError`, each naming the file and what to do."""

from __future__ import annotations

import sqlite3

from engines.errors import InputError


class StoreError(InputError):
    """The database file cannot be used as a result store (the message says what to do)."""


def explain(path: str, exc: sqlite3.Error) -> str:
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
