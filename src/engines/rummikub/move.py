"""The answer of the best-move search: :class:`Move` (played tiles, the table afterwards,
and what it changed on the table).

>>> from engines.rummikub import best_move
>>> move = best_move([["R6", "R7", "R8"]], "R5 R9 B2")
>>> str(move), move.sets_kept, move.tiles_moved
('play R5 R9 (2 tiles, value 14)', 0, 0)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engines.rummikub.moved import tiles_moved as moved_tiles
from engines.rummikub.sets import Meld, meld_tiles
from engines.rummikub.steps import Step, move_steps
from engines.rummikub.tiles import Tile, format_tiles

__all__ = ["Move", "kept_sets"]


@dataclass
class Move:
    """The answer: rack tiles played and the whole table after the move.

    ``table`` is the complete table afterwards (for an initial meld: the old sets
    unchanged followed by the new ones, listed in ``new_sets``).  ``tiles`` counts
    the rack tiles played (jokers included), ``value`` their face value (a joker 0).
    ``previous`` is the table before the move (what :meth:`steps` starts from);
    ``tile_set``: the rules' colours and numbers, which the table's jokers stand within
    (``None``: the standard 4 x 13, or the tiles' own extent when wider).
    """

    played: list[Tile]
    table: list[Meld]
    tiles: int
    value: int
    new_sets: list[Meld] = field(default_factory=list)
    previous: list[tuple[Tile, ...]] = field(default_factory=list, repr=False, compare=False)
    tile_set: tuple[int, int] | None = field(default=None, repr=False, compare=False)

    def steps(self) -> list[Step]:
        """The move as physical steps from :attr:`previous`: the fewest take / pick up / add /
        lay down actions that turn it into :attr:`table` (proof in
        :mod:`engines.rummikub.steps`).

        >>> from engines.rummikub import best_move
        >>> move = best_move([["K4", "O4", "R4"], ["B5", "B6", "B7"]], "B4 B8 K8")
        >>> [str(s) for s in move.steps()]
        ['add B4 B8 (from the rack) to set 2 [B5 B6 B7] -> B4 B5 B6 B7 B8']
        """
        return move_steps(self.previous, self.table, self.played)

    @property
    def sets_kept(self) -> int:
        """Table sets the move leaves exactly as they were: the table afterwards holds a set
        of exactly their tiles (each set of the table afterwards counts for one table set).
        With ``least_disturbance`` (:class:`~engines.rummikub.rules.Rules`) this is the most
        any optimal move keeps.

        >>> from engines.rummikub import best_move
        >>> best_move([["K4", "O4", "R4"], ["B5", "B6", "B7"]], "B4").sets_kept
        1
        """
        return len(kept_sets(self.previous, self.table))

    @property
    def tiles_moved(self) -> int:
        """Table tiles not in their set's heir (:mod:`engines.rummikub.moved`: positional),
        the table's jokers read within :attr:`tile_set`.

        >>> from engines.rummikub import Rules, best_move
        >>> best_move([["R3", "R4", "R5", "R6", "R7", "R8"]], "R5 R6").tiles_moved
        2
        >>> best_move([["R8", "R9", "R10", "J"]], "R6", rules=Rules(numbers=10)).tiles_moved
        0
        """
        return moved_tiles(self.previous, self.table, self.tile_set)

    @property
    def is_pass(self) -> bool:
        return self.tiles == 0

    def to_json(self) -> dict[str, Any]:
        return {
            "played": [str(t) for t in self.played],
            "sets": [[str(s.tile) for s in m] for m in self.table],
            "annotated": [[str(s) for s in m] for m in self.table],
            "tiles": self.tiles,
            "value": self.value,
        }

    def __str__(self) -> str:
        if self.is_pass:
            return "no play (draw a tile)"
        return f"play {format_tiles(self.played)} ({self.tiles} tiles, value {self.value})"


def kept_sets(previous: list, table: list[Meld]) -> set[int]:
    """The indices of the ``previous`` table sets (tiles) that ``table`` (melds) leaves exactly
    as they were: it holds a set of exactly their tiles, each set of ``table`` matched to one
    previous set at most."""
    after = Counter(tuple(sorted(meld_tiles(m))) for m in table)
    kept = set()
    for i, tiles in enumerate(previous):
        key = tuple(sorted(tiles))
        if after[key] > 0:
            after[key] -= 1
            kept.add(i)
    return kept
