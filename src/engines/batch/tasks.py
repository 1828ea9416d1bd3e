"""Batch tasks: what ``qipai batch --task NAME`` computes for each position.

A :class:`Task` turns one input object (a JSON Lines record, or a PBN board as a
dict) into a canonical *payload* (:meth:`Task.prepare`, which validates and
raises :class:`~engines.errors.InputError` naming what is wrong), and solves a
list of payloads at once (:attr:`Task.solve`, called with a chunk of positions
and a thread count; it calls the game engine's batch API, arrays in, arrays
out).  The input hash that makes runs resumable is a hash of the canonical
payload, so the same position written differently (card order, ``T`` versus
``10``…) is solved once.

This module knows no game.  Each game registers its own tasks in its
``engines.<game>.tasks`` module (:func:`register_task`); :data:`TASKS` imports
those modules for every game of :data:`engines.games.GAMES` the first time it
is read (``docs/architecture.md``, "Batch tasks and generators").  Game
engines are imported lazily, inside ``prepare`` and ``solve``: listing the
tasks costs little, and a worker process imports only the engine it uses.

>>> "bridge-par" in TASKS
True
>>> get_task("no-such-task")
Traceback (most recent call last):
...
engines.batch.tasks.UnknownTaskError: unknown batch task 'no-such-task'; known: ...
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import operator
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from engines.batch.jsontext import canonical, canonical_items
from engines.errors import InputError
from engines.games import GAMES, game_module

if TYPE_CHECKING:
    from engines.batch.records import RecordReader


class UnknownTaskError(InputError):
    """``--task`` names no registered task."""


@dataclass(frozen=True)
class Task:
    """One kind of batch computation.

    ``native_threads``: ``solve`` runs its own threads (the engine's native batch
    entry point), so the runner calls it in-process with ``threads=N``;
    otherwise the runner spreads chunks over worker processes, one thread each.
    ``timed``: ``solve`` returns ``(result, seconds)`` pairs, timing each
    position itself (its own call, or its share of the engine call that solved
    it, when one chunk makes several calls); otherwise each position is charged
    its share of the chunk's time.  ``gil_free``: the engine releases the GIL
    for the whole solve, so several chunks may run at once on threads, one
    thread each (load balancing across chunks when positions vary widely).
    ``chunk_size`` is the default number of positions per call (and per
    committed transaction); ``figures(task_name, results)``, when given, draws
    the game's plots of its results for ``qipai report`` (helpers in
    :mod:`engines.batch.report`); otherwise ``result_kind`` ``answers`` (flat
    results, with ``answer_labels`` naming the fields) gets one bar chart per
    field (``{"field": bool or small int}``).  Other ``result_kind`` values
    only label the results.  ``plain_json``: payloads and results hold no
    floats (only str, int, bool, None, lists and str-keyed dicts), so their
    JSON text is made by the faster encoder of :mod:`engines.batch.jsontext`
    (the same text).  ``records``, when given, returns the native reader of
    the task's JSON Lines records (a :class:`~engines.batch.records.RecordReader`,
    e.g. a :class:`~engines.batch.records.RecordLayout`): the runner then reads
    them natively, and ``solve`` receives the packed ``bytes`` payloads of
    :mod:`engines.batch.records` for the records read that way (dict payloads
    of ``prepare`` for the others).  ``text_results``: ``solve`` returns each
    result's canonical JSON text (:meth:`json_text` of the
    result), which is stored as it is.  ``payload_columns``: the in-process runner
    may hand ``solve`` a chunk's payloads as one
    :class:`~engines.batch.records.Payloads` (packed payloads in one buffer; see
    :func:`~engines.batch.records.grouped`) instead of a list.  ``keyed_by_place``: a
    local run of packed files keeps the task by place (:mod:`engines.batch.store_placed`:
    each position keyed by its file and record number, no hash, no repeat check, no input
    stored), for a native task whose solve costs less than those (about a microsecond).
    """

    name: str
    game: str
    summary: str
    prepare: Callable[[dict[str, Any]], dict[str, Any]]
    solve: Callable[[list[dict[str, Any]], int], list[Any]]
    native_threads: bool = False
    chunk_size: int = 16
    result_kind: str = ""
    timed: bool = False
    gil_free: bool = False
    figures: Callable[[str, list[Any]], list[Any]] | None = None
    answer_labels: tuple[tuple[str, str], ...] = ()
    plain_json: bool = False
    records: Callable[[], RecordReader] | None = None
    text_results: bool = False
    payload_columns: bool = False
    keyed_by_place: bool = False

    def input_hash(self, payload: dict[str, Any]) -> str:
        """Hash of the canonical payload: equal positions get equal hashes."""
        return hash_text(self.json_text(payload))

    def json_text(self, value: Any) -> str:
        """The canonical JSON text of a payload or result (sorted keys, no spaces, ASCII)."""
        return canonical(value, plain=self.plain_json)

    def json_texts(self, values: list[Any], errors: list[str | None]) -> list[str | None]:
        """:meth:`json_text` of each value, ``None`` where ``errors`` holds a message."""
        if self.text_results:
            texts = values
        else:
            texts = canonical_items(values) if self.plain_json else None
        if texts is None:
            texts = [self.json_text(v) for v in values]
        if errors.count(None) != len(errors):
            return [None if e is not None else t for t, e in zip(texts, errors)]
        return texts  # type: ignore[return-value]


def answer_texts(field: str, values: Any) -> list[str]:
    """The canonical JSON text of ``{field: value}`` for each value of the NumPy array
    ``values`` (bool or int): texts shared (from a table for flags and answers 0 .. 255,
    else one text per distinct value), no Python object per answer but the list's
    reference (a batch of 2,048 answers holds a few values).

    >>> import numpy as np
    >>> answer_texts("legal", np.array([True, False, True]))
    ['{"legal":true}', '{"legal":false}', '{"legal":true}']
    """
    import numpy as np

    values = np.asarray(values).reshape(-1)
    if values.dtype == np.bool_:  # (no sort: a table of the two texts)
        return _answer_table(field, True, 2)[values.view(np.uint8)].tolist()  # type: ignore[no-any-return]
    small = (values >= 0) & (values < 256) if values.dtype.kind in "iu" else values[:0]
    if not small.any():
        return _distinct_texts(field, values).tolist()  # type: ignore[no-any-return]
    # Answers 0 .. 255 from a table (of 1, 2, 4 ... 256 texts), no sort; the others below.
    out = np.empty(len(values), dtype=object)
    out[small] = _answer_table(field, False, 1 << int(values[small].max()).bit_length())[
        values[small]]
    if not small.all():
        out[~small] = _distinct_texts(field, values[~small])
    return out.tolist()  # type: ignore[no-any-return]


def _distinct_texts(field: str, values: Any) -> Any:
    """The texts of ``{field: v}`` of ``values``, one text made per distinct value."""
    import numpy as np

    distinct, where = np.unique(values, return_inverse=True)
    texts = [_answer_text(field, v) for v in distinct.tolist()]
    return np.array(texts, dtype=object)[where.reshape(-1)]


@functools.lru_cache(maxsize=256)
def _answer_table(field: str, flags: bool, size: int) -> Any:
    """The texts of ``{field: v}`` for v = 0 .. size - 1 (False and True with ``flags``),
    as an object array to index with the answers."""
    import numpy as np

    table = np.empty(size, dtype=object)
    table[:] = [_answer_text(field, bool(v) if flags else v) for v in range(size)]
    return table


@functools.lru_cache(maxsize=4096, typed=True)  # typed: True and 1 are other answers
def _answer_text(field: str, value: Any) -> str:
    return canonical({field: value}, plain=True)


def hash_text(text: str) -> str:
    """The input hash of a payload's canonical JSON text (:meth:`Task.json_text`)."""
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


_games_loaded = False


def load_game_registrations() -> None:
    """Import ``engines.<game>.tasks`` of every game once: each registers its tasks and
    generators.  A game without a ``tasks`` module has none."""
    global _games_loaded
    if _games_loaded:
        return
    _games_loaded = True
    for game in GAMES:
        game_module(game, "tasks")


class TaskRegistry(Mapping[str, "Task"]):
    """Name → :class:`Task`; reading it first loads every game's registrations."""

    def __init__(self) -> None:
        self._tasks: dict[str, Task] = {}

    def add(self, task: Task) -> None:
        self._tasks[task.name] = task

    def __getitem__(self, name: str) -> Task:
        load_game_registrations()
        return self._tasks[name]

    def __iter__(self) -> Iterator[str]:
        load_game_registrations()
        return iter(self._tasks)

    def __len__(self) -> int:
        load_game_registrations()
        return len(self._tasks)

    def __repr__(self) -> str:
        return f"TaskRegistry({sorted(self)})"


TASKS = TaskRegistry()


def register_task(task: Task) -> Task:
    """Add ``task`` to the registry (a later registration of the same name replaces it)."""
    if not isinstance(task, Task):
        raise InputError(f"register_task needs a Task, got {task!r}"[:300])
    TASKS.add(task)
    return task


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(TASKS)) or "none"
        raise UnknownTaskError(f"unknown batch task {name!r}; known: {known}") from None


SolvedItem = tuple[Any, "str | None", float]


class SolvedChunk(NamedTuple):
    """A solved chunk as three columns, one entry a position in the chunk's order: the
    result (``None`` where the solver refused the position), the error message (``None``
    where it did not) and the solver seconds charged to it.  Columns rather than a triple a
    position: a fast task solves a position in microseconds, and the runner stores the
    columns as they are."""

    results: list[Any]
    errors: list[str | None]
    seconds: list[float]

    def items(self) -> list[SolvedItem]:
        """``(result, error, seconds)`` of each position."""
        return list(zip(self.results, self.errors, self.seconds))


class TimedResults(Sequence[tuple[Any, float]]):
    """What a ``timed`` task's solve may return: its ``(result, seconds)`` pairs held as two
    columns (``results``, ``seconds``), which :func:`solve_chunk` passes on as they are.

    >>> timed = TimedResults.of_groups(3, [([0, 2], ["a", "c"], 0.5), ([1], ["b"], 0.25)])
    >>> list(timed), timed.results
    ([('a', 0.5), ('b', 0.25), ('c', 0.5)], ['a', 'b', 'c'])
    """

    __slots__ = ("results", "seconds")

    def __init__(self, results: list[Any], seconds: list[float]) -> None:
        if len(results) != len(seconds):
            raise ValueError("one seconds entry a result")
        self.results, self.seconds = results, seconds

    @classmethod
    def of_groups(cls, n: int, groups: Sequence[tuple[Sequence[int], Sequence[Any], float]]
                  ) -> TimedResults:  # fmt: skip
        """The results of ``n`` positions solved in groups, each ``(rows, results, seconds
        each)`` with its rows in increasing order; every row in one group."""
        if len(groups) == 1 and len(groups[0][0]) == n:  # then its rows are 0..n-1
            _rows, results, each = groups[0]
            return cls(list(results), [each] * n)
        import numpy as np

        results_out = np.empty(n, dtype=object)
        seconds_out = np.empty(n, dtype=object)  # each group's one float object, shared
        for rows, results, each in groups:
            where = np.asarray(rows, dtype=np.intp)
            results_out[where] = results
            seconds_out[where] = each
        return cls(results_out.tolist(), seconds_out.tolist())

    def __len__(self) -> int:
        return len(self.results)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return list(zip(self.results[i], self.seconds[i]))
        return self.results[i], self.seconds[i]

    def __iter__(self) -> Iterator[tuple[Any, float]]:
        return zip(self.results, self.seconds)


def solve_chunk(
    task_name: str | Task, payloads: list[dict[str, Any]], threads: int
) -> SolvedChunk:
    """Solve one chunk: the results, errors and seconds of ``payloads``, in their order.

    This is what worker processes and Dask workers run (a module-level function,
    so it pickles by name; they get the task's registered name, the in-process
    runner may pass the :class:`Task` itself).  ``seconds`` is the solver time charged to each
    position: the chunk's wall time times the threads it used, divided by its
    size; with one position per chunk and one thread it is that position's own
    time.  A ``timed`` task measures each position itself.  When the batch call
    fails, the chunk is solved position by position so one bad position costs
    only its own row (with the error message).
    """
    task = task_name if isinstance(task_name, Task) else get_task(task_name)
    if not payloads:
        return SolvedChunk([], [], [])
    start = time.perf_counter()
    try:
        results = task.solve(payloads, threads)
        if len(results) != len(payloads):
            raise RuntimeError(
                f"task {task.name} returned {len(results)} results for {len(payloads)} positions"
            )
    except Exception:
        items = [_solve_one(task, payload) for payload in payloads]
        return SolvedChunk(*map(list, zip(*items)))
    elapsed = time.perf_counter() - start
    no_errors: list[str | None] = [None] * len(payloads)
    if isinstance(results, TimedResults):
        return SolvedChunk(results.results, no_errors, results.seconds)
    if task.timed:
        return SolvedChunk([r for r, _ in results], no_errors, [s for _, s in results])
    used = min(threads, len(payloads)) if task.native_threads else 1
    each = elapsed * used / len(payloads)
    return SolvedChunk(list(results), no_errors, [each] * len(payloads))


def _solve_one(task: Task, payload: dict[str, Any]) -> SolvedItem:
    start = time.perf_counter()
    try:
        (result,) = task.solve([payload], 1)
    except Exception as exc:  # recorded in the store as this position's error
        return None, f"{type(exc).__name__}: {exc}", time.perf_counter() - start
    if task.timed:
        return result[0], None, result[1]
    return result, None, time.perf_counter() - start


# -- field readers for the games' ``prepare`` functions --------------------------------------


def read_field(obj: dict[str, Any], *names: str, default: Any = None, required: bool = True) -> Any:
    """The first of ``names`` present (and not null) in ``obj``, else ``default``.

    With ``required`` and no ``default``, a missing field raises :class:`InputError`
    naming the first spelling.

    >>> read_field({"vul": "NS"}, "vulnerability", "vul")
    'NS'
    >>> read_field({}, "dealer", default="N", required=False)
    'N'
    """
    for name in names:
        if name in obj and obj[name] is not None:
            return obj[name]
    if required and default is None:
        raise InputError(f"missing field {names[0]!r}")
    return default


def sorted_cards(value: Any, cell: dict[str, int], names: Sequence[str]) -> list[str] | None:
    """A card list in canonical order when every token is canonical, else ``None``.

    ``cell`` maps each canonical token to its place in the canonical order and
    ``names`` maps it back.  ``None`` (anything else: text instead of a list, an
    unknown or differently written token, a third copy) tells the game to parse
    ``value`` with its engine's parser, which accepts what it can and names
    what is wrong.  Looking canonical tokens up in one dict makes the common case
    several times faster than parsing each token.

    >>> sorted_cards(["b", "a", "b"], {"a": 0, "b": 1}, ["a", "b"])
    ['a', 'b', 'b']
    >>> sorted_cards(["b", "b", "b"], {"a": 0, "b": 1}, ["a", "b"]) is None
    True
    """
    if type(value) is not list:
        return None
    try:
        cells = sorted([cell[token] for token in value])
    except (KeyError, TypeError):  # TypeError: an unhashable token
        return None
    if any(map(operator.eq, cells, cells[2:])):
        return None
    return [names[c] for c in cells]


def count_cells(lists: Sequence[Sequence[str]], cell: dict[str, int], width: int) -> Any:
    """``(N, width)`` int64 counts of N canonical card lists (``cell``: token → column).

    One pass in C over every token of the chunk, instead of a loop per card.

    >>> count_cells([["a", "b", "b"], []], {"a": 0, "b": 1}, 2).tolist()
    [[1, 2], [0, 0]]
    """
    import numpy as np

    lengths = np.fromiter(map(len, lists), dtype=np.intp, count=len(lists))
    cards = np.fromiter(
        map(cell.__getitem__, itertools.chain.from_iterable(lists)),
        dtype=np.intp,
        count=int(lengths.sum()),
    )
    cells = np.repeat(np.arange(len(lists), dtype=np.intp) * width, lengths) + cards
    return np.bincount(cells, minlength=len(lists) * width).reshape(len(lists), width)
