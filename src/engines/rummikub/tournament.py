"""Tournaments: many seeded rounds between player kinds, win rates with confidence intervals.

Each deal is played once per seating rotation (the same tiles, every kind in every seat),
so no kind profits from a lucky deal or seat.  A kind's win rate is its wins over all
rounds, with a Wilson 95% interval; with several seats of one kind its wins add up.

>>> result = play_tournament(["solver", "random"], deals=2, seed=1)
>>> result.rounds, sum(result.wins.values())
(4, 4)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.rummikub.errors import RummikubInputError
from engines.rummikub.game import play_round

Z95 = 1.959964


def wilson_interval(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``wins / n``.

    >>> [round(x, 3) for x in wilson_interval(8, 10)]
    [0.49, 0.943]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class TournamentResult:
    """``wins[kind]`` over ``rounds`` rounds; ``scores[kind]``: total zero-sum score."""

    kinds: list[str]
    deals: int
    rounds: int
    wins: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)

    def rows(self) -> list[tuple[str, int, float, float, float, float]]:
        """Per kind: (kind, wins, win rate, CI low, CI high, mean score per round)."""
        out = []
        for kind in dict.fromkeys(self.kinds):
            w = self.wins.get(kind, 0)
            lo, hi = wilson_interval(w, self.rounds)
            out.append((kind, w, w / self.rounds, lo, hi, self.scores.get(kind, 0) / self.rounds))
        return out

    def format(self) -> str:
        seats = ", ".join(self.kinds)
        lines = [f"{self.rounds} rounds ({self.deals} deals x {len(self.kinds)} seatings; "
                 f"seats {seats})",
                 f"{'player':<10} {'wins':>5} {'win rate':>9} {'95% CI':>15} {'mean score':>11}"]
        for kind, w, rate, lo, hi, mean in self.rows():
            lines.append(f"{kind:<10} {w:>5} {rate:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>15} "
                         f"{mean:>11.1f}")
        return "\n".join(lines)


def play_tournament(kinds: Sequence[str], deals: int, seed: int = 0) -> TournamentResult:
    """Play ``deals`` seeded deals, each once per rotation of the seats ``kinds``."""
    if deals < 1:
        raise RummikubInputError(f"a tournament needs at least 1 deal, got {deals}")
    kinds = list(kinds)
    n = len(kinds)
    result = TournamentResult(kinds, deals, deals * n)
    for deal in range(deals):
        for shift in range(n):
            seating = kinds[shift:] + kinds[:shift]
            played = play_round(seating, seed=seed * 1_000_003 + deal)
            winner = seating[played.winner]
            result.wins[winner] = result.wins.get(winner, 0) + 1
            for kind, score in zip(seating, played.scores):
                result.scores[kind] = result.scores.get(kind, 0) + score
    return result
