"""Meld then continue's beam cut of a finished layer (:mod:`solvers.rummikub._continue`:
the heuristic pass before the exact one)."""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import MELD_AT, MELD_MASK, NCOL, NEED_AT, SHORT_AT, colour_code


@njit(cache=True)
def prune_pair_layer(k1s, k2s, score, start, end, beam, target, unlisted):
    """Beam cuts of a finished layer; returns 1 if one cut it (the pass is heuristic).

    ``beam > 0`` keeps the best-scored states; ``beam < 0`` keeps the ``-beam`` with the
    fewest obligations (open runs of length 1 and 2 in either arrangement, then how far
    the meld is from the threshold), as ``_layers.keep_flexible``; ``unlisted``: keys that
    hold no list of short runs there (sets of 6+, :mod:`solvers.rummikub._continue_spill`,
    the codes' low bits ranked; three copies, n3 there; three jokers, the run of jokers
    alone and the official cover's high bits).
    """
    width = abs(beam)
    if beam == 0 or end - start <= width:
        return 0
    if beam > 0:
        thr = np.sort(score[start:end])[end - start - beam]
        for i in range(start, end):
            if score[i] < thr:
                k1s[i] = -1
        return 1
    pri = np.empty(end - start, np.int64)
    for i in range(start, end):
        h = np.int64(1) << 40
        if k1s[i] >= 0:
            h = 2 * (((k1s[i] >> NEED_AT) & 3) + ((k2s[i] >> NEED_AT) & 3))
            for key in (k1s[i], k2s[i]):
                short = 0 if unlisted else (key >> SHORT_AT) & 1023
                h += 2 * ((short & 31) > 0) + 2 * ((short >> 5) > 0)
            for c in range(NCOL):
                for key in (k1s[i], k2s[i]):
                    code = colour_code(key, c)
                    h += 2 * (code % 5) + (code // 5) % 5
            h = 256 * h + target - ((k2s[i] >> MELD_AT) & MELD_MASK)
        pri[i - start] = h
    idx = np.argsort(pri, kind="mergesort")
    for r in range(width, end - start):
        k1s[start + idx[r]] = -1
    return 1
