"""Recompute reference records (the corpus formats) and list every field that differs.

Two record kinds, told apart by their fields (see ``tests/data/bridge/README.md``):

* deals — ``{"id", "pbn", "dd": {"C": {"N": 9, …}, …, "NT": {…}}, …}``: the DD table;
* positions — ``{"id", "pbn", "trump", "leader", "trick", "solutions": {"SA": 3, …}}``:
  the tricks after every legal card.

>>> record = {"id": "x", "pbn": "N:AK... Q2... JT... 43...", "trump": "NT", "leader": "N",
...           "trick": [], "solutions": {"SA": 2, "SK": 1}}
>>> [str(m) for m in position_record_mismatches(record)]
['MISMATCH x solutions.SK: expected 1, got 2']
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from engines.bridge.cards import Card
from engines.bridge.dd import DDTable, dd_table, solve_position
from engines.bridge.seats import BridgeInputError
from engines.verify import Mismatch, VerifyReport, read_jsonl

__all__ = [
    "deal_record_mismatches",
    "position_record_mismatches",
    "record_id",
    "record_mismatches",
    "verify_file",
]


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
    from engines.bridge.dealer_par import par_mismatches  # par records, checked from our table

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


def record_mismatches(record: dict[str, Any], table: DDTable | None = None) -> list[Mismatch]:
    """The mismatches of one reference record: a deal (``dd``) or a position (``solutions``)."""
    if "dd" in record:
        return deal_record_mismatches(record, table)
    if "solutions" in record:
        return position_record_mismatches(record)
    raise BridgeInputError("neither a deal (dd) nor a position (solutions) record")


def verify_file(
    path: str | Path, *, threads: int | None = None, out: TextIO | None = None
) -> VerifyReport:
    """Check every record of a JSON Lines file, printing differences and the summary line.

    Every deal of the file is solved in one parallel batch (``threads``), then
    the records are compared one by one; a bad record raises
    :class:`BridgeInputError` naming the file, line and record.
    """
    from engines.bridge.dd import dd_tables

    records = list(read_jsonl(path))
    deals = [(n, r) for n, r in records if "dd" in r]
    try:
        tables = dd_tables([str(r["pbn"]) for _, r in deals], threads=threads)
    except (KeyError, BridgeInputError):
        tables = [None] * len(deals)  # fall back to one by one, to name the bad record
    table_of = {id(r): t for (_, r), t in zip(deals, tables)}
    report = VerifyReport(out=out or sys.stdout)
    for number, record in records:
        rid = record_id(record, f"line {number}")
        try:
            mismatches = record_mismatches(record, table_of.get(id(record)))
        except BridgeInputError as exc:
            raise BridgeInputError(f"{path}:{number}: record {rid}: {exc}") from exc
        report.add(rid, mismatches)
    report.finish()
    return report
