"""The DP's dominance over class codes (sets of 3 with six or seven open runs a colour:
four copies, four jokers, three jokers with three or four copies): which codes dominate
which, and small positions against brute force with least disturbance (the optimum and the
most table sets kept).  The oracle tests check the rest (``test_rummikub_dp_variants.py``'s
four copies and three jokers with more copies, ``test_rummikub_four_jokers.py``)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rummikub_least_brute import check_least_against_brute, naive, runs_table

from solvers.rummikub._lengths import MAX_OPEN, _rank_of, class_dominators, length_tables


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
    # (sets of 4: not these; the default max_open given, an int64 as the kernels pass it)
    assert class_dominators(*length_tables(4, MAX_OPEN), True).shape[0] == 0


# (copies, jokers): six or seven open runs a colour, so the DP's closed layers drop
# dominated class codes (three jokers: the run of jokers alone in the key beside them)
TILE_SETS = ((3, 3), (4, 3), (4, 2), (2, 4))


def _brute_case(seed: int):
    """A small table of runs of one colour laid side by side (several open runs at once:
    where the dominance bites), a few rack tiles and the jokers left."""
    rng = random.Random(seed)
    copies, jokers = TILE_SETS[seed % len(TILE_SETS)]
    spec = naive.Spec(rng.randint(2, 3), rng.randint(4, 6), copies, jokers, 3, 1)

    def run():
        start = rng.randint(1, spec.numbers - 2)
        return [("K", n) for n in range(start, start + 3)]

    table, rack = runs_table(rng, spec, (run() for _ in range(rng.randint(2, 4))), (1, 4),
                             (1, jokers))
    return spec, table, rack


def _two_colour_case(seed: int):
    """Runs of two colours on the table (the DP then places a colour with open runs before
    the number's last sub-step, where the dominance compares codes not yet closed)."""
    rng = random.Random(seed)
    copies, jokers = TILE_SETS[seed % len(TILE_SETS)]
    spec = naive.Spec(3, 5, copies, jokers, 3, 1)

    def run(colour):
        start = rng.randint(1, spec.numbers - 2)
        return [(colour, n) for n in range(start, start + 3)]

    # (at most two runs of a colour, two copies at least: each fits)
    colours = spec.letters[:2] + spec.letters[rng.randint(0, 1)]
    table, rack = runs_table(rng, spec, (run(c) for c in colours), (1, 2),
                             (1, min(jokers, 3)))
    return spec, table, rack


@pytest.mark.parametrize("seed", range(96 + 48))
def test_least_disturbance_under_class_dominance_matches_brute_force(seed):
    # the optimum and its tie-break (the most table sets kept) are brute force's: the
    # dominance drops states only where a neighbour at least as good is kept (closed
    # layers, and inside a number the colour just placed: the last 48 seeds)
    spec, table, rack = _brute_case(seed + 2100) if seed < 96 else _two_colour_case(seed)
    check_least_against_brute(spec, table, rack, ("tiles", "value")[seed % 2])
