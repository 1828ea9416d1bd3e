# cython: language_level=3
"""Move generation and ordering.

Generation: the legal cards of the player to move (follow suit when able),
one move per group of *equivalent* cards — cards of one hand with no card of
another hand between them among the cards not yet gone in completed tricks
(cards on the table in the current trick still separate them: playing the K
or the J over a Q on the table differs).  ``Move.seq`` holds the group.

Ordering: a weight per move by the seat's place in the trick, in the spirit
of DDS's empirical weights: lead winners, lead towards partner's winners,
duck second hand (always when partner, last to play, tops the suit), third
hand low unless it wins surely or forces out the fourth hand's top card, win
as cheaply as possible fourth hand, ruff when partner is not winning, discard
low cards from long suits; plus, for the lead, the killer move of this ply.
"""

from solvers.bridge._bits cimport lsb, msb, popcount
from solvers.bridge._types cimport MAX_PLY, NOTRUMP, Ctx, Move


cdef inline int _top(unsigned int mask) noexcept nogil:
    """Index of the highest card in ``mask``, or -1 when empty."""
    if mask:
        return msb(mask)
    return -1


cdef inline int _add_suit(Ctx* c, int seat, int s, Move* out, int n) noexcept nogil:
    cdef unsigned int mine = c.hands[seat][s]
    cdef unsigned int others = c.remain[s] & ~mine
    cdef unsigned int seq, below
    cdef int top
    while mine:
        top = msb(mine)
        # the group runs down from ``top`` to just above the next card of another hand
        below = others & ((1u << top) - 1u)
        seq = mine & ~((2u << msb(below)) - 1u) if below else mine
        out[n].suit = s
        out[n].rank = top
        out[n].seq = <unsigned short>seq
        out[n].weight = 0
        n += 1
        mine &= ~seq
    return n


cdef inline int gen_moves(Ctx* c, int seat, Move* out) noexcept nogil:
    """Fill ``out`` with one move per group of equivalent legal cards; return the count."""
    cdef int s, n = 0
    if c.pos > 0:
        s = c.trick_suit[0]
        if c.hands[seat][s]:
            return _add_suit(c, seat, s, out, 0)
    for s in range(4):
        n = _add_suit(c, seat, s, out, n)
    return n


cdef inline int _alternatives(Ctx* c, int seat, int s) noexcept nogil:
    """Cards ``seat`` may choose from when suit ``s`` is led (all of them when void)."""
    cdef int k = popcount(c.hands[seat][s])
    if k == 0:
        k = popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
            + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])
    return k


cdef inline bint _second_and_third(Ctx* c, int seat, int pard, int s, int second,
                                   int third) noexcept nogil:
    """The leader's side holds the second and third best cards of suit ``s``: partner
    both, or one each with partner not down to a singleton (it must still follow)."""
    cdef unsigned int mine = c.hands[seat][s], his = c.hands[pard][s]
    if (his >> second) & 1 and (his >> third) & 1:
        return 1
    return ((((mine >> second) & 1 and (his >> third) & 1)
             or ((his >> second) & 1 and (mine >> third) & 1))
            and popcount(his) > 1)


cdef inline int _lead_weight(Ctx* c, int seat, int s, int r, unsigned int seq) noexcept nogil:
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pard = (seat + 2) & 3
    cdef int trump = c.trump
    cdef int opp_top = _top(c.hands[lho][s] | c.hands[rho][s])
    cdef int pard_top = _top(c.hands[pard][s])
    cdef int w = 0, top, second, third
    cdef bint ruff_risk = 0
    if trump != NOTRUMP and s != trump:
        ruff_risk = ((c.hands[lho][s] == 0 and c.hands[lho][trump] != 0)
                     or (c.hands[rho][s] == 0 and c.hands[rho][trump] != 0))
    if r > opp_top and not ruff_risk:
        w = 100 + r  # a winner; the top of the suit first keeps entries flexible
        if pard_top > r:
            w -= 30  # partner's winner would cover it anyway
        if opp_top >= 0 and (c.hands[rho][s] >> opp_top) & 1:
            w -= 20  # cashing it promotes RHO's top card, which then sits over partner
    elif pard_top > opp_top and not ruff_risk:
        w = 70 - r  # lead low towards partner's winner
    else:
        w = 30 - r
        if ruff_risk:
            w -= 40
        # leading into the opponent sitting over the top cards tends to cost
        if c.hands[lho][s] and _top(c.hands[lho][s]) > r and r + 1 < 13:
            w -= 10
        top = _top(c.remain[s])
        second = _top(c.remain[s] & ~(1u << top))
        if (c.hands[rho][s] >> top) & 1 or (second >= 0 and (c.hands[rho][s] >> second) & 1):
            w -= 10  # RHO's high card sits over ours
        elif (c.hands[lho][s] >> top) & 1 and second >= 0 \
                and ((c.hands[seat][s] | c.hands[pard][s]) >> second) & 1:
            w += 30  # LHO's top card is caught under our second-best
        third = _top(c.remain[s] & ~(1u << top) & ~(1u << second)) if second >= 0 else -1
        if third >= 0 and _second_and_third(c, seat, pard, s, second, third):
            w += 45  # once the top card is gone, our side wins the next round
        if r == second and (seq & (seq - 1)):
            w += 25  # a sequence knocking out the top card
    if trump != NOTRUMP and s != trump and c.hands[pard][s] == 0 and c.hands[pard][trump]:
        w += 25  # partner can ruff
    if trump != NOTRUMP and s == trump and opp_top < 0:
        w -= 30  # no trumps out: leading them wastes a tempo
    if c.hands[pard][s] == 0 and (trump == NOTRUMP or c.hands[pard][trump] == 0):
        w -= 45  # partner can neither follow nor ruff: he takes no trick in the suit
    # short suits of the opponents are where tricks run out
    w -= 14 * (_alternatives(c, lho, s) + _alternatives(c, rho, s))
    return w


cdef inline bint _fourth_beats(Ctx* c, int lead_suit, int ws, int wr) noexcept nogil:
    """Can the fourth hand beat the card now winning the trick?"""
    cdef int fourth = (c.leader + 3) & 3
    if c.hands[fourth][lead_suit]:
        return ws == lead_suit and msb(c.hands[fourth][lead_suit]) > wr
    if c.trump == NOTRUMP or not c.hands[fourth][c.trump]:
        return 0
    return ws != c.trump or msb(c.hands[fourth][c.trump]) > wr


cdef inline bint _partner_tops(Ctx* c, int seat, int lead_suit) noexcept nogil:
    """Second hand's partner holds a card of the led suit above every other one left."""
    cdef unsigned int pard = c.hands[(seat + 2) & 3][lead_suit]
    cdef unsigned int third = c.hands[(seat + 1) & 3][lead_suit]
    if not pard:
        return 0
    if (c.trump != NOTRUMP and lead_suit != c.trump and not third
            and c.hands[(seat + 1) & 3][c.trump]):
        return 0  # the third hand may ruff
    return msb(pard) > c.trick_rank[0] and (not third or msb(pard) > msb(third))


cdef inline int _third_hand_weight(Ctx* c, int seat, int ls, int r, unsigned int seq, int wr,
                                   bint pard_winning) noexcept nogil:
    """Third hand, able to beat the card winning the trick but not the fourth hand's top
    card: low, except the cheapest card that forces that top card out (one above the
    fourth hand's next card that is not equal to it), or, with the second hand winning,
    the cheapest card that beats it."""
    cdef unsigned int h4 = c.hands[(c.leader + 3) & 3][ls], below, mine
    cdef int top = msb(h4), second = -1, force
    below = c.remain[ls] & ~h4 & ((1u << top) - 1u)
    if below:
        below = h4 & ((1u << msb(below)) - 1u)  # the fourth hand's cards not equal to its top
        if below:
            second = msb(below)
    if second > wr:
        force = second
    elif pard_winning or second < 0:
        return 20 - r  # partner's card already forces the top card, or nothing to force
    else:
        force = wr
    mine = c.hands[seat][ls] & ~((2u << force) - 1u)
    if mine and (seq >> lsb(mine)) & 1:
        return 40 - r
    return 20 - r


cdef inline int _follow_weight(Ctx* c, int seat, int s, int r, unsigned int seq) noexcept nogil:
    """Weight of a card for the 2nd, 3rd or 4th hand (following, ruffing or discarding)."""
    cdef int pos = c.pos
    cdef int lead_suit = c.trick_suit[0]
    cdef int ws = c.trick_suit[c.win_pos], wr = c.trick_rank[c.win_pos]
    cdef int trump = c.trump
    cdef int win_seat = (c.leader + c.win_pos) & 3
    cdef bint pard_winning = ((win_seat ^ seat) & 1) == 0
    cdef bint beats = (s == ws and r > wr) or (s == trump and ws != trump)
    cdef int later, later_top, i, len_s, w
    cdef bint sure = 1
    # would the card still win against the players after us?
    if beats:
        for i in range(pos + 1, 4):
            later = (c.leader + i) & 3
            if (later ^ seat) & 1 == 0:
                continue  # partner
            if s == lead_suit:
                later_top = _top(c.hands[later][s])
                if later_top > r:
                    sure = 0
                elif later_top < 0 and trump != NOTRUMP and s != trump and c.hands[later][trump]:
                    sure = 0
            else:
                # we ruff; the later opponent can overruff only when void in the led suit
                if c.hands[later][lead_suit] == 0 and _top(c.hands[later][trump]) > r:
                    sure = 0
    if s == lead_suit:
        # partner's card wins unless the fourth hand can still beat it
        if pard_winning and (pos == 3 or not _fourth_beats(c, lead_suit, ws, wr)):
            return 20 - r  # partner has it: play low
        if pos == 1 and _partner_tops(c, seat, lead_suit):
            return 20 - r  # partner, last to play, wins anyway: do not crash his winner
        if beats:
            if sure:
                return 80 - r  # win as cheaply as surely possible
            if pos == 3:
                return 80 - r
            if pos == 2:
                if c.hands[(c.leader + 3) & 3][lead_suit]:
                    return _third_hand_weight(c, seat, lead_suit, r, seq, wr, pard_winning)
                return 50 - r  # third hand high
            if popcount(c.remain[s] >> (c.trick_rank[0] + 1)) <= 3:
                return 45 - r  # second hand covers an honour (one of the top four cards left)
            return 20 - r  # second hand low
        return 20 - r
    if s == trump and trump != NOTRUMP:
        if pard_winning and (pos == 3 or not _fourth_beats(c, lead_suit, ws, wr)):
            return -20 - r  # do not ruff partner's winner
        if beats:
            return (75 if sure else 40) - r
        return -30 - r  # underruff: a waste
    # discard: low cards from long suits, keep winners
    len_s = popcount(c.hands[seat][s])
    w = 2 * len_s - r
    if r == _top(c.remain[s]):
        w -= 20
    return w


cdef inline void order_moves(Ctx* c, int seat, Move* moves, int n, int ply) noexcept nogil:
    cdef int i, j
    cdef Move tmp
    cdef int killer = c.killer[ply]
    for i in range(n):
        if c.pos == 0:
            moves[i].weight = _lead_weight(c, seat, moves[i].suit, moves[i].rank, moves[i].seq)
        else:
            moves[i].weight = _follow_weight(c, seat, moves[i].suit, moves[i].rank, moves[i].seq)
        if c.pos == 0 and killer == moves[i].suit * 16 + moves[i].rank:
            # the lead that last cut off at this depth (or a table answer's lead); a
            # bonus to followers' killers measured as doubling the search, so only
            # leads get it
            moves[i].weight += 80
    # insertion sort, heaviest first (at most 13 moves)
    for i in range(1, n):
        tmp = moves[i]
        j = i - 1
        while j >= 0 and moves[j].weight < tmp.weight:
            moves[j + 1] = moves[j]
            j -= 1
        moves[j + 1] = tmp
