"""The positions of a batch's inputs: read, checked and made canonical, in input order.

Each position comes out as ``(source, line, position id, payload, canonical
text)``.  Records go through the task's ``prepare``, except JSON Lines of a
task with a record layout (:mod:`engines.batch.records`): those are read in
blocks by native code, and only the lines it does not fully understand go
through ``prepare``, which names what is wrong.  Either way the payload text,
the id and the error message of every line are the same.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engines.batch.inputs import (
    BadInput,
    Record,
    input_format,
    jsonl_entry,
    jsonl_lines,
    read_inputs,
)
from engines.batch.records import SCAN_OK, SCAN_REFER, RecordLayout
from engines.batch.tasks import Task

if TYPE_CHECKING:
    from engines.batch.runner import BatchSummary

Position = tuple[str, int, str, Any, str]  # source, line, position id, payload, canonical text

# Lines read natively per block (the fast path of tasks with a record layout).
_SCAN_LINES = 1024


def positions(
    paths: Sequence[str], task: Task, summary: BatchSummary, bad: Callable[[BadInput], None]
) -> Iterator[Position]:
    """Every readable position of ``paths`` in order, counted into ``summary``; the rest
    go to ``bad``.  JSON Lines of a task with a record layout are read natively."""
    layout = task.records() if task.records is not None else None
    for path in paths:
        if layout is not None and input_format(path) == "jsonl":
            yield from _scanned(path, task, layout, summary, bad)
            continue
        for entry in read_inputs([path]):
            if isinstance(entry, BadInput):
                bad(entry)
            else:
                yield from _prepared(task, entry, summary, bad)


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


def _scanned(
    path: str,
    task: Task,
    layout: RecordLayout,
    summary: BatchSummary,
    bad: Callable[[BadInput], None],
) -> Iterator[Position]:
    """:func:`positions` of one JSON Lines file, read in blocks by the native scanner.

    A line the scanner does not fully understand is read as before (``prepare``),
    so the payloads, texts, ids and error messages are those of the plain path.
    """
    with jsonl_lines(path) as (label, handle):
        name = Path(label).name
        first = 1
        while lines := list(itertools.islice(handle, _SCAN_LINES)):
            status, texts, ids, packs = layout.scan(lines)
            for i, state in enumerate(status):
                if state == SCAN_OK:
                    summary.positions += 1
                    pid = ids[i]
                    number = first + i
                    yield label, number, pid if pid is not None else f"{name}:{number}", \
                        packs[i], texts[i]  # fmt: skip
                elif state == SCAN_REFER:
                    entry = jsonl_entry(label, first + i, lines[i])
                    if isinstance(entry, BadInput):
                        bad(entry)
                    elif entry is not None:
                        yield from _prepared(task, entry, summary, bad)
            first += len(lines)
