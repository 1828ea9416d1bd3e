"""``qipai events demo``: a small Swiss pairs event on generated deals, scored and set against par.

The two halves of qipai meet here.  Random deals (dealer and vulnerability
rotating) are solved by our double-dummy solver; each table's result is
simulated from the board's par contract (sometimes a level higher or lower)
with the declarer taking the DD tricks give or take one, more often in the
stronger pair's favour.  The Swiss engine seats every round from the
standings, scores each board with the event's method, ranks the pairs and
awards masterpoints; beside the platform's scores each pair's results are
compared with the DD par of the board (IMPs from the pair's side).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, TextIO

from engines.bridge.compare import imps
from engines.events.common import as_json_number
from engines.events.errors import EventInputError
from engines.events.pairs import result_values
from engines.events.report import show, text_table
from engines.events.swiss import EventRun, Pairing, play_event

__all__ = ["DemoBoard", "demo", "run_demo", "simulate_event"]


@dataclass(frozen=True)
class DemoBoard:
    """A generated board: deal, dealer, vulnerability, its DD par (score and contracts)."""

    board: int
    pbn: str
    dealer: str
    vulnerability: str
    par_score: int
    par_contracts: tuple[str, ...]
    table: Any


def _boards(count: int, seed: int, threads: int | None) -> list[DemoBoard]:
    from engines.bridge.dd import dd_tables
    from engines.bridge.dealer_par import par
    from engines.bridge.generate import bridge_deals

    deals = list(bridge_deals(count, seed=seed, rotate=True))
    tables = dd_tables([d["pbn"] for d in deals], threads=threads)
    out = []
    for deal, table in zip(deals, tables):
        result = par(table, deal["dealer"], deal["vulnerability"])
        out.append(
            DemoBoard(deal["board"], deal["pbn"], deal["dealer"], deal["vulnerability"],
                      result.score, result.contracts, table)
        )  # fmt: skip
    return out


def _play(board: DemoBoard, edge: float, rng: random.Random) -> tuple[str, int]:
    """Simulated contract text and N-S score; ``edge`` > 0 favours N-S (skill difference)."""
    from engines.bridge.contract import Contract

    if board.par_contracts == ("Pass",):
        return "Pass", 0
    contract = Contract.from_str(rng.choice(board.par_contracts))
    level = contract.level
    if rng.random() < 0.3:
        level = min(7, max(1, level + rng.choice((-1, 1))))
    declarer_ns = contract.declarer is not None and contract.declarer.char in "NS"
    lean = edge if declarer_ns else -edge
    up, down = 0.15 + 0.1 * lean, 0.15 - 0.1 * lean
    roll = rng.random()
    delta = 1 if roll < up else -1 if roll < up + down else 0
    dd_tricks = board.table.tricks(contract.strain, contract.declarer)
    tricks = min(13, max(0, dd_tricks + delta))
    played = Contract(level, contract.strain, contract.declarer, contract.penalty)
    played = played.with_tricks(tricks)
    return str(played), played.score_ns(board.vulnerability)


def simulate_event(
    pairs: int = 7, rounds: int = 3, boards: int = 3, seed: int = 1, method: str = "mp",
    threads: int | None = None,
) -> tuple[EventRun, list[DemoBoard], dict[tuple[int, int], str]]:  # fmt: skip
    """Run the demo event: ``(the event, its boards, contract text per (board, ns pair))``."""
    if not 2 <= pairs <= 200 or not 1 <= rounds <= 20 or not 1 <= boards <= 10:
        raise EventInputError("demo: need 2..200 pairs, 1..20 rounds, 1..10 boards a round")
    rng = random.Random(seed)
    skill = {p: rng.uniform(-1, 1) for p in range(1, pairs + 1)}
    deck = _boards(rounds * boards, seed, threads)
    contracts: dict[tuple[int, int], str] = {}

    def play(_number: int, pairing: Pairing, numbers: list[int]) -> list[list[int | None]]:
        rows = []
        for ns, ew in pairing.tables:
            row: list[int | None] = []
            for number in numbers:
                text, score = _play(deck[number - 1], skill[ns] - skill[ew], rng)
                contracts[(number, ns)] = text
                row.append(score)
            rows.append(row)
        return rows

    run = play_event(pairs, method, [(boards, ())] * rounds, play)
    return run, deck, contracts


def run_demo(
    out: TextIO,
    pairs: int = 7,
    rounds: int = 3,
    boards: int = 3,
    seed: int = 1,
    method: str = "mp",
    as_json: bool = False,
    threads: int | None = None,
) -> None:
    """Print the demo event: rounds, every board against par, the ranking with IMPs vs par."""
    run, deck, contracts = simulate_event(pairs, rounds, boards, seed, method, threads)
    values = result_values(run.results, method)
    vs_par: dict[int, int] = {p: 0 for p in range(1, pairs + 1)}
    board_rows = []
    for result, value in zip(run.results, values):
        board = deck[result.board - 1]
        gain = imps(result.ns_score - board.par_score)
        vs_par[result.ns] += gain
        vs_par[result.ew] -= gain
        board_rows.append((result, board, value, gain))
    if as_json:
        data = {
            "method": method,
            "rounds": [{"tables": [list(t) for t in p.tables], "bye": p.bye,
                        "rematches": p.rematches} for p in run.rounds],
            "boards": [{"board": b.board, "deal": b.pbn, "dealer": b.dealer,
                        "vulnerability": b.vulnerability, "par": b.par_score,
                        "par_contracts": list(b.par_contracts)} for b in deck],
            "results": [{"board": r.board, "ns": r.ns, "ew": r.ew,
                         "contract": contracts[(r.board, r.ns)], "ns_score": r.ns_score,
                         "ns_value": as_json_number(v), "ns_imps_vs_par": g}
                        for r, _, v, g in board_rows],
            "ranking": [{**row.to_dict(), "imps_vs_par": vs_par[row.pair]} for row in run.ranking],
        }  # fmt: skip
        json.dump(data, out, indent=1)
        out.write("\n")
        return
    print(f"Swiss pairs demo: {pairs} pairs, {rounds} rounds of {boards} boards, method {method}",
          file=out)  # fmt: skip
    for number, pairing in enumerate(run.rounds, start=1):
        tables = ", ".join(f"{ns}-{ew}" for ns, ew in pairing.tables)
        bye = f", bye {pairing.bye}" if pairing.bye is not None else ""
        print(f"round {number}: {tables}{bye}", file=out)
    print(file=out)
    lines = []
    for result, board, value, gain in board_rows:
        lines.append([board.board, f"{board.par_score:+d} {' '.join(board.par_contracts)}",
                      f"{result.ns}-{result.ew}", contracts[(board.board, result.ns)],
                      f"{result.ns_score:+d}", show(value), f"{gain:+d}"])  # fmt: skip
    header = ["board", "DD par", "table", "contract", "N-S score", f"N-S {method}", "IMPs vs par"]
    print(text_table(header, lines), file=out)
    print(file=out)
    ranking = [[row.rank, row.pair, show(row.score), row.boards, row.masterpoints,
                f"{vs_par[row.pair]:+d}"] for row in run.ranking]  # fmt: skip
    print(text_table(["rank", "pair", "score", "boards", "masterpoints", "IMPs vs par"], ranking),
          file=out)  # fmt: skip


def demo(out: TextIO) -> None:
    """The events part of ``qipai demo``: a 5-pair Swiss event, 2 rounds of 2 DD-solved boards."""
    run_demo(out, pairs=5, rounds=2, boards=2, seed=1, method="mp")
