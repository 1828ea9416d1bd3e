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

import numpy as np

from engines.batch.inputs import BadInput, expected_positions
from engines.batch.positions import position_blocks
from engines.batch.records import Payloads
from engines.batch.store import ResultStore
from engines.batch.tasks import Task
from solvers._batch_columns import Strings
from solvers._batch_hashes import DigestSet, text_digests
from solvers._batch_views import gather_fixed, gather_strings

if TYPE_CHECKING:
    from engines.batch.runner import BatchSummary

# Claims grow while they come faster than this (see engines.batch.runner).
_CLAIM_SECONDS = 0.25
# The most positions claimed in one transaction.  A claim's blocks stay in memory until its
# last chunk is stored: a smaller bound keeps fewer blocks alive, so that a run reuses their
# memory sooner (a fresh page costs a fault, 1.2-1.8 us), for two claims more a 100,000 run.
LOOKUP_MAX = 16384


# status byte -> 1 where it is the wanted one (0, 1 or 2), else 0: selectors for compress
_WANT = [bytes(1 if i == want else 0 for i in range(256)) for want in range(3)]


class Rows:
    """Positions, column by column: ``sources`` a list, ``lines`` int64 (8 bytes a
    position), ``ids`` and ``texts`` :class:`Strings`, ``payloads`` :class:`Payloads`,
    ``digests`` 16 bytes a position.  For positions hashed by their payloads
    (:mod:`engines.batch.store_packed`) ``texts`` holds the payloads' compact forms (bytes),
    what the store keeps.

    Rows made of others (:meth:`part`, :meth:`chosen`, :meth:`join`: the blocks as read,
    cut into claims and chunks) are *views*: pieces of blocks, ``(block, lo, hi, mask)``
    (the block's positions ``lo:hi``, those whose ``mask`` byte is 1 when it has one), and
    each column is gathered from the blocks when first asked
    (:mod:`solvers._batch_views`), by the thread that reads it: the runner's thread copies
    no column, the solving thread gathers the payloads, the store thread the rest."""

    __slots__ = ("_digests", "_ids", "_lines", "_payloads", "_sources", "_texts", "count",
                 "pieces")  # fmt: skip

    def __init__(
        self,
        sources: list[str],
        lines: bytes,
        ids: Strings | None,
        payloads: Payloads | None,
        texts: Strings | None,
        digests: bytes,
    ) -> None:
        self._sources, self._lines, self._ids = sources, lines, ids
        self._payloads, self._texts, self._digests = payloads, texts, digests
        self.count = len(sources)
        self.pieces: list[_Piece] | None = None

    @classmethod
    def _view(cls, pieces: list[_Piece]) -> Rows:
        rows = cls.__new__(cls)
        rows._sources = rows._lines = rows._ids = rows._payloads = rows._texts = None
        rows._digests = None
        rows.pieces = pieces
        rows.count = sum([p[4] for p in pieces])
        return rows

    @property
    def sources(self) -> list[str]:
        if self._sources is None:
            out: list[str] = []
            for block, lo, hi, mask, _n in self.pieces or ():
                got = block._sources[lo:hi]
                out += got if mask is None else compress(got, mask[lo:hi])
            self._sources = out
        return self._sources

    @property
    def lines(self) -> bytes:
        if self._lines is None:
            self._lines = gather_fixed([(p[0]._lines, *p[1:4]) for p in self.pieces or ()], 8)
        return self._lines

    @property
    def digests(self) -> bytes:
        if self._digests is None:
            self._digests = gather_fixed([(p[0]._digests, *p[1:4]) for p in self.pieces or ()],
                                         16)  # fmt: skip
        return self._digests

    @property
    def ids(self) -> Strings:
        if self._ids is None:
            self._ids = _gathered([(p[0].ids, *p[1:4]) for p in self.pieces or ()])
        return self._ids

    @property
    def texts(self) -> Strings:
        if self._texts is None:
            self._texts = _gathered([(p[0].texts, *p[1:4]) for p in self.pieces or ()])
        return self._texts

    @property
    def payloads(self) -> Payloads:
        if self._payloads is None:
            pieces = self.pieces or ()
            if all(p[0].payloads.objects is None for p in pieces):
                self._payloads = Payloads(_gathered([(p[0].payloads.packs, *p[1:4])
                                                     for p in pieces]))  # fmt: skip
            else:  # (prepare's dicts among them: the plain path)
                self._payloads = Payloads.join([_piece_payloads(p) for p in pieces])
        return self._payloads

    def column_parts(self) -> list[tuple[Strings, bytes, Strings]]:
        """``(ids, lines, texts)`` of each piece, one after the other (rows of their own
        columns, or of one piece: the rows' own columns)."""
        if self.pieces is None or len(self.pieces) == 1:
            return [(self.ids, self.lines, self.texts)]
        out = []
        for p in self.pieces:
            out += Rows._view([p]).column_parts()
        return out

    @classmethod
    def of(cls, sources: list[str], lines: Sequence[int], ids: list[str], payloads: list[Any],
           texts: list[str], digests: bytes) -> Rows:  # fmt: skip
        """Rows of columns given as lists (one entry a position)."""
        return cls(sources, array("q", lines).tobytes(), Strings.of(ids), Payloads.of(payloads),
                   Strings.of(texts), digests)  # fmt: skip

    def __len__(self) -> int:
        return self.count

    def line_list(self) -> list[int]:
        return array("q", self.lines).tolist()

    def _own_pieces(self) -> list[_Piece]:
        if self.pieces is None:
            return [(self, 0, self.count, None, self.count)]
        return self.pieces

    def part(self, lo: int, hi: int) -> Rows:
        """Positions ``lo:hi`` (``0 <= lo <= hi <= len``), as a view."""
        if not 0 <= lo <= hi <= self.count:
            raise IndexError("Rows part out of range")
        pieces = self._own_pieces()
        out: list[_Piece] = []
        at = 0
        for piece in pieces:
            n = piece[4]
            if n and lo < at + n and at < hi:
                if at < lo:
                    piece, at = _cut(piece, lo - at)[1], lo
                if at + piece[4] > hi:
                    piece = _cut(piece, hi - at)[0]
                out.append(piece)
            at += piece[4]
            if at >= hi:
                break
        return Rows._view(out or [(pieces[0][0], 0, 0, None, 0)])

    def split(self, k: int) -> tuple[Rows, Rows]:
        """The first ``k`` positions and the rest (``self`` itself when it has no more)."""
        if k >= self.count:
            return self, self.part(self.count, self.count)
        if k <= 0:
            return self.part(0, k), self.part(k, self.count)
        # (the parts ``0:k`` and ``k:``, but the piece at ``k`` cut once: cutting a masked
        # piece finds its kept positions)
        pieces = [p for p in self._own_pieces() if p[4]]
        at = i = 0
        while at + pieces[i][4] <= k:
            at += pieces[i][4]
            i += 1
        if at == k:
            return Rows._view(pieces[:i]), Rows._view(pieces[i:])
        head, tail = _cut(pieces[i], k - at)
        return Rows._view([*pieces[:i], head]), Rows._view([tail, *pieces[i + 1 :]])

    def chosen(self, status: bytearray, want: int) -> Rows:
        """The positions whose ``status`` is ``want``, as a view (its pieces' masks made
        here; the columns are not copied, but for a piece that keeps less than a quarter of
        its block: those positions are copied, so that a view never holds much more memory
        than its own positions take, whatever share of the input is dropped)."""
        keep = status.translate(_WANT[want])
        pieces = self._own_pieces()
        out: list[_Piece] = []
        at = 0
        for block, lo, hi, mask, n in pieces:
            mine = keep[at : at + n]
            at += n
            kept = mine.count(1)
            if kept == n:
                out.append((block, lo, hi, mask, n))
            elif kept:
                piece = (block, lo, hi, _narrowed(block.count, lo, hi, mask, mine), kept)
                out.append(piece if 4 * kept >= block.count else _copied(piece))
        return Rows._view(out or [(pieces[0][0], 0, 0, None, 0)])  # (empty: a piece still)

    @staticmethod
    def join(parts: Sequence[Rows]) -> Rows:
        """The rows of ``parts`` one after the other (a view of their pieces)."""
        if len(parts) == 1:
            return parts[0]
        pieces: list[_Piece] = []
        for p in parts:
            pieces += p._own_pieces()
        return Rows._view(pieces)


# A piece of a view: (block, lo, hi, mask or None, how many positions it has).
_Piece = tuple[Rows, int, int, "bytes | bytearray | None", int]


def _gathered(pieces: list[Any]) -> Strings:
    if len(pieces) == 1 and pieces[0][3] is None and pieces[0][1:3] == (0, len(pieces[0][0])):
        return pieces[0][0]  # (a whole block's column as it is)
    return gather_strings(pieces)


def _cut(piece: _Piece, k: int) -> tuple[_Piece, _Piece]:
    """A piece's first ``k`` positions and the rest."""
    block, lo, hi, mask, n = piece
    if mask is None:
        return (block, lo, lo + k, None, k), (block, lo + k, hi, None, n - k)
    kept = np.flatnonzero(np.frombuffer(mask, dtype=np.uint8, count=hi - lo, offset=lo))
    at = lo + int(kept[k]) if k < n else hi
    return (block, lo, at, mask, k), (block, at, hi, mask, n - k)


def _narrowed(size: int, lo: int, hi: int, mask: bytes | bytearray | None,
              keep: bytearray) -> bytearray:  # fmt: skip
    """The mask of a block's positions ``lo:hi`` (of ``size``) kept by ``mask`` (all when
    None) and then by ``keep`` (one byte a position kept by ``mask``)."""
    out = bytearray(size)
    if mask is None:
        out[lo:hi] = keep
        return out
    kept = np.flatnonzero(np.frombuffer(mask, dtype=np.uint8, count=hi - lo, offset=lo)) + lo
    np.frombuffer(out, dtype=np.uint8)[kept] = np.frombuffer(keep, dtype=np.uint8)
    return out


def _copied(piece: _Piece) -> _Piece:
    """The positions of ``piece`` as a block of their own (their columns gathered)."""
    rows = Rows._view([piece])
    block = Rows(rows.sources, rows.lines, rows.ids, rows.payloads, rows.texts, rows.digests)
    return (block, 0, block.count, None, block.count)


def _piece_payloads(piece: _Piece) -> Payloads:
    block, lo, hi, mask, _n = piece
    payloads = block.payloads.part(lo, hi)
    return payloads if mask is None else payloads.chosen(bytearray(mask[lo:hi]), 1)


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
    ``summary``.  Claims grow (up to :data:`LOOKUP_MAX`: :func:`_next_lookup`) while they
    come less than a quarter second apart: fast tasks make few transactions (each a disk
    sync), slow ones leave positions unclaimed for a second run on the same store to share.
    ``readers``: threads that read (and hash) blocks of input ahead, for a task whose reader
    can.
    ``payload_hashes``: positions hashed by their payloads (packed files only; no text)."""
    seen = DigestSet()
    seen.reserve(expected_positions(paths))
    waiting: list[Rows] = []
    count = 0
    last_claim: float | None = None

    def claimed() -> list[Rows]:
        nonlocal lookup, last_claim, count
        now = time.perf_counter()
        # A claim that comes fast is kept in memory while no other run of the task runs
        # (engines.batch.store_claims); the first and those of slow tasks are written (a
        # run kept waiting by a slow solve would hold back another that wants its claims).
        lazy = last_claim is not None and now - last_claim < _CLAIM_SECONDS
        if last_claim is not None:
            lookup = _next_lookup(lookup, now - last_claim)
        last_claim = now
        parts = waiting[:]
        waiting.clear()
        count = 0
        # One transaction checks what is stored and claims the rest for this run; what
        # another live run claimed is left to it.  (Only the digests are gathered: the
        # blocks' other columns are copied once, by the threads that read the chunks.)
        status = db.claim_digests(task.name, Rows.join(parts).digests, run_id, lazy=lazy)
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

    # (a packed file's blocks are checked against ``seen`` where they are read)
    blocks = position_blocks(paths, task, summary, bad, readers, columns=True,
                             payload_hashes=payload_hashes, seen=seen)  # fmt: skip
    for sources, lines, ids, payloads, texts, hashed, first in blocks:
        if type(texts) is Strings:  # the native reader's columns
            rows = Rows(sources, lines, ids, payloads, texts, hashed)
        else:
            digests = text_digests(texts) if hashed is None else hashed
            rows = Rows.of(sources, lines, ids, payloads, texts, digests)
        if first is None:
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


def _next_lookup(lookup: int, spent: float) -> int:
    """The size of the claim after one of ``lookup`` positions that came ``spent`` seconds
    after the one before: while claims come less than :data:`_CLAIM_SECONDS` apart, twice as
    many, and twice again while twice the positions would still come in less than that (a
    fast task reaches :data:`LOOKUP_MAX` in one or two claims, each a transaction), never
    more than :data:`LOOKUP_MAX` (nor less than ``lookup``).

    >>> [_next_lookup(2048, spent) for spent in (0.001, 0.05, 0.1, 0.3)]
    [16384, 8192, 4096, 2048]
    """
    if spent >= _CLAIM_SECONDS:
        return lookup
    grown, spent = 2 * lookup, 2 * spent
    while grown < LOOKUP_MAX and 2 * spent < _CLAIM_SECONDS:
        grown, spent = 2 * grown, 2 * spent
    return min(grown, max(lookup, LOOKUP_MAX))


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
