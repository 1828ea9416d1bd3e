"""Best moves under the house rules the integer programme solves (:mod:`solvers.rummikub_ip`).

The engine side: tiles and sets are read and checked against the rules' tile set (colour
letters ``KROBGYPW`` up to ``colours``, numbers up to ``numbers``, at most ``copies`` of a
tile and ``jokers`` jokers, sets of ``min_set_length``+ tiles with ``min_real_tiles`` real
ones), then the programme's answer becomes a :class:`~engines.rummikub.position.Move`.

>>> from engines.rummikub.rules import Rules
>>> rules = Rules(colours=5, numbers=20, min_set_length=4)
>>> move = variant_move([["G17", "G18", "G19", "G20"]], "G16 R5", True, "tiles", rules)
>>> [format_meld(m) for m in move.table], move.tiles
(['G16 G17 G18 G19 G20'], 1)
>>> variant_move([["R1", "R2", "R3"]], "R4", True, "tiles", rules)
Traceback (most recent call last):
...
engines.rummikub.errors.SetError: table set 1 [R1 R2 R3] is not valid: a set needs at least 4 tiles
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

from engines.rummikub.errors import PositionError, SetError, TileError
from engines.rummikub.rules import Rules
from engines.rummikub.sets import Meld, Slot, format_meld
from engines.rummikub.tiles import JOKER, Tile, format_tiles

__all__ = ["format_meld", "parse_variant_tiles", "position_rules", "validate_variant_set",
           "variant_move"]


def _bad_tile(text: object, rules: Rules) -> TileError:
    letters = ", ".join(rules.colour_letters)
    joker = ", or J" if rules.jokers else ""
    return TileError(f"unknown tile {text!r}: expected a colour letter {letters} and a number "
                     f"1..{rules.numbers}{joker}")


def parse_variant_tile(item: object, rules: Rules) -> Tile:
    """One tile of the rules' tile set from text (``G17``) or a :class:`Tile`."""
    if isinstance(item, Tile):
        colour, number = item
        if colour == "J" and number == 0 and rules.jokers:
            return JOKER
        if colour in rules.colour_letters and type(number) is int and \
                1 <= number <= rules.numbers:
            return Tile(colour, number)
        raise _bad_tile(item, rules)
    if not isinstance(item, str):
        raise _bad_tile(item, rules)
    s = item.strip().upper()
    if s == "J" and rules.jokers:
        return JOKER
    digits = s[1:]
    if len(s) < 2 or s[0] not in rules.colour_letters or not digits.isascii() \
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
    letters = rules.colour_letters
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
    from solvers.rummikub_ip import OFFICIAL_GROUP, OFFICIAL_RUN, TableSet

    letters = rules.colour_letters
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


def variant_move(table: Iterable[Iterable[object]], rack: Iterable[object] | str,
                 melded: bool, objective: str, rules: Rules):
    """:func:`~engines.rummikub.position.best_move` under ``rules`` by the integer programme."""
    from engines.rummikub.position import Move, objective_weights
    from solvers.rummikub_ip import solve_ip

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
    letters = rules.colour_letters
    counts = np.zeros((rules.colours, rules.numbers), np.int64)
    for t in rack_tiles:
        if not t.is_joker:
            counts[letters.index(t.colour), t.number - 1] += 1
    rack_jokers = sum(t.is_joker for t in rack_tiles)
    result = solve_ip(
        rules.tile_spec(), [_table_set(m, rules) for m in old], counts, rack_jokers, weight,
        joker_weight, melded=melded, threshold=rules.meld_threshold,
        joker_counts=rules.meld_joker == "stands-for", meld_continue=rules.meld_continue,
        official=rules.joker_retrieval == "official",
        least_disturbance=rules.least_disturbance, fewest_moved=rules.fewest_tiles_moved)
    if not result.feasible:  # cannot happen: the table's own sets are an arrangement
        raise PositionError("the table cannot be arranged")
    played = [Tile(letters[c], v + 1) for c in range(rules.colours)
              for v in range(rules.numbers) for _ in range(result.played[c, v])]
    played += [JOKER] * result.played_jokers
    value = sum(t.number for t in played)
    if not played:  # a pass leaves the table as it was
        return Move([], old, 0, 0, previous=old_tiles)
    new = _melds(result.sets, letters)
    if not melded and not rules.meld_continue:
        return Move(played, old + new, len(played), value, new_sets=new,
                    previous=old_tiles)
    kept = [old[i] for i in result.kept]
    meld = _melds(result.meld, letters) if not melded else []
    move = Move(played, kept + new, len(played), value, new_sets=meld, previous=old_tiles)
    if result.moved >= 0:
        move.moved = result.moved
    return move


def _weights(objective: str, numbers: np.ndarray, colours: int) -> np.ndarray:
    """The engine's objective weights (see ``objective_weights``) for numbers up to 26."""
    from engines.rummikub.position import _BIG, _MID

    w = _BIG + _MID * numbers if objective == "tiles" else _BIG * numbers + _MID
    return np.broadcast_to(w, (colours, len(numbers))).astype(np.int64)


def _is_joker(item: object) -> bool:
    if isinstance(item, Tile):
        return item.is_joker
    return isinstance(item, str) and item.strip().upper() == "J"


def position_rules(rules: Rules, table: Sequence[Sequence[object]], rack: Sequence[object],
                   melded: bool) -> Rules:
    """``rules`` less the options that cannot change this position's answer."""
    table_jokers = sum(_is_joker(t) for s in table for t in s)
    return rules.for_position(table_jokers, table_jokers + sum(map(_is_joker, rack)), melded,
                              len(table))
