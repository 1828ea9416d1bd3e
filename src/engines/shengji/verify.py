"""Evaluate conformance records (rules, section 15) with the engine.

Each record kind maps to one engine call; :func:`evaluate` returns the
engine's answer in the record's ``expected`` format and :func:`compare` the
differing fields, which ``qipai shengji check`` prints; :func:`record_mismatches`
and :func:`verify_file` are the common verify entry points
(``docs/architecture.md``, "Verify") behind ``qipai shengji verify``.

Example:
    >>> evaluate({"kind": "is_tractor", "level": "10", "trump": "H",
    ...           "cards": ["HK", "HK", "HQ", "HQ"]})
    True
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TextIO

from engines.shengji.errors import ShengjiInputError
from engines.shengji.kinds import CONFORMANCE_KINDS
from engines.shengji.rules import (
    TrumpContext,
    check_throw,
    is_legal_follow,
    is_tractor,
    legal_follows,
    resolve_bids,
    score_round,
    trick_winner,
)
from engines.verify import Mismatch, VerifyReport, verify_each

KINDS = CONFORMANCE_KINDS


def _field(record: dict[str, Any], name: str) -> Any:
    try:
        return record[name]
    except KeyError:
        raise ShengjiInputError(f"record {record.get('id', '?')}: missing field {name!r}") from None


def _ctx(record: dict[str, Any]) -> TrumpContext:
    return TrumpContext(_field(record, "level"), _field(record, "trump"))


def evaluate(record: dict[str, Any]) -> Any:
    """The engine's answer to one conformance record, in the ``expected`` format."""
    kind = _field(record, "kind")
    if kind == "is_tractor":
        return is_tractor(_field(record, "cards"), _ctx(record))
    if kind == "follow_legal":
        return is_legal_follow(
            _field(record, "hand"), _field(record, "lead"), _field(record, "play"), _ctx(record)
        )
    if kind == "legal_follows_count":
        return legal_follows(_field(record, "hand"), _field(record, "lead"), _ctx(record)).count()
    if kind == "trick_winner":
        return trick_winner(_field(record, "plays"), _ctx(record))
    if kind == "throw_valid":
        res = check_throw(_field(record, "lead"), _field(record, "others"), _ctx(record))
        return {"valid": res.valid, "forced": res.forced}
    if kind == "score":
        ctx = TrumpContext(record.get("level", "2"), record.get("trump", "NT"))
        s = score_round(
            _field(record, "declarer"),
            _field(record, "defender_trick_points"),
            _field(record, "bottom"),
            _field(record, "last_lead"),
            _field(record, "last_trick_won_by"),
            _field(record, "levels"),
            ctx,
        )
        return s.as_dict()
    if kind == "bid":
        res = resolve_bids(
            _field(record, "bids"),
            _field(record, "level"),
            bool(_field(record, "first_round")),
            record.get("current_declarer"),
        )
        return {"accepted": res.accepted, "trump": res.trump, "declarer": res.declarer}
    raise ShengjiInputError(
        f"record {record.get('id', '?')}: unknown kind {kind!r} (one of {', '.join(KINDS)})"
    )


def _norm(value: Any) -> Any:
    """Card lists are multisets: compare them sorted."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return sorted(value)
    return value


def compare(record: dict[str, Any], got: Any) -> list[Mismatch]:
    """Fields of ``got`` that differ from the record's ``expected`` value."""
    rid = str(record.get("id", "?"))
    expected = _field(record, "expected")
    if isinstance(expected, dict) and isinstance(got, dict):
        out = []
        for key in expected:
            if _norm(expected[key]) != _norm(got.get(key)):
                out.append(Mismatch(rid, key, expected[key], got.get(key)))
        return out
    if _norm(expected) != _norm(got):
        return [Mismatch(rid, "expected", expected, got)]
    return []


def record_mismatches(record: dict[str, Any]) -> list[Mismatch]:
    """The fields where the engine's answer differs from the record's ``expected``."""
    return compare(record, evaluate(record))


def verify_file(
    path: str | Path, *, threads: int | None = None, out: TextIO | None = None
) -> VerifyReport:
    """Check every record of a JSON Lines file, printing differences and the summary line.

    ``threads`` is accepted for the common ``verify`` signature (records are
    answered one by one).  A malformed record raises :class:`ShengjiInputError`
    naming the file and line.
    """
    return verify_each(path, record_mismatches, ShengjiInputError, out=out)
