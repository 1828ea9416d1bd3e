"""The wide DP's colour codes: a colour's open runs by length class, numbered.

With sets of ``L`` tiles at least, an open run of length 1 .. L-1 must continue and one of
L or more may end: class i holds the runs of length i+1 (the last class: L or more).  A
colour has at most ``most`` open runs (its copies of a tile and the jokers), so its class
counts ``(c_0, ..., c_{L-1})`` with sum <= ``most`` are C(L + most, L) codes, numbered in
the order of their base-``most+1`` value (code 0: no open run).  The DP never computes on
the digits: :func:`shift_table` (a number's tiles to one colour's runs) and
:func:`close_tables` (the runs checked against the next numbers' tiles and the jokers
left) are tables over the codes, built once per pass or, for the codes that states hold,
per number (:func:`close_entry`).

Every check is exact: a run of class i needs a tile (real or joker) at each of the next
L-1-i numbers, so ``n_d`` short runs need a tile at number+d; more than that number's
tiles and the jokers left kill the state, and the jokers beyond the tiles are summed
(``need``, every cell taking its own joker).  Runs of L+ beyond what number+1 can extend
end at once (the same state as the shorter list).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def code_tables(min_len, most):
    """``(digits, keys)``: ``digits[code, i]`` the open runs of class i (length i+1; the
    last class ``min_len`` or more) of each code, ``keys`` their base-``most+1`` values,
    ascending (:func:`encode` searches them)."""
    count = 1
    for i in range(1, min_len + 1):  # C(min_len + most, min_len)
        count = count * (most + i) // i
    digits = np.zeros((count, min_len), np.int64)
    keys = np.zeros(count, np.int64)
    d = np.zeros(min_len, np.int64)
    for code in range(count):
        digits[code] = d
        key, place = 0, 1
        for i in range(min_len):
            key += d[i] * place
            place *= most + 1
        keys[code] = key
        i = 0  # the next digit string with sum <= most, in base-(most+1) order
        while i < min_len:
            d[i] += 1
            if d.sum() <= most:
                break
            d[i] = 0
            i += 1
    return digits, keys


@njit(cache=True, inline="always")
def encode(d, keys, most):
    """The code of class counts ``d``."""
    key, place = 0, 1
    for i in range(d.shape[0]):
        key += d[i] * place
        place *= most + 1
    return np.searchsorted(keys, key)


@njit(cache=True)
def shift_table(digits, keys, most):
    """``shift[code, t]``: the colour's code once ``t`` tiles of a number go to its runs
    (the short ones first, then as many long ones as there are tiles, the rest start
    runs), unchecked, as ``code | continued << 16 | opened << 20`` (``continued``: long runs
    that go on);
    -1 when ``t`` cannot cover the short runs or makes more than ``most`` runs."""
    codes, min_len = digits.shape
    shift = np.full((codes, most + 1), -1, np.int64)
    new = np.zeros(min_len, np.int64)
    for code in range(codes):
        d = digits[code]
        short = d[: min_len - 1].sum()
        for t in range(short, most + 1):
            cont = min(d[min_len - 1], t - short)
            new[:] = 0
            new[0] = t - short - cont
            for i in range(1, min_len - 1):
                new[i] = d[i - 1]
            new[min_len - 1] += d[min_len - 2] + cont if min_len > 1 else cont
            shift[code, t] = encode(new, keys, most) | cont << 16 | new[0] << 20
    return shift


@njit(cache=True)
def close_tables(digits, keys, most, real, v, jokers, closed, need, runs, colour=-1, only=-1):
    """Fill ``closed[c, code, k]`` (colour c's code after number v+1 once checked against
    the next numbers with ``k`` jokers left: -1 when its short runs cannot all be
    completed; long runs beyond what number v+2 can extend end) and ``need[c, code]`` (the
    jokers its short runs need beyond the tiles) for every colour.  A code with more runs
    than colour c's tiles of number v+1 and the ``jokers`` is no state's (each of its runs
    took a tile there: :func:`shift_table`), so its entries are left at -1 and 0, unread
    (4 x 13, sets of 12, seven open runs: most of the 50,388 codes).  ``runs``:
    :func:`short_runs`.  ``colour`` and ``only`` not negative: that colour's entries of code
    ``only`` alone (:func:`close_entry`)."""
    codes, min_len = digits.shape
    colours, numbers = real.shape
    cut = np.zeros(min_len, np.int64)
    for c in range(colours) if colour < 0 else range(colour, colour + 1):
        for code in range(codes) if only < 0 else range(only, only + 1):
            if runs[code, 0] > real[c, v] + jokers:
                need[c, code] = 0
                closed[c, code] = -1
                continue
            total, fail, first = 0, False, runs[code, 1] if min_len > 1 else 0
            worst = -(1 << 30)  # (the most runs past a number's tiles from v+2 on)
            for dist in range(1, min_len):
                if runs[code, dist] == 0:
                    break
                if v + dist >= numbers:
                    fail = True
                    break
                total += max(0, runs[code, dist] - real[c, v + dist])
                if dist >= 2:
                    worst = max(worst, runs[code, dist] - real[c, v + dist])
            need[c, code] = total
            for k in range(jokers + 1):
                closed[c, code, k] = -1
                if fail or total > k or worst > k:
                    continue
                room = real[c, v + 1] + k - first if v + 1 < numbers else 0
                if room < 0:
                    continue
                if digits[code, min_len - 1] <= room:  # (no long run ends: the same code)
                    closed[c, code, k] = code
                    continue
                cut[:] = digits[code]
                cut[min_len - 1] = room
                closed[c, code, k] = encode(cut, keys, most)


@njit(cache=True, inline="always")
def close_entry(close, c, code):
    """Fill colour c's entries of ``code`` in number v+1's close tables, unless done
    before: ``close`` is ``(closed, need, known, digits, keys, most, real, v, jokers,
    runs)`` (:func:`close_tables`; ``known[c, code]``: filled).  The passes fill the codes
    their states hold and those states' dominating neighbours, not every code: 4 x 13,
    sets of 12 with seven open runs, has 50,388 codes a colour, a pass's states hold a few
    hundred (filling them all was most of such a position's time)."""
    if not close[2][c, code]:  # (lazy tables: solvers.rummikub.wide._pass.fill_codes)
        close_tables(close[3], close[4], close[5], close[6], close[7], close[8], close[0],
                     close[1], close[9], c, code)
        close[2][c, code] = True


@njit(cache=True)
def code_setup(min_len, most):
    """The tables of a colour's codes that a pass reads and no pass writes, which depend on
    ``min_len`` and ``most`` alone: ``(digits, keys, shift, traits)`` (:func:`code_tables`,
    :func:`shift_table`, :func:`code_traits` and the runs each code's short runs need a tile
    for at each distance, :func:`close_tables`); the engine keeps them for the next position
    (``engines.rummikub.wide``: 0.1 s for sets of 12 with seven open runs, 50,388 codes)."""
    digits, keys = code_tables(min_len, most)
    short, duty, better = code_traits(digits, keys)
    return digits, keys, shift_table(digits, keys, most), (short, duty, better,
                                                           short_runs(digits))


@njit(cache=True)
def short_runs(digits):
    """``runs[code, dist]``: the runs of ``code`` that need a tile at number + dist (the
    classes below ``min_len - dist``), and ``runs[code, 0]`` all its runs."""
    codes, min_len = digits.shape
    runs = np.zeros((codes, min_len), np.int64)
    for code in range(codes):
        below = 0
        for i in range(min_len - 1):
            below += digits[code, i]
            runs[code, min_len - 1 - i] = below
        runs[code, 0] = below + digits[code, min_len - 1]
    return runs


@njit(cache=True)
def code_traits(digits, keys):
    """``(short, duty, better)`` per code: whether it has a short run (no final state
    may), its obligations (a run of length i counts L-i: the narrow pass keeps the fewest),
    and the codes that dominate it, -1 padded: one run a class longer or more, or one more
    long run (a longer run needs fewer tiles; a long run may end anywhere)."""
    codes, min_len = digits.shape
    most = digits[codes - 1].sum()  # (the last code: every run in the last class)
    place = np.ones(min_len, np.int64)  # (a class's weight in a key: base most + 1)
    for i in range(1, min_len):
        place[i] = place[i - 1] * (most + 1)
    short = np.zeros(codes, np.bool_)
    duty = np.zeros(codes, np.int64)
    better = np.full((codes, min_len * (min_len - 1) // 2 + 1), -1, np.int64)
    for code in range(codes):
        d = digits[code]
        for i in range(min_len - 1):
            short[code] |= d[i] > 0
            duty[code] += d[i] * (min_len - 1 - i)
        at = 0
        for i in range(min_len - 1):  # (a run of class i one class or more longer)
            if d[i] == 0:
                continue
            for j in range(i + 1, min_len):
                better[code, at] = np.searchsorted(keys, keys[code] - place[i] + place[j])
                at += 1
        if d.sum() < most:  # one more long run
            better[code, at] = np.searchsorted(keys, keys[code] + place[min_len - 1])
    return short, duty, better
