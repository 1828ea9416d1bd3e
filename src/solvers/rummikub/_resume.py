"""A 4 x 13 pass cut at its budget of states, kept so that a later call goes on from it.

:func:`solvers.rummikub._exact.solve_either` searches a position both ways round (its
numbers as they are and reversed) in rounds under a growing budget of states.  A pass of
:func:`solvers.rummikub._dp.resumable_pass` that passes its budget returns status -1 and,
as ``kept``, its working arrays (every layer's keys, scores, parents and choices: the last
layer's states go on, the others are replayed at the end) and where it stopped; the same
pass called again with ``kept`` and a larger budget goes on from its next layer instead of
storing its first layers again.  A pass that finishes returns :func:`no_kept`, so a way's
arrays are freed once its pass is done (the way's budget bounds them before).  Passes
that are never cut (no budget) take and return :func:`no_kept` too (one type for Numba).

``kept``: ``(header, table, keys, score, parent, choice, keys2)``; the header's words
(:data:`CUT` ..): whether a pass is kept, the number and colour step it goes on at, its
last layer's first state and end, its layers so far, whether it dropped states (a beam),
the hash table's bits, its states stored and widest layer (``stats``), and its floor;
``keys2``: the states' second key words where the rules have them (else empty).

A pass goes on only at the floor it was cut at.  The last exact pass's floor is the best
score either way has found, so it may have risen since; the pass then starts over, as it
did before passes went on: a floor that rises between layers stores other states (fewer),
and among optimal arrangements the replay may then reach another one than the pass that
starts at that floor (8 of 887 positions of the bench rows' slow ones: the same score,
another choice), so the rounds would no longer give the answers they gave.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CUT, AT_V, AT_STEP, START, END, LAYER, TRUNCATED, BITS, STATES, WIDEST, FLOOR = range(11)
HEADER_WORDS = 11
FIRST_ROOM = 1024  # a fresh pass's arrays (they grow as its layers do)
FIRST_BITS = 10  # and its hash table's (1,024 slots)


@njit(cache=True)
def no_kept():
    """``kept`` with no pass in it."""
    return (np.zeros(HEADER_WORDS, np.int64), np.zeros((0, 2), np.int64),
            np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
            np.zeros(0, np.int16), np.zeros(0, np.int64))


@njit(cache=True)
def first_layer(second, kept, stats, floor):
    """What a pass at ``floor`` starts from: ``(table, bits, keys, score, parent, choice,
    keys2, at)`` with ``at = (number, step, start, end, layers, truncated)``: the pass in
    ``kept`` where it was cut at that floor (``stats`` as they were then), else the first
    layer's one empty state (``keys2``: None where ``second`` is: no second word)."""
    header = kept[0]
    if header[CUT] and header[FLOOR] == floor:
        stats[0], stats[1] = header[STATES], header[WIDEST]
        keys2 = second
        if second is not None:
            keys2 = kept[6]
        return (kept[1], header[BITS], kept[2], kept[3], kept[4], kept[5], keys2,
                (header[AT_V], header[AT_STEP], header[START], header[END], header[LAYER],
                 header[TRUNCATED]))
    keys, score = np.empty(FIRST_ROOM, np.int64), np.empty(FIRST_ROOM, np.int64)
    parent, choice = np.empty(FIRST_ROOM, np.int64), np.empty(FIRST_ROOM, np.int16)
    keys2 = second
    if second is not None:
        keys2 = np.zeros(FIRST_ROOM, np.int64)
    bits = np.int64(FIRST_BITS)
    table = np.full((1 << bits, 2 if second is None else 3), -1, np.int64)
    keys[0], score[0], parent[0], choice[0] = 0, 0, -1, 0
    zero = np.int64(0)
    return table, bits, keys, score, parent, choice, keys2, (zero, zero, zero, np.int64(1),
                                                            zero, zero)


@njit(cache=True)
def stopped(cut, stats, at, floor, table, bits, keys, score, parent, choice, keys2):
    """``kept`` once a pass at ``floor`` stopped before its end: where ``cut`` (at its
    budget), the pass's arrays and ``at`` (as :func:`first_layer` gives them), else nothing
    (no state left)."""
    if not cut:
        return no_kept()
    header = np.zeros(HEADER_WORDS, np.int64)
    header[CUT] = 1
    header[AT_V], header[AT_STEP], header[START], header[END], header[LAYER], \
        header[TRUNCATED] = at
    header[BITS], header[STATES], header[WIDEST], header[FLOOR] = bits, stats[0], stats[1], floor
    return header, table, keys, score, parent, choice, _second_words(keys2)


@njit(cache=True)
def _second_words(keys2):
    """``keys2``, or an empty array where the states have no second word."""
    if keys2 is None:
        return np.zeros(0, np.int64)
    return keys2
