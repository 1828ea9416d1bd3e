"""Structure kernels: pair profiles, shapes, realisation, requirement order, decomposition.

Everything works on one *effective suit* of a count vector (see
:mod:`solvers.shengji.tables`).  A suit's structure is summarised by two
16-slot vectors indexed by position: ``cnt[p]`` (cards at position p) and
``pc[p]`` (pairs at position p: distinct cards held twice; more than one only
at the multi-card level position).  A *shape* is an int64 array of chain
lengths sorted descending plus its length (rules, sections 4–5).
"""

from __future__ import annotations

import numpy as np
from numba import njit

N_POS = 16
MAX_PARTS = 32


@njit(cache=True, nogil=True)
def suit_profile(h, s, esuit, pos, pc, cnt):
    """Fill ``pc``/``cnt`` (length 16) with suit ``s`` of count vector ``h``; return its size."""
    for p in range(N_POS):
        pc[p] = 0
        cnt[p] = 0
    total = 0
    for c in range(54):
        k = h[c]
        if k > 0 and esuit[c] == s:
            p = pos[c]
            cnt[p] += k
            total += k
            if k >= 2:
                pc[p] += 1
    return total


@njit(cache=True, nogil=True)
def pair_mask(pc):
    """16-bit mask of the positions holding at least one pair."""
    m = 0
    for p in range(N_POS):
        if pc[p] > 0:
            m |= 1 << p
    return m


@njit(cache=True, nogil=True)
def chain_mask(mask, k):
    """Bit ``st`` set iff positions st … st+k-1 all hold a pair (``m & (m >> 1)`` per step)."""
    out = mask
    for _ in range(k - 1):
        out &= out >> 1
    return out


@njit(cache=True, nogil=True)
def longest_run(mask):
    """Length of the longest run of consecutive set bits (the longest chain of pairs)."""
    n = 0
    while mask:
        mask &= mask >> 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def lead_suit(lead, esuit):
    """Effective suit of a one-suit set (the suit of its first card); -1 when empty."""
    for c in range(54):
        if lead[c] > 0:
            return esuit[c]
    return -1


@njit(cache=True, nogil=True)
def is_one_suit(cards, esuit):
    """True when every card of ``cards`` has the same effective suit (and there is one)."""
    s = -1
    for c in range(54):
        if cards[c] > 0:
            if s == -1:
                s = esuit[c]
            elif esuit[c] != s:
                return False
    return s != -1


@njit(cache=True, nogil=True)
def shape_of(pc, parts):
    """Write the shape (chain lengths, descending) of pair profile ``pc``; return its length.

    Runs of consecutive occupied positions of length r ≥ 2 give one r-chain;
    further pairs at a multi-pair position, and runs of length 1, give 1s.
    """
    n = 0
    p = 0
    while p < N_POS:
        if pc[p] == 0:
            p += 1
            continue
        q = p
        while q < N_POS and pc[q] > 0:
            q += 1
        r = q - p
        if r >= 2:
            parts[n] = r
            n += 1
            for x in range(p, q):
                for _ in range(pc[x] - 1):
                    parts[n] = 1
                    n += 1
        else:
            for _ in range(pc[p]):
                parts[n] = 1
                n += 1
        p = q
    # insertion sort, descending (n is tiny)
    for i in range(1, n):
        v = parts[i]
        j = i - 1
        while j >= 0 and parts[j] < v:
            parts[j + 1] = parts[j]
            j -= 1
        parts[j + 1] = v
    return n


@njit(cache=True, nogil=True)
def realises(pc, parts, nparts):
    """True when pair profile ``pc`` holds disjoint chains of lengths ``parts[:nparts]``."""
    st = np.empty(max(nparts, 1), dtype=np.int64)
    return realises_with(pc, parts, nparts, st)


@njit(cache=True, nogil=True)
def realises_with(pc, parts, nparts, st):
    """:func:`realises` with a caller buffer ``st`` (≥ ``nparts`` slots) for chain starts.

    Iterative backtracking (Numba's on-disk cache cannot hold recursive
    functions); equal chains are placed in non-decreasing start order to
    skip symmetric placements.  ``pc`` is restored before returning.
    """
    need = 0
    for i in range(nparts):
        need += parts[i]
    have = 0
    for p in range(N_POS):
        have += pc[p]
    if have < need:
        return False
    if nparts == 0 or parts[0] == 1:
        return True  # only pairs are asked for, and there are enough of them
    if nparts == 1:
        return chain_mask(pair_mask(pc), parts[0]) != 0
    for j in range(nparts):
        st[j] = -1
    i = 0
    while True:
        if i == nparts:
            for j in range(nparts):
                for q in range(st[j], st[j] + parts[j]):
                    pc[q] += 1
            return True
        m = parts[i]
        if st[i] >= 0:
            for q in range(st[i], st[i] + m):
                pc[q] += 1
            lo = st[i] + 1
        elif i > 0 and parts[i - 1] == m:
            lo = st[i - 1]
        else:
            lo = 0
        found = -1
        for s in range(lo, N_POS - m + 1):
            ok = True
            for q in range(s, s + m):
                if pc[q] == 0:
                    ok = False
                    break
            if ok:
                found = s
                break
        if found >= 0:
            for q in range(found, found + m):
                pc[q] -= 1
            st[i] = found
            i += 1
            if i < nparts:
                st[i] = -1
        else:
            st[i] = -1
            i -= 1
            if i < 0:
                return False


@njit(cache=True, nogil=True)
def derivable(lam, nl, shape, ns):
    """True when shape ``lam`` is derivable from ``shape`` (split chains, drop pairs; section 5)."""
    cap = np.empty(max(ns, 1), dtype=np.int64)
    ch = np.empty(max(nl, 1), dtype=np.int64)
    return derivable_with(lam, nl, shape, ns, cap, ch)


@njit(cache=True, nogil=True)
def derivable_with(lam, nl, shape, ns, cap, ch):
    """:func:`derivable` with caller buffers ``cap`` (≥ ``ns``) and ``ch`` (≥ ``nl``).

    A small bin packing: each part of ``lam`` goes into a chain of ``shape``
    with enough room; bins with equal room are interchangeable.
    """
    if nl == 0:
        return True
    if ns == 0 or lam[0] > shape[0]:
        return False
    if nl == 1:
        return True
    if lam[0] == 1:
        total = 0
        for j in range(ns):
            total += shape[j]
        return nl <= total  # single pairs fit anywhere
    for j in range(ns):
        cap[j] = shape[j]
    for j in range(nl):
        ch[j] = -1
    i = 0
    while True:
        if i == nl:
            return True
        x = lam[i]
        if ch[i] >= 0:
            cap[ch[i]] += x
        found = -1
        for j in range(ch[i] + 1, ns):
            if cap[j] >= x:
                dup = False
                for jj in range(j):
                    if cap[jj] == cap[j]:
                        dup = True
                        break
                if not dup:
                    found = j
                    break
        if found >= 0:
            cap[found] -= x
            ch[i] = found
            i += 1
            if i < nl:
                ch[i] = -1
        else:
            ch[i] = -1
            i -= 1
            if i < 0:
                return False


@njit(cache=True, nogil=True)
def next_partition(a, n):
    """Advance partition ``a[:n]`` to the next one in reverse-lexicographic order; -1 at the end."""
    k = n - 1
    while k >= 0 and a[k] == 1:
        k -= 1
    if k < 0:
        return -1
    rem = n - k  # the trailing ones plus the unit taken from a[k]
    v = a[k] - 1
    a[k] = v
    n = k + 1
    while rem > 0:
        take = v if v < rem else rem
        a[n] = take
        n += 1
        rem -= take
    return n


@njit(cache=True, nogil=True)
def lambda_star(hs_pc, shape, ns, out):
    """Write λ*, the first shape in the requirement order of ``shape`` that ``hs_pc`` realises.

    Returns its length.  |λ*| = min(pairs of the lead, pairs held), and within
    that size partitions are tried in reverse-lexicographic order (section 5).
    """
    cap = np.empty(MAX_PARTS, dtype=np.int64)
    ch = np.empty(MAX_PARTS, dtype=np.int64)
    st = np.empty(MAX_PARTS, dtype=np.int64)
    return lambda_star_with(hs_pc, shape, ns, out, cap, ch, st)


@njit(cache=True, nogil=True)
def lambda_star_with(hs_pc, shape, ns, out, cap, ch, st):
    """:func:`lambda_star` with caller buffers (each ``MAX_PARTS`` long): no allocation."""
    lead_pairs = 0
    for i in range(ns):
        lead_pairs += shape[i]
    have = 0
    for p in range(N_POS):
        have += hs_pc[p]
    k = lead_pairs if lead_pairs < have else have
    if k == 0:
        return 0
    if shape[0] == 1:
        for i in range(k):  # a lead without chains asks for k pairs, which the hand holds
            out[i] = 1
        return k
    out[0] = k  # ``out`` doubles as the partition being tried
    n = 1
    while n > 0:
        if derivable_with(out, n, shape, ns, cap, ch) and realises_with(hs_pc, out, n, st):
            return n
        n = next_partition(out, n)
    return 0  # unreachable: (1, …, 1) is always derivable and realised


@njit(cache=True, nogil=True)
def is_tractor(cards, esuit, pos):
    """True when ``cards`` is k ≥ 2 pairs of one suit at k consecutive positions (section 3)."""
    if not is_one_suit(cards, esuit):
        return False
    for c in range(54):
        if cards[c] != 0 and cards[c] != 2:
            return False
    s = lead_suit(cards, esuit)
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    suit_profile(cards, s, esuit, pos, pc, cnt)
    first = -1
    last = -1
    npairs = 0
    for p in range(N_POS):
        if pc[p] > 1:
            return False
        if pc[p] == 1:
            npairs += 1
            if first == -1:
                first = p
            last = p
    return npairs >= 2 and last - first + 1 == npairs


@njit(cache=True, nogil=True)
def decompose(cards, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit):
    """Canonical decomposition (section 4) of the one-suit set ``cards``, sorted.

    Writes component ``i`` as a count vector ``comp_cards[i]``, its size in
    cards, its top position and the printed suit of its lowest card (jokers 4);
    components are ordered by (size, top, printed suit).  Returns the count.
    """
    return decompose_with(cards, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit,
                          np.zeros((7, 54), dtype=np.int64), np.zeros((54, 54), dtype=np.int64))


@njit(cache=True, nogil=True)
def decompose_with(cards, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit, scratch,
                   sorted_cards):
    """:func:`decompose` with scratch rows ``scratch`` (7, 54) and ``sorted_cards`` (54, 54),
    both int64: no allocation."""
    rest, pc, cnt, order = scratch[0], scratch[1], scratch[2], scratch[3]
    cs, ct, cp = scratch[4], scratch[5], scratch[6]
    for c in range(54):
        rest[c] = cards[c]
    s = lead_suit(cards, esuit)
    suit_profile(cards, s, esuit, pos, pc, cnt)
    n = 0
    p = 0
    while p < N_POS:
        if pc[p] == 0:
            p += 1
            continue
        q = p
        while q < N_POS and pc[q] > 0:
            q += 1
        if q - p >= 2:
            # one pair per position, the lowest card id (printed suit S<H<C<D) at a tie
            for c in range(54):
                comp_cards[n, c] = 0
            for x in range(p, q):
                for c in range(54):
                    if rest[c] == 2 and esuit[c] == s and pos[c] == x:
                        comp_cards[n, c] = 2
                        rest[c] = 0
                        if x == p:
                            comp_psuit[n] = c // 13 if c < 52 else 4
                        break
            comp_size[n] = 2 * (q - p)
            comp_top[n] = q - 1
            n += 1
        p = q
    for c in range(54):
        if rest[c] > 0:
            for d in range(54):
                comp_cards[n, d] = 0
            comp_cards[n, c] = rest[c]
            comp_size[n] = rest[c]
            comp_top[n] = pos[c]
            comp_psuit[n] = c // 13 if c < 52 else 4
            n += 1
    # insertion sort by (size, top, printed suit)
    for i in range(n):
        order[i] = i
    for i in range(1, n):
        v = order[i]
        j = i - 1
        while j >= 0 and (
            comp_size[order[j]] > comp_size[v]
            or (
                comp_size[order[j]] == comp_size[v]
                and (
                    comp_top[order[j]] > comp_top[v]
                    or (comp_top[order[j]] == comp_top[v] and comp_psuit[order[j]] > comp_psuit[v])
                )
            )
        ):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = v
    for i in range(n):
        for c in range(54):
            sorted_cards[i, c] = comp_cards[i, c]
        cs[i] = comp_size[i]
        ct[i] = comp_top[i]
        cp[i] = comp_psuit[i]
    for i in range(n):
        for c in range(54):
            comp_cards[i, c] = sorted_cards[order[i], c]
        comp_size[i] = cs[order[i]]
        comp_top[i] = ct[order[i]]
        comp_psuit[i] = cp[order[i]]
    return n


@njit(cache=True, nogil=True)
def longest_chain(cards, esuit, pos):
    """Pairs in the largest component of the canonical decomposition of a one-suit set."""
    s = lead_suit(cards, esuit)
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    suit_profile(cards, s, esuit, pos, pc, cnt)
    return longest_run(pair_mask(pc))


@njit(cache=True, nogil=True)
def is_tractor_batch(cards, ctx, esuit_t, pos_t):
    """Batch :func:`is_tractor` over (N, 54) rows; row i uses context ``ctx[i]``."""
    out = np.zeros(cards.shape[0], dtype=np.bool_)
    for i in range(cards.shape[0]):
        k = ctx[i]
        out[i] = is_tractor(cards[i], esuit_t[k], pos_t[k])
    return out


@njit(cache=True, nogil=True)
def decompose_batch(cards, ctx, esuit_t, pos_t):
    """Batch :func:`decompose`: (offsets (N+1,), comp_cards (M, 54) int8, size (M,), top (M,)).

    Row i's components are ``offsets[i]:offsets[i + 1]``, in the canonical order.
    """
    n = cards.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    cc = np.zeros((54, 54), dtype=np.int64)
    cs = np.zeros(54, dtype=np.int64)
    ct = np.zeros(54, dtype=np.int64)
    cp = np.zeros(54, dtype=np.int64)
    for i in range(n):
        k = ctx[i]
        offsets[i + 1] = offsets[i] + decompose(cards[i], esuit_t[k], pos_t[k], cc, cs, ct, cp)
    out_cards = np.zeros((offsets[n], 54), dtype=np.int8)
    out_size = np.zeros(offsets[n], dtype=np.int64)
    out_top = np.zeros(offsets[n], dtype=np.int64)
    for i in range(n):
        k = ctx[i]
        m = decompose(cards[i], esuit_t[k], pos_t[k], cc, cs, ct, cp)
        for j in range(m):
            r = offsets[i] + j
            for c in range(54):
                out_cards[r, c] = cc[j, c]
            out_size[r] = cs[j]
            out_top[r] = ct[j]
    return offsets, out_cards, out_size, out_top


@njit(cache=True, nogil=True)
def realises_batch(cards, suits, shapes, nparts, ctx, esuit_t, pos_t):
    """Batch shape realisation (section 5): does suit ``suits[i]`` of row i realise
    ``shapes[i, :nparts[i]]`` (chain lengths, descending)?"""
    out = np.zeros(cards.shape[0], dtype=np.bool_)
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    for i in range(cards.shape[0]):
        k = ctx[i]
        suit_profile(cards[i], suits[i], esuit_t[k], pos_t[k], pc, cnt)
        out[i] = realises(pc, shapes[i], nparts[i])
    return out
