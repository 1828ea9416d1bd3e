"""Board numbering: the dealer and vulnerability printed on duplicate board ``n``.

Dealer rotates N, E, S, W from board 1; vulnerability follows the standard
16-board cycle (the pattern shifts one seat every four boards), so board 17
is like board 1.

>>> board_dealer(1), board_dealer(4), board_dealer(18)
(<Seat.NORTH: 0>, <Seat.WEST: 3>, <Seat.EAST: 1>)
>>> [board_vulnerability(b) for b in (1, 2, 3, 4, 13, 16, 17)]
['None', 'NS', 'EW', 'Both', 'Both', 'EW', 'None']
"""

from __future__ import annotations

from engines.bridge.seats import BridgeInputError, Seat

__all__ = ["board_dealer", "board_info", "board_vulnerability"]

_VULNERABILITY_CYCLE: tuple[str, ...] = (
    "None", "NS", "EW", "Both",
    "NS", "EW", "Both", "None",
    "EW", "Both", "None", "NS",
    "Both", "None", "NS", "EW",
)  # fmt: skip


def _check(board: int) -> int:
    if isinstance(board, bool) or not isinstance(board, int) or board < 1:
        raise BridgeInputError(f"board number {board!r} is not a positive integer")
    return board


def board_dealer(board: int) -> Seat:
    """The dealer of board ``board`` (1-based): N, E, S, W for ``board % 4`` = 1, 2, 3, 0."""
    return Seat((_check(board) - 1) % 4)


def board_vulnerability(board: int) -> str:
    """The vulnerability of board ``board``: ``None``, ``NS``, ``EW`` or ``Both``."""
    return _VULNERABILITY_CYCLE[(_check(board) - 1) % 16]


def board_info(board: int) -> tuple[Seat, str]:
    """``(dealer, vulnerability)`` of a board number."""
    return board_dealer(board), board_vulnerability(board)
