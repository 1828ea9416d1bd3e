"""Rummikub: tiles, sets, the exact best move, and full rounds.

>>> from engines.rummikub import best_move
>>> best_move([["K4", "O4", "R4"]], ["B4"]).tiles
1
"""

from engines.rummikub.position import (
    Move,
    Position,
    PositionError,
    arrange,
    best_move,
    best_moves,
    check_meld,
    check_move,
)
from engines.rummikub.sets import Meld, SetError, Slot, format_meld, validate_set
from engines.rummikub.tiles import JOKER, RummikubInputError, Tile, TileError, parse_tiles

__all__ = [
    "JOKER",
    "Meld",
    "Move",
    "Position",
    "PositionError",
    "RummikubInputError",
    "SetError",
    "Slot",
    "Tile",
    "TileError",
    "arrange",
    "best_move",
    "best_moves",
    "check_meld",
    "check_move",
    "format_meld",
    "parse_tiles",
    "validate_set",
]
