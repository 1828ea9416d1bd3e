# cython: language_level=3
"""Fewer win ranks for a quick-trick count with tricks to spare.

A quick-trick cutoff needs only ``need`` sure tricks, but the counts add up every
winner of every suit, and each counted winner pins the cards down to it: AKQ
counted as three pins the queen even when the ace alone reaches ``need``.  The
table entries of the nodes above a cutoff are built on the union of such pins,
so each card pinned for nothing narrows them.  As DDS's QuickTricks stops
counting (and pinning) as soon as the cutoff is reached, the surplus is given
back here: whole suits first, those pinning the most cards, then the lowest
counted winners of a suit.  Counting fewer winners of a suit than it holds is
always sure (the hand cashes only its top ones), so the smaller count, with its
smaller pins, still reaches ``need``.
"""

from libc.stdint cimport uint16_t

from solvers.bridge._bits cimport kth_highest, lsb, popcount
from solvers.bridge._types cimport Ctx


cdef inline void drop_spare(Ctx* c, uint16_t* mine, int* counted, int* tops,
                            uint16_t* base, int surplus, int fixed,
                            uint16_t* wm) noexcept nogil:
    """Count ``surplus`` fewer tricks over the suits, pinning fewer cards in ``wm``.

    Suit ``s`` counted ``counted[s]`` tricks: its ``tops[s]`` highest cards of
    ``mine[s]`` (each above every other card out) and, past them, cards winning by
    length (``tops[s]`` of -1: a count that is only all or nothing).  Dropped
    whole, its pins fall back to ``base[s]`` (cards pinned for another reason; none
    when ``base`` is NULL); cut
    to its top ``k`` cards, it pins the ``k``-th highest.  Suit ``fixed`` keeps its
    count (other counts rely on it).
    """
    cdef int s, best_s, depth, best_depth, keep, by_length
    cdef bint done[4]
    cdef uint16_t floor[4]
    for s in range(4):
        floor[s] = base[s] if base != NULL else 0
        done[s] = counted[s] == 0 or wm[s] == floor[s] or s == fixed
    while surplus > 0:
        best_s = -1
        best_depth = 0
        for s in range(4):
            if not done[s]:
                depth = popcount(c.remain[s] >> lsb(wm[s]))  # the slots the pins cover
                if depth > best_depth:
                    best_depth = depth
                    best_s = s
        if best_s < 0:
            return
        s = best_s
        done[s] = 1
        if counted[s] <= surplus:
            surplus -= counted[s]
            wm[s] = floor[s]
            continue
        by_length = counted[s] - tops[s]
        if tops[s] <= 0 or by_length > surplus:
            continue
        keep = counted[s] - surplus  # at least 1, at most tops[s]
        surplus = 0
        wm[s] = <uint16_t>(floor[s] | (1u << kth_highest(mine[s], keep)))
