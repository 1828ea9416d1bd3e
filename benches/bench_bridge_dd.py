"""Bridge double-dummy benchmarks: our Cython solver next to DDS 2.9 (through endplay).

Every figure is measured against DDS in the same run, on the same deals. Tables
and leads go through the one timer of ``qipai bench`` (:mod:`engines.batch.bench`:
the same reference adapters, ours and DDS alternating deal by deal, DDS's table
made cold before each of its runs), so the two commands report the same thing:

* full DD table per deal: our ``dd_table`` vs endplay ``calc_dd_table`` with DDS
  limited to one thread (``endplay._dds.SetMaxThreads(1)``) — ``qipai bench bridge``;
* opening-lead solve (all 13 cards scored, NT, West leads): our ``solve_position``
  vs endplay ``solve_board`` (DDS SolveBoard) — ``qipai bench bridge-lead``;
* batch throughput (here only): our ``dd_tables`` on 1 and 2 threads vs DDS
  ``calc_all_tables`` on 2 threads.

Deals: ``--seeds`` takes ``-n`` deals of ``qipai gen bridge`` per seed; ``--corpus``
the first ``-n`` random deals of ``tests/data/bridge/deals.jsonl``.

    ./run bench benches/bench_bridge_dd.py                          # pytest-benchmark
    .venv/bin/python benches/bench_bridge_dd.py -n 50 --seeds 1 2   # ratios, 100 deals
    .venv/bin/python benches/bench_bridge_dd.py -n 20 --seeds 5 --skip tables batch \
        --repeat 3 --cpu   # leads only, median of 3 runs a deal, CPU time (a shared machine)
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import pytest

from engines.batch import bench
from engines.bridge import Deal, dd_table, dd_tables, solve_position
from engines.bridge.generate import bridge_deals

ROOT = Path(__file__).resolve().parents[1]
DEALS = [
    json.loads(line)
    for line in (ROOT / "tests/data/bridge/deals.jsonl").read_text().splitlines()
    if '"tags":[]' in line.replace(" ", "")
]


def _endplay():
    endplay = pytest.importorskip("endplay") if __name__ != "__main__" else __import__("endplay")
    from endplay import _dds
    from endplay.dds import calc_all_tables, calc_dd_table, solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    _dds.SetMaxThreads(1)
    return endplay, EDeal, Denom, Player, calc_dd_table, calc_all_tables, solve_board, _dds


def _time(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return time.perf_counter() - start


def compare(
    game: str, deals: list[dict[str, Any]], repeat: int = 1, cpu: bool = False
) -> dict[str, float]:
    """``qipai bench`` on ``deals``: per-deal medians and the ours / DDS ratios (each deal's
    time the median of ``repeat`` runs, wall clock or, with ``cpu``, this process's CPU)."""
    clock = time.process_time if cpu else time.perf_counter
    result = bench.run(game, positions=deals, repeat=repeat, clock=clock)
    if result.agree != result.positions:
        raise AssertionError(f"{game}: answers differ on {result.positions - result.agree} deals")
    ratios = result.ratios()
    return {
        "deals": result.positions,
        "ours_median_s": sorted(result.ours)[len(result.ours) // 2],
        "ours_max_s": max(result.ours),
        "dds_median_s": sorted(result.reference or [0])[len(result.ours) // 2],
        "ratio_median": ratios["median"],
        "ratio_total": ratios["total"],
        "ratio_p90": ratios["p90"],
        "ratio_max": ratios["max"],
    }


def _time_both(fn, *args) -> tuple[float, float]:
    """(wall seconds, CPU seconds of every thread of this process) of ``fn(*args)``."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu


def compare_batch(records: list[dict[str, Any]], chunk: int = 25) -> dict[str, float]:
    """Tables per second: ours on 1 and 2 threads, DDS calc_all_tables on 2 threads.

    The three runs alternate chunk by chunk (``chunk`` deals each, the first runner
    rotating), so that a change of the machine's load hits all of them alike; 25 deals
    make 125 jobs of a deal and a strain, so the last one leaves a thread idle for only
    a small part of a chunk.  The CPU seconds of the process (both threads) are summed
    too: on a shared machine the CPU ratio is the work ratio, and the wall ratio also
    shows how each side scales.
    """
    _, EDeal, _d, _p, _c, calc_all_tables, _s, _dds = _endplay()
    n = len(records)
    deals = [Deal.from_pbn(r["pbn"]) for r in records]
    edeals = [EDeal(r["pbn"]) for r in records]
    _dds.SetMaxThreads(2)  # once: DDS's threads and tables then stay allocated, as in use

    def dds2(part: list[Any]) -> None:
        # DDS's CalcAllTables takes at most 32 deals of five strains a call
        for k in range(0, len(part), 32):
            list(calc_all_tables(part[k : k + 32]))

    runners = {
        "dds2": lambda lo, hi: dds2(edeals[lo:hi]),
        "ours2": lambda lo, hi: dd_tables(deals[lo:hi], 2),
        "ours1": lambda lo, hi: dd_tables(deals[lo:hi], 1),
    }
    wall = dict.fromkeys(runners, 0.0)
    cpu = dict.fromkeys(runners, 0.0)
    names = list(runners)
    for turn, lo in enumerate(range(0, n, chunk)):
        for name in names[turn % 3 :] + names[: turn % 3]:
            w, c = _time_both(runners[name], lo, min(n, lo + chunk))
            wall[name] += w
            cpu[name] += c
    _dds.SetMaxThreads(1)
    return {
        "ours_1_thread_tables_per_s": n / wall["ours1"],
        "ours_2_threads_tables_per_s": n / wall["ours2"],
        "dds_2_threads_tables_per_s": n / wall["dds2"],
        "our_2_thread_speedup": wall["ours1"] / wall["ours2"],
        "ratio_ours2_over_dds2_time": wall["ours2"] / wall["dds2"],
        "ratio_ours2_over_dds2_cpu": cpu["ours2"] / cpu["dds2"],
        "cpu_use_ours2": cpu["ours2"] / wall["ours2"],
        "cpu_use_dds2": cpu["dds2"] / wall["dds2"],
    }


# --- pytest-benchmark -------------------------------------------------------------------------


@pytest.mark.parametrize("index", [1, 9, 10])
def test_bench_dd_table_ours(benchmark, index: int) -> None:
    deal = Deal.from_pbn(DEALS[index]["pbn"])
    table = benchmark.pedantic(dd_table, args=(deal,), rounds=3, iterations=1)
    assert table.to_dict() == DEALS[index]["dd"]


@pytest.mark.parametrize("index", [1, 9, 10])
def test_bench_dd_table_dds(benchmark, index: int) -> None:
    _, EDeal, _d, _p, calc_dd_table, *_ = _endplay()
    edeal = EDeal(DEALS[index]["pbn"])
    benchmark.pedantic(calc_dd_table, args=(edeal,), rounds=3, iterations=1)


def test_bench_opening_lead_ours(benchmark) -> None:
    deal = Deal.from_pbn(DEALS[1]["pbn"])
    benchmark.pedantic(solve_position, args=(deal, "NT", "W"), rounds=3, iterations=1)


def test_bench_opening_lead_dds(benchmark) -> None:
    _, EDeal, Denom, Player, _c, _a, solve_board, _ = _endplay()
    edeal = EDeal(DEALS[1]["pbn"])
    edeal.first = Player.west
    edeal.trump = Denom.nt
    benchmark.pedantic(lambda: list(solve_board(edeal)), rounds=3, iterations=1)


def test_bench_batch_two_threads(benchmark) -> None:
    deals = [Deal.from_pbn(DEALS[i]["pbn"]) for i in (1, 9, 10, 15, 16, 17)]
    benchmark.pedantic(dd_tables, args=(deals, 2), rounds=1, iterations=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=20, help="deals per seed, or of the corpus (20)")
    parser.add_argument("--seeds", type=int, nargs="*", default=[], help="qipai gen bridge seeds")
    parser.add_argument("--corpus", action="store_true", help="the corpus's random deals")
    parser.add_argument("--skip", nargs="*", default=[], choices=("tables", "leads", "batch"))
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each side per deal, the median kept (1)"
    )
    parser.add_argument(
        "--cpu", action="store_true", help="CPU time of this process instead of the wall clock"
    )
    args = parser.parse_args()
    records: list[dict[str, Any]] = []
    if args.corpus or not args.seeds:
        records += DEALS[: args.n]
    for seed in args.seeds:
        records += bridge_deals(args.n, seed)
    for name in ("tables", "leads", "batch"):
        if name in args.skip:
            continue
        if name == "batch":
            result = compare_batch(records)
        else:
            game = "bridge" if name == "tables" else "bridge-lead"
            result = compare(game, records, args.repeat, args.cpu)
        print(name, json.dumps({k: round(v, 4) for k, v in result.items()}), flush=True)


if __name__ == "__main__":
    main()
