"""The conformance case format (rules section 12): evaluate one record, compare
the answer with its ``expected`` field, check a whole file.

>>> from engines.shuangkou.verify import evaluate
>>> evaluate({"kind": "beats", "play": ["S2", "H2"], "previous": ["SA", "HA"]})
True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from engines.shuangkou.errors import ShuangkouInputError
from engines.shuangkou.game import Round
from engines.shuangkou.kinds import CONFORMANCE_KINDS
from engines.shuangkou.rules import (
    Policy,
    beats,
    classify,
    legal_plays,
    round_result,
    trick_next,
)
from engines.verify import Mismatch, VerifyReport, verify_each

KINDS = CONFORMANCE_KINDS


def _field(record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise ShuangkouInputError(f"{record.get('kind')} record lacks the field {name!r}")
    return record[name]


def evaluate(record: dict[str, Any]) -> Any:
    """The answer to one record, in the shape of its ``expected`` field."""
    kind = record.get("kind")
    policy = Policy.from_json(record.get("policy"))
    if kind == "classify":
        combination = classify(_field(record, "cards"), policy)
        return None if combination is None else combination.as_dict()
    if kind == "beats":
        return beats(_field(record, "play"), _field(record, "previous"), policy)
    if kind == "legal_responses_count":
        return legal_plays(_field(record, "hand"), _field(record, "previous"), policy)
    if kind == "trick_next":
        return trick_next(
            _field(record, "holding"), _field(record, "last_player"), _field(record, "passes")
        ).as_dict()
    if kind == "round_result":
        return round_result(_field(record, "order"), policy).as_dict()
    if kind == "round_replay":
        game = Round(
            _field(record, "hands"), _field(record, "leader"), record.get("finished", ()), policy
        )
        return game.replay(_field(record, "actions"))
    raise ShuangkouInputError(f"unknown record kind {kind!r}; known: {', '.join(KINDS)}")


def answer(record: dict[str, Any]) -> Any:
    """:func:`evaluate` with legal plays reduced to their count (the ``expected`` value)."""
    got = evaluate(record)
    if record.get("kind") == "legal_responses_count":
        return got.responses_count()
    return got


def record_mismatches(record: dict[str, Any], got: Any = None) -> list[Mismatch]:
    """The fields where the computed answer differs from the record (``expected``,
    and for legal responses also ``by_type`` and ``plays`` when present)."""
    rid = str(record.get("id", "?"))
    if record.get("kind") != "legal_responses_count":
        got = answer(record) if got is None else got
        return [] if got == record.get("expected") else [
            Mismatch(rid, "expected", record.get("expected"), got)
        ]
    view = evaluate(record)
    diffs = []
    count = view.responses_count()
    if count != record.get("expected"):
        diffs.append(Mismatch(rid, "expected", record.get("expected"), count))
    if "by_type" in record and view.by_type() != record["by_type"]:
        diffs.append(Mismatch(rid, "by_type", record["by_type"], view.by_type()))
    if "plays" in record:
        plays = list(view)
        if plays != record["plays"]:
            diffs.append(Mismatch(rid, "plays", record["plays"], plays))
    return diffs


def verify_file(
    path: str | Path, *, threads: int | None = None, out: TextIO | None = None
) -> VerifyReport:
    """Check every record of a JSON Lines file, printing differences and the summary line.

    ``threads`` is accepted for the common ``verify`` signature (each record is one
    small kernel call).  A malformed record raises :class:`ShuangkouInputError`
    naming the file and line.
    """
    return verify_each(path, record_mismatches, ShuangkouInputError, out=out)
