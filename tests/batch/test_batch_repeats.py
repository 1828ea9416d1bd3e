"""Positions repeated within one run: the first occurrence is the one stored, whichever
thread checks a block against the run's digest set (a packed file's blocks are checked on
the reading threads, those of JSON Lines on the runner's thread)."""

from __future__ import annotations

import io
import json
import random
import threading

import pytest
from tests.batch.test_batch_records import CASES

import engines.batch.packed as packed_module
import engines.batch.positions as positions_module
import engines.batch.rows as rows_module
from engines.batch.export import export
from engines.batch.packed import write_packed
from engines.batch.positions import position_blocks
from engines.batch.runner import run_batch
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from solvers._batch_hashes import DigestSet, blake2b16

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")

TASKS = ["shengji-legal", "shuangkou-legal"]


def _repeated_input(tmp_path, task_name: str):
    """300 positions, ~a third of them repeated (under new ids) within a few records and
    far later, then the same packed (``.qpk``)."""
    rng = random.Random(11)
    cases = list(CASES[task_name](200, 5))
    lines = []
    for n, case in enumerate(cases):
        lines.append(dict(case, id=f"p{n}"))
        if rng.random() < 0.2:  # again soon (the same block, or the next)
            lines.append(dict(case, id=f"near{n}"))
    for n in rng.sample(range(len(cases)), 60):  # again far on (later blocks)
        lines.append(dict(cases[n], id=f"far{n}"))
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    qpk = tmp_path / "in.qpk"
    with open(qpk, "wb") as handle:
        write_packed(get_task(task_name), [str(path)], handle, lambda *_: None)
    return path, qpk, len(lines)


def _stored(db) -> tuple[list[tuple], list[dict]]:
    """The rows (id, line, input, result) and the export but for each row's seconds."""
    with ResultStore.open_existing(db) as store:
        rows = sorted((r["position_id"], r["line"], r["input"], r["result"])
                      for r in store.rows())  # fmt: skip
        out = io.StringIO()
        export(store, out, "jsonl")
    exported = [json.loads(line) for line in out.getvalue().splitlines()]
    for row in exported:
        row.pop("seconds")
    return rows, exported


@pytest.mark.parametrize("task_name", TASKS)
def test_repeats_in_a_packed_run_are_dropped_where_read_as_on_the_runners_thread(
    tmp_path, monkeypatch, task_name
):
    """Blocks of a few records (so that the two reading threads of -j 2 finish them out of
    order): every block of the packed file is checked on a reading thread, and the stored
    rows, exports and counts are those of the same run checked on the runner's thread (as
    JSON Lines are), which keeps each position where it first comes."""
    path, qpk, total = _repeated_input(tmp_path, task_name)
    monkeypatch.setattr(packed_module, "_BLOCK_BYTES", 1024)
    checked: list[tuple[int, str]] = []

    class Recorded(positions_module._FirstSeen):
        def check(self, index, digests):
            checked.append((index, threading.current_thread().name))
            return super().check(index, digests)

    def unchecked(*args, seen=None, **kwargs):  # (the blocks checked by todo itself)
        return position_blocks(*args, **kwargs)

    monkeypatch.setattr(positions_module, "_FirstSeen", Recorded)
    for jobs in (1, 2):
        for layout in ("auto", "rows"):
            checked.clear()
            a, b = tmp_path / f"a{jobs}{layout}.sqlite", tmp_path / f"b{jobs}{layout}.sqlite"
            packed = run_batch([str(qpk)], task_name, str(a), jobs=jobs, progress=False,
                               store_layout=layout)  # fmt: skip
            blocks = sorted(index for index, _ in checked)
            assert len(blocks) > 20 and blocks == list(range(len(blocks)))
            assert all(name.startswith("qipai-read") for _, name in checked)
            checked.clear()
            with monkeypatch.context() as m:
                m.setattr(rows_module, "position_blocks", unchecked)
                plain = run_batch([str(qpk)], task_name, str(b), jobs=jobs, progress=False,
                                  store_layout=layout)  # fmt: skip
            assert not checked
            assert packed.positions == plain.positions == total
            assert packed.duplicates == plain.duplicates > 60
            assert packed.computed == plain.computed == total - plain.duplicates
            rows, exported = _stored(a)
            assert (rows, exported) == _stored(b)
            assert all(pid.startswith("p") for pid, *_ in rows)  # (no "near" nor "far")
        json_lines = run_batch([str(path)], task_name, str(tmp_path / f"j{jobs}.sqlite"),
                               jobs=jobs, progress=False)  # fmt: skip
        assert json_lines.duplicates == packed.duplicates
        assert _stored(tmp_path / f"j{jobs}.sqlite")[0] == rows


def test_blocks_checked_out_of_order_keep_the_first_occurrence():
    """A block read before the one ahead of it waits (unchecked) for that one's reader,
    which checks both in order: the answers are those of checking them in order."""
    d = [blake2b16(bytes([i])) for i in range(4)]
    blocks = [d[0] + d[1], d[1] + d[2] + d[1], b"", d[3] + d[0]]
    in_order = DigestSet()
    expected = [in_order.add_new(block) for block in blocks]
    for arrival in ([3, 1, 0, 2], [2, 3, 1, 0], [0, 1, 2, 3]):
        checks = positions_module._FirstSeen(DigestSet())
        answers = {}
        for index in arrival:
            answers[index] = checks.check(index, blocks[index])
        assert [answers[i][0] for i in range(4)] == expected
    assert expected == [bytearray(b"\x01\x01"), bytearray(b"\x00\x01\x00"), bytearray(),
                        bytearray(b"\x01\x00")]  # fmt: skip
    skipped = positions_module._FirstSeen(DigestSet())
    later = skipped.check(1, d[0])
    assert later == [None]  # (not checked until block 0, a bad record, takes its turn)
    assert skipped.check(0, None) == [None] and later == [bytearray(b"\x01")]
