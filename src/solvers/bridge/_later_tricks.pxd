# cython: language_level=3
"""Later tricks: tricks the side *not* on lead is sure to take, at the start of a trick.

The holder of the highest trump always wins a trick with it (any trick it is
played to is won by it), and so does each further trump of an unbroken run
from the top held in the same hand.  So in a suit contract, when an opponent
of the leader holds the top trumps, the leader's side loses at least that
many tricks.  (In notrump a top card can be squeezed away, so nothing is sure.)

Win ranks: the lowest trump of the counted run.
"""

from libc.stdint cimport uint16_t

from solvers.bridge._bits cimport kth_highest, msb, popcount, top_winners
from solvers.bridge._types cimport NOTRUMP, Ctx


cdef inline int top_trump_run(Ctx* c, int* holder, int* low_bit) noexcept nogil:
    """Length of the run of top trumps in the hand holding the highest trump (0 if none)."""
    cdef int t = c.trump, h, k
    cdef unsigned int trumps, mine, others
    holder[0] = -1
    low_bit[0] = -1
    if t == NOTRUMP:
        return 0
    trumps = c.remain[t]
    if not trumps:
        return 0
    for h in range(4):
        if c.hands[h][t] >> msb(trumps):
            break
    mine = c.hands[h][t]
    others = trumps & ~mine
    holder[0] = h
    if not others:
        return popcount(mine)  # every trump left: each wins a trick, ranks irrelevant
    k = top_winners(mine, others)
    low_bit[0] = kth_highest(mine, k)  # the lowest trump relied upon
    return k


cdef inline int later_tricks(Ctx* c, int leader, uint16_t* wm) noexcept nogil:
    """Sure tricks for the opponents of ``leader``; ``wm`` gets the win ranks relied upon."""
    cdef int holder, low, k
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0
    k = top_trump_run(c, &holder, &low)
    if k == 0 or ((holder ^ leader) & 1) == 0:
        return 0
    if low >= 0:
        wm[c.trump] = <uint16_t>(1u << low)
    return k
