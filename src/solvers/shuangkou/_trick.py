"""Trick procedure and round result on seat bit masks.

Seats 0–3 play in increasing order; partners sit opposite (side = seat & 1).
``holding`` is a 4-bit mask of the seats that still hold cards after the last
play.
"""

from __future__ import annotations

from numba import njit, prange


@njit(cache=True, nogil=True)
def trick_next(holding, last_player, passes):
    """Who acts after ``passes`` passes since ``last_player``'s play.

    Returns ``(seat, leads, jiefeng)``: the seat on turn, whether it leads a new
    trick, and whether it leads as the partner of a finished last player (接风).
    ``passes`` must not exceed the number of other holders.
    """
    k = 0
    first = -1
    for step in range(1, 4):
        seat = (last_player + step) & 3
        if (holding >> seat) & 1:
            if first < 0:
                first = seat
            if k == passes:
                return seat, False, False
            k += 1
    if (holding >> last_player) & 1:
        return last_player, True, False
    partner = (last_player + 2) & 3
    if (holding >> partner) & 1:
        return partner, True, True
    return first, True, False


@njit(cache=True, nogil=True)
def other_holders(holding, last_player):
    """The number of holders other than ``last_player`` (the passes that end a trick)."""
    n = 0
    for step in range(1, 4):
        n += (holding >> ((last_player + step) & 3)) & 1
    return n


@njit(cache=True, nogil=True, parallel=True)
def trick_next_batch(holding, last_player, passes, seat, leads, jiefeng):
    """:func:`trick_next` over arrays (outputs ``seat``, ``leads``, ``jiefeng``)."""
    for i in prange(holding.shape[0]):
        s, ld, jf = trick_next(holding[i], last_player[i], passes[i])
        seat[i] = s
        leads[i] = ld
        jiefeng[i] = jf


@njit(cache=True, nogil=True)
def round_over(holding):
    """A side has no holder left: both of its seats finished."""
    return (holding & 5) == 0 or (holding & 10) == 0


@njit(cache=True, nogil=True)
def partner_place(first, holding):
    """The 1-based finishing place of the first finisher's partner at round end
    (2 = double win, 3, or 4 when the opponents both finished before).

    ``holding`` is the holder mask when the round ended."""
    partner = (first + 2) & 3
    opponents = 10 if (first & 1) == 0 else 5
    if (holding >> partner) & 1:
        return 4
    if (holding & opponents) == opponents:
        return 2
    return 3


@njit(cache=True, nogil=True)
def side0_points(first, holding, points):
    """Points of side 0 at round end (``points`` = (P2, P3, P4), zero-sum)."""
    value = points[partner_place(first, holding) - 2]
    return value if (first & 1) == 0 else -value
