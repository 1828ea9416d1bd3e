"""The positions of a batch's inputs: read, checked and made canonical, in input order.

Each position comes out as ``(source, line, position id, payload, canonical
text)``.  Records go through the task's ``prepare``, except JSON Lines of a
task with a record layout (:mod:`engines.batch.records`): those are read in
blocks by native code, and only the lines it does not fully understand go
through ``prepare``, which names what is wrong.  Either way the payload text,
the id and the error message of every line are the same.
"""

from __future__ import annotations

import functools
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from engines.batch.inputs import (
    BadInput,
    Record,
    decoded,
    input_format,
    jsonl_entry,
    jsonl_lines,
    read_inputs,
)
from engines.batch.records import SCAN_OK, SCAN_REFER, Payloads, RecordReader
from engines.batch.tasks import Task
from solvers._batch_columns import Strings

if TYPE_CHECKING:
    from engines.batch.runner import BatchSummary
    from solvers._batch_hashes import DigestSet

Position = tuple[str, int, str, Any, str]  # source, line, position id, payload, canonical text
# The same a block at a time: lists of sources, lines, ids, payloads and texts, the texts'
# 16-byte digests when the reader hashed them (else None), and the positions' first
# occurrences in the run when the reader checked them (see position_blocks; else None).
Columns = tuple[list[str], list[int], list[str], list[Any], list[str], bytes | None,
                bytearray | None]  # fmt: skip

# Lines read per block of the plain path.
_SCAN_LINES = 1024
# Characters read per block by the native path (about 1,000 lines of 升级 records): whole
# lines, split natively when ASCII.
_SCAN_CHARS = 1 << 18


def positions(
    paths: Sequence[str], task: Task, summary: BatchSummary, bad: Callable[[BadInput], None]
) -> Iterator[Position]:
    """Every readable position of ``paths`` in order, counted into ``summary``; the rest
    go to ``bad``.  JSON Lines of a task with a record layout are read natively."""
    for block in position_blocks(paths, task, summary, bad):
        yield from zip(*block[:5])


def position_blocks(
    paths: Sequence[str], task: Task, summary: BatchSummary, bad: Callable[[BadInput], None],
    readers: Executor | None = None, *, columns: bool = False, payload_hashes: bool = False,
    seen: DigestSet | None = None,
) -> Iterator[Columns]:  # fmt: skip
    """:func:`positions` a block at a time, as columns: ``(sources, lines, ids, payloads,
    texts, digests)``, each a list (a block is never empty) but ``digests``, the input
    hashes when the native reader made them, else ``None``.  With ``readers`` (threads),
    a reader that hashes (``scan_hashed``) reads the blocks ahead on those threads.
    With ``columns``, a block the native reader read whole (``scan_columns``) comes as
    buffers: ``lines`` int64 bytes, ``ids`` and ``texts`` :class:`Strings`, ``payloads``
    :class:`~engines.batch.records.Payloads` (no Python object a position).
    ``payload_hashes`` (packed files only, with ``columns``): no text is written; ``texts``
    holds the payloads' compact forms and the digests are theirs
    (:mod:`engines.batch.store_packed`).
    ``seen``: the run's digest set; a packed file's blocks are checked against it (and added
    to it) where they are read (:class:`_FirstSeen`): their last column is then
    :meth:`~solvers._batch_hashes.DigestSet.add_new`'s answer, 1 for a position's first
    occurrence in the run; it is ``None`` for the blocks of other files, left to the caller."""
    if payload_hashes and not columns:
        raise ValueError("payload hashes are read as columns")
    layout = task.records() if task.records is not None else None
    for path in paths:
        fmt = input_format(path) if layout is not None else None
        if fmt == "jsonl":
            yield from _scanned(path, task, layout, summary, bad, readers, columns)
            continue
        if fmt == "packed" and hasattr(layout, "spec"):
            yield from _packed(path, task, layout, summary, bad, readers, columns,
                               payload_hashes, seen)  # fmt: skip
            continue
        rows: list[Position] = []
        for entry in read_inputs([path]):
            if isinstance(entry, BadInput):
                bad(entry)
                continue
            rows.extend(_prepared(task, entry, summary, bad))
            if len(rows) >= _SCAN_LINES:
                yield _columns(rows)
                rows = []
        if rows:
            yield _columns(rows)


def _columns(rows: list[Position]) -> Columns:
    sources, lines, ids, payloads, texts = map(list, zip(*rows))
    return sources, lines, ids, payloads, texts, None, None


def _prepared(
    task: Task, record: Record, summary: BatchSummary, bad: Callable[[BadInput], None]
) -> Iterator[Position]:
    """The position of one record through the task's ``prepare`` (nothing if it refuses)."""
    summary.positions += 1
    try:
        payload = task.prepare(record.obj)
    except KeyError as exc:
        summary.rejected += 1
        bad(BadInput(record.source, record.line, f"missing field {exc}"))
        return
    except (ValueError, TypeError) as exc:  # InputError is a ValueError
        summary.rejected += 1
        bad(BadInput(record.source, record.line, str(exc)))
        return
    yield record.source, record.line, record.position_id, payload, task.json_text(payload)


# status byte -> 1 for a line the scanner read, else 0 (a selector for itertools.compress)
_READ = bytes([1 if i == SCAN_OK else 0 for i in range(256)])
_REFERRED = bytes([1 if i == SCAN_REFER else 0 for i in range(256)])


def _scanned(
    path: str,
    task: Task,
    layout: RecordReader,
    summary: BatchSummary,
    bad: Callable[[BadInput], None],
    readers: Executor | None,
    columns: bool = False,
) -> Iterator[Columns]:
    """:func:`position_blocks` of one JSON Lines file, read in blocks by the native scanner
    (on ``readers`` ahead of use, when the scanner hashes without the GIL; as buffers with
    ``columns``, when it can).

    A line the scanner does not fully understand is read as before (``prepare``),
    so the payloads, texts, ids and error messages are those of the plain path.
    """
    columns = columns and hasattr(layout, "scan_columns")
    # (a file read as buffers: read as bytes, split and decoded by the native reader)
    binary = columns and path != "-"
    with jsonl_lines(path, binary=binary) as (label, handle):
        name = Path(label).name
        first = 1
        read = functools.partial(_scan_columns if columns else _scan_block, layout)
        blocks = _byte_blocks(handle) if binary else _text_blocks(handle)
        if readers is not None and hasattr(layout, "scan_hashed"):
            scanned = _ahead(readers, read, blocks)
        else:
            scanned = map(read, blocks)
        for block in scanned:
            if type(block) is _Buffers:
                yield from _buffered_block(label, name, first, block, summary)
                first += len(block.status)
                continue
            status, texts, ids, packs, refer, digests = block
            yield from _scanned_block(label, name, first, status, texts, ids, packs, refer,
                                      digests, task, summary, bad)  # fmt: skip
            first += len(status)


# Blocks read ahead a reading thread.
_AHEAD = 2


def _ahead(pool: Executor, fn: Callable[[Any], Any], items: Iterator[Any]) -> Iterator[Any]:
    """``map(fn, items)`` on ``pool``'s threads, a few items ahead, in order."""
    window = _AHEAD * max(1, getattr(pool, "_max_workers", 1))
    queue: deque[Future[Any]] = deque()
    try:
        for item in items:
            queue.append(pool.submit(fn, item))
            if len(queue) >= window:
                yield queue.popleft().result()
        while queue:
            yield queue.popleft().result()
    finally:
        for future in queue:
            future.cancel()


def _scan_block(layout: RecordReader, text: str) -> tuple[Any, ...]:
    """One block of lines read: ``(status, texts, ids, packs, referred lines, digests or
    None)``; the referred lines' text with its newline, as a file's."""
    if hasattr(layout, "scan_text") and text.isascii():  # split natively: no str a line
        if hasattr(layout, "scan_hashed"):
            status, texts, ids, packs, spans, digests = layout.scan_hashed(text)
        else:
            (status, texts, ids, packs, spans), digests = layout.scan_text(text), None
        refer = [text[a : b + 1] for a, b in spans]  # with its newline, as a file's
        return status, texts, ids, packs, refer, digests
    all_lines = [line + "\n" for line in text.split("\n")]  # split at \n only
    last = all_lines.pop()
    if last != "\n":  # the file's last line, without its newline
        all_lines.append(last[:-1])
    status, texts, ids, packs = layout.scan(all_lines)
    chosen = status.translate(_READ)
    texts, ids, packs = (list(compress(c, chosen)) for c in (texts, ids, packs))
    refer = list(compress(all_lines, status.translate(_REFERRED)))
    return status, texts, ids, packs, refer, None


class _Buffers(NamedTuple):
    """A block the native reader read whole (no line referred), as buffers
    (:func:`solvers._records.scan_columns`)."""

    status: bytearray
    texts: Strings
    ids: Strings
    packs: Strings
    lines: bytes  # each position's line index in the block, int64
    missing: bytearray | None
    digests: bytes


def _scan_columns(layout: Any, text: str | bytearray) -> _Buffers | tuple[Any, ...]:
    """One block of lines read as buffers (:class:`_Buffers`), or, when a line is referred
    to ``prepare`` or the text is not ASCII, as :func:`_scan_block` reads it.  ``text``: a
    block of :func:`_text_blocks`, or of :func:`_byte_blocks` (read as its text when it is
    not ASCII or holds a ``\\r``: the text a text handle reads)."""
    if not text.isascii() or (type(text) is not str and b"\r" in text):
        text = text if type(text) is str else decoded(text)
        if not text.isascii():
            return _scan_block(layout, text)
    status, texts, ids, packs, lines, missing, spans, digests = layout.scan_columns(text)
    if spans:
        refer = [_line(text, a, b + 1) for a, b in spans]  # with its newline, as a file's
        return (status, Strings(*texts, True, True).tolist(), _ids(Strings(*ids, True, True),
                missing), Strings(*packs, False).tolist(), refer, digests)  # fmt: skip
    return _Buffers(status, Strings(*texts, True, True, True), Strings(*ids, True, True),
                    Strings(*packs, False), lines, missing, digests)  # fmt: skip


def _packed(
    path: str, task: Task, layout: Any, summary: BatchSummary, bad: Callable[[BadInput], None],
    readers: Executor | None, columns: bool, payload_hashes: bool = False,
    seen: DigestSet | None = None,
) -> Iterator[Columns]:  # fmt: skip
    """:func:`position_blocks` of one packed file (:mod:`engines.batch.packed`): each block's
    texts written back and hashed natively (on ``readers`` ahead of use; with
    ``payload_hashes`` its payloads checked and hashed, no text), a record's number as its
    line; with ``seen``, its digests checked against the run's set there too."""
    from engines.batch.packed import PackedBlock, bad_records, packed_blocks, unpacked

    checks = _FirstSeen(seen) if seen is not None else None

    def read(numbered: tuple[int, PackedBlock | BadInput]) -> Any:
        index, block = numbered
        got = None
        try:
            if type(block) is not BadInput:
                got = unpacked(layout, block, texts=not payload_hashes)
        finally:  # (every block takes its turn, read or not)
            first = checks.check(index, got.digests if got else None) if checks else None
        return block, got, first

    blocks = enumerate(packed_blocks(path, task))
    for item in _ahead(readers, read, blocks) if readers is not None else map(read, blocks):
        block, got, first = item
        if type(block) is BadInput:
            summary.positions += 1
            summary.rejected += 1
            bad(block)
            continue
        failed = len(got.status) - len(got.ids)
        if failed:
            summary.positions += failed
            summary.rejected += failed
            for entry in bad_records(path, block.first, got.framed, got.status):
                bad(entry)
        count = len(got.ids)
        if not count:
            continue
        summary.positions += count
        firsts = first[0] if first is not None else None
        if columns:
            yield ([path] * count, got.lines, got.ids, Payloads(got.packs),  # type: ignore[misc]
                   got.texts, got.digests, firsts)  # fmt: skip
        else:
            yield ([path] * count, np.frombuffer(got.lines, dtype=np.int64).tolist(),
                   got.ids.tolist(), got.packs.tolist(), got.texts.tolist(),
                   got.digests, firsts)  # fmt: skip


class _FirstSeen:
    """A run's digest set checked on the reading threads, a block at a time in the blocks'
    order (a position repeated in the input is kept where it first comes), without a thread
    ever waiting for another's read: a block read before the one ahead of it is left for
    the thread that reads that one, which checks both before its own block is handed back.
    The runner takes the blocks back in order, so a block's answer is there when it is
    taken (:meth:`check`'s list, filled by whichever thread checked it).  The check is a
    native call without the GIL (``DigestSet.add_new``) that the runner's thread no longer
    makes."""

    def __init__(self, seen: DigestSet) -> None:
        self._seen = seen
        self._turn = 0
        self._left: dict[int, tuple[bytes | None, list[bytearray | None]]] = {}
        self._lock = threading.Lock()

    def check(self, index: int, digests: bytes | None) -> list[bytearray | None]:
        """Block ``index``'s answer (``[first]``; ``[None]`` for a block of no positions),
        filled by the time block ``index`` is taken back."""
        answer: list[bytearray | None] = [None]
        with self._lock:
            self._left[index] = (digests, answer)
            while self._turn in self._left:
                waiting, out = self._left.pop(self._turn)
                if waiting is not None:
                    out[0] = self._seen.add_new(waiting)
                self._turn += 1
        return answer


def _line(text: str | bytearray, a: int, b: int) -> str:
    """``text[a:b]`` as a ``str`` (``text`` ASCII)."""
    return text[a:b] if type(text) is str else text[a:b].decode("ascii")


def _ids(ids: Strings, missing: bytearray | None) -> list[str | None]:
    """The ids of a block as a list, ``None`` where the line has none."""
    out: list[str | None] = ids.tolist()
    for i in range(len(out)) if missing is not None else ():
        if missing[i]:
            out[i] = None
    return out


def _buffered_block(
    label: str, name: str, first: int, block: _Buffers, summary: BatchSummary
) -> Iterator[Columns]:
    """The positions of a block the native reader read whole, as buffers (lines made
    absolute, missing ids named ``file:line``)."""
    ok = len(block.texts)
    if not ok:
        return
    summary.positions += ok
    local = np.frombuffer(block.lines, dtype=np.int64)
    lines = (local + first).tobytes() if first else block.lines
    ids: Any = block.ids
    if block.missing is not None:
        listed = _ids(ids, block.missing)
        numbers = (local + first).tolist()
        ids = Strings.of([pid if pid is not None else f"{name}:{number}"
                          for pid, number in zip(listed, numbers)])  # fmt: skip
    yield ([label] * ok, lines, ids, Payloads(block.packs), block.texts,  # type: ignore[misc]
           block.digests, None)


def _text_blocks(handle: Any) -> Iterator[str]:
    """The text of ``handle`` in blocks of whole lines (the last one may lack its newline)."""
    rest = ""
    while text := handle.read(_SCAN_CHARS):
        text = rest + text if rest else text
        cut = text.rfind("\n") + 1
        if cut == 0:
            rest = text
            continue
        rest = text[cut:]
        yield text[:cut] if rest else text
    if rest:
        yield rest


def _byte_blocks(handle: Any) -> Iterator[bytearray]:
    """The bytes of a binary ``handle`` in blocks of whole lines (the last one may lack its
    newline), read into each block's buffer (one copy, no decoding).  A line ends at
    ``\\n``; a block with a ``\\r`` is decoded as a text handle would (:func:`decoded`)."""
    rest = b""
    while True:
        block = bytearray(len(rest) + _SCAN_CHARS)
        block[: len(rest)] = rest
        with memoryview(block) as view:
            got = handle.readinto(view[len(rest) :])
        if not got:
            break
        del block[len(rest) + got :]
        cut = block.rfind(b"\n") + 1
        if cut == 0 and b"\r" in block:
            # (a file of \r-ended lines: cut after one not last, so never inside \r\n)
            cut = block.rfind(b"\r", 0, len(block) - 1) + 1
        if cut == 0:
            rest = bytes(block)
            continue
        rest = bytes(block[cut:])
        del block[cut:]
        yield block
    if rest:
        yield bytearray(rest)


def _scanned_block(
    label: str, name: str, first: int, status: bytearray, texts: list[str],
    ids: list[str | None], packs: list[bytes], refer: list[str], digests: bytes | None,
    task: Task, summary: BatchSummary, bad: Callable[[BadInput], None],
) -> Iterator[Columns]:  # fmt: skip
    """The positions of one block of lines from :func:`_scanned`: ``texts``, ``ids``,
    ``packs`` (and ``digests``, or ``None``) of the lines read natively, ``refer`` the text
    of the lines the scanner refers to ``prepare``, each in order."""
    numbers = range(first, first + len(status))
    ok = len(texts)
    if SCAN_REFER not in status:
        if ok:
            summary.positions += ok
            numbers = list(compress(numbers, status.translate(_READ)) if ok < len(status)
                           else numbers)  # fmt: skip
            if None in ids:
                ids = [pid if pid is not None else f"{name}:{number}"
                       for pid, number in zip(ids, numbers)]  # fmt: skip
            yield [label] * ok, numbers, ids, packs, texts, digests, None
        return
    rows: list[Position] = []
    k = 0
    referred = iter(refer)
    for i, state in enumerate(status):
        if state == SCAN_OK:
            summary.positions += 1
            pid = ids[k]
            rows.append((label, numbers[i], pid if pid is not None else f"{name}:{numbers[i]}",
                         packs[k], texts[k]))  # fmt: skip
            k += 1
        elif state == SCAN_REFER:
            entry = jsonl_entry(label, numbers[i], next(referred))
            if isinstance(entry, BadInput):
                bad(entry)
            elif entry is not None:
                rows.extend(_prepared(task, entry, summary, bad))
    if rows:
        yield _columns(rows)
