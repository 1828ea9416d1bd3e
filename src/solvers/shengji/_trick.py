"""Throw validation (section 7), trick winner (section 8), points (9), bottom multiplier (10)."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from solvers.shengji._bits import count_masks, mask_count
from solvers.shengji._checks import (
    BAD_COUNT_0,
    EMPTY_LEAD,
    add_to_deck,
    bad_counts,
    check_lead,
    deck_error,
    note_error,
)
from solvers.shengji._chunks import chunk_plan, claim_rows
from solvers.shengji._structure import (
    MAX_PARTS,
    N_POS,
    chain_mask,
    decompose_with,
    lead_suit,
    longest_chain,
    pair_mask,
    realises_with,
    shape_of,
    suit_profile,
)

# Trick-winner policies for plays compared against a multi-component lead.
WIN_LEADING_COMPONENT = 0  # rules section 8: the longest chain of the format decides
WIN_HIGHEST_CARD = 1  # house rule: the highest card of a matching play decides

# Bottom multiplier policies.
BOTTOM_POWER_OF_TWO = 0  # rules section 10: 2^(1 + pairs in the largest component)
BOTTOM_TWICE_UNIT_CARDS = 1  # anchor default: 2 × cards in the largest component


@njit(cache=True, nogil=True)
def _beatable(size, top, s, other, esuit, pos, pc, cnt):
    """Can hand ``other`` beat a component of ``size`` cards with top ``top`` in suit ``s``?"""
    suit_profile(other, s, esuit, pos, pc, cnt)
    if size == 1:
        found = False
        for p in range(top + 1, N_POS):
            found = found or cnt[p] > 0
        return found
    k = size // 2
    # a k-chain of pairs starting at st has top st+k-1; it beats when st > top-k+1
    chains = chain_mask(pair_mask(pc), k)
    lowest = top - k + 2
    if lowest <= 0:
        return chains != 0
    return (chains >> lowest) != 0


@njit(cache=True, nogil=True)
def check_throw(lead, others, esuit, pos, forced):
    """Section 7: True when the lead is valid; otherwise write the forced component.

    ``others`` is (3, 54): the other players' current hands.  ``forced`` gets
    the lead itself when valid.
    """
    return _check_throw_with(lead, others, esuit, pos, forced, _throw_workspace())


@njit(cache=True, nogil=True)
def _throw_workspace():
    return (np.zeros((54, 54), dtype=np.int64), np.zeros(54, dtype=np.int64),
            np.zeros(54, dtype=np.int64), np.zeros(54, dtype=np.int64),
            np.zeros(N_POS, dtype=np.int64), np.zeros(N_POS, dtype=np.int64),
            np.zeros((7, 54), dtype=np.int64), np.zeros((54, 54), dtype=np.int64))


@njit(cache=True, nogil=True)
def _check_throw_with(lead, others, esuit, pos, forced, work):
    comp_cards, comp_size, comp_top, comp_psuit, pc, cnt, scratch, sorted_cards = work
    nc = decompose_with(lead, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit, scratch,
                        sorted_cards)
    for c in range(54):
        forced[c] = lead[c]
    if nc <= 1:
        return True
    s = lead_suit(lead, esuit)
    # components are sorted by (size, top, printed suit): the first beatable one is forced
    for i in range(nc):
        for o in range(others.shape[0]):
            if _beatable(comp_size[i], comp_top[i], s, others[o], esuit, pos, pc, cnt):
                for c in range(54):
                    forced[c] = comp_cards[i, c]
                return False
    return True


@njit(cache=True, nogil=True, inline="always")
def _check_sets(first, fi, rest, esuit_t, mask_t, k, same_size):
    """Error code of a lead (row ``fi`` of ``first``) and the rows of ``rest`` (plays or
    hands sharing the two decks with it).  ``same_size``: the rows are the other plays of
    a trick, which hold as many cards as the lead (a wrong size counts as ``EMPTY_LEAD``,
    the kind of the trick-shape check)."""
    held, twice, bad = count_masks(first, fi)
    err = bad_counts(0, BAD_COUNT_0, bad)
    err, _ = check_lead(err, held, esuit_t, mask_t, k)
    size = mask_count(held, twice)
    a1, a2, a3 = held, twice, np.int64(0)
    for j in range(rest.shape[0]):
        held, twice, bad = count_masks(rest, j)
        err = bad_counts(err, BAD_COUNT_0 + 1 + j, bad)
        if same_size and mask_count(held, twice) != size:
            err = note_error(err, EMPTY_LEAD, 1 + j)
        a1, a2, a3 = add_to_deck(a1, a2, a3, held, twice)
    return deck_error(err, a3)


@njit(cache=True, nogil=True, parallel=True)
def check_throw_batch(leads, others, ctx, esuit_t, pos_t, mask_t, nthreads, chunk):
    """Batch :func:`check_throw` on ``nthreads`` threads: ``(valid (N,), forced (N, 54),
    errors (N,))``; ``others[i]`` is (3, 54), the other players' hands.  Rows go in chunks
    of ``chunk`` (0: automatic) claimed one at a time (:mod:`solvers.shengji._chunks`).

    Rows are checked first (codes of :mod:`solvers.shengji._checks`: counts of the
    lead and each hand, an empty or mixed lead, more than two copies of a card).
    """
    n = leads.shape[0]
    valid = np.empty(n, dtype=np.bool_)  # (every row is written: no parallel loop of np.zeros)
    forced = np.empty((n, 54), dtype=np.int8)
    err = np.empty(n, dtype=np.int32)
    size, workers, claimed = chunk_plan(n, nthreads, chunk)
    for _ in prange(workers):
        copies = _throw_copies(esuit_t, pos_t, mask_t)
        lo, hi = claim_rows(claimed, size, n)
        while lo < hi:
            _throw_rows(leads, others, ctx, esuit_t, pos_t, mask_t, valid, forced, err, lo, hi,
                        copies)
            lo, hi = claim_rows(claimed, size, n)
    return valid, forced, err


@njit(cache=True, nogil=True)
def _throw_rows(leads, others, ctx, esuit_t, pos_t, mask_t, valid, forced, err, lo, hi, copies):
    """Rows ``lo:hi`` of :func:`check_throw_batch`, on this thread's copies of the row and
    of the context tables (``copies``, from :func:`_throw_copies`; why: see
    :func:`_winner_rows`)."""
    lead, hands, esuit_t, pos_t, mask_t, buf, work = copies
    for i in range(lo, hi):
        k = ctx[i]
        for c in range(54):
            lead[c] = leads[i, c]
            for o in range(3):
                hands[o, c] = others[i, o, c]
        err[i] = _check_sets(leads, i, hands, esuit_t, mask_t, k, False)
        if err[i] != 0:
            valid[i] = False
            forced[i, :] = 0
            continue
        valid[i] = _check_throw_with(lead, hands, esuit_t[k], pos_t[k], buf, work)
        for c in range(54):
            forced[i, c] = buf[c]


@njit(cache=True, nogil=True)
def _throw_copies(esuit_t, pos_t, mask_t):
    return (np.zeros(54, dtype=np.int8), np.zeros((3, 54), dtype=np.int8), esuit_t.copy(),
            pos_t.copy(), mask_t.copy(), np.zeros(54, dtype=np.int64), _throw_workspace())


@njit(cache=True, nogil=True)
def trick_winner(plays, esuit, pos, policy):
    """Section 8: index of the winning play among ``plays`` (rows; row 0 is the lead)."""
    return trick_winner_with(plays, esuit, pos, policy, winner_workspace())


@njit(cache=True, nogil=True)
def winner_workspace():
    """Scratch rows of :func:`trick_winner_with`: pair and card profiles, the lead's shape,
    chain starts."""
    return np.zeros((4, MAX_PARTS), dtype=np.int64)


@njit(cache=True, nogil=True)
def trick_winner_with(plays, esuit, pos, policy, work):
    """:func:`trick_winner` with scratch rows from :func:`winner_workspace` (no allocation)."""
    pc, cnt, shape, starts = work[0], work[1], work[2], work[3]
    lead = plays[0]
    s = lead_suit(lead, esuit)
    n = suit_profile(lead, s, esuit, pos, pc, cnt)
    ns = shape_of(pc, shape)
    best = 0
    best_class = -1
    best_key = -1
    for i in range(plays.shape[0]):
        play = plays[i]
        size = 0
        in_suit = 0
        trump = 0
        for c in range(54):
            k = play[c]
            if k > 0:
                size += k
                if esuit[c] == s:
                    in_suit += k
                if esuit[c] == 4:
                    trump += k
        if size != n:
            continue
        if in_suit == n:
            cls = 1
            ps = s
        elif s != 4 and trump == n:
            cls = 2
            ps = 4
        else:
            continue
        suit_profile(play, ps, esuit, pos, pc, cnt)
        if not realises_with(pc, shape, ns, starts):
            continue
        key = -1
        if ns == 0 or policy == WIN_HIGHEST_CARD:
            for p in range(N_POS):
                if cnt[p] > 0:
                    key = p
        else:
            m = shape[0]
            rest = shape[1:ns]
            for top in range(N_POS - 1, m - 2, -1):
                ok = True
                for q in range(top - m + 1, top + 1):
                    if pc[q] == 0:
                        ok = False
                        break
                if not ok:
                    continue
                for q in range(top - m + 1, top + 1):
                    pc[q] -= 1
                fits = realises_with(pc, rest, ns - 1, starts)
                for q in range(top - m + 1, top + 1):
                    pc[q] += 1
                if fits:
                    key = top
                    break
        if cls > best_class or (cls == best_class and key > best_key):
            best = i
            best_class = cls
            best_key = key
    return best


@njit(cache=True, nogil=True)
def _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, lo, hi, copies):
    """Rows ``lo:hi`` of :func:`trick_winner_batch`.  ``copies`` (:func:`_winner_copies`)
    holds this thread's copy of the trick and of the context tables: the shared arrays,
    or views of them, handed to compiled calls would update their reference counts, one
    cache line for all threads, several times a row."""
    trick, esuit_t, pos_t, mask_t, work = copies
    for i in range(lo, hi):
        k = ctx[i]
        for p in range(plays.shape[1]):
            for c in range(54):
                trick[p, c] = plays[i, p, c]
        err[i] = _check_sets(trick, 0, trick[1:], esuit_t, mask_t, k, True)
        out[i] = 0
        if err[i] == 0:
            out[i] = trick_winner_with(trick, esuit_t[k], pos_t[k], policy, work)


@njit(cache=True, nogil=True)
def _winner_copies(plays, esuit_t, pos_t, mask_t):
    return (np.zeros((plays.shape[1], 54), dtype=np.int8), esuit_t.copy(), pos_t.copy(),
            mask_t.copy(), winner_workspace())


@njit(cache=True, nogil=True, parallel=True)
def trick_winner_batch(plays, ctx, esuit_t, pos_t, mask_t, policy, nthreads, chunk):
    """Batch :func:`trick_winner` over (N, P, 54) plays (P ≤ 4; a trick so far) on
    ``nthreads`` threads: ``(winners, errors)``, each trick checked first like
    :func:`check_throw_batch` checks its sets, in chunks of ``chunk`` rows (0: automatic)
    claimed one at a time (:mod:`solvers.shengji._chunks`)."""
    n = plays.shape[0]
    out = np.empty(n, dtype=np.int64)  # (every row is written: no parallel loop of np.zeros)
    err = np.empty(n, dtype=np.int32)
    size, workers, claimed = chunk_plan(n, nthreads, chunk)
    for _ in prange(workers):
        copies = _winner_copies(plays, esuit_t, pos_t, mask_t)
        lo, hi = claim_rows(claimed, size, n)
        while lo < hi:
            _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, lo, hi, copies)
            lo, hi = claim_rows(claimed, size, n)
    return out, err


@njit(cache=True, nogil=True)
def trick_winner_batch_serial(plays, ctx, esuit_t, pos_t, mask_t, policy):
    """Single-threaded :func:`trick_winner_batch` (no thread-pool start-up for small batches)."""
    n = plays.shape[0]
    out = np.zeros(n, dtype=np.int64)
    err = np.zeros(n, dtype=np.int32)
    _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, 0, n,
                 _winner_copies(plays, esuit_t, pos_t, mask_t))
    return out, err


@njit(cache=True, nogil=True)
def trick_points_batch(cards, points):
    """Points (section 9) of each row of an (N, 54) count array."""
    out = np.zeros(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        t = 0
        for c in range(54):
            t += cards[i, c] * points[c]
        out[i] = t
    return out


@njit(cache=True, nogil=True)
def bottom_multiplier(last_lead, esuit, pos, policy):
    """Section 10: multiplier of the bottom for the last trick's lead (as played)."""
    k = longest_chain(last_lead, esuit, pos)
    if policy == BOTTOM_TWICE_UNIT_CARDS:
        return 2 * (2 * k if k > 0 else 1)
    return 2 ** (1 + k)


@njit(cache=True, nogil=True)
def bottom_multiplier_batch(last_leads, ctx, esuit_t, pos_t, policy):
    """Batch :func:`bottom_multiplier`."""
    out = np.zeros(last_leads.shape[0], dtype=np.int64)
    for i in range(last_leads.shape[0]):
        k = ctx[i]
        out[i] = bottom_multiplier(last_leads[i], esuit_t[k], pos_t[k], policy)
    return out
