"""A run's own stored digests kept aside (``Known.put_aside``): the run's own claims and
commits never look among them, anything else on the connection does, so a position is
never stored twice and a later run on the same connection finds what the first stored."""

from __future__ import annotations

import json

import pytest
from tests.batch.test_batch_packed_store import _columns, _inputs

from engines.batch.runner import run_batch
from engines.batch.store import ResultStore

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")

TASK = "shengji-legal"


def _ended(store: ResultStore, run: int) -> None:
    store.end_run(run, computed=0, skipped=0, bad_inputs=0, status="finished")


def test_a_runs_stored_digests_stay_aside_and_count_as_stored_for_the_next_run(tmp_path):
    digests = [bytes([k]) * 16 for k in range(1, 6)]
    with ResultStore(str(tmp_path / "s.sqlite")) as store:
        assert store.payload_hashes(TASK, want=True)
        run = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(digests[:3]), run) == bytearray(3)
        assert store.add_packed(TASK, run, b"".join(digests[:2]), _columns(2, 1),
                                claimed=True) == 2  # fmt: skip
        known = store._known[TASK]
        assert known.aside == [b"".join(digests[:2])] and len(known.stored) == 0
        assert store.claim_digests(TASK, digests[3], run) == bytearray(1)  # (its own: aside)
        assert len(known.stored) == 0
        _ended(store, run)
        second = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(digests), second) == bytearray([1, 1, 0, 0, 0])
        assert known.aside == [] and len(known.stored) == 2


def test_rows_handed_over_unclaimed_are_looked_up_among_the_runs_own_stored(tmp_path):
    """A commit not marked claimed (the runner's after a failed transaction) settles the
    run's own digests first: what the run stored is not stored again."""
    digests = [bytes([k]) * 16 for k in range(1, 4)]
    with ResultStore(str(tmp_path / "s.sqlite")) as store:
        assert store.payload_hashes(TASK, want=True)
        run = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(digests), run) == bytearray(3)
        assert store.add_packed(TASK, run, digests[0], _columns(1, 1), claimed=True) == 1
        assert store.add_packed(TASK, run, b"".join(digests), _columns(3, 1)) == 2
        assert store.count(TASK) == 3


def test_a_second_packed_run_on_the_same_store_object_computes_nothing(tmp_path):
    _path, qpk = _inputs(tmp_path, TASK, 300, 3)
    with ResultStore(str(tmp_path / "s.sqlite"), payload_task=TASK) as store:
        first = run_batch([str(qpk)], TASK, store, jobs=1, progress=False, chunk_size=64,
                          store_layout="packed")  # fmt: skip
        rows = sorted(json.dumps(r, sort_keys=True) for r in store.rows(TASK))
        again = run_batch([str(qpk)], TASK, store, jobs=1, progress=False, chunk_size=64,
                          store_layout="packed")  # fmt: skip
        assert first.computed == again.already_stored > 0 and again.computed == 0
        assert sorted(json.dumps(r, sort_keys=True) for r in store.rows(TASK)) == rows


def _text_columns(count: int, first: int) -> list[list]:
    lines = list(range(first, first + count))
    return [[f"p{k}" for k in lines], ["in.jsonl"] * count, lines, ['{"a":1}'] * count,
            ['{"r":2}'] * count, [None] * count, [0.5] * count]  # fmt: skip


def test_the_rows_layout_keeps_a_runs_stored_digests_aside_the_same_way(tmp_path):
    """``add_columns(..., claimed=True)`` (the JSON Lines runner's commits): aside through
    the run's own claims, settled for another run's claim or an unclaimed commit."""
    digests = [bytes([k]) * 16 for k in range(1, 7)]
    with ResultStore(str(tmp_path / "s.sqlite")) as store:
        run = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(digests[:4]), run) == bytearray(4)
        assert store.add_columns(TASK, run, b"".join(digests[:2]), _text_columns(2, 1),
                                 distinct=True, claimed=True) == 2  # fmt: skip
        known = store._known[TASK]
        assert known.aside == [b"".join(digests[:2])] and len(known.stored) == 0
        assert store.claim_digests(TASK, digests[4], run) == bytearray(1)  # (its own: aside)
        # an unclaimed commit (after a failure) settles them first: stored once
        assert store.add_columns(TASK, run, b"".join(digests[:3]), _text_columns(3, 1),
                                 distinct=True) == 1  # fmt: skip
        assert known.aside == [] and len(known.stored) == 3
        assert store.add_columns(TASK, run, digests[3], _text_columns(1, 4), distinct=True,
                                 claimed=True) == 1  # fmt: skip
        _ended(store, run)
        second = store.begin_run(TASK, ["in"], workers=1, mode="x")
        assert store.claim_digests(TASK, b"".join(digests), second) == bytearray([1] * 4 + [0] * 2)
        assert known.aside == [] and store.count(TASK) == 4


def test_a_second_rows_run_on_the_same_store_object_computes_nothing(tmp_path):
    path, _qpk = _inputs(tmp_path, TASK, 300, 3)
    with ResultStore(str(tmp_path / "s.sqlite")) as store:
        first = run_batch([str(path)], TASK, store, jobs=1, progress=False, chunk_size=64)
        rows = sorted(json.dumps(r, sort_keys=True) for r in store.rows(TASK))
        again = run_batch([str(path)], TASK, store, jobs=1, progress=False, chunk_size=64)
        assert first.computed == again.already_stored > 0 and again.computed == 0
        assert sorted(json.dumps(r, sort_keys=True) for r in store.rows(TASK)) == rows
