"""Sets of two, or four to twelve tiles at least (``min_set_length`` 2, 4..12): open runs.

The rules document's sets have three tiles at least, and the DP's colour code counts the
open runs of length 1, 2 and 3+ as base-5 digits (:mod:`solvers.rummikub._layout`).  With
a minimum length L, a colour's open runs fall in L classes: length 1 .. L-1 (they must
continue) and L or more (they may end).  A colour has at most four open runs (two copies,
two jokers), so the class counts ``(c_1, ..., c_L)`` with sum <= 4 are C(L + 4, 4) codes:
70 for L = 4 and 126 for L = 5, within the colour code's 7 bits once numbered
(:func:`length_tables`: a combinatorial number, no look-up table of every digit string).
L = 6 .. 13 need 210 .. 2380 codes, 8 .. 12 bits: the key keeps their low 7 bits in place
and the rest in the second key word (:func:`solvers.rummikub._layout.code_high`).

:func:`length_step` is one colour's transition at one number (the DP's sub-step calls it
under these rules only), :func:`length_closing` the tables that close a number.  A run of
length i needs a tile (or a joker) at each of the next L - i numbers; the transition
prunes on the tiles of number+1 and counts the jokers the new short runs will need over
the next L - 1 numbers (the key's ``need``, as for three tiles), the closing tables kill
a state whose short runs cannot be completed with the jokers left.

Sets of two tiles (L = 2: two classes, 15 codes) let two jokers alone make a run, so the
runs of jokers only are tracked too (:func:`bare_step`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layers import lookup
from solvers.rummikub._layout import (
    COLOUR_BITS,
    NCOL,
    RISKY_AT,
    RISKY_SLOT_BITS,
    code_at,
    code_bits,
    code_high,
)
from solvers.rummikub._pairs import lookup as pair_lookup
from solvers.rummikub._risky import FIELD_MASK, SLOT_MASK

MAX_OPEN = 4  # open runs of one colour: two copies and two jokers
LENGTHS = (2, 4, 5)  # the minimum set lengths these tables carry (3: the DP's own digits)
# Sets of 6 .. 13 tiles at least: C(L + 4, 4) codes, 210 .. 2,380, past the colour code's 7
# bits (their high bits in the second key word: solvers.rummikub._layout.code_high)
MAX_LENGTH = 13


@njit(cache=True, error_model="numpy")
def length_tables(min_len, max_open=MAX_OPEN):
    """``(digits, binom)`` for minimum set length ``min_len`` (2, 4 .. :data:`MAX_LENGTH`,
    or 3 with more than five open runs a colour: ``max_open`` 6 or 7, four copies or three
    copies and three jokers; else empty tables): ``digits[code, i]`` the open runs of class
    i (length i + 1; the last class: min_len or more) of colour code ``code``, and
    ``binom[n, k]`` the binomial coefficients that number class counts (:func:`_rank_of`:
    codes by total runs, so code 0 is no open run; C(min_len + max_open, max_open) codes).

    >>> digits, binom = length_tables(4)
    >>> digits.shape, digits[7].tolist(), _rank_of(digits[7], binom)
    ((70, 4), [0, 2, 0, 0], 7)
    >>> length_tables(3, 6)[0].shape, length_tables(3, 7)[0].shape, length_tables(3)[0].shape
    ((84, 3), (120, 3), (0, 1))
    >>> [length_tables(n)[0].shape[0] for n in (6, 8, 12)]
    [210, 495, 1820]
    """
    if not (min_len in LENGTHS or 6 <= min_len <= MAX_LENGTH or (min_len == 3 and max_open > 5)):
        return np.zeros((0, 1), np.int64), np.zeros((0, 1), np.int64)
    top = min_len + max_open + 1
    binom = np.zeros((top + 1, min_len + 1), np.int64)
    for n in range(top + 1):
        binom[n, 0] = 1
        for k in range(1, min(n, min_len) + 1):
            binom[n, k] = binom[n - 1, k - 1] + (binom[n - 1, k] if k < n else 0)
    digits = np.zeros((binom[min_len + max_open, min_len], min_len), np.int64)
    counts = np.zeros(min_len, np.int64)
    total = 0
    while True:  # every class count with at most max_open runs, an odometer
        digits[_rank_of(counts, binom)] = counts
        i = 0
        while i < min_len:
            if total < max_open:
                counts[i] += 1
                total += 1
                break
            total -= counts[i]
            counts[i] = 0
            i += 1
        if i == min_len:
            break
    return digits, binom


@njit(cache=True, inline="always")
def class_rank(total, last, code, shift, first, digits, binom):
    """The code of the class counts whose last class is ``last``, classes ``shift .. L-2``
    ``digits[code, i - shift]`` and (``shift`` 1) class 0 ``first``; ``total`` their sum.
    Codes of fewer runs come first; among equal totals, ordered by the last class, then the
    one before (a combinatorial number: C(r + i, i) counts i classes summing to r)."""
    width = digits.shape[1]
    rank = binom[total - 1 + width, width] if total > 0 else 0
    rest = total
    for i in range(width - 1, 0, -1):
        count = last if i == width - 1 else digits[code, i - shift]
        rank += binom[rest + i, i] - binom[rest - count + i, i]
        rest -= count
    return rank


@njit(cache=True)
def _rank_of(counts, binom):
    """The code of class counts ``counts`` (as :func:`length_step` numbers them)."""
    row = counts.reshape(1, -1)
    return class_rank(counts.sum(), counts[-1], 0, 0, 0, row, binom)


@njit(cache=True, error_model="numpy", inline="always")
def length_step(code, t, jl, real, c, v, nnum, digits, binom):
    """Colour ``c``'s code after ``t`` run tiles at number v+1 (all its short runs
    continue, then long runs, then new runs open; the long runs beyond what number+1 can
    extend end), and the jokers its short runs will need at the next numbers:
    ``(code, need)``, code -1 when the tiles or the jokers left (``jl``) cannot do it.
    ``real[c, x]``: the tiles of colour c at number x+1 (zero past the last number)."""
    width = digits.shape[1]
    short = 0
    for i in range(width - 1):
        short += digits[code, i]
    if t < short:
        return -1, 0
    k3 = min(digits[code, width - 1], t - short)
    new = t - short - k3
    # after this number: class 0 = the new runs, class i = the old class i - 1, and the
    # last class the old last two (the long runs that continue)
    avail = jl + real[c, v + 1] if v + 1 < nnum else 0
    must_next = new
    for i in range(width - 2):
        must_next += digits[code, i]
    if must_next > avail:
        return -1, 0
    need = 0
    waiting = must_next  # runs still short before number v+1+j
    for j in range(1, width):
        if j > 1:
            waiting -= digits[code, width - 1 - j] if width - 1 - j >= 0 else 0
        if waiting <= 0:
            break
        have = real[c, v + j] if v + j < nnum else 0
        if v + j >= nnum:
            return -1, 0
        need += max(0, waiting - have)
    if need > jl:
        return -1, 0
    last = min(digits[code, width - 2] + k3, avail - must_next)
    return class_rank(must_next + last, last, code, 1, new, digits, binom), need


@njit(cache=True, error_model="numpy")
def length_closing(real, v, jokers, capc, needc, nnum, digits, binom):
    """:func:`closing_tables` for these rules: ``capc[cc, code, k]``
    colour cc's code once its short runs are checked against the next numbers' tiles and
    ``k`` jokers (-1: some cannot be completed) and its long runs beyond number+1's tiles
    end; ``needc[cc, code]`` the jokers its short runs need."""
    width = digits.shape[1]
    for cc in range(real.shape[0]):
        for code in range(digits.shape[0]):
            need = 0
            worst = 0  # the most jokers one later number lacks
            short = 0
            for i in range(width - 1):
                short += digits[code, i]
            waiting = short  # runs still short before number v+1+j
            for j in range(1, width):
                if j > 1:
                    waiting -= digits[code, width - j]
                if waiting <= 0:
                    break
                if v + j >= nnum:
                    worst = jokers + 1
                    break
                need += max(0, waiting - real[cc, v + j])
                worst = max(worst, waiting - real[cc, v + j])
            needc[cc, code] = need
            for k in range(jokers + 1):
                capc[cc, code, k] = -1
                if k >= worst:
                    avail = real[cc, v + 1] + k if v + 1 < nnum else 0
                    last = min(digits[code, width - 1], avail - short)
                    capc[cc, code, k] = class_rank(short + last, last, code, 0, 0, digits, binom)


@njit(cache=True, error_model="numpy", inline="always")
def bare_step(bare, code, t, ur, c, v, nnum, real, digits):
    """Sets of two tiles (``min_set_length=2``): the runs of colour ``c`` that hold jokers
    only, after ``t`` run tiles (``ur`` real) at number v+1; ``-1`` when they cannot be
    completed.  With two tiles a set, two jokers alone would make a run, so a run of jokers
    only must take a real tile before it ends.  ``bare`` (the key's 8 bits at
    ``SHORT_AT``, 2 a colour): 0, 1 or 2 one-joker runs, or 3 for the run of both jokers
    (it must continue with a real tile at the next number).  Real tiles go first to the
    runs of jokers and to the new runs, the spare jokers to the other runs continued, then
    to the new runs (a new run of one joker must continue anyway) and only then to a run of
    one joker (making the run of both, which must continue with a real tile)."""
    field = (bare >> (2 * c)) & 3
    one = field if field < 3 else 0
    both = 1 if field == 3 else 0
    short = digits[code, 0]
    k3 = min(digits[code, 1], t - short)
    new = t - short - k3
    if both and (ur == 0 or k3 == 0):
        return -1
    jokers_in = max(0, one + new + both - ur)
    new_bare = min(jokers_in, new)
    nfield = new_bare
    if jokers_in > new_bare:  # a one-joker run takes the other joker
        nfield = 3
        if v + 1 >= nnum or real[c, v + 1] < new + 1:
            return -1
    return bare & ~(3 << (2 * c)) | nfield << (2 * c)


@njit(cache=True, inline="always")
def triple_step(bare, c, ju, ur, jr, new, k3):
    """With three jokers (sets of 3+): the key's run of jokers alone after colour ``c``'s
    transition (``ur`` real tiles and ``jr`` jokers to its runs, ``new`` runs opened, ``k3``
    long runs continued; ``ju`` jokers placed before it), or -1 if that run ends as a set.

    Three jokers alone would make a run of three, which is no set.  Only a run holding all
    three can be one, so ``bare`` (0: none) is that candidate, ``colour << 2 | length``:
    the run of jokers alone holding every joker placed so far.  Real tiles go first to it,
    then to the runs opened, then to the others (each swap of a real tile and a joker between
    such runs keeps both valid), so it opens only when no joker was placed before and one
    opened run more than real tiles takes this colour's only joker; it takes the next joker
    only when its colour places no real tile; it is forgotten once a joker goes elsewhere
    (it can no longer hold all three) or it takes a real tile.  At length 3 it is a long
    run that must continue, with a real tile.  :func:`solvers.rummikub._melds.meld_codes`
    replays runs in the same order.
    """
    if bare == 0:
        if ju == 0 and jr == 1 and new - ur == 1:
            return np.int64(c << 2 | 1)
        return np.int64(0)
    if bare >> 2 == c:
        if bare & 3 == 3:
            return np.int64(0) if k3 > 0 else np.int64(-1)
        if ur > 0 or jr != 1:
            return np.int64(0)
        return np.int64(bare + 1)
    return np.int64(bare) if jr == 0 else np.int64(0)


@njit(cache=True, error_model="numpy")
def closing_tables(must, opt, v, jokers, capc, needc, nnum, cps=2):
    """Fill the tables that close number v+1 for every colour (codes of up to ``cps``
    copies and ``jokers`` open runs: 4 for the rules document, 5 with a third joker or
    copy).

    ``capc[cc, code, k]`` is colour cc's code once runs of length 1-2 are checked (-1: they
    cannot continue at number+1 with k jokers left) and runs of length >= 3 beyond what
    number+1 can extend end; ``needc[cc, code]`` counts the jokers its pending runs need.
    """
    for cc in range(NCOL):
        real = 0
        if v + 1 < nnum:
            real = must[cc, v + 1] + opt[cc, v + 1]
        real2 = 0
        if v + 2 < nnum:
            real2 = must[cc, v + 2] + opt[cc, v + 2]
        top = cps + max(2, jokers)  # open runs: the copies and the jokers
        for b1 in range(5):
            for b2 in range(min(5, top + 1 - b1)):
                for b3 in range(top + 1 - b1 - b2):
                    cd = b1 + 5 * b2 + 25 * b3
                    # runs of length 1 need tiles at number+1 and number+2
                    needc[cc, cd] = max(0, b1 + b2 - real) + max(0, b1 - real2)
                    for k in range(jokers + 1):
                        av = real + k
                        av2 = real2 + k
                        if v + 1 >= nnum:
                            av = 0
                        if v + 2 >= nnum:
                            av2 = 0
                        if b1 + b2 > av or b1 > av2:
                            capc[cc, cd, k] = -1
                        else:
                            capc[cc, cd, k] = b1 + 5 * b2 + 25 * min(b3, av - b1 - b2)


@njit(cache=True, error_model="numpy", inline="always")
def close_others(key, key2, c, jokers, capc, needc, other, wide=False):
    """Close the colours of state ``(key, key2)`` other than ``c`` for every joker count left.

    Fills ``other[k]`` (their closed codes' key bits, -1 if some short run cannot continue
    with k jokers; ``wide``, codes past 127: their second-word bits in ``other[k + jokers +
    1]``, :func:`solvers.rummikub._layout.code_high`) and returns ``(jokers their pending
    runs need, whether any k survives)``."""
    other_need = 0
    for cc in range(NCOL):
        if cc != c:
            other_need += needc[cc, code_at(key, key2, cc, wide)]
    alive = False
    for k in range(jokers + 1):
        rest = np.int64(0)
        rest2 = np.int64(0)
        for cc in range(NCOL):
            if cc == c:
                continue
            cl = capc[cc, code_at(key, key2, cc, wide), k]
            if cl < 0:
                rest = -1
                break
            rest |= code_bits(cl, cc, wide)
            if wide:
                rest2 |= code_high(cl, cc)
        other[k] = rest
        if wide:
            other[k + jokers + 1] = rest2
        if rest >= 0:
            alive = True
    return other_need, alive


@njit(cache=True)
def class_dominators(digits, binom, usable):
    """For sets of 3 over class codes (six or seven open runs a colour, :func:`length_tables`
    ``(3, 6 | 7)``): ``dominators[code, k]`` the codes whose runs dominate ``code``'s as
    :func:`solvers.rummikub._layers.drop_dominated` orders the DP's own digits (one more
    long run; a run of length 1 or 2 one longer; a run of length 1 a long one), -1 where
    that code has more runs than the tables hold.  Empty (no dominance) for other tables or
    unless ``usable`` (not under two real tiles per set, whose runs holding a joker the key
    lists apart and :func:`solvers.rummikub._real2.long_joker_runs` moves between classes).

    Why dropping a state ``A`` with such a neighbour ``B`` (the same key but colour c's
    code, score at least A's) keeps the optimum, by induction over the numbers left: B's
    runs of colour c are A's with one run longer or one long run more.  Take any choice
    (tiles, jokers and groups at the next number) that A's completion makes; B makes the
    same one, for the same gain: it continues its short runs (no more than A's), then its
    long runs up to the tiles (at least as many), and opens the rest (no more), so each run
    of B's successor is matched by a run of A's at most as long, and B's extra runs are
    long (:func:`length_step`: the short runs to complete and the jokers they need are no
    more; :func:`length_closing`: the same with the number's jokers).  So B's successor
    dominates A's in the same order, or equals it, and a final state of A's completion is
    one of B's.  Three jokers (``bare``, :func:`triple_step`, in the key's ``SHORT_AT``
    bits, equal in A and B): a candidate run of jokers alone of colour c at length 3 must
    continue as a long run (B continues at least as many), one of length 1-2 takes the
    next joker under the same choice in both, and a candidate opens (``ju`` 0, one joker,
    every tile to new runs) in B only if B has no run of colour c, nor then A (so not a
    neighbour); where A opens one and B does not, B's successor has none, which only lifts
    an obligation (with a joker placed none opens later).  Four jokers (:mod:`solvers.
    rummikub._risky`): the listed runs of jokers alone are left out (a colour listing one
    is skipped: its joker placement depends on the runs continued, not proved here).
    ``tests/rummikub/test_rummikub_class_dominance.py`` checks it against brute force."""
    n = digits.shape[0] if digits.shape[1] == 3 and usable else 0
    most = 0
    for code in range(n):
        most = max(most, digits[code, 0] + digits[code, 1] + digits[code, 2])
    dominators = np.full((n, 4), -1, np.int64)
    counts = np.zeros(3, np.int64)
    for code in range(n):
        a1, a2, a3 = digits[code, 0], digits[code, 1], digits[code, 2]
        for k in range(4):
            b1, b2, b3 = a1, a2, a3 + 1  # (k 0: one more long run)
            if k == 1:
                b1, b2, b3 = a1 - 1, a2 + 1, a3
            elif k == 2:
                b1, b2, b3 = a1, a2 - 1, a3 + 1
            elif k == 3:
                b1, b2, b3 = a1 - 1, a2, a3 + 1
            if min(b1, b2) < 0 or b1 + b2 + b3 > most:
                continue
            counts[0], counts[1], counts[2] = b1, b2, b3
            dominators[code, k] = _rank_of(counts, binom)
    return dominators


@njit(cache=True)
def drop_dominated_classes(table, bits, lo, hi, keys, keys2, score, dominators, quad):
    """:func:`solvers.rummikub._layers.drop_dominated` over class codes (``dominators``:
    :func:`class_dominators`); ``keys2``: None, or the states' second words (``table`` then
    the pairs' hash table), where under four jokers (``quad``) a colour with a listed run of
    jokers alone (:mod:`solvers.rummikub._risky`) is left as it is."""
    for i in range(lo, hi):
        key = keys[i]
        if key < 0:
            continue
        sc = score[i]
        key2 = keys2[i] if keys2 is not None else np.int64(0)
        listed = (key2 >> RISKY_AT) & FIELD_MASK if quad else 0
        slot_a, slot_b = listed & SLOT_MASK, listed >> RISKY_SLOT_BITS
        dominated = False
        for c in range(NCOL):
            if (slot_a and slot_a >> 3 == c) or (slot_b and slot_b >> 3 == c):
                continue
            code = (key >> (COLOUR_BITS * c)) & 127
            base = key & ~(np.int64(127) << (COLOUR_BITS * c))
            for k in range(4):
                better = dominators[code, k]
                if better < 0:
                    continue
                other = base | better << (COLOUR_BITS * c)
                if keys2 is None:
                    j = lookup(table, bits, lo, other)
                else:
                    j = pair_lookup(table, bits, lo, other, key2)
                if j >= 0 and score[j] >= sc:
                    dominated = True
                    break
            if dominated:
                break
        if dominated:
            keys[i] = -1
