"""Bridge events benchmarks: Swiss pairing of large fields, dense histories, a weekly Rate run.

* Swiss pairing with histories from simulated events (random boards, XIMP
  scores): 200 and 1,000 pairs, the next round's seating timed after 4, 8
  and 11 rounds, several seeds.
* Dense histories: 60 pairs where each pair has met 90-97 % of the field (and
  a round robin 57-59 rounds in), where rematches are forced; and the pairing
  rule's own memoised search (``engines.events.swiss_reference``) side by side
  with ours on 16-20 pairs, where it is still feasible.
* A Rate week: 160 players at 40 tables, 10 or 40 boards, every board played
  by all 40 tables (40 results, the most a board takes), exact arithmetic.

    .venv/bin/python benches/bench_events.py         # the summary table of benches/README.md
    ./run bench benches/bench_events.py               # pytest-benchmark view
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from engines.events.files import EventResult
from engines.events.pairs import pair_scores, result_values
from engines.events.rate import TableResult, rate_week
from engines.events.swiss import Standing, pair_round, play_event, seat
from engines.events.swiss_reference import reference_seat

SCORES = (-1430, -650, -620, -420, -200, -140, -110, -100, -50, 50, 90, 100, 110, 120, 140,
          170, 200, 400, 420, 430, 450, 600, 620, 650, 990, 1430)  # fmt: skip


def simulated_event(pairs: int, rounds: int, seed: int, boards: int = 2):
    """A Swiss event with random results: ``(pairings, results)``."""
    rng = random.Random(seed)

    def play(_number, pairing, numbers):
        return [[rng.choice(SCORES) for _ in numbers] for _ in pairing.tables]

    run = play_event(pairs, "ximp", [(boards, ())] * rounds, play)
    return run.rounds, run.results


def standings_after(pairs: int, pairings, results: list[EventResult], rounds: int):
    """Standings and history before round ``rounds + 1`` of a simulated event."""
    done = [r for r in results if r.round is not None and r.round <= rounds]
    scores = pair_scores(done, result_values(done, "ximp"), "ximp", range(1, pairs + 1))
    byes = {p: 0 for p in range(1, pairs + 1)}
    for pairing in pairings[:rounds]:
        if pairing.bye is not None:
            byes[pairing.bye] += 1
    history = [t for pairing in pairings[:rounds] for t in pairing.tables]
    return [Standing(p, *scores[p], byes[p]) for p in range(1, pairs + 1)], history


def timed(func, *args, repeat: int = 3):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = func(*args)
        best = min(best, time.perf_counter() - start)
    return best, value


def bench_swiss(pairs: int, seeds: range) -> list[str]:
    lines = []
    for after in (4, 8, 11):
        times, rematches = [], []
        for seed in seeds:
            pairings, results = simulated_event(pairs, 11, seed)
            standings, history = standings_after(pairs, pairings, results, after)
            seconds, pairing = timed(pair_round, standings, history)
            times.append(seconds)
            rematches.append(pairing.rematches)
        median, worst = statistics.median(times) * 1e3, max(times) * 1e3
        lines.append(f"| {pairs} pairs, round {after + 1} | {len(times)} seeds | "
                     f"median {median:.1f} ms, max {worst:.1f} ms"
                     f" | rematches {sorted(set(rematches))} |")  # fmt: skip
    return lines


def round_robin(n: int) -> list[list[tuple[int, int]]]:
    ids = list(range(1, n + 1))
    rounds = []
    for _ in range(n - 1):
        rounds.append([(ids[i], ids[n - 1 - i]) for i in range(n // 2)])
        ids = [ids[0], ids[-1], *ids[1:-1]]
    return rounds


def dense_history(n: int, density: float, seed: int):
    rng = random.Random(seed)
    history = [
        [a, b] for a in range(1, n + 1) for b in range(a + 1, n + 1) if rng.random() < density
    ]
    order = list(range(1, n + 1))
    rng.shuffle(order)
    return order, history


def bench_dense(seeds: range) -> list[str]:
    lines = []
    for density in (0.9, 0.95, 0.97):
        results = [timed(seat, *dense_history(60, density, seed)) for seed in seeds]
        worst = max(t for t, _ in results)
        rem = sorted({r for _, (_, r) in results})
        lines.append(f"| 60 pairs, {density:.0%} of the field met | {len(results)} seeds | "
                     f"max {worst * 1e3:.1f} ms | rematches {rem} |")  # fmt: skip
    rr = round_robin(60)
    for played in (57, 58, 59):
        history = [t for r in rr[:played] for t in r]
        order = list(range(1, 61))
        random.Random(played).shuffle(order)
        seconds, (_, rem) = timed(seat, order, history)
        lines.append(f"| 60 pairs, round robin after {played} rounds | 1 | "
                     f"{seconds * 1e3:.1f} ms | rematches {rem} |")  # fmt: skip
    return lines


def bench_reference(seeds: range) -> list[str]:
    lines = []
    for n in (16, 20):
        ours, ref = [], []
        for seed in seeds:
            order, history = dense_history(n, 0.9, seed)
            t_ours, got = timed(seat, order, history, repeat=1)
            t_ref, want = timed(reference_seat, order, history, repeat=1)
            assert got == want, (n, seed)
            ours.append(t_ours)
            ref.append(t_ref)
        ratio = statistics.median(r / o for r, o in zip(ref, ours))
        mine, theirs = statistics.median(ours) * 1e3, statistics.median(ref) * 1e3
        lines.append(f"| {n} pairs, 90 % met: ours vs the rule's memoised search | "
                     f"{len(ours)} seeds | {mine:.2f} ms vs {theirs:.0f} ms"
                     f" | **{ratio:.0f}×** faster, same seatings |")  # fmt: skip
    return lines


def rate_week_input(players: int = 160, boards: int = 40, seed: int = 1):
    rng = random.Random(seed)
    names = [f"p{i:03d}" for i in range(players)]
    week = []
    for _ in range(boards):
        rng.shuffle(names)
        week.append([
            TableResult(*names[4 * t : 4 * t + 4], rng.choice(SCORES),
                        frozenset("E") if rng.random() < 0.01 else frozenset())
            for t in range(players // 4)
        ])  # fmt: skip
    return week


def bench_rate(seeds: range) -> list[str]:
    lines = []
    for boards in (10, 40):
        times = []
        for seed in seeds:
            week = rate_week_input(boards=boards, seed=seed)
            seconds, figures = timed(rate_week, {}, week)
            assert len(figures) == 160
            times.append(seconds)
        median, worst = statistics.median(times) * 1e3, max(times) * 1e3
        lines.append(f"| Rate week: 160 players at 40 tables, {boards} boards of 40 results "
                     f"({160 * boards:,} player-boards) | {len(times)} seeds | "
                     f"median {median:.0f} ms, max {worst:.0f} ms | exact fractions |")  # fmt: skip
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per measurement (default 3)")
    args = parser.parse_args(argv)
    seeds = range(1, args.seeds + 1)
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| measurement | runs | time (best of 3 per run) | note |")
    print("| --- | --- | --- | --- |")
    for line in [*bench_swiss(200, seeds), *bench_swiss(1000, seeds), *bench_dense(seeds),
                 *bench_reference(seeds), *bench_rate(seeds)]:  # fmt: skip
        print(line, flush=True)
    return 0


# -- pytest-benchmark ---------------------------------------------------------------------------


def test_bench_pairing_200(benchmark):
    pairings, results = simulated_event(200, 8, 1)
    standings, history = standings_after(200, pairings, results, 8)
    assert benchmark(pair_round, standings, history).rematches == 0


def test_bench_pairing_dense_60(benchmark):
    order, history = dense_history(60, 0.95, 1)
    benchmark(seat, order, history)


def test_bench_rate_week_160(benchmark):
    week = rate_week_input()
    assert len(benchmark(rate_week, {}, week)) == 160


if __name__ == "__main__":
    raise SystemExit(main())
