"""Export a result store as CSV or JSON Lines (``qipai results export``).

Every row carries the position's id from the input, where it came from (file,
line), the task, the input hash, the canonical input, the result (or error),
the seconds charged to it and the solver version.  In CSV the input and the
result are JSON text in one column each.

>>> import io
>>> from engines.batch.store import ResultRow, ResultStore
>>> store = ResultStore(":memory:")
>>> run = store.begin_run("t", [], workers=1, mode="local")
>>> _ = store.add([ResultRow("t", "h1", "p1", "f.jsonl", 1, {"x": 1}, {"y": 2}, None, 0.25)], run)
>>> out = io.StringIO()
>>> export(store, out, "jsonl")
1
>>> print(out.getvalue().strip()[:60])
{"id": "p1", "task": "t", "source": "f.jsonl", "line": 1, "i
"""

from __future__ import annotations

import csv
import json
from typing import TextIO

from engines.batch.store import ResultStore
from engines.errors import InputError

FORMATS = ("csv", "jsonl")
COLUMNS = (
    "id",
    "task",
    "source",
    "line",
    "input_hash",
    "input",
    "result",
    "error",
    "seconds",
    "solver_version",
)


def export(store: ResultStore, out: TextIO, fmt: str, *, task: str | None = None) -> int:
    """Write every row of ``store`` (only ``task``'s when given) to ``out``; returns the count."""
    if fmt not in FORMATS:
        raise InputError(f"unknown export format {fmt!r}; choose one of {', '.join(FORMATS)}")
    n = 0
    writer = csv.writer(out, lineterminator="\n") if fmt == "csv" else None
    if writer is not None:
        writer.writerow(COLUMNS)
    for row in store.rows(task):
        record = {
            "id": row["position_id"],
            "task": row["task"],
            "source": row["source"],
            "line": row["line"],
            "input_hash": row["input_hash"],
            "input": row["input"],
            "result": row["result"],
            "error": row["error"],
            "seconds": row["seconds"],
            "solver_version": row["solver_version"],
        }
        if writer is None:
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
        else:
            writer.writerow(
                [_csv_cell(record[c], as_json=c in ("input", "result")) for c in COLUMNS]
            )
        n += 1
    return n


def _csv_cell(value: object, *, as_json: bool) -> object:
    # Empty cells for missing values (an errored position has no result, a good one no error).
    if value is None:
        return ""
    return json.dumps(value, sort_keys=True, ensure_ascii=False) if as_json else value
