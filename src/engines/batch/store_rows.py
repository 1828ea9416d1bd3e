"""The text of a result store's rows: runs of one source, and the general JSON encoders.

:func:`solvers._batch_rows.block_json` writes a block's rows natively; the encoders here
write what it refuses (text that is not ASCII) and the chunks of :meth:`ResultStore.add`.
"""

from __future__ import annotations

import json
from array import array
from typing import Any

from engines.batch.jsontext import orjson
from solvers._batch_columns import Strings
from solvers._batch_rows import block_json, block_json_parts


def source_runs(sources: list[str]) -> list[tuple[int, int]]:
    """``(lo, hi)`` of each run of equal sources (most often one run: the whole list)."""
    first = sources[0] if sources else None
    if sources.count(first) == len(sources):
        return [(0, len(sources))] if sources else []
    runs, lo = [], 0
    for i in range(1, len(sources) + 1):
        if i == len(sources) or sources[i] != sources[lo]:
            runs.append((lo, i))
            lo = i
    return runs


def written_runs(
    sources: list[str], ids: list[str], lines: list[int], inputs: list[str],
    results: list[str | None], errors: list[str | None], seconds: list[float],
    any_text: bool = False,
) -> list[tuple[int, int, str]] | None:  # fmt: skip
    """``(lo, hi, text)`` of each run of one source: the text of its rows as a block
    (:func:`block_json`).  A run that is not ASCII: :func:`dumps_block`'s text with
    ``any_text``, else ``None`` for the whole (the store writes those itself)."""
    out = []
    for lo, hi in source_runs(sources):
        whole = hi - lo == len(sources)  # (most often: no copies of the columns)
        part = [c if whole else c[lo:hi] for c in (ids, lines, inputs, results, errors, seconds)]
        text = block_json(*part)
        if text is None:
            if not any_text:
                return None
            text = dumps_block(*part)
        out.append((lo, hi, text))
    return out


def written_column_runs(
    sources: list[str], parts: list[tuple[Strings, bytes, Strings]],
    results: list[str | None], errors: list[str | None], seconds: list[float],
) -> list[tuple[int, int, str]] | None:  # fmt: skip
    """:func:`written_runs` of buffer-backed columns given in parts (``(ids, lines,
    inputs)``: ``ids`` and ``inputs`` :class:`Strings`, ``lines`` int64; see
    :meth:`engines.batch.rows.Rows.column_parts`): the text written from the parts' buffers
    (:func:`block_json_parts`), ``None`` when a run is not ASCII."""
    out = []
    for lo, hi in source_runs(sources):
        text = block_json_parts(parts, lo, hi, results, errors, seconds)
        if text is None:
            return None
        out.append((lo, hi, text))
    return out


def listed(column: Any) -> list[Any]:
    """A column as a list: :class:`Strings` items, int64 ``bytes`` (lines) as ints."""
    if type(column) is Strings:
        return column.tolist()  # type: ignore[no-any-return]
    if type(column) is bytes:
        return array("q", column).tolist()
    return column  # type: ignore[no-any-return]


def placed_runs(
    parts: list[list[tuple[int, int, str]] | None], sizes: list[int]
) -> list[tuple[int, int, str]] | None:
    """The runs of consecutive parts of ``sizes`` rows (:func:`written_runs`), placed in the
    rows of all of them, or ``None`` if a part has none."""
    out, at = [], 0
    for runs, size in zip(parts, sizes):
        if runs is None:
            return None
        out.extend((at + lo, at + hi, text) for lo, hi, text in runs)
        at += size
    return out


def dumps_block(
    ids: list[str], lines: list[int], inputs: list[str], results: list[str | None],
    errors: list[str | None], seconds: list[float],
) -> str:  # fmt: skip
    """:func:`solvers._batch_rows.block_json` for any text: inputs and results as strings."""
    rows = [
        [pid, line, text, sec, result] if error is None else [pid, line, text, sec, None, error]
        for pid, line, text, result, error, sec in zip(ids, lines, inputs, results, errors, seconds)
    ]
    return dumps_rows(rows)


def dumps_rows(rows: list[tuple[Any, ...]]) -> str:
    """The JSON text of a chunk's rows (orjson: 5× faster than the standard library)."""
    if orjson is not None:
        try:
            return orjson.dumps(rows).decode()
        except TypeError:  # orjson.JSONEncodeError: e.g. a lone surrogate in a message
            pass
    return json.dumps(rows, separators=(",", ":"))
