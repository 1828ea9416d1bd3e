"""Shared reporting for the ``qipai <game> verify`` commands.

Every game's ``verify`` module has the same two entry points
(``docs/architecture.md``, "Verify"): ``record_mismatches(record)`` returns the
:class:`Mismatch` list of one reference record, and ``verify_file(path, *,
threads=None, out=None)`` checks a whole JSON Lines file, prints through a
:class:`VerifyReport` (its summary line included) and returns it; the command
exits with :attr:`VerifyReport.status`.

Each game recomputes the records of a reference file and reports every
mismatch as ``id, field, expected, got``; this module prints them and the
closing summary line ``verified N records: K match, M differ`` in one format
for all games.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from engines.errors import InputError


@dataclass(frozen=True)
class Mismatch:
    """One field of one record that differs from the reference."""

    record_id: str
    field: str
    expected: Any
    got: Any

    def __str__(self) -> str:
        return (
            f"MISMATCH {self.record_id} {self.field}: expected {_show(self.expected)}, "
            f"got {_show(self.got)}"
        )


@dataclass
class VerifyReport:
    """Collects per-record outcomes and prints them as they arrive."""

    out: TextIO = field(default_factory=lambda: sys.stdout)
    records: int = 0
    matching: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)

    def add(self, record_id: str, mismatches: list[Mismatch]) -> None:
        """Record one checked record with the fields that differ (empty list: all match)."""
        self.records += 1
        if mismatches:
            self.mismatches.extend(mismatches)
            for mismatch in mismatches:
                print(mismatch, file=self.out)
        else:
            self.matching += 1

    @property
    def differing(self) -> int:
        return self.records - self.matching

    @property
    def status(self) -> int:
        """The exit status of a ``verify`` command: 1 when any record differs, else 0."""
        return 1 if self.differing else 0

    def summary(self) -> str:
        return f"verified {self.records} records: {self.matching} match, {self.differing} differ"

    def finish(self) -> int:
        """Print the summary line and return the process exit status (1 when anything differs)."""
        print(self.summary(), file=self.out)
        return self.status


def verify_each(
    path: str | Path,
    record_mismatches: Callable[[dict[str, Any]], list[Mismatch]],
    error: type[InputError],
    *,
    out: TextIO | None = None,
) -> VerifyReport:
    """Check a JSON Lines file one record at a time: the ``verify_file`` of a game
    whose records are each one small engine call.

    Prints every mismatch and the summary line to ``out`` (standard output by
    default) and returns the report.  An :class:`InputError` from a record is
    raised again as ``error`` naming the file and line.
    """
    report = VerifyReport(out=out or sys.stdout)
    for number, record in read_jsonl(path):
        try:
            mismatches = record_mismatches(record)
        except InputError as exc:
            raise error(f"{path}:{number}: {exc}") from None
        report.add(str(record.get("id", f"line {number}")), mismatches)
    report.finish()
    return report


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line of a JSON Lines file.

    Raises :class:`InputError` naming the file and line when a line is not a JSON object.
    """
    if not isinstance(path, str | os.PathLike):
        raise InputError(f"expected a JSON Lines file path, got {path!r}"[:300])
    path = Path(path)
    try:
        handle = path.open(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    with handle:
        yield from _json_objects(path, handle)


def _json_objects(path: Path, handle: TextIO) -> Iterator[tuple[int, dict[str, Any]]]:
    number = 0
    try:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{number}: not valid JSON: {exc.msg}") from exc
            if not isinstance(obj, dict):
                raise InputError(
                    f"{path}:{number}: expected a JSON object, got {type(obj).__name__}"
                )
            yield number, obj
    except UnicodeDecodeError:
        raise InputError(
            f"{path}:{number + 1}: not UTF-8 text (is it a JSON Lines file?)"
        ) from None


def _show(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except TypeError:
        return repr(value)
