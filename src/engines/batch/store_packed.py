"""Packed blocks: the result store's layout for a task read from packed positions (schema 7).

A 升级 or 双扣 position solves in about a microsecond; writing its row as JSON text, with its
canonical input written back from the packed payload, and storing that text cost more than
the solve.  A task whose store *hashes payloads* keeps, in one ``packed_blocks`` row a
block, the block's columns: input hashes, ids, lines, the payloads in their compact form
(two bits a count byte: 180 bytes of a 升级 payload take ~48), the results' JSON texts, an
error flag a position (when any) and the solver seconds.  SQLite spends about a nanosecond
of CPU a byte it stores (writing it to the log, then checkpointing it), so every column but
the payloads is kept in a few bytes a position (a 升级 position 52 bytes; 71 in schema 6, 106
before): the results' and the seconds' distinct values once a block (float64 bits, exact)
and an index a position (:func:`~solvers._batch_store.distinct_items`: a block of answers
holds a few hundred distinct texts, its seconds one a group solved together); ids numbered
from the lines (a generator's ``gs6-000041``, the runner's ``in.jsonl:42``) as their prefix,
width and offset; the lines as differences and the sizes and indices in the fewest bytes
that hold them (:func:`narrow`: one a position, most often; none where all are equal). The
input hash is the 16-byte BLAKE2b digest of the compact form, not of the canonical text (the
compact form, the payload and the canonical text are functions of each other, so equal
positions still have equal hashes), and is not stored: the readers hash the stored compact
forms again (:func:`block_digests`: ~60 ns a 升级 position, 35 of them hashing, once a
connection, where the 16 bytes cost the writer ~25 ns; schema 6's blocks hold them).  The
readers (:meth:`~engines.batch.store.ResultStore.rows`: ``qipai results``, export, report)
write each row back as the other layouts store it: the canonical input from the payload
(:func:`solvers._records.unpacked_texts`), the same ids, lines, results and seconds.

Which hash a task's positions have is chosen per store and task by a run that finds nothing
of the task in it (it binds once the task has rows or claims), and recorded in ``meta`` (key
``input_hash:TASK``, value ``payload``); without the key a task's hashes are those of its
canonical text, as in every older store.  The two never mix: a store that hashes a task's
payloads reads only packed inputs for it (:func:`engines.batch.run_checks.payload_hashes`),
since a JSON Lines position would get another hash than its packed twin and be solved and
stored twice.  The schema becomes 7 when the first task chooses payload hashes (an older
qipai refuses it, naming the version, rather than read half of it; a store of schema 6 keeps
that form; schema 5, these blocks' first form, written only by a development qipai, is
refused: :func:`refused_schema`); other tasks' rows and the ``results`` view are unchanged
(the view, plain SQL, does not show packed blocks' rows: their inputs are compact payloads
that only :func:`solvers._records.unpacked_texts` writes back as text). The readers take the
blocks in the order of ``(task, source, first_line)`` (:func:`block_order`, an index) and
open one only when the merge reaches its first line, so an export holds the blocks whose
lines overlap (those of one run's chunks in flight), each writing back :data:`READ_SLICE`
rows at a time.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterator
from itertools import compress
from typing import Any, NamedTuple

import numpy as np

from solvers._batch_columns import Strings, expanded_payloads, select_fixed
from solvers._batch_hashes import select
from solvers._batch_narrow import codes_met_in_order, narrow_codes, narrow_steps
from solvers._batch_store import (
    distinct_items,
    distinct_texts,
    float64_bytes,
    form_digests,
    numbered_ids,
)

#: The schema of a store in which some task hashes payloads, made so by this qipai: its
#: packed blocks hold no input hashes (``digests`` empty; the readers hash the stored
#: payloads, :func:`block_digests`) and write a column of one repeated integer in 9 bytes
#: (:func:`narrow`'s ``repeated``).
PACKED_SCHEMA_VERSION = 7
#: The schema of such a store made by a qipai before 7: its blocks hold their hashes (16
#: bytes a position) and no repeated-integer column, and keep doing so when this qipai
#: writes them, so that the older qipai still reads (and writes) the store.
DIGESTS_SCHEMA_VERSION = 6
#: The schema of packed blocks in their first form (a development qipai's, never released):
#: refused, naming it (:func:`refused_schema`), rather than read in the form of 6.
FIRST_PACKED_SCHEMA = 5
#: ``meta`` value of a task whose input hashes are its payloads' digests.
PAYLOAD = "payload"

PACKED_SCHEMA = (
    # (a block's bookkeeping as in the blocks table, then its columns; see PackedColumns)
    """CREATE TABLE IF NOT EXISTS packed_blocks (
        block_id INTEGER PRIMARY KEY AUTOINCREMENT, task TEXT NOT NULL,
        run_id INTEGER NOT NULL, solver_version TEXT NOT NULL, finished_at REAL NOT NULL,
        size INTEGER NOT NULL, source TEXT NOT NULL, first_line INTEGER NOT NULL,
        digests BLOB NOT NULL,
        ids BLOB NOT NULL, id_sizes BLOB NOT NULL, lines BLOB NOT NULL,
        payloads BLOB NOT NULL, payload_sizes BLOB NOT NULL,
        results BLOB NOT NULL, result_sizes BLOB NOT NULL, result_codes BLOB NOT NULL,
        errors BLOB NOT NULL, seconds BLOB NOT NULL, second_codes BLOB NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS packed_blocks_by_task ON packed_blocks (task, block_id)",
    # (the readers' order: a block's rows are merged with the others' from its first line on)
    "CREATE INDEX IF NOT EXISTS packed_blocks_in_order ON packed_blocks (task, source, "
    "first_line, block_id)",
)


def refused_schema(path: str, version: str) -> str | None:
    """Why this qipai does not read a store of schema ``version`` (None: it does)."""
    if version == str(FIRST_PACKED_SCHEMA):
        return (f"{path}: result store schema 5, packed blocks in the form of a development "
                "qipai that this one does not read (it reads schemas 1 to 4, "
                f"{DIGESTS_SCHEMA_VERSION} and {PACKED_SCHEMA_VERSION}); use the qipai that "
                "wrote it, or a new --db file")  # fmt: skip
    return None


def stores_digests(db: sqlite3.Connection) -> bool:
    """Whether this store's packed blocks hold their input hashes (schema 6: see
    :data:`DIGESTS_SCHEMA_VERSION`); it never changes once the store has the table."""
    found = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    return found is not None and found[0] == str(DIGESTS_SCHEMA_VERSION)


def hash_key(task: str) -> str:
    return f"input_hash:{task}"


def has_packed_table(db: sqlite3.Connection) -> bool:
    sql = "SELECT 1 FROM sqlite_master WHERE type='table' AND name='packed_blocks'"
    return db.execute(sql).fetchone() is not None


def task_hashes(db: sqlite3.Connection, task: str) -> str:
    """``"payload"`` when ``task``'s input hashes are its payloads' digests, else ``"text"``."""
    found = db.execute("SELECT value FROM meta WHERE key=?", (hash_key(task),)).fetchone()
    return PAYLOAD if found is not None and found[0] == PAYLOAD else "text"


def choose_payload_hashes(db: sqlite3.Connection, task: str, want: bool = True) -> bool:
    """Make ``task`` hash payloads in this store (``want``), or text again, if it has
    nothing in it (no rows, no claims: a run that chose and was then refused binds no
    other); payloads are recorded with the schema made 5 and the table added.  True if
    the task now hashes payloads (inside the caller's write transaction)."""
    chosen = task_hashes(db, task) == PAYLOAD
    if chosen == want:
        return chosen
    if task_has_rows(db, task):
        return chosen
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not want:
        db.execute("DELETE FROM meta WHERE key=?", (hash_key(task),))
        return False
    if "packed_blocks" not in tables:  # (a store of schema 6 keeps its form: see above)
        for statement in PACKED_SCHEMA:
            db.execute(statement)
        db.execute("UPDATE meta SET value=? WHERE key='schema_version'",
                   (str(PACKED_SCHEMA_VERSION),))  # fmt: skip
    db.execute("INSERT INTO meta VALUES (?, ?)", (hash_key(task), PAYLOAD))
    return True


def task_has_rows(db: sqlite3.Connection, task: str) -> bool:
    """Whether ``task`` has rows or claims in any table of the layouts before schema 8."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    sql = "SELECT 1 FROM {} WHERE task=? LIMIT 1"
    return any(table in tables and db.execute(sql.format(table), (task,)).fetchone()
               for table in ("chunks", "blocks", "claims", "results", "packed_blocks"))


class PackedColumns(NamedTuple):
    """A block's positions for :func:`insert_blocks`: ``sources`` a list, ``lines`` int64
    bytes, ``ids`` (text) and ``payloads`` (bytes) :class:`Strings`, ``results`` the
    distinct JSON texts of the results (the error message where ``errors`` flags one) as
    :class:`Strings` and ``result_codes`` the index of each position's (uint32 bytes),
    ``errors`` one byte a position (1: refused) or empty when none was, ``seconds``
    float64 bytes."""

    sources: list[str]
    lines: bytes
    ids: Strings
    payloads: Strings
    results: Strings
    result_codes: bytes
    errors: bytes
    seconds: bytes

    @classmethod
    def of(cls, sources: list[str], lines: bytes, ids: Strings, payloads: Strings,
           results: list[str | None], errors: list[str | None],
           seconds: list[float]) -> PackedColumns:  # fmt: skip
        """The columns of solved positions (``results[i]`` ``None`` where ``errors[i]`` is
        the solver's message)."""
        flags = b""
        if errors.count(None) != len(errors):
            flags = bytes(e is not None for e in errors)
            results = [r if e is None else e for r, e in zip(results, errors)]
        texts, ends, codes = distinct_texts(results)
        return cls(sources, lines, ids, payloads, Strings(texts, ends, True), codes, flags,
                   float64_bytes(seconds))  # fmt: skip

    def chosen(self, status: bytearray, want: int) -> PackedColumns:
        keep = status.translate(bytes(1 if i == want else 0 for i in range(256)))
        return PackedColumns(
            list(compress(self.sources, keep)), select_fixed(self.lines, 8, status, want),
            self.ids.chosen(status, want), self.payloads.chosen(status, want), self.results,
            select_fixed(self.result_codes, 4, status, want),
            select_fixed(self.errors, 1, status, want) if self.errors else b"",
            select_fixed(self.seconds, 8, status, want))  # fmt: skip

    def part(self, lo: int, hi: int) -> PackedColumns:
        errors = self.errors[lo:hi]
        return PackedColumns(self.sources[lo:hi], self.lines[8 * lo : 8 * hi],
                             self.ids.part(lo, hi), self.payloads.part(lo, hi),
                             self.results, self.result_codes[4 * lo : 4 * hi],
                             errors if errors.count(1) else b"",
                             self.seconds[8 * lo : 8 * hi])  # fmt: skip


def fresh_columns(digests: bytes, columns: PackedColumns, fresh: bytearray | None
                  ) -> tuple[bytes, PackedColumns]:  # fmt: skip
    """The digests and columns of the positions ``fresh`` marks 1 (the others are stored;
    None: none is)."""
    if fresh is None or fresh.count(1) == len(fresh):
        return digests, columns
    return select(digests, fresh, 1), columns.chosen(fresh, 1)


_COLUMNS = (
    "task, run_id, solver_version, finished_at, size, source, first_line, digests, ids, "
    "id_sizes, lines, payloads, payload_sizes, results, result_sizes, result_codes, errors, "
    "seconds, second_codes"
)
_INSERT = f"INSERT INTO packed_blocks ({_COLUMNS}) VALUES ({', '.join(['?'] * 19)})"


def insert_blocks(db: sqlite3.Connection, task: str, run_id: int, version: str, now: float,
                  digests: bytes, columns: PackedColumns, runs: list[tuple[int, int]], *,
                  lean: bool = True) -> tuple[int, int]:  # fmt: skip
    """One ``packed_blocks`` row a run ``(lo, hi)`` of one source; returns the last row id
    and the bytes written.  ``lean``: in the form of schema 7 (no digests, repeated
    integers once), else of schema 6 (:func:`stores_digests`)."""
    last = written = 0
    for lo, hi in runs:
        c = columns if hi - lo == len(columns.sources) else columns.part(lo, hi)
        texts, text_ends, text_codes = _block_results(c.results, c.result_codes)
        seconds, _ends, second_codes = distinct_items(c.seconds, None, 8)
        first = int(_int64(c.lines).min()) if c.lines else 0
        # (schema 7's lines from one before the first: in line order, a repeated 1)
        values = (task, run_id, version, now, hi - lo, c.sources[0], first,
                  b"" if lean else digests[16 * lo : 16 * hi], *_id_columns(c.ids, c.lines, lean),
                  _line_column(c.lines, first - lean, lean), c.payloads.data,
                  _sizes(c.payloads, lean), texts, _sizes(Strings(texts, text_ends)),
                  _codes(text_codes, lean), c.errors, seconds,
                  _codes(second_codes, lean))  # fmt: skip
        last = int(db.execute(_INSERT, values).lastrowid)
        written += sum(len(v) for v in values[7:])
    return last, written


def _block_results(texts: Strings, codes: bytes) -> tuple[bytes, bytes, bytes]:
    """A block's distinct results, their ends and its codes, as :func:`distinct_items` gives
    them for its results' texts (``codes`` index ``texts``, a commit's distinct results):
    those as they are when the block's codes meet them all in their order (a whole commit's
    block), else renumbered in the order the block meets them."""
    if codes_met_in_order(codes, len(texts)):
        return texts.data, texts.ends, codes
    picks, _ends, renumbered = distinct_items(codes, None, 4)
    ends = [0, *np.frombuffer(texts.ends, dtype=np.int64).tolist()]
    chosen = [texts.data[ends[k] : ends[k + 1]] for k in np.frombuffer(picks, np.uint32).tolist()]
    return b"".join(chosen), np.cumsum([len(t) for t in chosen], dtype=np.int64).tobytes(), \
        renumbered  # fmt: skip


# Integers in 1, 2, 4 or 8 bytes: a code byte (the index here), then the values.  The
# signed ones (codes 4 to 6) hold lines' differences where a block's chunks were solved out
# of order (a jump back of a chunk's length fits 2 bytes, not 8).  Schema 7 adds code 7:
# one value (int64) that every item repeats (a count the reader knows).
_WIDTHS = (np.uint8, np.uint16, np.uint32, np.int64, np.int8, np.int16, np.int32)
_NARROWEST = (0, 4, 1, 5, 2, 6, 3)  # (the codes by width, unsigned first)
_REPEATED = len(_WIDTHS)


def narrow(values: Any, repeated: bool = False) -> bytes:
    """The integer array ``values`` in the fewest bytes a value that hold them all, or, with
    ``repeated`` (schema 7, where the reader knows the count), as one value all repeat.
    (The form's definition; the writer narrows its columns natively, in one pass each:
    :mod:`solvers._batch_narrow`, tested equal to this.)"""
    low, high = (int(values.min()), int(values.max())) if len(values) else (0, 0)
    if repeated and low == high and len(values):
        return bytes([_REPEATED]) + np.int64(low).tobytes()
    code = next(c for c in _NARROWEST if np.iinfo(_WIDTHS[c]).min <= low and
                high <= np.iinfo(_WIDTHS[c]).max)  # fmt: skip
    return bytes([code]) + values.astype(_WIDTHS[code]).tobytes()


def widened(blob: bytes, count: int | None = None) -> Any:
    """The int64 array of :func:`narrow`'s ``blob`` (of ``count`` values when given)."""
    if blob[:1] == bytes([_REPEATED]) and count is not None and len(blob) == 9:
        return np.full(count, np.frombuffer(blob, np.int64, offset=1)[0], dtype=np.int64)
    if not blob or blob[0] >= len(_WIDTHS):
        raise ValueError("integers of an unknown width")
    width = np.dtype(_WIDTHS[blob[0]]).itemsize
    if (len(blob) - 1) % width or (count is not None and len(blob) - 1 != count * width):
        raise ValueError("integers of another count")
    return np.frombuffer(blob, _WIDTHS[blob[0]], offset=1).astype(np.int64)


def _int64(data: bytes) -> Any:
    return np.frombuffer(data, dtype=np.int64)


def _sizes(strings: Strings, repeated: bool = False) -> bytes:
    return narrow_steps(strings.ends, 0, repeated)


# ``id_sizes`` of a block whose ids are numbered (see _numbered): this code byte, then the
# width and the offset (int64 each); ``ids`` holds the prefix.
_NUMBERED = 255


def _id_columns(ids: Strings, lines: bytes, repeated: bool = False) -> tuple[bytes, bytes]:
    """``(ids, id_sizes)`` of a block (``lines`` int64 bytes): numbered ids as their prefix,
    width and offset (no byte a position), others as their texts and sizes."""
    numbered = _numbered(ids, lines)
    if numbered is None:
        return ids.data, _sizes(ids, repeated)
    prefix, width, offset = numbered
    return prefix, bytes([_NUMBERED]) + np.array([width, offset], dtype=np.int64).tobytes()


def _numbered(ids: Strings, lines: bytes) -> tuple[bytes, int, int] | None:
    """``(prefix, width, offset)`` when every id is ``prefix + str(line + offset).zfill(width)``
    for its line (``lines``: int64 bytes) (a generator's ``gs6-000041``, the runner's
    ``in.jsonl:42``), else None: checked on every id's bytes
    (:func:`~solvers._batch_store.numbered_ids`), not guessed."""
    found = numbered_ids(ids.data, ids.ends, lines)
    if found is None:
        return None
    prefix_size, width, offset = found
    return ids.data[: prefix_size], width, offset  # (the first id's prefix: all share it)


def _id_texts(ids: bytes, id_sizes: bytes, lines: Any, count: int) -> list[str]:
    """The ids of a block (``lines`` its positions' lines) from :func:`_id_columns`' form."""
    if id_sizes[:1] != bytes([_NUMBERED]):
        return _strings(ids, id_sizes, count, True).tolist()  # type: ignore[no-any-return]
    if len(id_sizes) != 17:
        raise ValueError("numbered ids of another form")
    width, offset = np.frombuffer(id_sizes, dtype=np.int64, offset=1).tolist()
    prefix = ids.decode()
    return [prefix + str(n).zfill(width) for n in (lines + offset).tolist()]


def _line_column(lines: bytes, first: int, repeated: bool = False) -> bytes:
    """A block's lines (``lines``: int64 bytes): ``first`` (int64; the block's first line,
    or one before it: the readers check the least line against the column ``first_line``),
    then each line's difference from the one before, from it on (one byte a position in
    line order, two where chunks were solved out of order; with ``repeated``, 9 bytes in
    all when each line follows the one before)."""
    return np.int64(first).tobytes() + narrow_steps(lines, first, repeated)


def _line_array(blob: bytes, count: int) -> Any:
    """The int64 lines of :func:`_line_column`'s ``blob``."""
    if len(blob) < 9:
        raise ValueError("lines without their first")
    return int(np.frombuffer(blob[:8], dtype=np.int64)[0]) + np.cumsum(widened(blob[8:], count))


def _codes(codes: bytes, repeated: bool = False) -> bytes:
    """:func:`~solvers._batch_store.distinct_items`' codes (uint32) as :func:`narrow`'s."""
    return narrow_codes(codes, repeated)


def _picked(distinct: Any, codes: bytes, count: int) -> list[Any]:
    """The items of the NumPy array ``distinct`` that :func:`narrow`'s ``codes`` pick."""
    picks = widened(codes, count)
    if count and (int(picks.min()) < 0 or int(picks.max()) >= len(distinct)):
        raise ValueError("codes of no distinct item")
    return distinct[picks].tolist()  # type: ignore[no-any-return]


def _strings(data: bytes, sizes: bytes, count: int | None, text: bool) -> Strings:
    """The :class:`Strings` of ``data`` and its items' :func:`narrow` sizes."""
    return Strings(data, np.cumsum(widened(sizes, count), dtype=np.int64).tobytes(), text)


_NAMES = ("task", "position_id", "source", "line", "input_hash", "input", "result", "error",
          "seconds", "solver_version", "run_id", "finished_at")  # fmt: skip
# (first_line as an integer: the readers compare it with rows' lines; _block_rows checks it)
_ORDER = "SELECT task, source, CAST(first_line AS INTEGER), block_id FROM packed_blocks"
_SELECT = f"SELECT {_COLUMNS} FROM packed_blocks WHERE block_id=?"
#: Rows a block writes back at a time (their inputs' texts): a reader holds the compact
#: columns of the blocks it has open (~100 bytes a 升级 position) and this many rows' texts.
READ_SLICE = 1024


def block_order(db: sqlite3.Connection, task: str | None) -> list[tuple[str, str, int, int]]:
    """``(task, source, first line, block id)`` of each packed block (of ``task``, or all),
    in the readers' order: a block's rows come after every row of an earlier key."""
    sql, params = (_ORDER + " WHERE task=?", (task,)) if task is not None else (_ORDER, ())
    return db.execute(sql + " ORDER BY task, source, first_line, block_id", params).fetchall()


def block_digests(db: sqlite3.Connection, block_id: int, digests: Any, size: Any) -> bytes:
    """The input hashes of packed block ``block_id`` (``digests`` and ``size``: its columns):
    as stored (schema 6), or its stored payloads' digests (schema 7's empty ``digests``:
    the reading threads hashed the same compact forms, so they are the run's hashes
    exactly).  ValueError: a damaged block."""
    if type(digests) is not bytes or type(size) is not int:
        raise ValueError("columns of other types")
    if len(digests) == 16 * size:
        return digests
    if digests:
        raise ValueError("digests of another length than its size")
    payloads, sizes = db.execute("SELECT payloads, payload_sizes FROM packed_blocks WHERE "
                                 "block_id=?", (block_id,)).fetchone()  # fmt: skip
    if type(payloads) is not bytes or type(sizes) is not bytes:
        raise ValueError("payloads of another type")
    forms = _strings(payloads, sizes, size, False)
    return form_digests(forms.data, forms.ends)  # type: ignore[no-any-return]


def block_rows(db: sqlite3.Connection, block_id: int, spec_of: Any,
               damaged: Any) -> Iterator[dict[str, Any]]:  # fmt: skip
    """The rows of one packed block in line order, as
    :meth:`~engines.batch.store.ResultStore.rows` gives them, written back
    :data:`READ_SLICE` at a time.  ``spec_of(task)``: the task's record spec;
    ``damaged(why)``: the error to raise for a block that does not read back."""
    block = db.execute(_SELECT, (block_id,)).fetchone()
    if block is not None:  # (none is deleted: a store's blocks only grow)
        yield from _block_rows(block_id, block, spec_of, damaged)


def _block_rows(block_id: int, block: tuple[Any, ...], spec_of: Any,
                damaged: Any) -> Iterator[dict[str, Any]]:  # fmt: skip
    task, run_id, version, finished, size, source, first_line, digests, *blobs = block
    where = f"packed block {block_id} of task {task}"  # (which row of packed_blocks)
    (ids, id_sizes, lines, payloads, payload_sizes, results, result_sizes, result_codes, errors,
     seconds, second_codes) = blobs  # fmt: skip
    try:
        if not all(type(b) is bytes for b in blobs) or type(digests) is not bytes or \
                type(size) is not int or len(digests) not in (0, 16 * size) or \
                len(seconds) % 8 or len(errors) not in (0, size):  # fmt: skip
            raise ValueError("columns of other lengths than its size")
        stored_forms = _strings(payloads, payload_sizes, size, False)
        forms = stored_forms.tolist()
        if len(digests) != 16 * size:  # (schema 7: the stored payloads' digests)
            digests = form_digests(stored_forms.data, stored_forms.ends)
        texts = np.array(_strings(results, result_sizes, None, True).tolist(), dtype=object)
        answers = _picked(texts, result_codes, size)
        second_list = _picked(np.frombuffer(seconds, dtype=np.float64), second_codes, size)
        line_array = _line_array(lines, size)
        if size and (type(first_line) is not int or int(line_array.min()) != first_line):
            raise ValueError("lines that do not begin at its first line")
        pids = _id_texts(ids, id_sizes, line_array, size)
    except (ValueError, UnicodeDecodeError) as exc:
        raise damaged(f"{where} is damaged ({exc})") from None
    spec, line_list = spec_of(task), line_array.tolist()
    # (a block holds its chunks in the order they were solved: rows are read in line order)
    order = np.argsort(line_array, kind="stable").tolist()
    for lo in range(0, size, READ_SLICE):
        picked = order[lo : lo + READ_SLICE]
        for i, text in zip(picked, _inputs(spec, [forms[i] for i in picked], where, damaged)):
            refused = bool(errors) and errors[i] != 0
            sec = second_list[i]
            try:
                result = None if refused else json.loads(answers[i])
            except ValueError:
                raise damaged(f"{where} is damaged (a result that is not JSON)") from None
            digest = digests[16 * i : 16 * i + 16].hex()
            yield dict(zip(_NAMES, (task, pids[i], source, line_list[i], digest, json.loads(text),
                                    result, answers[i] if refused else None,
                                    sec if math.isfinite(sec) else None, version, run_id,
                                    finished)))  # fmt: skip


def _inputs(spec: Any, forms: list[bytes], where: str, damaged: Any) -> list[str]:
    """The canonical input texts of compact payloads ``forms``."""
    from solvers._records import unpacked_texts

    ends = np.cumsum([len(f) for f in forms], dtype=np.int64).tobytes()
    try:
        status, texts, _digests = unpacked_texts(spec, *expanded_payloads(b"".join(forms), ends))
        if status.count(0) != len(forms):
            raise ValueError("a payload this task does not read")
        return Strings(*texts, True, True).tolist()
    except (ValueError, UnicodeDecodeError) as exc:
        raise damaged(f"{where} is damaged ({exc})") from None
