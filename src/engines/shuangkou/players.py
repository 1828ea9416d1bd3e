"""Computer players for 双扣 rounds: random and heuristic.

A player's :meth:`choose` gets the :class:`~engines.shuangkou.game.Round` and
returns the cards to play (a count array) or None to pass.

>>> import random
>>> from engines.shuangkou.game import play_round
>>> rec = play_round([HeuristicPlayer(), RandomPlayer(random.Random(1))] * 2, random.Random(5))
>>> rec.result.winning_side in ((0, 2), (1, 3))
True
"""

from __future__ import annotations

import random

import numpy as np

from engines.shuangkou.errors import ShuangkouInputError
from engines.shuangkou.game import Round


def _kernels():
    import solvers.shuangkou as kernels

    return kernels


class RandomPlayer:
    """Chooses uniformly among the legal actions (every distinct play, and pass when responding)."""

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, round_: Round) -> np.ndarray | None:
        plays = round_.legal_plays().arrays()
        options = len(plays) + (0 if round_.leading else 1)
        pick = self.rng.randrange(options)
        return None if pick >= len(plays) else plays[pick]


class HeuristicPlayer:
    """A simple strategy: shed many low cards, keep bombs, help the partner.

    Leading: the non-bomb play with the most cards, lowest rank first (a bomb only
    when nothing else is left).  Responding: pass over the partner; over an
    opponent, the lowest non-bomb that beats, else the weakest beating bomb when
    that opponent is close to going out (at most ``bomb_threshold`` cards) or the
    bomb empties our hand; otherwise pass.  A play that empties the hand is
    always taken.
    """

    def __init__(self, bomb_threshold: int = 6) -> None:
        self.bomb_threshold = bomb_threshold

    def choose(self, round_: Round) -> np.ndarray | None:
        k = _kernels()
        plays = round_.legal_plays().arrays()
        if len(plays) == 0:
            return None
        codes = np.zeros(len(plays), dtype=np.int64)
        k.classify_batch(
            plays.view(np.uint32).reshape(len(plays), 15), round_.policy.sf_bomb, codes
        )
        sizes = plays.reshape(len(plays), -1).sum(axis=1)
        hand_size = int(round_.hands[round_.to_move].sum())
        finishing = np.flatnonzero(sizes == hand_size)
        if len(finishing):
            return plays[finishing[0]]
        power = _bomb_powers(codes)
        ranks = codes & 255
        plain = np.flatnonzero(power == 0)
        if round_.leading:
            if len(plain):
                best = plain[np.lexsort((ranks[plain], -sizes[plain]))[0]]
                return plays[best]
            return plays[int(np.argmin(power))]
        if round_.last_player == (round_.to_move + 2) % 4:
            return None
        if len(plain):
            return plays[plain[int(np.argmin(ranks[plain]))]]
        threat = int(round_.hands[round_.last_player].sum()) <= self.bomb_threshold
        if threat:
            return plays[int(np.argmin(power))]
        return None


def _bomb_powers(codes: np.ndarray) -> np.ndarray:
    """The kernels' bomb power of many codes at once (0 for non-bombs)."""
    k = _kernels()
    kind, length, rank = codes >> 16, (codes >> 8) & 255, codes & 255
    tier = np.where(length == 4, 1, np.where(length == 5, 2, length - 2))
    power = np.zeros_like(codes)
    power = np.where(kind == k.BOMB, tier * 256 + rank * 16, power)
    power = np.where(kind == k.STRAIGHT_FLUSH, 768 + length * 16 + rank, power)
    return np.where(kind == k.KING_BOMB, 7 * 256, power)


PLAYER_TYPES = {"random": RandomPlayer, "heuristic": HeuristicPlayer}


def make_player(name: str, rng: random.Random) -> RandomPlayer | HeuristicPlayer:
    """A player by name (``random`` or ``heuristic``)."""
    if name == "random":
        return RandomPlayer(rng)
    if name == "heuristic":
        return HeuristicPlayer()
    raise ShuangkouInputError(f"unknown player {name!r}; choose from random, heuristic")
