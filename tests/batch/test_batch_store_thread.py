"""The runner's store thread: results are written there, and an interruption, a failed
transaction or a failure elsewhere still leaves every finished chunk stored exactly once."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from engines.batch.runner import BatchInterrupted, run_batch
from engines.batch.store import ResultStore, StoreError
from engines.batch.tasks import Task
from engines.errors import InputError


def _inputs(tmp_path: Path, n: int, bad_line: int | None = None) -> str:
    path = tmp_path / "xs.jsonl"
    lines = [json.dumps({"id": f"p{i}", "x": i}) for i in range(n)]
    if bad_line is not None:
        lines[bad_line - 1] = '{"id": "broken", "x": "?"}'
    path.write_text("\n".join(lines) + "\n")
    return str(path)


class _Solver:
    """Squares, counting the positions solved; raises ``fail`` on chunk ``fail_at``."""

    def __init__(self, fail_at: int | None = None, fail: BaseException | None = None) -> None:
        self.chunks = self.positions = 0
        self.fail_at, self.fail = fail_at, fail

    def __call__(self, payloads: list[dict], threads: int) -> list[int]:
        self.chunks += 1
        if self.chunks == self.fail_at and self.fail is not None:
            raise self.fail
        self.positions += len(payloads)
        return [p["x"] ** 2 for p in payloads]


def _task(name: str, solver: _Solver) -> Task:
    return Task(name, "test", "x squared", lambda o: {"x": int(o["x"])}, solver, chunk_size=4)


@pytest.fixture
def slow_store(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every chunk its own transaction, each slow (so several wait on the store thread);
    the names of the threads that stored them."""
    monkeypatch.setattr("engines.batch.runner._COMMIT_ROWS", 4)
    original = ResultStore.add_columns
    names: list[str] = []

    def slow(self: ResultStore, *args: object, **kwargs: object) -> int:
        names.append(threading.current_thread().name)
        time.sleep(0.01)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ResultStore, "add_columns", slow)
    return names


def _squares(store: ResultStore, task: str) -> dict[str, int]:
    return {r["position_id"]: r["result"] for r in store.rows(task)}


def test_results_are_stored_on_the_store_thread_and_match_the_inputs(
    tmp_path: Path, slow_store: list[str]
) -> None:
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([_inputs(tmp_path, 50)], _task("t-thread", _Solver()), store,
                            jobs=1, progress=False)  # fmt: skip
        assert summary.computed == 50 and store.count("t-thread") == 50
        assert _squares(store, "t-thread") == {f"p{i}": i * i for i in range(50)}
    assert len(slow_store) >= 13 and all(n.startswith("qipai-store") for n in slow_store)


def test_ctrl_c_with_transactions_waiting_stores_every_finished_chunk(
    tmp_path: Path, slow_store: list[str]
) -> None:
    solver = _Solver(fail_at=9, fail=KeyboardInterrupt())
    task = _task("t-ctrl-c", solver)
    inputs = _inputs(tmp_path, 60)
    with ResultStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(BatchInterrupted) as info:
            run_batch([inputs], task, store, jobs=1, progress=False)
        assert info.value.summary.computed == solver.positions == 32
        assert store.count(task.name) == 32
        assert store.runs()[-1]["status"] == "interrupted"
        rerun = run_batch([inputs], _task("t-ctrl-c", _Solver()), store, jobs=1, progress=False)
        assert (rerun.already_stored, rerun.computed) == (32, 28)
        assert _squares(store, task.name) == {f"p{i}": i * i for i in range(60)}


def test_a_failed_transaction_raises_and_its_rows_are_stored_on_the_retry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slow_store: list[str]
) -> None:
    calls = {"n": 0}
    stored_by = ResultStore.add_columns  # the slow one

    def failing_once(self: ResultStore, *args: object, **kwargs: object) -> int:
        calls["n"] += 1
        if calls["n"] == 3:
            raise StoreError("r.sqlite: the disk is full (test)")
        return stored_by(self, *args, **kwargs)

    monkeypatch.setattr(ResultStore, "add_columns", failing_once)
    solver = _Solver()
    inputs = _inputs(tmp_path, 400)
    with ResultStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(StoreError, match="disk is full"):
            run_batch([inputs], _task("t-fail", solver), store, jobs=1, progress=False)
        assert 0 < solver.positions < 400
        assert store.count("t-fail") == solver.positions  # the failed rows too, on the retry
        assert store.runs()[-1]["status"] == "failed"
        rerun = run_batch([inputs], _task("t-fail", _Solver()), store, jobs=1, progress=False)
        assert (rerun.already_stored, rerun.computed) == (solver.positions, 400 - solver.positions)
        assert _squares(store, "t-fail") == {f"p{i}": i * i for i in range(400)}


def test_a_failure_elsewhere_keeps_every_finished_chunk(
    tmp_path: Path, slow_store: list[str]
) -> None:
    solver = _Solver()
    inputs = _inputs(tmp_path, 3000, bad_line=2500)
    with ResultStore(tmp_path / "r.sqlite") as store:
        with pytest.raises(InputError, match=r"xs\.jsonl:2500"):
            run_batch([inputs], _task("t-strict", solver), store, jobs=1, progress=False,
                      strict=True, on_bad_input=None)  # fmt: skip
        assert 0 < solver.positions < 3000
        assert store.count("t-strict") == solver.positions
        assert store.runs()[-1]["status"] == "failed"
