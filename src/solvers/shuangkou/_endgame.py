"""Exact end-game search: alpha-beta with a transposition table on count arrays.

With every hand known, the round is a two-sided game of perfect information:
side 0 (seats 0 and 2) maximises its points at round end, side 1 minimises
them.  A value is side 0's points under the points policy (P2, P3, P4), so it
lies in [-P2, P2]; its sign says which side finishes first, and ``P2`` (or
``-P2``) a forced double win.

A node is the four hands, the first finisher (-1 before anyone finished), and
the trick state: the seat on turn, whether it leads, and otherwise the last
play's code, its player and the passes since.  Moves of each node live on
one shared stack array (``stack``), so memory is bounded by its capacity: a
search that would overflow it stops and reports it
in ``stats[1]`` instead of crashing; so does a search that exceeds the node
limit ``stats[2]`` (0: none).  The transposition table stores a lower
and an upper bound per 64-bit Zobrist key, always replacing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.shuangkou._classify import classify
from solvers.shuangkou._plays import count_plays, enumerate_plays
from solvers.shuangkou._trick import round_over, side0_points, trick_next

NODES = 0
OVERFLOW = 1  # 1: the move stack is full; 2: the node limit was reached
NODE_LIMIT = 2
TT_BITS_DEFAULT = 20


def zobrist_keys(seed: int = 20261130) -> np.ndarray:
    """Random keys per (seat, rank, suit, count 0–2)."""
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2**63, size=(4, 15, 4, 3), dtype=np.int64).astype(np.uint64)


@njit(cache=True, nogil=True, inline="always")
def _mix(x):
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _cards(hand):
    n = 0
    for r in range(15):
        for s in range(4):
            n += hand[r, s]
    return n


@njit(cache=True, nogil=True)
def holding_mask(hands):
    """Bit mask of the seats with a non-empty hand."""
    mask = 0
    for seat in range(4):
        if _cards(hands[seat]) > 0:
            mask |= 1 << seat
    return mask


@njit(cache=True, nogil=True)
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


MAX_DEPTH = 1024  # one action per frame: at most 108 plays, each followed by 3 passes


@njit(cache=True, nogil=True)
def _apply(hand, play, sign):
    for r in range(15):
        for s in range(4):
            hand[r, s] += sign * play[r, s]


@njit(cache=True, nogil=True, inline="always")
def _probe(tt_keys, tt_lower, tt_upper, key, a, b):
    """Look ``key`` up: (stored, done, value, a, b).  ``done`` when the stored bounds
    decide the node in (a, b) (``value`` is then its result); else the window narrowed
    by them."""
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    stored = tt_keys[slot] == key
    if stored:
        lower = np.int64(tt_lower[slot])
        upper = np.int64(tt_upper[slot])
        if lower >= b or lower == upper:
            return stored, True, lower, a, b
        if upper <= a:
            return stored, True, upper, a, b
        a = max(a, lower)
        b = min(b, upper)
    return stored, False, np.int64(0), a, b


@njit(cache=True, nogil=True, inline="always")
def _store(tt_keys, tt_lower, tt_upper, key, stored, value, alpha, beta):
    """Record a fail-soft result searched in (alpha, beta) as a bound (or the exact value)."""
    slot = key & np.uint64(tt_keys.shape[0] - 1)
    if not stored:
        tt_keys[slot] = key
        tt_lower[slot] = -1000
        tt_upper[slot] = 1000
    if value <= alpha:
        tt_upper[slot] = min(tt_upper[slot], value)
    elif value >= beta:
        tt_lower[slot] = max(tt_lower[slot], value)
    else:
        tt_lower[slot] = value
        tt_upper[slot] = value


@njit(cache=True, nogil=True, inline="always")
def _generate(hand, previous, sf_bomb, stack, base, order):
    """Write the plays of ``hand`` that answer ``previous`` (0: a lead) into ``stack`` from
    row ``base`` with their search order into ``order``; their number, -1 if they do not fit."""
    n = count_plays(hand, previous, sf_bomb)
    if base + n > stack.shape[0]:
        return -1
    enumerate_plays(hand, previous, sf_bomb, stack[base:base + n])
    _order_moves(stack, base, n, _cards(hand), order[base:base + n])
    return n


@njit(cache=True, nogil=True)
def search(hands, first, to_move, leading, last_code, last_player, passes, sf_bomb, points,
           alpha, beta, tt_keys, tt_lower, tt_upper, zobrist, stack, sp, stats):
    """Side 0's points under best play from this node, searched in (alpha, beta)
    fail-soft: a result at or below alpha is an upper bound, at or above beta a
    lower bound.  ``sp`` is the first free row of ``stack``.

    Iterative (an explicit frame per depth) rather than recursive: Numba cannot
    reload a cached recursive function safely.  That is also why this function is
    longer than the project's 100 lines: it is one loop of three steps (enter a node,
    try its next move, hand a value back to the parent) that all read and write the
    same seventeen frame arrays, so a step split off would take them all as
    arguments.  The table probe and store and the move generation are their own
    functions (:func:`_probe`, :func:`_store`, :func:`_generate`).
    """
    f_first = np.empty(MAX_DEPTH, np.int64)
    f_move = np.empty(MAX_DEPTH, np.int64)
    f_leading = np.empty(MAX_DEPTH, np.bool_)
    f_code = np.empty(MAX_DEPTH, np.int64)
    f_last = np.empty(MAX_DEPTH, np.int64)
    f_passes = np.empty(MAX_DEPTH, np.int64)
    f_alpha = np.empty(MAX_DEPTH, np.int64)
    f_beta = np.empty(MAX_DEPTH, np.int64)
    f_a = np.empty(MAX_DEPTH, np.int64)
    f_b = np.empty(MAX_DEPTH, np.int64)
    f_best = np.empty(MAX_DEPTH, np.int64)
    f_t = np.empty(MAX_DEPTH, np.int64)
    f_n = np.empty(MAX_DEPTH, np.int64)
    f_sp = np.empty(MAX_DEPTH, np.int64)
    f_key = np.empty(MAX_DEPTH, np.uint64)
    f_stored = np.empty(MAX_DEPTH, np.bool_)
    f_applied = np.empty(MAX_DEPTH, np.int64)  # stack row of the play being searched, -1: pass
    order = np.empty(stack.shape[0], np.int64)

    d = 0
    f_first[0] = first
    f_move[0] = to_move
    f_leading[0] = leading
    f_code[0] = last_code
    f_last[0] = last_player
    f_passes[0] = passes
    f_alpha[0] = alpha
    f_beta[0] = beta
    f_sp[0] = sp
    entering = True
    value = 0
    while True:
        if entering:
            # A new node at depth d: probe the table, generate and order the moves.
            entering = False
            stats[NODES] += 1
            if stats[NODE_LIMIT] > 0 and stats[NODES] > stats[NODE_LIMIT]:
                stats[OVERFLOW] = 2
                return 0
            mover = f_move[d]
            key = _key(hands, zobrist, f_first[d], mover, f_leading[d], f_code[d], f_last[d],
                       f_passes[d])
            f_key[d] = key
            f_stored[d], done, value, a, b = _probe(
                tt_keys, tt_lower, tt_upper, key, f_alpha[d], f_beta[d]
            )
            if not done:
                f_alpha[d] = a
                f_beta[d] = b
                f_a[d] = a
                f_b[d] = b
                previous = 0 if f_leading[d] else f_code[d]
                n = _generate(hands[mover], previous, sf_bomb, stack, f_sp[d], order)
                if n < 0 or d + 1 >= MAX_DEPTH:
                    stats[OVERFLOW] = 1
                    return 0
                f_n[d] = n
                f_t[d] = 0
                f_best[d] = -1000 if (mover & 1) == 0 else 1000
                f_applied[d] = -1
        else:
            done = False
        if not done:
            # Try the next move of depth d, or finish the node.
            mover = f_move[d]
            n = f_n[d]
            total = n if f_leading[d] else n + 1
            t = f_t[d]
            if t >= total or f_a[d] >= f_b[d]:
                value = f_best[d]
                _store(tt_keys, tt_lower, tt_upper, f_key[d], f_stored[d], value, f_alpha[d],
                       f_beta[d])
            else:
                f_t[d] = t + 1
                # Responding: pass first after a partner's play, last otherwise.
                if f_leading[d]:
                    i = t
                elif f_last[d] == ((mover + 2) & 3):
                    i = t - 1
                else:
                    i = t if t < n else -1
                holding = holding_mask(hands)
                e = d + 1
                f_sp[e] = f_sp[d] + n
                f_alpha[e] = f_a[d]
                f_beta[e] = f_b[d]
                if i < 0:
                    nxt, leads, _ = trick_next(holding, f_last[d], f_passes[d] + 1)
                    f_applied[d] = -1
                    f_first[e] = f_first[d]
                    f_move[e] = nxt
                    f_leading[e] = leads
                    f_code[e] = f_code[d]
                    f_last[e] = f_last[d]
                    f_passes[e] = f_passes[d] + 1
                    d = e
                    entering = True
                    continue
                row = f_sp[d] + order[f_sp[d] + i]
                play = stack[row]
                _apply(hands[mover], play, -1)
                new_first = f_first[d]
                new_holding = holding
                if _cards(hands[mover]) == 0:
                    new_holding = holding & ~(1 << mover)
                    if new_first < 0:
                        new_first = mover
                if round_over(new_holding):
                    value = side0_points(new_first, new_holding, points)
                    _apply(hands[mover], play, 1)
                    f_applied[d] = -2  # already undone: only fold the value in
                    d = e  # fold below as if the child returned
                else:
                    f_applied[d] = row
                    nxt, leads, _ = trick_next(new_holding, mover, 0)
                    f_first[e] = new_first
                    f_move[e] = nxt
                    f_leading[e] = leads
                    f_code[e] = classify(play, sf_bomb)
                    f_last[e] = mover
                    f_passes[e] = 0
                    d = e
                    entering = True
                    continue
        # ``value`` is the result of depth d: return it to the parent.
        if d == 0:
            return value
        d -= 1
        mover = f_move[d]
        if f_applied[d] >= 0:
            _apply(hands[mover], stack[f_applied[d]], 1)
        if (mover & 1) == 0:
            f_best[d] = max(f_best[d], value)
            f_a[d] = max(f_a[d], f_best[d])
        else:
            f_best[d] = min(f_best[d], value)
            f_b[d] = min(f_b[d], f_best[d])


def new_table(bits: int = TT_BITS_DEFAULT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """An empty transposition table of 2**bits entries (keys, lower, upper)."""
    size = 1 << bits
    return (
        np.zeros(size, dtype=np.uint64),
        np.full(size, -1000, dtype=np.int16),
        np.full(size, 1000, dtype=np.int16),
    )
