"""The wide DP's sub-steps: one colour of a number, and the number's last colour with its
group jokers and its close (the widest layer is never stored).

Key word B (word A: the colour codes, :mod:`solvers.rummikub.wide._pass`): jokers placed
(bits 0-2); inside a number the jokers that the short runs of the colours done so far will
need at the next numbers (``need``, bits 3-5) and the group profile (bits 6-11: the real
tiles given to the number's groups, capped where every larger count is feasible; bits
12-14: the most one colour gave); the initial-meld value (bits 15-21), the held-out slots
(bits 22-57) and, with as many jokers as the set length, the run of jokers alone (bits
58-63, :func:`bare_step`: its colour and length, up to four).

Every prune is exact: a state dropped has no completion that the final state accepts (or,
with a ``floor``, none that reaches it).  A colour's short runs (length 1 .. L-1) must
continue at the next numbers, each on a real tile or a joker: more of them than the tiles
and the jokers left kill the state, and the jokers they need beyond the tiles are summed
over the colours (``need``).  Runs of L+ beyond what the next number can extend end now
(their state is the same as the shorter list's).

``hold``, the held-out table sets (least disturbance; no set: empty arrays, ``starts``
zeros): ``starts`` (N+1 offsets into ``start_sets``, the sets starting at each number),
``start_sets``, ``set_slot``, ``set_jokers``, ``end_mask`` (per number, the slots of the sets
ending there) and per cell ``(v, c)`` the held tiles (``cells``: offsets into ``cell_slot``
and ``cell_count``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._store import KEY_A, KEY_B, SCORE, new_layer, offer, room

NEED_AT = 3
GROUP_AT = 6
MOST_AT = 12
MELD_AT = 15
HOLD_AT = 22
HOLD_MASK = (1 << 36) - 1
BARE_AT = 58
# (``colour << 3 | length``: eight colours, a length up to four jokers; 6 bits, the last
# the key's sign bit, which nothing reads as a sign: the hash takes the bits unsigned)
BARE_MASK = np.int64(63)


@njit(cache=True, inline="always")
def held_tiles(hold, v, c, colours, cells, cell_slot, cell_count):
    """Tiles of cell (c, v+1) in the held-out sets of slot mask ``hold``."""
    out = 0
    at = v * colours + c
    for e in range(cells[at], cells[at + 1]):
        if hold >> cell_slot[e] & 1:
            out += cell_count[e]
    return out


@njit(cache=True)
def hold_layer(rows, n, v, jokers, joker_weight, hold_gain, hold, floor, ahead, later,
               choose):
    """The held-out choice of the table sets starting at number v+1 that ``choose`` names
    (bits from the first; a subset each state); a held set's jokers count as placed (and
    gain as placed jokers do, as they would when the DP placed them).  A state is kept only
    if its score, ``ahead`` (the most the rack tiles still to come add), the jokers left and
    ``later`` sets kept may reach ``floor``."""
    starts, start_sets, set_slot, set_jokers = hold[0], hold[1], hold[2], hold[3]
    first, m = starts[v], starts[v + 1] - starts[v]
    choices = 1
    for t in range(m):
        if choose >> t & 1:
            choices *= 2
    out, table = new_layer(max(16, n * choices))
    size = 0
    jw_pos = max(0, joker_weight)
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        subset = choose  # (then its subsets, ascending from none)
        for _ in range(choices):
            subset = (subset - choose) & choose
            add_j, mask, count = 0, np.int64(0), 0
            for t in range(m):
                if subset >> t & 1:
                    s = start_sets[first + t]
                    add_j += set_jokers[s]
                    mask |= np.int64(1) << (HOLD_AT + set_slot[s])
                    count += 1
            ju = (b & 7) + add_j
            if ju > jokers:
                continue
            nscore = score + count * hold_gain + add_j * joker_weight
            if nscore + ahead + (jokers - ju) * jw_pos + later * hold_gain < floor:
                continue
            nb = (b & ~np.int64(7)) + ju | mask
            if add_j > 0:  # (a run of jokers alone can no longer hold them all)
                nb &= ~(BARE_MASK << BARE_AT)
            size = offer(out, table, size, a, nb, nscore, i, subset)
    return out, size



@njit(cache=True)
def sub_step(rows, n, v, c, step, must, opt, weight, joker_weight, jokers, target,
             joker_meld, hold, near, reach, ok, cap, bound, floor, cb, shift, closed, needc,
             bare_on):
    """Colour c at number v+1, the ``step``-th of the number (``reach[step]``: the group
    profiles that its later colours can still make feasible): real tiles to runs and
    groups, jokers to runs (only where ``near``).  The number's last colour also chooses
    the jokers joining its groups (their feasibility ``ok``) and closes the number: every
    colour's runs checked against the jokers left, the held-out slots of the sets ending
    here freed.  ``bound``: the most the rest of the position can still add (with the
    jokers not yet placed), ``floor``: the score to reach.  Colour codes of ``cb`` bits,
    moved by ``shift`` and checked by ``closed``/``needc`` (:mod:`solvers.rummikub.wide.
    _codes`); ``bare_on``: track the run of jokers alone (:func:`bare_step`).  Returns the
    layer, its hash table and its size."""
    colours = must.shape[0]
    copies = shift.shape[1] - 1 - jokers
    end_mask, cells, cell_slot, cell_count = hold[4], hold[5], hold[6], hold[7]
    last = step == colours - 1
    out, table = new_layer(max(16, 4 * n))
    size = 0
    at = cb * c
    cmask = (np.int64(1) << cb) - 1
    jw_pos = max(0, joker_weight)
    other = np.zeros(jokers + 1, np.int64)
    closes = np.ones(jokers + 1, np.bool_)
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        code = (a >> at) & cmask
        ju = b & 7
        need0 = (b >> NEED_AT) & 7
        real_g, most = (b >> GROUP_AT) & 63, (b >> MOST_AT) & 7
        meld = (b >> MELD_AT) & 127
        held = (b >> HOLD_AT) & HOLD_MASK
        bare = (b >> BARE_AT) & BARE_MASK
        lo = must[c, v] - held_tiles(held, v, c, colours, cells, cell_slot, cell_count)
        other[:] = a & ~(cmask << at)
        group_jokers = 0
        if last:
            need0 = _close_others(a, c, cb, closed, needc, other, closes)
            held &= ~end_mask[v]
            group_jokers = jokers
        spare = jokers - ju if near[c, v] else 0
        out, table = room(out, table, size,
                          (opt[c, v] + 1) * (copies + 1) * (spare + 1) * (group_jokers + 1))
        for k in range(lo, lo + opt[c, v] + 1):
            gain = score + (k - lo) * weight[c, v]
            if gain + bound + (jokers - ju) * jw_pos < floor:
                continue
            for g in range(min(k, copies) + 1):
                ng = min(cap, real_g + g)
                nmost = max(most, g)
                for j in range(spare + 1):
                    moved = shift[code, k - g + j]
                    if moved < 0:
                        continue
                    fresh = moved & 0xFFFF
                    for jg in range(min(group_jokers, jokers - ju - j) + 1):
                        left = jokers - ju - j - jg
                        if (not ok[ng, nmost, jg] or not closes[left]) if last else (
                                not reach[step, ng, nmost, left]):
                            continue
                        # (int64: without the JIT an int32 shifted past bit 31 loses it)
                        ncode = np.int64(closed[c, fresh, left])
                        if ncode < 0 or need0 + needc[c, fresh] > left:
                            continue
                        nb = ju + j + jg | held << HOLD_AT
                        if bare_on:
                            nbare = bare_step(bare, c, ju, k - g, j, jg, (moved >> 20) & 15,
                                              (moved >> 16) & 15, jokers)
                            if nbare < 0:
                                continue
                            nb |= nbare << BARE_AT
                        if not last:
                            nb |= (need0 + needc[c, fresh]) << NEED_AT | ng << GROUP_AT | (
                                nmost << MOST_AT)
                        if target >= 0:
                            nb |= min(target, meld + (k + (j + jg) * joker_meld) * (v + 1)
                                      ) << MELD_AT
                        size = offer(out, table, size, other[left] | ncode << at, nb,
                                     gain + (j + jg) * joker_weight, i,
                                     k | g << 3 | j << 6 | ((moved >> 16) & 15) << 9 | jg << 13)
    return out, table, size


@njit(cache=True, inline="always")
def _close_others(a, c, cb, closed, needc, other, closes):
    """The colour codes of ``a`` other than c's once the number closes with ``k`` jokers
    left, for every k (``other[k]``; ``closes[k]`` false if some short run cannot be
    completed: no sentinel, eight colours of 8-bit codes use the key's sign bit; runs of L+
    beyond the next number's tiles end), and the jokers their short runs need."""
    colours = closed.shape[0]
    cmask = (np.int64(1) << cb) - 1
    need = 0
    for k in range(other.shape[0]):
        other[k] = 0
        closes[k] = True
    for cc in range(colours):
        if cc == c:
            continue
        code = (a >> (cb * cc)) & cmask
        need += needc[cc, code]
        for k in range(other.shape[0]):
            if closes[k]:
                nc = np.int64(closed[cc, code, k])  # (int64: as in sub_step)
                closes[k] = nc >= 0
                other[k] |= nc << (cb * cc) if nc >= 0 else 0
    return need


@njit(cache=True, inline="always")
def bare_step(bare, c, ju, ur, jr, jg, new, cont, jokers):
    """With as many jokers as the set length L: the key's run of jokers alone after colour
    ``c``'s step (``ur`` real tiles and ``jr`` jokers to its runs, ``jg`` jokers to groups,
    ``new`` runs opened, ``cont`` long runs continued; ``ju`` jokers placed before), or -1
    if it would end as a set of jokers alone.

    Only a run holding every joker can be such a set, so ``bare`` (0: none) is the one
    candidate, ``colour << 3 | length``: the run of jokers alone holding every joker placed
    so far.  Real tiles go first to it, then to the runs opened, then to the others (a swap
    of a real tile and a joker between such runs keeps both valid; the replay,
    :func:`engines.rummikub.wide.arrange_choice`, gives real tiles to runs of jokers alone
    first), so it opens only when no joker was placed before and one opened run more than
    real tiles takes this colour's only joker; it takes the next joker only when its colour
    places no real tile; it is forgotten once a joker goes elsewhere or it takes a real
    tile.  At length L it holds every joker and must continue, with a real tile."""
    if bare == 0:
        if ju == 0 and jr == 1 and jg == 0 and new - ur == 1:
            return np.int64(c << 3 | 1)
        return np.int64(0)
    if bare >> 3 == c:
        if bare & 7 == jokers:
            return np.int64(0) if cont > 0 else np.int64(-1)
        if ur > 0 or jr != 1 or jg > 0:
            return np.int64(0)
        return np.int64(bare + 1)
    return np.int64(bare) if jr == 0 and jg == 0 else np.int64(0)
