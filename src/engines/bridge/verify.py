"""Recompute reference records (the corpus formats) and list every field that differs.

Two record kinds, told apart by their fields (see ``shared/corpus/bridge/README.md``):

* deals — ``{"id", "pbn", "dd": {"C": {"N": 9, …}, …, "NT": {…}}, …}``: the DD table;
* positions — ``{"id", "pbn", "trump", "leader", "trick", "solutions": {"SA": 3, …}}``:
  the tricks after every legal card.

>>> record = {"id": "x", "pbn": "N:AK... Q2... JT... 43...", "trump": "NT", "leader": "N",
...           "trick": [], "solutions": {"SA": 2, "SK": 1}}
>>> [str(m) for m in position_record_mismatches(record)]
['MISMATCH x solutions.SK: expected 1, got 2']
"""

from __future__ import annotations

from typing import Any

from engines.bridge.cards import Card
from engines.bridge.dd import DDTable, dd_table, solve_position
from engines.bridge.seats import BridgeInputError
from engines.verify import Mismatch

__all__ = ["deal_record_mismatches", "position_record_mismatches", "record_id"]


def record_id(record: dict[str, Any], fallback: str = "?") -> str:
    return str(record.get("id", fallback))


def _field(record: dict[str, Any], name: str) -> Any:
    if name not in record:
        raise BridgeInputError(f"record {record_id(record)}: missing field {name!r}")
    return record[name]


def deal_record_mismatches(record: dict[str, Any], table: DDTable | None = None) -> list[Mismatch]:
    """Mismatches between the record's ``dd`` table and ours (``table`` if already solved)."""
    rid = record_id(record)
    expected = _field(record, "dd")
    if table is None:
        table = dd_table(str(_field(record, "pbn")))
    got = table.to_dict()
    out = []
    for strain, row in got.items():
        for seat, tricks in row.items():
            want = expected.get(strain, {}).get(seat) if isinstance(expected, dict) else None
            if want != tricks:
                out.append(Mismatch(rid, f"dd.{strain}.{seat}", want, tricks))
    from engines.bridge.dealer_par import par_mismatches  # par records (issue 4), from our table

    out.extend(par_mismatches(record, table))
    return out


def position_record_mismatches(record: dict[str, Any]) -> list[Mismatch]:
    """Mismatches between the record's card ``solutions`` (and ``best``) and ours."""
    rid = record_id(record)
    expected = _field(record, "solutions")
    got = solve_position(
        str(_field(record, "pbn")),
        str(_field(record, "trump")),
        str(_field(record, "leader")),
        [str(card) for card in record.get("trick", [])],
    )
    got_str = {str(card): tricks for card, tricks in got.items()}
    out = []
    try:
        want = {str(Card.from_str(card)): value for card, value in expected.items()}
    except (AttributeError, BridgeInputError) as exc:
        raise BridgeInputError(f"record {rid}: bad solutions field: {exc}") from exc
    for card in sorted(set(want) | set(got_str), key=lambda c: Card.from_str(c).index):
        if want.get(card) != got_str.get(card):
            out.append(Mismatch(rid, f"solutions.{card}", want.get(card), got_str.get(card)))
    if "best" in record and got and record["best"] != max(got.values()):
        out.append(Mismatch(rid, "best", record["best"], max(got.values())))
    return out
