"""The 升级 batch API reads one TrumpContext per row natively: the same codes as the objects
hold, and every row that is not a TrumpContext named as before."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engines.shengji import arrays
from engines.shengji.cards import ShengjiInputError
from engines.shengji.rules import TrumpContext
from solvers.shengji import _context_codes


def _contexts(n: int, seed: int) -> list[TrumpContext]:
    rng = random.Random(seed)
    levels, trumps = ["2", "7", "10", "Q", "A"], ["S", "H", "C", "D", "NT"]
    return [TrumpContext(rng.choice(levels), rng.choice(trumps)) for _ in range(n)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_codes_are_the_objects_codes(seed: int) -> None:
    ctxs = _contexts(5000, seed)
    expected = np.array([c.code for c in ctxs], dtype=np.uint8)
    for given in (ctxs, tuple(ctxs)):
        assert np.array_equal(arrays._contexts(given, len(ctxs))[0], expected)


def test_rows_that_are_not_contexts_are_named() -> None:
    ctxs = _contexts(20, 4)
    for i, bad in ((0, "10/S"), (7, None), (19, 3)):
        rows = [*ctxs[:i], bad, *ctxs[i + 1 :]]
        with pytest.raises(ShengjiInputError, match=f"contexts row {i}: expected a TrumpContext"):
            arrays._contexts(rows, len(rows))


def test_a_subclass_of_trump_context_is_still_read() -> None:
    class Marked(TrumpContext):
        pass

    rows = [*_contexts(5, 5), Marked("5", "H")]
    assert arrays._contexts(rows, 6)[0].tolist() == [c.code for c in rows]


def test_the_native_pass_stops_at_the_first_row_it_cannot_read() -> None:
    class Coded:
        def __init__(self, code: object) -> None:
            self.code = code

    out = np.zeros(4, dtype=np.uint8)
    same = Coded(7)
    assert _context_codes.context_codes([same, Coded(3), same, Coded(254)], Coded, out) == -1
    assert out.tolist() == [7, 3, 7, 254]
    for bad in (Coded(255), Coded(-1), Coded("1"), Coded(1.0), object()):
        assert _context_codes.context_codes([same, bad], Coded, np.zeros(2, dtype=np.uint8)) == 1
    assert _context_codes.context_codes([same, same], Coded, np.zeros(1, dtype=np.uint8)) == 0
    assert _context_codes.context_codes([], Coded, np.zeros(0, dtype=np.uint8)) == -1
