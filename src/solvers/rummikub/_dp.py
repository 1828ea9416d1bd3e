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
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.rummikub._groups import GROUP_OK

NCOL = 4
NNUM = 13
MELD_TARGET = 30
_HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed int64
_EMPTY = np.int64(-1)
_NEG = np.int64(-(2**62))
# States per layer kept by the heuristic first pass (50..1000 measured alike on the slow
# corpus positions; small enough that the pass costs little next to the exact one).
BEAM = 128


@njit(cache=True, inline="always")
def _colour(key, c):
    return (key >> (7 * c)) & 127


@njit(cache=True)
def _grow(keys, score, parent, choice):
    cap = keys.shape[0] * 2
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
    arrangement, optimal when ``truncated`` is 0).
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
    bits = 10
    table = np.full((1 << bits, 2), -1, np.int64)
    keys[0] = 0
    score[0] = 0
    parent[0] = -1
    choice[0] = 0
    start = 0
    end = 1
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
            for i in range(start, end):
                key = keys[i]
                if key < 0:  # dominated
                    continue
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
                                if n >= keys.shape[0]:
                                    keys, score, parent, choice = _grow(keys, score, parent,
                                                                        choice)
                                if 2 * (n - end + 1) > (1 << bits):
                                    bits += 1
                                    table = _rehash(keys, end, n, bits)
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
                                if n >= keys.shape[0]:
                                    keys, score, parent, choice = _grow(keys, score, parent,
                                                                        choice)
                                if 2 * (n - end + 1) > (1 << bits):
                                    bits += 1
                                    table = _rehash(keys, end, n, bits)
                                n = _relax(table, bits, end, n, keys, score, parent, choice,
                                           nkey, nsc + jg * joker_weight, i, ch * 3 + jg)
            stats[0] += n - end
            stats[1] = max(stats[1], n - end)
            start = end
            end = n
            if last and end - start > 1:
                _drop_dominated(table, bits, start, end, keys, score)
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
def _solve_exact(
    must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, choice_out, gj_out, stats,
    beam,
):
    """The exact optimum: a beam pass finds a good legal score, the exact pass prunes with it.

    Pruning only drops transitions that cannot reach the beam pass's score, so the exact
    pass still finds the optimum (and the beam pass's answer stands if it never
    truncated).  ``beam = 0`` runs the plain exact pass alone, and so do positions without
    jokers: their plain pass is cheap (at most ~20k states) and the first pass would add
    about a quarter to it.  Returns ``(status, score)``.
    """
    floor = _NEG
    if beam > 0 and must_j + opt_j > 0:
        st, sc, truncated = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld,
                                       group_ok, choice_out, gj_out, stats, _NEG, beam)
        if truncated == 0:
            return st, sc
        if st == 1:
            floor = sc + must_j * joker_weight
        stats[:] = 0
    st, sc, _t = _solve_one(must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok,
                            choice_out, gj_out, stats, floor, 0)
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
    """Compile (or load from the cache) both kernels, so timings exclude compilation."""
    must = np.zeros((2, NCOL, NNUM), np.int64)
    opt = np.zeros((2, NCOL, NNUM), np.int64)
    opt[:, 0, :3] = 1
    z = np.zeros(2, np.int64)
    w = np.ones((2, NCOL, NNUM), np.int64)
    solve_arrays(must[:1], opt[:1], z[:1], z[:1], w[:1], z[:1] + 1, z[:1])
    solve_arrays(must, opt, z, z, w, z + 1, z)
