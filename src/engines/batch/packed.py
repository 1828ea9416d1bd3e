"""Packed positions: a binary input of ``qipai batch`` for tasks read by a record layout.

A 升级 or 双扣 position solves in about a microsecond; reading its JSON Lines record
(parsing, the canonical text, the input hash) costs as much again.  A *packed* file
holds each position as the runner's packed payload (:mod:`engines.batch.records`: the
kind's code, name codes and count rows), so reading it is a copy: the runner writes
the canonical text back from the counts (:func:`solvers._records.unpacked_texts`,
without the GIL) and hashes it, so a position has the same input hash, canonical input
and id whether it was read from JSON Lines or from its packed file, and one store
resumes either.

The file: a header line ``qipai-packed 1 TASK LAYOUT`` (``LAYOUT`` a fingerprint of the
task's record layout: a file written for another layout is refused), then one record a
position: one byte ``k``, two bytes ``m`` (little-endian), the id (``k`` ASCII bytes)
and the payload (``m`` bytes).  Nothing in it is trusted: a payload the layout's own
scanner could not have made (another length, a code out of range, a third copy of a
card) is a bad input naming its record, as is an id that is not printable ASCII.
``qipai pack --task TASK -o OUT.qpk IN.jsonl`` writes one from JSON Lines (a line the native
reader does not read is packed from its canonical text, which ``prepare`` gives).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, NamedTuple

from engines.batch.inputs import BadInput, InputFormat, Record, register_input_format
from engines.errors import InputError
from solvers._batch_columns import Strings
from solvers._records import whole_frames

if TYPE_CHECKING:
    from engines.batch.records import RecordLayout
    from engines.batch.tasks import Task

MAGIC = b"qipai-packed"
VERSION = 1
SUFFIXES = (".qpk",)
# Bytes read a block (about 2,000 升级 positions).
_BLOCK_BYTES = 1 << 18
_MAX_ID = 255
_MAX_PACK = 65535


def fingerprint(layout: RecordLayout) -> str:
    """What a packed payload's bytes mean to ``layout``: its kinds, fields, names and cards."""
    spelled = json.dumps([{k: dict(v) for k, v in layout.kinds.items()},
                          {k: list(v) for k, v in layout.names.items()}, list(layout.cards),
                          dict(layout.constants), list(layout.null_only)],
                         sort_keys=True)  # fmt: skip
    return hashlib.blake2b(spelled.encode(), digest_size=8).hexdigest()


def header(task: Task) -> bytes:
    layout = fingerprint(_layout(task)).encode()
    return b"%s %d %s %s\n" % (MAGIC, VERSION, task.name.encode(), layout)


def _layout(task: Task) -> RecordLayout:
    from engines.batch.records import RecordLayout

    layout = task.records() if task.records is not None else None
    if not isinstance(layout, RecordLayout):
        raise InputError(f"task {task.name} has no record layout: its positions cannot be packed")
    return layout


def frame(position_id: str, pack: bytes, where: str) -> bytes:
    """One record of a packed file (``where`` names the position in an error)."""
    raw = position_id.encode("ascii", "replace")
    if len(raw) > _MAX_ID or len(pack) > _MAX_PACK or any(c in b'"\\' or not 32 <= c < 127
                                                         for c in raw):  # fmt: skip
        raise InputError(f"{where}: id {position_id[:40]!r} cannot be packed (at most 255 "
                         "printable ASCII characters, no quote or backslash)")  # fmt: skip
    return struct.pack("<BH", len(raw), len(pack)) + raw + pack


class PackedHeader(NamedTuple):
    task: str
    layout: str
    size: int  # bytes of the header line


def read_header(path: str, handle: BinaryIO) -> PackedHeader:
    line = handle.readline(200)
    parts = line.split()
    if len(parts) != 4 or parts[0] != MAGIC or not line.endswith(b"\n"):
        raise InputError(f"{path}: not a packed positions file (no '{MAGIC.decode()} ' header)")
    if parts[1] != str(VERSION).encode():
        raise InputError(f"{path}: packed positions version {parts[1].decode(errors='replace')}; "
                         f"this qipai reads version {VERSION}")  # fmt: skip
    return PackedHeader(parts[2].decode(errors="replace"), parts[3].decode(errors="replace"),
                        len(line))  # fmt: skip


class PackedBlock(NamedTuple):
    """Whole records of a packed file, numbered from ``first`` (1-based), as read (``data``
    may end with the first bytes of a record cut by the block's end, left unread):
    :func:`unpacked` splits them (on a reading thread)."""

    first: int
    data: bytes


def packed_blocks(path: str, task: Task) -> Iterator[PackedBlock | BadInput]:
    """The records of a packed file for ``task`` in blocks of whole records; a truncated
    last record is a :class:`BadInput`.  A file for another task or layout raises
    :class:`InputError`."""
    layout = _layout(task)
    try:
        handle = open(path, "rb")  # noqa: SIM115 (closed below; an error names the file)
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    with handle:
        head = read_header(path, handle)
        if head.task != task.name or head.layout != fingerprint(layout):
            raise InputError(f"{path}: packed for task {head.task} (layout {head.layout}), not "
                             f"for {task.name} (layout {fingerprint(layout)}): pack it again "
                             "from its JSON Lines with this qipai")  # fmt: skip
        first, cut = 1, 0
        for data, count, left in _whole_records(handle):
            if count:
                yield PackedBlock(first, data)
                first += count
            cut = left
        if cut:
            yield BadInput(path, first, f"record {first} is cut short ({cut} bytes at the "
                           "end of the file)")  # fmt: skip


def _whole_records(handle: BinaryIO) -> Iterator[tuple[bytes, int, int]]:
    """``(data, count, left)`` a block read from ``handle`` (past the header): ``data``
    starts with ``count`` whole records, ``left`` the bytes of a record not yet whole at
    the file's end (the truncated last record's).  A record cut by a block's end is read
    again with the next block where the file can seek (``data`` then ends with its first
    bytes, which :func:`solvers._records.packed_records` leaves: nothing is copied), else
    its bytes are carried into the next block."""
    rest = b""
    seekable = handle.seekable()
    while data := handle.read(_BLOCK_BYTES):
        data = rest + data if rest else data
        end, count = whole_frames(data)
        if count and end < len(data) and seekable and len(data) - len(rest) == _BLOCK_BYTES:
            handle.seek(end - len(data), os.SEEK_CUR)  # (not the file's end: read it again)
            rest = b""
            yield data, count, 0
            continue
        rest = data[end:]
        yield (data[:end] if rest else data), count, len(rest)


def count_records(path: str) -> int:
    """How many records a packed file holds (for progress bars)."""
    try:
        with open(path, "rb") as handle:
            read_header(path, handle)
            total = sum(count for _data, count, _left in _whole_records(handle))
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    return total


class Unpacked(NamedTuple):
    """A block's records read (:func:`unpacked`): ``framed`` one byte a record, 1 where its
    id is bad; ``status`` 1 for a bad record (its id or its payload), else 0; the columns
    of the read ones, in order: ``texts`` their canonical texts (or compact forms),
    ``ids``, ``packs`` (payloads, or the compact forms: the ``texts`` column itself),
    ``digests`` (16 bytes each) and ``lines`` (their numbers, int64)."""

    framed: bytearray
    status: bytearray
    texts: Strings
    ids: Strings
    packs: Strings
    digests: bytes
    lines: bytes


# packed_records' status -> framed (1: a bad id) and status (1: any bad record)
_BAD_ID = bytes([1 if i == 1 else 0 for i in range(256)])
_BAD = bytes([1 if i else 0 for i in range(256)])


def unpacked(layout: RecordLayout, block: PackedBlock, *, texts: bool = True) -> Unpacked:
    """A block's positions, read, checked and hashed in one native call without the GIL
    (:func:`solvers._records.packed_records`).  Without ``texts``: no text is written;
    ``texts`` holds the payloads' compact forms (bytes: 2 bits a count) and the digests
    are theirs (:mod:`engines.batch.store_packed`); ``packs`` is the same column
    (``Strings.compact``: the solving threads expand a chunk's forms as they group them),
    not a copy of the payloads, which would be the block's largest column (230 KB of 390 a
    升级 block), alive until its rows are stored: fresh pages, a fault each (~1.5 µs)."""
    from solvers._records import packed_records

    status, id_pair, pack_pair, form_pair, digests, lines = packed_records(
        layout.spec, block.data, block.first, texts, texts)
    framed = status
    if status.count(0) != len(status):
        framed, status = status.translate(_BAD_ID), status.translate(_BAD)
    if not texts:
        forms = Strings(*form_pair, False, compact=True)
        return Unpacked(framed, status, forms, Strings(*id_pair, True, True), forms, digests,
                        lines)  # fmt: skip
    return Unpacked(framed, status, Strings(*form_pair, True, True, True),
                    Strings(*id_pair, True, True), Strings(*pack_pair, False), digests,
                    lines)  # fmt: skip


def bad_records(path: str, first: int, framed: bytearray, status: bytearray) -> list[BadInput]:
    """What is wrong with each bad record of a block of :func:`unpacked` (numbered from
    ``first``)."""
    out = []
    for i, state in enumerate(status):
        if state:
            why = ("its id is not printable ASCII without quote or backslash"
                   if framed[i] else "its payload is not one this task's layout reads "
                   "(another length, a code out of range or a count over 2)")  # fmt: skip
            out.append(BadInput(path, first + i, f"packed record {first + i}: {why}"))
    return out


def read_records(path: str) -> Iterator[Record | BadInput]:
    """Each position of a packed file as a :class:`Record` of its canonical payload and id
    (the plain path: a task or a reader that takes records)."""
    from engines.batch.tasks import get_task

    with open(path, "rb") as handle:
        task = get_task(read_header(path, handle).task)
    layout = _layout(task)
    for block in packed_blocks(path, task):
        if isinstance(block, BadInput):
            yield block
            continue
        got = unpacked(layout, block)
        bad = iter(bad_records(path, block.first, got.framed, got.status))
        read = zip(got.ids.tolist(), got.texts.tolist())
        status = got.status
        for i, state in enumerate(status):
            if state:
                yield next(bad)
                continue
            pid, text = next(read)
            yield Record(path, block.first + i, pid, json.loads(text))


def write_packed(task: Task, paths: Sequence[str], out: BinaryIO,
                 prepared: Callable[[str, int, str], tuple[str, Any] | None]) -> int:  # fmt: skip
    """Write the positions of JSON Lines ``paths`` packed (header first); returns the count.
    ``prepared(label, line, text)``: a line the native reader refers, as ``(id, canonical
    text)`` through ``prepare`` (``None`` for a blank line; raises naming a bad one)."""
    layout = _layout(task)
    out.write(header(task))
    count = 0
    for path in paths:
        name = Path(path).name
        with open(path, "rb") as handle:
            for number, raw in enumerate(handle, 1):
                line = raw.decode("utf-8", "replace")
                status, _texts, ids, packs = layout.scan([line])
                where = f"{path}:{number}"
                if status[0] == 2:
                    continue
                if status[0] == 0:
                    pid, pack = ids[0] if ids[0] is not None else f"{name}:{number}", packs[0]
                else:
                    got = prepared(path, number, line)
                    if got is None:
                        continue
                    pid, text = got
                    status, _texts, _ids, packs = layout.scan([text])
                    if status[0] != 0:
                        raise InputError(f"{where}: this position cannot be packed (the "
                                         "native reader does not read it): keep JSON Lines")
                    pack = packs[0]
                out.write(frame(pid, pack, where))
                count += 1
    return count


register_input_format(InputFormat("packed", SUFFIXES, lambda line: line.startswith("qipai-packed "),
                                  read_records, count_records))  # fmt: skip
