"""Helpers shared by the batch tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engines.batch.runner import run_batch


def _stored_run(path: Path, task, db: Path) -> tuple:
    """Run ``task`` on ``path`` into ``db``: the stored rows, bad lines and summary counts."""
    summary = run_batch([str(path)], task, str(db), jobs=1, progress=False, on_bad_input=None)
    con = sqlite3.connect(db)
    rows = con.execute("SELECT input_hash, position_id, line, input, result, error "
                       "FROM results ORDER BY line").fetchall()  # fmt: skip
    bad = con.execute("SELECT line, reason FROM bad_inputs ORDER BY line").fetchall()
    con.close()
    counts = (summary.positions, summary.computed, summary.duplicates, summary.rejected)
    return rows, bad, counts


@pytest.fixture
def stored_run():
    return _stored_run


@pytest.fixture
def packed_blocks_layout(monkeypatch):
    """升级's and 双扣's packed inputs stored as packed blocks (``store_layout="auto"``'s
    choice before those tasks were kept by place, and a layout that stores of schema 6 and 7
    still hold): for the tests of that layout, which call the runner with its default."""
    import dataclasses

    from engines.batch.tasks import TASKS

    for name in ("shengji-legal", "shuangkou-legal"):
        task = dataclasses.replace(TASKS[name], keyed_by_place=False)
        monkeypatch.setitem(TASKS._tasks, name, task)
