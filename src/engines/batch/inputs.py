"""Input readers for ``qipai batch``: PBN files and JSON Lines, with bad lines reported.

Every input file yields, in order, either a :class:`Record` (one position as a
JSON-able ``dict`` plus where it came from) or a :class:`BadInput` (file, line,
reason) for a line that cannot be read.  Nothing is dropped silently: the batch
runner prints and stores each :class:`BadInput` and carries on (``--strict``
stops at the first one).

The format is chosen by the file name (``.pbn``; ``.jsonl``, ``.ndjson``,
``.json``; ``-`` is JSON Lines on standard input) or, for other names, by the
first non-blank character (``{`` JSON Lines, ``[`` or ``%`` PBN).

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

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def input_format(path: str) -> str:
    """``"pbn"`` or ``"jsonl"`` for ``path`` (by suffix, else by the first non-blank byte)."""
    if path == "-":
        return "jsonl"
    suffix = Path(path).suffix.lower()
    if suffix == ".pbn":
        return "pbn"
    if suffix in JSONL_SUFFIXES:
        return "jsonl"
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                stripped = line.strip()
                if stripped:
                    return "jsonl" if stripped.startswith("{") else "pbn"
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    return "jsonl"


def count_positions(paths: Sequence[str]) -> int:
    """A cheap count of the positions in ``paths`` for progress bars (no parsing).

    JSON Lines: non-blank lines; PBN: ``[Deal`` tags.  Standard input is not
    counted (it can be read only once), so a ``-`` makes the count a lower bound.
    """
    total = 0
    for path in paths:
        if path == "-":
            continue
        fmt = input_format(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                if fmt == "pbn":
                    total += sum(1 for line in handle if line.lstrip().startswith("[Deal "))
                else:
                    total += sum(1 for line in handle if line.strip())
        except OSError as exc:
            raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    return total


def read_inputs(paths: Sequence[str]) -> Iterator[Record | BadInput]:
    """Yield every position of every file in ``paths`` in order, bad lines as :class:`BadInput`.

    A file that cannot be opened at all raises :class:`InputError`.
    """
    for path in paths:
        if input_format(path) == "pbn":
            yield from _read_pbn(path)
        else:
            yield from _read_jsonl(path)


def _read_jsonl(path: str) -> Iterator[Record | BadInput]:
    if path == "-":
        handle = sys.stdin
        label = "<stdin>"
    else:
        label = path
        try:
            handle = open(path, encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    try:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                yield BadInput(label, number, f"not valid JSON: {exc.msg}")
                continue
            except UnicodeDecodeError as exc:  # pragma: no cover - depends on the locale
                yield BadInput(label, number, f"not UTF-8 text: {exc.reason}")
                continue
            if not isinstance(obj, dict):
                yield BadInput(label, number, f"expected a JSON object, got {type(obj).__name__}")
                continue
            raw_id = obj.get("id")
            position_id = str(raw_id) if raw_id is not None else f"{Path(label).name}:{number}"
            yield Record(label, number, position_id, obj)
    finally:
        if handle is not sys.stdin:
            handle.close()


def _read_pbn(path: str) -> Iterator[Record | BadInput]:
    """PBN boards through the bridge engine's lenient reader, one record per board with a deal."""
    try:
        from engines.bridge.pbn import iter_pbn
    except ImportError as exc:
        raise InputError(f"{path}: reading PBN needs the bridge engine ({exc})") from exc
    for board in iter_pbn(path):
        line = board.line
        if board.errors:
            first = min(e.line for e in board.errors)
            yield BadInput(path, first, "; ".join(e.message for e in board.errors))
            continue
        skipped = board.unusable()
        if skipped is not None:
            # Not a position (a partial deal), but say so: nothing is dropped silently.
            yield BadInput(path, skipped.line, skipped.message)
            continue
        number = board.board_number
        obj: dict[str, Any] = {"pbn": board.deal.to_pbn()}
        if board.dealer is not None:
            obj["dealer"] = str(board.dealer)  # Seat prints as its letter
        if board.vulnerability is not None:
            obj["vulnerability"] = board.vulnerability
        if number is not None:
            obj["board"] = int(number)
        position_id = str(number) if number is not None else f"{Path(path).name}:{line}"
        yield Record(path, line, position_id, obj)
