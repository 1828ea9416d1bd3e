"""Fewest tiles moved: states that differ only in which table run owns each open run.

Two states of a layer of the pass (:mod:`solvers.rummikub._heirs`) with the same open runs'
length classes, jokers placed, sets held out and group tiles (``w2``), differing only in
the runs' owners (free, spent, the heir of a table run) and the done bits, lead to the
same arrangements of tiles; only the tiles that stay may differ.  Take a way to finish
``B`` and do the same with ``A``, its runs matched to ``B``'s one to one within a length
class (``pi``).  A table run of ``B`` that is done gains nothing more; one that is the heir
``r`` of ``B`` gains the same in ``A`` when there it is the heir of ``pi(r)``, or waits
while ``pi(r)`` is free (it adopts ``pi(r)`` at the next place their tiles match: the
gains of the heir from there on); one waiting in both does what it does in ``B`` unless
``B`` has it adopt a run free in ``B`` that is not free in ``A`` (at most as many such
table runs as runs free in ``B`` and not in ``A``, among those waiting in both and the
colour's table runs starting later).  Every other table run may lose in ``A`` what it
still had to gain, at most its tiles still able to stay (``rest``).  So ``A`` reaches
at least ``B``'s best less ``delta``, the least of those losses over the matchings, and
``A`` scoring at least ``delta`` more tiles staying (the objective and sets held out at
least ``B``'s) dominates ``B``.  The states are taken in order of score, each dropped
only by one kept, so each dropped state keeps a live dominator.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bits import trailing_zeros
from solvers.rummikub._heirs_state import (
    DONE_AT,
    FIELD_MASK,
    NEG,
    colour_field,
    hash_of,
    sorted_field,
)
from solvers.rummikub._layout import NCOL

REST_BITS = 5  # as solvers.rummikub._heirs_step's packed rest
COMPARED = 8  # the most kept states of a group a state is compared with, to be dropped
_OWNERS = np.int64(0x3C_3C_3C_3C_3C_3C)  # (the owner bits of two colours' descriptors)
_DONE = np.int64(FIELD_MASK) << DONE_AT


@njit(cache=True)
def slot_bits_of(runs_at, slot_of, v):
    """Colour c's table runs' slots at number v+1 (``[c]``)."""
    out = np.zeros(runs_at.shape[1], np.int64)
    for c in range(runs_at.shape[1]):
        for k in range(runs_at.shape[2]):
            if runs_at[v, c, k] >= 0:
                out[c] |= np.int64(1) << slot_of[runs_at[v, c, k]]
    return out


@njit(cache=True)
def later_tops(runs_at, run_type):
    """``[v, c]``: the sizes of colour c's table runs starting after number v+1, the four
    largest packed (5 bits each, largest first): those that may adopt a free run later."""
    nnum, ncol = runs_at.shape[0], runs_at.shape[1]
    out = np.zeros((nnum, ncol), np.int64)
    for v in range(nnum):
        for c in range(ncol):
            top = np.int64(0)
            for w in range(v + 1, nnum):
                for k in range(runs_at.shape[2]):
                    i = runs_at[w, c, k]
                    if i < 0:
                        break
                    if w > 0 and run_type[i, w - 1] > 0:
                        continue  # (started before w)
                    size = 0
                    for x in range(nnum):
                        size += run_type[i, x] > 0
                    top = _pushed(top, size)
            out[v, c] = top
    return out


@njit(cache=True, inline="always")
def _pushed(top, value):
    """``top`` (four 5-bit values, largest first) with ``value`` put in its place."""
    out = np.int64(0)
    placed = False
    k = 0
    for s in range(4):
        x = (top >> (REST_BITS * s)) & 31
        if not placed and value >= x:
            out |= np.int64(value) << (REST_BITS * k)
            k += 1
            placed = True
        if k < 4:
            out |= np.int64(x) << (REST_BITS * k)
            k += 1
    return out


@njit(cache=True, inline="always")
def _largest(values, count, m):
    """The sum of the ``m`` largest of ``count`` 5-bit ``values``."""
    total = 0
    for _ in range(m):
        best, at = -1, -1
        for s in range(count):
            x = (values >> (REST_BITS * s)) & 31
            if x > best:
                best, at = x, s
        if at < 0:
            break
        total += best
        values &= ~(np.int64(31) << (REST_BITS * at))
    return total


@njit(cache=True, inline="always")
def _owner_at(field, owner):
    """The index of the run of ``field`` (a colour's descriptors) owned by ``owner``, -1."""
    for s in range(4):
        if ((field >> (6 * s)) & 63) >> 2 == owner:
            return s
    return -1


@njit(cache=True)
def _colour_delta(f1, f2, done1, done2, slots, rest, later, limit):
    """The least loss (above) of the colour's table runs ``slots`` when ``A`` (descriptors
    ``f1``, done bits ``done1``) does what ``B`` (``f2``, ``done2``) does; above ``limit``:
    ``limit + 1``."""
    n = 0
    for s in range(4):
        n += (f2 >> (6 * s)) & 63 > 0
    fact = 1
    for k in range(2, n + 1):
        fact *= k
    best = limit + 1
    for code in range(fact):
        perm = 0  # (pi: B's run k is A's run perm >> 2k & 3)
        avail, x, f = (1 << n) - 1, code, fact
        for k in range(n):
            f //= n - k
            idx, x = x // f, x % f
            pick = avail
            for _ in range(idx):
                pick &= pick - 1
            at = trailing_zeros(pick)
            avail &= ~(1 << at)
            perm |= at << (2 * k)
        ok = True
        freed = 0  # (runs free in B, not in A)
        for k in range(n):
            d2, d1 = (f2 >> (6 * k)) & 63, (f1 >> (6 * ((perm >> (2 * k)) & 3))) & 63
            if d2 & 3 != d1 & 3:
                ok = False
            freed += d2 >> 2 == 0 and d1 >> 2 != 0
        if not ok:
            continue
        loss, waiting, count = 0, np.int64(0), 0
        bits = slots
        while bits:
            b = trailing_zeros(bits)
            bits &= bits - 1
            if done2 >> b & 1:
                continue
            gain = (rest >> (REST_BITS * b)) & 31
            k2, s1 = _owner_at(f2, 2 + b), _owner_at(f1, 2 + b)
            if k2 >= 0:
                at = (perm >> (2 * k2)) & 3
                if s1 == at or (s1 < 0 and not done1 >> b & 1
                                and (f1 >> (6 * at + 2)) & 15 == 0):
                    continue
                loss += gain
            elif s1 >= 0 or done1 >> b & 1:
                loss += gain
            else:
                waiting |= np.int64(gain) << (REST_BITS * count)
                count += 1
        if freed:
            for s in range(4):
                waiting |= ((later >> (REST_BITS * s)) & 31) << (REST_BITS * (count + s))
            loss += _largest(waiting, count + 4, freed)
        best = min(best, loss)
    return best


@njit(cache=True, inline="always")
def _delta(a, b, st, slot_bits, rest, later, limit):
    """Rows ``a`` (``A``) and ``b`` (``B``): the losses (:func:`_colour_delta`) summed over
    the colours, ``limit + 1`` once above ``limit``."""
    done1, done2 = (st[a, 1] >> DONE_AT) & FIELD_MASK, (st[b, 1] >> DONE_AT) & FIELD_MASK
    total = 0
    for c in range(NCOL):
        f1, f2 = colour_field(st[a, 0], st[a, 1], c), colour_field(st[b, 0], st[b, 1], c)
        slots = slot_bits[c]
        if f1 == f2 and not (done1 ^ done2) & slots:
            continue
        total += _colour_delta(f1, f2, done1, done2, slots, rest, later[c], limit - total)
        if total > limit:
            return limit + 1
    return total


@njit(cache=True)
def drop_owner_dominated(lo, hi, st, slot_bits, rest, later, scale1, scale2):
    """Mark the states ``lo..hi-1`` (a layer) that another dominates as above (score set to
    ``NEG``); returns how many.  ``slot_bits[c]``: colour c's table runs' slots at the
    number; ``rest``: their tiles still able to stay (packed, 5 bits a slot); ``later``:
    :func:`later_tops`' row for the number.  The states with the same stripped key are
    chained (``head`` by key, ``chain`` by row); a state is dropped by one kept, and drops
    the kept ones it dominates, so each dropped state keeps a live dominator."""
    n = hi - lo
    bits = 4
    while (1 << bits) < 2 * n:
        bits += 1
    mask = (1 << bits) - 1
    head = np.full(1 << bits, -1, np.int64)
    chain = np.full(n, -1, np.int64)
    dropped = 0
    keys = np.empty((n, 2), np.int64)
    for i in range(lo, hi):
        if st[i, 3] == NEG:
            continue
        s0, s1, w2 = _stripped(st[i, 0]), _stripped(st[i, 1] & ~_DONE), st[i, 2]
        keys[i - lo, 0], keys[i - lo, 1] = s0, s1
        h = hash_of(s0, s1, w2, bits)
        while head[h] >= 0:
            j = head[h]
            if keys[j - lo, 0] == s0 and keys[j - lo, 1] == s1 and st[j, 2] == w2:
                break
            h = (h + 1) & mask
        if head[h] < 0:
            head[h] = i
            continue
        beaten, compared = False, 0
        j = head[h]
        while j >= 0 and compared < COMPARED and not beaten:
            beaten = _dominates(j, i, st, slot_bits, rest, later, scale1, scale2)
            j = chain[j - lo]
            compared += 1
        if beaten:
            st[i, 3] = NEG
            dropped += 1
            continue
        prev, j = -1, head[h]  # (the kept ones this one dominates leave the chain)
        compared = 0
        while j >= 0 and compared < COMPARED:
            nxt = chain[j - lo]
            compared += 1
            if _dominates(i, j, st, slot_bits, rest, later, scale1, scale2):
                st[j, 3] = NEG
                dropped += 1
                if prev < 0:
                    head[h] = nxt
                else:
                    chain[prev - lo] = nxt
            else:
                prev = j
            j = nxt
        chain[i - lo] = head[h] if head[h] >= 0 else -1
        head[h] = i
    return dropped


@njit(cache=True, inline="always")
def _dominates(a, b, st, slot_bits, rest, later, scale1, scale2):
    """Whether row ``a`` dominates row ``b`` (the same stripped key)."""
    sa, sb = st[a, 3], st[b, 3]
    if sa - sa % scale1 < sb - sb % scale1:
        return False
    if sa % scale1 - sa % scale2 < sb % scale1 - sb % scale2:
        return False
    slack = sa % scale2 - sb % scale2
    return slack >= 0 and _delta(a, b, st, slot_bits, rest, later, slack) <= slack


@njit(cache=True, inline="always")
def _stripped(word):
    """A state word's descriptors without their owners, each colour's classes sorted."""
    out = word & ~_OWNERS
    for k in range(2):
        f = (out >> (24 * k)) & 0xFFFFFF
        classes = sorted_field(f & 3, (f >> 6) & 3, (f >> 12) & 3, (f >> 18) & 3)
        out = (out & ~(np.int64(0xFFFFFF) << (24 * k))) | classes << (24 * k)
    return out
