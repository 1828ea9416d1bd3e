"""Rummikub table tiles moved (positional, :mod:`engines.rummikub.moved`): what
``Move.tiles_moved`` costs, and how far the least-disturbing move is from the fewest.

Per band of table tiles (``rummikub_positions``, joker rate 0.6, melded), the default
(least-disturbing) moves of ``best_moves``: CPU time of ``Move.tiles_moved`` per move and
the table tiles moved in all.  With ``--ip``, each move's count against the reference
integer programme's third solve (``tests/rummikub/ip_model.py``: the fewest tiles moved
among the moves optimal for the objective that keep the most sets; HiGHS, seconds a
position): the programme's own count must equal ``Move.tiles_moved`` of its move, and the
DP's move is counted where it moves more than that fewest (what the missing tie-break
would gain).

    .venv/bin/python benches/bench_rummikub_moved.py -n 200 --seed 3
    .venv/bin/python benches/bench_rummikub_moved.py -n 25 --seed 1 --bands 10-30 --ip
"""

from __future__ import annotations

import argparse
import runpy
import time
from pathlib import Path

from engines.rummikub import best_moves
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position
from engines.rummikub.rules import Rules

ROOT = Path(__file__).resolve().parents[1]


def _reference():
    load = runpy.run_path(str(ROOT / "tests" / "conftest.py"))["load_helper"]
    load("rummikub", "ip_model")
    return load("rummikub", "ip_reference").reference_move


def band(count: int, seed: int, lo: int, hi: int, ip: bool) -> str:
    raw = list(rummikub_positions(count, seed=seed, table_tiles=(lo, hi), joker_rate=0.6,
                                  initial_meld_rate=0.0))
    positions = [Position.from_json(p) for p in raw]
    moves = best_moves(positions, "tiles")
    _ = moves[0].tiles_moved  # (imports)
    start = time.process_time()
    moved = [m.tiles_moved for m in moves]
    cost = (time.process_time() - start) / len(moves) * 1e6
    tiles = sum(len(p.table_tiles) for p in positions)
    line = f"| {lo}-{hi} | {len(moves)} | {cost:.0f} | {sum(moved)} of {tiles} |"
    if not ip:
        return line
    reference_move = _reference()
    rules = Rules(least_disturbance=True, fewest_tiles_moved=True)
    more = extra = fewest_sum = 0
    start = time.process_time()
    for p, move, count_dp in zip(raw, moves, moved):
        ref, fewest = reference_move(p["table"], p["rack"], True, "tiles", rules)
        if (ref.tiles, ref.value, ref.sets_kept) != (move.tiles, move.value, move.sets_kept):
            raise AssertionError(f"the oracle's optimum or sets kept differ: {p}")
        if ref.tiles_moved != fewest:
            raise AssertionError(f"Move.tiles_moved {ref.tiles_moved} != oracle {fewest}: {p}")
        fewest_sum += fewest
        more += count_dp > fewest
        extra += count_dp - fewest
    ip_s = time.process_time() - start
    return line + f" {fewest_sum} | {more} | {extra} | {ip_s:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="positions per band")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bands", default="20-40,40-60,60-80,80-100",
                        help="table tiles, e.g. 10-30,30-60")
    parser.add_argument("--ip", action="store_true", help="against the integer programme")
    args = parser.parse_args()
    head = "| table tiles | moves | us a move | tiles moved (DP) |"
    if args.ip:
        head += " fewest (IP) | DP moves more | extra tiles | IP s CPU |"
    print(head)
    print("|---" * (head.count("|") - 1) + "|")
    for spec in args.bands.split(","):
        lo, hi = map(int, spec.split("-"))
        print(band(args.n, args.seed, lo, hi, args.ip), flush=True)


if __name__ == "__main__":
    main()
