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
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engines.batch.generate import Generator, register_generator
from engines.batch.jsontext import canonical
from engines.batch.records import (
    CARD_LISTS,
    CARDS,
    NAME,
    RecordLayout,
    grouped,
    unpack_rows,
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


@functools.cache
def _context_arrays() -> tuple[Any, Any]:
    """:func:`_context_table` as an object array, and each context's ``code`` (uint8)."""
    import numpy as np

    table = _context_table()
    objects = np.empty(len(table), dtype=object)
    for i, ctx in enumerate(table):
        objects[i] = ctx
    return objects, np.array([ctx.code for ctx in table], dtype=np.uint8)


def _arrays(kind: str, packed: bool, ps: Any) -> dict[str, Any]:
    """The kind's count arrays, contexts (``"ctxs"``) and context codes (``"codes"``) of
    payloads of one kind: packed (their (N, length) array) or dicts."""
    import numpy as np

    if packed:
        fields = unpack_rows(_layout(), ps)
        objects, codes = _context_arrays()
        at = fields["level"].astype(np.intp) * 5 + fields["trump"]
        fields["ctxs"], fields["codes"] = objects[at].tolist(), codes[at]
        return fields
    ctxs = [_context(p["level"], p["trump"]) for p in ps]
    out: dict[str, Any] = {"ctxs": ctxs, "codes": np.array([c.code for c in ctxs], np.uint8)}
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


# canonical({"valid": ok, "forced": names}): a throw that stands, and a refused one's text
# before and after its forced cards
_STANDS = '{"forced":null,"valid":true}'
_REFUSED = ('{"forced":[', '],"valid":false}')


@functools.cache
def _pieces() -> tuple[Any, Any]:
    """The pieces of a refused throw's text as zero-padded uint8 rows, and their lengths:
    each card's JSON string and a comma (rows 0-53), the text before the cards (54) and
    after them (55)."""
    import numpy as np

    texts = [canonical(name, plain=True) + "," for name in _tables()[1]] + list(_REFUSED)
    table = np.zeros((len(texts), 16), dtype=np.uint8)
    for i, text in enumerate(texts):
        table[i, : len(text)] = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return table, np.array([len(t) for t in texts], dtype=np.intp)


@functools.cache
def _single_texts() -> Any:
    """The text of a refused throw whose forced cards are one card, by card (object array)."""
    import numpy as np

    texts = np.empty(54, dtype=object)
    texts[:] = [_REFUSED[0] + canonical(name, plain=True) + _REFUSED[1] for name in _tables()[1]]
    return texts


def _throw_texts(valid: Any, forced: Any, codes: Any) -> list[str]:
    """``canonical({"valid": ok, "forced": names})`` of each throw, ``names`` the refused
    throws' forced cards as ``ctx.sorted_names`` names them (``codes``: each row's context
    code), written for all rows at once: the cards sorted by (row, display rank) and
    repeated by their counts, each row's pieces (before, cards, after) gathered into one
    text, then cut per row.  The throws that stand share one text."""
    import numpy as np

    valid = np.asarray(valid, dtype=bool)
    out = np.full(len(valid), _STANDS, dtype=object)
    refused = np.flatnonzero(~valid)
    if not refused.size:
        return out.tolist()  # type: ignore[no-any-return]
    counts = np.asarray(forced)[refused]
    # Most refused throws force one card (no order to find): its text from a table.
    single = counts.sum(axis=1, dtype=np.intp) == 1
    if single.any():
        out[refused[single]] = _single_texts()[counts[single].argmax(axis=1)]
        refused, counts = refused[~single], counts[~single]
        if not refused.size:
            return out.tolist()  # type: ignore[no-any-return]
    rows, cells = np.nonzero(counts)
    order = np.argsort(rows * 64 + _display_ranks()[codes[refused][rows], cells], kind="stable")
    rows, cells = rows[order], cells[order]
    copies = counts[rows, cells].astype(np.intp)
    rows, cells = np.repeat(rows, copies), np.repeat(cells, copies)
    per_row = np.bincount(rows, minlength=len(refused))
    first = np.cumsum(per_row + 2) - (per_row + 2)  # each row's first piece (the "before")
    seq = np.empty(int(first[-1] + per_row[-1] + 2), dtype=np.intp)
    seq[first] = 54
    seq[first + per_row + 1] = 55
    before = np.cumsum(per_row) - per_row  # the row's cards before it, in the card order
    seq[first[rows] + 1 + np.arange(len(rows)) - before[rows]] = cells
    table, lengths = _pieces()
    size = lengths[seq]
    size[(first + per_row)[per_row > 0]] -= 1  # no comma after a row's last card
    text = table[seq][np.arange(16) < size[:, None]].tobytes().decode("ascii")
    ends = np.cumsum(size)
    lo, hi = (ends[first] - size[first]).tolist(), ends[first + per_row + 1].tolist()
    texts = np.empty(len(refused), dtype=object)
    texts[:] = [text[a:b] for a, b in zip(lo, hi)]
    out[refused] = texts
    return out.tolist()  # type: ignore[no-any-return]


def _solve(payloads: Sequence[Any], threads: int) -> TimedResults:
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
    solved: list[tuple[Any, list[str], float]] = []
    for packed, key, rows, ps in grouped(payloads, operator.itemgetter("kind")):
        kind = kinds[key[0]] if packed else key
        start = time.perf_counter()
        a = _arrays(kind, packed, ps)
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
            results = _throw_texts(valid, forced, a["codes"])
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
        payload_columns=True,
        keyed_by_place=True,
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
