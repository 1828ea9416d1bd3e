"""Rummikub best-move speed: our Numba DP next to ``rummikub-solver`` (ILP, HiGHS backend).

Positions are generated per band: a table of about 0, 20, 40, 60 or 80 tiles made
of random valid runs and groups, a 14-tile rack from the rest; the "jokers"
variant puts one joker into a table run (in place of a tile) and one on the rack.
Both solvers answer the same positions in the same run, alternating, after
warm-up (Numba compilation and the package's one-off model build are excluded).
We time the public ``best_move`` (parsing, validation, reconstruction included)
and ``RuleSet.solve(state, SolverMode.TILE_COUNT)``.

    ./run bench benches/bench_rummikub.py            # pytest-benchmark
    .venv/bin/python benches/bench_rummikub.py -n 30  # side-by-side table with ratios
    .venv/bin/python benches/bench_rummikub.py --corpus --best-of 5  # worst corpus positions

``--best-of K`` times every position K times per solver and keeps the fastest (worst-case
figures on a shared machine); ``--corpus`` times the 136 corpus positions, both objectives,
with the default solver and with the plain exact DP (``beam=0``, no bounding passes).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from functools import cache, partial
from pathlib import Path

import pytest

import solvers.rummikub
from engines.rummikub import best_move, best_moves
from engines.rummikub.position import Position
from solvers.rummikub import solve_arrays, solve_position, warmup

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "rummikub" / "positions.jsonl"

BANDS = (0, 20, 40, 60, 80)
COLOURS = "KROB"


def _candidate_sets() -> list[list[str]]:
    sets = []
    for c in COLOURS:
        for s in range(1, 14):
            for length in (3, 4, 5):
                if s + length - 1 <= 13:
                    sets.append([f"{c}{n}" for n in range(s, s + length)])
    for n in range(1, 14):
        for skip in COLOURS:
            sets.append([f"{c}{n}" for c in COLOURS if c != skip])
        sets.append([f"{c}{n}" for c in COLOURS])
    return sets


SETS = _candidate_sets()


def make_position(rng: random.Random, table_size: int, jokers: bool,
                  sets: list[list[str]] | None = None, tiles: list[str] | None = None) -> dict:
    """A melded position with about ``table_size`` table tiles and a 14-tile rack (drawn
    from ``sets`` and two copies of ``tiles``: by default the standard tile set's)."""
    left = {t: 2 for t in tiles or [f"{c}{n}" for c in COLOURS for n in range(1, 14)]}
    table: list[list[str]] = []
    size = 0
    tries = 0
    while size < table_size and tries < 10_000:
        tries += 1
        s = rng.choice(sets or SETS)
        if size + len(s) > table_size + 2 or any(left[t] == 0 for t in s):
            continue
        for t in s:
            left[t] -= 1
        table.append(list(s))
        size += len(s)
    rack_jokers = 0
    if jokers:
        runs = [s for s in table if len({t[0] for t in s}) == 1]
        if runs:
            run = rng.choice(runs)
            k = rng.randrange(1, len(run) - 1)  # inside the run: the package handles that
            left[run[k]] += 1
            run[k] = "J"
        else:
            rack_jokers += 1
        rack_jokers += 1
    pool = [t for t, n in left.items() for _ in range(n)]
    rack = rng.sample(pool, 14 - rack_jokers) + ["J"] * rack_jokers
    return {"table": table, "rack": rack, "initial_meld_done": True}


@cache
def band_positions(table_size: int, jokers: bool, n: int = 20, seed: int = 11) -> list[dict]:
    rng = random.Random(seed * 1000 + table_size * 10 + int(jokers))
    return [make_position(rng, table_size, jokers) for _ in range(n)]


class Stock:
    """``rummikub-solver`` with the HiGHS backend on our positions."""

    def __init__(self) -> None:
        from rummikub_solver import MILPSolver, RuleSet, SolverMode

        self.ruleset = RuleSet(solver_backend=MILPSolver.HIGHS)
        self.mode = SolverMode.TILE_COUNT
        # package tile ids: colours BLACK, BLUE, ORANGE, RED, numbers 1..13; joker 53
        order = {"K": 0, "B": 1, "O": 2, "R": 3}
        self.ids = {f"{c}{n}": order[c] * 13 + n for c in COLOURS for n in range(1, 14)}
        self.ids["J"] = 53

    def solve(self, pos: dict):
        state = self.ruleset.new_game()
        state.add_table(*(self.ids[t] for s in pos["table"] for t in s))
        state.add_rack(*(self.ids[t] for t in pos["rack"]))
        state.initial = False
        return self.ruleset.solve(state, self.mode)


def ours(pos: dict):
    return best_move(pos["table"], pos["rack"], initial_meld_done=True)


def _warm_up(stock: Stock | None) -> None:
    warmup()
    p = band_positions(40, True, 2)[0]
    for _ in range(2):
        ours(p)
        if stock is not None:
            stock.solve(p)


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _timed(fn, pos, best_of: int) -> float:
    best = float("inf")
    for _ in range(best_of):
        t = time.perf_counter()
        fn(pos)
        best = min(best, time.perf_counter() - t)
    return best


def side_by_side(n: int = 20, with_stock: bool = True, best_of: int = 1) -> list[dict]:
    """Per band: median/p90/max of ours and the package's per-solve time (seconds)."""
    stock = Stock() if with_stock else None
    _warm_up(stock)
    rows = []
    for jokers in (False, True):
        for size in BANDS:
            a, b = [], []
            for pos in band_positions(size, jokers, n):
                a.append(_timed(ours, pos, best_of))
                if stock is not None:
                    b.append(_timed(stock.solve, pos, best_of))
            row = {"table": size, "jokers": jokers, "n": n,
                   "ours_median": statistics.median(a), "ours_p90": _pct(a, 0.9),
                   "ours_max": max(a)}
            if b:
                row.update(stock_median=statistics.median(b), stock_p90=_pct(b, 0.9),
                           ratio=statistics.median(b) / statistics.median(a))
            rows.append(row)
    return rows


def format_rows(rows: list[dict]) -> str:
    out = ["| table | jokers | n | ours median | ours p90 | ours max | stock median | stock p90 "
           "| median ratio |", "|---:|:---:|---:|---:|---:|---:|---:|---:|---:|"]
    nan = float("nan")
    for r in rows:
        out.append(
            f"| {r['table']} | {'yes' if r['jokers'] else 'no'} | {r['n']} | "
            f"{r['ours_median'] * 1e3:.2f} ms | {r['ours_p90'] * 1e3:.2f} ms | "
            f"{r['ours_max'] * 1e3:.1f} ms | {r.get('stock_median', nan) * 1e3:.1f} ms | "
            f"{r.get('stock_p90', nan) * 1e3:.1f} ms | {r.get('ratio', nan):.0f}x |"
        )
    return "\n".join(out)


def _corpus_move(obj: dict, objective: str):
    return best_move(obj["table"], obj["rack"], obj["initial_meld_done"], objective)


def corpus_times(best_of: int = 5) -> str:
    """Per corpus position and objective: our best-of-K time, default vs plain exact DP."""
    from engines.verify import read_jsonl

    warmup()
    records = [obj for _, obj in read_jsonl(CORPUS)]
    rows = []
    # best_move calls solve_position, best_moves solve_arrays: both take beam=0 for the plain DP
    configs = {"default": (solve_arrays, solve_position),
               "plain (beam=0)": (partial(solve_arrays, beam=0), partial(solve_position, beam=0))}
    times: dict[str, list[float]] = {name: [] for name in configs}
    for obj in records:
        for objective in ("tiles", "value"):
            row = [obj["id"], objective, sum(map(len, obj["table"])), obj["rack"].count("J")
                   + sum(s.count("J") for s in obj["table"])]
            for name, (batch, single) in configs.items():
                # what the engine calls
                solvers.rummikub.solve_arrays, solvers.rummikub.solve_position = batch, single
                try:
                    t = _timed(partial(_corpus_move, objective=objective), obj, best_of)
                finally:
                    solvers.rummikub.solve_arrays = solve_arrays
                    solvers.rummikub.solve_position = solve_position
                times[name].append(t)
                row.append(t)
            rows.append(row)
    out = [f"corpus: {len(records)} positions x 2 objectives, best of {best_of} per solve", "",
           "| solver | median | p90 | max | solves over 50 ms |", "|---|---:|---:|---:|---:|"]
    for name, ts in times.items():
        out.append(f"| {name} | {statistics.median(ts) * 1e3:.2f} ms | {_pct(ts, 0.9) * 1e3:.2f}"
                   f" ms | {max(ts) * 1e3:.1f} ms | {sum(t > 0.05 for t in ts)} |")
    out += ["", "slowest (default):", "| id | objective | table tiles | jokers | default | plain |",
            "|---|---|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: -r[4])[:8]:
        out.append(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4] * 1e3:.1f} ms | "
                   f"{r[5] * 1e3:.1f} ms |")
    return "\n".join(out)


# ---------------------------------------------------------------- pytest-benchmark


@pytest.mark.parametrize("jokers", [False, True], ids=["plain", "jokers"])
@pytest.mark.parametrize("size", BANDS)
def test_ours_best_move(benchmark, size: int, jokers: bool) -> None:
    positions = band_positions(size, jokers, 10)
    _warm_up(None)
    benchmark.pedantic(lambda: [ours(p) for p in positions], rounds=3, iterations=1)


@pytest.mark.parametrize("jokers", [False, True], ids=["plain", "jokers"])
@pytest.mark.parametrize("size", BANDS)
def test_stock_rummikub_solver(benchmark, size: int, jokers: bool) -> None:
    pytest.importorskip("rummikub_solver")
    stock = Stock()
    positions = band_positions(size, jokers, 10)
    stock.solve(positions[0])
    benchmark.pedantic(lambda: [stock.solve(p) for p in positions], rounds=3, iterations=1)


def test_batch_corpus_like(benchmark) -> None:
    positions = [Position.from_json(p) for size in BANDS for p in band_positions(size, True, 10)]
    best_moves(positions[:2])
    benchmark.pedantic(lambda: best_moves(positions), rounds=3, iterations=1)


def test_side_by_side(benchmark) -> None:
    pytest.importorskip("rummikub_solver")
    rows = benchmark.pedantic(lambda: side_by_side(10), rounds=1, iterations=1)
    benchmark.extra_info["bands"] = rows
    print("\n" + format_rows(rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=20, help="positions per band")
    parser.add_argument("--no-stock", action="store_true", help="time our solver only")
    parser.add_argument("--best-of", type=int, default=1, help="fastest of K solves per position")
    parser.add_argument("--corpus", action="store_true",
                        help="time the corpus positions (default vs plain exact DP)")
    args = parser.parse_args()
    if args.corpus:
        print(corpus_times(max(1, args.best_of)))
    else:
        print(format_rows(side_by_side(args.n, not args.no_stock, max(1, args.best_of))))
