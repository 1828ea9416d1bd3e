"""Checks of a batch run before it starts: its arguments, and how its store keeps the task
(rows or packed blocks: :mod:`engines.batch.store_packed`)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from engines.arguments import integer, list_of
from engines.batch.inputs import input_format
from engines.batch.store import ResultStore
from engines.batch.tasks import Task
from engines.errors import InputError

#: What ``store_layout`` may say (see :func:`run_batch`).
STORE_LAYOUTS = ("auto", "rows", "packed", "placed")


def check_run_arguments(
    paths: Any, store: Any, chunk_size: Any, strict: Any, progress: Any, on_bad_input: Any,
    store_layout: Any = "auto",
) -> None:  # fmt: skip
    """Refuse arguments of the wrong type before anything is opened or written."""
    if store_layout not in STORE_LAYOUTS:
        raise InputError(f"store_layout must be one of {', '.join(STORE_LAYOUTS)}, got "
                         f"{store_layout!r}"[:300])  # fmt: skip
    list_of(paths, (str, os.PathLike), "paths")
    if not isinstance(store, ResultStore | str | os.PathLike):
        raise InputError(f"store must be a ResultStore or a database path, got {store!r}"[:300])
    if chunk_size is not None and integer(chunk_size, "chunk_size") < 1:
        raise InputError(f"chunk_size must be at least 1, got {chunk_size}")
    if not isinstance(strict, bool) or not isinstance(progress, bool | None):
        raise InputError(f"strict and progress must be True or False, got {strict!r}, {progress!r}")
    if on_bad_input is not None and not callable(on_bad_input):
        raise InputError(f"on_bad_input must be a function or None, got {on_bad_input!r}"[:300])


def opened_store(store: ResultStore | str | os.PathLike[str], paths: Sequence[str], task: Task,
                 layout: str, *, placeable: bool = True) -> tuple[ResultStore, str]:  # fmt: skip
    """The run's store (opened here when given as a path) and how it keeps ``task``:
    ``"placed"`` (by place, :mod:`engines.batch.store_placed`), ``"packed"`` (packed
    blocks, hashing payloads: :func:`payload_hashes`) or ``"rows"``; a store opened here is
    closed again when that refuses the run.  A store created here for packed blocks is made
    so at once.  ``placeable``: the run may keep a task by place (a local run)."""
    every = _packed_inputs(paths, task)
    place = placeable and every and task.keyed_by_place and layout in ("auto", "placed")
    want = layout != "rows" and every and not place
    db = store if isinstance(store, ResultStore) else ResultStore(
        store, payload_task=task.name if want else None)  # fmt: skip
    try:
        if by_place(paths, task, db, layout, every, place):
            return db, "placed"
        return db, "packed" if payload_hashes(paths, task, db, layout, every) else "rows"
    except BaseException:
        if db is not store:
            db.close()
        raise


def by_place(paths: Sequence[str], task: Task, db: ResultStore, layout: str, every: bool,
             place: bool) -> bool:  # fmt: skip
    """Whether this run keeps ``task`` by place: as the store has it, else when ``place``
    (``layout`` ``"auto"`` or ``"placed"`` for packed inputs of a task keyed so) and the
    store has nothing of the task.  Refuses a run that would mix layouts."""
    chosen = db.by_place(task.name, want=place)
    if chosen and (not every or layout in ("rows", "packed") or not place):
        why = ("its inputs must be packed files (qipai pack) read by a local run (not Dask)"
               if layout in ("auto", "placed") else f"store layout {layout} needs another "
               "--db file")  # fmt: skip
        raise InputError(f"{db.path}: task {task.name} is stored here by place (each "
                         f"position keyed by its packed file and record number): {why}")
    if layout == "placed" and not chosen:
        named = ", ".join(map(str, paths))[:200]
        raise InputError(f"store layout placed needs packed inputs (qipai pack) of a task "
                         f"keyed by place, run locally, and a store that has nothing else of "
                         f"it; task {task.name}: {named} into {db.path}")  # fmt: skip
    return chosen


def _packed_inputs(paths: Sequence[str], task: Task) -> bool:
    """Whether every input is a packed file of a task with a record layout."""
    layout_of = task.records() if task.records is not None else None
    packable = hasattr(layout_of, "spec") and bool(paths)
    return packable and all(str(p) != "-" and input_format(str(p)) == "packed" for p in paths)


def payload_hashes(paths: Sequence[str], task: Task, db: ResultStore, layout: str,
                   every: bool) -> bool:  # fmt: skip
    """Whether this run stores packed blocks (:mod:`engines.batch.store_packed`), hashing
    payloads: as the store has it for ``task``, else as ``layout`` asks (``"auto"``: when
    ``every`` input is a packed file of a task with a record layout: :func:`_packed_inputs`).
    Refuses the mixes that would store a position twice under two hashes."""
    if layout == "packed" and not every:
        named = ", ".join(map(str, paths))[:200]
        raise InputError(f"a packed store layout needs packed inputs (qipai pack) of a task "
                         f"with a record layout; task {task.name}: {named}")
    chosen = db.payload_hashes(task.name, want=layout != "rows" and every)
    if chosen and not every:
        raise InputError(f"{db.path}: this store hashes the packed payloads of task "
                         f"{task.name}, so its inputs must be packed too (qipai pack --task "
                         f"{task.name} -o IN.qpk IN.jsonl), or use another --db file")
    if chosen and layout == "rows":
        raise InputError(f"{db.path}: task {task.name} is stored here as packed blocks; "
                         "store layout rows needs another --db file")
    if layout == "packed" and not chosen:
        raise InputError(f"{db.path}: task {task.name} has rows here hashed by their text; "
                         "a packed store layout needs a store where it has none")
    return chosen
