"""`qipai batch` end to end against the raw engine call on the same inputs, per task.

For every registered task: generate inputs (``qipai gen``), then, alternating, time

* **raw**: the task's own solve function (the engine's batch entry point plus result
  formatting) on the prepared positions, in the runner's chunks (growing as the runner's
  grow while they solve quickly: :func:`engines.batch.runner._next_size`), nothing else;
* **batch**: :func:`engines.batch.runner.run_batch` into a fresh SQLite database:
  reading, checking, canonical hashing, the same solve calls, storing.

with 1 and with 2 threads (``-j``).  The runner's overhead is ``batch / raw - 1`` in
wall time; the CPU time of the whole process per position is printed too (on a loaded
machine the wall times of the two sides see different loads, CPU time much less so).
While both run, the wall time spent inside the native kernels is recorded (the
union of the intervals in which any kernel entry point of ``solvers.<game>`` is running),
so ``1 - kernel / wall`` is the serial fraction of the whole pipeline: by Amdahl's law
it bounds the speed-up that more cores can give.  Reading and preparing the positions
for the raw call happens once, outside the timing, as the runner does it (a task whose
records the runner reads natively gets the same packed payloads).  The batch side's main
thread CPU per position is printed too, and its share of the run's CPU: what stays serial
when the reading, hashing, solving and writing run on worker threads (the runner's main
thread splits the input into blocks, claims and stores them), so ``1 / share`` bounds the
speed-up on any number of cores.

    .venv/bin/python benches/bench_batch_overhead.py                 # every task
    .venv/bin/python benches/bench_batch_overhead.py shengji-legal --repeat 3
    .venv/bin/python benches/bench_batch_overhead.py rummikub-best --parts   # reading steps
    .venv/bin/python benches/bench_batch_overhead.py shengji-legal --packed  # .qpk input

``--packed``: the batch side reads the same positions from a packed file (``qipai pack``,
:mod:`engines.batch.packed`) instead of the JSON Lines, for the tasks that have one, into a
store of packed blocks (:mod:`engines.batch.store_packed`; ``--store-layout rows``: of rows,
hashed by the canonical text, as the JSON Lines' run).

As the ``qipai`` command does, the bench bounds OpenMP's idle spinning before anything
loads libgomp (:mod:`engines.openmp_env`; set ``GOMP_SPINCOUNT`` to measure another value).

``--parts`` times, instead, the reading steps of each JSON Lines position (CPU time per
position, best of 3; the native reader's steps run on worker threads in a run, the others
on the main thread): reading the lines, turning them into records (the native record
reader for tasks that have one, else ``jsonl_entry``), ``prepare``, the canonical text and
the input hash.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import engines.malloc_env  # (as the qipai command: freed memory kept for reuse)
import engines.openmp_env  # noqa: F401  (as the qipai command: before libgomp loads)
from engines.batch.inputs import BadInput
from engines.batch.positions import positions
from engines.batch.records import Payloads
from engines.batch.runner import BatchSummary, _next_size, run_batch
from engines.batch.tasks import TASKS, get_task
from engines.errors import InputError

_SCRIPT = Path(sys.executable).with_name("qipai")
# (where the package is not installed, e.g. built in place: the CLI's module)
QIPAI = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "engines.cli"]

# task -> (qipai gen arguments, input suffix)
INPUTS = {
    "shengji-legal": (["shengji", "-n", "20000", "--seed", "3"], "jsonl"),
    "rummikub-best": (["rummikub", "-n", "1500", "--seed", "11", "--table-tiles", "10-80",
                       "--jokers", "0.3"], "jsonl"),
    "rummikub-best-value": (["rummikub", "-n", "1500", "--seed", "11", "--table-tiles",
                             "10-80", "--jokers", "0.3"], "jsonl"),
    "shuangkou-legal": (["shuangkou", "-n", "20000", "--seed", "3"], "jsonl"),
    "shuangkou-endgame": (["shuangkou", "-n", "200", "--seed", "3", "--kinds", "endgame",
                           "--cards", "3"], "jsonl"),
    "bridge-table": (["bridge", "-n", "100", "--seed", "9", "--cards", "8", "-f", "jsonl"],
                     "jsonl"),
    "bridge-par": (["bridge", "-n", "4", "--seed", "2026", "--rotate"], "pbn"),
    "bridge-lead": (["bridge", "-n", "16", "--seed", "2026", "-f", "jsonl", "--trump", "NT",
                     "--leader", "W"], "jsonl"),
    "bridge-contracts": (["bridge", "-n", "4", "--seed", "2026"], "pbn"),
}


class KernelClock:
    """Wall time during which at least one wrapped kernel call is running (any thread)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.since = 0.0
        self.total = 0.0
        self.local = threading.local()

    def wrap(self, fn):
        @functools.wraps(fn)
        def timed(*args, **kwargs):
            if getattr(self.local, "depth", 0):
                return fn(*args, **kwargs)
            self.local.depth = 1
            with self.lock:
                if self.active == 0:
                    self.since = time.perf_counter()
                self.active += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self.local.depth = 0
                with self.lock:
                    self.active -= 1
                    if self.active == 0:
                        self.total += time.perf_counter() - self.since

        return timed

    def install(self, game: str) -> list[str]:
        """Wrap every public callable of ``solvers.<game>``; return their names."""
        module = importlib.import_module(f"solvers.{game}")
        names = []
        for name in getattr(module, "__all__", dir(module)):
            obj = getattr(module, name, None)
            if callable(obj) and not isinstance(obj, type) and not name.startswith("_"):
                setattr(module, name, self.wrap(obj))
                names.append(name)
        return names


def generate(task: str, folder: Path, count: int | None = None) -> Path:
    args, suffix = INPUTS[task]
    if count is not None:
        args = [str(count) if i and args[i - 1] == "-n" else a for i, a in enumerate(args)]
    path = folder / f"{task}.{suffix}"
    subprocess.run([*QIPAI, "gen", *args, "-o", str(path)], check=True)
    return path


def packed(task: str, path: Path) -> Path:
    """The positions of ``path`` as a packed file (``qipai pack``)."""
    out = path.with_suffix(".qpk")
    subprocess.run([*QIPAI, "pack", "--task", task, str(path), "-o", str(out)], check=True,
                   stderr=subprocess.DEVNULL)  # fmt: skip
    return out


def prepared(task_name: str, path: Path) -> list[Any]:
    """The payloads the runner hands the task's solve (packed where it reads them natively)."""

    def refuse(item: BadInput) -> None:
        raise InputError(str(item))

    summary = BatchSummary(task=task_name)
    task = get_task(task_name)
    found = positions([str(path)], task, summary, refuse)
    payloads = [payload for _source, _line, _id, payload, _text in found]
    # (in the form the runner hands the solve: one buffer a chunk where the task takes it)
    return Payloads.of(payloads) if task.payload_columns else payloads


def time_raw(task_name: str, payloads: list[Any], threads: int, clock: KernelClock):
    task = get_task(task_name)
    size = grown = task.chunk_size
    clock.total = 0.0
    start, cpu = time.perf_counter(), time.process_time()
    n = len(payloads)
    cut = payloads.part if isinstance(payloads, Payloads) else lambda lo, hi: payloads[lo:hi]
    lo = 0
    while lo < n:
        hi = min(n, lo + grown)
        spent = time.perf_counter()
        task.solve(cut(lo, hi), threads)
        if task.native_threads:  # the runner's chunks grow so (runner._NativeThreads)
            grown = _next_size(grown, size, hi - lo, time.perf_counter() - spent)
        lo = hi
    return time.perf_counter() - start, clock.total, time.process_time() - cpu


def time_batch(task_name: str, path: Path, threads: int, clock: KernelClock, folder: Path,
               store_layout: str = "auto"):  # fmt: skip
    db = folder / f"{task_name}-{threads}-{time.monotonic_ns()}.sqlite"
    clock.total = 0.0
    start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
    summary = run_batch([str(path)], task_name, str(db), jobs=threads, progress=False,
                        store_layout=store_layout)  # fmt: skip
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    main = time.thread_time() - main  # the main thread's CPU: the serial part of the run
    db.unlink()
    return wall, clock.total, cpu, main, summary


def parts(task_name: str, path: Path) -> None:
    """Print the CPU time per position of each step of reading a JSON Lines input, a block
    at a time as the runner reads them (a task with a record layout: blocks of text split
    natively; others: 1,024 lines).  What a block makes is dropped before the next: a list
    of every record kept alive would slow each step by the collector's passes over it."""
    from engines.batch.inputs import jsonl_entry
    from engines.batch.positions import _text_blocks
    from solvers._batch_hashes import text_digests

    task = get_task(task_name)
    layout = task.records() if task.records is not None else None
    best: dict[str, float] = {}
    count = 0
    for _ in range(3):
        spent: dict[str, float] = {}

        def step(name, fn, *args, spent=spent):
            cpu = time.process_time()
            out = fn(*args)
            spent[name] = spent.get(name, 0.0) + time.process_time() - cpu
            return out

        if layout is not None:
            with path.open(encoding="utf-8") as handle:
                blocks = step("read text", lambda h: list(_text_blocks(h)), handle)
            count = sum(block.count("\n") for block in blocks)
            for block in blocks:
                if hasattr(layout, "scan_text"):
                    texts = step("native record reader", layout.scan_text, block)[1]
                else:  # a reader of lists of lines
                    lines = block.splitlines(keepends=True)
                    texts = [t for t in step("native record reader", layout.scan, lines)[1] if t]
                step("input hash", text_digests, texts)
        else:
            lines = step("read lines", lambda: path.read_text(encoding="utf-8")
                         .splitlines(keepends=True))  # fmt: skip
            count = len(lines)
            for lo in range(0, len(lines), 1024):
                block = lines[lo : lo + 1024]
                records = step("jsonl_entry (JSON)", lambda b: [
                    jsonl_entry(str(path), i, x) for i, x in enumerate(b, 1)], block)
                payloads = step("prepare", lambda rs: [task.prepare(r.obj) for r in rs], records)
                texts = step("canonical text", lambda ps: [task.json_text(p) for p in ps],
                             payloads)  # fmt: skip
                step("input hash", text_digests, texts)
        for name, seconds in spent.items():
            best[name] = min(best.get(name, seconds), seconds)
    print(f"{task_name:20s} " + ", ".join(f"{k} {v / count * 1e6:.2f} us"
                                          for k, v in best.items()), flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="*", help="task names (default: all in INPUTS)")
    parser.add_argument("--repeat", type=int, default=2, help="alternating runs (best kept)")
    parser.add_argument("--parts", action="store_true",
                        help="time the main thread's reading steps instead")  # fmt: skip
    parser.add_argument("--packed", action="store_true",
                        help="the batch side reads a packed file (qipai pack) of the inputs")
    parser.add_argument("--store-layout", choices=("auto", "rows"), default="auto",
                        help="with --packed: packed blocks (auto) or rows")  # fmt: skip
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2],
                        help="thread counts (-j) to run each side with")  # fmt: skip
    parser.add_argument("--count", type=int, default=None,
                        help="positions to generate (default: each task's own, INPUTS)")
    args = parser.parse_args()
    names = args.tasks or [t for t in INPUTS if t in TASKS]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name in names:
            clock = KernelClock()
            clock.install(get_task(name).game)
            path = generate(name, folder, args.count)
            if args.parts:
                if INPUTS[name][1] == "jsonl":
                    parts(name, path)
                continue
            try:
                payloads = prepared(name, path)
            except ValueError as exc:  # InputError: generated deals lack a task's fields
                print(f"{name:20s} skipped: {exc}", flush=True)
                continue
            n = len(payloads)
            if args.packed and get_task(name).records is not None:
                path = packed(name, path)
            time_raw(name, payloads, max(args.threads), clock)  # warm-up
            rows = {}
            for threads in args.threads:
                best = {"raw": (float("inf"), 0.0, 0.0),
                        "batch": (float("inf"), 0.0, 0.0, 0.0)}  # fmt: skip
                for _ in range(args.repeat):
                    raw = time_raw(name, payloads, threads, clock)
                    batch = time_batch(name, path, threads, clock, folder,
                                       args.store_layout)[:4]  # fmt: skip
                    best["raw"] = min(best["raw"], raw)
                    best["batch"] = min(best["batch"], batch)
                rows[threads] = best
            for threads, best in rows.items():
                (raw_w, raw_k, raw_c), (bat_w, bat_k, bat_c, bat_m) = best["raw"], best["batch"]
                kind = path.suffix[1:]
                print(f"{name:20s} {kind:5s} -j {threads}  {n:6d} positions  "
                      f"raw {n / raw_w:10,.1f}/s  "
                      f"batch {n / bat_w:10,.1f}/s  runner overhead {bat_w / raw_w - 1:+6.1%}  "
                      f"outside kernels: raw {1 - raw_k / raw_w:5.1%} batch "
                      f"{1 - bat_k / bat_w:5.1%}  CPU per position: raw "
                      f"{raw_c / n * 1e6:,.2f} us batch {bat_c / n * 1e6:,.2f} us "
                      f"({bat_c / raw_c - 1:+.0%}), main thread {bat_m / n * 1e6:,.2f} us "
                      f"({bat_m / bat_c:.0%} of the run's CPU)", flush=True)


if __name__ == "__main__":
    main()
