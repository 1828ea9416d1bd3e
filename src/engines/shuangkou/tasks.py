"""The 双扣 batch tasks and ``qipai gen shuangkou``.

* ``shuangkou-legal``: conformance-format records (rules section 12) of kind
  ``classify`` → valid/type/rank/length, ``beats`` → beats,
  ``legal_responses_count`` → count, ``trick_next`` → next/lead/jiefeng; one
  batch-API call per kind and chunk, on ``threads`` threads.
* ``shuangkou-endgame``: ``{"hands", "leader", "finished"}`` positions →
  side 0's points under best play, the winning side and the double-win flag.

Payloads keep every card list as a sorted multiset, so equal positions
written in another order hash alike.
"""

from __future__ import annotations

import argparse
import functools
import operator
import time
from collections.abc import Iterable, Sequence
from typing import Any

from engines.batch.generate import Generator, register_generator
from engines.batch.jsontext import canonical
from engines.batch.records import CARDS, NULLABLE_CARDS, RecordLayout, grouped, unpack_rows
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
    "classify": ("cards",),
    "beats": ("play", "previous"),
    "legal_responses_count": ("hand", "previous"),
    "trick_next": ("holding", "last_player", "passes"),
}


@functools.cache
def _tables() -> tuple[dict[str, int], list[str]]:
    """Canonical token → cell (rank * 4 + suit, the display order), and cell → token."""
    from engines.shuangkou.cards import Card

    names = [str(Card(rank, suit)) if rank < 13 or suit == 0 else "" for rank in range(15)
             for suit in range(4)]  # fmt: skip
    return {name: cell for cell, name in enumerate(names) if name}, names


def _cards(value: Any, what: str) -> list[str]:
    # Canonical tokens are looked up in one dict; anything else (text, lower case, Card
    # objects, a bad token, a third copy, a fifth joker) goes to the engine's parser,
    # which names what is wrong.
    found = sorted_cards(value, *_tables())
    if found is not None:
        return found
    from engines.shuangkou.cards import card_names, parse_cards

    if not isinstance(value, list | str):
        raise InputError(f"{what}: expected a list of card names")
    return card_names(parse_cards(value, what))


def _rows(lists: list[list[str]]) -> Any:
    """(N, 15, 4) uint8 count arrays of canonical card lists (checked when prepared)."""
    cell, names = _tables()
    counts = count_cells(lists, cell, len(names))
    return counts.astype("uint8").reshape(len(lists), 15, 4)


@functools.cache
def _default_straight_flush() -> str:
    from engines.shuangkou.rules import Policy

    return Policy().straight_flush.value


def _legal_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.shuangkou.rules import Policy, trick_next

    kind = read_field(obj, "kind")
    if kind not in _FIELDS:
        raise InputError(f"case kind {kind!r} is not a shuangkou-legal position "
                         f"(kinds: {', '.join(_FIELDS)})")
    raw_policy = obj.get("policy")
    straight_flush = (
        _default_straight_flush() if not raw_policy
        else Policy.from_json(raw_policy).straight_flush.value
    )  # fmt: skip
    payload: dict[str, Any] = {"kind": kind, "straight_flush": straight_flush}
    if kind == "trick_next":
        holding = sorted(read_field(obj, "holding"))
        last, passes = read_field(obj, "last_player"), list(read_field(obj, "passes"))
        trick_next(holding, last, passes)  # validates
        payload.update(holding=holding, last_player=last, passes=passes)
        return payload
    for name in _FIELDS[kind]:
        value = obj.get(name) if name == "previous" else read_field(obj, name)
        payload[name] = None if value is None else _cards(value, name)
    return payload


@functools.cache
def _layout() -> RecordLayout:
    """The records the runner reads natively: the three card kinds under the default policy
    (a beats record without ``previous``, a policy, ``trick_next``: read by ``prepare``)."""
    return RecordLayout(
        kinds={
            "classify": {"cards": CARDS},
            "beats": {"play": CARDS, "previous": CARDS},
            "legal_responses_count": {"hand": CARDS, "previous": NULLABLE_CARDS},
        },
        names={},
        cards=_tables()[1],
        constants={"straight_flush": _default_straight_flush()},
        null_only=("policy",),
    )


def _arrays(kind: str, packed: bool, ps: Any) -> dict[str, Any]:
    """(N, 15, 4) count arrays of payloads of one kind: packed (their (N, length) array)
    or dicts; for ``previous`` also ``"previous present"`` (a dict's ``None`` stays in
    ``"previous"``)."""
    import numpy as np

    if packed:
        fields = unpack_rows(_layout(), ps)
        for name in _FIELDS[kind]:
            fields[name] = np.ascontiguousarray(fields[name].view(np.uint8)).reshape(-1, 15, 4)
        fields.setdefault("previous present", np.ones(ps.shape[0], dtype=bool))
        return fields
    out: dict[str, Any] = {}
    for name in _FIELDS[kind]:
        lists = [p[name] for p in ps]
        if name == "previous":
            out["previous present"] = np.array([v is not None for v in lists], dtype=bool)
            if kind == "beats" and None in lists:
                out[name] = lists  # refused by the engine, as it always was
                continue
            lists = [v or [] for v in lists]  # none or empty: leading
        out[name] = _rows(lists)
    return out


@functools.lru_cache(maxsize=1 << 16)
def _classified_text(code: int) -> str:
    """The answer's text of a ``classify`` position whose combination code is ``code``
    (few distinct codes: each text made once)."""
    from engines.shuangkou.rules import Combination

    combo = Combination.from_code(code)
    return canonical({"valid": combo is not None, **(combo.as_dict() if combo else {})},
                     plain=True)  # fmt: skip


def _legal_solve(payloads: Sequence[Any], threads: int) -> TimedResults:
    """One batch-API call per kind, policy and payload form in the chunk; payloads are
    packed bytes (:mod:`engines.batch.records`) or ``prepare``'s dicts; results are their
    canonical JSON text, written from the arrays."""
    import numpy as np

    from engines.shuangkou.arrays import (
        beats_many,
        classify_many,
        count_plays_many,
        trick_next_many,
    )
    from engines.shuangkou.rules import Policy

    kinds = list(_layout().kinds)
    default = _default_straight_flush()
    groups = grouped(payloads, operator.itemgetter("kind", "straight_flush"))
    solved: list[tuple[Any, list[str], float]] = []
    for packed, key, rows, ps in groups:
        kind, sf = (kinds[key[0]], default) if packed else key
        policy = Policy(sf)
        start = time.perf_counter()
        if kind == "trick_next":
            hold = np.array([sum(1 << s for s in p["holding"]) for p in ps])
            last = np.array([p["last_player"] for p in ps])
            npass = np.array([len(p["passes"]) for p in ps])
            seat, lead, jiefeng = trick_next_many(hold, last, npass, threads=threads)
            results = [canonical({"next": int(s), "lead": bool(ld), "jiefeng": bool(j)},
                                 plain=True) for s, ld, j in zip(seat, lead, jiefeng)]  # fmt: skip
        else:
            a = _arrays(kind, packed, ps)
            if kind == "classify":
                codes = classify_many(a["cards"], policy, threads=threads)
                distinct, where = np.unique(codes, return_inverse=True)
                texts = [_classified_text(code) for code in distinct.tolist()]
                results = np.array(texts, dtype=object)[where.reshape(-1)].tolist()
            elif kind == "beats":
                flags = beats_many(a["play"], a["previous"], policy, threads=threads)
                results = answer_texts("beats", flags)
            else:
                counts = count_plays_many(a["hand"], a["previous"], policy, threads=threads)
                present = np.asarray(a["previous present"], dtype=bool)
                results = answer_texts("count", np.asarray(counts, dtype=np.int64) + present)
        solved.append((rows, results, (time.perf_counter() - start) / len(rows)))
    return TimedResults.of_groups(len(payloads), solved)


register_task(
    Task(
        "shuangkou-legal",
        "shuangkou",
        "双扣 conformance-format positions: classify → valid/type/rank/length, beats → beats, "
        "legal_responses_count → count, trick_next → next/lead/jiefeng",
        _legal_prepare,
        _legal_solve,
        native_threads=True,
        chunk_size=2048,
        result_kind="answers",
        timed=True,
        plain_json=True,
        records=_layout,
        text_results=True,
        payload_columns=True,
        keyed_by_place=True,
    )
)


def _endgame_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.shuangkou.game import Round
    from engines.shuangkou.rules import Policy

    hands = read_field(obj, "hands")
    if not isinstance(hands, list) or len(hands) != 4:
        raise InputError("hands: expected four card lists")
    payload = {
        "hands": [_cards(h, f"hands[{i}]") for i, h in enumerate(hands)],
        "leader": read_field(obj, "leader"),
        "finished": list(obj.get("finished") or []),
        "straight_flush": Policy.from_json(obj.get("policy")).straight_flush.value,
    }
    Round(payload["hands"], payload["leader"], payload["finished"])  # validates
    return payload


def _endgame_solve(payloads: list[dict[str, Any]], threads: int) -> list[tuple[dict, float]]:
    from engines.shuangkou.endgame import solve_endgame
    from engines.shuangkou.game import Round
    from engines.shuangkou.rules import Policy

    out = []
    for p in payloads:
        start = time.perf_counter()
        game = Round(p["hands"], p["leader"], p["finished"], Policy(p["straight_flush"]))
        res = solve_endgame(game, line=False)
        out.append((
            {"points": res.points, "side0_first": res.winning_side[0] == 0,
             "double_win": res.double_win},
            time.perf_counter() - start,
        ))
    return out


register_task(
    Task(
        "shuangkou-endgame",
        "shuangkou",
        "双扣 end-games {hands, leader, finished} → side 0's points under best play, "
        "side0_first, double_win (for the side on move)",
        _endgame_prepare,
        _endgame_solve,
        chunk_size=4,
        result_kind="answers",
        timed=True,
    )
)


def _gen_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--kinds",
        default="legal_responses_count,beats,classify",
        help="comma-separated case kinds, cycled in order, or 'endgame' (all three)",
    )
    parser.add_argument(
        "--cards", type=int, default=3, help="cards per hand of the endgame positions (3)"
    )


def _gen_records(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    from engines.shuangkou.generate import endgame_positions, shuangkou_cases

    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    if kinds == ("endgame",):
        if not 1 <= args.cards <= 27:
            raise InputError(f"--cards: expected 1–27, got {args.cards}")
        return endgame_positions(args.count, args.seed, args.cards)
    records = shuangkou_cases(args.count, args.seed, kinds)
    first = next(records, None)  # validates --kinds before any output is opened
    return [] if first is None else _chain(first, records)


def _chain(first: dict[str, Any], rest: Iterable[dict[str, Any]]):
    yield first
    yield from rest


register_generator(
    Generator(
        "shuangkou",
        "random 双扣 cases (conformance format, no `expected`) or end-games",
        "Random cases in the conformance-case format (rules section 12), or end-game "
        "positions for the shuangkou-endgame task (--kinds endgame --cards N).",
        "cases",
        _gen_arguments,
        _gen_records,
    )
)
