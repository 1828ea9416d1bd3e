"""Every exception of the 升级 engine: :class:`ShengjiInputError` and its subclasses.

>>> from engines.shengji.cards import parse_card
>>> try:
...     parse_card("S1")
... except ShengjiInputError as exc:
...     type(exc).__name__
'CardError'
"""

from __future__ import annotations

from engines.errors import InputError

__all__ = ["CardError", "IllegalPlayError", "ShengjiInputError", "TrickError"]


class ShengjiInputError(InputError):
    """Input a Shengji function cannot accept (bad card, third copy, wrong count …)."""


class CardError(ShengjiInputError):
    """A card token that is not one of the 54 card names."""


class IllegalPlayError(ShengjiInputError):
    """A play that breaks the rules (not held, wrong count, or not a legal follow)."""


class TrickError(ShengjiInputError):
    """Plays that are not one trick: none, more than four, an empty play, or a play whose
    number of cards differs from the lead's."""
