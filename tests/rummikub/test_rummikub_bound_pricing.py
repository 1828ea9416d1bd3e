"""The linear relaxation's run pricing (:func:`solvers.rummikub._bound._cheapest_run`)
against every run priced on its own, as the rule reads: the real tiles' and absent tiles'
duals summed from the lowest number up, then the free jokers on the largest savings (the
real tiles left at least the rules' one or two, none that saves nothing), the least price
first found.
The kernel prices each run from the one a number shorter; its price must be the same
number to the bit (the bound's floor and the later passes depend on it)."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.rummikub._bound import _cheapest_run
from solvers.rummikub._layout import NCOL, NNUM


def _run_prices(y: np.ndarray, row: np.ndarray, joker_row: int, jokers: int, colour: int,
                numbers: int, min_len: int, min_real: int) -> tuple[float, int, int]:
    """The least price of a run of ``colour`` of ``min_real`` real tiles at least and its
    first and last number (0-based), each run summed anew; ``(inf, -1, -1)`` if none."""
    y_joker = y[joker_row] if joker_row >= 0 else 0.0
    best, best_a, best_b = np.inf, -1, -1
    for a in range(numbers):
        for b in range(a + min_len - 1, numbers):
            forced, price, savings = 0, 0.0, []
            for v in range(a, b + 1):
                if row[colour, v] < 0:
                    forced += 1
                    price += y_joker
                else:
                    price += y[row[colour, v]]
                    savings.append(y[row[colour, v]] - y_joker)
            if forced > jokers or len(savings) < min_real:
                continue
            if jokers > forced and len(savings) > min_real:
                for saving in sorted(savings, reverse=True)[: min(jokers - forced,
                                                                   len(savings) - min_real)]:
                    if saving <= 0.0:
                        break
                    price -= saving
            if price < best:
                best, best_a, best_b = price, a, b
    return best, best_a, best_b


@pytest.mark.parametrize("seed", range(6))
def test_the_cheapest_run_is_the_least_priced_run_to_the_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    checked = 0
    for _case in range(150):
        numbers = int(rng.integers(5, NNUM + 1))
        row = np.full((NCOL, NNUM), -1, np.int64)
        present = rng.random((NCOL, numbers)) < rng.uniform(0.4, 1.0)
        m = 0
        for c in range(NCOL):
            for v in range(numbers):
                if present[c, v]:
                    row[c, v] = m
                    m += 1
        jokers = int(rng.integers(0, 5))
        joker_row = m if jokers else -1
        # duals on a coarse grid (ties between runs and savings) or anywhere
        coarse = rng.random() < 0.5
        y = rng.integers(-8, 9, m + 2) / 4.0 if coarse else rng.normal(0.0, 1.0, m + 2)
        min_len = int(rng.integers(2, 6))
        min_real = int(rng.integers(1, 3))  # (two real tiles a set: sets of one not priced)
        for colour in range(NCOL):
            out = np.full(NNUM, -7, np.int64)
            price, length = _cheapest_run(y, row, joker_row, jokers, colour, numbers,
                                          min_len, min_real, out)
            want, a, b = _run_prices(y, row, joker_row, jokers, colour, numbers, min_len,
                                     min_real)
            if a < 0:
                assert length == 0 and price == np.inf
                continue
            assert price == want  # (to the bit: the same sums in the same order)
            assert length == b - a + 1
            for v in range(a, b + 1):  # each tile itself or a joker, an absent one a joker
                assert out[v - a] in (row[colour, v], joker_row)
                assert row[colour, v] >= 0 or out[v - a] == joker_row
            used = int((out[:length] == joker_row).sum()) if jokers else 0
            assert used <= jokers and length - used >= min_real
            checked += 1
    assert checked > 300
