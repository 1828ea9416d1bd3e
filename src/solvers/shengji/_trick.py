"""Throw validation (section 7), trick winner (section 8), points (9), bottom multiplier (10)."""

from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(cache=True)
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


@njit(cache=True)
def check_throw(lead, others, esuit, pos, forced):
    """Section 7: True when the lead is valid; otherwise write the forced component.

    ``others`` is (3, 54): the other players' current hands.  ``forced`` gets
    the lead itself when valid.
    """
    comp_cards = np.zeros((54, 54), dtype=np.int64)
    comp_size = np.zeros(54, dtype=np.int64)
    comp_top = np.zeros(54, dtype=np.int64)
    comp_psuit = np.zeros(54, dtype=np.int64)
    nc = decompose(lead, esuit, pos, comp_cards, comp_size, comp_top, comp_psuit)
    for c in range(54):
        forced[c] = lead[c]
    if nc <= 1:
        return True
    s = lead_suit(lead, esuit)
    pc = np.zeros(N_POS, dtype=np.int64)
    cnt = np.zeros(N_POS, dtype=np.int64)
    # components are sorted by (size, top, printed suit): the first beatable one is forced
    for i in range(nc):
        for o in range(others.shape[0]):
            if _beatable(comp_size[i], comp_top[i], s, others[o], esuit, pos, pc, cnt):
                for c in range(54):
                    forced[c] = comp_cards[i, c]
                return False
    return True


@njit(cache=True)
def check_throw_batch(leads, others, ctx, esuit_t, pos_t):
    """Batch :func:`check_throw`: (valid (N,), forced (N, 54))."""
    n = leads.shape[0]
    valid = np.zeros(n, dtype=np.bool_)
    forced = np.zeros((n, 54), dtype=np.int8)
    buf = np.zeros(54, dtype=np.int64)
    for i in range(n):
        k = ctx[i]
        valid[i] = check_throw(leads[i], others[i], esuit_t[k], pos_t[k], buf)
        for c in range(54):
            forced[i, c] = buf[c]
    return valid, forced


@njit(cache=True)
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


@njit(cache=True)
def trick_winner_batch(plays, ctx, esuit_t, pos_t, policy):
    """Batch :func:`trick_winner` over (N, 4, 54) plays."""
    out = np.zeros(plays.shape[0], dtype=np.int64)
    for i in range(plays.shape[0]):
        k = ctx[i]
        out[i] = trick_winner(plays[i], esuit_t[k], pos_t[k], policy)
    return out


@njit(cache=True)
def trick_points_batch(cards, points):
    """Points (section 9) of each row of an (N, 54) count array."""
    out = np.zeros(cards.shape[0], dtype=np.int64)
    for i in range(cards.shape[0]):
        t = 0
        for c in range(54):
            t += cards[i, c] * points[c]
        out[i] = t
    return out


@njit(cache=True)
def bottom_multiplier(last_lead, esuit, pos, policy):
    """Section 10: multiplier of the bottom for the last trick's lead (as played)."""
    k = longest_chain(last_lead, esuit, pos)
    if policy == BOTTOM_TWICE_UNIT_CARDS:
        return 2 * (2 * k if k > 0 else 1)
    return 2 ** (1 + k)


@njit(cache=True)
def bottom_multiplier_batch(last_leads, ctx, esuit_t, pos_t, policy):
    """Batch :func:`bottom_multiplier`."""
    out = np.zeros(last_leads.shape[0], dtype=np.int64)
    for i in range(last_leads.shape[0]):
        k = ctx[i]
        out[i] = bottom_multiplier(last_leads[i], esuit_t[k], pos_t[k], policy)
    return out
