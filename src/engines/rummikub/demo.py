"""The Rummikub section of ``qipai demo``: the best move on the shipped sample position."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, TextIO

from engines.rummikub.position import Position, best_moves
from engines.rummikub.sets import format_meld
from engines.rummikub.tiles import format_tiles, sort_tiles


def sample_records() -> list[dict[str, Any]]:
    """The positions in ``engines/data/rummikub/sample_positions.jsonl``."""
    text = (resources.files("engines.data") / "rummikub" / "sample_positions.jsonl").read_text(
        encoding="utf-8"
    )
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def demo(out: TextIO) -> None:
    record = sample_records()[0]
    pos = Position.from_json(record, where=record["id"])
    print(f"position {record['id']} (initial meld done: {pos.initial_meld_done})", file=out)
    print("table:", file=out)
    for s in pos.table:
        print(f"  {format_tiles(s)}", file=out)
    print(f"rack:  {format_tiles(sort_tiles(pos.rack))}", file=out)
    for objective in ("tiles", "value"):
        move = best_moves([pos], objective=objective)[0]
        reached = move.tiles if objective == "tiles" else move.value
        stored = record["optimal"][f"max_{objective}"]
        print(f"best move for {objective}: {move}  [corpus optimum {stored}: "
              f"{'match' if reached == stored else 'DIFFERS'}]", file=out)
        if objective == "tiles":
            print("table after the move:", file=out)
            for m in move.table:
                print(f"  {format_meld(m)}", file=out)
