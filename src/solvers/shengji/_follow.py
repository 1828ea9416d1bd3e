"""Follow-suit legality (section 6.1) and the enumeration of legal follows (section 6.3;
counting them without listing them is :mod:`solvers.shengji._count`).

Inputs are count vectors of length 54 (``h`` the follower's hand including
the play, ``lead`` the cards on the table, ``play`` the proposed follow) and
one context's ``esuit``/``pos``/``suit_cards``/``n_suit_cards`` tables.
Batch forms take stacked tables and a per-row context index.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.shengji._bits import count_masks, lowest_bit, mask_count
from solvers.shengji._checks import (
    BAD_COUNT_0,
    BAD_COUNT_1,
    BAD_COUNT_2,
    add_to_deck,
    bad_counts,
    check_lead,
    deck_error,
)
from solvers.shengji._chunks import chunk_plan, claim_rows
from solvers.shengji._structure import (
    MAX_PARTS,
    N_POS,
    lambda_star_with,
    lead_suit,
    realises_with,
    shape_of,
    suit_profile,
)
from solvers.shengji.tables import suit_masks


@njit(cache=True, nogil=True)
def _required_shape_into(h, lead, esuit, pos, lam, work):
    """λ* of hand ``h`` against ``lead`` using the scratch rows 1–6 of ``work`` (from
    :func:`~solvers.shengji._count.count_workspace`, or ``MAX_PARTS`` wide); returns (len λ*,
    |Hs|, n)."""
    pc, cnt, shape = work[1], work[2], work[3]
    s = lead_suit(lead, esuit)
    n = suit_profile(lead, s, esuit, pos, pc, cnt)
    ns = shape_of(pc, shape)
    hs = suit_profile(h, s, esuit, pos, pc, cnt)
    if hs <= n:
        return 0, hs, n
    nl = lambda_star_with(pc, shape, ns, lam, work[4], work[5], work[6])
    return nl, hs, n


@njit(cache=True, nogil=True)
def required_shape(h, lead, esuit, pos, lam):
    """Write λ* for hand ``h`` against ``lead`` (long-suit case); return (len λ*, |Hs|, n)."""
    return _required_shape_into(h, lead, esuit, pos, lam, np.zeros((7, MAX_PARTS), dtype=np.int64))


@njit(cache=True, nogil=True)
def follow_workspace():
    """Scratch buffers for :func:`follow_legal_row`, one set per thread.

    Rows: pair profiles of lead, hand and play, the lead's shape, λ*, and the
    three buffers of :func:`~solvers.shengji._structure.lambda_star_with`.
    """
    return np.zeros((8, MAX_PARTS), dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _check_hand_and_lead(h1, h2, hbad, l1, l2, lbad, esuit_t, mask_t, k):
    """Checks shared by legality and counting: ``(error, card mask of the lead's suit)``."""
    err = bad_counts(0, BAD_COUNT_0, hbad)
    err = bad_counts(err, BAD_COUNT_1, lbad)
    err, s = check_lead(err, l1, esuit_t, mask_t, k)
    over = add_to_deck(h1, h2, 0, l1, l2)[2]
    return deck_error(err, over), mask_t[k, s]


@njit(cache=True, nogil=True)
def follow_legal_row(hands, leads, plays, i, esuit_t, pos_t, mask_t, k, work):
    """Section 6.1 for row ``i`` in context ``k``, checking the input as it is read:
    ``(legal, error)``.

    ``error`` is 0 for clean input, otherwise a code of :mod:`solvers.shengji._checks`
    (hand, lead and play counts, an empty or mixed lead, more than two copies of
    a card in hand and lead together); ``legal`` is False then.  ``mask_t`` holds
    the 54-bit card mask of each effective suit.  No allocation: ``work`` comes
    from :func:`follow_workspace`.
    """
    h1, h2, hbad = count_masks(hands, i)
    l1, l2, lbad = count_masks(leads, i)
    p1, p2, pbad = count_masks(plays, i)
    err, smask = _check_hand_and_lead(h1, h2, hbad, l1, l2, lbad, esuit_t, mask_t, k)
    err = bad_counts(err, BAD_COUNT_2, pbad)
    if err != 0:
        return False, err
    if (p1 & ~h1) or (p2 & ~h2):
        return False, 0  # the play is not part of the hand
    n = mask_count(l1, l2)
    if mask_count(p1, p2) != n:
        return False, 0
    hs = mask_count(h1 & smask, h2 & smask)
    ps = mask_count(p1 & smask, p2 & smask)
    if hs <= n:
        return ps == hs, 0  # play ⊆ hand, so equal counts mean the whole suit is played
    if ps < n:
        return False, 0
    if l2 == 0 or h2 & smask == 0:
        return True, 0  # λ* = (): the lead has no pair or the hand holds none in the suit
    return _play_realises_requirement(l2, h2 & smask, p2 & smask, pos_t, k, work), 0


@njit(cache=True, nogil=True)
def _play_realises_requirement(lead_twice, hand_twice, play_twice, pos_t, k, work):
    """Long suit, pairs on both sides: does the play realise λ* (the hand's best answer to
    the lead's shape)?  The masks hold the suit's pairs of lead, hand and play."""
    lead_pc, hand_pc, play_pc, shape, lam = work[0], work[1], work[2], work[3], work[4]
    for q in range(N_POS):
        lead_pc[q] = 0
        hand_pc[q] = 0
        play_pc[q] = 0
    bits = lead_twice
    while bits:
        lead_pc[pos_t[k, lowest_bit(bits)]] += 1
        bits &= bits - 1
    bits = hand_twice
    while bits:
        c = lowest_bit(bits)
        q = pos_t[k, c]
        hand_pc[q] += 1
        play_pc[q] += (play_twice >> c) & 1
        bits &= bits - 1
    ns = shape_of(lead_pc, shape)
    nl = lambda_star_with(hand_pc, shape, ns, lam, work[5], work[6], work[7])
    if nl == 0:
        return True
    return realises_with(play_pc, lam, nl, work[7])


@njit(cache=True, nogil=True)
def follow_legal(h, lead, play, esuit, pos):
    """Section 6.1: is ``play`` a legal follow from hand ``h`` to ``lead``?"""
    return follow_legal_row(
        _one_row(h), _one_row(lead), _one_row(play), 0, _one_row(esuit), _one_row(pos),
        _one_row(suit_masks(esuit)), 0, follow_workspace(),
    )[0]


@njit(cache=True, nogil=True)
def _one_row(v):
    return np.ascontiguousarray(v).reshape((1, v.shape[0]))


@njit(cache=True, nogil=True)
def _legal_rows(hands, leads, plays, ctx, esuit_t, pos_t, mask_t, out, err, lo, hi, work):
    for i in range(lo, hi):
        out[i], err[i] = follow_legal_row(hands, leads, plays, i, esuit_t, pos_t, mask_t, ctx[i],
                                          work)


@njit(cache=True, nogil=True, parallel=True)
def follow_legal_batch(hands, leads, plays, ctx, esuit_t, pos_t, mask_t, nthreads, chunk):
    """Batch :func:`follow_legal_row` on ``nthreads`` threads: ``(legal, errors)``; row i uses
    context ``ctx[i]``.

    Each thread's worker claims chunks of ``chunk`` rows (0: :func:`chunk_rows` chooses)
    until none is left (:mod:`solvers.shengji._chunks`), with its own scratch buffers,
    so threads never contend for the allocator.  (The thread count is an argument:
    calling ``numba.get_num_threads`` inside would defeat the on-disk cache.)
    """
    n = hands.shape[0]
    out = np.empty(n, dtype=np.bool_)  # (every row is written; np.zeros would be a
    err = np.empty(n, dtype=np.int32)  # parallel loop of its own: one more thread wake-up)
    size, workers, claimed = chunk_plan(n, nthreads, chunk)
    for _ in prange(workers):
        work = follow_workspace()
        # this thread's copy of the positions table: follow_legal_row updates the reference
        # count of the table it is given on every row, one cache line for every thread
        pos = pos_t.copy()
        lo, hi = claim_rows(claimed, size, n)
        while lo < hi:
            _legal_rows(hands, leads, plays, ctx, esuit_t, pos, mask_t, out, err, lo, hi, work)
            lo, hi = claim_rows(claimed, size, n)
    return out, err


@njit(cache=True, nogil=True)
def follow_legal_batch_serial(hands, leads, plays, ctx, esuit_t, pos_t, mask_t):
    """Single-threaded :func:`follow_legal_batch` (no thread-pool start-up for small batches)."""
    n = hands.shape[0]
    out = np.zeros(n, dtype=np.bool_)
    err = np.zeros(n, dtype=np.int32)
    _legal_rows(hands, leads, plays, ctx, esuit_t, pos_t, mask_t, out, err, 0, n,
                follow_workspace())
    return out, err


@njit(cache=True, nogil=True)
def _multiset_count(caps, nitems, m):
    """Number of distinct sub-multisets of size m (coefficient of x^m of ∏(1+x+…+x^cap))."""
    return _multiset_count_into(caps, nitems, m, np.zeros(m + 1, dtype=np.int64))


@njit(cache=True, nogil=True)
def _multiset_count_into(caps, nitems, m, poly):
    """:func:`_multiset_count` in ``poly`` (≥ m + 1 slots), one factor at a time in place:
    the new coefficient of x^d sums old ones of lower degree, so d runs downwards."""
    for d in range(m + 1):
        poly[d] = 0
    poly[0] = 1
    for i in range(nitems):
        for d in range(m, -1, -1):
            total = 0
            for t in range(min(caps[i], d) + 1):
                total += poly[d - t]
            poly[d] = total
    return poly[m]


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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
