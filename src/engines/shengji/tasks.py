"""The 升级 batch task (``shengji-legal``) and ``qipai gen shengji``.

Records are in the conformance format (rules section 15,
``docs/rules/shengji.md``).  The payload keeps the kind, the canonical level
and trump, and every card list as a sorted multiset, so equal positions
written in another card order hash alike.
"""

from __future__ import annotations

import argparse
import functools
import operator
import time
from collections.abc import Callable, Iterable
from typing import Any

from engines.batch.generate import Generator, register_generator
from engines.batch.jsontext import canonical
from engines.batch.records import (
    CARD_LISTS,
    CARDS,
    NAME,
    RecordLayout,
    payload_groups,
    unpack,
)
from engines.batch.tasks import (
    Task,
    TimedResults,
    answer_texts,
    count_cells,
    read_field,
    register_task,
    sorted_cards,
)
from engines.errors import InputError

_FIELDS: dict[str, tuple[str, ...]] = {
    "follow_legal": ("hand", "lead", "play"),
    "legal_follows_count": ("hand", "lead"),
    "trick_winner": ("plays",),
    "throw_valid": ("lead", "others"),
}


@functools.cache
def _tables() -> tuple[dict[str, int], tuple[str, ...]]:
    """Canonical card name → id, and id → name (the engine is imported on first use)."""
    from engines.shengji.cards import CARD_NAMES

    return {name: i for i, name in enumerate(CARD_NAMES)}, CARD_NAMES


def _cards_checked(value: Any, what: str) -> list[str]:
    """The cards as a canonical multiset (sorted by card id), read by the engine's parser.

    :func:`~engines.batch.tasks.sorted_cards` reads canonical lists; this reads the
    rest (lower case, spaces) and raises the engine's error naming a bad token.
    """
    from engines.shengji.cards import CARD_NAMES, parse_card, parse_cards

    if not isinstance(value, list):
        raise InputError(f"{what}: expected a list of card names")
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
def _context(level: Any, trump: Any) -> Any:
    from engines.shengji.rules import TrumpContext

    return TrumpContext(level, trump)


def _counts(lists: list[list[str]]) -> Any:
    """(N, 54) int8 count rows of canonical card lists (validated when they were prepared)."""
    card_id, names = _tables()
    return count_cells(lists, card_id, len(names)).astype("int8")


def _stacked_counts(groups: list[list[list[str]]]) -> Any:
    """(N, K, 54) count rows of N equal-length lists of card lists (as ``np.stack``)."""
    import numpy as np

    width = len(groups[0]) if groups else 0
    if any(len(g) != width for g in groups):
        return np.stack([_counts(g) for g in groups])  # raises as it always did
    flat = _counts([cards for g in groups for cards in g])
    return flat.reshape(len(groups), width, flat.shape[1])


def _preparer(task: str, kinds: tuple[str, ...]) -> Callable[[dict[str, Any]], dict]:
    def prepare(obj: dict[str, Any]) -> dict[str, Any]:
        kind = read_field(obj, "kind")
        if kind not in kinds:
            raise InputError(
                f"case kind {kind!r} is not a {task} position (kinds: {', '.join(kinds)})"
            )
        ctx = _context(read_field(obj, "level"), read_field(obj, "trump"))
        payload: dict[str, Any] = {
            "kind": kind,
            "level": ctx.level_name,
            "trump": ctx.trump_name,
        }
        tables = _tables()
        for name in _FIELDS[kind]:
            value = read_field(obj, name)
            if name in ("plays", "others"):
                if not isinstance(value, list):
                    raise InputError(f"{name}: expected a list of card lists")
                lists = []
                for i, v in enumerate(value):
                    found = sorted_cards(v, *tables)
                    lists.append(found if found is not None else _cards_checked(v, f"{name}[{i}]"))
                payload[name] = lists
            else:
                found = sorted_cards(value, *tables)
                payload[name] = found if found is not None else _cards_checked(value, name)
        return payload

    return prepare


@functools.cache
def _layout() -> RecordLayout:
    """The records the runner reads natively (canonical spellings only; see _preparer)."""
    from engines.shengji.cards import CARD_NAMES, RANKS
    from engines.shengji.rules import trump_name

    field_kinds = {"hand": CARDS, "lead": CARDS, "play": CARDS, "plays": CARD_LISTS,
                   "others": CARD_LISTS}  # fmt: skip
    kinds = {
        kind: {"level": NAME, "trump": NAME, **{f: field_kinds[f] for f in fields}}
        for kind, fields in _FIELDS.items()
    }
    names = {"level": RANKS, "trump": tuple(trump_name(t) for t in range(5))}
    return RecordLayout(kinds=kinds, names=names, cards=CARD_NAMES)


@functools.cache
def _context_table() -> list[Any]:
    """Context of each (level code, trump code) of the layout, at ``level * 5 + trump``."""
    layout = _layout()
    return [_context(lv, tr) for lv in layout.names["level"] for tr in layout.names["trump"]]


def _arrays(kind: str, ps: list[Any]) -> dict[str, Any]:
    """The kind's count arrays and contexts of payloads of one kind (all packed or all dicts)."""
    if type(ps[0]) is bytes:
        fields = unpack(_layout(), ps)
        table = _context_table()
        codes = (fields["level"].astype("intp") * 5 + fields["trump"]).tolist()
        fields["ctxs"] = [table[c] for c in codes]
        return fields
    out: dict[str, Any] = {"ctxs": [_context(p["level"], p["trump"]) for p in ps]}
    for name in _FIELDS[kind]:
        lists = [p[name] for p in ps]
        out[name] = _stacked_counts(lists) if name in ("plays", "others") else _counts(lists)
    return out


@functools.cache
def _display_ranks() -> Any:
    """(65, 54): each card's place in its context's display order (``TrumpContext.sort_key``),
    by context code."""
    import numpy as np

    ranks = np.zeros((65, 54), dtype=np.int64)
    for ctx in _context_table():
        order = sorted(range(54), key=ctx.sort_key)
        ranks[ctx.code, order] = np.arange(54)
    return ranks


def _forced_names(valid: Any, forced: Any, ctxs: list[Any]) -> list[list[str] | None]:
    """``ctx.sorted_names(row)`` of each refused throw's forced cards (``None`` where the
    throw stands), for all rows at once: cards sorted by (row, display rank), repeated by
    their counts, then cut per row."""
    import numpy as np

    codes = np.frombuffer(bytes([c.code for c in ctxs]), dtype=np.uint8)
    counts = np.where(np.asarray(valid, dtype=bool)[:, None], 0, forced)
    rows, cells = np.nonzero(counts)
    order = np.argsort(rows * 64 + _display_ranks()[codes[rows], cells], kind="stable")
    rows, cells = rows[order], cells[order]
    copies = counts[rows, cells]
    names = np.array(_tables()[1], dtype=object)[np.repeat(cells, copies)].tolist()
    ends = np.cumsum(np.bincount(np.repeat(rows, copies), minlength=len(ctxs))).tolist()
    out: list[list[str] | None] = []
    start = 0
    for ok, end in zip(np.asarray(valid).tolist(), ends):
        out.append(None if ok else names[start:end])
        start = end
    return out


def _solve(payloads: list[Any], threads: int) -> TimedResults:
    """One batch-API call per case kind (and payload form) in the chunk; each position is
    charged its share.  Payloads are packed bytes (:mod:`engines.batch.records`) or dicts;
    results are their canonical JSON text (``{"legal":true}``…), written from the arrays."""

    from engines.shengji.arrays import (
        are_legal_follows,
        check_throws,
        count_legal_follows,
        trick_winners,
    )

    kinds = list(_FIELDS)
    groups = payload_groups(payloads, operator.itemgetter("kind"))
    solved: list[tuple[list[int], list[str], float]] = []
    for key, rows in groups.items():
        kind = kinds[key[0]] if type(key) is tuple else key
        start = time.perf_counter()
        a = _arrays(kind, [payloads[i] for i in rows])
        ctxs = a["ctxs"]
        results: list[str]
        if kind == "follow_legal":
            legal = are_legal_follows(a["hand"], a["lead"], a["play"], ctxs, threads=threads)
            results = answer_texts("legal", legal)
        elif kind == "legal_follows_count":
            counts = count_legal_follows(a["hand"], a["lead"], ctxs, threads=threads)
            results = answer_texts("count", counts)
        elif kind == "trick_winner":
            winners = trick_winners(a["plays"], ctxs, threads=threads)
            results = answer_texts("winner", winners)
        else:
            valid, forced = check_throws(a["lead"], a["others"], ctxs, threads=threads)
            results = [
                canonical({"valid": ok, "forced": names}, plain=True)
                for ok, names in zip(valid.tolist(), _forced_names(valid, forced, ctxs))
            ]
        solved.append((rows, results, (time.perf_counter() - start) / len(rows)))
    return TimedResults.of_groups(len(payloads), solved)


register_task(
    Task(
        "shengji-legal",
        "shengji",
        "Shengji conformance-format positions: follow_legal → legal, legal_follows_count → "
        "count, trick_winner → winner, throw_valid → valid + forced",
        _preparer("shengji-legal", tuple(_FIELDS)),
        _solve,
        native_threads=True,
        chunk_size=2048,
        result_kind="answers",
        answer_labels=(
            ("legal", "legal (follow is legal)"),
            ("count", "count (legal follows)"),
            ("winner", "winner (index of the winning play, 0 = lead)"),
            ("valid", "valid (throw stands)"),
        ),
        timed=True,
        plain_json=True,
        records=_layout,
        text_results=True,
    )
)


# -- qipai gen shengji --------------------------------------------------------------------------


def _gen_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kinds",
        default="follow_legal,legal_follows_count,trick_winner,throw_valid",
        help="comma-separated case kinds, cycled in order (all four)",
    )


def _gen_records(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    from engines.shengji.generate import shengji_cases

    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    if not kinds:
        raise InputError("--kinds names no case kind")
    return shengji_cases(args.count, args.seed, kinds=kinds)


register_generator(
    Generator(
        "shengji",
        "random Shengji follow/throw/trick cases (conformance format, no `expected`)",
        "Random cases in the conformance-case format (rules section 15).",
        "cases",
        _gen_arguments,
        _gen_records,
    )
)
