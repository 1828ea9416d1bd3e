"""The runner's block path: blocks of input read and hashed on worker threads without the
GIL (``RecordLayout.scan_hashed``), and the rows' text written on the solving threads
(``written_runs``, ``joined_runs``), against the steps they replace.

The scanner's digests are ``text_digests`` of its texts; a block's text written in parts
and joined is the text written at once; whole runs through the block path (several
files, chunks and commits of every size, ids that are not ASCII) store what the plain
path stores.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.batch.test_batch_records import CASES, _lines

from engines.batch.store_rows import placed_runs, written_runs
from engines.batch.tasks import get_task
from solvers._batch_hashes import text_digests
from solvers._batch_rows import block_json


@pytest.mark.parametrize("task_name", list(CASES))
def test_scan_hashed_is_scan_text_and_its_digests(task_name):
    layout = get_task(task_name).records()
    lines = [line for line in _lines(task_name, 40, 5) if line.isascii()]
    text = "\n".join(lines)
    plain = layout.scan_text(text)
    status, texts, ids, packs, refer, digests = layout.scan_hashed(text)
    assert (status, texts, ids, packs, refer) == plain
    assert digests == text_digests(texts)
    assert len(texts) > 40 and len(refer) > 40
    assert layout.scan_hashed("") == (bytearray(), [], [], [], [], b"")
    with pytest.raises(ValueError):
        layout.scan_hashed("\u00e9")


_TEXT = st.text(max_size=20) | st.sampled_from(['{"a":[1,"}"]}', "[]", "{", '"x"'])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a.jsonl", "b.jsonl"]), st.text(max_size=8),
                          st.integers(-5, 2**40), _TEXT, _TEXT, st.none() | st.text(max_size=8),
                          st.floats(0, 1e6, allow_nan=False)), max_size=12),
       st.lists(st.integers(1, 5), max_size=6))  # fmt: skip
def test_blocks_written_in_parts_are_the_rows_runs_of_one_source(cases, cuts):
    """Rows cut into chunks (``cuts``), each chunk's runs of one source written apart and
    placed: blocks that cover the rows in order, each one source's rows as ``block_json``
    writes them (or ``None`` when a text of any chunk is not ASCII: the store then writes
    the whole commit itself)."""
    columns = [list(c) for c in zip(*cases)] if cases else [[] for _ in range(7)]
    parts, sizes, lo = [], [], 0
    for size in [*cuts, len(cases)]:
        hi = min(len(cases), lo + size)
        if hi > lo:
            parts.append(written_runs(*(c[lo:hi] for c in columns)))
            sizes.append(hi - lo)
        lo = hi
    placed = placed_runs(parts, sizes)
    if placed is None:
        assert any(not s.isascii() for row in cases for s in row if isinstance(s, str))
        return
    assert [(a, b) for a, b, _ in placed] == [(a, b) for a, b in zip(
        [0, *(b for _, b, _ in placed[:-1])], [b for _, b, _ in placed])]  # fmt: skip
    assert sum(sizes) == (placed[-1][1] if placed else 0)
    for a, b, text in placed:
        assert len(set(columns[0][a:b])) == 1
        assert text == block_json(*(c[a:b] for c in columns[1:]))


def _stored(con):
    rows = con.execute("SELECT source, line, input_hash, position_id, input, result, error "
                       "FROM results ORDER BY source, line").fetchall()  # fmt: skip
    bad = con.execute("SELECT source, line, reason FROM bad_inputs ORDER BY source, line")
    return rows, bad.fetchall()


@pytest.mark.parametrize("task_name", list(CASES))
@pytest.mark.parametrize("jobs, chunk", [(1, None), (2, 7), (3, 1)])
def test_block_path_stores_what_the_plain_path_stores(tmp_path, task_name, jobs, chunk):
    rng = random.Random(jobs)
    paths = []
    for k in range(3):
        lines = _lines(task_name, 8, 20 + k)
        rng.shuffle(lines)
        lines += lines[:5]  # repeats, within and across files
        if k == 1:
            lines.append(json.dumps({**next(iter(CASES[task_name](1, 3))), "id": "caf\u00e9"}))
        path = tmp_path / f"in{k}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    stores = fast_and_plain_stores(paths, task_name, jobs, chunk, tmp_path)
    assert len(stores[0][0][0]) > 30 and len(stores[0][0][1]) > 30


def fast_and_plain_stores(paths, task_name, jobs, chunk, tmp_path, *, ascii_only=False):
    """Run ``paths`` through the task's fast path and its plain path (no native reader):
    what each stored (rows, bad lines), the counts and, for ``ascii_only`` inputs, the
    stored JSON types; both must be equal, and a rerun must find everything stored.  (A
    row that is not ASCII makes its commit's rows of one source stored as strings, and
    which rows share a commit depends on timing: JSON types compare only without one.)"""
    import sqlite3

    from engines.batch.runner import run_batch

    fast = get_task(task_name)
    plain = dataclasses.replace(fast, records=None, payload_columns=False)
    stores = []
    for i, task in enumerate((fast, plain)):
        db = tmp_path / f"{i}.sqlite"
        summary = run_batch(paths, task, str(db), jobs=jobs, chunk_size=chunk, progress=False,
                            on_bad_input=None)  # fmt: skip
        con = sqlite3.connect(db)
        types = con.execute("SELECT json_type(r.value, '$[2]'), json_type(r.value, '$[4]') "
                            "FROM blocks b, json_each(b.rows) r").fetchall() if ascii_only \
            else []  # fmt: skip
        counts = (summary.positions, summary.computed, summary.duplicates, summary.rejected)
        stores.append((_stored(con), sorted(types), counts))
        con.close()
        again = run_batch(paths, task, str(db), jobs=jobs, progress=False, on_bad_input=None)
        assert again.computed == 0 and again.already_stored == summary.computed
    assert stores[0] == stores[1]
    return stores


def test_reading_threads_are_bounded_by_the_cores(tmp_path):
    """One reading thread a worker, never more than the machine's cores (each reads a few
    blocks ahead, so memory stays bounded whatever ``jobs`` says); none for a task whose
    reader does not hash without the GIL."""
    import os

    from engines.batch.runner import _NativeThreads, _readers

    cores = os.cpu_count() or 1
    for jobs in (1, 2, 4096):
        pool = _readers(get_task("shengji-legal"), _NativeThreads(jobs))
        assert pool is not None and pool._max_workers == min(jobs, cores)
        pool.shutdown()
    assert _readers(get_task("bridge-table"), _NativeThreads(2, per_chunk=True)) is None
