"""The fewest-moved pass's run-action vectors (:mod:`solvers.rummikub._heirs`), as one table
built once per call of the pass instead of for every state at every colour's sub-step."""

from __future__ import annotations

import numpy as np
from numba import njit

SHAPE_AT = (0, 1, 3, 11, 43)  # (r runs: their first key in the table of shapes; 171 keys)


@njit(cache=True)
def shape_table():
    """The action vectors (``_heirs._run_moves``) that ``r`` runs allow whatever the tiles (no
    short run ends; equal runs in one order), ascending, with the real tiles and jokers each
    takes, for every key ``SHAPE_AT[r] + (short | equal << r)`` (bit i of ``short``: run i
    is shorter than 3; of ``equal``: run i+1 is run i's equal): ``(avecs, counts)``,
    ``avecs[key, k] = (avec, reals, jokers)``; built once per pass."""
    avecs = np.zeros((171, 81, 3), np.int64)
    counts = np.zeros(171, np.int64)
    for r in range(5):
        for key in range(SHAPE_AT[r], SHAPE_AT[r] + (1 << (2 * r - 1) if r else 1)):
            short, equal = (key - SHAPE_AT[r]) & ((1 << r) - 1), (key - SHAPE_AT[r]) >> r
            count = 0
            for avec in range(3 ** r):
                rest = avec
                reals = jokers = 0
                prev_a = 3
                ok = True
                for i in range(r):
                    a = rest % 3
                    rest //= 3
                    twin = i > 0 and equal >> (i - 1) & 1
                    if (twin and a > prev_a) or (a == 0 and short >> i & 1):
                        ok = False
                        break
                    prev_a = a
                    reals += a == 1
                    jokers += a == 2
                if ok:
                    avecs[key, count, 0], avecs[key, count, 1] = avec, reals
                    avecs[key, count, 2] = jokers
                    count += 1
            counts[key] = count
    return avecs, counts
