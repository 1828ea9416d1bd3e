"""Rummikub players head to head: does the planner beat the greedy solver?

Plays ``--deals`` seeded deals between two player kinds (default: planner and solver), each
deal twice with the seats swapped (the same tiles, each kind in each seat), and reports:

- the win rate of the first kind over all rounds, with its Wilson 95% interval
  (:func:`engines.rummikub.tournament.wilson_interval`);
- the deals paired: how many the first kind won in both seatings, split, or lost in both,
  and a two-sided sign test on the unsplit deals (exact binomial), which removes the luck
  of the deal that the plain win rate still carries;
- the mean zero-sum score per round with a normal 95% interval over the deals;
- how often the two kinds chose different moves (the planner deviates from greedy only on
  some turns), from the first kind's own turns.

    .venv/bin/python benches/bench_rummikub_players.py --deals 300 --seed 7
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from engines.rummikub import warmup
from engines.rummikub.game import make_player, play_round
from engines.rummikub.tournament import wilson_interval


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial p-value of ``wins`` against ``losses`` at one half."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


class _Counting:
    """A player that also asks the other kind for its move and counts disagreements."""

    def __init__(self, kind: str, other: str) -> None:
        self.player = make_player(kind)
        self.other = make_player(other)
        self.name = self.player.name
        self.turns = 0
        self.differ = 0

    def choose(self, pos, rng):
        move = self.player.choose(pos, rng)
        alt = self.other.choose(pos, rng)
        self.turns += 1
        self.differ += sorted(map(str, move.played)) != sorted(map(str, alt.played))
        return move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--kinds", default="planner,solver", help="two player kinds")
    args = parser.parse_args()
    first, second = args.kinds.split(",")
    warmup()
    start = time.perf_counter()
    both = split = neither = 0
    deal_scores = []
    counting = _Counting(first, second)
    for deal in range(args.deals):
        seed = args.seed * 1_000_003 + deal
        wins = 0
        score = 0
        for seats in ((counting, second), (second, counting)):
            result = play_round(list(seats), seed=seed)
            me = 0 if seats[0] is counting else 1
            wins += result.winner == me
            score += result.scores[me]
        both += wins == 2
        split += wins == 1
        neither += wins == 0
        deal_scores.append(score / 2)
    rounds = 2 * args.deals
    won = 2 * both + split
    lo, hi = wilson_interval(won, rounds)
    mean = statistics.fmean(deal_scores)
    half = 1.959964 * statistics.stdev(deal_scores) / math.sqrt(len(deal_scores))
    print(f"{first} vs {second}: {args.deals} deals x 2 seatings (seed {args.seed}), "
          f"{time.perf_counter() - start:.0f} s")
    print(f"{first} win rate {won}/{rounds} = {won / rounds:.3f}, 95% CI [{lo:.3f}, {hi:.3f}]")
    print(f"deals: won both {both}, split {split}, lost both {neither}; sign test p = "
          f"{sign_test(both, neither):.3f}")
    print(f"mean score per round {mean:+.2f}, 95% CI [{mean - half:+.2f}, {mean + half:+.2f}]")
    print(f"{first}'s turns where {second} would have played other tiles: "
          f"{counting.differ}/{counting.turns}")


if __name__ == "__main__":
    main()
