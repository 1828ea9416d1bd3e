"""Table tiles moved by a move, under the positional definition (issue #18, item 2).

Each table set may continue as one set afterwards of the same *kind* (its *heir*): a run of
its colour, or a group of its number; no set afterwards continues two table sets.  A real
tile *stays* when its set's heir holds it (a run: the same tile at the same place, since a
run holds a number once; a group: a tile of the same colour).  A joker stays only when the
heir holds a joker standing for the same tile: in a run a joker at the same number; in a
group any joker (a group's jokers stand for the same number).  The tiles moved are the
table's tiles less the most that stay, over every choice of heirs (an assignment problem,
solved exactly per kind).  A set *kept* (the table afterwards holds a set of exactly its
tiles, as :attr:`~engines.rummikub.position.Move.sets_kept` counts) is its own heir and
keeps all its tiles; a run that only grows at its ends keeps all its tiles too.  Jokers'
meanings are the engine's: the table sets as :func:`~engines.rummikub.sets.validate_set`
reads them within the tile set, the sets afterwards as the move annotates them.

It counts what a player physically picks up: moving a joker inside a run is a move.

>>> from engines.rummikub.sets import validate_set
>>> from engines.rummikub.tiles import parse_tiles
>>> after = [validate_set(parse_tiles(s)) for s in ("R3 R4 R5 R6", "R5 R6 R7 R8")]
>>> tiles_moved([parse_tiles("R3 R4 R5 R6 R7 R8")], after)
2
>>> tiles_moved([parse_tiles("R3 J R5")], [validate_set(parse_tiles("J R3 R4 R5"))])
1
>>> wide = validate_set(parse_tiles("R12 R13 J R15", wide=True), numbers=26)  # J is R14
>>> tiles_moved([parse_tiles("R12 R13 J")], [wide])  # read in numbers 1..15: J is R14 too
0
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from engines.rummikub.sets import Meld
from engines.rummikub.tiles import COLOURS, JOKER, Tile

__all__ = ["kind_of", "stays", "tiles_moved"]


def kind_of(meld: Meld) -> tuple[str, object]:
    """``("group", number)`` when every slot stands for one number, else ``("run",
    colour)`` (a set that reads as both, such as ``R5 J J`` read as a group, is a group)."""
    numbers = {slot.stands_for.number for slot in meld}
    if len(numbers) == 1:
        return "group", next(iter(numbers))
    return "run", next(slot.stands_for.colour for slot in meld)


def _profile(meld: Meld, kind: str) -> Counter:
    """What a heir can share with ``meld``: per place (a run's numbers, real or joker) or
    per colour and jokers (a group)."""
    if kind == "run":
        return Counter((slot.stands_for.number, slot.tile.is_joker) for slot in meld)
    return Counter("J" if slot.tile.is_joker else slot.tile.colour for slot in meld)


def stays(old: Meld, new: Meld) -> int:
    """The tiles of table set ``old`` that stay when ``new`` is its heir (0 when their
    kinds differ)."""
    kind = kind_of(old)
    if kind != kind_of(new):
        return 0
    return sum((_profile(old, kind[0]) & _profile(new, kind[0])).values())


def _best_assignment(weight: list[list[int]]) -> int:
    """The largest sum of ``weight[i][j]`` over one-to-one choices of rows and columns
    (any row may stay unmatched; weights are >= 0): the Hungarian method with potentials,
    exact, O(rows^2 * columns)."""
    rows = len(weight)
    cols = max(len(weight[0]) if rows else 0, rows)  # pad columns: a row may take a 0 dummy
    if rows == 0:
        return 0
    top = max(max(r) for r in weight)
    cost = [[top - (r[j] if j < len(r) else 0) for j in range(cols)] for r in weight]
    inf = float("inf")
    u = [0] * (rows + 1)
    v = [0] * (cols + 1)
    owner = [0] * (cols + 1)  # owner[j]: the row (1-based) holding column j; 0 none
    way = [0] * (cols + 1)
    for i in range(1, rows + 1):
        owner[0] = i
        j0 = 0
        low = [inf] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[j0] = True
            i0 = owner[j0]
            delta = inf
            j1 = 0
            for j in range(1, cols + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < low[j]:
                        low[j], way[j] = cur, j0
                    if low[j] < delta:
                        delta, j1 = low[j], j
            for j in range(cols + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    low[j] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    total = 0
    for j in range(1, cols + 1):
        i = owner[j]
        if i and j - 1 < len(weight[i - 1]):
            total += weight[i - 1][j - 1]
    return total


def _tiles(meld: Meld) -> tuple:
    return tuple(sorted(slot.tile for slot in meld))


def most_staying(old: Sequence[Meld], new: Sequence[Meld]) -> int:
    """The most table tiles that stay (``old``: the table sets as melds, ``new``: the sets
    afterwards), over every choice of heirs."""
    pool = Counter(_tiles(m) for m in new)
    total = 0
    rest_old: dict[tuple, list[Meld]] = defaultdict(list)
    for meld in old:  # a set kept: its own heir, every tile staying (always among the best)
        key = _tiles(meld)
        if pool[key] > 0:
            pool[key] -= 1
            total += len(meld)
        else:
            rest_old[kind_of(meld)].append(meld)
    if not rest_old:
        return total
    rest_new: dict[tuple, list[Meld]] = defaultdict(list)
    for meld in new:
        key = _tiles(meld)
        if pool[key] > 0:
            pool[key] -= 1
            rest_new[kind_of(meld)].append(meld)
    for kind, olds in rest_old.items():
        news = [_profile(b, kind[0]) for b in rest_new.get(kind, [])]
        if news:
            total += _best_assignment([[sum((mine & theirs).values()) for theirs in news]
                                       for mine in (_profile(a, kind[0]) for a in olds)])
    return total


def tiles_moved(previous: Sequence[Sequence], table: Sequence[Meld],
                tile_set: tuple[int, int] | None = None) -> int:
    """Table tiles moved from the table sets ``previous`` (tiles) to the sets ``table``
    (melds), under the positional definition above (``tile_set``: the colours and numbers
    the table sets are read within; by default the standard 4 x 13, or the tiles' own
    extent when wider)."""
    from engines.rummikub.arrays import _table_melds

    if tile_set is None:
        tile_set = (4, 13) if _standard(previous, table) else _extent(previous, table)
    old = _table_melds(previous, tile_set)
    return sum(len(m) for m in old) - most_staying(old, table)


_STANDARD = frozenset(Tile(c, n) for c in COLOURS for n in range(1, 14))
_STANDARD_OR_JOKER = _STANDARD | {JOKER}


def _standard(previous: Sequence[Sequence], table: Sequence[Meld]) -> bool:
    """Whether every tile (and every tile a joker stands for afterwards) is of the standard
    4 x 13 set (a quick test: the extent's scan costs more)."""
    return (all(slot.stands_for in _STANDARD for meld in table for slot in meld)
            and all(tile in _STANDARD_OR_JOKER for tiles in previous for tile in tiles))


def _extent(previous: Sequence[Sequence], table: Sequence[Meld]) -> tuple[int, int]:
    from engines.rummikub.tiles import ALL_COLOURS

    colours, numbers = 4, 13
    for meld in table:
        for slot in meld:
            tile = slot.stands_for
            colours = max(colours, ALL_COLOURS.index(tile.colour) + 1)
            numbers = max(numbers, tile.number)
    for tiles in previous:
        for tile in tiles:
            if not tile.is_joker:
                colours = max(colours, ALL_COLOURS.index(tile.colour) + 1)
                numbers = max(numbers, tile.number)
    return colours, numbers
