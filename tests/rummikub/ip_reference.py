"""The engine side of the reference oracle: house-rule positions solved by the integer
programme of ``ip_model.py`` (loaded as ``rummikub_ip_model`` by ``tests/conftest.py``).

Tiles and sets are read and checked against the rules' tile set (colour letters
``KROBGYPW`` up to ``colours``, numbers up to ``numbers``, at most ``copies`` of a tile and
``jokers`` jokers, sets of ``min_set_length``+ tiles with ``min_real_tiles`` real ones),
then the programme's answer becomes a :class:`~engines.rummikub.position.Move`.
:func:`reference_move` returns it with the table tiles moved under ``fewest_tiles_moved``
(-1 without it).

>>> from engines.rummikub.rules import Rules
>>> rules = Rules(colours=5, numbers=20, min_set_length=4)
>>> move, _ = reference_move([["G17", "G18", "G19", "G20"]], "G16 R5", True, "tiles", rules)
>>> [format_meld(m) for m in move.table], move.tiles
(['G16 G17 G18 G19 G20'], 1)
>>> reference_move([["R1", "R2", "R3"]], "R4", True, "tiles", rules)
Traceback (most recent call last):
...
engines.rummikub.errors.SetError: table set 1 [R1 R2 R3] is not valid: a set needs at least 4 tiles
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

import numpy as np
from rummikub_ip_model import OFFICIAL_GROUP, OFFICIAL_RUN, TableSet, TileSpec, solve_ip

from engines.rummikub.errors import PositionError, SetError, TileError
from engines.rummikub.position import _BIG, _MID, Move, objective_weights
from engines.rummikub.rules import Rules
from engines.rummikub.sets import Meld, Slot, format_meld
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile, format_tiles

__all__ = ["format_meld", "parse_variant_tiles", "position_rules", "reference_move",
           "validate_variant_set"]


def _letters(rules: Rules) -> str:
    return ALL_COLOURS[: rules.colours]


def _tile_spec(rules: Rules) -> TileSpec:
    return TileSpec(rules.colours, rules.numbers, rules.copies, rules.jokers,
                    rules.min_set_length, rules.min_real_tiles)


def _bad_tile(text: object, rules: Rules) -> TileError:
    letters = ", ".join(_letters(rules))
    joker = ", or J" if rules.jokers else ""
    return TileError(f"unknown tile {text!r}: expected a colour letter {letters} and a number "
                     f"1..{rules.numbers}{joker}")


def parse_variant_tile(item: object, rules: Rules) -> Tile:
    """One tile of the rules' tile set from text (``G17``) or a :class:`Tile`."""
    if isinstance(item, Tile):
        colour, number = item
        if colour == "J" and number == 0 and rules.jokers:
            return JOKER
        if colour in _letters(rules) and type(number) is int and \
                1 <= number <= rules.numbers:
            return Tile(colour, number)
        raise _bad_tile(item, rules)
    if not isinstance(item, str):
        raise _bad_tile(item, rules)
    s = item.strip().upper()
    if s == "J" and rules.jokers:
        return JOKER
    digits = s[1:]
    if len(s) < 2 or s[0] not in _letters(rules) or not digits.isascii() \
            or not digits.isdigit() or digits != digits.lstrip("0") \
            or not 1 <= int(digits) <= rules.numbers:
        raise _bad_tile(item, rules)
    return Tile(s[0], int(digits))


def parse_variant_tiles(tiles: Iterable[object] | str, rules: Rules) -> list[Tile]:
    if isinstance(tiles, str):
        tiles = tiles.replace(",", " ").split()
    elif isinstance(tiles, Tile) or not isinstance(tiles, Iterable):
        raise TileError(f"expected tile text or a list of tiles, got {tiles!r}")
    return [parse_variant_tile(t, rules) for t in tiles]


def validate_variant_set(tiles: Sequence[Tile], rules: Rules, where: str = "set") -> Meld:
    """Check a set under ``rules`` and return it with each joker's meaning (as
    :func:`~engines.rummikub.sets.validate_set` does for the standard rules)."""
    tiles = list(tiles)
    real = [t for t in tiles if not t.is_joker]
    text = f"{where} [{format_tiles(tiles)}] is not valid"
    if len(tiles) < rules.min_set_length:
        raise SetError(f"{text}: a set needs at least {rules.min_set_length} tiles")
    if len(real) < rules.min_real_tiles:
        raise SetError(f"{text}: a set needs at least {rules.min_real_tiles} tile(s) that "
                       "are not jokers")
    letters = _letters(rules)
    colours = {t.colour for t in real}
    numbers = sorted(t.number for t in real)
    if len(colours) == 1 and len(set(numbers)) == len(numbers) and \
            (len(numbers) > 1 or len(tiles) > rules.colours):
        lo, hi = numbers[0], numbers[-1]
        if hi - lo + 1 <= len(tiles) <= rules.numbers:
            colour = real[0].colour
            start = min(lo, rules.numbers - len(tiles) + 1)
            first = next(i for i, t in enumerate(tiles) if not t.is_joker)
            s = tiles[first].number - first  # keep a consecutive written order
            if s >= 1 and s + len(tiles) - 1 <= rules.numbers and all(
                    t.is_joker or t.number == s + i for i, t in enumerate(tiles)):
                start = s
            by_number = {t.number: t for t in real}
            return tuple(Slot(by_number.get(n, JOKER), Tile(colour, n))
                         for n in range(start, start + len(tiles)))
    if len(set(numbers)) == 1 and len(colours) == len(real) and len(tiles) <= rules.colours:
        missing = iter(c for c in letters if c not in colours)
        return tuple(Slot(t, Tile(next(missing), numbers[0]) if t.is_joker else t)
                     for t in tiles)
    raise SetError(f"{text}: neither a run nor a group of these rules")


def _check_counts(tiles: Iterable[Tile], rules: Rules) -> None:
    for tile, n in Counter(tiles).items():
        if tile.is_joker and n > rules.jokers:
            raise PositionError(f"{n} jokers: the tile set has only {rules.jokers}")
        if not tile.is_joker and n > rules.copies:
            raise PositionError(f"{n} copies of {tile}: the tile set has only {rules.copies}")


def _table_set(meld: Meld, rules: Rules):
    letters = _letters(rules)
    counts = np.zeros((rules.colours, rules.numbers), np.int64)
    places = []
    real_colours = {s.tile.colour for s in meld if not s.tile.is_joker}
    is_run = len({s.stands_for.colour for s in meld}) == 1  # a group's colours differ
    for slot in meld:
        c, v = letters.index(slot.stands_for.colour), slot.stands_for.number - 1
        if not slot.tile.is_joker:
            counts[c, v] += 1
        elif is_run:
            places.append((OFFICIAL_RUN, c, v))
        else:  # group: the joker may stand for any colour the group lacks
            mask = sum(1 << i for i, x in enumerate(letters) if x not in real_colours)
            places.append((OFFICIAL_GROUP, mask, v))
    first = meld[0].stands_for
    if is_run:
        return TableSet(counts, len(places), places, run_colour=letters.index(first.colour))
    return TableSet(counts, len(places), places, group_number=first.number - 1)


def _melds(sets: list[list[tuple[bool, int, int]]], letters: str) -> list[Meld]:
    return [tuple(Slot(JOKER if joker else Tile(letters[c], v), Tile(letters[c], v))
                  for joker, c, v in s) for s in sets]


def reference_move(table: Iterable[Iterable[object]], rack: Iterable[object] | str,
                   melded: bool, objective: str, rules: Rules) -> tuple[Move, int]:
    """The best move under ``rules`` by the integer programme, and the table tiles it moves
    under ``fewest_tiles_moved`` (-1 without it)."""
    old_tiles = []
    old = []
    for i, s in enumerate(table, 1):
        if isinstance(s, str):
            s = s.replace(",", " ").split()
        tiles = parse_variant_tiles(s, rules)
        old_tiles.append(tuple(tiles))
        old.append(validate_variant_set(tiles, rules, f"table set {i}"))
    rack_tiles = parse_variant_tiles(rack, rules)
    _check_counts([t for s in old_tiles for t in s] + rack_tiles, rules)
    _, joker_weight = objective_weights(objective)  # also checks the objective's name
    weight = _weights(objective, np.arange(1, rules.numbers + 1), rules.colours)
    letters = _letters(rules)
    counts = np.zeros((rules.colours, rules.numbers), np.int64)
    for t in rack_tiles:
        if not t.is_joker:
            counts[letters.index(t.colour), t.number - 1] += 1
    rack_jokers = sum(t.is_joker for t in rack_tiles)
    result = solve_ip(
        _tile_spec(rules), [_table_set(m, rules) for m in old], counts, rack_jokers, weight,
        joker_weight, melded=melded, threshold=rules.meld_threshold,
        joker_counts=rules.meld_joker == "stands-for", meld_continue=rules.meld_continue,
        official=rules.joker_retrieval == "official",
        least_disturbance=rules.least_disturbance, fewest_moved=rules.fewest_moved)
    if not result.feasible:  # cannot happen: the table's own sets are an arrangement
        raise PositionError("the table cannot be arranged")
    played = [Tile(letters[c], v + 1) for c in range(rules.colours)
              for v in range(rules.numbers) for _ in range(result.played[c, v])]
    played += [JOKER] * result.played_jokers
    value = sum(t.number for t in played)
    if not played:  # a pass leaves the table as it was
        return Move([], old, 0, 0, previous=old_tiles), result.moved
    new = _melds(result.sets, letters)
    if not melded and not rules.meld_continue:
        return Move(played, old + new, len(played), value, new_sets=new,
                    previous=old_tiles), result.moved
    kept = [old[i] for i in result.kept]
    meld = _melds(result.meld, letters) if not melded else []
    return Move(played, kept + new, len(played), value, new_sets=meld,
                previous=old_tiles), result.moved


def _weights(objective: str, numbers: np.ndarray, colours: int) -> np.ndarray:
    """The engine's objective weights (see ``objective_weights``) for numbers up to 26."""
    w = _BIG + _MID * numbers if objective == "tiles" else _BIG * numbers + _MID
    return np.broadcast_to(w, (colours, len(numbers))).astype(np.int64)


def _is_joker(item: object) -> bool:
    if isinstance(item, Tile):
        return item.is_joker
    return isinstance(item, str) and item.strip().upper() == "J"


def position_rules(rules: Rules, table: Sequence[Sequence[object]], rack: Sequence[object],
                   melded: bool) -> Rules:
    """``rules`` with the options that cannot change this position's answer reset to their
    defaults (official retrieval with no table joker, two real tiles per set with too few
    jokers to matter, meld then continue once melded, least disturbance with nothing to
    keep)."""
    table_jokers = sum(_is_joker(t) for s in table for t in s)
    jokers = table_jokers + sum(map(_is_joker, rack))
    touch = melded or rules.meld_continue
    changes: dict[str, object] = {}
    if melded and rules.meld_continue:
        changes["meld_continue"] = False
    if not touch or table_jokers == 0:
        changes["joker_retrieval"] = "free"
    if jokers <= rules.min_set_length - rules.min_real_tiles:
        changes["min_real_tiles"] = 1  # every set has enough real tiles anyway
    if not touch or not table:
        changes["least_disturbance"] = changes["fewest_tiles_moved"] = False
    return replace(rules, **changes) if changes else rules
