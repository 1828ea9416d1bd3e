"""The rack tiles a held-out pass may still leave out: a cut of least disturbance's passes.

Every move that reaches a held-out pass's floor scores the objective's optimum exactly (the
floor's objective part is the optimum), and with the engine's weights (a real tile
``a + b * number``, a joker ``a - 1``) that score splits one way only into the rack's real
tiles played, their value and the jokers played
(:func:`solvers.rummikub._bound.objective_parts`).  So every such move leaves out of the rack
exactly ``K`` real tiles worth ``S`` and places exactly the table's jokers and ``J`` of the
rack's.  A state between two numbers has left out the rack tiles of the numbers done less
those it played (its score says how many and their value); it can reach the floor only if
the numbers still to come hold rack tiles making up the rest exactly (``K`` less its count,
``S`` less its value), and only if it placed no more jokers than the move does.

The floor's score alone (all the later rack tiles and jokers could still be played) keeps a
state that left out any tile worth no more than the optimum leaves out: with four jokers,
``jokers=4`` 40J seed 11 #6 plays all but O12, and its exact pass kept every state that had
left out one tile of any number, or a joker, instead.

The table (:func:`skip_table`, one int64 array a position): a header (``active``, the
weights' ``a`` and ``b``, the score's scale, ``K``, ``S``, the jokers placed at most,
whether ``a`` outweighs every value's ``b``), the rack's real tiles (count and value)
before each number, then per number whether the rack tiles from there on hold ``k`` tiles
worth ``s`` (``k <= K``, ``s <= S``).  ``active`` 0: no cut (the split is not unique, the
weights are not the engine's, or the table would be too large).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bound import objective_parts
from solvers.rummikub._layout import NNUM

HEADER = 8
# The most (count, value) pairs a number's row may hold: a position that leaves out more of
# its rack gets no cut (its states rarely fail it, and the table would cost more than the
# pass)
MOST_PAIRS = 4096
_PREFIX_COUNT = HEADER
_PREFIX_VALUE = HEADER + NNUM + 1
_ROWS = HEADER + 2 * (NNUM + 1)
NO_LIMIT = np.int64(1) << 40


@njit(cache=True)
def no_skips():
    """The table of no cut (:func:`skip_table`'s layout, inactive)."""
    return np.zeros(HEADER, np.int64)


@njit(cache=True)
def skip_table(rack, rack_j, must_j, weight, joker_weight, optimum, scale):
    """The rack tiles a state may still leave out (the module's table) for ``rack``
    (``[colours, numbers]`` counts) and ``rack_j`` jokers, the table's ``must_j``, the
    objective's ``weight`` and ``joker_weight`` (unscaled), its ``optimum`` (the rack's
    gain, table jokers not counted) and the passes' ``scale`` (the sets held out below)."""
    count, value, jokers = objective_parts(weight, joker_weight, optimum, rack, rack_j)
    if count < 0:
        return no_skips()
    step = weight[0, 1] - weight[0, 0]
    base = weight[0, 0] - step
    colours, numbers = rack.shape
    by_number = np.zeros(NNUM, np.int64)
    for c in range(colours):
        for v in range(min(numbers, NNUM)):
            by_number[v] += rack[c, v]
    total = by_number.sum()
    worth = 0
    for v in range(NNUM):
        worth += (v + 1) * by_number[v]
    left_count, left_value = total - count, worth - value
    base_first = step * worth < base
    if not base_first and base * total >= step:  # (the score would not split per state)
        return no_skips()
    pairs = (left_count + 1) * (left_value + 1)
    if pairs > MOST_PAIRS or numbers > NNUM:
        return no_skips()
    table = np.zeros(_ROWS + (NNUM + 1) * pairs, np.int64)
    table[0], table[1], table[2], table[3] = 1, base, step, scale
    table[4], table[5], table[6], table[7] = left_count, left_value, must_j + jokers, base_first
    for v in range(NNUM):
        table[_PREFIX_COUNT + v + 1] = table[_PREFIX_COUNT + v] + by_number[v]
        table[_PREFIX_VALUE + v + 1] = table[_PREFIX_VALUE + v] + (v + 1) * by_number[v]
    width = left_value + 1
    table[_ROWS + NNUM * pairs] = 1  # (after the last number: nothing more left out)
    for v in range(NNUM - 1, -1, -1):
        later, here = _ROWS + (v + 1) * pairs, _ROWS + v * pairs
        for k in range(left_count + 1):
            for s in range(width):
                if not table[later + k * width + s]:
                    continue
                k2, s2 = k, s
                # (leave out 0, 1, ... of number v+1; no early exit: LLVM would count the
                # loop's trips with a 128-bit division that Numba cannot link)
                for _more in range(by_number[v] + 1):
                    if k2 <= left_count and s2 <= left_value:
                        table[here + k2 * width + s2] = 1
                    k2 += 1
                    s2 += v + 1
    return table


@njit(cache=True, inline="always")
def most_jokers(skips, jokers):
    """The most jokers a state may have placed (every one of ``jokers`` without a cut)."""
    return min(jokers, skips[6]) if skips[0] else jokers


@njit(cache=True, inline="always")
def may_leave_out(skips, v, score, placed, joker_weight):
    """Whether a state entering number v+1 (``score``, ``joker_weight``: the pass's,
    scaled; ``placed``: its jokers placed) can still leave out exactly the rack tiles the
    optimum leaves out (always, without a cut)."""
    if not skips[0]:
        return True
    base, step, scale = skips[1], skips[2], skips[3]
    left_count, left_value = skips[4], skips[5]
    reals = (score - placed * joker_weight) // scale  # (base * count + step * value)
    if skips[7]:
        count, rest = reals // base, reals % base
        if rest % step:
            return False
        value = rest // step
    else:
        value, rest = reals // step, reals % step
        if rest % base:
            return False
        count = rest // base
    count = skips[_PREFIX_COUNT + v] - count  # (left out so far)
    value = skips[_PREFIX_VALUE + v] - value
    if count < 0 or value < 0 or count > left_count or value > left_value:
        return False
    pairs = (left_count + 1) * (left_value + 1)
    at = _ROWS + v * pairs + (left_count - count) * (left_value + 1) + left_value - value
    return skips[at] != 0
