"""Build the 贴点 expected-score table with qipai's double-dummy solver.

For each N-S HCP total ``h`` from 20 to 37 we draw a few deals with exactly
that total (the constrained dealer, uniform among such deals; dealer and
vulnerability rotating as in the standard 16-board cycle), solve the DD
table, take the dealer par score (N-S view) and record two samples: N-S's
``h`` with the par score, and E-W's ``40 - h`` with its negation.  Entry ``h``
of the table is the mean of the samples of ``h``, rounded to the nearest integer
(halves away from zero), so the table is antisymmetric by construction.  An
HCP value with fewer than ``min_samples`` samples (38-40 and 0-2, which no
stratum covers) pools the samples of its neighbours ``h ± 1, h ± 2, …``
until it has enough.

The shipped table (``engines/data/events/tiedian_table.json``) was built by
``qipai events tiedian-table -n 5 --seed 1 -o src/engines/data/events/tiedian_table.json``
(5 deals for each HCP total 20..37: 90 deals).

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
    per_hcp: int = 5,
    seed: int = 1,
    threads: int | None = None,
    min_samples: int | None = None,
    hcp_range: tuple[int, int] = (20, 37),
) -> dict[str, Any]:
    """Solve ``per_hcp`` deals for each N-S HCP value in ``hcp_range``; the table file object.

    Each stratum is drawn uniformly among the deals with that N-S HCP total by
    the constrained dealer (:func:`engines.bridge.dealer.deal`), so the mean par
    of a stratum estimates ``E[par | HCP]`` directly, and the rare totals (a
    plain random sample of a few hundred deals never sees 33+ HCP) get as many
    deals as the common ones.  ``min_samples`` defaults to ``per_hcp``.
    """
    from engines.bridge.boards import board_info
    from engines.bridge.dd import dd_tables
    from engines.bridge.dealer import deal
    from engines.bridge.dealer_par import par

    low, high = hcp_range
    if per_hcp < 1 or not 0 <= low <= high <= 40:
        raise EventInputError(
            f"need per_hcp >= 1 and 0 <= low <= high <= 40, got {per_hcp}, {hcp_range}"
        )
    strata = []
    for h in range(low, high + 1):
        sample = deal(per_hcp, constraints=f"hcp(N) + hcp(S) == {h}", seed=seed * 64 + h)
        strata.extend((h, pbn) for pbn in sample.to_pbn())
    start = time.perf_counter()
    tables = dd_tables([pbn for _, pbn in strata], threads=threads)
    solve_seconds = time.perf_counter() - start
    samples: dict[int, list[int]] = {}
    for board, ((h, _), table) in enumerate(zip(strata, tables), start=1):
        dealer, vulnerability = board_info(board)
        score = par(table, dealer, vulnerability).score
        samples.setdefault(h, []).append(score)
        samples.setdefault(40 - h, []).append(-score)
    min_samples = per_hcp if min_samples is None else min_samples
    return {
        "format": FORMAT,
        "table": from_samples(samples, min_samples),
        "samples": [len(samples.get(h, [])) for h in range(41)],
        "deals": len(strata),
        "per_hcp": per_hcp,
        "hcp_range": [low, high],
        "seed": seed,
        "min_samples": min_samples,
        "method": "mean dealer-par score by N-S HCP (E-W: 40 - HCP, negated), per_hcp deals "
        "drawn for each N-S HCP total in hcp_range, dealer and vulnerability rotating by deal "
        "number; entries with fewer than min_samples samples pool neighbouring HCP values",
        "command": f"qipai events tiedian-table -n {per_hcp} --seed {seed} "
        "-o src/engines/data/events/tiedian_table.json",
        "solve_seconds": round(solve_seconds, 1),
    }
