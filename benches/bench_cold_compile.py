"""Rummikub cold compile: what a first use compiles, kernel by kernel, from an empty Numba cache.

Run it with ``NUMBA_CACHE_DIR`` set to a new, empty folder (otherwise it measures loading
the cache, not compiling).  It listens to Numba's ``numba:compile`` events and prints, per
kernel, the signatures compiled and the thread CPU spent compiling them exclusive of the
kernels they compile in turn, then the process CPU and wall time of the whole workload:

- ``best``: the first default-rules ``best_moves`` of 60 generated positions (threads=1);
- ``warmup``: ``engines.rummikub.warmup()`` (what ``qipai warmup rummikub`` runs);
- ``warmup-then-best``: the warm-up, then ``best``; it also prints how many signatures
  ``best`` still compiled (0 when the warm-up covers it).

    NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python benches/bench_cold_compile.py best

A run takes minutes of CPU (benches/README.md "Cold compile").
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

from numba.core import event

WORKLOADS = ("best", "warmup", "warmup-then-best")


class CompileTimes(event.Listener):
    """Per compiled signature: the kernel, its thread CPU exclusive of nested compiles, and
    whether it was compiled for its own sake (depth 0) or for a caller."""

    def __init__(self) -> None:
        self.open: list[list[float]] = []  # per compile in progress: start CPU, nested CPU
        self.done: list[dict] = []

    def on_start(self, ev: event.Event) -> None:
        self.open.append([time.thread_time(), 0.0])

    def on_end(self, ev: event.Event) -> None:
        start, nested = self.open.pop()
        spent = time.thread_time() - start
        if self.open:
            self.open[-1][1] += spent
        function = ev.data["dispatcher"].py_func
        self.done.append({"kernel": f"{function.__module__}.{function.__qualname__}",
                          "cpu": spent, "own_cpu": spent - nested, "depth": len(self.open)})


def first_best_moves() -> list[str]:
    """The default-rules moves of 60 generated positions, as text (to compare runs)."""
    from engines.rummikub import Position, best_moves
    from engines.rummikub.generate import rummikub_positions

    positions = rummikub_positions(60, seed=11, table_tiles=(10, 80), joker_rate=0.3)
    return [str(m) for m in best_moves([Position.from_json(p) for p in positions], threads=1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload", choices=WORKLOADS)
    parser.add_argument("--json", help="also write every compile and the moves to this file")
    args = parser.parse_args()
    times = CompileTimes()
    event.register("numba:compile", times)
    wall, cpu = time.perf_counter(), time.process_time()
    moves = None
    if args.workload != "best":
        import engines.rummikub

        engines.rummikub.warmup()
    if args.workload != "warmup":
        before = len(times.done)
        moves = first_best_moves()
        if args.workload == "warmup-then-best":
            print(f"after the warm-up best_moves compiled {len(times.done) - before} signatures")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    per_kernel: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for done in times.done:
        per_kernel[done["kernel"]][0] += 1
        per_kernel[done["kernel"]][1] += done["own_cpu"]
    print(f"{args.workload}: wall {wall:.1f} s, process CPU {cpu:.1f} s, "
          f"{len(times.done)} signatures compiled")
    for kernel, (count, own) in sorted(per_kernel.items(), key=lambda kv: -kv[1][1]):
        print(f"{own:8.1f} s CPU {count:4d} signatures  {kernel}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"workload": args.workload, "wall": wall, "cpu": cpu,
                       "compiles": times.done, "moves": moves}, out)


if __name__ == "__main__":
    main()
