"""The wide DP's sub-steps: one colour of a number, and the number's last colour with its
group jokers and its close (the widest layer is never stored).

Key word B (word A: the colour codes, :mod:`solvers.rummikub.wide._pass`): jokers placed
(bits 0-2); inside a number the jokers that the short runs of the colours done so far will
need at the next two numbers (``need``, bits 3-4) and the group profile (bits 5-10: the real
tiles given to the number's groups, capped where every larger count is feasible, and
whether a colour gave two); the initial-meld value (bits 11-17) and the held-out slots
(bits 18-63).

Every prune is exact: a state dropped has no completion that the final state accepts (or,
with a ``floor``, none that reaches it).  A colour's short runs (length 1 or 2) must
continue at the next number, and a run opened here at the one after, each on a real tile
or a joker: more of them than the tiles and the jokers left kill the state, and the jokers
they need beyond the tiles are summed over the colours (``need``).  Runs of 3+ beyond what
the next number can extend end now (their state is the same as the shorter list's).

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
def hold_layer(rows, n, v, jokers, joker_weight, hold_gain, hold):
    """The held-out choice of the table sets starting at number v+1 (a subset each state);
    a held set's jokers count as placed (and gain as placed jokers do, as they would when
    the DP placed them)."""
    starts, start_sets, set_slot, set_jokers = hold[0], hold[1], hold[2], hold[3]
    first, m = starts[v], starts[v + 1] - starts[v]
    out, table = new_layer(max(16, n * (1 << m)))
    size = 0
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        for subset in range(1 << m):
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
            size = offer(out, table, size, a, (b & ~np.int64(7)) + ju | mask,
                         score + count * hold_gain + add_j * joker_weight, i, subset)
    return out, size



@njit(cache=True)
def sub_step(rows, n, v, c, step, must, opt, weight, joker_weight, jokers, target,
             joker_meld, hold, near, reach, ok, cap, bound, floor, cb, shift, closed, needc):
    """Colour c at number v+1, the ``step``-th of the number (``reach[step]``: the group
    profiles that its later colours can still make feasible): real tiles to runs and
    groups, jokers to runs (only where ``near``).  The number's last colour also chooses
    the jokers joining its groups (their feasibility ``ok``) and closes the number: every
    colour's runs checked against the jokers left, the held-out slots of the sets ending
    here freed.  ``bound``: the most the rest of the position can still add (with the
    jokers not yet placed), ``floor``: the score to reach.  Colour codes of ``cb`` bits,
    moved by ``shift`` and checked by ``closed``/``needc`` (:mod:`solvers.rummikub.wide.
    _codes`).  Returns the layer, its hash table and its size."""
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
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        code = (a >> at) & cmask
        ju = b & 7
        need0 = (b >> NEED_AT) & 7
        real_g, most = (b >> GROUP_AT) & 63, (b >> MOST_AT) & 7
        meld = (b >> MELD_AT) & 127
        held = b >> HOLD_AT
        lo = must[c, v] - held_tiles(held, v, c, colours, cells, cell_slot, cell_count)
        other[:] = a & ~(cmask << at)
        group_jokers = 0
        if last:
            need0 = _close_others(a, c, cb, closed, needc, other)
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
                        if (not ok[ng, nmost, jg] or other[left] < 0) if last else (
                                not reach[step, ng, nmost, left]):
                            continue
                        ncode = closed[c, fresh, left]
                        if ncode < 0 or need0 + needc[c, fresh] > left:
                            continue
                        nb = ju + j + jg | held << HOLD_AT
                        if not last:
                            nb |= (need0 + needc[c, fresh]) << NEED_AT | ng << GROUP_AT | (
                                nmost << MOST_AT)
                        if target >= 0:
                            nb |= min(target, meld + (k + (j + jg) * joker_meld) * (v + 1)
                                      ) << MELD_AT
                        size = offer(out, table, size, other[left] | ncode << at, nb,
                                     gain + (j + jg) * joker_weight, i,
                                     k | g << 3 | j << 6 | (moved >> 16) << 9 | jg << 13)
    return out, table, size


@njit(cache=True, inline="always")
def _close_others(a, c, cb, closed, needc, other):
    """The colour codes of ``a`` other than c's once the number closes with ``k`` jokers
    left, for every k (``other[k]``, -1 if some short run cannot be completed; runs of L+
    beyond the next number's tiles end), and the jokers their short runs need."""
    colours = closed.shape[0]
    cmask = (np.int64(1) << cb) - 1
    need = 0
    for k in range(other.shape[0]):
        other[k] = 0
    for cc in range(colours):
        if cc == c:
            continue
        code = (a >> (cb * cc)) & cmask
        need += needc[cc, code]
        for k in range(other.shape[0]):
            if other[k] >= 0:
                nc = closed[cc, code, k]
                other[k] = -1 if nc < 0 else other[k] | nc << (cb * cc)
    return need
