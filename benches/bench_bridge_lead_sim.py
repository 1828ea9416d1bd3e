"""Opening-lead simulation: qipai (dealer + solver) next to endplay (dealer + DDS SolveAllBoards).

The same work on both sides, measured in the same run: deal ``n`` layouts
consistent with the leader's hand and a constraint on declarer (``opens_1nt``:
15–17 HCP, balanced), then score every opening lead on every layout double
dummy.  Dealing is timed on each side with its own dealer (ours: the native
batch dealer; endplay: ``generate_deals`` with the same predicate as a Python
callable).  Solving is timed on the *same* deals (ours), alternating the two
solvers chunk by chunk so that machine load hits both alike, each on ``-j``
threads (DDS: ``SetMaxThreads``; ours: the simulation's own path, the dealt
masks to ``lead_values``); every lead's trick count must agree.

    .venv/bin/python benches/bench_bridge_lead_sim.py -n 500 -j 2 --seeds 1 2
    .venv/bin/python benches/bench_bridge_lead_sim.py -n 500 --seeds 1 --no-whole-sim  # solve only

Two smaller measurements of the same toolkit:

    .venv/bin/python benches/bench_bridge_lead_sim.py --dealer    # deals per second, one core
    .venv/bin/python benches/bench_bridge_lead_sim.py --strains -n 20  # dd_table strains="NT"
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from engines.bridge.cards import Card, Deal
from engines.bridge.dealer import deal
from engines.bridge.seats import Seat, Strain
from engines.bridge.simulation import dealt_lead_values, simulate_lead

HAND = "KJ84.Q93.T72.A65"  # West, on lead against 3NT by South (1NT - 3NT)
CONTRACT, DECLARER, LEADER = "3NT", "S", Seat.WEST
CONSTRAINT = "opens_1nt(S)"
CHUNK = 50


def _endplay_solver(threads: int):
    from endplay import _dds
    from endplay.dds import solve_all_boards
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    _dds.SetMaxThreads(threads)

    def solve(deals: list[Deal]) -> list[dict[Card, int]]:
        out: list[dict[Card, int]] = []
        for start in range(0, len(deals), _dds.MAXNOOFBOARDS):
            boards = []
            for d in deals[start : start + _dds.MAXNOOFBOARDS]:
                other = EDeal(d.to_pbn())
                other.first = Player(int(LEADER))
                other.trump = Denom.nt
                boards.append(other)
            for solved in solve_all_boards(boards):
                out.append({Card(int(c.suit), int(c.rank).bit_length() - 1): t for c, t in solved})
        return out

    return solve


def _endplay_deal(n: int, seed: int) -> float:
    from endplay.dealer import generate_deals
    from endplay.evaluate import hcp, is_balanced
    from endplay.types import Deal as EDeal

    predeal = EDeal(f"W:{HAND} - - -")

    def accept(d) -> bool:
        return 15 <= hcp(d.south) <= 17 and is_balanced(d.south)

    start = time.perf_counter()
    found = sum(
        1 for _ in generate_deals(accept, predeal=predeal, produce=n, seed=seed, max_attempts=-1)
    )
    assert found == n
    return time.perf_counter() - start


def run(n: int, seeds: list[int], threads: int, whole_sim: bool = True) -> None:
    theirs_solve = _endplay_solver(threads)
    simulate_lead(HAND, CONTRACT, DECLARER, n=2, constraints=CONSTRAINT)  # load the kernels
    rows = []
    cpu_rows = []  # CPU seconds of the process (all threads) while each side solved
    for seed in seeds:
        start = time.perf_counter()
        sample = deal(n, fixed={LEADER: HAND}, constraints=CONSTRAINT, seed=seed)
        our_deal = time.perf_counter() - start
        their_deal = _endplay_deal(n, seed)
        deals = list(sample)
        ours_t = theirs_t = ours_cpu = theirs_cpu = 0.0
        agree = 0
        for first in range(0, n, CHUNK):
            chunk = deals[first : first + CHUNK]
            start, cpu = time.perf_counter(), time.process_time()
            theirs = theirs_solve(chunk)
            theirs_t += time.perf_counter() - start
            theirs_cpu += time.process_time() - cpu
            start, cpu = time.perf_counter(), time.process_time()
            # the simulation's own path: the dealt masks straight to the kernel
            ours = dealt_lead_values(
                sample.masks[first : first + CHUNK], Strain.NOTRUMP, LEADER, threads
            )
            ours_t += time.perf_counter() - start
            ours_cpu += time.process_time() - cpu
            for mine, other in zip(ours, theirs):
                agree += {
                    Card(suit, rank + 2): int(mine[suit, rank])
                    for suit in range(4)
                    for rank in range(13)
                    if mine[suit, rank] >= 0
                } == other
        # the whole simulation as a user runs it (dealing, solving, statistics)
        start = time.perf_counter()
        sim = simulate_lead(
            HAND, CONTRACT, DECLARER, n=n if whole_sim else 2, constraints=CONSTRAINT, seed=seed,
            threads=threads,
        )
        whole = time.perf_counter() - start if whole_sim else float("nan")
        rows.append((seed, our_deal, their_deal, ours_t, theirs_t, whole, agree, sim))
        cpu_rows.append((ours_cpu, theirs_cpu))
    print(
        f"{n} deals, {threads} thread(s), {HAND} leads against {CONTRACT} by {DECLARER} "
        f"({CONSTRAINT})"
    )
    print("seed  deal ours  deal endplay  solve ours  solve DDS  ours/DDS  whole sim  agree")
    for seed, od, td, os_, ts, whole, agree, _ in rows:
        print(
            f"{seed:>4}  {od:8.3f}s  {td:11.2f}s  {os_:9.2f}s  {ts:8.2f}s  {os_ / ts:7.2f}x  "
            f"{whole:8.2f}s  {agree}/{n}"
        )
    for (seed, *_), (ours_cpu, theirs_cpu) in zip(rows, cpu_rows):
        print(
            f"{seed:>4}  solving CPU time: ours {ours_cpu:.2f}s, DDS {theirs_cpu:.2f}s, "
            f"ours/DDS {ours_cpu / theirs_cpu:.2f}x"
        )
    ratio = statistics.median(r[3] / r[4] for r in rows)
    print(
        f"median solve ratio ours/DDS {ratio:.2f}x; dealing endplay/ours "
        f"{statistics.median(r[2] / r[1] for r in rows):.0f}x"
    )
    if whole_sim:
        print(rows[-1][7])


def dealer_rates(seeds: list[int]) -> None:
    """Deals tried per CPU second (one thread), unconstrained and with three constraints.

    CPU time of this process, not wall time: on a shared machine the wall clock also
    counts the time other programs hold the core.
    """
    from solvers.bridge._dealer import deal_batch, seed_state

    deal(1, constraints="cccc(N) > 0 and shape(N, 'any 4333')")  # build the lookup tables
    fixed, need = np.zeros((4, 4), np.uint16), np.full(4, 13, np.int32)
    out = np.empty((1 << 16, 4, 4), np.uint16)
    print("constraint                                   deals tried per CPU second (median)")
    state = seed_state(seeds[0])
    rates = []
    for _ in seeds:
        start = time.process_time()
        for _ in range(16):
            deal_batch(fixed, need, state, out)
        rates.append(16 * len(out) / (time.process_time() - start))
    print(f"{'(native kernel alone, no copy)':<45}{statistics.median(rates):>12,.0f}")
    for constraint in (
        None,
        "opens_1nt(N)",
        "hcp(NS) >= 25 and spades(NS) >= 8",
        "cccc(S) >= 14 and shape(N, 'any 4333')",
    ):
        rates = []
        for seed in seeds:
            start = time.process_time()
            sample = deal(
                1_000_000 if constraint is None else 20_000, constraints=constraint, seed=seed
            )
            rates.append(sample.tried / (time.process_time() - start))
        print(f"{constraint or '(none)':<45}{statistics.median(rates):>12,.0f}")


def strain_filter(n: int, seeds: list[int]) -> None:
    """Whole DD table vs ``strains="NT"``, alternating deal by deal on one thread (CPU time)."""
    from engines.bridge.dd import dd_table

    whole = one = 0.0
    for seed in seeds:
        for d in deal(n, seed=seed):
            start = time.process_time()
            full = dd_table(d)
            whole += time.process_time() - start
            start = time.process_time()
            nt = dd_table(d, strains="NT")
            one += time.process_time() - start
            assert full["NT"] == nt["NT"]
    total = n * len(seeds)
    print(
        f"{total} deals: whole table {whole / total:.3f} s/deal, NT only "
        f"{one / total:.3f} s/deal ({one / whole:.2f} of a whole table)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--count", type=int, default=500)
    parser.add_argument("-j", "--threads", type=int, default=2)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--dealer", action="store_true", help="dealing rates only")
    parser.add_argument("--strains", action="store_true", help="strain filter vs whole table")
    parser.add_argument(
        "--no-whole-sim", action="store_true", help="skip the timed run of the whole simulation"
    )
    args = parser.parse_args()
    if args.dealer:
        dealer_rates(args.seeds)
    elif args.strains:
        strain_filter(args.count, args.seeds)
    else:
        run(args.count, args.seeds, args.threads, not args.no_whole_sim)


if __name__ == "__main__":
    main()
