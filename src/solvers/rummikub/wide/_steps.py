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

MELD_AT = 11
HOLD_AT = 18
NEED_AT = 3
GROUP_AT = 5


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


@njit(cache=True, inline="always")
def _run_step(a1, a2, a3, t, jl, rn1, rn2, v, numbers):
    """``t`` run tiles of one colour at number v+1 (short runs first, then runs of 3+, the
    rest open runs), ``jl`` jokers left, ``rn1``/``rn2`` the colour's tiles at the next two
    numbers: ``(fresh, long runs kept, jokers needed later, e3)``; ``fresh`` -1 when the
    runs cannot all be completed."""
    if t < a1 + a2:
        return -1, 0, 0, 0
    e3 = min(a3, t - a1 - a2)
    fresh = t - a1 - a2 - e3
    avail = jl + rn1 if v + 1 < numbers else 0
    if fresh + a1 > avail:
        return -1, 0, 0, 0
    if fresh > 0 and (v + 2 >= numbers or fresh > rn2 + jl):
        return -1, 0, 0, 0
    need = max(0, fresh + a1 - rn1) + max(0, fresh - rn2)
    return fresh, min(a2 + e3, avail - fresh - a1), need, e3


@njit(cache=True)
def sub_step(rows, n, v, c, step, must, opt, real, weight, joker_weight, jokers, target,
             joker_meld, hold, near, reach, ok, cap, bound, floor):
    """Colour c at number v+1, the ``step``-th of the number (``reach[step]``: the group
    profiles that its later colours can still make feasible): real tiles to runs and
    groups, jokers to runs (only where ``near``).  The number's last colour also chooses
    the jokers joining its groups (their feasibility ``ok``) and closes the number: every
    colour's runs checked against the jokers left, the held-out slots of the sets ending
    here freed.  ``bound``: the most the rest of the position can still add (with the
    jokers not yet placed), ``floor``: the score to reach.  Returns the layer, its hash
    table and its size."""
    colours, numbers = must.shape
    end_mask, cells, cell_slot, cell_count = hold[4], hold[5], hold[6], hold[7]
    last = step == colours - 1
    out, table = new_layer(max(16, 4 * n))
    size = 0
    shift = 7 * c
    rn1 = real[c, v + 1] if v + 1 < numbers else 0
    rn2 = real[c, v + 2] if v + 2 < numbers else 0
    jw_pos = max(0, joker_weight)
    other = np.zeros(jokers + 1, np.int64)
    for i in range(n):
        a, b, score = rows[i, KEY_A], rows[i, KEY_B], rows[i, SCORE]
        code = (a >> shift) & 127
        a1, a2, a3 = code % 5, (code // 5) % 5, code // 25
        ju = b & 7
        need0 = (b >> NEED_AT) & 3
        real_g, two = (b >> GROUP_AT) & 31, (b >> (GROUP_AT + 5)) & 1
        meld = (b >> MELD_AT) & 127
        held = b >> HOLD_AT
        lo = must[c, v] - held_tiles(held, v, c, colours, cells, cell_slot, cell_count)
        other[:] = a & ~(np.int64(127) << shift)
        group_jokers = 0
        if last:
            need0 = _close_others(a, c, colours, v, numbers, real, jokers, other)
            held &= ~end_mask[v]
            group_jokers = jokers
        spare = jokers - ju if near[c, v] else 0
        out, table = room(out, table, size,
                          (opt[c, v] + 1) * 3 * (spare + 1) * (group_jokers + 1))
        for k in range(lo, lo + opt[c, v] + 1):
            gain = score + (k - lo) * weight[c, v]
            if gain + bound + (jokers - ju) * jw_pos < floor:
                continue
            for g in range(min(k, 2) + 1):
                ng = min(cap, real_g + g)
                ntwo = two | (1 if g == 2 else 0)
                for j in range(spare + 1):
                    for jg in range(min(group_jokers, jokers - ju - j) + 1):
                        left = jokers - ju - j - jg
                        if (not ok[ng, ntwo, jg] or other[left] < 0) if last else (
                                not reach[step, ng, ntwo, left]):
                            continue
                        fresh, long_kept, need, e3 = _run_step(a1, a2, a3, k - g + j, left,
                                                               rn1, rn2, v, numbers)
                        if fresh < 0 or need0 + need > left:
                            continue
                        nb = ju + j + jg | held << HOLD_AT
                        if not last:
                            nb |= (need0 + need) << NEED_AT | (ng | ntwo << 5) << GROUP_AT
                        if target >= 0:
                            nb |= min(target, meld + (k + (j + jg) * joker_meld) * (v + 1)
                                      ) << MELD_AT
                        na = other[left] | np.int64(fresh + 5 * a1 + 25 * long_kept) << shift
                        size = offer(out, table, size, na, nb,
                                     gain + (j + jg) * joker_weight, i,
                                     k | g << 3 | j << 5 | e3 << 8 | jg << 11)
    return out, table, size


@njit(cache=True, inline="always")
def _close_others(a, c, colours, v, numbers, real, jokers, other):
    """The colour codes of ``a`` other than c's once the number closes with ``k`` jokers
    left, for every k (``other[k]``, -1 if some short run cannot be completed; runs of 3+
    beyond the next number's tiles end), and the jokers their short runs need."""
    need = 0
    for cc in range(colours):
        if cc == c:
            continue
        code = (a >> (7 * cc)) & 127
        a1, a2 = code % 5, (code // 5) % 5
        rn1 = real[cc, v + 1] if v + 1 < numbers else 0
        rn2 = real[cc, v + 2] if v + 2 < numbers else 0
        need += max(0, a1 + a2 - rn1) + max(0, a1 - rn2)
    for k in range(jokers + 1):
        rest = np.int64(0)
        for cc in range(colours):
            if cc == c:
                continue
            code = (a >> (7 * cc)) & 127
            a1, a2, a3 = code % 5, (code // 5) % 5, code // 25
            avail = real[cc, v + 1] + k if v + 1 < numbers else 0
            if a1 + a2 > avail:
                rest = -1
                break
            rest |= np.int64(a1 + 5 * a2 + 25 * min(a3, avail - a1 - a2)) << (7 * cc)
        other[k] = rest
    return need


