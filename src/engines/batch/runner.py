"""The batch runner: inputs → chunks → solvers (threads, processes or Dask) → SQLite.

This module is longer than the project's 600 lines since the by-place loop
(:mod:`engines.batch.placed`) joined the rows' and packed blocks' loops, which share its
backends, statuses and progress bar: the loops' split into modules of their own is due.

:func:`run_batch` runs on this machine: tasks whose engine has a native
threaded batch entry point are called in-process with ``threads=jobs`` (from a
helper thread, so reading and storing overlap the solving); the others are
spread over ``jobs`` worker processes.  :func:`run_batch_distributed`
takes a ``dask.distributed.Client`` (the library never starts or stops
clusters) and sends the same chunks to its workers.  In both, the calling
process reads the inputs, skips positions already in the store, and writes
each chunk's results in one transaction as soon as it completes (chunks smaller
than a few hundred positions are grouped, none waiting more than a quarter of a
second), so the store is the same whichever way the batch ran, and an
interrupted run resumes where it stopped.

>>> from engines.batch.store import ResultStore
>>> from engines.batch.tasks import Task, register_task
>>> _ = register_task(Task("doc-square", "demo", "square x", lambda o: {"x": int(o["x"])},
...                        lambda ps, threads: [p["x"] ** 2 for p in ps]))
>>> import os, pathlib, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "xs.jsonl")
>>> _ = pathlib.Path(path).write_text('{"id": "a", "x": 3}\\n{"id": "b", "x": "?"}\\n')
>>> store = ResultStore(":memory:")
>>> summary = run_batch([path], "doc-square", store, jobs=1,
...                     on_bad_input=print)  # doctest: +ELLIPSIS
/tmp/.../xs.jsonl:2: invalid literal for int() with base 10: '?'
>>> summary.computed, [r["result"] for r in store.rows("doc-square")]
(1, [9])
>>> run_batch([path], "doc-square", store, jobs=1, on_bad_input=None).computed  # resumed
0
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engines.arguments import integer
from engines.batch.inputs import BadInput, count_positions
from engines.batch.placed import PlacedRun
from engines.batch.records import Payloads
from engines.batch.rows import Rows, chunks, todo
from engines.batch.run_checks import check_run_arguments, opened_store
from engines.batch.store import ResultStore
from engines.batch.store_rows import written_column_runs
from engines.batch.store_writer import COMMIT_SECONDS, Writer
from engines.batch.tasks import SolvedChunk, Task, get_task, solve_chunk
from engines.errors import InputError, QipaiError
from engines.progress import progress_bar

# The fewest positions whose hashes are claimed in the store in one transaction (the
# runner claims a whole chunk at once when chunks are larger; engines.batch.rows.todo
# lets claims grow while they come fast).
_LOOKUP_BATCH = 256
# Chunks of quick tasks grow up to this many times their size (see _run).
_CHUNK_GROWTH = 8
_QUICK_CHUNK = 0.02
# Finished rows stored in one transaction at most (else every COMMIT_SECONDS): the rows
# waiting and those of the transactions in flight keep their blocks alive (see LOOKUP_MAX).
_COMMIT_ROWS = 8192


@dataclass
class BatchSummary:
    """What a run did.

    Every position read is counted once: ``computed`` (stored now; a solver
    refusal is stored too and also counted in ``solver_errors``),
    ``already_stored`` (also when another run, started meanwhile, stored it
    first: see :meth:`ResultStore.claim_digests`), ``other_run`` (another live
    run on the same database had claimed it), ``duplicates`` (repeated in the
    input), ``rejected`` (a record the task could not read; also in
    ``bad_inputs``, with the lines that were not records at all), or, after an
    interruption, still pending (:attr:`unfinished`).
    """

    task: str
    positions: int = 0
    computed: int = 0
    already_stored: int = 0
    other_run: int = 0
    duplicates: int = 0
    rejected: int = 0
    solver_errors: int = 0
    bad_inputs: list[BadInput] = field(default_factory=list)
    seconds: float = 0.0
    status: str = "running"

    @property
    def unfinished(self) -> int:
        """Positions read but neither stored nor skipped (only after an interruption)."""
        accounted = self.computed + self.already_stored + self.other_run + self.duplicates
        return self.positions - accounted - self.rejected

    def __str__(self) -> str:
        rate = self.computed / self.seconds if self.seconds > 0 else 0.0
        parts = [
            f"{self.task}: {self.positions} positions read",
            f"{self.computed} computed",
            f"{self.already_stored} already stored",
        ]
        if self.other_run:
            parts.append(f"{self.other_run} left to another run computing them")
        if self.duplicates:
            parts.append(f"{self.duplicates} repeated in the input")
        parts.append(f"{len(self.bad_inputs)} bad input lines")
        parts.append(f"{self.solver_errors} solver errors")
        return ", ".join(parts) + f" in {self.seconds:.1f} s ({rate:.1f} positions/s)"


class BatchInterrupted(QipaiError):
    """Raised (from KeyboardInterrupt) after the completed chunks have been stored."""

    def __init__(self, summary: BatchSummary) -> None:
        super().__init__(
            f"interrupted: {summary.computed} new results stored; rerun the same command to resume"
        )
        self.summary = summary


def _print_bad(bad: BadInput) -> None:
    print(f"qipai: skipped {bad}", file=sys.stderr)


# -- backends: how a chunk gets solved --------------------------------------------------------


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


# -- the run loop ------------------------------------------------------------------------------


#: Far more workers than any machine has cores; a bigger number is a mistake, not a request.
MAX_JOBS = 4096


def run_batch(
    paths: Sequence[str],
    task: str | Task,
    store: ResultStore | str,
    *,
    jobs: int | None = None,
    chunk_size: int | None = None,
    strict: bool = False,
    progress: bool | None = None,
    on_bad_input: Callable[[BadInput], None] | None = _print_bad,
    store_layout: str = "auto",
) -> BatchSummary:
    """Run ``task`` on every position of ``paths`` on this machine, storing results in ``store``.

    ``jobs`` (default: every core) is the thread count given to a native
    threaded engine, or the number of worker processes otherwise.
    ``chunk_size`` positions are solved per call and committed per
    transaction (default: the task's size, times ``jobs // 2`` for an engine
    call spread over ``jobs`` threads).  Bad input lines are passed to ``on_bad_input`` (default:
    printed to standard error), stored in the ``bad_inputs`` table and skipped;
    with ``strict=True`` the first one raises :class:`InputError`.
    ``progress=None`` shows a bar only on a terminal.  Ctrl-C raises
    :class:`BatchInterrupted` after storing every finished chunk.
    ``store_layout`` (:data:`engines.batch.run_checks.STORE_LAYOUTS`): ``"auto"`` stores a
    task read from packed files (``qipai pack``) as packed blocks when the store has nothing
    of it yet (:mod:`engines.batch.store_packed`: its input hashes are then its payloads'),
    ``"rows"`` always as rows (hashes of the canonical text, as before), ``"packed"`` as
    packed blocks or not at all.
    """
    task_obj = task if isinstance(task, Task) else get_task(task)
    if jobs is not None and not 1 <= integer(jobs, "jobs") <= MAX_JOBS:
        raise InputError(f"jobs must be 1..{MAX_JOBS} (or None for every core), got {jobs}")
    jobs = max(1, jobs or os.cpu_count() or 1)
    backend: _Backend
    if task_obj.native_threads:
        backend = _NativeThreads(jobs, per_chunk=task_obj.gil_free)
    elif jobs == 1:
        backend = _InProcess()
    else:
        backend = _Processes(jobs)
    with _older_objects_frozen():
        return _run(paths, task_obj, store, backend, chunk_size, strict, progress, on_bad_input,
                    store_layout)  # fmt: skip


def run_batch_distributed(
    client: Any,
    paths: Sequence[str],
    task: str | Task,
    store: ResultStore | str,
    *,
    chunk_size: int | None = None,
    strict: bool = False,
    progress: bool | None = None,
    on_bad_input: Callable[[BadInput], None] | None = _print_bad,
    store_layout: str = "auto",
) -> BatchSummary:
    """:func:`run_batch` on a Dask cluster: ``client`` is a ``dask.distributed.Client``.

    The inputs are read here, chunks are solved on the cluster's workers (one
    thread per chunk), and this process writes every result into ``store`` —
    the same rows a local run writes, and a run interrupted on one can resume
    on the other.  Workers need qipai installed (same version) and nothing
    else: no shared file system, no database access.

    >>> from distributed import Client  # doctest: +SKIP
    >>> client = Client("tcp://scheduler:8786")  # doctest: +SKIP
    >>> run_batch_distributed(client, ["deals.pbn"], "bridge-par", "out.sqlite")  # doctest: +SKIP
    """
    task_obj = task if isinstance(task, Task) else get_task(task)
    backend = _Dask(client)
    with _older_objects_frozen():
        return _run(paths, task_obj, store, backend, chunk_size, strict, progress, on_bad_input,
                    store_layout)  # fmt: skip


@contextlib.contextmanager
def _older_objects_frozen() -> Iterator[None]:
    """Keep the objects that exist before a run out of the cyclic collector's passes during
    it (``gc.freeze``), unless the program froze some itself.  A run makes a few short-lived
    container objects a position; every so often they start a full collection, which walked
    every object of the process (Numba's and NumPy's: ~50 ms, 2.5 µs a position of a
    20,000-position 升级 run) and now walks only the run's own."""
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


# _run is longer than the project's 100 lines: one run's set-up, submit/collect closures and
# loop share their locals; the split above (the loops' own modules) shortens it too
def _run(
    paths: Sequence[str], task: Task, store: ResultStore | str, backend: _Backend,
    chunk_size: int | None, strict: bool, progress: bool | None,
    on_bad_input: Callable[[BadInput], None] | None, store_layout: str = "auto",
) -> BatchSummary:  # fmt: skip
    check_run_arguments(paths, store, chunk_size, strict, progress, on_bad_input, store_layout)
    own_store = not isinstance(store, ResultStore)
    db, kept = opened_store(store, paths, task, store_layout,
                            placeable=isinstance(backend, _NativeThreads))  # fmt: skip
    packed = kept == "packed"
    backend.write_rows = not packed
    size = max(1, chunk_size or task.chunk_size * backend.chunk_scale)
    summary = BatchSummary(task=task.name)
    run_id = db.begin_run(task.name, list(paths), workers=backend.workers, mode=backend.mode)
    # Standard input cannot be counted ahead: then the bar counts without a total.
    enabled = sys.stderr.isatty() if progress is None else progress
    total = None if "-" in paths or not enabled else count_positions(paths)
    bar = progress_bar(total=total, desc=task.name, unit="pos", enabled=enabled)
    started = time.perf_counter()
    pending: dict[Any, Rows] = {}

    def shrink_total(n: int) -> None:
        # Positions that need no work leave the bar's total, so rate and ETA stay honest.
        if n and bar.total is not None:
            bar.total = max(bar.n, bar.total - n)
            bar.refresh()

    def bad(item: BadInput) -> None:
        summary.bad_inputs.append(item)
        db.add_bad_input(task.name, item.source, item.line, item.reason, run_id)
        if on_bad_input is not None:
            on_bad_input(item)
        shrink_total(1)
        if strict:
            raise InputError(str(item))

    per_commit = max(size, _COMMIT_ROWS) if backend.timed_waits else 1
    writer = Writer(db, task.name, run_id, summary, per_commit, packed=packed)

    grown = size  # see _next_size

    def collect(future: Any) -> None:
        nonlocal grown
        rows = pending.pop(future)
        done = backend.result(future)
        solved, texts, runs = done if type(done) is _Written else (done, None, None)
        if backend.grows and chunk_size is None:
            grown = _next_size(grown, size, len(rows), sum(solved.seconds))
        results, errors, seconds = solved
        summary.solver_errors += len(errors) - errors.count(None)
        bar.update(len(rows))
        if texts is None:
            texts = task.json_texts(results, errors)
        writer.add(rows, texts, errors, seconds, runs)

    def wait() -> None:
        for future in backend.wait_one(list(pending), COMMIT_SECONDS):
            collect(future)
        writer.store_if_due()

    def submit(chunk: Rows) -> None:
        while len(pending) >= backend.slots:
            wait()
        pending[backend.submit_rows(task, chunk)] = chunk
        # Solved chunks are collected before reading on (the next size follows: _next_size).
        for future in [f for f in pending if f.done()]:
            collect(future)
        writer.store_if_due()

    if kept == "placed":
        return _run_placed(paths, task, db, backend, run_id, summary, bad, bar, chunk_size,
                           own_store, started)  # fmt: skip
    readers = _readers(task, backend)

    def interrupted() -> None:
        backend.cancel(list(pending))
        writer.finish()

    def failed() -> None:
        backend.cancel(list(pending))
        writer.store_after_failure()

    try:
        with _statuses(summary, interrupted, failed):
            lookup = max(_LOOKUP_BATCH, size)
            found = todo(paths, task, db, run_id, summary, bad, shrink_total, lookup, readers,
                         packed)  # fmt: skip
            for chunk in chunks(found, lambda: grown):
                submit(chunk)
            while pending:
                wait()
            writer.finish()
    finally:
        summary.seconds = time.perf_counter() - started
        bar.close()
        writer.close()
        if readers is not None:
            readers.shutdown(wait=True, cancel_futures=True)
        backend.close()
        _end_run(db, run_id, summary, close=own_store)
    return summary


def _run_placed(paths: Sequence[str], task: Task, db: ResultStore, backend: _NativeThreads,
                run_id: int, summary: BatchSummary, bad: Callable[[BadInput], None], bar: Any,
                chunk_size: int | None, own_store: bool,
                started: float) -> BatchSummary:  # fmt: skip
    """:func:`_run`'s loop for a task the store keeps by place (:mod:`engines.batch.placed`)."""
    size = max(1, chunk_size or task.chunk_size * backend.chunk_scale)

    def next_size(grown: int, spent: float) -> int:
        return grown if chunk_size is not None else _next_size(grown, size, grown, spent)

    def slots() -> int:
        return backend.all_slots

    run = PlacedRun(task, db, run_id, backend.pool, backend.threads, slots, summary, bad, bar,
                    next_size)  # fmt: skip
    run.grown = size

    def failed() -> None:
        with contextlib.suppress(Exception):  # (the error that ended the run is the one told)
            run.interrupted()

    try:
        with _statuses(summary, run.interrupted, failed):
            run.run([str(p) for p in paths])
    finally:
        summary.seconds = time.perf_counter() - started
        bar.close()
        backend.close()
        _end_run(db, run_id, summary, close=own_store)
    return summary


@contextlib.contextmanager
def _statuses(summary: BatchSummary, interrupted: Callable[[], None],
              failed: Callable[[], None]) -> Iterator[None]:  # fmt: skip
    """A run's status as it ends: ``finished``; ``interrupted`` (Ctrl-C: ``interrupted()``
    stores what is solved, then :class:`BatchInterrupted`); ``failed`` (``failed()``, then
    the error goes on)."""
    try:
        yield
        summary.status = "finished"
    except KeyboardInterrupt:
        summary.status = "interrupted"
        interrupted()
        raise BatchInterrupted(summary) from None
    except BaseException:
        summary.status = "failed"
        failed()
        raise


def _readers(task: Task, backend: _Backend) -> cf.ThreadPoolExecutor | None:
    """Threads that read the input ahead for a task whose native reader hashes blocks without
    the GIL (``scan_hashed``): one a worker, so reading scales with the solving, but no more
    than the machine has cores (each reads two blocks ahead: memory stays bounded whatever
    ``jobs`` says)."""
    if task.records is None or not hasattr(task.records(), "scan_hashed"):
        return None
    threads = max(1, min(backend.workers, os.cpu_count() or 1))
    return cf.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qipai-read")


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


def _end_run(db: ResultStore, run_id: int, summary: BatchSummary, *, close: bool) -> None:
    """Record how the run ended (also when it failed) and close a store the run opened."""
    db.end_run(
        run_id,
        computed=summary.computed,
        skipped=summary.already_stored + summary.duplicates,
        bad_inputs=len(summary.bad_inputs),
        status=summary.status,
    )
    if close:
        db.close()
