"""Rummikub ``best_moves`` and ``qipai batch --task rummikub-best``: serial share by threads.

Positions: ``qipai gen rummikub --count N --seed S --table-tiles 10-80 --jokers 0.3`` (the
input of issue #16 with ``-n 3000 --seed 11``).  The kernel entries (``solvers.rummikub.
solve_range``, which every thread of the call runs on its own few positions at a time, and
least disturbance's ``solvers.rummikub._least.least_range`` (a batch's melded positions,
the threads each taking the next) and ``least_position`` (one position: the positions a
relaxation solves)) are wrapped to add up the CPU time of each thread inside them
(``time.thread_time``), so the CPU time outside the kernels is exact however many threads
run and however loaded the machine is.  ``--rules '{"least_disturbance": false}'``: house
rules for both (in each record for the batch); ``--task rummikub-best-value`` (with
``--objective value`` for ``best_moves``) measures the batch's kernel-arrays path, which
least disturbance does not use.  Printed per run: positions a second (wall), the
process's CPU time per position, and the *serial share*: the fraction of the process's CPU
time spent outside the kernel (reading, checking, counting, building results, storing).
By Amdahl's law ``1 / (s + (1 - s) / 16)`` bounds the speed-up of 16 threads; it counts
the batch runner's reading and storing as serial, although they run beside the kernel
(which releases the GIL), so it is a lower bound for the batch.

    .venv/bin/python benches/bench_rummikub_batch.py [-n 3000] [--seed 11] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import threading
import time
from pathlib import Path

import solvers.rummikub as S
import solvers.rummikub._least as least
from engines.batch.runner import run_batch
from engines.rummikub import Position, best_moves
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.rules import Rules


class KernelCPU:
    """CPU seconds spent inside the wrapped kernel, summed over the threads that run it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.total = 0.0

    def wrap(self, fn):
        def timed(*args, **kwargs):
            start = time.thread_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                with self.lock:
                    self.total += spent

        return timed


def measure(label: str, n: int, clock: KernelCPU, call, *args, **kwargs) -> None:
    clock.total = 0.0
    wall, cpu = time.perf_counter(), time.process_time()
    call(*args, **kwargs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    share = 1 - clock.total / cpu
    print(f"{label:28s} {n / wall:7,.0f} positions/s wall, CPU {cpu / n * 1e6:6.1f} us a "
          f"position, outside the kernel {(cpu - clock.total) / n * 1e6:5.1f} us = serial "
          f"share {share:5.1%} (16-thread bound {1 / (share + (1 - share) / 16):4.1f}x)",
          flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--task", default="rummikub-best")
    parser.add_argument("--objective", default="tiles", choices=["tiles", "value"])
    parser.add_argument("--rules", type=json.loads, default=None,
                        help="house rules as JSON (default: the rules document's)")
    args = parser.parse_args()
    records = list(rummikub_positions(args.count, seed=args.seed, table_tiles=(10, 80),
                                      joker_rate=0.3))  # fmt: skip
    positions = [Position.from_json(p) for p in records]
    rules = None if args.rules is None else Rules.from_json(args.rules)
    if args.rules is not None:
        records = [{**p, "rules": args.rules} for p in records]
    clock = KernelCPU()
    S.solve_range = clock.wrap(S.solve_range)
    least.least_range = clock.wrap(least.least_range)
    least.least_position = clock.wrap(least.least_position)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "positions.jsonl"
        path.write_text("".join(json.dumps(p) + "\n" for p in records))
        best_moves(positions[:50], threads=2, rules=rules)
        run_batch([str(path)], args.task, str(Path(tmp) / "warm.sqlite"), jobs=1,
                  progress=False)  # fmt: skip
        for run in range(args.repeat):
            for threads in args.threads:
                measure(f"best_moves -j {threads}", len(positions), clock, best_moves,
                        positions, objective=args.objective, threads=threads,
                        rules=rules)  # fmt: skip
                db = Path(tmp) / f"run-{run}-{threads}.sqlite"
                measure(f"qipai batch -j {threads}", len(positions), clock, run_batch,
                        [str(path)], args.task, str(db), jobs=threads,
                        progress=False)  # fmt: skip


if __name__ == "__main__":
    main()
