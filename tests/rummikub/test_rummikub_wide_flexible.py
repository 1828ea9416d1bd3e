"""The wide DP's narrow passes keep the states with the fewest obligations
(:func:`solvers.rummikub.wide._pass.keep_flexible`): the rows that a stable sort by
priority puts first, in their order, however many tie at the cut (it counts the
priorities rather than sorting them, so the rows kept must be exactly the sort's)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from solvers.rummikub.wide._pass import keep_flexible
from solvers.rummikub.wide._steps import NEED_AT


@pytest.mark.parametrize("seed", range(60))
def test_the_rows_kept_are_a_stable_sorts_first(seed):
    rng = random.Random(seed)
    colours, cb = rng.randint(1, 8), rng.randint(2, 6)
    duty = np.array([rng.randint(0, rng.choice((1, 3, 40))) for _ in range(1 << cb)],
                    np.int64)
    n, width = rng.randint(1, 400), rng.randint(1, 64)
    rows = np.zeros((n + rng.randint(0, 8), 5), np.int64)
    for i in range(n):
        rows[i, 0] = sum(rng.randrange(1 << cb) << (cb * c) for c in range(colours))
        rows[i, 1] = rng.randint(0, 3) << NEED_AT | rng.randint(0, 4)
        rows[i, 2:] = rng.randrange(1000), i, rng.randrange(1000)

    def priority(i: int) -> int:
        a, b = int(rows[i, 0]), int(rows[i, 1])
        owed = 2 * ((b >> NEED_AT) & 7) + sum(int(duty[(a >> (cb * c)) & ((1 << cb) - 1)])
                                              for c in range(colours))
        return 8 * owed + (b & 7)

    want = rows[sorted(sorted(range(n), key=priority)[:width])].copy()
    kept = keep_flexible(rows, n, colours, cb, duty, width)
    assert kept == min(n, width)
    assert rows[:kept].tolist() == want.tolist()
