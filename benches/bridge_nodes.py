"""Search-tree size of our DD solver next to DDS 2.9: exact node counts, no timing.

Node counts do not depend on machine load, so every change to the search is
judged here first (then by time, with ``bench_bridge_dd.py``).  Both sides
count one node per trick start:

* ours: ``sum(stats["trick_nodes"])`` of :func:`solvers.bridge._ab_search.leader_tricks`;
* DDS: ``futureTricks.nodes`` of ``SolveBoard(deal, target=-1, solutions=1, mode=1)``
  (endplay 0.5.12, one thread), which solves the same cell: the best score of
  the leader's cards, with a fresh transposition table (a one-card deal is
  solved before each cell, so DDS sees a new deal).

Each cell (deal, strain, leader) is solved from cold on both sides and the
answers are checked against each other.  ``--tables`` also prints our
trick-start nodes for whole DD tables (the 20 cells sharing one table per
strain), which DDS does not report.  ``--leads`` compares opening-lead solves
instead: our ``solve_position`` at trick 1 (all 13 cards scored) against
``SolveBoard(deal, -1, solutions=3, mode=1)``, cold on both sides, every
card's score checked.

    .venv/bin/python benches/bridge_nodes.py -n 12 --seeds 1 2      # leader N, all strains
    .venv/bin/python benches/bridge_nodes.py --corpus -n 20 --leaders N E --per-cell
    .venv/bin/python benches/bridge_nodes.py -n 20 --seeds 1 --tables --no-dds
    .venv/bin/python benches/bridge_nodes.py -n 12 --seeds 1 2 --leads --strains NT S --leaders W
    .venv/bin/python benches/bridge_nodes.py -n 30 --lead-sim --leads --strains NT --leaders W
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from engines.bridge import Deal
from engines.bridge.generate import bridge_deals
from solvers.bridge import _ab_search

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests/data/bridge/deals.jsonl"
STRAINS = ("S", "H", "D", "C", "NT")  # kernel / DDS order
SEATS = ("N", "E", "S", "W")
LEAD_SIM_HAND = "KJ84.Q93.T72.A65"


def deals(
    seeds: list[int], count: int, corpus: bool, lead_sim: bool = False
) -> Iterator[tuple[str, str]]:
    """``(id, pbn)`` of ``count`` deals per seed of ``qipai gen bridge`` (or of the corpus, or
    of the lead simulation of ``bench_bridge_lead_sim.py``: West's hand fixed, South opens 1NT)."""
    if lead_sim:
        from engines.bridge.dealer import deal
        from engines.bridge.seats import Seat

        for seed in seeds:
            sample = deal(
                count, fixed={Seat.WEST: LEAD_SIM_HAND}, constraints="opens_1nt(S)", seed=seed
            )
            for k, d in enumerate(sample):
                yield f"sim{seed}-{k:03d}", d.to_pbn()
        return
    if corpus:
        records = [json.loads(line) for line in CORPUS.read_text().splitlines()]
        for record in records[:count]:
            yield record["id"], record["pbn"]
        return
    for seed in seeds:
        for record in bridge_deals(count, seed):
            yield record["id"], record["pbn"]


def ours_cell(hands: np.ndarray, strain: int, leader: int) -> tuple[int, int]:
    """(tricks of the leader's side, trick-start nodes) from a cold table."""
    stats: dict = {}
    tricks = _ab_search.leader_tricks(hands, strain, leader, stats)
    return tricks, sum(stats["trick_nodes"])


class DDSCells:
    """One cell at a time through DDS SolveBoard (one thread)."""

    def __init__(self) -> None:
        from endplay import _dds
        from endplay.types import Deal as EDeal

        from engines.bridge.bench import _forget_dds

        _dds.SetMaxThreads(1)
        self._dds = _dds
        self._deal = EDeal
        self._forget = _forget_dds()

    def cell(self, pbn: str, strain: int, leader: int) -> tuple[int, int]:
        """(tricks of the leader's side, trick-start nodes) from a cold table."""
        # DDS keeps its table for the same deal and trump: a second leader of the
        # same strain would start warm (and count a small fraction of the nodes)
        self._forget()
        deal = self._deal(pbn)
        deal._data.first = leader
        deal._data.trump = strain
        fut = self._dds.futureTricks()
        self._dds.SolveBoard(deal._data, -1, 1, 1, fut, 0)  # raises DDSError on failure
        return fut.score[0], fut.nodes

    def lead(self, pbn: str, strain: int, leader: int) -> tuple[list[int], int]:
        """(every card's score, highest first; trick-start nodes) of an opening-lead solve."""
        deal = self._deal(pbn)
        deal._data.first = leader
        deal._data.trump = strain
        fut = self._dds.futureTricks()
        self._dds.SolveBoard(deal._data, -1, 3, 1, fut, 0)
        scores = []
        for i in range(fut.cards):
            scores += [fut.score[i]] * (1 + bin(fut.equals[i]).count("1"))
        return sorted(scores, reverse=True), fut.nodes


def ours_lead(hands: np.ndarray, strain: int, leader: int) -> tuple[list[int], int]:
    """(every card's score, highest first; trick-start nodes) of ``solve_position``."""
    stats: dict = {}
    _, _, values = _ab_search.solve_position(
        hands, strain, leader, np.zeros((0, 2), dtype=np.int32), stats
    )
    return sorted(values.tolist(), reverse=True), sum(stats["trick_nodes"])


def ours_target(hands: np.ndarray, strain: int, leader: int, target: int) -> int:
    """Trick-start nodes of ``solve_position(target=...)``: one null-window search a card."""
    stats: dict = {}
    _ab_search.solve_position(
        hands, strain, leader, np.zeros((0, 2), dtype=np.int32), stats, target=target
    )
    return sum(stats["trick_nodes"])


def compare_cells(args: argparse.Namespace) -> None:
    dds = None if args.no_dds else DDSCells()
    leaders = [SEATS.index(s) for s in args.leaders]
    strains = [STRAINS.index(s) for s in args.strains]
    ours_total = dds_total = 0
    ratios: list[float] = []
    target_nodes = 0
    for deal_id, pbn in deals(args.seeds, args.n, args.corpus, args.lead_sim):
        hands = np.array(Deal.from_pbn(pbn).masks(), dtype=np.uint16)
        for strain in strains:
            for leader in leaders:
                solve = ours_lead if args.leads else ours_cell
                tricks, nodes = solve(hands, strain, leader)
                ours_total += nodes
                cell = f"{deal_id} {STRAINS[strain]:>2} {SEATS[leader]}"
                best = tricks[0] if args.leads else tricks
                if args.leads and args.target:
                    target_nodes += ours_target(hands, strain, leader, best)
                line = f"{cell} tricks {best:2d} ours {nodes:9d}"
                if dds is not None:
                    dds_solve = dds.lead if args.leads else dds.cell
                    dds_tricks, dds_nodes = dds_solve(pbn, strain, leader)
                    if dds_tricks != tricks:
                        raise SystemExit(f"{line}: DDS says {dds_tricks} tricks")
                    dds_total += dds_nodes
                    ratios.append(nodes / max(dds_nodes, 1))
                    line += f" dds {dds_nodes:9d} ratio {ratios[-1]:6.2f}"
                if args.per_cell:
                    print(line, flush=True)
    summary = {"cells": len(ratios) or None, "ours_nodes": ours_total}
    if args.leads and args.target:
        summary["ours_target_nodes"] = target_nodes
    if ratios:
        ratios.sort()
        summary.update(
            dds_nodes=dds_total,
            median_ratio=round(statistics.median(ratios), 3),
            total_ratio=round(ours_total / max(dds_total, 1), 3),
            p90_ratio=round(ratios[max(0, round(0.9 * len(ratios)) - 1)], 3),
            max_ratio=round(ratios[-1], 3),
        )
    print("leads" if args.leads else "cells", json.dumps(summary), flush=True)


def table_nodes(args: argparse.Namespace) -> None:
    per_deal: list[int] = []
    searches = 0
    for deal_id, pbn in deals(args.seeds, args.n, args.corpus, args.lead_sim):
        stats: dict = {}
        _ab_search.dd_table(np.array(Deal.from_pbn(pbn).masks(), dtype=np.uint16), stats)
        per_deal.append(sum(stats["trick_nodes"]))
        searches += stats["root_searches"]
        if args.per_cell:
            searched = stats["root_searches"]
            print(f"{deal_id} table {per_deal[-1]:10d} searches {searched}", flush=True)
    print(
        "tables",
        json.dumps(
            {
                "deals": len(per_deal),
                "trick_nodes": sum(per_deal),
                "median": statistics.median(per_deal),
                "max": max(per_deal),
                "null_window_searches_per_cell": round(searches / (20 * len(per_deal)), 3),
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=12, help="deals per seed (default 12)")
    parser.add_argument("--seeds", type=int, nargs="*", default=[1], help="qipai gen bridge seeds")
    parser.add_argument("--corpus", action="store_true", help="the corpus deals instead")
    parser.add_argument("--strains", nargs="*", default=list(STRAINS), choices=STRAINS)
    parser.add_argument("--leaders", nargs="*", default=["N"], choices=SEATS)
    parser.add_argument("--per-cell", action="store_true", help="print every cell (or deal)")
    parser.add_argument("--no-dds", action="store_true", help="our node counts only")
    parser.add_argument("--tables", action="store_true", help="also our whole-table node counts")
    parser.add_argument(
        "--leads", action="store_true", help="opening-lead solves (13 cards) instead of cells"
    )
    parser.add_argument(
        "--target", action="store_true", help="with --leads: also ours with target = best value"
    )
    parser.add_argument(
        "--lead-sim", action="store_true", help="the deals of bench_bridge_lead_sim.py instead"
    )
    args = parser.parse_args()
    compare_cells(args)
    if args.tables:
        table_nodes(args)


if __name__ == "__main__":
    main()
