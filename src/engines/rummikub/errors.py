"""Every exception of the Rummikub engine: :class:`RummikubInputError` and its subclasses.

>>> from engines.rummikub import parse_tiles
>>> try:
...     parse_tiles("R14")
... except RummikubInputError as exc:
...     type(exc).__name__
'TileError'
"""

from __future__ import annotations

from engines.errors import InputError

__all__ = ["PositionError", "RuleError", "RummikubInputError", "SetError", "TileError"]


class RummikubInputError(InputError):
    """Base class of every Rummikub input error."""


class TileError(RummikubInputError):
    """A tile text that is not a tile, or too many copies of a tile."""


class SetError(RummikubInputError):
    """A table set that is neither a run nor a group."""


class PositionError(RummikubInputError):
    """A position that cannot be read (bad fields, too many copies, invalid table set)."""


class RuleError(RummikubInputError):
    """A rule variant that is not known or has a value out of range."""
