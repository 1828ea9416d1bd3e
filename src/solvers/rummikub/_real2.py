"""Two real tiles per set: the runs short of real tiles, and where a number's jokers go.

Only the runs that hold a joker and fewer than two real tiles can break the rule, and there
are at most as many as jokers.  They leave the colour codes and are
listed apart in the state key (:data:`solvers.rummikub._layout.SHORT_AT`, two 5-bit slots
``1 + 4 * colour + kind``; kinds: one joker; a joker and a real tile; two jokers; two
jokers and a real tile; with three jokers, :func:`short_kinds3`, also three jokers, in a
third slot in the second key word).  The DP's sub-step (:mod:`solvers.rummikub._dp`) and the meld
then continue pass (:mod:`solvers.rummikub._continue`) both choose, per colour and
number, which open runs take that number's jokers with :func:`joker_runs`; over the length
classes' numbered codes (sets of 2 or 4+, or six or seven open runs a colour: three copies
and three jokers, or four copies) with :func:`long_joker_runs` or :func:`long_joker_runs3`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import SHORT_FOURTH_AT, SHORT_HIGH_AT
from solvers.rummikub._lengths import class_rank

# The joker placements one colour may choose at one number.  A joker goes to a new run
# (0), an open run of one real tile (1), an open run that stays valid whatever it gets (2:
# two real tiles already, or length 2+ with no joker), a run that is one joker (3) or a run
# of one joker and one real tile (4).  Combination i (of COMBO_FIRST[jr] ..
# COMBO_FIRST[jr+1]-1 for jr jokers) places its jokers as COMBO_T1[i], COMBO_T2[i] (-1:
# none); the DP's choice records i + 1 so the replay can follow it.
#
# With three jokers (:func:`joker_runs3`) a joker may also go to a run of two jokers (5) or
# to a run of one real tile and length 3+ (6), and three jokers at one number (none placed
# before, so no run listed) go to new, one-real-tile or harmless runs: combinations 21-22
# and 23-32, appended so that the first 21 keep their numbers; COMBO3_ORDER[COMBO3_FIRST[jr]
# .. COMBO3_FIRST[jr+1]-1] are those of jr jokers (a third target in COMBO_T3).
_TRIPLES = [(a, b, d) for a in range(3) for b in range(a, 3) for d in range(b, 3)]
COMBO_FIRST = np.array([0, 1, 6, 21], np.int64)
COMBO_T1 = np.array([-1, 0, 1, 2, 3, 4] + [a for a in range(5) for b in range(a, 5)] + [5, 6]
                    + [a for a, _, _ in _TRIPLES], np.int64)
COMBO_T2 = np.array([-1] * 6 + [b for a in range(5) for b in range(a, 5)] + [-1, -1]
                    + [b for _, b, _ in _TRIPLES], np.int64)
COMBO_T3 = np.array([-1] * 23 + [d for _, _, d in _TRIPLES], np.int64)
COMBO3_FIRST = np.array([0, 1, 8, 23, 33], np.int64)
COMBO3_ORDER = np.array([0, 1, 2, 3, 4, 5, 21, 22, *range(6, 21), *range(23, 33)], np.int64)


@njit(cache=True, error_model="numpy", inline="always")
def short_pack(keep, c, d10, d21, d20, d31):
    """The list of joker runs: ``keep`` (other colours' entries, two 5-bit slots) plus
    colour ``c``'s counts of each kind, as two slots in descending order (-1: over two)."""
    a = keep & 31
    b = keep >> 5
    for kind in range(4):
        count = d10 if kind == 0 else d21 if kind == 1 else d20 if kind == 2 else d31
        for _ in range(count):
            entry = 1 + 4 * c + kind
            if a == 0:
                a = entry
            elif b == 0:
                b = entry
            else:
                return -1
    if b > a:
        a, b = b, a
    return a | (b << 5)


@njit(cache=True, error_model="numpy", inline="always")
def short_kinds(short_key, c):
    """Colour ``c``'s runs short of real tiles in the list ``short_key`` (two 5-bit slots),
    by kind, and the other colours' entries: ``(e10, e21, e20, e31, keep)``."""
    e10 = e21 = e20 = e31 = 0
    keep = 0
    for slot in (short_key & 31, short_key >> 5):
        if slot == 0:
            continue
        if (slot - 1) >> 2 != c:
            keep = keep << 5 | slot
            continue
        kind = (slot - 1) & 3
        e10 += kind == 0
        e21 += kind == 1
        e20 += kind == 2
        e31 += kind == 3
    return e10, e21, e20, e31, keep


@njit(cache=True, error_model="numpy", inline="always")
def _combo_targets(combo):
    """How many of combination ``combo``'s jokers go to each kind of run (0, 1, 2, 3, 4 in
    the order (x0, x1, xh, x3, x4): new, one real tile, harmless, one joker, joker and real)."""
    # (ints: without the JIT numpy's booleans add as ``or``; the kernels count them)
    t1 = int(COMBO_T1[combo])
    t2 = int(COMBO_T2[combo])
    return ((t1 == 0) + (t2 == 0), (t1 == 1) + (t2 == 1), (t1 == 2) + (t2 == 2),
            (t1 == 3) + (t2 == 3), (t1 == 4) + (t2 == 4))


@njit(cache=True, error_model="numpy", inline="always")
def _combo_targets3(combo):
    """:func:`_combo_targets` over three jokers (``COMBO_T3`` too) and the two targets they
    add: ``(x0, x1, xh, x3, x4, x5, x6)``, x5 to a run of two jokers, x6 to a run of one
    real tile and length 3+."""
    t1 = int(COMBO_T1[combo])  # (ints: as in _combo_targets)
    t2 = int(COMBO_T2[combo])
    t3 = int(COMBO_T3[combo])
    return ((t1 == 0) + (t2 == 0) + (t3 == 0), (t1 == 1) + (t2 == 1) + (t3 == 1),
            (t1 == 2) + (t2 == 2) + (t3 == 2), (t1 == 3) + (t2 == 3) + (t3 == 3),
            (t1 == 4) + (t2 == 4) + (t3 == 4), (t1 == 5) + (t2 == 5), (t1 == 6) + (t2 == 6))


@njit(cache=True, error_model="numpy", inline="always")
def joker_runs(combo, jr, new, a1, a2, k3, e10, e21, e20, e31, keep, c, avail):
    """Joker combination ``combo`` for ``jr`` run jokers of colour ``c`` at one number:
    ``(colour code, list of short joker runs)`` afterwards (list -1: not allowed).

    ``new`` runs open, ``a1``/``a2`` runs of length 1/2 and ``k3`` long runs continue, the
    colour's short joker runs by kind ``e10..e31`` all continue, ``keep``: the other
    colours' list, ``avail``: tiles and jokers number+1 can still give this colour.
    """
    x0, x1, xh, x3, x4 = _combo_targets(combo)
    # A joker that could go where it stays harmless, given to another run, leaves a run
    # with fewer real tiles and nothing gained.
    if (x0 > new or x1 > a1 or xh > a2 + k3 or x3 > e10 or x4 > e21
            or (xh < jr and xh < a2 + k3)):
        return 0, -1
    d21 = x1 + e10 - x3
    d31 = x4 + e20
    must_next = new + a1 + x3 + d21 - x1 + d31
    if must_next > avail:
        return 0, -1
    long_runs = a2 + k3 + e21 - x4 + e31
    code = new - x0 + 5 * (a1 - x1) + 25 * min(long_runs, avail - must_next)
    return code, short_pack(keep, c, x0, d21, x3, d31)


@njit(cache=True, error_model="numpy", inline="always")
def long_joker_runs(combo, jr, t, code, e10, e21, e20, e31, keep, c, jl, real, v, nnum, digits,
                    binom, counts):
    """:func:`joker_runs` for sets of 2, 4 or 5 tiles at least (colour codes numbered by
    length class, :mod:`solvers.rummikub._lengths`): ``t`` run tiles of colour ``c`` at
    number v+1 go first to its short runs and to its listed joker runs, then to long runs,
    the rest open new runs.  Returns ``(code, list, need)`` (list -1: not allowed): ``need``
    the jokers its short runs will need at the next numbers beyond their real tiles (a
    lower bound: the listed runs counted at number+1 only).  ``counts``: scratch of L.

    A run leaving the list (it took its second real tile) joins the class of its length: a
    joker and a real tile then a real tile, 3; two jokers and a real tile then a real tile,
    4 (the last class when L is smaller).  Runs in the colour code of length 2+ hold two
    real tiles, so a joker there stays harmless, as with sets of 3.
    """
    width = digits.shape[1]
    short = 0
    for i in range(width - 1):
        short += digits[code, i]
    listed = e10 + e21 + e20 + e31
    if t < short + listed:
        return 0, -1, 0
    k3 = min(digits[code, width - 1], t - short - listed)
    new = t - short - listed - k3
    a1 = digits[code, 0] if width > 1 else 0
    x0, x1, xh, x3, x4 = _combo_targets(combo)
    harmless = short - a1 + k3
    if (x0 > new or x1 > a1 or xh > harmless or x3 > e10 or x4 > e21
            or (xh < jr and xh < harmless)):
        return 0, -1, 0
    d21 = x1 + e10 - x3
    d31 = x4 + e20
    counts[0] = new - x0
    for i in range(1, width):
        counts[i] = digits[code, i - 1] - (x1 if i == 1 else 0)
    counts[width - 1] += k3
    counts[min(2, width - 1)] += e21 - x4
    counts[min(3, width - 1)] += e31
    code, need = _class_code(x0 + d21 + x3 + d31, counts, jl, real, c, v, nnum, binom)
    if code < 0:
        return 0, -1, 0
    return code, short_pack(keep, c, x0, d21, x3, d31), need


@njit(cache=True, error_model="numpy", inline="always")
def _class_code(listed, counts, jl, real, c, v, nnum, binom):
    """The end of :func:`long_joker_runs` and :func:`long_joker_runs3`: colour ``c``'s
    code of class counts ``counts`` after number v+1 (the long runs beyond what number+2
    can extend end) and the jokers its short runs will need at the next numbers, given
    ``listed`` runs in the list afterwards (each needs a tile at number+2; a lower bound):
    ``(code, need)``, code -1 when the tiles and jokers ``jl`` there cannot do it."""
    width = counts.shape[0]
    waiting = listed
    for i in range(width - 1):
        waiting += counts[i]
    avail = jl + real[c, v + 1] if v + 1 < nnum else 0
    if waiting > avail:
        return -1, 0
    counts[width - 1] = min(counts[width - 1], avail - waiting)
    need = 0
    for j in range(1, width):
        if j == 2:
            waiting -= listed
        if j > 1:
            waiting -= counts[width - j]
        if waiting <= 0:
            break
        if v + j >= nnum:
            return -1, 0
        need += max(0, waiting - real[c, v + j])
    total = 0
    for i in range(width):
        total += counts[i]
    return class_rank(total, counts[width - 1], 0, 0, 0, counts.reshape(1, -1), binom), need


@njit(cache=True, error_model="numpy", inline="always")
def short_pack3(keep, c, d10, d21, d20, d31, d30):
    """:func:`short_pack` over three 5-bit slots (three jokers): ``keep`` (other colours'
    entries, from the lowest slot up) plus colour ``c``'s runs by kind, ``d30`` the runs of
    three jokers alone; the slots in descending order, so that a list of two packs as
    :func:`short_pack` does (-1: over three): :func:`short_pack4` without its fourth slot."""
    packed = short_pack4(keep, c, d10, d21, d20, d31, d30)
    return -1 if packed >> 15 else packed


@njit(cache=True, error_model="numpy", inline="always")
def short_kinds3(short_key, c):
    """:func:`short_kinds` over three slots (``short_key``: 15 bits): colour ``c``'s runs
    short of real tiles by kind and the other colours' entries, ``(e10, e21, e20, e31, e30,
    keep)``, ``e30`` the runs of three jokers alone (:func:`short_kinds4` without its fourth
    slot)."""
    return short_kinds4(short_key & 32767, c)


@njit(cache=True, error_model="numpy", inline="always")
def joker_runs3(combo, jr, new, a1, a2, k3, e10, e21, e20, e31, e30, keep, c, avail):
    """:func:`joker_runs` with three jokers: a joker may also go to a run of two jokers (it
    becomes three jokers alone, ``e30``) or to a run of one real tile and length 3+ (it
    stays one).  Every listed run continues: one of three jokers alone takes a real tile
    (one real tile and length 4), a run of one real tile and length 3+ takes a joker or a
    real tile (then it is long)."""
    x0, x1, xh, x3, x4, x5, x6 = _combo_targets3(combo)
    # (as joker_runs: a joker that could go where it stays harmless goes there)
    if (x0 > new or x1 > a1 or xh > a2 + k3 or x3 > e10 or x4 > e21 or x5 > e20 or x6 > e31
            or (xh < jr and xh < a2 + k3)):
        return 0, -1
    d21 = x1 + e10 - x3
    d31 = x4 + e20 - x5 + x6 + e30
    must_next = new + a1 - x1 + d21 + x3 + d31 + x5
    if must_next > avail:
        return 0, -1
    long_runs = a2 + k3 + e21 - x4 + e31 - x6
    code = new - x0 + 5 * (a1 - x1) + 25 * min(long_runs, avail - must_next)
    return code, short_pack3(keep, c, x0, d21, x3, d31, x5)


@njit(cache=True, error_model="numpy", inline="always")
def long_joker_runs3(combo, jr, t, code, e10, e21, e20, e31, e30, keep, c, jl, real, v, nnum,
                     digits, binom, counts):
    """:func:`long_joker_runs` with :func:`joker_runs3`'s kinds and targets (the list's
    three slots, :func:`short_pack3`), for sets of 3 over numbered codes: three copies and
    three jokers, or four copies (six or seven open runs a colour, ``digits`` of three
    classes: length 1, 2, 3+).  Returns ``(code, list, need)`` as :func:`long_joker_runs`:
    :func:`listed_step` with combination ``combo``'s targets (none to three jokers alone)."""
    x0, x1, xh, x3, x4, x5, x6 = _combo_targets3(combo)
    code, short, need = listed_step(x0, x1, xh, x3, x4, x5, x6, 0, jr, t, code, e10, e21, e20,
                                    e31, e30, keep, c, jl, real, v, nnum, digits, binom, counts)
    if short >> 15:  # (over three slots)
        return 0, -1, 0
    return code, short, need


@njit(cache=True, error_model="numpy", inline="always")
def listed_step(x0, x1, xh, x3, x4, x5, x6, x7, jr, t, code, e10, e21, e20, e31, e30, keep, c,
                jl, real, v, nnum, digits, binom, counts):
    """The transition of :func:`long_joker_runs3` and :func:`solvers.rummikub._real2_four.
    long_joker_runs4`: ``t`` run tiles of colour ``c`` at number v+1, their ``jr`` jokers
    to the targets by count (``x0``-``x6`` :func:`joker_runs3`'s, ``x7`` a run of three or
    four jokers alone, which stays listed as one).  Returns ``(code, list, need)`` (the
    list's four slots, :func:`short_pack4`; -1: not allowed).

    Every listed run continues: a run that takes no joker takes a real tile (one joker, then
    a joker and a real tile; a joker and a real tile, then long; two jokers, or three or four
    alone, then one real tile and length 3+; one real tile and length 3+, then long).  A run
    leaving the list took its second real tile and is long.  The runs of length 2 in the
    code hold two real tiles, so a joker there stays harmless."""
    a1 = digits[code, 0]
    short = a1 + digits[code, 1]
    listed = e10 + e21 + e20 + e31 + e30
    if t < short + listed:
        return 0, -1, 0
    k3 = min(digits[code, 2], t - short - listed)
    new = t - short - listed - k3
    harmless = digits[code, 1] + k3
    # (as joker_runs: a joker that could go where it stays harmless goes there)
    if (x0 > new or x1 > a1 or xh > harmless or x3 > e10 or x4 > e21 or x5 > e20 or x6 > e31
            or x7 > e30 or (xh < jr and xh < harmless)):
        return 0, -1, 0
    d21 = x1 + e10 - x3
    d31 = x4 + e20 - x5 + x6 + e30 - x7
    d30 = x5 + x7
    counts[0] = new - x0
    counts[1] = a1 - x1
    counts[2] = digits[code, 1] + k3 + e21 - x4 + e31 - x6
    code, need = _class_code(x0 + d21 + x3 + d31 + d30, counts, jl, real, c, v, nnum, binom)
    if code < 0:
        return 0, -1, 0
    return code, short_pack4(keep, c, x0, d21, x3, d31, d30), need


@njit(cache=True, inline="always")
def short_list4(key2):
    """The list of runs short of real tiles in word B ``key2`` (three or four copies, or four
    jokers), as one 20-bit value: the slots from :data:`SHORT_HIGH_AT` and the fourth from
    :data:`SHORT_FOURTH_AT` (0 unless four jokers)."""
    return (key2 >> SHORT_HIGH_AT) & 32767 | ((key2 >> SHORT_FOURTH_AT) & 31) << 15


@njit(cache=True, inline="always")
def list4_bits(short):
    """Word B's bits of list ``short`` (the inverse of :func:`short_list4`)."""
    return (short & 32767) << SHORT_HIGH_AT | (short >> 15) << SHORT_FOURTH_AT


@njit(cache=True, error_model="numpy", inline="always")
def short_kinds4(short_key, c):
    """:func:`short_kinds` over four slots (four jokers; ``short_key``: 20 bits, the fourth
    slot 0 otherwise): colour ``c``'s runs short of real tiles by kind and the other
    colours' entries, ``(e10, e21, e20, e31, e30, keep)``, ``e30`` the runs of three or four
    jokers alone."""
    e10 = e21 = e20 = e31 = e30 = 0
    keep = 0
    for slot in (short_key & 31, (short_key >> 5) & 31, (short_key >> 10) & 31,
                 short_key >> 15):
        if slot == 0:
            continue
        colour = slot - 17 if slot > 16 else (slot - 1) >> 2
        if colour != c:
            keep = keep << 5 | slot
            continue
        kind = 4 if slot > 16 else (slot - 1) & 3
        e10 += kind == 0
        e21 += kind == 1
        e20 += kind == 2
        e31 += kind == 3
        e30 += kind == 4
    return e10, e21, e20, e31, e30, keep


@njit(cache=True, error_model="numpy", inline="always")
def short_pack4(keep, c, d10, d21, d20, d31, d30):
    """:func:`short_pack3` over four slots (four jokers): ``keep`` (other colours' entries)
    plus colour ``c``'s runs by kind, the slots in descending order, so that a list of up to
    three packs as :func:`short_pack3` does (-1: over four)."""
    a = keep & 31
    b = (keep >> 5) & 31
    d = (keep >> 10) & 31
    e = keep >> 15
    n = int(a > 0) + int(b > 0) + int(d > 0) + int(e > 0)  # (int: as in short_pack3)
    for kind in range(5):
        count = (d10 if kind == 0 else d21 if kind == 1 else d20 if kind == 2
                 else d31 if kind == 3 else d30)
        for _ in range(count):
            entry = 17 + c if kind == 4 else 1 + 4 * c + kind
            if n == 0:
                a = entry
            elif n == 1:
                b = entry
            elif n == 2:
                d = entry
            elif n == 3:
                e = entry
            else:
                return -1
            n += 1
    # (a sorting network, descending)
    a, b = max(a, b), min(a, b)
    d, e = max(d, e), min(d, e)
    a, d = max(a, d), min(a, d)
    b, e = max(b, e), min(b, e)
    b, d = max(b, d), min(b, d)
    return a | (b << 5) | (d << 10) | (e << 15)
