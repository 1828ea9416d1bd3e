"""Every conformance case (tests/data/shuangkou/cases.jsonl, a copy of the shared corpus)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.shuangkou.verify import record_mismatches

CASES = Path(__file__).parent.parent / "data" / "shuangkou" / "cases.jsonl"
RECORDS = [json.loads(line) for line in CASES.read_text().splitlines() if line.strip()]


def test_corpus_is_complete():
    assert len(RECORDS) == 418
    kinds = {r["kind"] for r in RECORDS}
    assert kinds == {
        "classify", "beats", "legal_responses_count", "trick_next", "round_result", "round_replay"
    }


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_case(record):
    assert record_mismatches(record) == []
