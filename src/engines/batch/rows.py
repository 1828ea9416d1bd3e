"""The runner's positions column by column: blocks of input read, claimed, cut into chunks.

A fast task solves a position in a few microseconds, less than building a Python
object per position would cost, so the runner moves positions in blocks of
columns (:class:`Rows`): sources, lines (int64), ids, canonical texts and payloads
in buffers (:class:`solvers._batch_columns.Strings`, :class:`engines.batch.records.Payloads`),
and the input hashes as 16-byte digests (:func:`solvers._batch_hashes.text_digests`, the
BLAKE2b digests of :func:`engines.batch.tasks.hash_text`).  Repeats within the
input and positions already stored or claimed by another run are dropped a block
at a time (:func:`todo`), and the rest is cut into chunks (:func:`chunks`).
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from itertools import compress
from typing import TYPE_CHECKING, Any

from engines.batch.inputs import BadInput
from engines.batch.positions import position_blocks
from engines.batch.records import Payloads
from engines.batch.store import ResultStore
from engines.batch.tasks import Task
from solvers._batch_columns import Strings, select_fixed
from solvers._batch_hashes import DigestSet, select, text_digests

if TYPE_CHECKING:
    from engines.batch.runner import BatchSummary

# Claims grow while they come faster than this (see engines.batch.runner).
_CLAIM_SECONDS = 0.25
# The most positions claimed in one transaction.
LOOKUP_MAX = 32768


# status byte -> 1 where it is the wanted one (0, 1 or 2), else 0: selectors for compress
_WANT = [bytes(1 if i == want else 0 for i in range(256)) for want in range(3)]


class Rows:
    """Positions, column by column: ``sources`` a list, ``lines`` int64 (8 bytes a
    position), ``ids`` and ``texts`` :class:`Strings`, ``payloads`` :class:`Payloads`,
    ``digests`` 16 bytes a position.  For positions hashed by their payloads
    (:mod:`engines.batch.store_packed`) ``texts`` holds the payloads' compact forms (bytes),
    what the store keeps.

    Rows joined from several parts (:meth:`join`: a chunk made of blocks as read) keep
    the parts, and join their ids, texts and payloads only when first asked: the rows'
    text is written from the parts' own buffers (:meth:`column_parts`), so a chunk's
    inputs are not copied into one buffer first."""

    __slots__ = ("_ids", "_payloads", "_texts", "digests", "lines", "parts", "sources")

    def __init__(
        self,
        sources: list[str],
        lines: bytes,
        ids: Strings | None,
        payloads: Payloads | None,
        texts: Strings | None,
        digests: bytes,
        parts: Sequence[Rows] | None = None,
    ) -> None:
        self.sources, self.lines, self._ids = sources, lines, ids
        self._payloads, self._texts, self.digests = payloads, texts, digests
        self.parts = parts

    @property
    def ids(self) -> Strings:
        if self._ids is None:
            self._ids = Strings.join([p.ids for p in self.parts or ()])
        return self._ids

    @property
    def texts(self) -> Strings:
        if self._texts is None:
            self._texts = Strings.join([p.texts for p in self.parts or ()])
        return self._texts

    @property
    def payloads(self) -> Payloads:
        if self._payloads is None:
            self._payloads = Payloads.join([p.payloads for p in self.parts or ()])
        return self._payloads

    def column_parts(self) -> list[tuple[Strings, bytes, Strings]]:
        """``(ids, lines, texts)`` of each part, one after the other (one part: the rows'
        own columns)."""
        if self.parts is None:
            return [(self.ids, self.lines, self.texts)]
        out = []
        for p in self.parts:
            out += p.column_parts()
        return out

    @classmethod
    def of(cls, sources: list[str], lines: Sequence[int], ids: list[str], payloads: list[Any],
           texts: list[str], digests: bytes) -> Rows:  # fmt: skip
        """Rows of columns given as lists (one entry a position)."""
        return cls(sources, array("q", lines).tobytes(), Strings.of(ids), Payloads.of(payloads),
                   Strings.of(texts), digests)  # fmt: skip

    def __len__(self) -> int:
        return len(self.sources)

    def line_list(self) -> list[int]:
        return array("q", self.lines).tolist()

    def part(self, lo: int, hi: int) -> Rows:
        return Rows(self.sources[lo:hi], self.lines[8 * lo : 8 * hi], self.ids.part(lo, hi),
                    self.payloads.part(lo, hi), self.texts.part(lo, hi),
                    self.digests[16 * lo : 16 * hi])  # fmt: skip

    def split(self, k: int) -> tuple[Rows, Rows]:
        """The first ``k`` positions and the rest (``self`` itself when it has no more)."""
        if k >= len(self):
            return self, self.part(len(self), len(self))
        return self.part(0, k), self.part(k, len(self))

    def chosen(self, status: bytearray, want: int) -> Rows:
        """The positions whose ``status`` is ``want``."""
        keep = status.translate(_WANT[want])
        return Rows(list(compress(self.sources, keep)), select_fixed(self.lines, 8, status, want),
                    self.ids.chosen(status, want), self.payloads.chosen(status, want),
                    self.texts.chosen(status, want),
                    select(self.digests, status, want))  # fmt: skip

    @staticmethod
    def join(parts: Sequence[Rows]) -> Rows:
        """The rows of ``parts`` one after the other (ids, texts and payloads joined when
        first asked for)."""
        if len(parts) == 1:
            return parts[0]
        sources: list[str] = []
        for p in parts:
            sources += p.sources
        return Rows(sources, b"".join([p.lines for p in parts]), None, None, None,
                    b"".join([p.digests for p in parts]), parts)  # fmt: skip


def todo(
    paths: Sequence[str],
    task: Task,
    db: ResultStore,
    run_id: int,
    summary: BatchSummary,
    bad: Callable[[BadInput], None],
    shrink_total: Callable[[int], None],
    lookup: int,
    readers: Executor | None = None,
    payload_hashes: bool = False,
) -> Iterator[Rows]:
    """The positions still to solve, in input order and in blocks (the blocks as read, or
    parts of them: :func:`chunks` joins them once, into chunks); counts the rest into
    ``summary``.  Claims grow (doubling up to :data:`LOOKUP_MAX`) while they come less
    than a quarter second apart: fast tasks make few transactions (each a disk sync), slow
    ones leave positions unclaimed for a second run on the same store to share.  ``readers``:
    threads that read (and hash) blocks of input ahead, for a task whose reader can.
    ``payload_hashes``: positions hashed by their payloads (packed files only; no text)."""
    seen = DigestSet()
    waiting: list[Rows] = []
    count = 0
    last_claim: float | None = None

    def claimed() -> list[Rows]:
        nonlocal lookup, last_claim, count
        now = time.perf_counter()
        if last_claim is not None and now - last_claim < _CLAIM_SECONDS:
            lookup = min(2 * lookup, max(lookup, LOOKUP_MAX))
        last_claim = now
        parts = waiting[:]
        waiting.clear()
        count = 0
        # One transaction checks what is stored and claims the rest for this run; what
        # another live run claimed is left to it.  (Only the digests are joined: the
        # blocks' columns are copied once, into chunks.)
        status = db.claim_digests(task.name, b"".join([p.digests for p in parts]), run_id)
        fresh = status.count(0)
        stored = status.count(1)
        total = len(status)
        summary.already_stored += stored
        summary.other_run += total - fresh - stored
        shrink_total(total - fresh)
        if fresh == total:
            return parts
        out, at = [], 0
        for part in parts:
            mine = status[at : at + len(part)]
            at += len(part)
            if mine.count(0):
                out.append(part if mine.count(0) == len(part) else part.chosen(mine, 0))
        return out

    blocks = position_blocks(paths, task, summary, bad, readers, columns=True,
                             payload_hashes=payload_hashes)  # fmt: skip
    for sources, lines, ids, payloads, texts, hashed in blocks:
        if type(texts) is Strings:  # the native reader's columns
            rows = Rows(sources, lines, ids, payloads, texts, hashed)
        else:
            digests = text_digests(texts) if hashed is None else hashed
            rows = Rows.of(sources, lines, ids, payloads, texts, digests)
        first = seen.add_new(rows.digests)
        repeats = len(first) - first.count(1)
        if repeats:
            summary.duplicates += repeats
            shrink_total(repeats)
            rows = rows.chosen(first, 1)
        while len(rows):
            take = min(len(rows), lookup - count)
            head, rows = rows.split(take)
            waiting.append(head)
            count += take
            if count >= lookup:
                yield from claimed()
    if waiting:
        yield from claimed()


def chunks(blocks: Iterable[Rows], size: Callable[[], int]) -> Iterator[Rows]:
    """The positions of ``blocks`` in chunks of ``size()`` positions, asked before each chunk
    is filled (the last one may be smaller)."""
    parts: list[Rows] = []
    have = 0
    want = size()
    for rows in blocks:
        while len(rows):
            take = min(want - have, len(rows))
            head, rows = rows.split(take)
            parts.append(head)
            have += take
            if have == want:
                yield Rows.join(parts)
                parts, have = [], 0
                want = size()
    if parts:
        yield Rows.join(parts)
