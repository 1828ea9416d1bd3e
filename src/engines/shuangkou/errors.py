"""The exceptions of 双扣: one class per kind of defect, all :class:`ShuangkouInputError`.

>>> from engines.shuangkou.cards import parse_cards
>>> try:
...     parse_cards("LJ LJ LJ")
... except ShuangkouInputError as exc:
...     type(exc).__name__
'ThirdCopyError'
"""

from __future__ import annotations

from engines.errors import InputError

__all__ = [
    "CardTextError",
    "DealError",
    "FifthJokerError",
    "IllegalPlayError",
    "NotACombinationError",
    "SearchLimitError",
    "ShuangkouInputError",
    "ThirdCopyError",
]


class ShuangkouInputError(InputError):
    """Base class of the 双扣 input errors."""


class CardTextError(ShuangkouInputError):
    """A token that is not a card (quoted in the message)."""


class ThirdCopyError(ShuangkouInputError):
    """A card appears more than twice: the two decks hold two copies of each."""


class FifthJokerError(ThirdCopyError):
    """More than four jokers: the two decks hold ``LJ LJ BJ BJ``."""


class DealError(ShuangkouInputError):
    """Hands that cannot come from one double deck (too many copies, wrong sizes)."""


class NotACombinationError(ShuangkouInputError):
    """Cards that must form a combination (a previous play) do not."""


class IllegalPlayError(ShuangkouInputError):
    """An action the rules do not allow now; ``reason`` is a short tag
    (``round_over``, ``pass_on_lead``, ``not_held``, ``not_a_combination``, ``does_not_beat``)."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):
        return (type(self), (str(self), self.reason))


class SearchLimitError(ShuangkouInputError):
    """An end-game too large for the node limit or the memory bound of the solver."""
