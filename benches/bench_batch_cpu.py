"""CPU per position of `run_batch` (``-j 1`` unless ``--jobs``), whole process and main thread,
and the bytes stored a position: for A/B runs of two builds on one input (run it from each
tree in turn).

    .venv/bin/qipai gen shengji -n 20000 --seed 3 -o sj.jsonl
    .venv/bin/python benches/bench_batch_cpu.py shengji-legal sj.jsonl --repeat 3

Each run goes into a fresh database in a temporary folder; one warm-up run goes first (into
memory).  As the ``qipai`` command, the script bounds OpenMP's idle spinning before libgomp
loads (``engines.openmp_env``); set ``GOMP_SPINCOUNT`` to compare another value.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import engines.malloc_env  # (as the qipai command: freed memory kept for reuse)
import engines.openmp_env  # noqa: F401  (as the qipai command: before libgomp loads)
from engines.batch.runner import run_batch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("input")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    run_batch([args.input], args.task, ":memory:", jobs=args.jobs, progress=False,
              on_bad_input=None)  # fmt: skip
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.repeat):
            db = Path(folder) / f"run{i}.sqlite"
            cpu, main_cpu, wall = time.process_time(), time.thread_time(), time.perf_counter()
            summary = run_batch([args.input], args.task, str(db), jobs=args.jobs,
                                progress=False, on_bad_input=None)  # fmt: skip
            cpu, main_cpu = time.process_time() - cpu, time.thread_time() - main_cpu
            wall = time.perf_counter() - wall
            n = summary.positions
            print(f"{args.task}: CPU {cpu / n * 1e6:.2f} us a position (main thread "
                  f"{main_cpu / n * 1e6:.2f}), wall {wall / n * 1e6:.2f} us, stored "
                  f"{os.path.getsize(db) / n:.0f} B a position", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
