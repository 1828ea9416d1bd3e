"""Combination codes: one integer per (type, length, rank), and the bomb order.

A combination is packed as ``type << 16 | length << 8 | rank`` (0 = not a
combination), so two plays of one category have equal codes and a kernel
compares categories with integer operations only.  Rank values follow the
rules: 3 = 0 … A = 11, 2 = 12, small joker = 13, big joker = 14.

Bomb-class combinations also get a *power* ``tier * 256 + x * 16 + y`` from
the comparison key of the rules (bomb of 4 cards: tier 1, of 5: tier 2,
straight flush: tier 3 with x = length and y = top, bombs of 6–8 cards: tiers
4–6, king bomb: tier 7); non-bombs have power 0.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INVALID = 0
SINGLE = 1
PAIR = 2
TRIPLE = 3
CONSECUTIVE_PAIRS = 4
CONSECUTIVE_TRIPLES = 5
STRAIGHT = 6
STRAIGHT_FLUSH = 7
BOMB = 8
KING_BOMB = 9

TYPE_NAMES = (
    None,
    "single",
    "pair",
    "triple",
    "consecutive_pairs",
    "consecutive_triples",
    "straight",
    "straight_flush",
    "bomb",
    "king_bomb",
)

N_RANKS = 15
N_SUITS = 4
SEQUENCE_TOP = 11  # the ace: 2 and the jokers never enter a sequence
SMALL_JOKER = 13
BIG_JOKER = 14


@njit(cache=True, nogil=True, inline="always")
def make_code(kind, length, rank):
    """Pack a category into its code."""
    return (kind << 16) | (length << 8) | rank


@njit(cache=True, nogil=True, inline="always")
def code_type(code):
    return code >> 16


@njit(cache=True, nogil=True, inline="always")
def code_length(code):
    return (code >> 8) & 255


@njit(cache=True, nogil=True, inline="always")
def code_rank(code):
    return code & 255


@njit(cache=True, nogil=True)
def bomb_power(code):
    """The bomb-class order as one integer (0 for a non-bomb or an invalid code)."""
    kind = code >> 16
    length = (code >> 8) & 255
    rank = code & 255
    if kind == BOMB:
        if length == 4:
            return 256 + rank * 16
        if length == 5:
            return 512 + rank * 16
        return (length - 2) * 256 + rank * 16
    if kind == STRAIGHT_FLUSH:
        return 768 + length * 16 + rank
    if kind == KING_BOMB:
        return 7 * 256
    return 0


@njit(cache=True, nogil=True)
def code_beats(play, previous):
    """Whether a play of code ``play`` beats the last play of code ``previous``.

    Non-bombs beat only the same type and length with a higher rank; a bomb-class
    play beats every non-bomb and the bombs of lower power; equal never beats; an
    invalid code on either side beats nothing.
    """
    if play == 0 or previous == 0:
        return False
    p_power = bomb_power(play)
    q_power = bomb_power(previous)
    if p_power != 0 or q_power != 0:
        return p_power > q_power
    return (play >> 8) == (previous >> 8) and (play & 255) > (previous & 255)


def _subset_table() -> np.ndarray:
    """``table[a, b, m]``: the distinct m-card sub-multisets of a rank held as a
    tokens once and b tokens twice, the coefficient of x^m in
    (1 + x)^a (1 + x + x²)^b."""
    table = np.zeros((5, 5, 9), dtype=np.int64)
    for a in range(5):
        for b in range(5 - a):
            poly = np.zeros(9, dtype=np.int64)
            poly[0] = 1
            for _ in range(a):
                poly[1:] = poly[1:] + poly[:-1]
            for _ in range(b):
                shifted1 = np.concatenate(([0], poly[:-1]))
                shifted2 = np.concatenate(([0, 0], poly[:-2]))
                poly = poly + shifted1 + shifted2
            table[a, b] = poly
    return table


SUBSETS = _subset_table()
