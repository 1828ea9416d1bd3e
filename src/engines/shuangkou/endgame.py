"""The exact end-game solver of 双扣 (its double-dummy solver).

With every hand known, :func:`solve_endgame` finds the round's result under
best play by both sides: side 0 (seats 0, 2) maximises its points, side 1
minimises them.  The value is side 0's points under the points policy; its
sign tells which side finishes first and ``±P2`` a double win.  The answer
also gives the value of every legal action of the seat on turn (so its best
play), and a principal variation: one line of best play to the round's end,
with the resulting finishing order.

The search (:func:`solvers.shuangkou.search`) is alpha-beta on the four count
arrays with a transposition table, called with null windows that bisect the
possible point values; it stays fast for small end-games (see
benches/README.md for the largest sizes solved in under a second).

Example:
    >>> from engines.shuangkou.game import Round
    >>> from engines.shuangkou.endgame import solve_endgame
    >>> r = Round([["S3", "S4"], ["H9"], ["SQ", "SK"], ["S8", "S8"]], leader=0)
    >>> res = solve_endgame(r)
    >>> res.points, res.best_play
    (-1, ['S3'])
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np

from engines.arguments import integer
from engines.shuangkou.errors import SearchLimitError, ShuangkouInputError
from engines.shuangkou.game import Round

STACK_ROWS = 1 << 15
MAX_STACK_ROWS = 1 << 21


@dataclass
class EndgameResult:
    """The solved position.

    ``points``: side 0's points under best play; ``winning_side``: the side whose
    player finishes first; ``to_move``: the seat on turn; ``double_win``: the side
    on move can force a double win; ``action_values``: every legal action (a
    token list, or ``"pass"``) with side 0's points after it; ``best_play``: the
    best action for the seat on turn; ``line``: a principal variation as
    ``(seat, action)`` pairs; ``finishing_order``: the order it produces;
    ``nodes``: search nodes visited.
    """

    points: int
    winning_side: tuple[int, int]
    to_move: int
    double_win: bool
    action_values: list[tuple[list[str] | str, int]]
    best_play: list[str] | str
    line: list[tuple[int, list[str] | str]] = field(default_factory=list)
    finishing_order: list[int] = field(default_factory=list)
    nodes: int = 0


class _Searcher:
    """One transposition table and move stack, reused for every search of a solve."""

    def __init__(self, policy, tt_bits: int, node_limit: int) -> None:
        import solvers.shuangkou as K

        self.k = K
        self.policy = policy
        self.points = np.array(policy.points, dtype=np.int64)
        self.tt = K.new_table(tt_bits)
        self.zobrist = K.zobrist_keys()
        self.stack = np.zeros((STACK_ROWS, 15, 4), dtype=np.uint8)
        self.stats = np.zeros(3, dtype=np.int64)
        self.stats[2] = node_limit
        self.nodes = 0

    def value(self, game: Round) -> int:
        """Side 0's points from ``game``'s state under best play."""
        if game.is_over:
            return game.result().points[0]  # type: ignore[union-attr]
        # Null-window tests ("is the value at least gamma?") bisect the few possible
        # values; each test prunes far more than one full-window search, and the
        # table carries the bounds from one test to the next.
        lower = -max(abs(p) for p in self.policy.points)
        upper = -lower
        while lower < upper:
            gamma = (lower + upper + 1) // 2
            value = self._search(game, gamma - 1, gamma)
            if value >= gamma:
                lower = value
            else:
                upper = value
        return lower

    def _search(self, game: Round, alpha: int, beta: int) -> int:
        """One fail-soft search in (alpha, beta), growing the move stack when it overflows."""
        first = game.finished[0] if game.finished else -1
        while True:
            self.stats[0] = 0
            self.stats[1] = 0
            value = self.k.search(
                game.hands.copy(), first, game.to_move, game.leading,
                game.last_code if not game.leading else 0,
                max(game.last_player, 0), game.passes, self.policy.sf_bomb, self.points,
                alpha, beta, *self.tt, self.zobrist, self.stack, 0, self.stats,
            )  # fmt: skip
            self.nodes += int(self.stats[0])
            if self.stats[1] == 0:
                return int(value)
            if self.stats[1] == 2:
                raise SearchLimitError(
                    f"position not solved within the node limit of {int(self.stats[2])} nodes"
                )
            if self.stack.shape[0] >= MAX_STACK_ROWS:
                raise SearchLimitError("position too large: the move stack is full")
            self.stack = np.zeros((self.stack.shape[0] * 4, 15, 4), dtype=np.uint8)

    def children(self, game: Round) -> list[tuple[list[str] | str, Round]]:
        actions: list[list[str] | str] = list(game.legal_plays())
        if not game.leading:
            actions.append("pass")
        out = []
        for action in actions:
            child = copy.deepcopy(game)
            child.play(action)
            out.append((action, child))
        return out


def solve_endgame(
    game: Round, *, tt_bits: int = 20, node_limit: int = 50_000_000, line: bool = True
) -> EndgameResult:
    """Solve the round ``game`` (its current state, any trick state) exactly.

    ``tt_bits``: log2 of the transposition table entries (2**20 by default, 20 MB);
    ``node_limit``: give up with :class:`SearchLimitError` past this many nodes;
    ``line``: also compute a principal variation to the round's end.
    """
    if not isinstance(game, Round):
        raise ShuangkouInputError(f"expected a Round, got {type(game).__name__}")
    if game.is_over:
        raise ShuangkouInputError("the round is over: nothing to solve")
    tt_bits = integer(tt_bits, "tt_bits", ShuangkouInputError)
    node_limit = integer(node_limit, "node_limit", ShuangkouInputError)
    if node_limit < 1:
        raise ShuangkouInputError(f"node_limit: expected at least 1, got {node_limit}")
    if not isinstance(line, bool):
        raise ShuangkouInputError(f"line must be True or False, got {line!r}"[:300])
    if not 10 <= tt_bits <= 28:
        raise ShuangkouInputError(f"tt_bits: expected 10–28, got {tt_bits}")
    searcher = _Searcher(game.policy, tt_bits, node_limit)
    maximise = game.to_move % 2 == 0
    values = [(action, searcher.value(child)) for action, child in searcher.children(game)]
    pick = max if maximise else min
    best_value = pick(v for _, v in values)
    best_action = next(a for a, v in values if v == best_value)
    p2 = game.policy.points[0]
    side_sign = 1 if maximise else -1
    first_side = 0 if best_value > 0 else 1
    result = EndgameResult(
        points=best_value,
        winning_side=(first_side, first_side + 2),
        to_move=game.to_move,
        double_win=best_value * side_sign == p2,
        action_values=values,
        best_play=best_action,
        nodes=0,
    )
    if line:
        state = copy.deepcopy(game)
        while not state.is_over:
            options = searcher.children(state)
            for action, child in options:
                if searcher.value(child) == best_value:
                    result.line.append((state.to_move, action))
                    state = child
                    break
        result.finishing_order = list(state.finished)
    result.nodes = searcher.nodes
    return result
