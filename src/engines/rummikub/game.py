"""A full Rummikub round for 2-4 players: the greedy solver, a planner and a random player.

>>> result = play_round(["solver", "random"], seed=3)
>>> sum(result.scores)
0
>>> result.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engines.rummikub.position import Move, Position, best_move, best_moves, weighted_move
from engines.rummikub.rules import Rules
from engines.rummikub.sets import Meld, format_meld, meld_tiles
from engines.rummikub.tiles import FULL_SET, RummikubInputError, Tile, format_tiles, sort_tiles

RACK_SIZE = 14
PLAYER_KINDS = ("solver", "planner", "random")


class Player:
    """A strategy: given the table, the rack and the meld flag, return a legal :class:`Move`."""

    name = "player"

    def choose(self, pos: Position, rng: random.Random) -> Move:
        raise NotImplementedError


class SolverPlayer(Player):
    """Greedy: plays the exact best move of the turn (most tiles, then most value)."""

    name = "solver"

    def __init__(self, objective: str = "tiles") -> None:
        self.objective = objective

    def choose(self, pos: Position, rng: random.Random) -> Move:
        return best_move(pos.table, pos.rack, pos.initial_meld_done, self.objective)  # type: ignore[arg-type]


class PlannerPlayer(Player):
    """Plans two turns with the exact solver and holds back what it can play later.

    Candidates: the greedy move (most tiles), the most-value move and the best move that
    keeps the rack's jokers.  Each is scored by the tiles it plays now plus the tiles the
    rest of the rack could play next turn on the table it leaves (the exact best move;
    opponents' turns not modelled).  Greedy never scores less (its move could include the
    next turn's), so the planner plays another candidate only when it reaches the same
    two-turn total with fewer tiles now: tiles, jokers above all, stay in hand for later.
    A move that empties the rack is played at once.  Such ties are rare (jokers are nearly
    always spent in the initial meld), so in play it almost always makes greedy's move:
    measured against greedy in ``benches/README.md`` ("Players").
    """

    name = "planner"

    def choose(self, pos: Position, rng: random.Random) -> Move:
        greedy = best_move(pos.table, pos.rack, pos.initial_meld_done, "tiles")
        if not greedy.played or len(greedy.played) == len(pos.rack):
            return greedy
        keep_jokers = weighted_move(pos, _KEEP_JOKERS, -1)
        candidates = [greedy, best_move(pos.table, pos.rack, pos.initial_meld_done, "value"),
                      keep_jokers]
        candidates = [m for m in candidates if m.played]
        nexts = []
        for move in candidates:
            rest = Counter(pos.rack)
            rest.subtract(move.played)
            nexts.append(Position(tuple(tuple(meld_tiles(m)) for m in move.table),
                                  tuple(rest.elements()), True))
        follow = best_moves(nexts, rules=_COUNT_ONLY)
        scores = [(m.tiles + f.tiles, -m.tiles, i)
                  for i, (m, f) in enumerate(zip(candidates, follow))]
        return candidates[max(scores)[2]]


# the next turn's tiles only are counted: no least disturbance needed
_COUNT_ONLY = Rules(least_disturbance=False)
# gains for "most tiles, then most value" without the jokers (a rack joker is never played)
_KEEP_JOKERS = np.broadcast_to(1000 + np.arange(1, 14, dtype=np.int64), (4, 13)).copy()


class RandomPlayer(Player):
    """Plays a random legal move: the best move under random positive per-tile weights.

    Every weight is positive, so it plays whenever any legal move exists, and
    which move it plays is random.
    """

    name = "random"

    def choose(self, pos: Position, rng: random.Random) -> Move:
        weight = np.array([[rng.randint(1, 1000) for _ in range(13)] for _ in range(4)],
                          dtype=np.int64)
        return weighted_move(pos, weight, rng.randint(1, 1000))


def make_player(kind: str) -> Player:
    if kind == "solver":
        return SolverPlayer()
    if kind == "random":
        return RandomPlayer()
    if kind == "planner":
        return PlannerPlayer()
    raise RummikubInputError(f"unknown player {kind!r}; choose from {', '.join(PLAYER_KINDS)}")


@dataclass
class Turn:
    player: int
    played: list[Tile]
    drew: bool
    table: list[Meld]
    initial: bool = False

    def describe(self, names: Sequence[str]) -> str:
        who = f"P{self.player + 1} ({names[self.player]})"
        if self.played:
            kind = "initial meld" if self.initial else "plays"
            return f"{who} {kind} {format_tiles(self.played)} -> {len(self.table)} sets on table"
        return f"{who} draws" if self.drew else f"{who} passes (pool empty)"


@dataclass
class RoundResult:
    """Outcome of one round: ``scores`` sum to zero; ``winner`` is a player index."""

    players: list[str]
    scores: list[int]
    winner: int
    racks: list[list[Tile]]
    table: list[Meld]
    turns: list[Turn] = field(default_factory=list)
    reason: str = "rack emptied"


def rack_total(rack: Sequence[Tile]) -> int:
    return sum(t.penalty for t in rack)


def score_round(
    racks: Sequence[Sequence[Tile]], winner: int | None = None
) -> tuple[int, list[int]]:
    """Zero-sum scores: ``winner`` emptied the rack, or (``None``) the lowest total wins.

    >>> from engines.rummikub.tiles import parse_tiles
    >>> score_round([[], parse_tiles("R5 J"), parse_tiles("K2")], winner=0)
    (0, [37, -35, -2])
    >>> score_round([parse_tiles("R5"), parse_tiles("K2 B1"), parse_tiles("O9")])
    (1, [-2, 8, -6])
    """
    totals = [rack_total(r) for r in racks]
    if winner is None:
        # Decision: equal lowest totals go to the earliest seat.
        winner = min(range(len(racks)), key=lambda p: (totals[p], p))
    base = totals[winner]
    scores = [-(t - base) for t in totals]
    scores[winner] = -sum(s for p, s in enumerate(scores) if p != winner)
    return winner, scores


def play_round(
    players: Sequence[str | Player],
    seed: int | None = None,
    on_turn: Callable[[Turn], None] | None = None,
) -> RoundResult:
    """Play one round from a seeded shuffle; ``on_turn`` sees each turn as it happens."""
    if not 2 <= len(players) <= 4:
        raise RummikubInputError(f"Rummikub needs 2-4 players, got {len(players)}")
    agents = [make_player(p) if isinstance(p, str) else p for p in players]
    rng = random.Random(seed)
    tiles = list(FULL_SET)
    rng.shuffle(tiles)
    racks = [sort_tiles(tiles[i * RACK_SIZE:(i + 1) * RACK_SIZE]) for i in range(len(agents))]
    pool = tiles[len(agents) * RACK_SIZE:]
    melded = [False] * len(agents)
    table: list[Meld] = []
    turns: list[Turn] = []
    passes = 0
    player = 0
    while True:
        pos = Position(tuple(tuple(meld_tiles(m)) for m in table), tuple(racks[player]),
                       melded[player])
        move = agents[player].choose(pos, rng)
        if move.played:
            left = Counter(racks[player])
            left.subtract(move.played)
            if any(n < 0 for n in left.values()):
                raise AssertionError(f"player {player + 1} played tiles it does not hold")
            racks[player] = sort_tiles(left.elements())
            turn = Turn(player, list(move.played), False, move.table, not melded[player])
            table = move.table
            melded[player] = True
            passes = 0
        elif pool:
            racks[player] = sort_tiles([*racks[player], pool.pop()])
            turn = Turn(player, [], True, table)
            passes = 0
        else:
            turn = Turn(player, [], False, table)
            passes += 1
        turns.append(turn)
        if on_turn is not None:
            on_turn(turn)
        if not racks[player]:
            winner, scores = score_round(racks, player)
            reason = "rack emptied"
            break
        if passes >= len(agents):
            winner, scores = score_round(racks)
            reason = "pool empty and nobody can play"
            break
        player = (player + 1) % len(agents)
    names = [a.name for a in agents]
    return RoundResult(names, scores, winner, racks, table, turns, reason)


def format_table(table: Sequence[Meld]) -> str:
    return " | ".join(format_meld(m) for m in table)
