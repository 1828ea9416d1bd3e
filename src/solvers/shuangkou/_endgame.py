"""Exact end-game search: alpha-beta with a transposition table on count arrays.

With every hand known, the round is a two-sided game of perfect information:
side 0 (seats 0 and 2) maximises its points at round end, side 1 minimises
them.  A value is side 0's points under the points policy (P2, P3, P4), so it
lies in [-P2, P2]; its sign says which side finishes first, and ``P2`` (or
``-P2``) a forced double win.

A node is the four hands, the first finisher (-1 before anyone finished), and
the trick state: the seat on turn, whether it leads, and otherwise the last
play's code, its player and the passes since.  The search is recursive;
moves of each node live on one shared stack array (``stack``), so memory is
bounded by its capacity: a search that would overflow it stops and reports it
in ``stats[1]`` instead of crashing.  The transposition table stores a lower
and an upper bound per 64-bit Zobrist key, always replacing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.shuangkou._classify import classify
from solvers.shuangkou._plays import count_plays, enumerate_plays
from solvers.shuangkou._trick import round_over, side0_points, trick_next

NODES = 0
OVERFLOW = 1
TT_BITS_DEFAULT = 20


def zobrist_keys(seed: int = 20261130) -> np.ndarray:
    """Random keys per (seat, rank, suit, count 0–2)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=(4, 15, 4, 3), dtype=np.int64).astype(np.uint64)


@njit(cache=True, inline="always")
def _mix(x):
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True)
def _key(hands, zobrist, first, to_move, leading, last_code, last_player, passes):
    h = np.uint64(0)
    for seat in range(4):
        for r in range(15):
            for s in range(4):
                c = hands[seat, r, s]
                if c:
                    h ^= zobrist[seat, r, s, c]
    if leading:
        state = (to_move * 5 + first + 1) * 2 + 1
    else:
        state = ((((last_code * 4 + last_player) * 4 + passes) * 4 + to_move) * 5 + first + 1) * 2
    return h ^ _mix(np.uint64(state) + np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True)
def _cards(hand):
    n = 0
    for r in range(15):
        for s in range(4):
            n += hand[r, s]
    return n


@njit(cache=True)
def holding_mask(hands):
    """Bit mask of the seats with a non-empty hand."""
    mask = 0
    for seat in range(4):
        if _cards(hands[seat]) > 0:
            mask |= 1 << seat
    return mask


@njit(cache=True)
def _order_moves(stack, base, n, hand_size, order):
    """Indices of the node's moves, best-looking first: plays that empty the
    hand, then more cards before fewer (shedding cards is what wins)."""
    score = np.empty(n, dtype=np.int64)
    for i in range(n):
        size = _cards(stack[base + i])
        score[i] = 1000 if size == hand_size else size
        order[i] = i
    for i in range(1, n):
        j = i
        while j > 0 and score[order[j - 1]] < score[order[j]]:
            t = order[j]
            order[j] = order[j - 1]
            order[j - 1] = t
            j -= 1


@njit(cache=True)
def search(hands, first, to_move, leading, last_code, last_player, passes, sf_bomb, points,
           alpha, beta, tt_keys, tt_lower, tt_upper, zobrist, stack, sp, stats):
    """Side 0's points under best play from this node, searched in (alpha, beta)
    fail-soft: a result at or below alpha is an upper bound, at or above beta a
    lower bound.  ``sp`` is the first free row of ``stack``."""
    stats[NODES] += 1
    if stats[OVERFLOW]:
        return 0
    key = _key(hands, zobrist, first, to_move, leading, last_code, last_player, passes)
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    stored = tt_keys[slot] == key
    if stored:
        lower = tt_lower[slot]
        upper = tt_upper[slot]
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        alpha = max(alpha, lower)
        beta = min(beta, upper)
    maximise = (to_move & 1) == 0
    previous = 0 if leading else last_code
    n = count_plays(hands[to_move], previous, sf_bomb)
    if sp + n > stack.shape[0]:
        stats[OVERFLOW] = 1
        return 0
    enumerate_plays(hands[to_move], previous, sf_bomb, stack[sp:sp + n])
    order = np.empty(n, dtype=np.int64)
    hand_size = _cards(hands[to_move])
    _order_moves(stack, sp, n, hand_size, order)
    holding = holding_mask(hands)
    best = -1000 if maximise else 1000
    a = alpha
    b = beta
    partner_last = (not leading) and last_player == ((to_move + 2) & 3)
    total = n if leading else n + 1
    for t in range(total):
        # Responding: pass first after a partner's play, last otherwise.
        if leading:
            i = t
        elif partner_last:
            i = t - 1
        else:
            i = t if t < n else -1
        if i < 0:
            nxt, leads, _ = trick_next(holding, last_player, passes + 1)
            value = search(hands, first, nxt, leads, last_code, last_player, passes + 1,
                           sf_bomb, points, a, b, tt_keys, tt_lower, tt_upper, zobrist, stack,
                           sp + n, stats)
        else:
            play = stack[sp + order[i]]
            hand = hands[to_move]
            for r in range(15):
                for s in range(4):
                    hand[r, s] -= play[r, s]
            new_first = first
            new_holding = holding
            if _cards(hand) == 0:
                new_holding = holding & ~(1 << to_move)
                if first < 0:
                    new_first = to_move
            if round_over(new_holding):
                value = side0_points(new_first, new_holding, points)
            else:
                code = classify(play, sf_bomb)
                nxt, leads, _ = trick_next(new_holding, to_move, 0)
                value = search(hands, new_first, nxt, leads, code, to_move, 0, sf_bomb, points,
                               a, b, tt_keys, tt_lower, tt_upper, zobrist, stack, sp + n, stats)
            for r in range(15):
                for s in range(4):
                    hand[r, s] += play[r, s]
        if maximise:
            if value > best:
                best = value
            if best > a:
                a = best
        else:
            if value < best:
                best = value
            if best < b:
                b = best
        if a >= b:
            break
    if stats[OVERFLOW]:
        return 0
    if not stored:
        tt_keys[slot] = key
        tt_lower[slot] = -1000
        tt_upper[slot] = 1000
    if best <= alpha:
        tt_upper[slot] = min(tt_upper[slot], best)
    elif best >= beta:
        tt_lower[slot] = max(tt_lower[slot], best)
    else:
        tt_lower[slot] = best
        tt_upper[slot] = best
    return best


def new_table(bits: int = TT_BITS_DEFAULT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table of 2**bits entries (keys, lower, upper)."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),
        np.full(size, -1000, dtype=np.int16),
        np.full(size, 1000, dtype=np.int16),
    )
