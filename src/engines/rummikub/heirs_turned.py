"""The table with its numbers turned round, for the fewest-tiles-moved pass downwards.

The pass (:mod:`engines.rummikub.heirs`) runs over the numbers upwards; downwards it is
the same pass on the table with each number n read as ``numbers + 1 - n`` (a run's tiles
in the turned order), the objective's gains turned with it, and its new sets turned back.

>>> from engines.rummikub.tiles import parse_tiles
>>> " ".join(map(str, turned_set(tuple(parse_tiles("R3 R4 J")), 13)))
'J R10 R11'
"""

from __future__ import annotations

from engines.rummikub.sets import Meld, Slot
from engines.rummikub.tiles import Tile

__all__ = ["turned_meld", "turned_set"]


def turned_set(tiles: tuple[Tile, ...], numbers: int) -> tuple[Tile, ...]:
    """A table set with its numbers turned round (n -> ``numbers`` + 1 - n), a run's tiles
    in the turned order: the pass downwards is the pass upwards on the turned table."""
    return tuple(t if t.is_joker else Tile(t.colour, numbers + 1 - t.number)
                 for t in reversed(tiles))


def turned_meld(meld: Meld, numbers: int) -> Meld:
    """A meld of the turned table as a meld of the table (:func:`turned_set`)."""
    back = [Slot(s.tile if s.tile.is_joker else Tile(s.tile.colour, numbers + 1 - s.tile.number),
                 Tile(s.stands_for.colour, numbers + 1 - s.stands_for.number)) for s in meld]
    groups = len({s.stands_for.number for s in meld}) == 1
    return tuple(back) if groups else tuple(reversed(back))
