"""Two real tiles per set: the dominance between the DP's layer states over their runs.

Under two real tiles per set with three or four copies, or four jokers, a state's runs of a
colour are its colour code's classes (length 1, 2, 3+; real tiles 1, 2, 2) and its listed
runs short of real tiles (:mod:`solvers.rummikub._real2`: one joker, two, three or four
alone, a joker and a real tile, length 3+ and one real tile): eight types of run by (length
capped at 3, real tiles capped at 2), :data:`RUN_LENGTH`, :data:`RUN_REAL`.  A run of a type
at least as long with at least as many real tiles is completed by any tiles that complete
the other (the rule asks for length 3 and two real tiles, and both only grow), and a long
run of two real tiles (type 7) is a valid set that may end at once.  So a state ``s`` whose
runs, colour by colour, go each to a distinct run of a state ``d`` of at least its type,
``d``'s runs left over all of type 7, and whose key is ``d``'s in all else (the jokers
placed, the group tiles counted, the meld value, the need, ...) with a score at most
``d``'s, cannot do better than ``d``: every completion of ``s`` (the tiles its runs took
given to their partners in ``d``, ``d``'s runs left over ended) completes ``d`` at least as
well.  The DP drops it (:func:`drop_dominated_listed`).  The relation is an order
(transitive; two states in it both ways have the same runs, so the same key), so each state
dropped keeps a live dominator.  It holds the one-move dominance that this replaces (one run
of a colour longer or with more real tiles, or one long run more), and more: moves in
two colours or more, or two in one colour, drop 8.5 k more of the 23.7 k states that the
one-move dominance left in the exact pass of copies=3 seed 11 40J #1 (benches/README,
rkstates).

Whether a matching exists is Hall's condition over the types' order: ``d``'s runs not of
type 7 must all be matched (to runs of ``s`` at most their type) and ``s`` may have no more
runs than ``d``, i.e. for every down-set D of the types, ``s`` has at least as many runs in
D as ``d`` has outside type 7, and ``7 - |s| >= 7 - |d|``.  Those 14 counts (13 non-empty
down-sets, then the total) are packed four bits apiece, so one subtraction with guard bits
compares a colour (:data:`AS_WEAK`, :data:`AS_STRONG`, :data:`GUARDS`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import COLOUR_BITS, NCOL
from solvers.rummikub._lengths import drop_dominated_classes
from solvers.rummikub._real2 import list4_bits, short_kinds4, short_list4

# The runs of one colour by (length, real tiles), capped at (3, 2), type i: RUN_LENGTH[i],
# RUN_REAL[i]; in the key: the list's kinds (one joker, two, three or four alone, a joker
# and a real tile, length 3+ with one real tile) and the colour code's classes.
RUN_LENGTH = np.array([1, 1, 2, 2, 2, 3, 3, 3], np.int64)
RUN_REAL = np.array([0, 1, 0, 1, 2, 0, 1, 2], np.int64)


def _down_sets() -> list[int]:
    """The non-empty down-sets of the run types' order, as bit masks of types."""
    below = [[b for b in range(8) if RUN_LENGTH[b] <= RUN_LENGTH[a] and RUN_REAL[b] <= RUN_REAL[a]]
             for a in range(8)]
    return [mask for mask in range(1, 256)
            if all(not mask >> a & 1 or all(mask >> b & 1 for b in below[a]) for a in range(8))]


DOWN_SETS = np.array(_down_sets(), np.int64)
TOTAL_FIELD = DOWN_SETS.shape[0]  # (the last field: 7 less the runs)
LONG_TYPE = 7  # (the type a run left over may have: long, two real tiles)
MOST_RUNS = 7  # runs a colour compared at most (a colour's open runs hold a distinct tile)
# a run of type t adds AS_WEAK[t] to its colour's counts as the weaker state, AS_STRONG[t]
# as the stronger (type 7: none, it may be left over)
AS_WEAK = np.array([sum(1 << 4 * f for f, d in enumerate(DOWN_SETS) if d >> t & 1)
                    for t in range(8)], np.int64)
AS_STRONG = np.array([0 if t == LONG_TYPE else int(AS_WEAK[t]) for t in range(8)], np.int64)
GUARDS = np.int64(sum(8 << 4 * f for f in range(TOTAL_FIELD + 1)))


@njit(cache=True)
def drop_dominated_layer(table, bits, lo, hi, keys, keys2, score, dominators, jokers, last,
                         listed, lengths):
    """The DP's dominance on its layer ``lo..hi-1`` (``keys2``: None, or the second words):
    a closed layer's over class codes (``dominators``:
    :func:`solvers.rummikub._lengths.drop_dominated_classes`), or every layer's under two
    real tiles per set with three or four copies (``listed``, the list in the second word:
    :func:`drop_dominated_listed`; ``lengths``: the class tables)."""
    if last and dominators.shape[0]:  # (sets of 3 over class codes)
        drop_dominated_classes(table, bits, lo, hi, keys, keys2, score, dominators, jokers > 3)
    elif listed:
        drop_dominated_listed(lo, hi, keys, keys2, score, lengths[0])


@njit(cache=True)
def drop_dominated_listed(lo, hi, keys, keys2, score, digits):
    """Drop (key -1) every state of the layer ``lo..hi-1`` that another state of it
    dominates (the module's order: class codes ``digits``, the list in the second words
    ``keys2``).  The states are grouped by their key but the runs (:func:`_group_ids`),
    each group ordered by score, then by :func:`_colour_counts`' strength, both descending
    (a dominator comes before what it dominates), and compared with the group's states kept
    so far (every dominator dropped has one of those above it)."""
    if keys2 is None:  # (the one-word passes: never listed; pruned when Numba compiles)
        return
    n = hi - lo
    weak = np.zeros((n, NCOL), np.int64)
    strong = np.zeros((n, NCOL), np.int64)
    strength = np.zeros(n, np.int64)
    live = _colour_counts(lo, hi, keys, keys2, digits, weak, strong, strength)
    group, groups = _group_ids(lo, hi, keys, keys2, live)
    # the states by group, each group by score then strength (descending): stable sorts
    by_strength = np.argsort(-strength, kind="mergesort")
    order = by_strength[np.argsort(-score[lo + by_strength], kind="mergesort")]
    first = np.zeros(groups + 1, np.int64)
    for i in range(n):
        if group[i] >= 0:
            first[group[i] + 1] += 1
    for g in range(groups):
        first[g + 1] += first[g]
    placed = first.copy()
    members = np.empty(n, np.int64)
    for i in order:
        if group[i] >= 0:
            members[placed[group[i]]] = i
            placed[group[i]] += 1
    kept = np.empty(n, np.int64)
    for g in range(groups):
        m = 0
        for at in range(first[g], first[g + 1]):
            s = members[at]
            dominated = False
            for k in range(m):
                d = kept[k]
                dominated = True
                for c in range(NCOL):
                    if ((weak[s, c] | GUARDS) - strong[d, c]) & GUARDS != GUARDS:
                        dominated = False
                        break
                if dominated:
                    break
            if dominated:
                keys[lo + s] = -1
            else:
                kept[m] = s
                m += 1


@njit(cache=True)
def _colour_counts(lo, hi, keys, keys2, digits, weak, strong, strength):
    """Each state's runs per colour as the weaker and as the stronger state's packed counts
    (``weak[i, c]``, ``strong[i, c]``: the module's fields) and its strength (the runs'
    lengths plus real tiles plus one, summed: more in a dominator); returns whether each
    state is compared (live, at most :data:`MOST_RUNS` runs a colour)."""
    n = hi - lo
    live = np.zeros(n, np.bool_)
    for i in range(n):
        key, key2 = keys[lo + i], keys2[lo + i]
        if key < 0:
            continue
        live[i] = True
        for c in range(NCOL):
            e10, e21, e20, e31, e30, _keep = short_kinds4(short_list4(key2), c)
            code = (key >> (COLOUR_BITS * c)) & 127
            total = 0
            w = s = np.int64(0)
            for t in range(8):
                count = (e10 if t == 0 else digits[code, 0] if t == 1 else e20 if t == 2
                         else e21 if t == 3 else digits[code, 1] if t == 4 else e30 if t == 5
                         else e31 if t == 6 else digits[code, 2])
                total += count
                w += count * AS_WEAK[t]
                s += count * AS_STRONG[t]
                strength[i] += count * (RUN_LENGTH[t] + RUN_REAL[t] + 1)
            if total > MOST_RUNS:
                live[i] = False
            weak[i, c] = w | np.int64(MOST_RUNS - total) << 4 * TOTAL_FIELD
            strong[i, c] = s | np.int64(MOST_RUNS - total) << 4 * TOTAL_FIELD
    return live


_SIG_MUL = (np.int64(-7046029254386353131), np.int64(-4658895280553007687))


@njit(cache=True)
def _group_ids(lo, hi, keys, keys2, live):
    """The live states' groups (their key without the colour codes, the second word without
    the list; -1: not compared), numbered from 0 in a hash table, and how many."""
    n = hi - lo
    list_mask = list4_bits(np.int64((1 << 20) - 1))
    codes = np.int64((1 << (COLOUR_BITS * NCOL)) - 1)
    bits = 4
    while (1 << bits) < 2 * n:
        bits += 1
    mask = (1 << bits) - 1
    rest_a = np.empty(1 << bits, np.int64)
    rest_b = np.empty(1 << bits, np.int64)
    slot_group = np.full(1 << bits, -1, np.int64)
    group = np.full(n, -1, np.int64)
    groups = 0
    for i in range(n):
        if not live[i]:
            continue
        a, b = keys[lo + i] & ~codes, keys2[lo + i] & ~list_mask
        h = ((a * _SIG_MUL[0] ^ b * _SIG_MUL[1]) >> (64 - bits)) & mask
        while slot_group[h] >= 0 and (rest_a[h] != a or rest_b[h] != b):
            h = (h + 1) & mask
        if slot_group[h] < 0:
            rest_a[h], rest_b[h] = a, b
            slot_group[h] = groups
            groups += 1
        group[i] = slot_group[h]
    return group, groups
