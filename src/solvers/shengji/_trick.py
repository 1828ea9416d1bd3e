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
from solvers.shengji._structure import (
    MAX_PARTS,
    N_POS,
    chain_mask,
    decompose,
    lead_suit,
    longest_chain,
    pair_mask,
    realises,
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
            np.zeros(N_POS, dtype=np.int64), np.zeros(N_POS, dtype=np.int64))


@njit(cache=True, nogil=True)
def _check_throw_with(lead, others, esuit, pos, forced, work):
    comp_cards, comp_size, comp_top, comp_psuit, pc, cnt = work
    nc = decompose(lead, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit)
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


@njit(cache=True, nogil=True)
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
def check_throw_batch(leads, others, ctx, esuit_t, pos_t, mask_t, nthreads):
    """Batch :func:`check_throw` on ``nthreads`` threads: ``(valid (N,), forced (N, 54),
    errors (N,))``; ``others[i]`` is (3, 54), the other players' hands.

    Rows are checked first (codes of :mod:`solvers.shengji._checks`: counts of the
    lead and each hand, an empty or mixed lead, more than two copies of a card).
    """
    n = leads.shape[0]
    valid = np.zeros(n, dtype=np.bool_)
    forced = np.zeros((n, 54), dtype=np.int8)
    err = np.zeros(n, dtype=np.int32)
    nchunks = min(n, 4 * max(nthreads, 1))
    for j in prange(nchunks):
        work = _throw_workspace()
        buf = np.zeros(54, dtype=np.int64)
        for i in range(j * n // nchunks, (j + 1) * n // nchunks):
            k = ctx[i]
            err[i] = _check_sets(leads, i, others[i], esuit_t, mask_t, k, False)
            if err[i] != 0:
                continue
            valid[i] = _check_throw_with(leads[i], others[i], esuit_t[k], pos_t[k], buf, work)
            for c in range(54):
                forced[i, c] = buf[c]
    return valid, forced, err


@njit(cache=True, nogil=True)
def trick_winner(plays, esuit, pos, policy):
    """Section 8: index of the winning play among ``plays`` (rows; row 0 is the lead)."""
    lead = plays[0]
    s = lead_suit(lead, esuit)
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    n = suit_profile(lead, s, esuit, pos, pc, cnt)
    shape = np.zeros(MAX_PARTS, dtype=np.int64)
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
        if not realises(pc, shape, ns):
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
                fits = realises(pc, rest, ns - 1)
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
def _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, lo, hi):
    for i in range(lo, hi):
        k = ctx[i]
        trick = plays[i]
        err[i] = _check_sets(trick, 0, trick[1:], esuit_t, mask_t, k, True)
        if err[i] == 0:
            out[i] = trick_winner(trick, esuit_t[k], pos_t[k], policy)


@njit(cache=True, nogil=True, parallel=True)
def trick_winner_batch(plays, ctx, esuit_t, pos_t, mask_t, policy, nthreads):
    """Batch :func:`trick_winner` over (N, P, 54) plays (P ≤ 4; a trick so far) on
    ``nthreads`` threads: ``(winners, errors)``, each trick checked first like
    :func:`check_throw_batch` checks its sets."""
    n = plays.shape[0]
    out = np.zeros(n, dtype=np.int64)
    err = np.zeros(n, dtype=np.int32)
    nchunks = min(n, 4 * max(nthreads, 1))
    for j in prange(nchunks):
        _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, j * n // nchunks,
                     (j + 1) * n // nchunks)
    return out, err


@njit(cache=True, nogil=True)
def trick_winner_batch_serial(plays, ctx, esuit_t, pos_t, mask_t, policy):
    """Single-threaded :func:`trick_winner_batch` (no thread-pool start-up for small batches)."""
    n = plays.shape[0]
    out = np.zeros(n, dtype=np.int64)
    err = np.zeros(n, dtype=np.int32)
    _winner_rows(plays, ctx, esuit_t, pos_t, mask_t, policy, out, err, 0, n)
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
