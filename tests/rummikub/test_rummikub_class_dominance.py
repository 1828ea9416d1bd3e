"""The DP's dominance over class codes (sets of 3 with six or seven open runs a colour:
four copies or four jokers): which codes dominate which.  That the answers stay optimal is
the oracle tests' part (``test_rummikub_dp_variants.py``'s four copies,
``test_rummikub_four_jokers.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.rummikub._lengths import _rank_of, class_dominators, length_tables


def _code(binom, a1, a2, a3):
    return _rank_of(np.array([a1, a2, a3], np.int64), binom)


@pytest.mark.parametrize("max_open", [6, 7])
def test_each_code_is_dominated_by_longer_or_more_runs(max_open):
    digits, binom = length_tables(3, max_open)
    dominators = class_dominators(digits, binom, True)
    assert dominators.shape == (digits.shape[0], 4)
    for code in range(digits.shape[0]):
        a1, a2, a3 = digits[code].tolist()
        expected = [
            (a1, a2, a3 + 1),  # one more long run
            (a1 - 1, a2 + 1, a3),  # a run of length 1 of length 2
            (a1, a2 - 1, a3 + 1),  # a run of length 2 a long one
            (a1 - 1, a2, a3 + 1),  # a run of length 1 a long one
        ]
        for k, (b1, b2, b3) in enumerate(expected):
            if min(b1, b2) < 0 or b1 + b2 + b3 > max_open:
                assert dominators[code, k] == -1
            else:
                assert digits[dominators[code, k]].tolist() == [b1, b2, b3]
    assert dominators[_code(binom, 1, 0, 0)].tolist() == [
        _code(binom, 1, 0, 1), _code(binom, 0, 1, 0), -1, _code(binom, 0, 0, 1)]


def test_no_dominance_where_the_key_lists_runs_apart():
    digits, binom = length_tables(3, 6)
    assert class_dominators(digits, binom, False).shape[0] == 0
    assert class_dominators(*length_tables(4), True).shape[0] == 0  # (sets of 4: not these)
