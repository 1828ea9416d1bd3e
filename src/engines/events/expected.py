"""Build the 贴点 expected-score table with qipai's double-dummy solver.

For each random deal (dealer and vulnerability rotating as in the standard
16-board cycle) we solve the DD table, take the dealer par score (N-S view)
and record two samples: N-S's combined HCP ``h`` with the par score, and E-W's
``40 - h`` with its negation.  Entry ``h`` of the table is the mean of the
samples of ``h``, rounded to the nearest integer (halves away from zero), so
the table is antisymmetric by construction.  An HCP value with fewer than
``min_samples`` samples (the extremes, rare in any sample) pools the samples
of its neighbours ``h ± 1, h ± 2, …`` until it has enough.

The shipped table (``engines/data/events/tiedian_table.json``) was built by
``qipai events tiedian-table -n 120 --seed 1 -o src/engines/data/events/tiedian_table.json``.

>>> table = from_samples({19: [-40, -60], 20: [0, 10], 21: [40, 60]}, min_samples=2)
>>> table[19], table[20], table[21], table[40]
(-50, 5, 50, 50)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from engines.events.errors import EventInputError

__all__ = ["build_table", "from_samples"]

FORMAT = "qipai-tiedian-table/1"


def _round_half_away(value: Fraction) -> int:
    magnitude = int(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


def from_samples(samples: Mapping[int, Sequence[int]], min_samples: int = 20) -> list[int]:
    """The 41-entry table from ``{hcp: [scores]}``: entry ``h`` is the mean over the narrowest
    window ``h - w .. h + w`` holding at least ``min_samples`` samples (``w = 0`` where ``h``
    alone has enough)."""
    total = sum(len(v) for v in samples.values())
    if total < max(min_samples, 1):
        raise EventInputError(f"{total} samples, fewer than min_samples = {min_samples}")
    table = []
    for h in range(41):
        width, pooled = 0, list(samples.get(h, []))
        while len(pooled) < min_samples:
            width += 1
            for k in (h - width, h + width):
                pooled.extend(samples.get(k, []))
        table.append(_round_half_away(Fraction(sum(pooled), len(pooled))))
    return table


def build_table(
    deals: int = 120, seed: int = 1, threads: int | None = None, min_samples: int = 20
) -> dict[str, Any]:
    """Solve ``deals`` random deals and return the table file object (with counts and timing)."""
    from engines.bridge.dd import dd_tables
    from engines.bridge.dealer_par import par
    from engines.bridge.generate import bridge_deals
    from engines.events.tiedian import deal_hcp

    if deals < 1:
        raise EventInputError(f"need at least one deal, got {deals}")
    boards = list(bridge_deals(deals, seed=seed, rotate=True))
    start = time.perf_counter()
    tables = dd_tables([b["pbn"] for b in boards], threads=threads)
    solve_seconds = time.perf_counter() - start
    samples: dict[int, list[int]] = {}
    for board, table in zip(boards, tables):
        score = par(table, board["dealer"], board["vulnerability"]).score
        h = deal_hcp(board["pbn"])
        samples.setdefault(h, []).append(score)
        samples.setdefault(40 - h, []).append(-score)
    return {
        "format": FORMAT,
        "table": from_samples(samples, min_samples),
        "samples": [len(samples.get(h, [])) for h in range(41)],
        "deals": deals,
        "seed": seed,
        "min_samples": min_samples,
        "method": "mean dealer-par score (N-S and E-W samples of every deal), dealer and "
        "vulnerability rotating by board number; thin entries pool neighbouring HCP values",
        "command": f"qipai events tiedian-table -n {deals} --seed {seed} "
        "-o src/engines/data/events/tiedian_table.json",
        "solve_seconds": round(solve_seconds, 1),
    }
