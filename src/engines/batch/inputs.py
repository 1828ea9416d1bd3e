"""Input readers for ``qipai batch``: JSON Lines, and the file formats games register.

Every input file yields, in order, either a :class:`Record` (one position as a
JSON-able ``dict`` plus where it came from) or a :class:`BadInput` (file, line,
reason) for a line that cannot be read.  Nothing is dropped silently: the batch
runner prints and stores each :class:`BadInput` and carries on (``--strict``
stops at the first one).

The format is chosen by the file name (``.jsonl``, ``.ndjson``, ``.json``;
``-`` is JSON Lines on standard input; a registered format's suffixes, such as
the bridge's ``.pbn`` and ``.lin``) or, for other names, by the first
non-blank line (``{`` JSON Lines, else the registered format that claims it).
This module knows no game: a game adds its formats with
:func:`register_input_format` in its ``tasks`` module.

>>> import os, pathlib, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "cases.jsonl")
>>> _ = pathlib.Path(path).write_text('{"id": "a", "x": 1}\\nnot json\\n\\n[1]\\n')
>>> for item in read_inputs([path]):
...     print(item if isinstance(item, BadInput) else item.position_id)  # doctest: +ELLIPSIS
a
/...cases.jsonl:2: not valid JSON: Expecting value
/...cases.jsonl:4: expected a JSON object, got list
>>> count_positions([path])
3
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines.batch.jsontext import loads
from engines.errors import InputError

JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")


@dataclass(frozen=True)
class Record:
    """One input position: ``obj`` is the JSON object (or, for PBN, the board as a dict)."""

    source: str
    line: int
    position_id: str
    obj: dict[str, Any]


@dataclass(frozen=True)
class BadInput:
    """A line (or PBN board starting at ``line``) that could not be read, and why."""

    source: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.reason}"


@dataclass(frozen=True)
class InputFormat:
    """A file format a game contributes to ``qipai batch`` (JSON Lines is built in).

    ``suffixes`` pick the format by file name; for other names ``sniff`` is
    asked about the first non-blank line.  ``read(path)`` yields a
    :class:`Record` or :class:`BadInput` per position; ``count(path)`` is a
    cheap count for progress bars.
    """

    name: str
    suffixes: tuple[str, ...]
    sniff: Callable[[str], bool]
    read: Callable[[str], Iterator[Record | BadInput]]
    count: Callable[[str], int]


INPUT_FORMATS: dict[str, InputFormat] = {}


def register_input_format(fmt: InputFormat) -> InputFormat:
    """Add a game's file format (a later registration of the same name replaces it)."""
    INPUT_FORMATS[fmt.name] = fmt
    return fmt


def _formats() -> dict[str, InputFormat]:
    from engines.batch.tasks import load_game_registrations

    load_game_registrations()
    import engines.batch.packed  # noqa: F401  (registers the packed positions format)

    return INPUT_FORMATS


def input_format(path: str) -> str:
    """``"jsonl"`` or the name of a registered format, by suffix, else by the first
    non-blank line (``{`` is JSON Lines; a line no format claims, too)."""
    if path == "-":
        return "jsonl"
    suffix = Path(path).suffix.lower()
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    formats = _formats()
    for fmt in formats.values():
        if suffix in fmt.suffixes:
            return fmt.name
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                stripped = line.strip()
                if stripped:
                    if stripped.startswith("{"):
                        return "jsonl"
                    for fmt in formats.values():
                        if fmt.sniff(stripped):
                            return fmt.name
                    return "jsonl"
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    return "jsonl"


def count_positions(paths: Sequence[str]) -> int:
    """A cheap count of the positions in ``paths`` for progress bars (no parsing).

    JSON Lines: non-blank lines; other formats: their own count.  Standard
    input is not counted (it can be read only once), so a ``-`` makes the
    count a lower bound.
    """
    total = 0
    for path in paths:
        if path == "-":
            continue
        fmt = input_format(path)
        if fmt != "jsonl":
            total += _formats()[fmt].count(path)
            continue
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                total += sum(1 for line in handle if line.strip())
        except OSError as exc:
            raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    return total


# Bytes of a file's start sampled by expected_positions.
_SAMPLE = 1 << 16


def expected_positions(paths: Sequence[str]) -> int:
    """About how many positions ``paths`` hold, from each file's size and the lines (JSON
    Lines) or records (packed files) of its first 64 KiB, without reading the rest; a file
    that cannot be sampled (standard input, another format, unreadable) adds nothing.  For
    sizing a run's tables once rather than doubling them as they fill."""
    total = 0
    for path in paths:
        try:
            if path == "-" or input_format(path) not in ("jsonl", "packed"):
                continue
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                head = handle.read(_SAMPLE)
        except (OSError, InputError):
            continue
        total += _sampled_count(head, size)
    return total


def _sampled_count(head: bytes, size: int) -> int:
    """The positions of a file of ``size`` bytes that starts with ``head``, estimated."""
    cut = head.find(b"\n") + 1 if head.startswith(b"qipai-packed ") else -1
    if cut > 0:  # a packed file: records after its header line
        from solvers._records import whole_frames

        end, count = whole_frames(head[cut:])
        return round(count * (size - cut) / end) if count else 0
    lines = head.count(b"\n")
    if len(head) == size:  # the whole file
        return lines + (not head.endswith(b"\n") and bool(head.strip()))
    return round(lines * size / len(head))


def read_inputs(paths: Sequence[str]) -> Iterator[Record | BadInput]:
    """Yield every position of every file in ``paths`` in order, bad lines as :class:`BadInput`.

    A file that cannot be opened at all raises :class:`InputError`.
    """
    for path in paths:
        fmt = input_format(path)
        if fmt == "jsonl":
            yield from _read_jsonl(path)
        else:
            yield from _formats()[fmt].read(path)


def _read_jsonl(path: str) -> Iterator[Record | BadInput]:
    with jsonl_lines(path) as (label, handle):
        for number, text in enumerate(handle, start=1):
            entry = jsonl_entry(label, number, text)
            if entry is not None:
                yield entry


@contextlib.contextmanager
def jsonl_lines(path: str, *, binary: bool = False) -> Iterator[tuple[str, Any]]:
    """``(label, lines)`` of a JSON Lines file (``-``: standard input, labelled ``<stdin>``,
    always as text); with ``binary``, a file's handle reads its bytes (the runner's native
    reader decodes and splits them itself, as :func:`decoded` does)."""
    if path == "-":
        yield "<stdin>", sys.stdin
        return
    try:
        # Bytes that are not UTF-8 become lone surrogates, so that reading goes on and
        # jsonl_entry names the line (strict decoding would fail somewhere in a block).
        if binary:
            handle: Any = open(path, "rb")  # noqa: SIM115
        else:
            handle = open(path, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    with handle:
        yield path, handle


def decoded(data: bytes | bytearray) -> str:
    """The text of a JSON Lines file's bytes as a text handle reads it: UTF-8 (bytes that are
    not become lone surrogates) with universal newlines (``\\r\\n`` and ``\\r`` end a line as
    ``\\n`` does).

    >>> decoded(b'{"a": 1}\\r\\n{"b": 2}\\r{"c": "\\xe9"}\\n')
    '{"a": 1}\\n{"b": 2}\\n{"c": "\\udce9"}\\n'
    """
    text = data.decode("utf-8", "surrogateescape")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def jsonl_entry(label: str, number: int, text: str) -> Record | BadInput | None:
    """Line ``number`` of a JSON Lines file as a record, a bad input, or ``None`` when blank."""
    if not text.strip():
        return None
    if not text.isascii():
        bad = next((i for i, c in enumerate(text) if "\udc80" <= c <= "\udcff"), None)
        if bad is not None:
            byte = ord(text[bad]) - 0xDC00
            return BadInput(label, number, f"not UTF-8 text: byte 0x{byte:02x} at column {bad + 1}")
    try:
        obj = loads(text)
    except json.JSONDecodeError as exc:
        return BadInput(label, number, f"not valid JSON: {exc.msg}")
    except UnicodeDecodeError as exc:  # pragma: no cover - depends on the locale
        return BadInput(label, number, f"not UTF-8 text: {exc.reason}")
    if not isinstance(obj, dict):
        return BadInput(label, number, f"expected a JSON object, got {type(obj).__name__}")
    raw_id = obj.get("id")
    if isinstance(raw_id, str) and (problem := _unstorable(raw_id)):
        return BadInput(label, number, f"id: {problem}")
    return Record(label, number, position_id(label, number, raw_id), obj)


def _unstorable(text: str) -> str | None:
    """Why ``text`` cannot be a stored id, or ``None``: SQLite's JSON functions cut a text at
    U+0000 and refuse a lone surrogate (valid in JSON as an escape, not encodable as UTF-8),
    so the ``results`` view would show a different id or fail to read."""
    found = _UNSTORABLE.search(text)
    if found is None:
        return None
    char, column = found.group(), found.start() + 1
    if char == "\x00":
        return f"holds U+0000 (NUL) at character {column}"
    return f"holds a lone surrogate U+{ord(char):04X} at character {column}"


_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def position_id(label: str, number: int, raw_id: Any) -> str:
    """A record's ``id`` as text, or ``FILE:LINE`` when it has none."""
    return str(raw_id) if raw_id is not None else f"{Path(label).name}:{number}"
