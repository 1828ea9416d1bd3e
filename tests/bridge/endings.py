"""Small endings for the DD kernel's exact cuts: every card's score from the kernel, checked
against the brute force of ``naive_dd.py`` with one feature set after another.

The test modules that deal special endings (a forced ruff, a guard in the finesse
position, …) load this module by path, as they load ``naive_dd.py``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from solvers.bridge import _ab_search

_spec = importlib.util.spec_from_file_location("naive_dd", Path(__file__).with_name("naive_dd.py"))
assert _spec is not None and _spec.loader is not None
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)

Card = tuple[int, int]  # (suit 0..3 in S H D C order, rank 2..14)
NOTRUMP = 4
ALL_FEATURES = 15


def kernel_scores(
    hands: list[set[Card]], trump: int, leader: int, features: int
) -> dict[Card, int]:
    """Every card of ``leader``'s hand with the tricks the kernel gives the leader's side."""
    masks = np.zeros((4, 4), dtype=np.uint16)
    for seat, hand in enumerate(hands):
        for suit, rank in hand:
            masks[seat][suit] |= 1 << (rank - 2)
    suits, ranks, values = _ab_search.solve_position(
        masks, trump, leader, np.zeros((0, 2), dtype=np.int32), features=features
    )
    return {(int(s), int(r) + 2): int(v) for s, r, v in zip(suits, ranks, values)}


def brute_force(hands: list[set[Card]], trump: int, leader: int) -> dict[Card, int]:
    """The same scores from the brute-force solver."""
    return naive.solve(tuple(frozenset(h) for h in hands), trump, leader, ())


def check(hands: list[set[Card]], trump: int, leader: int, feature_sets: Iterable[int]) -> None:
    """Assert the kernel's scores equal the brute force's with each of ``feature_sets``."""
    expected = brute_force(hands, trump, leader)
    for features in feature_sets:
        assert kernel_scores(hands, trump, leader, features) == expected, (hands, trump, leader)
