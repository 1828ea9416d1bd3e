"""The exact best-move dynamic programme over the numbers 1..13 (Numba kernels).

Design (after van Rijn, Takes & Vis 2015, extended to jokers and the initial
meld): the state between number v-1 and v records, per colour, how many open
runs end at v-1 with length 1, 2 and >= 3 (``a1, a2, a3``; up to four runs per
colour with jokers), the jokers placed so far (``ju``) and, in initial-meld mode,
the meld value so far capped at 30.  Each number is processed colour by colour,
fewest choices first (sub-steps that also carry how many colours gave one or two
tiles to groups, ``n1``/``n2``); the last colour's sub-step also chooses the
jokers joining groups, checks group feasibility and closes the number (short
runs that cannot continue kill the state, long runs that cannot be extended
end).  Every sub-step is a layer of states in a flat buffer with one parent
pointer and one choice per state, so the optimal arrangement is replayed
afterwards; closed layers drop states that a neighbour dominates (see
:func:`_drop_dominated`).

State key bits: colour c's ``a1 + 5*a2 + 25*a3`` at ``7*c`` (28 bits), ``ju`` at
28, ``n1`` at 30, ``n2`` at 33, meld value at 36, and inside a number the jokers
that the short runs of the colours done so far will need at number+1, at 42.

Inputs are clean integer arrays (the engine validates text):

- ``must[c, v-1]``: tiles of colour c and number v that must be placed (table tiles);
- ``opt[c, v-1]``: tiles that may be placed (rack tiles); ``must + opt <= 2``;
- ``must_j``/``opt_j``: jokers that must / may be placed;
- ``weight[c, v-1]``: gain per optional tile placed; ``joker_weight``: gain per joker
  beyond ``must_j`` placed;
- ``meld``: 1 in initial-meld mode (everything placed must be worth >= 30).

Outputs: status (1 solved, 0 no feasible arrangement), the best score (sum of the
gains), and the
choice per colour and number ``choice[c, v-1] = (real run tiles, real group
tiles, run jokers)`` plus ``group_jokers[v-1]``.

The exact answer comes from up to four passes of the same DP that prune with a target
score (:func:`_solve_exact`); :func:`meld_codes` replays a choice into sets packed as
integers, and :func:`solve_position` does checks, counts, search and replay of one
position in one call (the engine's ``best_move``).  Everything compiled sits in this one
module because Numba's cache is per file: a cached function does not notice when a
function it calls in another file changes.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.rummikub._groups import GROUP_OK, PART_COUNT, PART_MASKS

NCOL = 4
NNUM = 13
MELD_TARGET = 30
_HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed int64
_EMPTY = np.int64(-1)
_NEG = np.int64(-(2**62))
_NO_BEAM = np.int64(0)
# States per layer kept by the heuristic beam pass (50..1000 measured alike on the slow
# corpus positions; small enough that the pass costs little next to the exact one).  The
# search for an arrangement that reaches the whole-rack target keeps BEAM // 4 = 32
# (16..64 measured alike on the bench bands and the corpus).
BEAM = 128


@njit(cache=True, inline="always")
def _colour(key, c):
    return (key >> (7 * c)) & 127


@njit(cache=True)
def _grow(keys, score, parent, choice, cap):
    """The state arrays copied into arrays of ``cap`` entries."""
    n = keys.shape[0]
    k2 = np.empty(cap, np.int64)
    s2 = np.empty(cap, np.int64)
    p2 = np.empty(cap, np.int64)
    c2 = np.empty(cap, np.int8)
    k2[:n] = keys
    s2[:n] = score
    p2[:n] = parent
    c2[:n] = choice
    return k2, s2, p2, c2


@njit(cache=True)
def _rehash(keys, lo, hi, bits):
    """A table of ``1 << bits`` slots holding the states ``lo..hi-1`` (slot: key, index)."""
    table = np.full((1 << bits, 2), -1, np.int64)
    mask = (1 << bits) - 1
    shift = 64 - bits
    for i in range(lo, hi):
        h = ((keys[i] * _HASH_MUL) >> shift) & mask
        while table[h, 1] >= lo:
            h = (h + 1) & mask
        table[h, 0] = keys[i]
        table[h, 1] = i
    return table


@njit(cache=True, inline="always")
def _relax(table, bits, lo, n, keys, score, parent, choice, nkey, nsc, par, ch):
    """Insert or improve state ``nkey`` of the layer starting at ``lo``; returns the new count.

    A slot is free when its index is older than the layer (indices only grow), so the
    table never needs clearing between layers.
    """
    mask = (1 << bits) - 1
    h = ((nkey * _HASH_MUL) >> (64 - bits)) & mask
    while True:
        j = table[h, 1]
        if j < lo:
            table[h, 0] = nkey
            table[h, 1] = n
            keys[n] = nkey
            score[n] = nsc
            parent[n] = par
            choice[n] = ch
            return n + 1
        if table[h, 0] == nkey:
            if nsc > score[j]:
                score[j] = nsc
                parent[j] = par
                choice[j] = ch
            return n
        h = (h + 1) & mask


@njit(cache=True, inline="always")
def _lookup(table, bits, lo, key):
    """Index of state ``key`` in the layer starting at ``lo``, or -1."""
    mask = (1 << bits) - 1
    h = ((key * _HASH_MUL) >> (64 - bits)) & mask
    while True:
        j = table[h, 1]
        if j < lo:
            return -1
        if table[h, 0] == key:
            return j
        h = (h + 1) & mask


@njit(cache=True)
def _drop_dominated(table, bits, lo, hi, keys, score):
    """Mark (``keys[i] = -1``) the states of a closed layer that another state dominates.

    In one colour, a run of length 1 that is one of length 2 or >= 3 instead, a run of
    length 2 that is one of length >= 3 instead, or one more run of length >= 3, never
    loses an option (longer runs need fewer tiles; a long run may end anywhere), so a
    state with such a neighbour of at least its score cannot be better.  The order is strict, so
    every dropped state keeps a live dominator.
    """
    for i in range(lo, hi):
        key = keys[i]
        sc = score[i]
        for c in range(NCOL):
            code = _colour(key, c)
            a1 = code % 5
            a2 = (code // 5) % 5
            a3 = code // 25
            base = key & ~(np.int64(127) << (7 * c))
            j = -1
            if a1 + a2 + a3 < 4:
                j = _lookup(table, bits, lo, base | (np.int64(a1 + 5 * a2 + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a1 > 0:
                j = _lookup(table, bits, lo, base | (np.int64(a1 - 1 + 5 * (a2 + 1) + 25 * a3)
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a2 > 0:
                j = _lookup(table, bits, lo, base | (np.int64(a1 + 5 * (a2 - 1) + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            if a1 > 0:
                j = _lookup(table, bits, lo, base | (np.int64(a1 - 1 + 5 * a2 + 25 * (a3 + 1))
                                                     << (7 * c)))
                if j >= 0 and score[j] >= sc:
                    break
            j = -1
        if j >= 0:
            keys[i] = -1


@njit(cache=True)
def _keep_flexible(keys, start, end, width):
    """Keep the ``width`` states of a layer with the fewest obligations (drop the rest).

    Obligations: open runs of length 1 (weight 2) and 2 (weight 1), which must continue,
    the jokers that short runs will need, and, last, the jokers already placed.  Used by
    the search for *any* arrangement reaching a target score, where every surviving state
    has the same score so far; equal states keep their order (stable sort).
    """
    pri = np.empty(end - start, np.int64)
    for i in range(start, end):
        key = keys[i]
        h = np.int64(1) << 40  # dropped already
        if key >= 0:
            h = 2 * ((key >> 42) & 3)
            for c in range(NCOL):
                code = _colour(key, c)
                h += 2 * (code % 5) + (code // 5) % 5
            h = 4 * h + ((key >> 28) & 3)
        pri[i - start] = h
    idx = np.argsort(pri, kind="mergesort")
    for r in range(width, end - start):
        keys[start + idx[r]] = -1


@njit(cache=True, error_model="numpy")
def _solve_one(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    floor, beam,
):
    """Solve one position: fills ``choice_out[4, 13, 3]``, ``gj_out[13]``, ``stats[2]``.

    Returns ``(status, score, truncated)``; ``stats`` receives (states visited, widest layer).

    ``floor`` (a raw score, table jokers' gain included): transitions whose score plus
    everything the rest of the rack could still add stays below it are not stored; the
    optimum survives whenever it reaches ``floor``.  ``beam > 0`` keeps only the
    ``beam`` best-scored states of each layer (a heuristic pass: its answer is a legal
    arrangement, optimal when ``truncated`` is 0); ``beam < 0`` keeps the ``-beam`` states
    with the fewest obligations (:func:`_keep_flexible`), a quick search for an arrangement
    that reaches ``floor``.
    """
    jokers = must_j + opt_j
    # any_ok[n1, n2, j]: the complete profile forms groups with at most j jokers.
    any_ok = np.zeros((5, 5, 3), np.bool_)
    for n1 in range(5):
        for n2 in range(5 - n1):
            for j in range(3):
                for jg in range(j + 1):
                    if group_ok[n1, n2, jg]:
                        any_ok[n1, n2, j] = True
    cap = 1024
    keys = np.empty(cap, np.int64)
    score = np.empty(cap, np.int64)
    parent = np.empty(cap, np.int64)
    choice = np.empty(cap, np.int8)
    # (np.int64, not literals: integer literals would make Numba compile the helpers
    # once more for each constant they are first called with)
    bits = np.int64(10)
    table = np.full((1 << bits, 2), -1, np.int64)
    keys[0] = 0
    score[0] = 0
    parent[0] = -1
    choice[0] = 0
    start = np.int64(0)
    end = np.int64(1)
    layer = 0
    capc = np.full((NCOL, 125, 3), -1, np.int64)
    needc = np.zeros((NCOL, 125), np.int64)
    other = np.zeros(3, np.int64)
    other_need = 0
    order = np.zeros((NNUM, NCOL), np.int64)
    for v in range(NNUM):
        # Colours with fewer choices first: intermediate layers stay small and the
        # widest branching goes straight into the (merged) boundary layer.
        fan = np.empty(NCOL, np.int64)
        for c in range(NCOL):
            lo = must[c, v]
            hi = lo + opt[c, v]
            fan[c] = ((hi + 1) * (hi + 2) - lo * (lo + 1)) * 4 + c
        order[v] = np.argsort(fan)
    # rem[v, step]: the most that the rack tiles after sub-step (v, step) can still add;
    # with the jokers still unplaced it bounds every completion of a state.
    rem = np.zeros((NNUM, NCOL), np.int64)
    acc = np.int64(0)
    for v in range(NNUM - 1, -1, -1):
        for step in range(NCOL - 1, -1, -1):
            rem[v, step] = acc
            c = order[v, step]
            acc += opt[c, v] * max(0, weight[c, v])
    jw_pos = max(0, joker_weight)
    truncated = 0
    for v in range(NNUM):
        number = v + 1
        for step in range(NCOL):
            if end == start:
                return 0, _NEG, truncated
            layer += 1
            n = end
            c = order[v, step]
            last = step == NCOL - 1
            lo = must[c, v]
            hi = lo + opt[c, v]
            real_next = must[c, v + 1] + opt[c, v + 1] if v + 1 < NNUM else 0
            real_next2 = must[c, v + 2] + opt[c, v + 2] if v + 2 < NNUM else 0
            # what the last colour can still give to groups (pruning one step earlier)
            cl = order[v, NCOL - 1]
            last_max = min(2, must[cl, v] + opt[cl, v])
            if last:
                # Closing the number: capc[cc, code, k] is colour cc's code once runs of
                # length 1-2 are checked (-1: they cannot continue at number+1 with k jokers
                # left) and runs of length >= 3 beyond what number+1 can extend end;
                # needc[cc, code] counts the jokers its pending runs need.
                for cc in range(NCOL):
                    real = 0
                    if v + 1 < NNUM:
                        real = must[cc, v + 1] + opt[cc, v + 1]
                    real2 = 0
                    if v + 2 < NNUM:
                        real2 = must[cc, v + 2] + opt[cc, v + 2]
                    for b1 in range(5):
                        for b2 in range(5 - b1):
                            for b3 in range(5 - b1 - b2):
                                cd = b1 + 5 * b2 + 25 * b3
                                # runs of length 1 need tiles at number+1 and number+2
                                needc[cc, cd] = max(0, b1 + b2 - real) + max(0, b1 - real2)
                                for k in range(jokers + 1):
                                    av = real + k
                                    av2 = real2 + k
                                    if v + 1 == NNUM:
                                        av = 0
                                    if v + 2 >= NNUM:
                                        av2 = 0
                                    if b1 + b2 > av or b1 > av2:
                                        capc[cc, cd, k] = -1
                                    else:
                                        capc[cc, cd, k] = b1 + 5 * b2 + 25 * min(b3,
                                                                                 av - b1 - b2)
            # The most states one parent can add: room in the arrays and the hash table is
            # made per parent, which keeps the checks (and the arrays that a growth replaces)
            # out of the innermost loops (about 10% faster).
            fanout = (hi - lo + 1) * 3 * (jokers + 1) * (jokers + 1 if last else 1)
            for i in range(start, end):
                key = keys[i]
                if key < 0:  # dominated
                    continue
                if n + fanout > keys.shape[0]:
                    keys, score, parent, choice = _grow(keys, score, parent, choice,
                                                        2 * (n + fanout))
                while 2 * (n - end + fanout) > (1 << bits):
                    bits += 1
                    table = _rehash(keys, end, n, bits)
                sc = score[i]
                ju = (key >> 28) & 3
                mv = (key >> 36) & 63
                if last:
                    # the three colours already processed, closed for each joker count left
                    other_need = 0
                    for cc in range(NCOL):
                        if cc != c:
                            other_need += needc[cc, _colour(key, cc)]
                    for k in range(jokers + 1):
                        rest = np.int64(0)
                        for cc in range(NCOL):
                            if cc == c:
                                continue
                            cl = capc[cc, _colour(key, cc), k]
                            if cl < 0:
                                rest = -1
                                break
                            rest |= np.int64(cl) << (7 * cc)
                        other[k] = rest
                    alive = False
                    for k in range(jokers + 1):
                        if other[k] >= 0:
                            alive = True
                    if not alive:  # another colour's short runs cannot continue
                        continue
                need0 = (key >> 42) & 3
                code = _colour(key, c)
                a1 = code % 5
                a2 = (code // 5) % 5
                a3 = code // 25
                n1 = (key >> 30) & 7
                n2 = (key >> 33) & 7
                base = key & ~(np.int64(127) << (7 * c))
                base &= np.int64((1 << 28) - 1)  # keep the colour codes only
                for u in range(lo, hi + 1):
                    gain_u = sc + (u - lo) * weight[c, v]
                    # Bound: this number's choice, all later rack tiles and every joker left
                    # (jokers placed now move from the last term to the first).
                    if gain_u + rem[v, step] + (jokers - ju) * jw_pos < floor:
                        continue
                    for ug in range(u + 1):
                        ur = u - ug
                        m1 = n1 + (1 if ug == 1 else 0)
                        m2 = n2 + (1 if ug == 2 else 0)
                        for jr in range(jokers - ju + 1):
                            jl = jokers - ju - jr
                            # Drop profiles whose groups can no longer be completed.
                            if last:
                                if not any_ok[m1, m2, jl]:
                                    continue
                            elif step == NCOL - 2 and not (
                                any_ok[m1, m2, jl]
                                or (last_max >= 1 and any_ok[m1 + 1, m2, jl])
                                or (last_max >= 2 and any_ok[m1, m2 + 1, jl])
                            ):
                                continue
                            t = ur + jr
                            if t < a1 + a2:
                                continue
                            k3 = min(a3, t - a1 - a2)
                            new = t - a1 - a2 - k3
                            # Early cap/prune with the jokers still free now (repeated below
                            # once the jokers of this number are known).
                            avail = jl + real_next
                            if v + 1 == NNUM:
                                avail = 0
                            if new + a1 > avail:
                                continue
                            # Short runs beyond the real tiles of number+1 need one joker each,
                            # summed over the colours done so far; runs opened at `number`
                            # need a tile at number+2 as well.
                            need = need0 + max(0, new + a1 - real_next)
                            if new > 0 and (v + 2 >= NNUM or new > real_next2 + jl):
                                continue
                            need += max(0, new - real_next2)
                            if need > jl:
                                continue
                            nl = min(a2 + k3, avail - new - a1)
                            ncode = new + 5 * a1 + 25 * nl
                            nmv = mv
                            if meld:
                                nmv = min(MELD_TARGET, mv + number * (u + jr))
                            nsc = gain_u + jr * joker_weight
                            ch = ur * 9 + ug * 3 + jr
                            if not last:
                                nkey = (
                                    base
                                    | (ncode << (7 * c))
                                    | ((ju + jr) << 28)
                                    | (m1 << 30)
                                    | (m2 << 33)
                                    | (nmv << 36)
                                    | (need << 42)
                                )
                                n = _relax(table, bits, end, n, keys, score, parent, choice,
                                           nkey, nsc, i, ch)
                                continue
                            # Last colour: choose the group jokers and close the number in the
                            # same step (the widest layer is never stored).  Runs of length
                            # 1-2 must continue at number+1 (else the state dies); runs of
                            # length >= 3 beyond what number+1 can extend simply end.
                            for jg in range(jl + 1):
                                if group_ok[m1, m2, jg] == 0:
                                    continue
                                k = jl - jg
                                rest = other[k]
                                cl = capc[c, ncode, k]
                                if rest < 0 or cl < 0:
                                    continue
                                # pending short runs beyond the real tiles need a joker each
                                if other_need + needc[c, ncode] > k:
                                    continue
                                gmv = nmv
                                if meld:
                                    gmv = min(MELD_TARGET, nmv + number * jg)
                                nkey = (rest | (cl << (7 * c)) | ((jokers - k) << 28)
                                        | (gmv << 36))
                                n = _relax(table, bits, end, n, keys, score, parent, choice,
                                           nkey, nsc + jg * joker_weight, i, ch * 3 + jg)
            stats[0] += n - end
            stats[1] = max(stats[1], n - end)
            start = end
            end = n
            if last and end - start > 1:
                _drop_dominated(table, bits, start, end, keys, score)
            if beam < 0 and end - start > -beam:
                truncated = 1
                _keep_flexible(keys, start, end, -beam)
            if beam > 0 and end - start > beam:
                # heuristic pass: keep the best `beam` states (ties may keep a few more)
                truncated = 1
                thr = np.sort(score[start:end])[end - start - beam]
                for i in range(start, end):
                    if score[i] < thr:
                        keys[i] = -1
    # Terminal layer: every colour closed; table jokers placed; meld reached.
    best = -1
    best_sc = _NEG
    for i in range(start, end):
        key = keys[i]
        if key < 0:
            continue
        ju = (key >> 28) & 3
        mv = (key >> 36) & 63
        if ju < must_j:
            continue
        if meld and mv < MELD_TARGET:
            continue
        if score[i] > best_sc:
            best_sc = score[i]
            best = i
    if best < 0:
        return 0, _NEG, truncated
    idx = best
    for lay in range(layer, 0, -1):
        v = (lay - 1) // NCOL
        step = (lay - 1) % NCOL
        c = order[v, step]
        ch = np.int64(choice[idx])
        if step == NCOL - 1:
            gj_out[v] = ch % 3
            ch //= 3
        choice_out[c, v, 0] = ch // 9
        choice_out[c, v, 1] = (ch // 3) % 3
        choice_out[c, v, 2] = ch % 3
        idx = parent[idx]
    return 1, best_sc - must_j * joker_weight, truncated


@njit(cache=True)
def _playable(must, opt, jokers):
    """``opt`` without the rack tiles that no set can hold.

    A tile can only be placed in a run through three consecutive numbers or a group of
    three colours, of tiles present or ``jokers`` standing in for the missing ones; rack
    tiles with neither are removed, until nothing changes.  No arrangement uses a removed
    tile, so the optimum is the same (with two jokers every tile can be placed).
    """
    left = opt.copy()
    changed = jokers < 2
    while changed:
        changed = False
        for c in range(NCOL):
            for v in range(NNUM):
                if left[c, v] == 0 or must[c, v] > 0:
                    continue
                ok = False
                for s in range(max(0, v - 2), min(v, NNUM - 3) + 1):
                    missing = 0
                    for x in range(s, s + 3):
                        if must[c, x] + left[c, x] == 0:
                            missing += 1
                    if missing <= jokers:
                        ok = True
                if not ok:
                    colours = jokers
                    for cc in range(NCOL):
                        if must[cc, v] + left[cc, v] > 0:
                            colours += 1
                    ok = colours >= 3
                if not ok:
                    left[c, v] = 0
                    changed = True
    return left


@njit(cache=True)
def _solve_exact(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    beam,
):
    """The exact optimum, found fastest by passes that prune with a score to reach.

    Pruning only drops transitions that cannot reach the target score, so an exact pass
    finds every arrangement that reaches it and returns the optimum whenever the optimum
    does.  First target: everything the rack could add (every rack tile that some set
    could hold, every rack joker); on large tables the optimum usually plays the whole
    rack.  Then every surviving state has played every rack tile so far, so the scores
    tie and the work is finding *an* arrangement: a narrow pass that keeps the states with
    the fewest open short runs (``beam // 4`` of them) nearly always finds one, and any
    answer reaching the target is optimal.  If it does not, the exact pass with that
    target decides; if nothing reaches the target: with jokers, a beam pass finds a legal
    score (its answer stands if it never truncated) and the exact pass prunes with that;
    without jokers the plain exact pass runs (it is cheap, at most ~20k states).
    ``beam = 0`` runs the plain exact pass alone.  Returns ``(status, score)``.
    """
    floor = _NEG
    if beam > 0:
        opt = _playable(must, opt, must_j + opt_j)
        target = must_j * joker_weight + opt_j * max(0, joker_weight)
        for c in range(NCOL):
            for v in range(NNUM):
                target += opt[c, v] * max(0, weight[c, v])
        # (a pass may end on a state below the target: only an answer reaching it is known
        # to be optimal)
        st, sc, truncated = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                       group_ok, choice_out, gj_out, stats, target,
                                       -max(1, beam // 4))
        if st == 1 and sc + must_j * joker_weight >= target:
            return st, sc
        stats[:] = 0
        if truncated:
            st, sc, _t = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                    group_ok, choice_out, gj_out, stats, target, _NO_BEAM)
            if st == 1 and sc + must_j * joker_weight >= target:
                return st, sc
            stats[:] = 0
    if beam > 0 and must_j + opt_j > 0:
        st, sc, truncated = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                       group_ok, choice_out, gj_out, stats, _NEG, beam)
        if truncated == 0:
            return st, sc
        if st == 1:
            floor = sc + must_j * joker_weight
        stats[:] = 0
    st, sc, _t = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                            choice_out, gj_out, stats, floor, _NO_BEAM)
    return st, sc


@njit(cache=True, parallel=True)
def solve_batch(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status, best, choice,
    group_jokers, stats, beam=BEAM,
):
    """Solve ``n`` positions in parallel; all arrays have the position as first axis.

    ``must, opt, weight``: int64[n, 4, 13]; ``must_j, opt_j, joker_weight, meld``:
    int64[n]; ``group_ok``: int8[5, 5, 3]; outputs ``status, best``: int64[n],
    ``choice``: int64[n, 4, 13, 3], ``group_jokers``: int64[n, 13].
    """
    for p in prange(must.shape[0]):
        st, sc = _solve_exact(must[p], opt[p], must_j[p], opt_j[p], weight[p], joker_weight[p],
                              meld[p], group_ok, choice[p], group_jokers[p], stats[p], beam)
        status[p] = st
        best[p] = sc


@njit(cache=True)
def solve_serial(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status, best, choice,
    group_jokers, stats, beam=BEAM,
):
    """:func:`solve_batch` on the calling thread: no thread-pool start-up for small batches."""
    for p in range(must.shape[0]):
        st, sc = _solve_exact(must[p], opt[p], must_j[p], opt_j[p], weight[p], joker_weight[p],
                              meld[p], group_ok, choice[p], group_jokers[p], stats[p], beam)
        status[p] = st
        best[p] = sc


def solve_arrays(must, opt, must_j, opt_j, weight, joker_weight, meld, parallel=None,
                 beam=BEAM):
    """Allocate outputs and run :func:`solve_batch` (see the module docstring for shapes).

    ``parallel=None`` uses the thread pool only for batches of more than one position.
    ``beam=0`` skips the bounding first pass (same answers, slower on large tables; the
    differential tests compare both).
    Returns ``(status, best, choice, group_jokers, stats)``.

    >>> must = np.zeros((1, 4, 13), np.int64)
    >>> opt = np.zeros((1, 4, 13), np.int64)
    >>> opt[0, 1, 4:7] = 1                      # rack R5 R6 R7
    >>> weight = np.ones((1, 4, 13), np.int64)   # one point per tile placed
    >>> one, zero = np.ones(1, np.int64), np.zeros(1, np.int64)
    >>> status, best, choice, gj, _ = solve_arrays(must, opt, zero, zero, weight, one, zero)
    >>> int(status[0]), int(best[0]), choice[0, 1, 4:7, 0].tolist()
    (1, 3, [1, 1, 1])
    """
    n = must.shape[0]
    status = np.zeros(n, np.int64)
    best = np.zeros(n, np.int64)
    choice = np.zeros((n, NCOL, NNUM, 3), np.int64)
    group_jokers = np.zeros((n, NNUM), np.int64)
    stats = np.zeros((n, 2), np.int64)
    if parallel is None:
        parallel = n > 1
    kernel = solve_batch if parallel else solve_serial
    kernel(
        np.ascontiguousarray(must, np.int64),
        np.ascontiguousarray(opt, np.int64),
        np.ascontiguousarray(must_j, np.int64),
        np.ascontiguousarray(opt_j, np.int64),
        np.ascontiguousarray(weight, np.int64),
        np.ascontiguousarray(joker_weight, np.int64),
        np.ascontiguousarray(meld, np.int64),
        GROUP_OK,
        status,
        best,
        choice,
        group_jokers,
        stats,
        beam,
    )
    return status, best, choice, group_jokers, stats


def warmup() -> None:
    """Compile (or load from the cache) every kernel, so timings exclude compilation."""
    must = np.zeros((2, NCOL, NNUM), np.int64)
    opt = np.zeros((2, NCOL, NNUM), np.int64)
    opt[:, 0, :3] = 1
    z = np.zeros(2, np.int64)
    w = np.ones((2, NCOL, NNUM), np.int64)
    solve_arrays(must[:1], opt[:1], z[:1], z[:1], w[:1], z[:1] + 1, z[:1])
    status, _best, choice, gj, _stats = solve_arrays(must, opt, z, z, w, z + 1, z)
    meld_codes_batch(status, choice, gj, PART_COUNT, PART_MASKS)
    codes, played = new_outputs()
    solve_position(np.array([0, 1, 2]), np.array([3]), np.array([3, 52]), w[0], 1, 0, codes,
                   played)


# ------------------------------------------------------------------ compiled reconstruction
#
# The replay of :func:`solvers.rummikub._reconstruct.build_sets`, compiled, with every set
# packed into one integer so the engine turns a set into tiles with one dictionary look-up:
#
#   run:   colour << 32 | start << 24 | length << 16 | joker positions (bit i: start + i)
#   group: 1 << 40 | number << 32 | number << 24 | length << 16 | joker colours << 4
#          | real colours                                      (4-bit colour masks)
#
# ``code >> 24`` is the order the engine lists sets in (runs by colour then first number,
# then groups by number); the sets are sorted on it stably, so equal keys keep the replay
# order, as ``sorted(..., key=...)`` does in Python.

MAX_SETS = 64  # 106 tiles make at most 35 sets


@njit(cache=True)
def _emit_run(codes, m, c, start, length, jmask):
    codes[m] = (np.int64(c) << 32) | (np.int64(start) << 24) | (np.int64(length) << 16) | jmask
    return m + 1


@njit(cache=True)
def meld_codes(choice, group_jokers, part_count, part_masks, codes):
    """Fill ``codes`` (int64[MAX_SETS]) with the sets of one solved position, sorted.

    ``choice[c, v-1] = (run tiles, group tiles, run jokers)`` and ``group_jokers[v-1]`` as
    the DP returns them; ``part_count``/``part_masks`` from :mod:`solvers.rummikub._groups`.
    Returns the number of sets, or -1 if the choice is not a valid arrangement.

    >>> choice = np.zeros((NCOL, NNUM, 3), np.int64)
    >>> choice[1, 4:7, 0] = 1                 # a run R5 R6 R7 ...
    >>> choice[1, 7, 2] = 1                   # ... with a joker as R8
    >>> choice[[0, 2, 3], 9, 1] = 1           # a group K10 O10 B10
    >>> codes = np.zeros(MAX_SETS, np.int64)
    >>> n = meld_codes(choice, np.zeros(NNUM, np.int64), PART_COUNT, PART_MASKS, codes)
    >>> [hex(c) for c in codes[:n]]
    ['0x105040008', '0x10a0a03000d']
    """
    m = 0
    # open runs of one colour, in the replay's order: first number, length, joker mask
    rs = np.zeros(8, np.int64)
    rl = np.zeros(8, np.int64)
    rj = np.zeros(8, np.int64)
    ts = np.zeros(8, np.int64)
    tl = np.zeros(8, np.int64)
    tj = np.zeros(8, np.int64)
    for c in range(NCOL):
        busy = False
        for v in range(NNUM):
            if choice[c, v, 0] + choice[c, v, 2] > 0:
                busy = True
        if not busy:
            continue
        no = 0
        for v in range(NNUM):
            ur = choice[c, v, 0]
            jr = choice[c, v, 2]
            items = ur + jr
            if no == 0 and items == 0:
                continue
            # ordered: the short runs (length < 3) first, then the long ones, each in order
            k = 0
            short = 0
            for r in range(no):
                if rl[r] < 3:
                    ts[k] = rs[r]
                    tl[k] = rl[r]
                    tj[k] = rj[r]
                    k += 1
            short = k
            for r in range(no):
                if rl[r] >= 3:
                    ts[k] = rs[r]
                    tl[k] = rl[r]
                    tj[k] = rj[r]
                    k += 1
            if items < short:
                return -1
            take = min(items, no)
            for r in range(take):
                if r >= ur:  # real tiles go first, then the jokers
                    tj[r] |= np.int64(1) << (v + 1 - ts[r])
                tl[r] += 1
            for r in range(take, no):  # runs not continued end here
                m = _emit_run(codes, m, c, ts[r], tl[r], tj[r])
            no = 0
            for r in range(take):
                rs[no] = ts[r]
                rl[no] = tl[r]
                rj[no] = tj[r]
                no += 1
            for r in range(take, items):
                rs[no] = v + 1
                rl[no] = 1
                rj[no] = 1 if r >= ur else 0
                no += 1
        for r in range(no):
            if rl[r] < 3:
                return -1
            m = _emit_run(codes, m, c, rs[r], rl[r], rj[r])
    for v in range(NNUM):
        index = 0
        mult = 1
        for c in range(NCOL):
            index += choice[c, v, 1] * mult
            mult *= 3
        jg = group_jokers[v]
        if index == 0 and jg == 0:
            continue
        count = part_count[index, jg]
        if count < 0:
            return -1
        for g in range(count):
            real = part_masks[index, jg, g, 0]
            jok = part_masks[index, jg, g, 1]
            length = 0
            for c in range(NCOL):
                length += ((real >> c) & 1) + ((jok >> c) & 1)
            codes[m] = ((np.int64(1) << 40) | (np.int64(v + 1) << 32) | (np.int64(v + 1) << 24)
                        | (np.int64(length) << 16) | (jok << 4) | real)
            m += 1
    # stable insertion sort on the listing key
    for i in range(1, m):
        code = codes[i]
        key = code >> 24
        j = i - 1
        while j >= 0 and (codes[j] >> 24) > key:
            codes[j + 1] = codes[j]
            j -= 1
        codes[j + 1] = code
    return m


@njit(cache=True)
def meld_codes_batch(status, choice, group_jokers, part_count, part_masks):
    """:func:`meld_codes` for every solved position of a batch: ``(codes[n, MAX_SETS], counts)``.

    ``counts[p]`` is -2 for an unsolved position.
    """
    n = status.shape[0]
    codes = np.zeros((n, MAX_SETS), np.int64)
    counts = np.full(n, -2, np.int64)
    for p in range(n):
        if status[p] == 1:
            counts[p] = meld_codes(choice[p], group_jokers[p], part_count, part_masks, codes[p])
    return codes, counts


# ------------------------------------------------------------------ one position, one call

JOKER_INDEX = 52
COPIES = 2
MAX_PLAYED = 106

SOLVED, NO_ARRANGEMENT, BAD_SET, TOO_MANY = 1, 0, 2, 3


@njit(cache=True)
def _set_ok(tiles, lo, hi):
    """Whether ``tiles[lo:hi]`` is a run or a group (the rules of ``validate_set``)."""
    length = hi - lo
    if length < 3:
        return False
    colour = -1
    number = -1
    same_colour = True
    same_number = True
    colours = 0  # bit mask of the real tiles' colours
    numbers = 0  # bit mask of their numbers
    repeated_colour = False
    repeated_number = False
    low = NNUM
    high = -1
    real = 0
    for i in range(lo, hi):
        t = tiles[i]
        if t == JOKER_INDEX:
            continue
        real += 1
        c = t // NNUM
        v = t % NNUM
        if colour >= 0 and c != colour:
            same_colour = False
        if number >= 0 and v != number:
            same_number = False
        colour = c
        number = v
        if (colours >> c) & 1:
            repeated_colour = True
        if (numbers >> v) & 1:
            repeated_number = True
        colours |= 1 << c
        numbers |= 1 << v
        low = min(low, v)
        high = max(high, v)
    if real == 0:
        return False
    if same_number and length <= 4 and not repeated_colour:
        return True
    return same_colour and not repeated_number and length <= NNUM and high - low + 1 <= length


@njit(cache=True)
def _count_into(indices, counts):
    """Add tile ``indices`` into ``counts[colour, number]``; return how many were jokers."""
    jokers = np.int64(0)
    for i in range(indices.shape[0]):
        t = indices[i]
        if t == JOKER_INDEX:
            jokers += 1
        else:
            counts[t // NNUM, t % NNUM] += 1
    return jokers


@njit(cache=True)
def _solve_position(tiles, ends, rack, weight, joker_weight, meld, group_ok, part_count,
                    part_masks, codes, played, beam):
    """Check and solve one position; returns ``(status, sets, tiles played, value played)``.

    ``tiles``: the table's tile indices set after set, set ``i`` ending at ``ends[i]``;
    ``rack``: the rack's indices; ``weight[4, 13]``/``joker_weight``: gains (see
    :mod:`solvers.rummikub._dp`); ``meld`` 1 in initial-meld mode (the table stays as it is
    and the new sets must be worth 30).  Outputs: ``codes[:sets]`` the whole table
    afterwards (initial meld: the new sets only), ``played[:tiles played]`` the rack tiles
    played, in index order.  Status 1 solved, 0 no legal arrangement, 2 a table set is
    not valid, 3 a tile occurs more than twice (or more than two jokers).
    """
    counts = np.zeros(JOKER_INDEX + 1, np.int64)
    start = 0
    for s in range(ends.shape[0]):
        if not _set_ok(tiles, start, ends[s]):
            return BAD_SET, 0, 0, 0
        start = ends[s]
    for i in range(tiles.shape[0]):
        counts[tiles[i]] += 1
    for i in range(rack.shape[0]):
        counts[rack[i]] += 1
    for i in range(JOKER_INDEX + 1):
        if counts[i] > COPIES:
            return TOO_MANY, 0, 0, 0
    must = np.zeros((NCOL, NNUM), np.int64)
    opt = np.zeros((NCOL, NNUM), np.int64)
    must_j = np.int64(0)
    if meld == 0:
        must_j = _count_into(tiles, must)
    opt_j = _count_into(rack, opt)
    choice = np.zeros((NCOL, NNUM, 3), np.int64)
    group_jokers = np.zeros(NNUM, np.int64)
    stats = np.zeros(2, np.int64)
    status, _score = _solve_exact(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                  group_ok, choice, group_jokers, stats, beam)
    if status != 1:
        return NO_ARRANGEMENT, 0, 0, 0
    nsets = meld_codes(choice, group_jokers, part_count, part_masks, codes)
    if nsets < 0:
        raise AssertionError("the DP returned a choice that is not an arrangement")
    # rack tiles played: what the sets hold beyond the table's tiles
    n = 0
    value = 0
    jokers = 0
    for c in range(NCOL):
        for v in range(NNUM):
            extra = choice[c, v, 0] + choice[c, v, 1] - must[c, v]
            for _ in range(extra):
                played[n] = c * NNUM + v
                n += 1
                value += v + 1
            jokers += choice[c, v, 2]
    for v in range(NNUM):
        jokers += group_jokers[v]
    for _ in range(jokers - must_j):
        played[n] = JOKER_INDEX
        n += 1
    return SOLVED, nsets, n, value


def new_outputs() -> tuple[np.ndarray, np.ndarray]:
    """Output buffers for :func:`solve_position`: ``(codes, played)``."""
    return np.empty(MAX_SETS, np.int64), np.empty(MAX_PLAYED, np.int64)


def solve_position(tiles, ends, rack, weight, joker_weight, meld, codes, played, beam=BEAM):
    """Check and solve one position in one compiled call (the engine's ``best_move``).

    Tile index: ``13 * colour + number - 1`` for colours 0..3 (K R O B), 52 for the joker.
    ``tiles``: the table's tile indices set after set, set ``i`` ending at ``ends[i]``;
    ``rack``: the rack's indices; ``weight[4, 13]``/``joker_weight``: gains as for
    :func:`solve_arrays`; ``meld`` 1 in initial-meld mode (the table stays as it is and
    the new sets must be worth 30).  Fills ``codes`` with the packed sets of the table
    afterwards (initial meld: the new sets only; see :func:`meld_codes`) and ``played`` with
    the rack tiles played, in index order.  Returns ``(status, sets, tiles played, value
    played)``; status 1 solved, 0 no legal arrangement, 2 a table set is not a run or a
    group, 3 a tile occurs more than twice (or more than two jokers).  The checks only say
    *that* the input is wrong: the engine reads a rejected position again with its Python
    checks, which name the defect.

    >>> table = np.array([13 + 5, 13 + 6, 13 + 7])   # R6 R7 R8
    >>> ends = np.array([3])
    >>> rack = np.array([13 + 4, 13 + 8, 39 + 1])    # R5 R9 B2
    >>> weight, jw = np.ones((4, 13), np.int64), 1    # one point per rack tile placed
    >>> codes, played = new_outputs()
    >>> status, nsets, nplayed, value = solve_position(table, ends, rack, weight, jw, 0,
    ...                                                codes, played)
    >>> status, nsets, played[:nplayed].tolist(), value
    (1, 1, [17, 21], 14)
    >>> hex(codes[0])                                  # run of colour 1 from 5, length 5
    '0x105050000'
    """
    return _solve_position(tiles, ends, rack, weight, joker_weight, meld, GROUP_OK,
                           PART_COUNT, PART_MASKS, codes, played, beam)
