"""Sets on the table (runs and groups), validation and joker annotation.

A placed set is a tuple of :class:`Slot`: the tile and the tile it stands for
(itself for a real tile).

>>> from engines.rummikub.tiles import parse_tiles
>>> meld = validate_set(parse_tiles("R4 J R6"))
>>> format_meld(meld)
'R4 J(R5) R6'
>>> format_meld(validate_set(parse_tiles("K7 R7 J")))
'K7 R7 J(O7)'
>>> validate_set(parse_tiles("R4 R5 B6"))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engines.rummikub.sets.SetError: set [R4 R5 B6] is not valid: not a run (colours R, B differ) and ...
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engines.rummikub.errors import RummikubInputError as RummikubInputError  # re-export
from engines.rummikub.errors import SetError
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile, format_tiles, parse_tiles


class Slot(NamedTuple):
    """A tile in a set and the tile it stands for (a joker's meaning; a real tile's self)."""

    tile: Tile
    stands_for: Tile

    def __str__(self) -> str:
        return f"J({self.stands_for})" if self.tile.is_joker else str(self.tile)


Meld = tuple[Slot, ...]


def checked_meld(meld: object) -> Meld:
    """``meld`` if it is a sequence of :class:`Slot` of real tiles (else a :class:`SetError`)."""
    if not isinstance(meld, tuple | list) or not all(
        isinstance(slot, Slot) and isinstance(slot.tile, Tile) and isinstance(slot.stands_for, Tile)
        for slot in meld
    ):
        raise SetError(
            f"expected a meld (a sequence of Slot(tile, stands_for)), got {meld!r}"[:300]
        )
    return tuple(meld)


def format_meld(meld: Meld) -> str:
    return " ".join(str(slot) for slot in checked_meld(meld))


def meld_tiles(meld: Meld) -> list[Tile]:
    return [slot.tile for slot in meld]


def meld_value(meld: Meld) -> int:
    """Sum of the numbers the tiles stand for (what counts towards the initial meld)."""
    return sum(slot.stands_for.number for slot in meld)


def _run_reason(tiles: Sequence[Tile], top: int = 13) -> tuple[Meld | None, str]:
    real = [t for t in tiles if not t.is_joker]
    colours = sorted({t.colour for t in real}, key=ALL_COLOURS.index)
    if len(colours) > 1:
        return None, f"colours {', '.join(colours)} differ"
    numbers = sorted(t.number for t in real)
    if len(set(numbers)) < len(numbers):
        dup = next(n for n in numbers if numbers.count(n) > 1)
        return None, f"number {dup} twice"
    length = len(tiles)
    if length > top:
        return None, f"longer than {top}"
    lo, hi = numbers[0], numbers[-1]
    if hi - lo + 1 > length:
        return None, f"gap between {lo} and {hi} needs {hi - lo + 1 - len(real)} jokers"
    colour = colours[0]
    # Keep the written order when it is a consecutive run (a joker stays where it was put);
    # otherwise put spare jokers after the highest tile, or before the lowest at ``top``.
    start = None
    first_real = next(i for i, t in enumerate(tiles) if not t.is_joker)
    s = tiles[first_real].number - first_real
    if (
        s >= 1
        and s + length - 1 <= top
        and all(t.is_joker or t.number == s + i for i, t in enumerate(tiles))
    ):
        start = s
    if start is None:
        start = min(lo, top - length + 1)
    by_number = {t.number: t for t in real}
    meld = []
    for n in range(start, start + length):
        tile = by_number.get(n, JOKER)
        meld.append(Slot(tile, Tile(colour, n)))
    return tuple(meld), ""


def _group_reason(tiles: Sequence[Tile], colours: int = 4) -> tuple[Meld | None, str]:
    real = [t for t in tiles if not t.is_joker]
    numbers = sorted({t.number for t in real})
    if len(numbers) > 1:
        return None, f"numbers {', '.join(map(str, numbers))} differ"
    if len(tiles) > colours:
        return None, f"more than {colours} tiles"
    letters = ALL_COLOURS[: max(4, colours)]
    colours = [t.colour for t in real]
    if len(set(colours)) < len(colours):
        dup = next(c for c in colours if colours.count(c) > 1)
        return None, f"colour {dup} twice"
    missing = iter(c for c in letters if c not in colours)
    number = numbers[0]
    meld = tuple(Slot(t, Tile(next(missing), number) if t.is_joker else t) for t in tiles)
    return meld, ""


# The shortest set any house rule allows (``min_set_length=2``): sets already checked
# against their rules' length are read again with it.
SHORTEST_SET = 2


def validate_set(tiles: Sequence[Tile], where: str = "set", min_len: int = 3,
                 colours: int = 4, numbers: int = 13) -> Meld:
    """Check one set of at least ``min_len`` tiles (3: the rules document's; 2 under
    ``min_set_length=2``) and return it with each joker's meaning; raise :class:`SetError`.
    ``colours``/``numbers``: a smaller tile set's (a group holds at most ``colours`` tiles,
    a run's jokers stand for numbers up to ``numbers``).

    >>> format_meld(validate_set(parse_tiles("R5 J"), min_len=2))
    'R5 J(K5)'
    """
    tiles = parse_tiles(tiles, wide=colours > 4 or numbers > 13)
    if len(tiles) < min_len:
        raise SetError(
            f"{where} [{format_tiles(tiles)}] is not valid: a set needs at least {min_len} tiles"
        )
    real = [t for t in tiles if t.colour != "J"]
    if not real:
        raise SetError(
            f"{where} [{format_tiles(tiles)}] is not valid: a set needs a tile that is not a joker"
        )
    group, why_group = _group_reason(tiles, colours)
    run, why_run = _run_reason(tiles, numbers)
    if run is not None and (group is None or len({t.number for t in real}) > 1):
        return run
    if group is not None:
        return group
    raise SetError(
        f"{where} [{format_tiles(tiles)}] is not valid: not a run ({why_run}) and "
        f"not a group ({why_group})"
    )


def is_valid_set(tiles: Sequence[Tile], min_len: int = 3) -> bool:
    try:
        validate_set(tiles, min_len=min_len)
    except SetError:
        return False
    return True


def check_meld(meld: Meld, min_len: int = 3, tile_colours: int = 4) -> str | None:
    """Why an annotated set is invalid, or ``None``: real tiles stand for themselves and the
    meanings form a run (one colour, consecutive) or a group (one number, distinct colours,
    at most ``tile_colours`` of them: more than 4 in a generalised tile set) (``min_len``: the
    shortest set; longer minima are :meth:`Rules.move_problems`'s)."""
    meld = checked_meld(meld)
    if len(meld) < min(3, min_len):
        return f"fewer than {min(3, min_len)} tiles"
    for s in meld:
        if s.tile.is_joker:
            if s.stands_for.is_joker:
                return "a joker stands for a joker"
        elif s.tile != s.stands_for:
            return f"{s.tile} stands for {s.stands_for}"
    if all(s.tile.is_joker for s in meld):
        return "only jokers"
    means = [s.stands_for for s in meld]
    colours = {t.colour for t in means}
    numbers = sorted(t.number for t in means)
    if len(colours) == 1:
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            return "run numbers are not consecutive"
        return None
    if len(set(numbers)) == 1:
        if len(colours) != len(means) or len(means) > max(4, tile_colours):
            return "group colours repeat"
        return None
    return "neither a run nor a group"
