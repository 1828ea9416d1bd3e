"""How the batch runner (:mod:`engines.batch.runner`) gets a chunk solved: in its own thread,
on helper threads calling a native threaded engine, in worker processes, or on the workers of
a Dask cluster; and how the chunks of a task solved on helper threads grow (:func:`_next_size`).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Sequence
from typing import Any, NamedTuple

from engines.batch.records import Payloads
from engines.batch.rows import Rows
from engines.batch.store_rows import written_column_runs
from engines.batch.tasks import SolvedChunk, Task, solve_chunk

# Chunks of quick tasks grow up to this many times their size (see _next_size).
_CHUNK_GROWTH = 8
_QUICK_CHUNK = 0.02


class _Backend:
    """Submit chunks and collect finished ones (a thin layer over the executors)."""

    slots: int = 1
    mode: str = "local"
    workers: int = 1
    # Chunks this many times the task's size: one engine call spread over many threads
    # needs more positions per call to keep every thread busy.
    chunk_scale: int = 1
    # wait_one honours its timeout (then the runner may group small chunks per commit).
    timed_waits: bool = True
    # submit_rows may write the rows' text on the helper thread (not for packed blocks)
    write_rows: bool = True
    # Quick chunks grow (see _next_size): each costs a hand-off to a helper thread and an
    # engine call.
    grows: bool = False

    def submit(self, task: Task, payloads: list[dict[str, Any]]) -> Any:
        raise NotImplementedError

    def submit_rows(self, task: Task, rows: Rows) -> Any:
        """:meth:`submit` of ``rows``' payloads; a backend may also write the rows' text."""
        return self.submit(task, rows.payloads.tolist())

    def wait_one(self, futures: Sequence[Any], timeout: float | None = None) -> list[Any]:
        """The finished futures (at least one, or none after ``timeout`` seconds)."""
        raise NotImplementedError

    def result(self, future: Any) -> SolvedChunk | _Written:
        raise NotImplementedError

    def cancel(self, futures: Sequence[Any]) -> None:
        pass

    def close(self) -> None:
        pass


class _Done:
    """An already-finished chunk (in-process backend)."""

    def __init__(self, value: SolvedChunk) -> None:
        self.value = value

    def done(self) -> bool:
        return True


class _InProcess(_Backend):
    """Solve in this thread, one chunk at a time (``jobs=1`` for a single-threaded engine)."""

    mode = "local-inline"

    def submit(self, task: Task, payloads: list[dict[str, Any]]) -> _Done:
        return _Done(solve_chunk(task, payloads, 1))

    def wait_one(self, futures: Sequence[Any], timeout: float | None = None) -> list[Any]:
        return list(futures)

    def result(self, future: _Done) -> SolvedChunk:
        return future.value


class _Executor(_Backend):
    """A ``concurrent.futures`` executor (``self.pool``) as a backend."""

    pool: cf.Executor

    def wait_one(self, futures: Sequence[Any], timeout: float | None = None) -> list[Any]:
        done, _ = cf.wait(futures, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return list(done)

    def result(self, future: cf.Future) -> SolvedChunk:
        return future.result()

    def cancel(self, futures: Sequence[Any]) -> None:
        for future in futures:
            future.cancel()

    def close(self) -> None:
        # Waits for the chunks being solved (they cannot be interrupted inside native code).
        self.pool.shutdown(wait=True, cancel_futures=True)


class _NativeThreads(_Executor):
    """A native threaded engine, called from helper threads.

    By default one helper thread calls the engine with ``threads`` threads.
    For an engine that releases the GIL for its whole solve
    (:attr:`Task.gil_free`), ``threads`` helper threads each solve their own
    chunk on one thread: a slow position then holds up only its own chunk,
    not the other cores.  The engine runs without the GIL either way, so this
    thread reads, hashes and stores the next chunks meanwhile.
    """

    def __init__(self, threads: int, *, per_chunk: bool = False) -> None:
        helpers = threads if per_chunk else 1
        self.pool = cf.ThreadPoolExecutor(max_workers=helpers, thread_name_prefix="qipai-solve")
        self.threads = 1 if per_chunk else threads
        # two chunks a helper (one solved, the next waiting: the store thread syncs to disk
        # meanwhile, not this one; more would keep more blocks of input alive for nothing);
        # but one a helper until the first is back, so that the chunks after it grow at once
        # (see _next_size) rather than after the first two
        self.all_slots, self.slots = 2 * helpers, helpers
        self.workers = threads
        self.chunk_scale = 1 if per_chunk else max(1, threads // 2)
        self.grows = True
        self.mode = f"local-{'chunk-' if per_chunk else ''}threads-{threads}"

    def result(self, future: cf.Future) -> SolvedChunk:
        self.slots = self.all_slots
        return future.result()

    def submit(self, task: Task, payloads: list[dict[str, Any]]) -> cf.Future:
        return self.pool.submit(solve_chunk, task, payloads, self.threads)

    def submit_rows(self, task: Task, rows: Rows) -> cf.Future:
        # (the chunk's payloads are gathered from its blocks on the helper thread)
        if not self.write_rows:
            return self.pool.submit(_solved_rows, task, rows, self.threads)
        return self.pool.submit(_solved_and_written, task, rows, self.threads)


class _Written(NamedTuple):
    """A chunk solved on a helper thread with its rows' text: the results' JSON texts and
    :func:`~engines.batch.store_rows.written_runs` (the main thread stores them as blocks)."""

    solved: SolvedChunk
    texts: list[str | None]
    runs: list[tuple[int, int, str]] | None


def _chunk_payloads(task: Task, rows: Rows) -> Any:
    """``rows``' payloads as the in-process solver takes them: the columns themselves for a
    task that reads them (``payload_columns``), else a list.  Positions hashed by their
    payloads carry only their compact forms, as ``texts`` (:func:`engines.batch.packed.unpacked`):
    those are gathered here, once for the solve (which expands them) and the store.  Other
    payloads are gathered into a view of their own (``part``), dropped with the solve: kept
    in ``rows``, a chunk's gathered payloads would live until its rows are stored (a
    16,384-position 升级 chunk's 2.8 MB, in fresh pages each time; freed, the solving
    thread's next chunk reuses them)."""
    block = rows.pieces[0][0] if rows.pieces else rows
    compact = block.texts.compact
    payloads = Payloads(rows.texts) if compact else rows.part(0, len(rows)).payloads
    return payloads if task.payload_columns else payloads.tolist()


def _solved_rows(task: Task, rows: Rows, threads: int) -> SolvedChunk:
    return solve_chunk(task, _chunk_payloads(task, rows), threads)


def _solved_and_written(task: Task, rows: Rows, threads: int) -> _Written:
    solved = _solved_rows(task, rows, threads)
    texts = task.json_texts(solved.results, solved.errors)
    runs = written_column_runs(rows.sources, rows.column_parts(), texts, solved.errors,
                               solved.seconds)  # fmt: skip
    return _Written(solved, texts, runs)


class _Processes(_Executor):
    """Worker processes, one thread each."""

    def __init__(self, jobs: int) -> None:
        self.pool = cf.ProcessPoolExecutor(max_workers=jobs)
        self.slots = 2 * jobs  # keep every worker busy while results are written
        self.workers = jobs
        self.mode = f"local-processes-{jobs}"

    def submit(self, task: Task, payloads: list[dict[str, Any]]) -> cf.Future:
        return self.pool.submit(solve_chunk, task.name, payloads, 1)


class _Dask(_Backend):
    """Chunks sent to the workers of a ``dask.distributed.Client``."""

    def __init__(self, client: Any) -> None:
        from distributed import wait

        self.client = client
        self._wait = wait
        threads = sum(client.nthreads().values()) or 1
        self.workers = threads
        self.slots = 2 * threads
        self.timed_waits = False
        self.mode = f"dask-{threads}"

    def submit(self, task: Task, payloads: list[dict[str, Any]]) -> Any:
        # pure=False: every chunk is its own job even if an identical one ran before.
        return self.client.submit(solve_chunk, task.name, payloads, 1, pure=False)

    def wait_one(self, futures: Sequence[Any], timeout: float | None = None) -> list[Any]:
        # Without a timeout: each chunk is stored when it arrives (see _Writer).
        done, _ = self._wait(list(futures), return_when="FIRST_COMPLETED")
        return list(done)

    def result(self, future: Any) -> SolvedChunk:
        return future.result()

    def cancel(self, futures: Sequence[Any]) -> None:
        if futures:
            self.client.cancel(list(futures))


def _next_size(grown: int, size: int, solved_rows: int, spent: float) -> int:
    """The next chunk size of a task solved on helper threads: chunks double, up to
    _CHUNK_GROWTH times the task's size, while a full one takes less than _QUICK_CHUNK
    seconds (``spent``, wall time) to solve, as many times at once as that time allows
    (twice the positions taking twice the time).  Handing a chunk to a helper thread and
    back costs a fraction of a millisecond, as much as a small bridge ending's solve, and a
    native batch call costs some of its own whatever its size (a 升级 or 双扣 call of 2,048
    positions takes a third to a half more CPU a position than one of 16,384).

    >>> [_next_size(2048, 2048, 2048, seconds) for seconds in (0.004, 0.012, 0.03)]
    [16384, 4096, 2048]
    """
    if solved_rows != grown:
        return grown
    while grown < _CHUNK_GROWTH * size and spent < _QUICK_CHUNK:
        grown, spent = 2 * grown, 2 * spent
    return grown
