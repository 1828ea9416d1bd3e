"""The batch runner: inputs → chunks → solvers (threads, processes or Dask) → SQLite.

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

How a chunk gets solved (this thread, helper threads, processes, Dask) is
:mod:`engines.batch.backends`; a run's summary and how it ends, :mod:`engines.batch.summary`;
the loop of a task kept by place, :func:`engines.batch.placed.run_placed`.

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
from typing import Any

from engines.arguments import integer
from engines.batch.backends import (
    _Backend,
    _Dask,
    _InProcess,
    _NativeThreads,
    _next_size,
    _Processes,
    _Written,
)
from engines.batch.inputs import BadInput, count_positions
from engines.batch.placed import run_placed
from engines.batch.rows import Rows, chunks, todo
from engines.batch.run_checks import check_run_arguments, opened_store
from engines.batch.store import ResultStore
from engines.batch.store_writer import COMMIT_SECONDS, Writer
from engines.batch.summary import BatchInterrupted, BatchSummary, _end_run, _statuses
from engines.batch.tasks import Task, get_task
from engines.errors import InputError
from engines.progress import progress_bar

__all__ = ["MAX_JOBS", "BatchInterrupted", "BatchSummary", "run_batch", "run_batch_distributed"]

# The fewest positions whose hashes are claimed in the store in one transaction (the
# runner claims a whole chunk at once when chunks are larger; engines.batch.rows.todo
# lets claims grow while they come fast).
_LOOKUP_BATCH = 256
# Finished rows stored in one transaction at most (else every COMMIT_SECONDS): the rows
# waiting and those of the transactions in flight keep their blocks alive (see LOOKUP_MAX).
_COMMIT_ROWS = 8192


def _print_bad(bad: BadInput) -> None:
    print(f"qipai: skipped {bad}", file=sys.stderr)


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
    bar, shrink_total = _progress(paths, task, progress)
    bad = _bad_inputs(db, task, run_id, summary, on_bad_input, strict, shrink_total)
    started = time.perf_counter()
    pending: dict[Any, Rows] = {}
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
        return run_placed(paths, task, db, backend, run_id, summary, bad, bar, chunk_size,
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


def _progress(paths: Sequence[str], task: Task,
              progress: bool | None) -> tuple[Any, Callable[[int], None]]:  # fmt: skip
    """A run's progress bar, and the function that takes the positions needing no work off its
    total (so that rate and ETA stay honest).  Standard input cannot be counted ahead: then
    the bar counts without a total."""
    enabled = sys.stderr.isatty() if progress is None else progress
    total = None if "-" in paths or not enabled else count_positions(paths)
    bar = progress_bar(total=total, desc=task.name, unit="pos", enabled=enabled)

    def shrink_total(n: int) -> None:
        if n and bar.total is not None:
            bar.total = max(bar.n, bar.total - n)
            bar.refresh()

    return bar, shrink_total


def _bad_inputs(db: ResultStore, task: Task, run_id: int, summary: BatchSummary,
                on_bad_input: Callable[[BadInput], None] | None, strict: bool,
                shrink_total: Callable[[int], None]) -> Callable[[BadInput], None]:  # fmt: skip
    """What a run does with a bad input line: counts it in ``summary``, stores it (table
    ``bad_inputs``), tells ``on_bad_input``, takes it off the bar's total, and with
    ``strict`` stops the run (:class:`InputError`)."""

    def bad(item: BadInput) -> None:
        summary.bad_inputs.append(item)
        db.add_bad_input(task.name, item.source, item.line, item.reason, run_id)
        if on_bad_input is not None:
            on_bad_input(item)
        shrink_total(1)
        if strict:
            raise InputError(str(item))

    return bad


def _readers(task: Task, backend: _Backend) -> cf.ThreadPoolExecutor | None:
    """Threads that read the input ahead for a task whose native reader hashes blocks without
    the GIL (``scan_hashed``): one a worker, so reading scales with the solving, but no more
    than the machine has cores (each reads two blocks ahead: memory stays bounded whatever
    ``jobs`` says)."""
    if task.records is None or not hasattr(task.records(), "scan_hashed"):
        return None
    threads = max(1, min(backend.workers, os.cpu_count() or 1))
    return cf.ThreadPoolExecutor(max_workers=threads, thread_name_prefix="qipai-read")
