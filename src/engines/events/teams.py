"""Team matches (VP 队式赛) and the ladder of teams (梯级挑战赛).

A team match compares each board's two rooms (open: team A N-S; closed: team
B N-S) in IMPs and converts the margin to victory points on the WBF 20-VP
scale of :func:`engines.bridge.compare.victory_points`.  On the ladder a team
may challenge one at most ``reach`` places above it and takes its place when
it wins the match (VP over 10).

>>> team_match([(420, 420), (420, -50), (-100, 140)]).board_imps
[0, 10, -6]
>>> ladder(["A", "B", "C"], [Challenge("C", "A", 8, 5), Join("D")]).order
['C', 'A', 'B', 'D']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engines.arguments import as_list, check_fields, list_of
from engines.bridge.compare import imps, victory_points
from engines.events.common import need_int
from engines.events.errors import EventInputError

__all__ = ["Challenge", "Join", "LadderResult", "MatchResult", "ladder", "team_match"]


@dataclass(frozen=True)
class MatchResult:
    """A team match from team A's point of view."""

    board_imps: list[int]
    imps_a: int
    imps_b: int
    margin: int
    vp_a: float
    vp_b: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "board_imps": self.board_imps,
            "imps_a": self.imps_a,
            "imps_b": self.imps_b,
            "margin": self.margin,
            "vp_a": self.vp_a,
            "vp_b": self.vp_b,
        }


def team_match(boards: Sequence[tuple[int, int]]) -> MatchResult:
    """Score a match from each board's ``(open N-S score, closed N-S score)``.

    >>> team_match([(1430, -100)] * 4 + [(0, 0)] * 12).to_dict()["vp_a"]
    20.0
    """
    boards = as_list(boards, "boards", EventInputError)
    if not boards:
        raise EventInputError("a team match needs at least one board")
    board_imps = []
    for number, pair in enumerate(boards, start=1):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise EventInputError(f"board {number}: give the open and the closed N-S score")
        open_score = need_int(pair[0], f"board {number}: open")
        closed_score = need_int(pair[1], f"board {number}: closed")
        board_imps.append(imps(open_score - closed_score))
    imps_a = sum(v for v in board_imps if v > 0)
    imps_b = -sum(v for v in board_imps if v < 0)
    vp_a, vp_b = victory_points(imps_a - imps_b, len(board_imps))
    return MatchResult(board_imps, imps_a, imps_b, imps_a - imps_b, vp_a, vp_b)


@dataclass(frozen=True)
class Challenge:
    """``challenger`` plays ``challenged`` over ``boards`` boards and wins the IMP ``margin``."""

    challenger: str
    challenged: str
    boards: int
    margin: int

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class Join:
    """A team joins the ladder at the bottom."""

    team: str

    def __post_init__(self) -> None:
        check_fields(self, EventInputError)


@dataclass(frozen=True)
class LadderResult:
    """The final ladder (position 1 first) and one log entry per operation."""

    order: list[str]
    log: list[dict[str, Any]]


def ladder(teams: Sequence[str], ops: Iterable[Challenge | Join], reach: int = 3) -> LadderResult:
    """Apply challenges and joins in order.

    A challenge is valid when both teams are on the ladder and the challenged
    team stands 1..``reach`` places above the challenger; the challenger wins
    when its VP exceeds 10 (a tie fails), takes the place and pushes everyone
    from there down one.  Invalid operations change nothing.
    """
    reach = need_int(reach, "reach")
    teams = list_of(teams, str, "teams", EventInputError)
    ops = list_of(ops, (Challenge, Join), "ops", EventInputError)
    if reach < 1:
        raise EventInputError(f"reach must be at least 1, got {reach}")
    order = list(teams)
    if len(set(order)) != len(order):
        raise EventInputError("a team stands on the ladder twice")
    log: list[dict[str, Any]] = []
    for op in ops:
        if isinstance(op, Join):
            valid = op.team not in order
            if valid:
                order.append(op.team)
            log.append({"valid": valid})
            continue
        c, t = op.challenger, op.challenged
        valid = c in order and t in order and c != t
        if valid:
            pc, pt = order.index(c), order.index(t)
            valid = pc - reach <= pt < pc
        if not valid:
            log.append({"valid": False, "vp": None, "success": False})
            continue
        vp = victory_points(need_int(op.margin, "margin"), need_int(op.boards, "boards"))[0]
        success = vp > 10
        if success:
            order.remove(c)
            order.insert(pt, c)
        log.append({"valid": True, "vp": vp, "success": success})
    return LadderResult(order, log)
