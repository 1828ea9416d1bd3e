# cython: language_level=3
"""Second-hand quick tricks: sure tricks for the side of the hand playing second to a trick.

The side surely wins the current trick when one of its hands can beat the led card and
every card the third hand can play; the hand that wins it then leads, so its sure
winners after this trick count too (DDS's QuickTricksSecondHand idea).  The counts for
the side on lead at the start of a trick are in :mod:`_quick_tricks`.
"""

from libc.stdint cimport uint16_t

from solvers.bridge._bits cimport kth_highest, msb, popcount, top_winners
from solvers.bridge._spare_pins cimport drop_spare
from solvers.bridge._types cimport NOTRUMP, Ctx


cdef inline int _trump_follow_up(Ctx* c, int seat, int hh, uint16_t* wm) noexcept nogil:
    """Second hand, suit contract: ``hh`` (the second hand or his partner) wins the
    current side-suit trick by rank and the third hand follows suit.  The winners
    ``hh`` cashes next: his top trumps, then his side-suit winners while every
    opponent with trumps left still follows.

    The other hand of the side must never be forced to ruff (it would take the
    lead): it needs a side-suit card for each side-suit trick counted.  The
    third hand's card of the led suit is not known: all of its cards stay out,
    and its length drops by one.
    """
    cdef int ls = c.trick_suit[0], t = c.trump, s, w, drawn, limit, k, total = 0
    cdef int other = hh ^ 2, lead = (seat + 3) & 3, third = (seat + 1) & 3
    cdef unsigned int mine, others
    cdef int side_cards = 0, side_tricks = 1
    for s in range(4):
        if s != t:
            side_cards += popcount(c.hands[other][s])
    mine = c.hands[hh][t]
    drawn = 0
    if mine:
        others = c.remain[t] & ~mine
        drawn = top_winners(mine, others)
        if drawn and others:
            wm[t] |= <uint16_t>(1u << kth_highest(mine, drawn))
    total = drawn
    # side-suit cards the other hand plays: this trick, and the trump leads it cannot follow
    if popcount(c.hands[other][t]) < drawn:
        side_tricks += drawn - popcount(c.hands[other][t])
    if side_cards < side_tricks:
        return 0
    for s in range(4):
        if s == t:
            continue
        mine = c.hands[hh][s]
        others = c.remain[s] & ~mine
        if s == ls:
            mine ^= 1u << msb(mine)  # the card that wins this trick
            others &= ~(1u << c.trick_rank[0])
        if not mine:
            continue
        w = top_winners(mine, others)
        if w == 0:
            continue
        limit = 13
        if popcount(c.hands[lead][t]) > drawn:
            limit = popcount(c.hands[lead][s])
        if popcount(c.hands[third][t]) > drawn:
            k = popcount(c.hands[third][s]) - (1 if s == ls else 0)
            if k < limit:
                limit = k
        if w > limit:
            w = limit
        if w > side_cards - side_tricks:
            w = side_cards - side_tricks
        if w <= 0:
            continue
        side_tricks += w
        total += w
        if others:
            wm[s] |= <uint16_t>(1u << kth_highest(mine, w))
    return total


cdef inline int second_hand_tricks(Ctx* c, int seat, int need, uint16_t* wm) noexcept nogil:
    """Sure tricks for the side of the second hand (``seat``, with partner still to play).

    The side surely wins the current trick when one of its hands can beat the led
    card and every card the third hand can play (no overruff possible); in a suit
    contract also when it can ruff a suit the third hand still follows.  In
    notrump the hand that wins then leads, so its top cards in every suit (the
    led suit after the winning card included) are sure tricks too; in a suit
    contract its top trumps and safe side-suit winners, when it wins a side suit
    by rank that the third hand follows.  Those later tricks are counted only
    when the side ``need``s more than this one.
    """
    cdef int ls = c.trick_suit[0], lr = c.trick_rank[0]
    cdef int partner = (seat + 2) & 3, third = (seat + 1) & 3, hh, s, w, k, total
    cdef unsigned int ours, mine, others, rest
    cdef int trump = c.trump
    cdef int counted[4]
    cdef uint16_t later[4]  # hh's cards after this trick
    cdef uint16_t base[4]
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0
    if trump != NOTRUMP and ls != trump and c.hands[third][ls] == 0 and c.hands[third][trump]:
        return 0  # the third hand may ruff or overruff
    ours = c.hands[seat][ls] | c.hands[partner][ls]
    if ours:
        if msb(ours) < lr or (c.hands[third][ls] and msb(ours) < msb(c.hands[third][ls])):
            return 0
        # the highest card of the suit on our side wins by rank
        wm[ls] = <uint16_t>(1u << msb(ours))
    else:
        if trump == NOTRUMP or ls == trump:
            return 0
        if not (c.hands[seat][trump] or c.hands[partner][trump]):
            return 0
        return 1  # we ruff and the third hand follows suit: a win by suit, ranks aside
    if need <= 1:
        return 1
    hh = seat if c.hands[seat][ls] >> msb(ours) else partner
    if trump != NOTRUMP:
        if ls == trump or not c.hands[third][ls]:
            return 1
        return 1 + _trump_follow_up(c, seat, hh, wm)
    total = 1
    for s in range(4):
        counted[s] = 0
        base[s] = wm[s]
        mine = c.hands[hh][s]
        if s == ls:
            mine ^= 1u << msb(mine)  # the card that wins this trick
        later[s] = <uint16_t>mine
        if not mine:
            continue
        others = c.remain[s] & ~c.hands[hh][s]
        if s == ls:
            others &= ~(1u << lr)
        w = top_winners(mine, others)
        if w == 0:
            continue
        total += w
        if others:
            counted[s] = w
            wm[s] |= <uint16_t>(1u << kth_highest(mine, w))
    if total > need:
        drop_spare(c, later, counted, counted, base, total - need, -1, wm)
    return total
