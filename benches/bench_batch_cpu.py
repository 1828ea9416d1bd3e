"""CPU per position of `run_batch` (``-j 1`` unless ``--jobs``), whole process and each of
the runner's threads, and the bytes stored a position: for A/B runs of two builds on one
input (``--ab``, or run it from each tree in turn).

    .venv/bin/qipai gen shengji -n 20000 --seed 3 -o sj.jsonl
    .venv/bin/python benches/bench_batch_cpu.py shengji-legal sj.jsonl --repeat 3
    .venv/bin/python benches/bench_batch_cpu.py shengji-legal sj.qpk --raw --repeat 3
    .venv/bin/python benches/bench_batch_cpu.py shengji-legal sj.qpk --raw \\
        --ab /path/to/main/src src --rounds 4

Each run goes into a fresh database in a temporary folder; one warm-up run goes first (into
memory).  Each thread's CPU is read where it ends (``getrusage(RUSAGE_THREAD)``), by the
name the runner gives it: ``main`` (the runner's thread: reading the file, claims, the
store's open and close), ``read`` (the reading threads: checks, compact forms, hashes, a
run's repeats), ``solve`` (the solving threads: the engine's call and its chunk's
payloads), ``store`` (the store thread: a commit's columns encoded and written); ``rest``
is the process's CPU outside those (the engine's OpenMP threads at ``-j 2`` and more).
``--raw`` times the task's own solve call on the same positions (``bench_batch_overhead``'s
raw side) before each run in the same process: ``own`` is the run's CPU less the raw
call's, what issue #16's item 3 keeps under 30 % of the raw call for the quick tasks.

``--ab SRC_A SRC_B``: one process a run (as the ``qipai`` command), the two source trees
alternating A B, then B A, for ``--rounds``; prints each run and the medians and paired
ratios (B ÷ A, geometric mean of the rounds) of each figure.

As the ``qipai`` command, the script bounds OpenMP's idle spinning before libgomp loads
(``engines.openmp_env``); set ``GOMP_SPINCOUNT`` to compare another value.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import engines.malloc_env  # (as the qipai command: freed memory kept for reuse)
import engines.openmp_env  # noqa: F401  (as the qipai command: before libgomp loads)
from engines.batch.runner import run_batch

try:
    import resource

    _RUSAGE_THREAD = resource.RUSAGE_THREAD  # (Linux)
except (ImportError, AttributeError):
    _RUSAGE_THREAD = None

FIGURES = ("cpu", "main", "read", "solve", "store", "rest", "raw", "own")
# the runner's thread names (ThreadPoolExecutor prefixes) -> the figures above
_THREADS = {"qipai-read": "read", "qipai-solve": "solve", "qipai-store": "store"}
_spent: dict[str, float] = defaultdict(float)


def _thread_cpu() -> float:
    if _RUSAGE_THREAD is None:
        return time.thread_time()
    usage = resource.getrusage(_RUSAGE_THREAD)
    return usage.ru_utime + usage.ru_stime


def _count_thread_cpu() -> None:
    """Every thread adds its CPU to ``_spent[name]`` as it ends."""
    run = threading.Thread.run

    def counted(self: threading.Thread) -> None:
        try:
            run(self)
        finally:
            name = _THREADS.get(self.name.split("_")[0])
            if name:
                _spent[name] += _thread_cpu()

    threading.Thread.run = counted  # type: ignore[method-assign]


def _raw_call(task: str, path: str, jobs: int):
    """A function timing the task's raw solve of ``path``'s positions (process CPU)."""
    import bench_batch_overhead as overhead  # (beside this script)

    payloads = overhead.prepared(task, Path(path))
    clock = overhead.KernelClock()
    return lambda: overhead.time_raw(task, payloads, jobs, clock)[2]


def measure(args: argparse.Namespace) -> list[dict[str, float]]:
    """The runs of one process: a warm-up, then ``--repeat`` timed runs."""
    _count_thread_cpu()
    run_batch([args.input], args.task, ":memory:", jobs=args.jobs, progress=False,
              on_bad_input=None)  # fmt: skip
    raw_call = _raw_call(args.task, args.input, args.jobs) if args.raw else None
    out = []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(args.repeat):
            raw = raw_call() if raw_call else math.nan
            db = Path(folder) / f"run{i}.sqlite"
            _spent.clear()
            cpu, main, wall = time.process_time(), _thread_cpu(), time.perf_counter()
            summary = run_batch([args.input], args.task, str(db), jobs=args.jobs,
                                progress=False, on_bad_input=None)  # fmt: skip
            cpu, main = time.process_time() - cpu, _thread_cpu() - main
            wall = time.perf_counter() - wall
            time.sleep(0.05)  # (the pools' threads end and count themselves)
            us = 1e6 / summary.positions
            row = {"cpu": cpu * us, "main": main * us, "wall": wall * us,
                   **{k: _spent.get(k, 0.0) * us for k in ("read", "solve", "store")},
                   "raw": raw * us, "bytes": os.path.getsize(db) / summary.positions,
                   "load": os.getloadavg()[0]}  # fmt: skip
            row["rest"] = row["cpu"] - sum(row[k] for k in ("main", "read", "solve", "store"))
            row["own"] = row["cpu"] - row["raw"]
            out.append(row)
    return out


def _line(task: str, row: dict[str, float], label: str = "") -> str:
    figures = " ".join(f"{k} {row[k]:.3f}" for k in FIGURES if not math.isnan(row[k]))
    share = f" own/raw {row['own'] / row['raw']:.2f}" if not math.isnan(row["raw"]) else ""
    return (f"{label}{task}: us a position: {figures}{share}; wall {row['wall']:.2f}, "
            f"stored {row['bytes']:.0f} B a position, load {row['load']:.1f}")  # fmt: skip


def ab(args: argparse.Namespace) -> None:
    """One process a run, the trees alternating (A B, then B A), then medians and ratios."""
    rows: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    child = [sys.executable, __file__, args.task, args.input, "--jobs", str(args.jobs),
             "--repeat", "1", "--json"] + (["--raw"] if args.raw else [])  # fmt: skip
    for r in range(args.rounds):
        for label in ("A", "B") if r % 2 == 0 else ("B", "A"):
            src = args.ab[0] if label == "A" else args.ab[1]
            env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
            done = subprocess.run(child, env=env, check=True, capture_output=True, text=True)
            row = json.loads(done.stdout.splitlines()[-1])[0]
            rows[label].append(row)
            print(_line(args.task, row, f"round {r} {label} "), flush=True)
    for k in FIGURES:
        a, b = [x[k] for x in rows["A"]], [x[k] for x in rows["B"]]
        if any(math.isnan(v) for v in a + b):
            continue
        ratios = [y / x for x, y in zip(a, b) if x > 0 and y > 0]
        paired = math.exp(statistics.fmean(map(math.log, ratios))) if ratios else math.nan
        print(f"{k}: median A {statistics.median(a):.3f}, B {statistics.median(b):.3f} us a "
              f"position; B/A paired {paired:.3f} ({min(ratios, default=math.nan):.3f}-"
              f"{max(ratios, default=math.nan):.3f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("input")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--raw", action="store_true",
                        help="time the task's raw solve before each run (own = run - raw)")
    parser.add_argument("--ab", nargs=2, metavar=("SRC_A", "SRC_B"),
                        help="alternate processes of two source trees (PYTHONPATH)")
    parser.add_argument("--rounds", type=int, default=4, help="with --ab")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ab:
        ab(args)
    elif args.json:
        print(json.dumps(measure(args)))
    else:
        for row in measure(args):
            print(_line(args.task, row), flush=True)


if __name__ == "__main__":
    main()
