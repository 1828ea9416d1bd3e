"""The batch machinery with a small arithmetic task: store, resume, bad input, backends, export."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time

import pytest

from engines.batch.export import export
from engines.batch.inputs import BadInput, Record, count_positions, read_inputs
from engines.batch.runner import BatchInterrupted, run_batch
from engines.batch.store import ResultRow, ResultStore
from engines.batch.tasks import Task, TimedResults, get_task, register_task, solve_chunk
from engines.errors import InputError


def _prepare(obj):
    a, b = obj["a"], obj["b"]
    if not isinstance(a, int) or not isinstance(b, int):
        raise InputError(f"a and b must be integers, got {a!r}, {b!r}")
    return {"a": a, "b": b}


def _solve(payloads, threads):
    out = []
    for p in payloads:
        if p["a"] < 0:
            raise ValueError(f"negative a: {p['a']}")
        time.sleep(0.001)
        out.append({"sum": p["a"] + p["b"]})
    return out


SUM = register_task(Task("test-sum", "test", "a + b", _prepare, _solve, chunk_size=4))


def _write(path, records):
    with open(path, "w") as f:
        for r in records:
            f.write(r if isinstance(r, str) else json.dumps(r))
            f.write("\n")
    return str(path)


@pytest.fixture
def inputs(tmp_path):
    return _write(
        tmp_path / "sums.jsonl",
        [{"id": f"s{i}", "a": i, "b": 2 * i} for i in range(30)],
    )


def _results(store, task="test-sum"):
    return {r["position_id"]: r["result"] for r in store.rows(task)}


def test_run_stores_every_position_once_and_resumes(tmp_path, inputs):
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:
        first = run_batch([inputs], "test-sum", store, jobs=1, progress=False)
        assert (first.positions, first.computed, first.already_stored) == (30, 30, 0)
        assert _results(store) == {f"s{i}": {"sum": 3 * i} for i in range(30)}
        again = run_batch([inputs], "test-sum", store, jobs=1, progress=False)
        assert (again.computed, again.already_stored) == (0, 30)
        assert store.count("test-sum") == 30
        runs = store.runs()
        assert [r["status"] for r in runs] == ["finished", "finished"]
        assert [r["computed"] for r in runs] == [30, 0]


def test_resume_after_partial_store_computes_only_the_rest(tmp_path, inputs):
    calls = []

    def counting(payloads, threads):
        calls.extend(p["a"] for p in payloads)
        return _solve(payloads, threads)

    task = Task("test-sum-count", "test", "a + b", _prepare, counting, chunk_size=5)
    with ResultStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run(task.name, [inputs], workers=1, mode="test")
        # Ten positions already stored, as an interrupted run would have left them.
        for rec in list(read_inputs([inputs]))[:10]:
            payload = task.prepare(rec.obj)
            row = ResultRow(
                task.name, task.input_hash(payload), rec.position_id, rec.source, rec.line,
                payload, {"sum": -1}, None, 0.0,
            )  # fmt: skip
            store.add([row], run)
        summary = run_batch([inputs], task, store, jobs=1, progress=False)
        assert summary.already_stored == 10 and summary.computed == 20
        assert sorted(calls) == list(range(10, 30))
        assert store.count(task.name) == 30


def test_equal_positions_are_solved_once(tmp_path):
    path = _write(
        tmp_path / "dup.jsonl", [{"id": "x", "a": 1, "b": 2}, {"id": "y", "b": 2, "a": 1}]
    )
    with ResultStore(":memory:") as store:
        summary = run_batch([path], "test-sum", store, jobs=1, progress=False)
        assert (summary.computed, summary.duplicates) == (1, 1)
        assert _results(store) == {"x": {"sum": 3}}


def test_bad_lines_are_reported_stored_and_skipped(tmp_path):
    path = _write(
        tmp_path / "bad.jsonl",
        [
            {"id": "ok1", "a": 1, "b": 1},
            "{not json",
            "[1, 2]",
            {"id": "no-b", "a": 1},
            {"id": "typo", "a": "x", "b": 1},
            "",
            {"id": "ok2", "a": 2, "b": 2},
        ],
    )
    seen: list[BadInput] = []
    with ResultStore(":memory:") as store:
        summary = run_batch(
            [path], "test-sum", store, jobs=1, progress=False, on_bad_input=seen.append
        )
        assert summary.computed == 2
        assert [(b.line, b.reason.split(":")[0]) for b in seen] == [
            (2, "not valid JSON"),
            (3, "expected a JSON object, got list"),
            (4, "missing field 'b'"),
            (5, "a and b must be integers, got 'x', 1"),
        ]
        assert all(b.source == path for b in seen)
        assert [b["line"] for b in store.bad_inputs("test-sum")] == [2, 3, 4, 5]
        assert _results(store) == {"ok1": {"sum": 2}, "ok2": {"sum": 4}}


def test_strict_stops_at_the_first_bad_line(tmp_path):
    path = _write(tmp_path / "bad.jsonl", [{"id": "ok", "a": 1, "b": 1}, "{oops", {"a": 1, "b": 5}])
    with (
        ResultStore(":memory:") as store,
        pytest.raises(InputError, match=r"bad.jsonl:2: not valid"),
    ):
        run_batch([path], "test-sum", store, jobs=1, strict=True, progress=False, on_bad_input=None)


def test_a_failing_position_gets_an_error_row_and_the_rest_of_its_chunk_succeeds(tmp_path):
    path = _write(tmp_path / "neg.jsonl", [{"id": f"n{i}", "a": i - 2, "b": 0} for i in range(6)])
    with ResultStore(":memory:") as store:
        summary = run_batch([path], "test-sum", store, jobs=1, progress=False)
        assert summary.computed == 6 and summary.solver_errors == 2
        rows = {r["position_id"]: r for r in store.rows("test-sum")}
        assert rows["n0"]["result"] is None and "negative a: -2" in rows["n0"]["error"]
        assert rows["n5"]["result"] == {"sum": 3} and rows["n5"]["error"] is None


def test_process_pool_gives_the_same_rows_as_in_process(tmp_path, inputs):
    with ResultStore(":memory:") as one, ResultStore(":memory:") as many:
        run_batch([inputs], "test-sum", one, jobs=1, progress=False)
        summary = run_batch([inputs], "test-sum", many, jobs=2, chunk_size=3, progress=False)
        assert summary.computed == 30
        assert many.runs()[0]["mode"] == "local-processes-2"
        assert _results(one) == _results(many)


def test_ctrl_c_keeps_finished_chunks_and_a_rerun_completes(tmp_path, inputs):
    state = {"chunks": 0}

    def interrupting(payloads, threads):
        state["chunks"] += 1
        if state["chunks"] == 3:
            raise KeyboardInterrupt
        return _solve(payloads, threads)

    task = Task("test-sum-int", "test", "a + b", _prepare, interrupting, chunk_size=4)
    with ResultStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(BatchInterrupted) as info:
            run_batch([inputs], task, store, jobs=1, progress=False)
        assert info.value.summary.computed == 8
        assert store.count(task.name) == 8
        assert store.runs()[-1]["status"] == "interrupted"
        rerun = run_batch([inputs], task, store, jobs=1, progress=False)
        assert (rerun.already_stored, rerun.computed) == (8, 22)
        assert store.count(task.name) == 30


def test_solve_chunk_charges_wall_time_per_position():
    solved = solve_chunk("test-sum", [{"a": 1, "b": 2}, {"a": 3, "b": 4}], 1)
    assert solved.results == [{"sum": 3}, {"sum": 7}]
    assert all(err is None and s > 0 for _, err, s in solved.items())
    assert solved.seconds[0] == solved.seconds[1]  # the chunk's time, shared


def _timed_solve(payloads, threads):
    """(sum, seconds) pairs: odd sums and even sums solved as two groups."""
    if any(p["a"] < 0 for p in payloads):
        raise ValueError("negative a")
    groups = [[i for i, p in enumerate(payloads) if (p["a"] + p["b"]) % 2 == odd]
              for odd in (0, 1)]  # fmt: skip
    parts = [(rows, [payloads[i]["a"] + payloads[i]["b"] for i in rows], 0.5 + odd)
             for odd, rows in enumerate(groups) if rows]  # fmt: skip
    return TimedResults.of_groups(len(payloads), parts)


@pytest.mark.parametrize("columns", [True, False])
def test_a_timed_solve_gives_its_own_seconds_in_columns_or_pairs(columns):
    solve = _timed_solve if columns else (lambda ps, t: list(_timed_solve(ps, t)))
    task = Task("test-timed", "test", "a + b", _prepare, solve, timed=True)
    payloads = [{"a": a, "b": 1} for a in (1, 2, 4, 7, 8)]
    solved = solve_chunk(task, payloads, 1)
    assert solved.items() == [(2, None, 0.5), (3, None, 1.5), (5, None, 1.5), (8, None, 0.5),
                              (9, None, 1.5)]  # fmt: skip
    # a failing chunk: solved one position at a time, the bad one with its error
    solved = solve_chunk(task, [*payloads[:2], {"a": -1, "b": 0}], 1)
    assert solved.results == [2, 3, None]
    assert solved.errors == [None, None, "ValueError: negative a"]


def test_unknown_task_names_the_known_ones():
    with pytest.raises(InputError, match=r"unknown batch task 'nope'; known: .*test-sum"):
        get_task("nope")


def test_export_jsonl_and_csv_carry_the_input_ids(tmp_path, inputs):
    with ResultStore(":memory:") as store:
        run_batch([inputs], "test-sum", store, jobs=1, progress=False)
        out = io.StringIO()
        assert export(store, out, "jsonl") == 30
        rows = [json.loads(line) for line in out.getvalue().splitlines()]
        assert [r["id"] for r in rows] == [f"s{i}" for i in range(30)]
        assert rows[7]["result"] == {"sum": 21} and rows[7]["input"] == {"a": 7, "b": 14}
        assert rows[7]["line"] == 8 and rows[7]["task"] == "test-sum"
        out = io.StringIO()
        export(store, out, "csv")
        table = list(csv.DictReader(io.StringIO(out.getvalue())))
        assert len(table) == 30 and table[7]["id"] == "s7"
        assert json.loads(table[7]["result"]) == {"sum": 21} and table[7]["error"] == ""
        assert float(table[7]["seconds"]) > 0 and table[7]["solver_version"]


def test_store_rejects_a_file_that_is_not_a_database(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_text("this is not sqlite at all, just text" * 100)
    with pytest.raises(InputError, match="not a qipai result database"):
        ResultStore(path)
    with pytest.raises(InputError, match="no such result database"):
        ResultStore.open_existing(tmp_path / "missing.sqlite")


def test_committed_rows_are_visible_to_another_connection_at_once(tmp_path, inputs):
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:
        run_batch([inputs], "test-sum", store, jobs=1, progress=False)
        other = sqlite3.connect(db)
        assert other.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 30
        other.close()


def test_input_format_detection_and_counts(tmp_path):
    jsonl = _write(tmp_path / "noext", [{"a": 1, "b": 2}, {"a": 2, "b": 3}])
    items = list(read_inputs([jsonl]))
    assert all(isinstance(i, Record) for i in items)
    assert items[1].position_id == "noext:2"  # no id field: file name and line
    assert count_positions([jsonl]) == 2
    with pytest.raises(InputError, match="cannot open"):
        list(read_inputs([str(tmp_path / "missing.jsonl")]))
