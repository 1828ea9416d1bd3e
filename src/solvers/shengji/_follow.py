"""Follow-suit legality (section 6.1), legal-follow enumeration and counting (section 6.3).

Inputs are count vectors of length 54 (``h`` the follower's hand including
the play, ``lead`` the cards on the table, ``play`` the proposed follow) and
one context's ``esuit``/``pos``/``suit_cards``/``n_suit_cards`` tables.
Batch forms take stacked tables and a per-row context index.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.shengji._structure import (
    MAX_PARTS,
    N_POS,
    lambda_star,
    lead_suit,
    realises,
    shape_of,
    suit_profile,
)


@njit(cache=True)
def _required_shape_into(h, lead, esuit, pos, pc, cnt, shape, lam):
    """λ* of hand ``h`` against ``lead`` using caller buffers; returns (len λ*, |Hs|, n)."""
    s = lead_suit(lead, esuit)
    n = suit_profile(lead, s, esuit, pos, pc, cnt)
    ns = shape_of(pc, shape)
    hs = suit_profile(h, s, esuit, pos, pc, cnt)
    if hs <= n:
        return 0, hs, n
    nl = lambda_star(pc, shape, ns, lam)
    return nl, hs, n


@njit(cache=True)
def required_shape(h, lead, esuit, pos, lam):
    """Write λ* for hand ``h`` against ``lead`` (long-suit case); return (len λ*, |Hs|, n)."""
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    shape = np.zeros(MAX_PARTS, dtype=np.int64)
    return _required_shape_into(h, lead, esuit, pos, pc, cnt, shape, lam)


@njit(cache=True)
def _follow_legal_into(h, lead, play, esuit, pos, pc, cnt, shape, lam):
    """:func:`follow_legal` with caller-provided scratch buffers (no allocation when simple)."""
    # one pass: sizes, play ⊆ hand, and per-suit counts of hand and play (cnt[0:5], pc[0:5]
    # serve as accumulators before they are used as profiles)
    n = 0
    m = 0
    s = -1
    lead_pair = False
    for e in range(5):
        cnt[e] = 0
        pc[e] = 0
        shape[e] = 0
    for c in range(54):
        p = play[c]
        hc = h[c]
        if p < 0 or p > hc:
            return False
        lc = lead[c]
        if lc > 0:
            n += lc
            s = esuit[c]
            if lc == 2:
                lead_pair = True
        m += p
        e = esuit[c]
        cnt[e] += hc
        pc[e] += p
        if hc == 2:
            shape[e] += 1  # pairs held per suit
    if n == 0 or m != n:
        return False
    hs = cnt[s]
    ps = pc[s]
    if hs <= n:
        return ps == hs  # play ⊆ hand, so equal counts mean the whole suit is played
    if ps < n:
        return False
    if not lead_pair or shape[s] == 0:
        return True  # λ* = (): the lead has no pair or the hand holds none in the suit
    nl, _, _ = _required_shape_into(h, lead, esuit, pos, pc, cnt, shape, lam)
    if nl == 0:
        return True
    suit_profile(play, s, esuit, pos, pc, cnt)
    return realises(pc, lam, nl)


@njit(cache=True)
def follow_legal(h, lead, play, esuit, pos):
    """Section 6.1: is ``play`` a legal follow from hand ``h`` to ``lead``?"""
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    shape = np.zeros(MAX_PARTS, dtype=np.int64)
    lam = np.zeros(MAX_PARTS, dtype=np.int64)
    return _follow_legal_into(h, lead, play, esuit, pos, pc, cnt, shape, lam)


@njit(cache=True)
def _legal_rows(hands, leads, plays, ctx, esuit_t, pos_t, out, lo, hi):
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    shape = np.zeros(MAX_PARTS, dtype=np.int64)
    lam = np.zeros(MAX_PARTS, dtype=np.int64)
    for i in range(lo, hi):
        k = ctx[i]
        out[i] = _follow_legal_into(hands[i], leads[i], plays[i], esuit_t[k], pos_t[k], pc, cnt,
                                    shape, lam)


@njit(cache=True, parallel=True)
def follow_legal_batch(hands, leads, plays, ctx, esuit_t, pos_t, nthreads):
    """Batch :func:`follow_legal` on ``nthreads`` threads: row i uses context ``ctx[i]``.

    Rows are split into a few chunks per thread, each with its own scratch
    buffers, so threads never contend for the allocator.  (The thread count
    is an argument: calling ``numba.get_num_threads`` inside would defeat the
    on-disk cache.)
    """
    n = hands.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    nchunks = min(n, 4 * max(nthreads, 1))
    for k in prange(nchunks):
        _legal_rows(hands, leads, plays, ctx, esuit_t, pos_t, out, k * n // nchunks,
                    (k + 1) * n // nchunks)
    return out


@njit(cache=True)
def follow_legal_batch_serial(hands, leads, plays, ctx, esuit_t, pos_t):
    """Single-threaded :func:`follow_legal_batch` (no thread-pool start-up for small batches)."""
    out = np.zeros(hands.shape[0], dtype=np.bool_)
    _legal_rows(hands, leads, plays, ctx, esuit_t, pos_t, out, 0, hands.shape[0])
    return out


@njit(cache=True)
def _multiset_count(caps, nitems, m):
    """Number of distinct sub-multisets of size m (coefficient of x^m of ∏(1+x+…+x^cap))."""
    poly = np.zeros(m + 1, dtype=np.int64)
    poly[0] = 1
    for i in range(nitems):
        new = np.zeros(m + 1, dtype=np.int64)
        for d in range(m + 1):
            if poly[d] == 0:
                continue
            for t in range(caps[i] + 1):
                if d + t > m:
                    break
                new[d + t] += poly[d]
        poly = new
    return poly[m]


@njit(cache=True)
def _compositions(caps, nitems, m):
    """Every vector t with 0 ≤ t[j] ≤ caps[j] and Σt = m, as rows of an int8 array.

    Iterative depth-first odometer (no recursion, so the Numba cache can hold
    it); larger counts first at each item, pruned by the room left behind.
    """
    total = _multiset_count(caps, nitems, m)
    out = np.zeros((total, nitems), dtype=np.int8)
    suffix = np.zeros(nitems + 1, dtype=np.int64)
    for j in range(nitems - 1, -1, -1):
        suffix[j] = suffix[j + 1] + caps[j]
    if total == 0:
        return out
    t = np.full(nitems + 1, -1, dtype=np.int64)
    row = 0
    i = 0
    rem = m
    forward = True  # the leaf test applies only right after moving down a level
    while True:
        if forward and (rem == 0 or i == nitems):
            forward = False
            if rem == 0:
                for j in range(i):
                    out[row, j] = t[j]
                row += 1
            i -= 1
            if i < 0:
                break
            continue
        if t[i] == -1:
            v = caps[i] if caps[i] < rem else rem
        else:
            rem += t[i]
            v = t[i] - 1
        lo = rem - suffix[i + 1]
        if lo < 0:
            lo = 0
        if v < lo:
            t[i] = -1
            i -= 1
            if i < 0:
                break
            continue
        t[i] = v
        rem -= v
        i += 1
        t[i] = -1
        forward = True
    return out


@njit(cache=True)
def _core_keys(lam, nl, rem, items, nitems, ipos, pw, fill_m):
    """Base-3 keys of every core placing chains ``lam`` on pairs of ``rem``, plus every filler.

    Decision levels: for each chain a start position, then one pair card per
    position of the chain (several cards can sit at the multi-card position).
    Iterative backtracking; keys may repeat (removed by the caller).
    """
    npairs = 0
    for i in range(nl):
        npairs += lam[i]
    depth = nl + npairs
    typ = np.zeros(depth, dtype=np.int64)
    part = np.zeros(depth, dtype=np.int64)
    off = np.zeros(depth, dtype=np.int64)
    d = 0
    for i in range(nl):
        typ[d] = 0
        part[d] = i
        d += 1
        for k in range(lam[i]):
            typ[d] = 1
            part[d] = i
            off[d] = k
            d += 1
    keys = [np.int64(0)]
    keys.pop()
    starts = np.zeros(max(nl, 1), dtype=np.int64)
    choice = np.full(depth + 1, -1, dtype=np.int64)
    caps = np.zeros(nitems, dtype=np.int64)
    d = 0
    while d >= 0:
        if d == depth:
            key = np.int64(0)
            for j in range(nitems):
                caps[j] = rem[items[j]]
            # the core is every suit card whose pair was taken (rem set to 0 from 2)
            for dd in range(depth):
                if typ[dd] == 1:
                    key += 2 * pw[choice[dd]]
            fills = _compositions(caps, nitems, fill_m)
            for r in range(fills.shape[0]):
                k2 = key
                for j in range(nitems):
                    k2 += fills[r, j] * pw[j]
                keys.append(k2)
            d -= 1
            continue
        i = part[d]
        m = lam[i]
        if typ[d] == 0:
            if choice[d] >= 0:
                s0 = choice[d] + 1
            elif i > 0 and lam[i - 1] == m:
                s0 = starts[i - 1]
            else:
                s0 = 0
            if s0 <= N_POS - m:
                choice[d] = s0
                starts[i] = s0
                d += 1
                choice[d] = -1
            else:
                choice[d] = -1
                d -= 1
        else:
            q = starts[i] + off[d]
            if choice[d] >= 0:
                rem[items[choice[d]]] = 2
            found = -1
            for j in range(choice[d] + 1, nitems):
                if ipos[j] == q and rem[items[j]] == 2:
                    found = j
                    break
            if found >= 0:
                rem[items[found]] = 0
                choice[d] = found
                d += 1
                choice[d] = -1
            else:
                choice[d] = -1
                d -= 1
    return keys


@njit(cache=True)
def enumerate_follows(h, lead, esuit, pos, suit_cards, n_suit_cards):
    """Every distinct legal follow (section 6.3) as rows of an (M, 54) int8 array.

    Short suit: the whole suit plus every filler from the other cards.  Long
    suit: chains realising λ* are placed first (one pair per chain position,
    any card at a multi-card position), then every filler from the remaining
    suit cards; duplicates (a play holding more pairs than λ*) are removed
    with base-3 keys over the ≤ 18 cards of the suit.
    """
    s = lead_suit(lead, esuit)
    lam = np.zeros(MAX_PARTS, dtype=np.int64)
    nl, hs, n = required_shape(h, lead, esuit, pos, lam)
    if hs <= n:
        base = np.zeros(54, dtype=np.int8)
        items = np.zeros(54, dtype=np.int64)
        caps = np.zeros(54, dtype=np.int64)
        nitems = 0
        for c in range(54):
            if h[c] > 0:
                if esuit[c] == s:
                    base[c] = h[c]
                else:
                    items[nitems] = c
                    caps[nitems] = h[c]
                    nitems += 1
        comp = _compositions(caps, nitems, n - hs)
        out = np.zeros((comp.shape[0], 54), dtype=np.int8)
        for r in range(comp.shape[0]):
            out[r] = base
            for j in range(nitems):
                out[r, items[j]] += comp[r, j]
        return out
    ns = n_suit_cards[s]
    items = np.zeros(ns, dtype=np.int64)
    ipos = np.zeros(ns, dtype=np.int64)
    pw = np.zeros(ns, dtype=np.int64)
    nitems = 0
    for j in range(ns):
        c = suit_cards[s, j]
        items[nitems] = c
        ipos[nitems] = pos[c]
        pw[nitems] = 3**nitems
        nitems += 1
    rem = np.zeros(54, dtype=np.int64)
    for j in range(nitems):
        rem[items[j]] = h[items[j]]
    npairs = 0
    for j in range(nl):
        npairs += lam[j]
    keys = _core_keys(lam, nl, rem, items, nitems, ipos, pw, n - 2 * npairs)
    arr = np.empty(len(keys), dtype=np.int64)
    for i in range(len(keys)):
        arr[i] = keys[i]
    uniq = np.unique(arr)
    out = np.zeros((uniq.shape[0], 54), dtype=np.int8)
    for r in range(uniq.shape[0]):
        k = uniq[r]
        for j in range(nitems):
            out[r, items[j]] = k % 3
            k //= 3
    return out


@njit(cache=True)
def count_follows(h, lead, esuit, pos, suit_cards, n_suit_cards):
    """Number of distinct legal follows; closed form when no chain structure is required."""
    s = lead_suit(lead, esuit)
    lam = np.zeros(MAX_PARTS, dtype=np.int64)
    nl, hs, n = required_shape(h, lead, esuit, pos, lam)
    if hs <= n or nl == 0:
        caps = np.zeros(54, dtype=np.int64)
        nitems = 0
        for c in range(54):
            if h[c] > 0 and ((esuit[c] != s) == (hs <= n)):
                caps[nitems] = h[c]
                nitems += 1
        return _multiset_count(caps, nitems, n - hs if hs <= n else n)
    if lam[0] == 1:
        return _count_with_pairs(h, s, esuit, n, nl)
    return enumerate_follows(h, lead, esuit, pos, suit_cards, n_suit_cards).shape[0]


@njit(cache=True)
def _count_with_pairs(h, s, esuit, n, k):
    """n-sub-multisets of suit ``s`` of ``h`` holding at least ``k`` pairs.

    When λ* is k separate pairs, a play realises it exactly when it holds k
    pairs, so the count is a small DP over the suit's cards by (size, pairs
    capped at k) instead of an enumeration.
    """
    dp = np.zeros((n + 1, k + 1), dtype=np.int64)
    dp[0, 0] = 1
    for c in range(54):
        if h[c] == 0 or esuit[c] != s:
            continue
        new = dp.copy()  # taking 0 copies
        for size in range(n):
            for pairs in range(k + 1):
                ways = dp[size, pairs]
                if ways == 0:
                    continue
                new[size + 1, pairs] += ways  # one copy
                if h[c] == 2 and size + 2 <= n:
                    q = pairs + 1 if pairs < k else k
                    new[size + 2, q] += ways  # both copies: one more pair
        dp = new
    return dp[n, k]


@njit(cache=True, parallel=True)
def count_follows_batch(hands, leads, ctx, esuit_t, pos_t, suit_cards_t, n_suit_cards_t,
                        nthreads):
    """Batch :func:`count_follows` over rows on ``nthreads`` threads."""
    n = hands.shape[0]
    out = np.zeros(n, dtype=np.int64)
    nchunks = min(n, 4 * max(nthreads, 1))
    for j in prange(nchunks):
        for i in range(j * n // nchunks, (j + 1) * n // nchunks):
            k = ctx[i]
            out[i] = count_follows(hands[i], leads[i], esuit_t[k], pos_t[k], suit_cards_t[k],
                                   n_suit_cards_t[k])
    return out


@njit(cache=True)
def enumerate_follows_batch(hands, leads, ctx, esuit_t, pos_t, suit_cards_t, n_suit_cards_t):
    """Batch :func:`enumerate_follows`: (offsets (N+1,), rows (M, 54)); rows of i are
    ``rows[offsets[i]:offsets[i + 1]]``."""
    parts = []
    offsets = np.zeros(hands.shape[0] + 1, dtype=np.int64)
    for i in range(hands.shape[0]):
        k = ctx[i]
        r = enumerate_follows(hands[i], leads[i], esuit_t[k], pos_t[k], suit_cards_t[k],
                              n_suit_cards_t[k])
        parts.append(r)
        offsets[i + 1] = offsets[i] + r.shape[0]
    rows = np.zeros((offsets[-1], 54), dtype=np.int8)
    for i in range(hands.shape[0]):
        rows[offsets[i]:offsets[i + 1]] = parts[i]
    return offsets, rows
