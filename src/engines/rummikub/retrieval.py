"""Official joker retrieval, engine side: the places of a table's jokers (the kernels'
input, :meth:`engines.rummikub.rules.Rules.search_mode`) and the check of a move against
the rule (:meth:`~engines.rummikub.rules.Rules.move_problems`).

A table joker may leave its place (the tile it stands for in a run, its group's number in
a group) only when a tile it stands for is played from the rack in the same turn, one tile
per joker taken (``docs/rummikub-house-rules.md``).
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.rummikub.tiles import COLOURS, Tile


def joker_places(table: Iterable[Iterable[Tile]], colours: int = 4, numbers: int = 13
                 ) -> tuple[int, ...]:
    """The places of the jokers of ``table`` (valid sets of a tile set of ``colours`` and
    ``numbers``) for official retrieval: a run joker's tile, a group joker's number and the
    colours its group lacks (:func:`solvers.rummikub.joker_place`).

    >>> from engines.rummikub.tiles import parse_tiles
    >>> joker_places([parse_tiles("R3 R4 R5 J"), parse_tiles("K5 R5 J")])
    (85, 787)
    """
    from engines.rummikub.sets import SHORTEST_SET, validate_set
    from solvers.rummikub import joker_place

    places = []
    for s in table:
        tiles = list(s)
        if not any(t.is_joker for t in tiles):
            continue
        meld = validate_set(tiles, min_len=SHORTEST_SET, colours=colours, numbers=numbers)
        run = len({slot.stands_for.colour for slot in meld}) == 1 and len(meld) > 1
        real = {slot.tile.colour for slot in meld if not slot.tile.is_joker}
        missing = sum(1 << i for i, c in enumerate(COLOURS) if c not in real)
        for slot in meld:
            if slot.tile.is_joker:
                number = slot.stands_for.number
                places.append(joker_place(number, COLOURS.index(slot.stands_for.colour))
                              if run else joker_place(number, missing=missing))
    return tuple(places)


def _is_run(meld) -> bool:
    return len(meld) > 1 and len({slot.stands_for.colour for slot in meld}) == 1


def retrieval_problems(table, played, sets, letters: str, numbers: int = 13) -> list[str]:
    """Official retrieval: each table joker stays at its place (a run joker standing for the
    same tile in a run, a group joker in a group of its number) or is freed by a tile it may
    stand for played from the rack (the run tile, a colour its group lacks), one place or
    tile a joker: a matching, by augmenting paths."""
    from engines.rummikub.sets import SHORTEST_SET, validate_set

    wants: list[tuple[str, set]] = []  # each table joker: what it is, what may account for it
    for i, s in enumerate(table, start=1):
        tiles = list(s)
        if not any(t.is_joker for t in tiles):
            continue
        meld = validate_set(tiles, min_len=SHORTEST_SET, colours=len(letters), numbers=numbers)
        real = {slot.tile.colour for slot in meld if not slot.tile.is_joker}
        for slot in meld:
            t = slot.stands_for
            if not slot.tile.is_joker:
                continue
            if _is_run(meld):
                may = {("run", t), ("tile", t)}
            else:
                may = {("group", t.number)} | {("tile", Tile(c, t.number))
                                               for c in letters if c not in real}
            wants.append((f"the joker of table set {i} (as {t})", may))
    if not wants:
        return []
    places = [("run", slot.stands_for) if _is_run(m) else ("group", slot.stands_for.number)
              for m in sets for slot in m if slot.tile.is_joker]
    places += [("tile", t) for t in played if not t.is_joker]
    owner = [-1] * len(places)

    def augment(j: int, seen: set) -> bool:
        for r, place in enumerate(places):
            if r not in seen and place in wants[j][1]:
                seen.add(r)
                if owner[r] < 0 or augment(owner[r], seen):
                    owner[r] = j
                    return True
        return False

    return [f"joker retrieval (official): {what} left its place without a tile it stands "
            "for played from the rack" for j, (what, _) in enumerate(wants)
            if not augment(j, set())]
