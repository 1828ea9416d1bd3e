"""Tiles: parsing and printing (``R5``, ``K13``, ``J``) and tile counts.

>>> Tile.parse(" r5 ")
Tile('R5')
>>> str(Tile.parse("J")), Tile.parse("K13").number
('J', 13)
>>> parse_tiles("R5 R6 J")
[Tile('R5'), Tile('R6'), Tile('J')]
>>> Tile.parse("R14")
Traceback (most recent call last):
...
engines.rummikub.tiles.TileError: unknown tile 'R14': number must be 1..13
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, NamedTuple

from engines.rummikub.errors import RummikubInputError as RummikubInputError  # re-export
from engines.rummikub.errors import TileError

#: Colour letters in the project's order: black, red, orange, blue.
COLOURS = "KROB"
COLOUR_NAMES = {"K": "black", "R": "red", "O": "orange", "B": "blue"}
#: Colour letters of generalised tile sets (house rules), the standard four first.
ALL_COLOURS = "KROBGYPW"
NUMBERS = range(1, 14)
COPIES = 2
JOKERS = 2
JOKER_PENALTY = 30


class _TileFields(NamedTuple):
    colour: str
    number: int


class Tile(_TileFields):
    """One tile: ``colour`` is one of ``K R O B`` (``"J"`` for the joker), ``number`` 1..13 (0).

    ``colour`` must be text and ``number`` a Python ``int``: ``Tile("R", 5.0)``,
    ``Tile("R", True)`` or a NumPy number would compare and hash equal to a real
    tile and slip through the look-ups, so they are refused here.  The range is
    checked where tiles enter a position (:func:`parse_tiles`).

    >>> Tile("R", 5.0)
    Traceback (most recent call last):
    ...
    engines.rummikub.errors.TileError: not a tile: Tile(colour='R', number=5.0); ...
    """

    __slots__ = ()

    def __new__(cls, colour: str, number: int) -> Tile:
        if type(colour) is not str or type(number) is not int:
            raise TileError(
                f"not a tile: Tile(colour={colour!r}, number={number!r}); the colour must be "
                "text and the number an int"[:300]
            )
        return super().__new__(cls, colour, number)

    def __reduce__(self) -> tuple[Any, tuple[tuple[str, int]]]:
        # unpickling gives back exactly what was pickled (checks happen where tiles are used)
        return (Tile._make, (tuple(self),))

    @classmethod
    def parse(cls, text: str, wide: bool = False) -> Tile:
        """Parse ``R5``, ``k13``, `` J ``; raise :class:`TileError` quoting the bad text.
        ``wide``: the generalised tile sets' tiles too (colours ``KROBGYPW``, numbers
        1..26: ``G20``; the rules' own tile set is checked where it is known).

        >>> Tile.parse("g20", wide=True)
        Tile('G20')
        """
        known = _PARSED.get(text) if isinstance(text, str) else None
        if known is not None:
            return known
        if wide:
            return _parse_wide(text)
        if not isinstance(text, str):
            raise TileError(f"unknown tile {text!r}: expected text such as 'R5' or 'J'")
        s = text.strip().upper()
        if s == "J":
            return JOKER
        if len(s) < 2 or s[0] not in COLOURS:
            raise TileError(
                f"unknown tile {text!r}: expected a colour letter K, R, O or B and a number "
                "1..13, or J"
            )
        digits = s[1:]
        if not digits.isdigit() or digits != digits.lstrip("0") or not digits.isascii():
            raise TileError(f"unknown tile {text!r}: number must be 1..13")
        number = int(digits)
        if number not in NUMBERS:
            raise TileError(f"unknown tile {text!r}: number must be 1..13")
        return cls(s[0], number)

    @property
    def is_joker(self) -> bool:
        return self.colour == "J"

    @property
    def colour_index(self) -> int:
        """0..3 in ``K R O B`` order (4 for the joker)."""
        return 4 if self.is_joker else COLOURS.index(self.colour)

    @property
    def penalty(self) -> int:
        """What the tile costs when left on a rack at the end of a round (joker 30)."""
        return JOKER_PENALTY if self.is_joker else self.number

    def sort_key(self) -> tuple[int, int]:
        """Colours in ``KROBGYPW`` order, then numbers; the joker last."""
        return (len(ALL_COLOURS) if self.is_joker else ALL_COLOURS.index(self.colour),
                self.number)

    def __str__(self) -> str:
        return "J" if self.is_joker else f"{self.colour}{self.number}"

    def __repr__(self) -> str:
        return f"Tile('{self}')"


def _parse_wide(text: object) -> Tile:
    known = _WIDE_PARSED.get(text.strip().upper()) if isinstance(text, str) else None
    if known is None:
        raise TileError(f"unknown tile {text!r}: expected a colour letter of {ALL_COLOURS} "
                        f"and a number 1..{MAX_NUMBER}, or J")
    return known


JOKER = Tile("J", 0)
# The 53 canonical spellings, so parsing a position is a dictionary look-up.
_PARSED: dict[str, Tile] = {"J": JOKER, **{f"{c}{n}": Tile(c, n) for c in COLOURS for n in NUMBERS}}

_CANONICAL: dict[Tile, Tile] = {tile: tile for tile in _PARSED.values()}
#: The highest number of the generalised tile sets (house rules).
MAX_NUMBER = 26
# The generalised tile sets' spellings (colours KROBGYPW, numbers 1..26) and tiles.
_WIDE_PARSED: dict[str, Tile] = {"J": JOKER, **{
    f"{c}{n}": _CANONICAL.get(Tile(c, n), Tile(c, n))
    for c in ALL_COLOURS for n in range(1, MAX_NUMBER + 1)}}
_WIDE_CANONICAL: dict[Tile, Tile] = {tile: tile for tile in _WIDE_PARSED.values()}

#: All 106 tiles of a Sabra set, two copies of each colour/number and two jokers.
FULL_SET: tuple[Tile, ...] = tuple(
    [Tile(c, n) for c in COLOURS for n in NUMBERS for _ in range(COPIES)] + [JOKER] * JOKERS
)


def parse_tiles(tiles: str | Iterable[str | Tile], wide: bool = False) -> list[Tile]:
    """Parse a whitespace/comma separated string or an iterable of tile texts or Tiles
    (``wide``: the generalised tile sets' tiles too, see :meth:`Tile.parse`).

    A :class:`Tile` built by hand is checked too (``Tile("K", 0)`` or
    ``Tile("R", 14)`` is not a tile of the set):

    >>> parse_tiles([Tile("K", 0)])
    Traceback (most recent call last):
    ...
    engines.rummikub.tiles.TileError: not a tile: Tile(colour='K', number=0); ...
    """
    if isinstance(tiles, str):
        tiles = tiles.replace(",", " ").split()
    elif isinstance(tiles, Tile) or not isinstance(tiles, Iterable):
        raise TileError(f"expected tile text or a list of tiles, got {tiles!r}")
    if wide:
        return [checked_tile(t, True) if isinstance(t, Tile) else _parse_wide(t)
                for t in tiles]
    return [checked_tile(t) if isinstance(t, Tile) else Tile.parse(t) for t in tiles]


def checked_tile(tile: Tile, wide: bool = False) -> Tile:
    """``tile`` if it is one of the 53 tiles (colour ``K R O B`` with 1..13, or the joker;
    ``wide``: or a generalised tile set's, colours ``KROBGYPW`` with 1..26)."""
    colour, number = tile
    if type(colour) is str and type(number) is int:
        known = (_WIDE_CANONICAL if wide else _CANONICAL).get(tile)
        if known is not None:
            return known
    raise TileError(
        f"not a tile: Tile(colour={colour!r}, number={number!r}); expected colour K, R, O or B "
        "with number 1..13, or the joker Tile('J', 0)"
    )


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(str(t) for t in tiles)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    return sorted(tiles, key=Tile.sort_key)


def check_counts(tiles: Iterable[Tile], where: str = "", jokers: int = JOKERS,
                 copies: int = COPIES) -> None:
    """Raise :class:`TileError` when a tile appears more than ``copies`` times or there are
    more than ``jokers`` jokers (2 and 2; a house rule's tile set may have more)."""
    counts = Counter(tiles)
    if max(counts.values(), default=0) <= min(copies, jokers):
        return
    suffix = f" in {where}" if where else ""
    for tile, n in sorted(counts.items(), key=lambda item: item[0].sort_key()):
        if tile.is_joker and n > jokers:
            raise TileError(f"{n} jokers{suffix}: the set has only {jokers}")
        if not tile.is_joker and n > copies:
            raise TileError(f"{n} copies of {tile}{suffix}: the set has only {copies}")
