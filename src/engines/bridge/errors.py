"""Every exception of the bridge engine: :class:`BridgeInputError` and one subclass per defect.

All are :class:`~engines.errors.InputError`\\ s (so ``ValueError``\\ s): the
message names what is wrong and where.

>>> from engines.bridge import Deal
>>> try:
...     Deal.from_pbn("N:AKQ")
... except BridgeInputError as exc:
...     type(exc).__name__
'DealSyntaxError'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.errors import InputError

if TYPE_CHECKING:
    from engines.bridge.cards import Status
    from engines.bridge.pbn_board import PbnDefect

__all__ = [
    "AuctionError",
    "BridgeInputError",
    "ConstraintError",
    "DealSyntaxError",
    "HandError",
    "ImpossibleConstraintsError",
    "InvalidDealError",
    "PbnSyntaxError",
    "PlayError",
    "RareConstraintsError",
    "SeatError",
    "StrainError",
]


class BridgeInputError(InputError):
    """A bridge value (seat, strain, card, deal, contract, file) that cannot be accepted."""


class SeatError(BridgeInputError):
    """Not a seat: neither ``N E S W`` (any case, full names too) nor a Seat / index 0..3."""


class StrainError(BridgeInputError):
    """Not a strain: neither ``C D H S NT`` (symbols too) nor a :class:`Strain`."""


class DealSyntaxError(BridgeInputError):
    """Text that is not a card, hand or PBN deal; the message quotes the bad text."""


class HandError(BridgeInputError):
    """Suit masks that are not a hand: not four integers 0..8191 (13 bits, deuce = bit 0)."""


class InvalidDealError(BridgeInputError):
    """A syntactically fine deal that cannot be played; ``status`` lists every defect."""

    def __init__(self, message: str, status: Status) -> None:
        super().__init__(message)
        self.status = status


class AuctionError(BridgeInputError):
    """An illegal call or an unreadable auction; the message names the call and why."""


class PlayError(BridgeInputError):
    """An illegal or impossible card in a play record; the message names trick and card."""


class PbnSyntaxError(BridgeInputError):
    """Raised by the strict helpers when a file has defects; ``errors`` lists them all."""

    def __init__(self, errors: list[PbnDefect], source: str = "") -> None:
        prefix = f"{source}: " if source else ""
        shown = "; ".join(str(e) for e in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{prefix}{shown}{more}")
        self.errors = errors


class ConstraintError(BridgeInputError):
    """A constraint expression that cannot be compiled; the message points at the problem."""


class ImpossibleConstraintsError(BridgeInputError):
    """No deal satisfied the constraints (they are impossible, or rarer than 1 in max_tries)."""


class RareConstraintsError(BridgeInputError):
    """The constraints are satisfiable but too rare to find ``n`` deals within ``max_tries``."""
