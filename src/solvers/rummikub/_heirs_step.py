"""Fewest tiles moved: one colour's successors of a state, the pass's inner loops.

Split from :mod:`solvers.rummikub._heirs` (its layers call :func:`successors`).  Nothing
here takes an array but the layer's store and two tables: in Numba every array handed to
an inlined helper, taken out of a tuple or carried round a loop costs two atomic reference
counts (``NRT_incref``/``NRT_decref``), and in these loops they were half the pass's CPU.
So the small things travel as bits of an int64: a colour's run descriptors (at most four,
6 bits each, as in the state), their tiles' types after a step (1 real, 2 joker; 2 bits
each), the table runs waiting for a heir (``waiting``: slot | tile type << 4, 6 bits each;
``twins``: the index + 1 of an earlier waiting twin, 3 bits each), the linked table runs'
tile types (2 bits a slot), and a layer's per-slot tile counts (``rest``, 5 bits a slot:
a table set holds 13 tiles at most).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._bits import trailing_zeros
from solvers.rummikub._heirs_ahead import ahead_lost, short_need
from solvers.rummikub._heirs_state import (
    DONE_AT,
    FIELD_AT,
    FIELD_MASK,
    JU_AT,
    SPENT,
    colour_field,
    relax,
    resorted,
    with_colour,
)
from solvers.rummikub._layout import HOLD_BITS, NCOL

NEAR = 2
REST_BITS = 5  # a slot's tile count in a packed ``rest`` word


@njit(cache=True)
def packed_rest(rest):
    """``rest[v, c, slot]`` (counts below 32) as ``[v, c]``, 5 bits a slot."""
    out = np.zeros((rest.shape[0], rest.shape[1]), np.int64)
    for v in range(rest.shape[0]):
        for c in range(rest.shape[1]):
            for slot in range(HOLD_BITS):
                out[v, c] |= np.int64(rest[v, c, slot]) << (REST_BITS * slot)
    return out


@njit(cache=True, inline="always")
def _close_owners(w0, w1, going_on):
    """At a number's close: heirs of table runs whose span ends there become spent."""
    for c in range(NCOL):
        field = colour_field(w0, w1, c)
        changed = field
        for i in range(4):
            d = (field >> (6 * i)) & 63
            owner = d >> 2
            if owner >= 2 and not going_on >> (owner - 2) & 1:
                changed = (changed & ~(np.int64(63) << (6 * i))) | (SPENT << 2 | (d & 3)) << (6 * i)
        if changed != field:
            w0, w1 = with_colour(w0, w1, c, resorted(changed))
    return w0, w1


@njit(cache=True, inline="always")
def _settled(w0, w1, c, field, done, adopters):
    """Colour ``c``'s free runs written as spent once no table run can adopt one any more
    (``adopters``: :func:`~engines.rummikub.heirs._adopters`' mask for the number, -1 while
    a table run of the colour starts later; each of its runs is held out, done or linked):
    free and spent runs then act alike, and the states differing only there are one."""
    if adopters < 0:
        return w0, w1
    colour = colour_field(w0, w1, c)
    linked = 0
    free = 0
    for s in range(4):
        d = (colour >> (6 * s)) & 63
        if d >> 2 >= 2:
            linked |= 1 << ((d >> 2) - 2)
        elif d and d >> 2 == 0:
            free += 1
    if free == 0 or adopters & ~(field | done | linked):
        return w0, w1
    spent = colour
    for s in range(4):
        d = (colour >> (6 * s)) & 63
        if d and d >> 2 == 0:
            spent |= (SPENT << 2) << (6 * s)
    return with_colour(w0, w1, c, resorted(spent))


@njit(cache=True, inline="always")
def _run_moves(colour, r, avec, ur, jr):
    """Apply the action vector ``avec`` (radix 3 per open run: 0 ends, 1 real tile, 2 joker)
    to the ``r`` runs of the colour's descriptors ``colour``, then open new runs (real
    tiles, then jokers) for the rest of ``ur`` real tiles and ``jr`` jokers.  Returns
    ``(count, ended owners' slot bits, post, types)``: the descriptors after (6 bits each)
    and their tile here (2 bits each: 1 real, 2 joker); count -1 when the vector is not
    allowed (a short run ending, too many tiles, or a duplicate of an equivalent vector)."""
    reals = jokers = count = 0
    ended = post = types = np.int64(0)
    prev_a = 3
    prev_d = -1
    for i in range(r):
        a = avec % 3
        avec //= 3
        d = (colour >> (6 * i)) & 63
        if d == prev_d and a > prev_a:
            return -1, ended, post, types  # (equal runs: one order of their actions)
        prev_a, prev_d = a, d
        if a == 0:
            if d & 3 < 3:
                return -1, ended, post, types
            if d >> 2 >= 2:
                ended |= np.int64(1) << ((d >> 2) - 2)
            continue
        if a == 1:
            reals += 1
        else:
            jokers += 1
        post |= ((d >> 2) << 2 | min(3, (d & 3) + 1)) << (6 * count)
        types |= np.int64(a) << (2 * count)
        count += 1
    if reals > ur or jokers > jr:
        return -1, ended, post, types
    for k in range(ur + jr - reals - jokers):
        post |= np.int64(1) << (6 * count)
        types |= np.int64(1 if k < ur - reals else 2) << (2 * count)
        count += 1
    return count, ended, post, types


@njit(cache=True, inline="always")
def _adopt(post, types, count, code, waiting, twins, q):
    """Apply adoption ``code`` (radix ``count + 1`` per waiting table run: 0 none, p + 1 the
    run ``p`` of ``post``, free, with the same tile type) to ``post``; returns ``(runs
    adopted, descriptors after)``, -1 adopted when the code is not allowed.  Among equal
    free runs (descriptor and tile type) the earlier ones are adopted first: the other
    orders make the same state.  Of two identical table runs both waiting (``twins``: the
    earlier one, which comes first), the later one adopts only with the earlier one, a
    later run: the other choices are the same ones with the twins' names swapped."""
    gained = 0
    whole = code
    picked = post
    for k in range(q):
        pick = code % (count + 1)
        code //= count + 1
        if pick == 0:
            continue
        twin = (twins >> (3 * k)) & 7
        if twin:
            first = whole // (count + 1) ** (twin - 1) % (count + 1)
            if first == 0 or first > pick:
                return -1, picked
        p = pick - 1
        d = (post >> (6 * p)) & 63
        kind = (types >> (2 * p)) & 3
        if (picked >> (6 * p + 2)) & 15 != 0 or kind != (waiting >> (6 * k + 4)) & 3:
            return -1, picked
        for e in range(p):
            if ((post >> (6 * e)) & 63 == d and (types >> (2 * e)) & 3 == kind
                    and (picked >> (6 * e + 2)) & 15 == 0):
                return -1, picked
        slot = (waiting >> (6 * k)) & 15
        picked = (picked & ~(np.int64(63) << (6 * p))) | ((2 + slot) << 2 | (d & 3)) << (6 * p)
        gained += 1
    return gained, picked


@njit(cache=True, inline="always")
def lost_of(bits, rest):
    """The table tiles that ``bonus`` counts but cannot stay any more: those of the sets
    held out (already counted) and of the table runs whose heir ended (``rest``: packed,
    :func:`packed_rest`)."""
    lost = 0
    while bits:
        lost += (rest >> (REST_BITS * trailing_zeros(bits))) & 31
        bits &= bits - 1
    return lost


@njit(cache=True, inline="always")
def joker_places(bits, jokers_in, rest_j):
    """The jokers' places among the table tiles still counted (``jokers_in`` less those of
    the sets ``bits``, ``rest_j`` packed): each stays only with a joker put there."""
    return jokers_in - lost_of(bits, rest_j)


@njit(cache=True, inline="always")
def joker_lost(places, left):
    """Of ``places`` jokers' places (:func:`joker_places`), those that cannot stay: only
    ``left`` jokers are still to be placed."""
    return max(0, places - left)


@njit(cache=True, inline="always")
def suffix_lost(unavoidable, held, left):
    """The table tiles at least lost from a number on with ``left`` jokers to place there
    (``unavoidable``: 8 bits a count of jokers, 0-3, the slots whose sets hold a joker at
    bit 32: where one of them is held out both sides count its jokers, so none is read)."""
    if held & (unavoidable >> 32):
        return 0
    return (unavoidable >> (8 * min(left, 3))) & 255


@njit(cache=True, inline="always")
def reaches(sc, obj_more, bonus, lost, floor, scale1, scale2):
    """Whether a state scoring ``sc`` may still reach ``floor``: its objective (the part
    of the score in units of ``scale1``) with ``obj_more``, its sets held out (units of
    ``scale2``) with those of ``bonus``, and its tiles staying with the rest of ``bonus``
    less ``lost``, each reaching the floor's own.  Each must, not only their sum: no move
    beats the optimum, none as good keeps more sets (the floor asks for both maxima), so
    slack in one cannot pay for another."""
    if sc - sc % scale1 + obj_more < floor - floor % scale1:
        return False
    kept_more = bonus - bonus % scale2
    if sc % scale1 - sc % scale2 + kept_more < floor % scale1 - floor % scale2:
        return False
    return sc % scale2 + bonus % scale2 - lost >= floor % scale2


@njit(cache=True, inline="always")
def _closed(nw0, nw1, ju, field, done, going_on):
    """The last colour's successor with the number closed (spans ending here cleared, the
    jokers placed ``ju``): ``(w0, w1)``."""
    w0, w1 = _close_owners(nw0, nw1, going_on)
    keep = np.int64(FIELD_MASK) << FIELD_AT | np.int64(3) << JU_AT
    w0 = (w0 & ~keep) | np.int64(ju) << JU_AT | np.int64(field & going_on) << FIELD_AT
    w1 = (w1 & ~(np.int64(FIELD_MASK) << DONE_AT)) | np.int64(done & going_on) << DONE_AT
    return w0, w1


@njit(cache=True, inline="always")
def successors(table, bits, end, n, st, group_stays, avecs, lay, i, state, u_ok):
    """Every successor of state ``i``: for each count ``u`` of real tiles placed (``lo + k``
    for each bit k of ``u_ok``), ``ug`` of them in groups, ``jr`` jokers in the colour's runs,
    each choice of what its open runs do (``avecs``: :func:`~solvers.rummikub._heirs._shapes`)
    and which waiting table runs adopt a run (at the last colour, the group jokers and the
    close: ``group_stays``, :func:`~solvers.rummikub._heirs.heirs_pass`'; before it
    ``group_stays[caps]``: :func:`~solvers.rummikub._heirs_groups.group_deficits`).  ``lay``,
    ``state``: the layer's and the state's scalars (:func:`~solvers.rummikub._heirs.
    _colour_layer`; one call a state: each array bound here costs two atomic reference
    counts a call, the module's docstring).  Returns ``n``."""
    (v, c, last, wcv, jw, jwpos, jokers, going_on, rem, bonus, floor, scale1, scale2, adopters,
     jokers_in, rest, rest_j, near, far, ahead, admit, cap, unavoidable) = lay
    (w0, w1, w2, sc, field, done, ju, lo, colour, r, shapes, q, waiting, twins, linked_type,
     gsub, caps) = state
    while u_ok:
        u = lo + trailing_zeros(u_ok)
        u_ok &= u_ok - 1
        for combo in range((min(u, 2) + 1) * (min(jokers, cap) - ju + 1)):  # (cap: at most)
            ug, jr = combo // (min(jokers, cap) - ju + 1), combo % (min(jokers, cap) - ju + 1)
            base = sc + (u - lo) * wcv + jr * jw
            nju = ju + jr
            nw2 = w2 | np.int64(ug) << (2 * c)
            profile = 0
            for k in range(NCOL - 1, -1, -1):
                profile = profile * 3 + ((nw2 >> (2 * k)) & 3)
            more = rem + (jokers - nju) * jwpos
            deficit = 0  # (before the close: its groups' fewest tiles lost, 99: none form)
            if not last:
                deficit = group_stays[caps, gsub, profile, min(2, jokers - nju)]
                if deficit >= 99:
                    continue
                nw2 = group_stays[caps, gsub, profile, 3]  # (one of the profiles alike)
            for k in range(shapes):
                if avecs[k, 1] > u - ug or avecs[k, 2] > jr:
                    continue
                avec = avecs[k, 0]
                count, ended, post, types = _run_moves(colour, r, avec, u - ug, jr)
                if count < 0:
                    continue
                linked = 0
                for p in range(count):
                    owner = (post >> (6 * p + 2)) & 15
                    if owner >= 2 and ((types >> (2 * p)) & 3
                                       == (linked_type >> (2 * (owner - 2))) & 3):
                        linked += 1
                ndone = done | ended
                lost = lost_of(field | ndone, rest)
                places = joker_places(field | ndone, jokers_in, rest_j)
                jl = max(joker_lost(places, jokers - nju), deficit)  # (may share tiles)
                if not last:  # (what no adoption changes: the most it can gain, the short runs)
                    if not reaches(base + linked + q, more, bonus, lost + jl, floor, scale1,
                                   scale2):
                        continue
                    sw0, sw1 = with_colour(w0, w1, c, resorted(post))
                    if short_need(sw0, sw1, c, near, far) > jokers - nju:
                        continue
                for code in range((count + 1) ** q):
                    gained, picked = _adopt(post, types, count, code, waiting, twins, q)
                    if gained < 0:
                        continue
                    nw0, nw1 = with_colour(w0, w1, c, resorted(picked))
                    nw0, nw1 = _settled(nw0, nw1, c, field, ndone, adopters)
                    nsc = base + linked + gained
                    ch = u | ug << 2 | jr << 4 | avec << 6 | code << 13
                    if not last:
                        if not reaches(nsc, more, bonus, lost + jl, floor, scale1, scale2):
                            continue
                        stay = nsc % scale2 + bonus % scale2 - lost - jl
                        if stay - admit < NEAR:  # (admit: at least the floor's tiles staying)
                            gone = ahead_lost(nw0, nw1, field, ndone, c, ahead) - (jokers - nju)
                            if gone > jl and not reaches(nsc, more, bonus, lost + gone, floor,
                                                         scale1, scale2):
                                continue
                            stay -= max(0, gone - jl)
                        nw0 = (nw0 & ~(np.int64(3) << JU_AT)) | np.int64(nju) << JU_AT
                        nw1 = ((nw1 & ~(np.int64(FIELD_MASK) << DONE_AT))
                               | np.int64(ndone) << DONE_AT)
                        n = relax(table, bits, end, n, st, nw0, nw1, nw2, nsc, i, ch, stay)
                        continue
                    cw0, cw1 = _closed(nw0, nw1, nju, field, ndone, going_on)
                    for jg in range(min(jokers, cap) - nju + 1):
                        stays = group_stays[v, gsub, profile, jg]
                        if stays < 0:
                            continue
                        left = jokers - nju - jg
                        csc = nsc + jg * jw + stays
                        cmore, cjl = rem + left * jwpos, joker_lost(places, left)
                        if not reaches(csc, cmore, bonus, lost + cjl, floor, scale1, scale2):
                            continue
                        cjl = max(cjl, ahead_lost(cw0, cw1, field, ndone, NCOL - 1, ahead) - left,
                                  lost_of(field, rest) - lost
                                  + suffix_lost(unavoidable, field & going_on, left))
                        if not reaches(csc, cmore, bonus, lost + cjl, floor, scale1, scale2):
                            continue
                        if short_need(cw0, cw1, -1, near, far) > left:
                            continue
                        jw0 = (cw0 & ~(np.int64(3) << JU_AT)) | np.int64(nju + jg) << JU_AT
                        n = relax(table, bits, end, n, st, jw0, cw1, np.int64(0), csc, i,
                                  ch | jg << 23, csc % scale2 + bonus % scale2 - lost - cjl)
    return n
