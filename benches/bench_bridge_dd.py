"""Bridge double-dummy benchmarks: our Cython solver next to DDS 2.9 (through endplay).

Every figure is measured against DDS in the same run, on the same deals,
alternating ours and DDS deal by deal so that machine load hits both alike:

* full DD table per deal: our ``dd_table`` vs endplay ``calc_dd_table`` with DDS
  limited to one thread (``endplay._dds.SetMaxThreads(1)``);
* opening-lead solve (all 13 cards scored): our ``solve_position`` vs endplay
  ``solve_board`` (DDS SolveBoard, solutions = 3);
* batch throughput: our ``dd_tables`` on 1 and 2 threads vs DDS ``calc_all_tables``
  on 2 threads.

The deals are the first ``n`` random deals of ``tests/data/bridge/deals.jsonl``.

    ./run bench benches/bench_bridge_dd.py            # pytest-benchmark
    .venv/bin/python benches/bench_bridge_dd.py -n 30 # side-by-side summary with ratios
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path

import pytest

from engines.bridge import Deal, Seat, Strain, dd_table, dd_tables, solve_position

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


def _alternate(calls: Iterable[tuple[Callable[[], object], Callable[[], object]]]) -> dict:
    """Time each (ours, DDS) pair, DDS first, position by position; summary and ratios."""
    ours, dds, ratios = [], [], []
    for ours_call, dds_call in calls:
        t_dds = _time(dds_call)
        t_ours = _time(ours_call)
        ours.append(t_ours)
        dds.append(t_dds)
        ratios.append(t_ours / t_dds)
    return _summary(ours, dds, ratios)


def compare_tables(n: int) -> dict[str, float]:
    """Median / p90 / mean per-table seconds of ours and DDS (1 thread), and the ratio."""
    _, EDeal, *_rest = _endplay()
    calc_dd_table = _rest[2]
    return _alternate(
        [
            (partial(dd_table, Deal.from_pbn(r["pbn"])), partial(calc_dd_table, EDeal(r["pbn"])))
            for r in DEALS[:n]
        ]
    )


def compare_leads(n: int) -> dict[str, float]:
    """Opening-lead solves (notrump, West on lead, 13 cards scored): ours vs SolveBoard."""
    _, EDeal, Denom, Player, _c, _a, solve_board, _dds = _endplay()
    calls = []
    for record in DEALS[:n]:
        deal = Deal.from_pbn(record["pbn"])
        edeal = EDeal(record["pbn"])
        edeal.first = Player.west
        edeal.trump = Denom.nt
        calls.append(
            (
                partial(solve_position, deal, Strain.NOTRUMP, Seat.WEST),
                lambda e=edeal: list(solve_board(e)),
            )
        )
    return _alternate(calls)


def compare_batch(n: int) -> dict[str, float]:
    """Tables per second: ours on 1 and 2 threads, DDS calc_all_tables on 2 threads."""
    _, EDeal, _d, _p, _c, calc_all_tables, _s, _dds = _endplay()
    deals = [Deal.from_pbn(r["pbn"]) for r in DEALS[:n]]
    edeals = [EDeal(r["pbn"]) for r in DEALS[:n]]
    _dds.SetMaxThreads(2)
    # DDS's CalcAllTables takes at most 32 deals of five strains a call
    t_dds2 = _time(
        lambda: [list(calc_all_tables(edeals[i : i + 32])) for i in range(0, n, 32)]
    )
    _dds.SetMaxThreads(1)
    t_ours1 = _time(dd_tables, deals, 1)
    t_ours2 = _time(dd_tables, deals, 2)
    return {
        "ours_1_thread_tables_per_s": n / t_ours1,
        "ours_2_threads_tables_per_s": n / t_ours2,
        "dds_2_threads_tables_per_s": n / t_dds2,
        "our_2_thread_speedup": t_ours1 / t_ours2,
        "ratio_ours2_over_dds2_time": t_ours2 / t_dds2,
    }


def _summary(ours: list[float], dds: list[float], ratios: list[float]) -> dict[str, float]:
    def p90(xs: list[float]) -> float:
        return sorted(xs)[max(0, round(0.9 * len(xs)) - 1)]

    return {
        "ours_median_s": statistics.median(ours),
        "ours_p90_s": p90(ours),
        "ours_mean_s": statistics.fmean(ours),
        "ours_max_s": max(ours),
        "dds_median_s": statistics.median(dds),
        "dds_p90_s": p90(dds),
        "dds_mean_s": statistics.fmean(dds),
        "median_ratio_ours_over_dds": statistics.median(ratios),
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
    parser.add_argument("-n", type=int, default=20, help="deals (default 20)")
    parser.add_argument("--skip", nargs="*", default=[], choices=("tables", "leads", "batch"))
    args = parser.parse_args()
    for name, fn in (
        ("tables", compare_tables),
        ("leads", compare_leads),
        ("batch", compare_batch),
    ):
        if name in args.skip:
            continue
        result = fn(args.n)
        print(name, json.dumps({k: round(v, 4) for k, v in result.items()}), flush=True)


if __name__ == "__main__":
    main()
