"""Fewest tiles moved: the tie-break after least disturbance, as one exact DP pass.

Among the moves optimal for the objective that keep the most table sets (``K``, found by
least disturbance's passes), the pass finds one that moves the fewest table tiles under
the positional definition (:mod:`engines.rummikub.moved`): each table set may have one
*heir* afterwards, a set of its kind (a run of its colour, a group of its number) that no
other table set inherits; a tile stays when its heir holds it at its place (a joker: a
joker standing for the same tile; in a group any joker).  Its score is the objective's,
scaled above the sets kept, scaled above the tiles that stay, so the best score at the
floor ``(optimum, K)`` is the most tiles staying.

Unlike the plain DP, whose colour codes count open runs by length only, the heir of a
table run must be followed as one run: the state lists each colour's open runs (up to
four: two copies and two jokers) as *descriptors*, a length class (1, 2, 3+) and an owner
(free; *spent*: it was the heir of a table run whose span is over, so it inherits no
other; or the hold slot of the released table run whose heir it is).  A table run adopts
a free run (or a new one) at a place where their tiles match (adopting earlier gains
nothing); it stays linked while its heir goes on, and once its heir ends it is *done*
(a bit per slot).  Inside a number the colours given to groups (2 bits a colour) let the
close score the released table groups' best heirs (``group_stays``, from the engine).
Held-out sets (kept as they are) are chosen as least disturbance does, before each
number, and keep all their tiles.

State: three int64 words.  ``w0``: colours 0 and 1 (4 descriptors of 6 bits each), the
jokers placed at 48, the held-out field (12 bits) at 50; ``w1``: colours 2 and 3, the done
bits at 48; ``w2``: inside a number, the tiles each colour gave to groups.  The rules are
the rules document's (free joker retrieval, sets of 3+, one real tile per set, two copies,
up to two jokers; fewer colours or numbers allowed): the engine refuses the others.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from solvers.rummikub._heirs_ahead import ahead_lost, short_need
from solvers.rummikub._heirs_prune import drop_dominated, twin_alone
from solvers.rummikub._heirs_state import (
    DONE_AT,
    FIELD_AT,
    FIELD_MASK,
    JU_AT,
    NEG,
    SPENT,
    STATE_COLUMNS,
    colour_field,
    packed,
    relax,
    room,
    sorted_field,
    with_colour,
)
from solvers.rummikub._layout import HOLD_BITS, NCOL

OVER = NEG + 1  # heirs_pass: over its budget
NEAR = 2


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
            w0, w1 = with_colour(w0, w1, c, _resorted(changed))
    return w0, w1


@njit(cache=True, inline="always")
def _resorted(field):
    """A colour's 24 bits with their descriptors sorted again (largest first)."""
    return sorted_field(field & 63, (field >> 6) & 63, (field >> 12) & 63, (field >> 18) & 63)


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
    return with_colour(w0, w1, c, _resorted(spent))


@njit(cache=True, inline="always")
def _run_moves(desc, r, avec, ur, jr, post, post_type):
    """Apply the action vector ``avec`` (radix 3 per open run: 0 ends, 1 real tile, 2 joker)
    to the ``r`` runs ``desc``, then open new runs (real tiles, then jokers) for the rest of
    ``ur`` real tiles and ``jr`` jokers.  Fills ``post``/``post_type`` (descriptors after,
    their tile here: 1 real, 2 joker); returns ``(count, ended owners' slot bits)``, count
    -1 when the vector is not allowed (a short run ending, too many tiles, or a duplicate
    of an equivalent vector)."""
    reals = jokers = count = 0
    ended = np.int64(0)
    prev_a = 3
    for i in range(r):
        a = avec % 3
        avec //= 3
        d = desc[i]
        if i > 0 and d == desc[i - 1] and a > prev_a:
            return -1, ended  # (equal runs: one order of their actions)
        prev_a = a
        if a == 0:
            if d & 3 < 3:
                return -1, ended
            if d >> 2 >= 2:
                ended |= np.int64(1) << ((d >> 2) - 2)
            continue
        if a == 1:
            reals += 1
        else:
            jokers += 1
        post[count] = (d >> 2) << 2 | min(3, (d & 3) + 1)
        post_type[count] = a
        count += 1
    if reals > ur or jokers > jr:
        return -1, ended
    for _ in range(ur - reals):
        post[count], post_type[count] = 1, 1
        count += 1
    for _ in range(jr - jokers):
        post[count], post_type[count] = 1, 2
        count += 1
    return count, ended


@njit(cache=True, inline="always")
def _shapes(desc, r, avecs):
    """The action vectors (:func:`_run_moves`) that the ``r`` runs ``desc`` allow whatever
    the tiles (no short run ends; equal runs in one order), ascending, with the real tiles
    and jokers each takes: ``avecs[k] = (avec, reals, jokers)``; returns how many."""
    count = 0
    for avec in range(3 ** r):
        rest = avec
        reals = jokers = 0
        prev_a = 3
        ok = True
        for i in range(r):
            a = rest % 3
            rest //= 3
            if (i > 0 and desc[i] == desc[i - 1] and a > prev_a) or (a == 0 and desc[i] & 3 < 3):
                ok = False
                break
            prev_a = a
            reals += a == 1
            jokers += a == 2
        if ok:
            avecs[count, 0], avecs[count, 1], avecs[count, 2] = avec, reals, jokers
            count += 1
    return count


@njit(cache=True, inline="always")
def _adopt(picked, post, post_type, count, code, t_slot, t_type, q, twin):
    """Apply adoption ``code`` (radix ``count + 1`` per waiting table run: 0 none, p + 1 the
    run ``post[p]``, free, with the same tile type) to ``picked`` (a copy of ``post``);
    returns the runs adopted, or -1 when the code is not allowed.  Among equal free runs
    (descriptor and tile type) the earlier ones are adopted first: the other orders make
    the same state.  Of two identical table runs both waiting (``twin[slot]``: the slot
    of the earlier one, which comes first), the later one adopts only with the earlier
    one, a later run: the other choices are the same ones with the twins' names swapped."""
    gained = 0
    whole = code
    for k in range(q):
        pick = code % (count + 1)
        code //= count + 1
        if pick == 0:
            continue
        if twin[t_slot[k]] >= 0:
            for e in range(k):
                if t_slot[e] == twin[t_slot[k]]:
                    first = whole // (count + 1) ** e % (count + 1)
                    if first == 0 or first > pick:
                        return -1
        p = pick - 1
        if picked[p] >> 2 != 0 or post_type[p] != t_type[k]:
            return -1
        for e in range(p):
            if post[e] == post[p] and post_type[e] == post_type[p] and picked[e] >> 2 == 0:
                return -1
        picked[p] = (2 + t_slot[k]) << 2 | (picked[p] & 3)
        gained += 1
    return gained


@njit(cache=True, inline="always")
def _waiting(w0, w1, c, v, field, done, runs_at, slot_of, run_type, t_slot, t_type,
             linked_type):
    """The released table runs of colour ``c`` covering number v+1 that have no heir yet
    (slot, tile type there; returns how many), and the match gains of the linked ones:
    ``linked_type[slot]`` (filled) the linked table run's tile type at v+1."""
    q = 0
    linked_type.fill(0)  # (no slice: a view costs two atomic reference counts)
    colour = colour_field(w0, w1, c)
    for k in range(runs_at.shape[2]):
        i = runs_at[v, c, k]
        if i < 0:
            break
        b = slot_of[i]
        if field >> b & 1:
            continue
        linked_type[b] = run_type[i, v]
        linked = False
        for s in range(4):
            if ((colour >> (6 * s)) & 63) >> 2 == 2 + b:
                linked = True
        if not linked and not done >> b & 1:
            t_slot[q], t_type[q] = b, run_type[i, v]
            q += 1
    return q


@njit(cache=True, inline="always")
def _lost(bits, rest):
    """The table tiles that ``bonus`` counts but cannot stay any more: those of the sets
    held out (already counted) and of the table runs whose heir ended (``rest[slot]``)."""
    lost = 0
    while bits:
        lost += rest[trailing_zeros(bits)]
        bits &= bits - 1
    return lost


@njit(cache=True, inline="always")
def _joker_places(bits, jokers_in, rest_j):
    """The jokers' places among the table tiles still counted (``jokers_in`` less those of
    the sets ``bits``): each stays only with a joker put there (:func:`_joker_lost`)."""
    return jokers_in - _lost(bits, rest_j)


@njit(cache=True, inline="always")
def _joker_lost(places, left):
    """Of ``places`` jokers' places (:func:`_joker_places`), those that cannot stay: only
    ``left`` jokers are still to be placed."""
    return max(0, places - left)


@njit(cache=True, inline="always")
def _reaches(sc, obj_more, bonus, lost, floor, scale1, scale2):
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
def _released_groups(field, group_of, v):
    """The number's table groups in play (bit per group index), from the held-out field."""
    gsub = 0
    for b in range(HOLD_BITS):
        g = group_of[v, b]
        if g >= 0 and not field >> b & 1:
            gsub |= 1 << g
    return gsub


@njit(cache=True, inline="always")
def _closed(nw0, nw1, nsc, ju, field, done, going_on, v, gsub, w2, jg, jw, group_stays):
    """The last colour's successor after ``jg`` group jokers, the number closed (the
    released groups' best stays added, spans ending here cleared): ``(w0, w1, score)``,
    score ``NEG`` when the groups cannot be formed."""
    profile = 0
    for c in range(NCOL - 1, -1, -1):
        profile = profile * 3 + ((w2 >> (2 * c)) & 3)
    stays = group_stays[v, gsub, profile, jg]
    if stays < 0:
        return nw0, nw1, NEG
    w0, w1 = _close_owners(nw0, nw1, going_on[v])
    keep = np.int64(FIELD_MASK) << FIELD_AT | np.int64(3) << JU_AT
    w0 = (w0 & ~keep) | np.int64(ju + jg) << JU_AT | np.int64(field & going_on[v]) << FIELD_AT
    w1 = (w1 & ~(np.int64(FIELD_MASK) << DONE_AT)) | np.int64(done & going_on[v]) << DONE_AT
    return w0, w1, nsc + jg * jw + stays


@njit(cache=True, inline="always")
def _successors(table, bits, end, n, st, i, c, v, last, u, ug, jr, lo, lay, post, post_type,
                t_slot, t_type, q, linked_type, avecs, shapes, desc, r, picked):
    """Every successor of state ``i`` placing ``u`` real tiles (``ug`` of them in groups)
    and ``jr`` jokers in colour ``c``'s runs at number v+1: each choice of what its open
    runs do (``avecs[:shapes]``: :func:`_shapes`) and which waiting table runs adopt a run
    (and, at the last colour, the group jokers and the close; ``picked``: work space for 4
    descriptors; ``lay``: the tables taken apart once a layer, as an array taken out of
    a tuple or sliced costs atomic reference counts, half the pass's CPU).  Returns
    ``(n, table, bits, st)``."""
    (weight, jw, jwpos, jokers, going_on, group_of, group_stays, rem, bonus, floor, real,
     nnum, rest_vc, scale1, scale2, adopters, twin, jokers_in, rest_j, colour_bits,
     run_bits) = lay
    w0, w1, w2, sc = st[i, 0], st[i, 1], st[i, 2], st[i, 3]
    field = (w0 >> FIELD_AT) & FIELD_MASK
    done = (w1 >> DONE_AT) & FIELD_MASK
    ju = (w0 >> JU_AT) & 3
    base = sc + (u - lo) * weight[c, v] + jr * jw
    nju = ju + jr
    gsub = _released_groups(field, group_of, v) if last else 0
    nw2 = w2 | np.int64(ug) << (2 * c)
    for k in range(shapes):
        avec = avecs[k, 0]
        if avecs[k, 1] > u - ug or avecs[k, 2] > jr:
            continue
        count, ended = _run_moves(desc, r, avec, u - ug, jr, post, post_type)
        if count < 0:
            continue
        linked = 0
        for p in range(count):
            owner = post[p] >> 2
            if owner >= 2 and post_type[p] == linked_type[owner - 2]:
                linked += 1
        ndone = done | ended
        lost = _lost(field | ndone, rest_vc)
        places = _joker_places(field | ndone, jokers_in, rest_j)
        more = rem[v, c] + (jokers - nju) * jwpos
        jl = _joker_lost(places, jokers - nju)
        if not last:  # (what no adoption changes: the most it can gain, the short runs)
            if not _reaches(base + linked + q, more, bonus[v, c], lost + jl, floor, scale1,
                            scale2):
                continue
            sw0, sw1 = with_colour(w0, w1, c, packed(post, count))
            if short_need(sw0, sw1, c, real, v, nnum) > jokers - nju:
                continue
        codes = (count + 1) ** q
        table, bits, st = room(table, bits, end, n, codes * (jokers + 1), st)
        for code in range(codes):
            for p in range(count):  # (no slices here: each view costs two atomics)
                picked[p] = post[p]
            gained = _adopt(picked, post, post_type, count, code, t_slot, t_type, q, twin)
            if gained < 0:
                continue
            nw0, nw1 = with_colour(w0, w1, c, packed(picked, count))
            nw0, nw1 = _settled(nw0, nw1, c, field, ndone, adopters)
            nsc = base + linked + gained
            ch = u | ug << 2 | jr << 4 | avec << 6 | code << 13
            if not last:
                if not _reaches(nsc, more, bonus[v, c], lost + jl, floor, scale1, scale2):
                    continue
                if nsc % scale2 + bonus[v, c] % scale2 - lost - jl - floor % scale2 < NEAR:
                    ahead = ahead_lost(nw0, nw1, field, ndone, v, nnum, real, colour_bits,
                                       run_bits, going_on, c) - (jokers - nju)
                    if ahead > jl and not _reaches(nsc, more, bonus[v, c], lost + ahead, floor,
                                                   scale1, scale2):
                        continue
                nw0 = (nw0 & ~(np.int64(3) << JU_AT)) | np.int64(nju) << JU_AT
                nw1 = (nw1 & ~(np.int64(FIELD_MASK) << DONE_AT)) | np.int64(ndone) << DONE_AT
                n = relax(table, bits, end, n, st, nw0, nw1, nw2, nsc, i, ch)
                continue
            for jg in range(jokers - nju + 1):
                cw0, cw1, csc = _closed(nw0, nw1, nsc, nju, field, ndone, going_on, v, gsub,
                                        nw2, jg, jw, group_stays)
                left = jokers - nju - jg
                if csc == NEG:
                    continue
                more, jl = rem[v, c] + left * jwpos, _joker_lost(places, left)
                if not _reaches(csc, more, bonus[v, c], lost + jl, floor, scale1, scale2):
                    continue
                ahead = ahead_lost(cw0, cw1, field, ndone, v, nnum, real, colour_bits, run_bits,
                                   going_on, NCOL - 1) - left
                if ahead > jl and not _reaches(csc, more, bonus[v, c], lost + ahead, floor,
                                               scale1, scale2):
                    continue
                if short_need(cw0, cw1, -1, real, v, nnum) > left:
                    continue
                n = relax(table, bits, end, n, st, cw0, cw1, np.int64(0), csc, i,
                           ch | jg << 23)
    return n, table, bits, st


@njit(cache=True)
def _colour_layer(table, bits, start, end, st, c, v, ctx, must, opt, colour_bits, runs_at,
                  slot_of, run_type):
    """Colour ``c``'s sub-step at number v+1 for the states ``start..end-1``."""
    weight, jwpos, jokers, rem, bonus, floor = ctx[0], ctx[2], ctx[3], ctx[8], ctx[9], ctx[10]
    rest, scale1, scale2 = ctx[13], ctx[14], ctx[15]
    last = c == NCOL - 1
    before = c - 1 if c > 0 else NCOL
    rest_before, jokers_before = rest[v, before], ctx[18][v, before]
    rest_j_before = ctx[19][v, before]
    lay = (weight, ctx[1], jwpos, jokers, ctx[5], ctx[6], ctx[7], rem, bonus, floor, ctx[11],
           ctx[12], rest[v, c], scale1, scale2, ctx[16][v, c], ctx[17][v], ctx[18][v, c],
           ctx[19][v, c], ctx[4], ctx[20])
    post = np.zeros(8, np.int64)
    post_type = np.zeros(8, np.int64)
    t_slot = np.zeros(4, np.int64)
    t_type = np.zeros(4, np.int64)
    desc = np.zeros(4, np.int64)
    linked_type = np.zeros(HOLD_BITS, np.int64)
    picked = np.empty(4, np.int64)
    avecs = np.empty((81, 3), np.int64)
    n = end
    for i in range(start, end):
        if st[i, 3] == NEG:  # (dominated)
            continue
        w0, w1 = st[i, 0], st[i, 1]
        field = (w0 >> FIELD_AT) & FIELD_MASK
        done = (w1 >> DONE_AT) & FIELD_MASK
        ju = (w0 >> JU_AT) & 3
        colour = colour_field(w0, w1, c)
        r = 0
        for s in range(4):
            desc[s] = (colour >> (6 * s)) & 63
            r += desc[s] > 0
        held = 0
        mine = field & colour_bits[v, c]
        while mine:
            mine &= mine - 1
            held += 1
        lo = must[c, v] - held
        q = _waiting(w0, w1, c, v, field, done, runs_at, slot_of, run_type, t_slot, t_type,
                     linked_type)
        shapes = _shapes(desc, r, avecs)
        # (the bound before this sub-step: its own tiles may still stay)
        lost = _lost(field | done, rest_before) + _joker_lost(
            _joker_places(field | done, jokers_before, rest_j_before), jokers - ju)
        for u in range(lo, lo + opt[c, v] + 1):
            if not _reaches(st[i, 3] + (u - lo) * weight[c, v], rem[v, c] + (jokers - ju) * jwpos,
                            bonus[v, before], lost, floor, scale1, scale2):
                continue
            for ug in range(min(u, 2) + 1):
                for jr in range(jokers - ju + 1):
                    n, table, bits, st = _successors(
                        table, bits, end, n, st, i, c, v, last, u, ug, jr, lo, lay, post,
                        post_type, t_slot, t_type, q, linked_type, avecs, shapes, desc, r,
                        picked)
    return n, table, bits, st


@njit(cache=True)
def _hold_layer(table, bits, start, end, st, v, starting, set_jokers, set_size, scale2,
                jokers, jw, jwpos, floor, more, bonus, rest, scale1, twin, jokers_in):
    """The layer before number v+1's colours: every subset of the sets starting there held
    out (each gains ``scale2`` and its tiles, which all stay; its jokers count as placed),
    a set with an earlier twin (``twin[slot]``) only with it; ``rest``: ``(rest, rest_j)``."""
    count = 0
    while count < HOLD_BITS and starting[v, count] >= 0:
        count += 1
    n = end
    for i in range(start, end):
        w0, sc = st[i, 0], st[i, 3]
        if sc == NEG:  # (dominated)
            continue
        field = (w0 >> FIELD_AT) & FIELD_MASK
        done = (st[i, 1] >> DONE_AT) & FIELD_MASK
        ju = (w0 >> JU_AT) & 3
        table, bits, st = room(table, bits, end, n, 1 << count, st)
        for subset in range(1 << count):
            nfield, nju, nsc = field, ju, sc
            for k in range(count):
                if subset >> k & 1:
                    nfield |= 1 << starting[v, k]
                    nju += set_jokers[v, k]
                    nsc += scale2 + set_size[v, k] + set_jokers[v, k] * jw
            if twin_alone(nfield, subset, starting[v], twin, count):
                continue
            lost = _lost(nfield | done, rest[0]) + _joker_lost(
                _joker_places(nfield | done, jokers_in, rest[1]), jokers - nju)
            if nju > jokers or not _reaches(nsc, more + (jokers - nju) * jwpos, bonus,
                                            lost, floor, scale1, scale2):
                continue
            keep = np.int64(FIELD_MASK) << FIELD_AT | np.int64(3) << JU_AT
            nw0 = (w0 & ~keep) | np.int64(nju) << JU_AT | np.int64(nfield) << FIELD_AT
            n = relax(table, bits, end, n, st, nw0, st[i, 1], st[i, 2], nsc, i, subset)
    return n, table, bits, st


@njit(cache=True)
def _final(st, start, end, must_j):
    """The best final state: no run shorter than 3 open, the table's jokers placed."""
    best, best_sc = -1, NEG
    for i in range(start, end):
        w0, w1 = st[i, 0], st[i, 1]
        ok = (w0 >> JU_AT) & 3 >= must_j
        for c in range(NCOL):
            colour = colour_field(w0, w1, c)
            for s in range(4):
                d = (colour >> (6 * s)) & 63
                if d and d & 3 < 3:
                    ok = False
        if ok and st[i, 3] > best_sc:
            best, best_sc = i, st[i, 3]
    return best


def new_pass() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A pass not started, for :func:`heirs_pass`: ``(cursor, st, table)`` (the next
    layer, the rows of the last layer, the hash table's bits; the states; the table)."""
    st = np.zeros((1024, STATE_COLUMNS), np.int64)
    st[0, 4] = -1
    return np.array([0, 0, 1, 10], np.int64), st, np.full(1 << 10, -1, np.int64)


@njit(cache=True, nogil=True)
def heirs_pass(must, opt, must_j, opt_j, weight, jw, nnum, hold, runs_at, slot_of, run_type,
               group_of, group_stays, set_size, rem, before, bonus, rest, scale1, scale2, floor,
               adopters, twin, jokers_in, rest_j, run_bits, steps, held_out, stats, dominance,
               budget, cursor, st, table):
    """The exact pass: the best arrangement whose score reaches ``floor`` (raw: the table
    jokers' gain included; the objective's ``weight`` and ``jw`` in units of ``scale1``,
    above the sets held out in units of ``scale2``, above the tiles that stay; the floor
    asks for the optimum and the most sets kept, so each part is bounded on its own).
    ``hold``: :func:`~solvers.rummikub._least.hold_tables`' (colour bits, going on, -,
    starting slots, their jokers, -);
    ``runs_at[v, c, k]``: the table runs of colour c covering number v+1 (-1 after),
    ``slot_of``: each set's hold slot, ``run_type[set, v]``: its tile there (1 real, 2
    joker); ``group_of[v, slot]``: the index of the group in that slot among the number's
    groups (-1: none); ``group_stays[v, groups in play, profile, group jokers]``: the
    released groups' most tiles staying (-1: no arrangement); ``set_size[v, k]``: the
    sizes of the starting sets; ``rem[v, c]``/``before[v]``: the rack's most gain after a
    sub-step / from a number on; ``bonus[v, c]``: what the sets starting after number v+1
    and the tiles still able to stay can add after colour c's sub-step (``bonus[v, 4]``:
    after the layer holding sets out); ``rest[v, c, slot]``: the tiles of the set in that
    slot that ``bonus[v, c]`` counts; ``adopters[v, c]``: the slots of colour c's table
    runs going on past number v+1 (-1 while one starts later: :func:`_settled`);
    ``twin[v, slot]``: the slot of an identical table set (same tiles, joker places too)
    coming earlier in the table, -1 if none (the later one is held out only with it and
    adopts only after it: :func:`_adopt`; the other choices repeat these with the two
    named the other way round); ``jokers_in[v, c]``, ``rest_j[v, c, slot]``: as ``bonus``'s
    tiles and ``rest``, the jokers only (a joker's place stays only with a joker put
    there: :func:`_joker_lost`); ``run_bits[v, c]``: the slots of colour c's table runs at
    number v+1 (:func:`~solvers.rummikub._heirs_ahead.ahead_lost`; -1 everywhere: not
    used).  Writes
    each sub-step's choice (``steps[v, c]``) and the sets held out (``held_out[v]``);
    ``stats[0]`` gains the states, ``stats[1]`` those dropped as dominated
    (``dominance``: :func:`~solvers.rummikub._heirs_prune.drop_dominated` at each close).
    Resumable: it goes on from ``cursor``, ``st``, ``table`` (:func:`new_pass`), and when
    ``budget`` > 0 it stops after the layer where the states of this call pass it.
    Returns ``(score, st, table)``: the best score less the table jokers' gain, ``NEG``
    (none reaches the floor) or ``OVER`` (stopped: call again with the arrays returned)."""
    colour_bits, going_on, starting, set_jokers = hold[0], hold[1], hold[3], hold[4]
    jokers = must_j + opt_j
    jwpos = max(0, jw)
    ctx = (weight, jw, jwpos, jokers, colour_bits, going_on, group_of, group_stays, rem,
           bonus, floor, must + opt, nnum, rest, scale1, scale2, adopters, twin, jokers_in,
           rest_j, run_bits)
    at_start = stats[0]
    layer, start, end, bits = cursor[0], cursor[1], cursor[2], cursor[3]
    while layer < nnum * (NCOL + 1):
        v, c = layer // (NCOL + 1), layer % (NCOL + 1) - 1
        if c < 0:
            n, table, bits, st = _hold_layer(table, bits, start, end, st, v, starting,
                                             set_jokers, set_size, scale2, jokers, jw, jwpos,
                                             floor, before[v], bonus[v, NCOL],
                                             (rest[v, NCOL], rest_j[v, NCOL]), scale1, twin[v],
                                             jokers_in[v, NCOL])
        else:
            n, table, bits, st = _colour_layer(table, bits, start, end, st, c, v, ctx, must,
                                               opt, colour_bits, runs_at, slot_of, run_type)
            stats[0] += n - end
            if stats.shape[0] > 2 + NCOL * v + c:  # (a trace: each layer's states)
                stats[2 + NCOL * v + c] = n - end
        start, end = end, n
        layer += 1
        if start == end:
            return NEG, st, table
        if c == NCOL - 1 and dominance and end - start > 1:
            stats[1] += drop_dominated(table, bits, start, end, st,
                                       np.zeros(end - start, np.bool_))
        if 0 < budget < stats[0] - at_start and layer < nnum * (NCOL + 1):
            cursor[0], cursor[1], cursor[2], cursor[3] = layer, start, end, bits
            return OVER, st, table
    best = _final(st, start, end, must_j)
    if best < 0:
        return NEG, st, table
    idx = best
    for v in range(nnum - 1, -1, -1):
        for c in range(NCOL - 1, -1, -1):
            steps[v, c] = st[idx, 5]
            idx = st[idx, 4]
        held_out[v] = st[idx, 5]
        idx = st[idx, 4]
    return st[best, 3] - must_j * jw, st, table
