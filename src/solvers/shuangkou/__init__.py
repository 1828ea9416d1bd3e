"""Numba kernels for 双扣 (Shuangkou): count arrays in, codes and counts out.

A set of cards is a ``(15, 4)`` array of counts (rank value 0–14 × suit S, H,
D, C; jokers in column 0 of ranks 13 and 14); batches stack them as
``(N, 15, 4)``.  A combination is an integer code (:mod:`._codes`).  Kernels
never parse or validate: :mod:`engines.shuangkou` does that first.  Every
kernel is ``njit(cache=True)``; the ``*_batch`` forms spread rows over Numba's
threads (the engine sets the thread count).
"""

from solvers.shuangkou._classify import (
    beats,
    beats_batch,
    classify,
    classify_batch,
    classify_words,
    code_beats_batch,
    first_invalid_row,
)
from solvers.shuangkou._codes import (
    BOMB,
    CONSECUTIVE_PAIRS,
    CONSECUTIVE_TRIPLES,
    INVALID,
    KING_BOMB,
    PAIR,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    SUBSETS,
    TRIPLE,
    TYPE_NAMES,
    bomb_power,
    code_beats,
    code_length,
    code_rank,
    code_type,
    make_code,
)
from solvers.shuangkou._endgame import holding_mask, new_table, search, zobrist_keys
from solvers.shuangkou._plays import (
    CENSUS_CAPACITY,
    census,
    count_plays,
    count_plays_batch,
    enumerate_plays,
    enumerate_plays_batch,
)
from solvers.shuangkou._trick import (
    other_holders,
    partner_place,
    round_over,
    side0_points,
    trick_next,
    trick_next_batch,
)

__all__ = [
    "BOMB",
    "CENSUS_CAPACITY",
    "CONSECUTIVE_PAIRS",
    "CONSECUTIVE_TRIPLES",
    "INVALID",
    "KING_BOMB",
    "PAIR",
    "SINGLE",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "SUBSETS",
    "TRIPLE",
    "TYPE_NAMES",
    "beats",
    "beats_batch",
    "bomb_power",
    "census",
    "classify",
    "classify_batch",
    "classify_words",
    "code_beats",
    "code_beats_batch",
    "code_length",
    "code_rank",
    "code_type",
    "count_plays",
    "count_plays_batch",
    "enumerate_plays",
    "enumerate_plays_batch",
    "first_invalid_row",
    "holding_mask",
    "make_code",
    "new_table",
    "other_holders",
    "partner_place",
    "round_over",
    "search",
    "side0_points",
    "trick_next",
    "trick_next_batch",
    "zobrist_keys",
]
