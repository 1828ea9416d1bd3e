"""Check corpus positions against their known optimum, in both objectives.

A record is a position in the corpus format with ``optimal.max_tiles`` and
``optimal.max_value`` (``tests/data/rummikub/README.md``).  A record matches
when the best move reaches both optima and each returned arrangement is
legal (every set a run or a group, every tile accounted for).  The common
verify entry points (``docs/architecture.md``, "Verify"): :func:`record_mismatches`
for one record, :func:`verify_file` for a file (all positions solved in one
batch per objective).

>>> record = {"id": "r1", "table": [["R6", "R7", "R8"]], "rack": ["R5", "B2"],
...           "initial_meld_done": True, "optimal": {"max_tiles": 1, "max_value": 5}}
>>> record_mismatches(record)
[]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from engines.rummikub.errors import PositionError
from engines.rummikub.position import Move, Position, best_moves, check_move
from engines.verify import Mismatch, VerifyReport, read_jsonl

__all__ = ["record_mismatches", "verify_file"]

_OBJECTIVES = (("tiles", "max_tiles"), ("value", "max_value"))


def _optimum(record: dict[str, Any], where: str) -> dict[str, Any]:
    optimal = record.get("optimal")
    if not isinstance(optimal, dict) or not {"max_tiles", "max_value"} <= optimal.keys():
        raise PositionError(f"{where}: missing optimal.max_tiles / max_value")
    return optimal


def _mismatches(
    record_id: str, position: Position, optimal: dict[str, Any], moves: dict[str, Move]
) -> list[Mismatch]:
    found = []
    for objective, key in _OBJECTIVES:
        move = moves[objective]
        got = move.tiles if objective == "tiles" else move.value
        if got != optimal[key]:
            found.append(Mismatch(record_id, key, optimal[key], got))
        problems = check_move(position, move)
        if problems:
            found.append(Mismatch(record_id, f"arrangement.{key}", "legal", problems))
    return found


def record_mismatches(record: dict[str, Any]) -> list[Mismatch]:
    """The differences between the engine's best moves and the record's optima."""
    record_id = str(record.get("id", "?"))
    optimal = _optimum(record, f"record {record_id}")
    position = Position.from_json(record, where=f"record {record_id}")
    moves = {obj: best_moves([position], objective=obj)[0] for obj, _ in _OBJECTIVES}
    return _mismatches(record_id, position, optimal, moves)


def verify_file(
    path: str | Path, *, threads: int | None = None, out: TextIO | None = None
) -> VerifyReport:
    """Check every record of a JSON Lines file, printing differences and the summary line.

    All positions are solved in one batch per objective on ``threads`` Numba
    threads; a malformed record raises :class:`PositionError` naming the file and line.
    """
    ids, positions, optima = [], [], []
    for number, obj in read_jsonl(path):
        ids.append(str(obj.get("id", f"line {number}")))
        optima.append(_optimum(obj, f"{path}:{number}"))
        positions.append(Position.from_json(obj, where=f"{path}:{number}"))
    moves = {
        obj: best_moves(positions, objective=obj, threads=threads) for obj, _ in _OBJECTIVES
    }
    report = VerifyReport(out=out or sys.stdout)
    for i, record_id in enumerate(ids):
        chosen = {obj: moves[obj][i] for obj, _ in _OBJECTIVES}
        report.add(record_id, _mismatches(record_id, positions[i], optima[i], chosen))
    report.finish()
    return report
