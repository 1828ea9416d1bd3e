"""Batch tasks: what ``qipai batch --task NAME`` computes for each position.

A :class:`Task` turns one input object (a JSON Lines record, or a PBN board as a
dict) into a canonical *payload* (:meth:`Task.prepare`, which validates and
raises :class:`~engines.errors.InputError` naming what is wrong), and solves a
list of payloads at once (:attr:`Task.solve`, called with a chunk of positions
and a thread count; it calls the game engine's batch API, arrays in, arrays
out).  The input hash that makes runs resumable is a hash of the canonical
payload, so the same position written differently (card order, ``T`` versus
``10``…) is solved once.

Game engines are imported lazily, inside ``prepare`` and ``solve``: listing the
tasks costs nothing, and a worker process imports only the engine it uses.

>>> sorted(TASKS)  # doctest: +SKIP
['bridge-par', 'bridge-table', 'rummikub-best', ...]
>>> get_task("no-such-task")
Traceback (most recent call last):
...
engines.batch.tasks.UnknownTaskError: unknown batch task 'no-such-task'; known: ...
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.errors import InputError


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
    committed transaction); ``result_kind`` tells the report which plots apply
    (``dd-table``, ``dd-par``, ``rummikub-move``, or ``answers`` for flat
    ``{"field": bool or small int}`` results).
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

    def input_hash(self, payload: dict[str, Any]) -> str:
        """Hash of the canonical payload: equal positions get equal hashes."""
        text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


TASKS: dict[str, Task] = {}


def register_task(task: Task) -> Task:
    """Add ``task`` to the registry (a later registration of the same name replaces it)."""
    TASKS[task.name] = task
    return task


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        known = ", ".join(sorted(TASKS)) or "none"
        raise UnknownTaskError(f"unknown batch task {name!r}; known: {known}") from None


SolvedItem = tuple[Any, "str | None", float]


def solve_chunk(
    task_name: str | Task, payloads: list[dict[str, Any]], threads: int
) -> list[SolvedItem]:
    """Solve one chunk: ``[(result, error, seconds), ...]`` in the order of ``payloads``.

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
        return []
    start = time.perf_counter()
    try:
        results = task.solve(payloads, threads)
        if len(results) != len(payloads):
            raise RuntimeError(
                f"task {task.name} returned {len(results)} results for {len(payloads)} positions"
            )
    except Exception:
        return [_solve_one(task, payload) for payload in payloads]
    elapsed = time.perf_counter() - start
    if task.timed:
        return [(result, None, seconds) for result, seconds in results]
    used = min(threads, len(payloads)) if task.native_threads else 1
    each = elapsed * used / len(payloads)
    return [(result, None, each) for result in results]


def _solve_one(task: Task, payload: dict[str, Any]) -> SolvedItem:
    start = time.perf_counter()
    try:
        (result,) = task.solve([payload], 1)
    except Exception as exc:  # recorded in the store as this position's error
        return None, f"{type(exc).__name__}: {exc}", time.perf_counter() - start
    if task.timed:
        return result[0], None, result[1]
    return result, None, time.perf_counter() - start


# -- shared field readers -----------------------------------------------------------------


def _field(obj: dict[str, Any], *names: str, default: Any = None, required: bool = True) -> Any:
    for name in names:
        if name in obj and obj[name] is not None:
            return obj[name]
    if required and default is None:
        raise InputError(f"missing field {names[0]!r}")
    return default


def _card_list(obj: dict[str, Any], name: str) -> list[str]:
    value = obj.get(name)
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise InputError(f"field {name!r} must be a list of card strings")
    return list(value)


# -- shengji ------------------------------------------------------------------------------------
#
# Records in the conformance format (rules section 15).  The payload keeps the
# kind, the canonical level and trump, and every card list as a sorted multiset,
# so equal positions written in another card order hash alike.

_SHENGJI_FIELDS: dict[str, tuple[str, ...]] = {
    "follow_legal": ("hand", "lead", "play"),
    "legal_follows_count": ("hand", "lead"),
    "trick_winner": ("plays",),
    "throw_valid": ("lead", "others"),
}


def _shengji_cards(value: Any, what: str) -> list[str]:
    """The cards as a canonical multiset (sorted by card id), validated by the engine."""
    from engines.shengji.cards import CARD_NAMES, parse_card, parse_cards

    if not isinstance(value, list):
        raise InputError(f"{what}: expected a list of card names")
    # The plain-Python sort is several times faster than a count vector for 1–25 cards;
    # anything unusual (lower case, a third copy, a bad token) goes to the engine's parser.
    try:
        ids = sorted(parse_card(token) for token in value)
    except InputError:
        parse_cards(value, what)  # raises the engine's error naming the token
        raise
    for a, _, c in zip(ids, ids[1:], ids[2:]):
        if a == c:
            parse_cards(value, what)  # raises: a third copy of a card
            raise InputError(f"{what}: a third copy of {CARD_NAMES[a]}")  # pragma: no cover
    return [CARD_NAMES[i] for i in ids]


@functools.lru_cache(maxsize=256)
def _shengji_context(level: Any, trump: Any) -> Any:
    from engines.shengji.rules import TrumpContext

    return TrumpContext(level, trump)


def _shengji_counts(lists: list[list[str]]) -> Any:
    """(N, 54) int8 count rows of canonical card lists (validated when they were prepared)."""
    import numpy as np

    from engines.shengji.cards import CARD_NAMES

    index = {name: i for i, name in enumerate(CARD_NAMES)}
    rows = np.zeros((len(lists), len(CARD_NAMES)), dtype=np.int8)
    for r, cards in enumerate(lists):
        for card in cards:
            rows[r, index[card]] += 1
    return rows


def _shengji_preparer(task: str, kinds: tuple[str, ...]) -> Callable[[dict[str, Any]], dict]:
    def prepare(obj: dict[str, Any]) -> dict[str, Any]:
        kind = _field(obj, "kind")
        if kind not in kinds:
            raise InputError(
                f"case kind {kind!r} is not a {task} position (kinds: {', '.join(kinds)})"
            )
        ctx = _shengji_context(_field(obj, "level"), _field(obj, "trump"))
        payload: dict[str, Any] = {
            "kind": kind,
            "level": ctx.level_name,
            "trump": ctx.trump_name,
        }
        for name in _SHENGJI_FIELDS[kind]:
            value = _field(obj, name)
            if name in ("plays", "others"):
                if not isinstance(value, list):
                    raise InputError(f"{name}: expected a list of card lists")
                payload[name] = [_shengji_cards(v, f"{name}[{i}]") for i, v in enumerate(value)]
            else:
                payload[name] = _shengji_cards(value, name)
        return payload

    return prepare


def _shengji_solve(
    payloads: list[dict[str, Any]], threads: int
) -> list[tuple[dict[str, Any], float]]:
    """One batch-API call per case kind in the chunk; each position is charged its share."""
    import numpy as np

    from engines.shengji.batch import (
        are_legal_follows,
        check_throws,
        count_legal_follows,
        trick_winners,
    )

    groups: dict[str, list[int]] = {}
    for i, p in enumerate(payloads):
        groups.setdefault(p["kind"], []).append(i)
    out: list[tuple[dict[str, Any], float] | None] = [None] * len(payloads)
    for kind, rows in groups.items():
        ps = [payloads[i] for i in rows]
        ctxs = [_shengji_context(p["level"], p["trump"]) for p in ps]
        start = time.perf_counter()
        results: list[dict[str, Any]]
        if kind == "follow_legal":
            legal = are_legal_follows(
                _shengji_counts([p["hand"] for p in ps]),
                _shengji_counts([p["lead"] for p in ps]),
                _shengji_counts([p["play"] for p in ps]),
                ctxs,
                threads=threads,
            )
            results = [{"legal": bool(v)} for v in legal]
        elif kind == "legal_follows_count":
            counts = count_legal_follows(
                _shengji_counts([p["hand"] for p in ps]),
                _shengji_counts([p["lead"] for p in ps]),
                ctxs,
                threads=threads,
            )
            results = [{"count": int(v)} for v in counts]
        elif kind == "trick_winner":
            plays = np.stack([_shengji_counts(p["plays"]) for p in ps])
            winners = trick_winners(plays, ctxs)
            results = [{"winner": int(v)} for v in winners]
        else:
            valid, forced = check_throws(
                _shengji_counts([p["lead"] for p in ps]),
                np.stack([_shengji_counts(p["others"]) for p in ps]),
                ctxs,
            )
            results = [
                {"valid": bool(ok), "forced": None if ok else ctx.sorted_names(row)}
                for ok, row, ctx in zip(valid, forced, ctxs)
            ]
        each = (time.perf_counter() - start) / len(rows)
        for i, result in zip(rows, results):
            out[i] = (result, each)
    return [item for item in out if item is not None]


register_task(
    Task(
        "shengji-legal",
        "shengji",
        "Shengji conformance-format positions: follow_legal → legal, legal_follows_count → "
        "count, trick_winner → winner, throw_valid → valid + forced",
        _shengji_preparer("shengji-legal", tuple(_SHENGJI_FIELDS)),
        _shengji_solve,
        native_threads=True,
        chunk_size=2048,
        result_kind="answers",
        timed=True,
    )
)


# -- rummikub -----------------------------------------------------------------------------------
#
# Positions in the corpus format.  The payload is the engine's canonical form
# (rack sorted) with the table's sets in sorted order: the order of sets on the
# table carries no meaning, the order inside a set does (where a joker stands).


def _rummikub_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.rummikub import Position

    canonical = Position.from_json(obj).to_json()
    canonical["table"] = sorted(canonical["table"])
    return canonical


def _rummikub_solver(objective: str) -> Callable[[list[dict[str, Any]], int], list[Any]]:
    def solve(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, Any]]:
        from engines.rummikub import Position, best_moves

        positions = [Position.from_json(p) for p in payloads]
        moves = best_moves(positions, objective=objective, threads=threads)
        out = []
        for move in moves:
            data = move.to_json()
            out.append(
                {
                    "tiles": data["tiles"],
                    "value": data["value"],
                    "played": data["played"],
                    "sets": data["sets"],
                }
            )
        return out

    return solve


for _objective, _what in (("tiles", "most rack tiles"), ("value", "most face value")):
    register_task(
        Task(
            "rummikub-best" if _objective == "tiles" else "rummikub-best-value",
            "rummikub",
            f"Rummikub exact best move ({_what}) → tiles, value, played, sets",
            _rummikub_prepare,
            _rummikub_solver(_objective),
            native_threads=True,
            # Each best_moves call has a fixed cost (thread start-up) of some milliseconds.
            chunk_size=128,
            result_kind="rummikub-move",
        )
    )


# -- bridge -------------------------------------------------------------------------------------
#
# Deals from PBN files (one record per board with a Deal tag) or JSON Lines
# (``pbn`` or ``deal``, optional ``dealer`` and ``vulnerability``/``vul``).  The
# payload holds the deal written from North by the engine, so the same deal
# written from another seat, with ``10`` for ``T`` or its suits in another
# order, hashes alike.  ``bridge-table`` does not depend on the dealer or the
# vulnerability, so its payload leaves them out.


def _bridge_deal(obj: dict[str, Any]) -> str:
    from engines.bridge import Deal

    text = _field(obj, "pbn", "deal")
    if not isinstance(text, str):
        raise InputError("field 'pbn' must be a PBN deal string")
    return Deal.from_pbn(text).to_pbn()


def _bridge_table_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    return {"pbn": _bridge_deal(obj)}


def _bridge_par_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.bridge.seats import Seat, parse_vulnerability

    dealer = _field(obj, "dealer", default="N", required=False)
    vul = _field(obj, "vulnerability", "vul", "vulnerable", default="None", required=False)
    if not isinstance(dealer, str) or not isinstance(vul, str):
        raise InputError("'dealer' and 'vulnerability' must be strings such as \"N\", \"EW\"")
    deal = _bridge_deal(obj)
    if any(len(hand.split(".")) != 4 or len(hand) != 16 for hand in deal[2:].split()):
        # 13 cards and three dots: par assumes all 13 tricks are still to play.
        raise InputError(f"par needs a full deal (13 cards each), got {deal}")
    return {
        "pbn": deal,
        "dealer": Seat.from_char(dealer).char,
        "vulnerability": parse_vulnerability(vul),
    }


def _bridge_tables(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, Any]]:
    from engines.bridge import Deal
    from engines.bridge.dd import dd_tables

    tables = dd_tables([Deal.from_pbn(p["pbn"]) for p in payloads], threads=threads)
    return [t.to_dict() for t in tables]


def _bridge_par(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, Any]]:
    from engines.bridge.par import par

    # A deal listed with several dealers or vulnerabilities is solved once per chunk.
    unique = list(dict.fromkeys(p["pbn"] for p in payloads))
    tables = dict(zip(unique, _bridge_tables([{"pbn": d} for d in unique], threads)))
    out = []
    for payload in payloads:
        table = tables[payload["pbn"]]
        result = par(table, payload["dealer"], payload["vulnerability"])
        out.append({"table": table, "par": result.to_dict()})
    return out


register_task(
    Task(
        "bridge-table",
        "bridge",
        "bridge double-dummy table → {strain: {declarer: tricks}} (C D H S NT × N E S W)",
        _bridge_table_prepare,
        _bridge_tables,
        native_threads=True,
        gil_free=True,
        chunk_size=2,
        result_kind="dd-table",
    )
)
register_task(
    Task(
        "bridge-par",
        "bridge",
        "bridge DD table and dealer par for the board's dealer and vulnerability → "
        "table, par {score (NS), contracts}",
        _bridge_par_prepare,
        _bridge_par,
        native_threads=True,
        gil_free=True,
        chunk_size=4,
        result_kind="dd-par",
    )
)
