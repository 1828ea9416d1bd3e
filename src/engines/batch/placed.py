"""The batch run of a task kept by place (:mod:`engines.batch.store_placed`): packed files
read in place, each position keyed by its file and record number.

Each file is mapped and its XXH64 taken once (the key of its content in the store); its
records are then walked a block of whole records at a time, claiming record ranges ahead
(growing from :data:`FIRST_CLAIM` to :data:`MOST_CLAIM` records), each claim one
transaction that leaves out the ranges stored or claimed by another running run.  The
records of a block that this run claimed are read and checked in one native call, their
payloads copied as they are (``packed_records(..., hashed=False, compact=False)``: no digest,
no compact form; the solve takes the payloads as the raw engine call does); runs of them
follow each other into chunks, a chunk never spanning a record this run does not solve,
so that each solved chunk is one ``placed_blocks`` row of a record range.  Chunks are
solved on the backend's helper thread while the next ones are read; solved ones are
stored together, once :data:`COMMIT_POSITIONS` wait or :data:`COMMIT_WAIT` seconds went
by.  Nothing is hashed a position,
nothing looked up a position, no input is stored.
"""

from __future__ import annotations

import contextlib
import io
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from engines.batch.backends import _NativeThreads, _next_size
from engines.batch.inputs import BadInput
from engines.batch.packed import bad_records, fingerprint, read_header
from engines.batch.records import Payloads
from engines.batch.store import ResultStore
from engines.batch.store_placed import PlacedFile, mapped
from engines.batch.store_writer import COMMIT_SECONDS
from engines.batch.summary import BatchSummary, _end_run, _statuses
from engines.batch.tasks import SolvedChunk, Task, solve_chunk
from engines.errors import InputError
from solvers._batch_columns import Strings
from solvers._records import packed_records, whole_frames

#: Records claimed by the first claim of a file, and at most by one (they double).
FIRST_CLAIM = 4096
MOST_CLAIM = 65536
#: Solved positions stored in one transaction at most, and the longest a solved one waits:
#: each commit waits for the disk (and costs the kernel's CPU), and a killed run loses at
#: most the positions solved since the last.
COMMIT_POSITIONS = 65536
COMMIT_WAIT = 1.0
# Bytes of a block of records read and checked in one native call.
_BLOCK_BYTES = 1 << 18
# Each record's part in a block: solved by this run, stored already, another run's.
_MINE, _STORED, _OTHERS = 1, 0, 2
# packed_records' status -> 1 where the id is bad, and 1 where the record is
_BAD_ID = bytes([1 if i == 1 else 0 for i in range(256)])
_BAD = bytes([1 if i else 0 for i in range(256)])


class _Chunk:
    """Records ``first..last`` of one file that this run solves: the payloads of its
    readable ones, in record order."""

    def __init__(self, fid: int, first: int) -> None:
        self.fid, self.first, self.last = fid, first, first - 1
        self.forms: list[Strings] = []
        self.size = 0

    def add(self, last: int, forms: Strings) -> None:
        self.last = last
        if len(forms):
            self.forms.append(forms)
            self.size += len(forms)


class PlacedRun:
    """One run of ``task`` over packed files into ``db`` by place (see the module)."""

    def __init__(self, task: Task, db: ResultStore, run_id: int, pool: Any, threads: int,
                 slots: Callable[[], int], summary: Any, bad: Callable[[BadInput], None],
                 bar: Any, next_size: Callable[[int, float], int]) -> None:  # fmt: skip
        self.task, self.db, self.run_id, self.pool, self.threads = task, db, run_id, pool, threads
        self.slots, self.summary, self.bad, self.bar = slots, summary, bad, bar
        self.next_size = next_size  # (chunk size, wall seconds) -> the next chunk's size
        self.spec = task.records().spec  # type: ignore[misc, union-attr]
        self.layout = fingerprint(task.records())  # type: ignore[misc, arg-type]
        self.grown = task.chunk_size
        self.pending: dict[Any, _Chunk] = {}
        self.solved: list[tuple[Any, ...]] = []
        self.solved_positions = 0
        self.last_commit = time.perf_counter()

    # -- reading ------------------------------------------------------------------------

    def run(self, paths: list[str]) -> None:
        for path in paths:
            file = self._opened(path)
            try:
                self._file(file)
            finally:
                file.close()
        while self.pending:
            self._wait()
        self.store()

    def _opened(self, path: str) -> PlacedFile:
        try:
            file = mapped(path)
        except OSError as exc:
            raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
        try:
            head = read_header(path, io.BytesIO(bytes(file.data[:200])))
        except BaseException:
            file.close()
            raise
        if head.task != self.task.name or head.layout != self.layout:
            file.close()
            raise InputError(f"{path}: packed for task {head.task} (layout {head.layout}), not "
                             f"for {self.task.name} (layout {self.layout}): pack it again from "
                             "its JSON Lines with this qipai")  # fmt: skip
        return file

    def _file(self, file: PlacedFile) -> None:
        fid = self.db.placed_file(self.task.name, file)
        data = memoryview(file.data)
        at = bytes(data[:200]).find(b"\n") + 1
        number, decided, claim = 1, 0, FIRST_CLAIM
        mine: list[tuple[int, int]] = []
        others: list[tuple[int, int]] = []
        chunk: _Chunk | None = None
        while at < file.size:
            block = data[at : at + _BLOCK_BYTES]
            end, count = whole_frames(block)
            if not count:
                self.summary.positions += 1
                self.summary.rejected += 1
                self.bad(BadInput(file.path, number, f"record {number} is cut short "
                                  f"({file.size - at} bytes at the end of the file)"))
                break
            last = number + count - 1
            while decided < last:
                got, held = self.db.claim_places(self.task.name, fid, decided + 1,
                                                 decided + claim, self.run_id)  # fmt: skip
                mine += got
                others += held
                decided += claim
                claim = min(2 * claim, MOST_CLAIM)
            state = _states(number, last, mine, others)
            self.summary.positions += count
            self.summary.already_stored += int(np.count_nonzero(state == _STORED))
            self.summary.other_run += int(np.count_nonzero(state == _OTHERS))
            if _MINE in state:
                chunk = self._block(file, fid, block[:end], number, state, chunk)
            mine = [r for r in mine if r[1] > last]
            others = [r for r in others if r[1] > last]
            at, number = at + end, last + 1
        del data, block
        if chunk is not None:
            self._submit(chunk)

    def _block(self, file: PlacedFile, fid: int, block: memoryview, number: int,
               state: Any, chunk: _Chunk | None) -> _Chunk | None:  # fmt: skip
        """Read and check the block's records, report the bad ones this run claimed, and
        add the runs of its claimed records to chunks (submitted as they fill)."""
        status, _ids, pack_pair, _forms, _digests, _lines = packed_records(
            self.spec, block, number, False, True, False, False)
        forms = Strings(*pack_pair, False)
        mine = state == _MINE
        if status.count(0) != len(status):
            readable = np.frombuffer(status, np.uint8) == 0
            framed, flags = status.translate(_BAD_ID), status.translate(_BAD)
            for item in bad_records(file.path, number, framed, flags):
                if mine[item.line - number]:
                    self.summary.rejected += 1
                    self.bad(item)
        else:
            readable = None
        # runs of claimed records: [start, stop) indices in the block
        edges = np.flatnonzero(np.diff(np.concatenate(([0], mine.view(np.int8), [0]))))
        before = np.cumsum(readable) if readable is not None else None
        for start, stop in zip(edges[::2].tolist(), edges[1::2].tolist()):
            if chunk is not None and (chunk.fid != fid or chunk.last != number + start - 1):
                self._submit(chunk)
                chunk = None
            at = start
            while at < stop:  # (cut where a chunk fills)
                if chunk is None:
                    chunk = _Chunk(fid, number + at)
                lo = at if before is None else int(before[at - 1]) if at else 0
                room = max(1, self.grown - chunk.size)
                end = min(stop, at + room if before is None else
                          int(np.searchsorted(before, lo + room, side="right")))  # fmt: skip
                hi = end if before is None else int(before[end - 1])
                chunk.add(number + end - 1, forms.part(lo, hi) if hi - lo != len(forms)
                          else forms)  # fmt: skip
                if chunk.size >= self.grown:
                    self._submit(chunk)
                    chunk = None
                at = end
        return chunk

    # -- solving and storing ------------------------------------------------------------

    def _submit(self, chunk: _Chunk) -> None:
        while len(self.pending) >= self.slots():
            self._wait()
        forms = Strings.join(chunk.forms) if len(chunk.forms) != 1 else chunk.forms[0] \
            if chunk.forms else Strings(b"", b"", False)  # fmt: skip
        payloads = Payloads(forms)
        args = payloads if self.task.payload_columns else payloads.tolist()
        self.pending[self.pool.submit(_timed_solve, self.task, args, self.threads)] = chunk
        for future in [f for f in self.pending if f.done()]:
            self._collect(future)
        self.store_if_due()

    def _wait(self) -> None:
        import concurrent.futures as cf

        done, _ = cf.wait(list(self.pending), timeout=COMMIT_SECONDS,
                          return_when=cf.FIRST_COMPLETED)  # fmt: skip
        for future in done:
            self._collect(future)
        self.store_if_due()

    def _collect(self, future: Any) -> None:
        chunk = self.pending.pop(future)
        solved, wall = future.result()
        if chunk.size >= self.grown:
            self.grown = self.next_size(self.grown, wall)
        results, errors, seconds = solved
        self.summary.solver_errors += len(errors) - errors.count(None)
        self.bar.update(chunk.last - chunk.first + 1)
        texts = self.task.json_texts(results, errors)
        self.solved.append((chunk.fid, chunk.first, chunk.last, texts, errors, seconds))
        self.solved_positions += chunk.size

    def store_if_due(self) -> None:
        if self.solved_positions >= COMMIT_POSITIONS or (
                self.solved and time.perf_counter() - self.last_commit >= COMMIT_WAIT):
            self.store()

    def store(self) -> None:
        """Store every solved chunk (one transaction)."""
        if self.solved:
            self.db.add_placed(self.task.name, self.run_id, self.solved)
            self.summary.computed += self.solved_positions
        self.solved, self.solved_positions = [], 0
        self.last_commit = time.perf_counter()

    def interrupted(self) -> None:
        """Store what is solved (after an interruption): the chunks not started are dropped,
        those being solved (native code: not interruptible) waited for and stored too.
        Every chunk is cancelled before any is waited for: waiting first would let a helper
        thread start a queued chunk meanwhile, so what a Ctrl-C keeps would be a race."""
        for future in [f for f in self.pending if f.cancel()]:
            self.pending.pop(future)
        for future in list(self.pending):
            self._collect(future)
        self.store()


def _timed_solve(task: Task, payloads: Any, threads: int) -> tuple[SolvedChunk, float]:
    start = time.perf_counter()
    solved = solve_chunk(task, payloads, threads)
    return solved, time.perf_counter() - start


def _states(first: int, last: int, mine: list[tuple[int, int]],
            others: list[tuple[int, int]]) -> Any:  # fmt: skip
    """Each record of ``first..last``'s part (:data:`_MINE`, :data:`_STORED`,
    :data:`_OTHERS`) from the ranges this run and others claimed."""
    state = np.zeros(last - first + 1, dtype=np.uint8)
    for ranges, value in ((mine, _MINE), (others, _OTHERS)):
        for lo, hi in ranges:
            if hi >= first and lo <= last:
                state[max(lo, first) - first : min(hi, last) - first + 1] = value
    return state


# -- the runner's loop -------------------------------------------------------------------


def run_placed(paths: Sequence[str], task: Task, db: ResultStore, backend: _NativeThreads,
               run_id: int, summary: BatchSummary, bad: Callable[[BadInput], None], bar: Any,
               chunk_size: int | None, own_store: bool,
               started: float) -> BatchSummary:  # fmt: skip
    """The runner's loop (:func:`engines.batch.runner.run_batch`) for a task the store keeps by
    place: a :class:`PlacedRun` on the backend's helper threads, ended as the other loops end
    (:func:`engines.batch.summary._statuses`, :func:`~engines.batch.summary._end_run`)."""
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
