"""Counting legal follows (section 6.3) without listing them, one row or a batch.

Short in suit, the count is a coefficient of a product of small polynomials; when λ* asks
for pairs only, a DP over the suit's cards by (size, pairs); when it asks for chains, a sum
over the sets of pairs that hold them.  None of these allocates, so the batch kernel's
threads never meet in the allocator.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.shengji._bits import count_masks, lowest_bit
from solvers.shengji._chunks import chunk_plan, claim_rows
from solvers.shengji._follow import (
    _check_hand_and_lead,
    _multiset_count_into,
    _required_shape_into,
)
from solvers.shengji._structure import MAX_PARTS, N_POS, lead_suit, realises_with


@njit(cache=True, nogil=True)
def count_workspace():
    """Scratch of :func:`count_follows_with`: rows (λ*, pair and card profiles, the lead's
    shape, three buffers of λ*'s search, the hand's item caps, the count polynomial) and
    the table of :func:`_count_with_pairs`."""
    return np.zeros((9, 64), dtype=np.int64), np.zeros((64, MAX_PARTS + 1), dtype=np.int64)


@njit(cache=True, nogil=True)
def count_follows(h, lead, esuit, pos, suit_cards, n_suit_cards):
    """Number of distinct legal follows, counted without listing them."""
    work, table = count_workspace()
    return count_follows_with(h, lead, esuit, pos, suit_cards, n_suit_cards, work, table)


@njit(cache=True, nogil=True)
def count_follows_with(h, lead, esuit, pos, suit_cards, n_suit_cards, work, table):
    """:func:`count_follows` with the scratch of :func:`count_workspace`: no allocation.
    Short in suit: the multiset count; λ* of pairs only: :func:`_count_with_pairs`; with
    chains: :func:`_count_with_chains`."""
    lam = work[0]
    s = lead_suit(lead, esuit)
    nl, hs, n = _required_shape_into(h, lead, esuit, pos, lam, work)
    if hs <= n or nl == 0:
        caps = work[7]
        nitems = 0
        for c in range(54):
            if h[c] > 0 and ((esuit[c] != s) == (hs <= n)):
                caps[nitems] = h[c]
                nitems += 1
        return _multiset_count_into(caps, nitems, n - hs if hs <= n else n, work[8])
    if lam[0] == 1:
        return _count_with_pairs(h, s, esuit, n, nl, table)
    return _count_with_chains(h, s, esuit, pos, n, lam, nl, work)


@njit(cache=True, nogil=True)
def _count_with_pairs(h, s, esuit, n, k, dp):
    """n-sub-multisets of suit ``s`` of ``h`` holding at least ``k`` pairs.

    When λ* is k separate pairs, a play realises it exactly when it holds k
    pairs, so the count is a small DP over the suit's cards by (size, pairs
    capped at k) instead of an enumeration.  ``dp`` (≥ (n + 1, k + 1)) is updated in
    place one card at a time: a size row gains from the two rows below it, so the
    sizes run downwards.
    """
    for size in range(n + 1):
        for pairs in range(k + 1):
            dp[size, pairs] = 0
    dp[0, 0] = 1
    for c in range(54):
        if h[c] == 0 or esuit[c] != s:
            continue
        for size in range(n, 0, -1):
            for pairs in range(k + 1):
                dp[size, pairs] += dp[size - 1, pairs]  # one copy
            if h[c] == 2 and size >= 2:
                for pairs in range(k + 1):  # both copies: one more pair
                    q = pairs + 1 if pairs < k else k
                    dp[size, q] += dp[size - 2, pairs]
    return dp[n, k]


@njit(cache=True, nogil=True)
def _count_with_chains(h, s, esuit, pos, n, lam, nl, work):
    """n-sub-multisets of suit ``s`` of ``h`` whose pairs hold the chains ``lam[:nl]``.

    Whether a play realises λ* depends only on the cards it holds twice, so the plays
    are counted by that set Q of pairs: each Q of the hand's pairs that realises λ*, with
    ``n - 2|Q|`` more cards taken once each from the suit's other distinct cards, gives
    ``C(D - |Q|, n - 2|Q|)`` plays (D: the suit's distinct cards held), and no play is
    counted twice.  The Q are listed by size, ``Σλ* ≤ |Q| ≤ n / 2``, as bit masks over
    the hand's pairs (a suit has at most 18 distinct cards), so nothing is enumerated
    card by card and nothing is allocated.  Rows 1, 4 and 5 of ``work`` (from
    :func:`count_workspace`) are overwritten: the pairs' positions, the pair profile of
    Q, and the chain starts of :func:`realises_with`.
    """
    pair_pos, pc, starts = work[1], work[4], work[5]
    npairs = 0
    distinct = 0
    for c in range(54):
        if h[c] > 0 and esuit[c] == s:
            distinct += 1
            if h[c] == 2:
                pair_pos[npairs] = pos[c]
                npairs += 1
    need = 0
    for i in range(nl):
        need += lam[i]
    total = 0
    for q in range(need, min(n // 2, npairs) + 1):
        ways = _binomial(distinct - q, n - 2 * q)
        if ways == 0:
            continue
        subset = (1 << q) - 1  # the q-subsets of the pairs in increasing order (Gosper)
        while subset < (1 << npairs):
            for p in range(N_POS):
                pc[p] = 0
            rest = subset
            while rest:
                low = lowest_bit(rest)
                pc[pair_pos[low]] += 1
                rest &= rest - 1
            if realises_with(pc, lam, nl, starts):
                total += ways
            lowest = subset & -subset
            ripple = subset + lowest
            subset = (((ripple ^ subset) >> 2) // lowest) | ripple
    return total


@njit(cache=True, nogil=True)
def _binomial(a, b):
    """C(a, b) for 0 ≤ a ≤ 54, exactly in int64 (0 when b < 0 or b > a)."""
    if b < 0 or b > a:
        return 0
    result = 1
    for i in range(min(b, a - b)):
        result = result * (a - i) // (i + 1)
    return result


@njit(cache=True, nogil=True, parallel=True)
def count_follows_batch(hands, leads, ctx, esuit_t, pos_t, suit_cards_t, n_suit_cards_t, mask_t,
                        nthreads, chunk):
    """Batch :func:`count_follows` over rows on ``nthreads`` threads: ``(counts, errors)``,
    in chunks of ``chunk`` rows claimed as in :func:`follow_legal_batch`.

    Each row is checked first like :func:`follow_legal_row` checks hand and lead
    (error codes of :mod:`solvers.shengji._checks`; count 0 for a bad row).
    """
    n = hands.shape[0]
    size, workers, claimed = chunk_plan(n, nthreads, chunk)
    out = np.empty(n, dtype=np.int64)  # (every row is written: no parallel loop of np.zeros)
    err = np.empty(n, dtype=np.int32)
    for _ in prange(workers):
        rows = _count_buffers(hands, esuit_t, suit_cards_t)
        lo, hi = claim_rows(claimed, size, n)
        while lo < hi:
            _count_rows(hands, leads, ctx, esuit_t, pos_t, suit_cards_t, n_suit_cards_t, mask_t,
                        out, err, lo, hi, rows)
            lo, hi = claim_rows(claimed, size, n)
    return out, err


@njit(cache=True, nogil=True)
def _count_buffers(hands, esuit_t, suit_cards_t):
    """One worker's row and context copies for :func:`_count_rows`, and the scratch of
    :func:`count_workspace`."""
    work, table = count_workspace()
    return (np.zeros(54, dtype=hands.dtype), np.zeros(54, dtype=hands.dtype),
            np.zeros(54, dtype=esuit_t.dtype), np.zeros(54, dtype=esuit_t.dtype),
            np.zeros(suit_cards_t.shape[1:], dtype=suit_cards_t.dtype),
            np.zeros(suit_cards_t.shape[1], dtype=suit_cards_t.dtype), work, table)


@njit(cache=True, nogil=True)
def _count_rows(hands, leads, ctx, esuit_t, pos_t, suit_cards_t, n_suit_cards_t, mask_t, out, err,
                lo, hi, rows):
    """Rows ``lo:hi`` of :func:`count_follows_batch`.

    ``rows`` (:func:`_count_buffers`) receives copies of each row and of its context's
    tables: the shared arrays, or views of them, handed to a compiled call (even one row's
    function) would update their reference counts, one cache line for all threads, on
    every row.
    """
    hand, lead, esuit, pos, suit_cards, n_suit_cards, work, table = rows
    for i in range(lo, hi):
        k = ctx[i]
        h1, h2, hbad = count_masks(hands, i)
        l1, l2, lbad = count_masks(leads, i)
        e, _ = _check_hand_and_lead(h1, h2, hbad, l1, l2, lbad, esuit_t, mask_t, k)
        err[i] = e
        out[i] = 0
        if e != 0:
            continue
        for c in range(54):  # (element by element: a slice of a shared array is a view of it)
            hand[c] = hands[i, c]
            lead[c] = leads[i, c]
            esuit[c] = esuit_t[k, c]
            pos[c] = pos_t[k, c]
        for s in range(suit_cards.shape[0]):
            n_suit_cards[s] = n_suit_cards_t[k, s]
            for j in range(suit_cards.shape[1]):
                suit_cards[s, j] = suit_cards_t[k, s, j]
        out[i] = count_follows_with(hand, lead, esuit, pos, suit_cards, n_suit_cards, work, table)
