"""Every corpus position: both objectives reach the stored optimum with a legal arrangement."""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.rummikub import Position, best_moves, check_move
from engines.verify import read_jsonl

# A copy of the reference corpus positions.jsonl (README beside it).
PATH = Path(__file__).resolve().parents[1] / "data" / "rummikub" / "positions.jsonl"
RECORDS = [obj for _, obj in read_jsonl(PATH)]
POSITIONS = [Position.from_json(obj, where=obj["id"]) for obj in RECORDS]


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_corpus_optimum_and_legality(objective: str) -> None:
    moves = best_moves(POSITIONS, objective=objective)
    assert len(moves) == len(RECORDS) == 136
    wrong = []
    for obj, pos, move in zip(RECORDS, POSITIONS, moves):
        problems = check_move(pos, move)
        got = move.tiles if objective == "tiles" else move.value
        if problems or got != obj["optimal"][f"max_{objective}"]:
            wrong.append((obj["id"], got, obj["optimal"], problems))
    assert wrong == []


def test_threads_argument_gives_same_answers() -> None:
    few = POSITIONS[:20]
    one = best_moves(few, threads=1)
    two = best_moves(few, threads=2)
    assert [(m.tiles, m.value) for m in one] == [(m.tiles, m.value) for m in two]
