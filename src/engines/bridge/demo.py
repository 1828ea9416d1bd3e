"""The bridge part of ``qipai demo``: the DD table of a shipped sample deal, and an end position."""

from __future__ import annotations

import time
from importlib import resources
from typing import TextIO

from engines.bridge.cards import Deal
from engines.bridge.dd import dd_table, solve_position

SAMPLE_FILE = "sample.pbn"


def sample_deals() -> list[tuple[str, Deal]]:
    """``(board number, deal)`` of every board in ``engines/data/bridge/sample.pbn``."""
    folder = resources.files("engines.data").joinpath("bridge")
    text = folder.joinpath(SAMPLE_FILE).read_text("utf-8")
    deals, board = [], "?"
    for line in text.splitlines():
        if line.startswith("[Board "):
            board = line.split('"')[1]
        elif line.startswith("[Deal "):
            deals.append((board, Deal.from_pbn(line.split('"')[1])))
    return deals


def demo(out: TextIO) -> None:
    """Solve the first sample board's DD table and a three-card ending, with timings."""
    board, deal = sample_deals()[0]
    start = time.perf_counter()
    table = dd_table(deal)
    elapsed = time.perf_counter() - start
    print(f"Board {board}: {deal.to_pbn()}", file=out)
    print(f"Double-dummy table (tricks for declarer; solved in {elapsed * 1000:.0f} ms):", file=out)
    print(table, file=out)
    ending = "N:A.K.2. K.A.3. Q.Q.4. J.J.5."
    values = solve_position(ending, "NT", "N")
    cards = ", ".join(f"{card} {tricks}" for card, tricks in values.items())
    print(f"End position {ending}, notrump, N to lead: tricks for N-S after {cards}", file=out)
    # par analysis of the same board
    from engines.bridge.analysis import analyse

    result = analyse(deal, board=int(board) if board.isdigit() else None, table=table)
    print(
        f"Board {board}, dealer {result.dealer}, vulnerable {result.vulnerability}: {result.par}",
        file=out,
    )
    for side, sign in (("NS", 1), ("EW", -1)):
        own = [c for c in result.contracts if c.declarer in side]
        cell = max(own, key=lambda c, sign=sign: sign * c.score_ns)
        print(
            f"  best {side} contract double dummy: {cell.contract} "
            f"({cell.score_ns:+d} for N-S, {cell.imps_vs_par:+d} IMPs against par)",
            file=out,
        )
