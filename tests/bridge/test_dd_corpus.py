"""Every DD table and every end-position answer of the reference corpus, exactly (DDS 2.9)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.bridge import Card, DDTable, Deal, Seat, dd_table, dd_tables, solve_position

DATA = Path(__file__).parent.parent / "data" / "bridge"
DEALS = [json.loads(line) for line in (DATA / "deals.jsonl").read_text().splitlines()]
POSITIONS = [json.loads(line) for line in (DATA / "positions.jsonl").read_text().splitlines()]


@pytest.mark.parametrize("record", POSITIONS, ids=[r["id"] for r in POSITIONS])
def test_position_solutions(record: dict) -> None:
    got = solve_position(record["pbn"], record["trump"], record["leader"], record["trick"])
    assert {str(card): tricks for card, tricks in got.items()} == record["solutions"]
    assert max(got.values()) == record["best"]


def test_positions_accept_deal_objects_with_trick() -> None:
    record = next(r for r in POSITIONS if r["trick"])
    deal = Deal.from_pbn(
        record["pbn"], leader=Seat.from_char(record["leader"]), trick=record["trick"]
    )
    got = solve_position(deal, record["trump"])
    assert {str(c): v for c, v in got.items()} == record["solutions"]
    assert set(got) == set(deal.legal_plays())
    assert all(isinstance(card, Card) for card in got)


def _check_table(record: dict, table: DDTable) -> None:
    assert table.to_dict() == record["dd"], record["id"]
    assert table == DDTable.from_dict(record["dd"])


def test_dd_tables_batch_matches_corpus() -> None:
    records = [DEALS[1], DEALS[151]]
    for record, table in zip(records, dd_tables([r["pbn"] for r in records], threads=2)):
        _check_table(record, table)
    assert dd_table(DEALS[1]["pbn"]).to_dict() == DEALS[1]["dd"]


@pytest.mark.slow
def test_corpus_tables() -> None:
    """Every DD table of the corpus (160 deals; under a minute on 2 cores)."""
    tables = dd_tables([r["pbn"] for r in DEALS])
    wrong = [r["id"] for r, t in zip(DEALS, tables) if t.to_dict() != r["dd"]]
    assert wrong == []
