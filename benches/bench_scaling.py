"""Throughput by thread count: issue #16's table (DD tables, Rummikub best moves, 升级 legality).

The three batch entry points of the issue, each on the same input at every thread count of
``--threads``, best of ``--repeat`` (the counts alternate within a repeat), after a warm-up
call outside the timing:

* ``engines.bridge.dd_tables`` on ``--deals`` random deals (``qipai gen bridge --seed
  --bridge-seed``), with DDS's ``CalcAllTables`` (endplay, ``SetMaxThreads(threads)``) on the
  same deals beside it when endplay is installed; the tables must agree;
* ``engines.rummikub.best_moves`` on ``qipai gen rummikub --count 3000 --seed 11
  --table-tiles 10-80 --jokers 0.3``;
* the four 升级 entry points on their corpus cases tiled ``--tile`` times (the issue's rows:
  the 170 ``follow_legal`` cases tiled 400×, 68,000 rows, one ``TrumpContext`` per row),
  the whole call and its bare kernel (:mod:`bench_shengji_arrays`).

Printed per entry point and thread count: items a second (wall), the speed-up over the
first thread count, and the CPU use (process CPU ÷ wall: how many cores were busy).  On a
machine with fewer cores than a thread count the figure says nothing about scaling.

    .venv/bin/python benches/bench_scaling.py --threads 1 4 16
    .venv/bin/python benches/bench_scaling.py --threads 1 2 --deals 16 --skip dds
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

import numba

import engines.malloc_env  # (as the qipai command: freed memory kept for reuse)
import engines.openmp_env  # noqa: F401  (as the qipai command: before libgomp loads)
from bench_shengji_arrays import cases as shengji_cases
from engines.bridge import Deal, dd_tables
from engines.bridge.generate import bridge_deals  # (neither loads the native solver)
from engines.rummikub import Position, best_moves
from engines.rummikub.generate import rummikub_positions


def _timed(call: Callable[[], Any]) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def _report(name: str, items: int, unit: str, runs: dict[int, tuple[float, float]]) -> None:
    first = next(iter(runs.values()))[0]
    for threads, (wall, cpu) in runs.items():
        print(f"{name:34s} {threads:3d} threads  {items / wall:14,.1f} {unit}/s  "
              f"speed-up {first / wall:5.2f}x  cores busy {cpu / wall:5.2f}", flush=True)


def _best_by_threads(calls: Callable[[int], Callable[[], Any]], threads: list[int], repeat: int,
                     settle: bool = False) -> dict[int, tuple[float, float]]:  # fmt: skip
    """Best wall time (and its CPU time) per thread count, the counts alternating.

    ``settle``: an untimed call at the same count before each timed one.  GNU OpenMP ends
    the threads a smaller team leaves idle and starts new ones for the next larger team
    (on 2 cores a 4-thread call after a 2-thread call took 235 µs against 154 µs after a
    4-thread call), a cost of alternating the counts, not of a batch call at one count.
    """
    best: dict[int, tuple[float, float]] = {}
    for _ in range(repeat):
        for count in threads:
            if settle:
                calls(count)()
            run = _timed(calls(count))
            if count not in best or run[0] < best[count][0]:
                best[count] = run
    return best


def bridge(deal_count: int, seed: int, threads: list[int], repeat: int, dds: bool) -> None:
    records = list(bridge_deals(deal_count, seed=seed))
    deals = [Deal.from_pbn(r["pbn"]) for r in records]
    dd_tables(deals[:2], threads[-1])
    ours = _best_by_threads(lambda t: lambda: dd_tables(deals, t), threads, repeat)
    _report("dd_tables (qipai)", len(deals), "tables", ours)
    if not dds:
        return
    try:
        from endplay import _dds
        from endplay.dds import calc_all_tables
        from endplay.types import Deal as EDeal
    except ImportError:
        print("dd_tables: endplay is not installed, DDS not measured", flush=True)
        return
    edeals = [EDeal(r["pbn"]) for r in records]

    def dds_tables(count: int) -> Callable[[], Any]:
        def run() -> list[Any]:
            _dds.SetMaxThreads(count)
            # DDS's CalcAllTables takes at most 32 deals of five strains a call
            return [t for k in range(0, len(edeals), 32) for t in calc_all_tables(edeals[k:k + 32])]

        return run

    theirs = _best_by_threads(dds_tables, threads, repeat)
    _report("CalcAllTables (DDS 2.9, endplay)", len(deals), "tables", theirs)
    for count in threads:
        print(f"{'ours / DDS wall time':34s} {count:3d} threads  "
              f"{ours[count][0] / theirs[count][0]:5.2f}", flush=True)
    mine = [t.to_dict() for t in dd_tables(deals, threads[-1])]
    reference = dds_tables(threads[-1])()
    _check_tables(mine, reference)


def _check_tables(mine: list[dict[str, Any]], reference: list[Any]) -> None:
    """Every table of ours equals DDS's, read by ``qipai bench``'s reference adapter."""
    from engines.bridge.bench import bridge_reference

    as_ours = bridge_reference().answer
    for index, (table, theirs) in enumerate(zip(mine, reference, strict=True)):
        if table != as_ours(theirs):
            raise AssertionError(f"deal {index}: ours {table}, DDS {as_ours(theirs)}")
    print(f"{'tables equal to DDS':34s} {len(mine)} deals", flush=True)


def rummikub(count: int, seed: int, threads: list[int], repeat: int) -> None:
    records = rummikub_positions(count, seed=seed, table_tiles=(10, 80), joker_rate=0.3)
    positions = [Position.from_json(p) for p in records]
    best_moves(positions[:50], threads=threads[-1])
    runs = _best_by_threads(lambda t: lambda: best_moves(positions, threads=t), threads, repeat)
    _report("best_moves", len(positions), "positions", runs)


def _on_threads(count: int, call: Callable[[], Any]) -> Callable[[], Any]:
    """``call`` with Numba's pool limited to ``count`` threads (the bare kernels take the
    count only to size their chunks; the engine's calls limit the pool themselves)."""

    def run() -> Any:
        old = numba.get_num_threads()
        numba.set_num_threads(min(count, numba.config.NUMBA_NUM_THREADS))
        try:
            return call()
        finally:
            numba.set_num_threads(old)

    return run


def shengji(tile: int, threads: list[int], repeat: int, chunk: int) -> None:
    by_threads = {
        t: {name: (rows, whole, _on_threads(t, kernel))
            for name, (rows, whole, kernel) in shengji_cases(tile, t, chunk).items()}
        for t in threads
    }  # fmt: skip
    for name, (rows, _whole, _kernel) in by_threads[threads[0]].items():
        for part, index in (("whole call", 1), ("kernel alone", 2)):
            for t in threads:
                by_threads[t][name][index]()  # warm-up (compiles the serial and parallel kernels)
            runs = _best_by_threads(lambda t, n=name, i=index: by_threads[t][n][i], threads,
                                    repeat, settle=True)  # fmt: skip
            _report(f"{name}, {part}", rows, "rows", runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--deals", type=int, default=128, help="random deals for dd_tables")
    parser.add_argument("--bridge-seed", type=int, default=16)
    parser.add_argument("--positions", type=int, default=3000, help="Rummikub positions")
    parser.add_argument("--tile", type=int, default=400, help="升级 corpus cases tiled")
    parser.add_argument("--chunk", type=int, default=0,
                        help="rows per chunk of the bare 升级 kernels (0: theirs)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--bridge-repeat", type=int, default=1)
    parser.add_argument("--skip", nargs="*", default=[],
                        choices=("bridge", "dds", "rummikub", "shengji"))  # fmt: skip
    args = parser.parse_args()
    print(f"cores this process may run on: {len(os.sched_getaffinity(0))}", flush=True)
    if "shengji" not in args.skip:
        shengji(args.tile, args.threads, args.repeat * 3, args.chunk)
    if "rummikub" not in args.skip:
        rummikub(args.positions, 11, args.threads, args.repeat)
    if "bridge" not in args.skip:
        bridge(args.deals, args.bridge_seed, args.threads, args.bridge_repeat,
               "dds" not in args.skip)  # fmt: skip


if __name__ == "__main__":
    main()
