"""Rummikub ``best_moves``: the whole batch call against its kernel call, per thread count.

Positions: ``qipai gen rummikub --count N --seed 11 --table-tiles 10-80 --jokers 0.3``.
The kernel entry (``solvers.rummikub.solve_arrays``) is wrapped to time it inside the
call; the process CPU time (kernel threads included) and the wall time of both are
printed, and the share of the call outside the kernel, which is the serial part.

    .venv/bin/python benches/bench_rummikub_batch.py [-n 1500] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import solvers.rummikub as S
from engines.rummikub import Position, best_moves
from engines.rummikub.generate import rummikub_positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=1500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    positions = [Position.from_json(p) for p in rummikub_positions(
        args.count, seed=11, table_tiles=(10, 80), joker_rate=0.3)]
    kernel = S.solve_arrays
    spent = {}

    def timed(*a, **k):
        wall, cpu = time.perf_counter(), time.process_time()
        out = kernel(*a, **k)
        spent["wall"], spent["cpu"] = time.perf_counter() - wall, time.process_time() - cpu
        return out

    S.solve_arrays = timed
    best_moves(positions[:50], threads=1)
    best_moves(positions[:50], threads=2)
    for _ in range(args.repeat):
        for threads in (1, 2):
            wall, cpu = time.perf_counter(), time.process_time()
            best_moves(positions, threads=threads)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{threads} thread(s): {len(positions) / wall:8,.0f} positions/s wall; CPU "
                  f"{cpu:.3f} s, kernel {spent['cpu']:.3f} s, outside the kernel "
                  f"{1 - spent['cpu'] / cpu:5.1%} of CPU, {1 - spent['wall'] / wall:5.1%} of wall",
                  flush=True)


if __name__ == "__main__":
    main()
