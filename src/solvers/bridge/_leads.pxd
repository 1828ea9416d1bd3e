# cython: language_level=3
"""The leader's side of move ordering: the terms of each suit's lead weights that do not
depend on the card (``_lead_suit``; those of the cards that do not win, ``_low_leads``, only
for a suit that has such cards), a weight per lead from them in a few operations
(``winner_weight``, ``low_weight``), and the killer lead tried before any lead is generated
or weighed (``killer_lead``).

Lead weights, in the spirit of DDS's empirical weights: lead winners, lead towards
partner's winners (before our own higher winners when partner is the shorter hand: his
winner first unblocks), ruffs for partner, low from suits where the opponents' high cards
are caught or the next round is ours, and the suits the opponents are short in first.
``_moves.lead_moves`` weighs them as it generates them, in weight order.
"""

from solvers.bridge._bits cimport msb, popcount
from solvers.bridge._types cimport NOTRUMP, Ctx, Move


cdef inline int _top(unsigned int mask) noexcept nogil:
    """Index of the highest card in ``mask``, or -1 when empty."""
    if mask:
        return msb(mask)
    return -1


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


cdef struct LeadSuit:
    # the terms of one suit's lead weights that do not depend on the card (``_lead_suit``,
    # ``_low_leads``), so that a card's weight is a few operations (``winner_weight``,
    # ``low_weight``)
    int win_above        # a card above this rank wins (12: none, an opponent may ruff)
    int win_base         # a winner's weight less its rank
    int unblock          # a winner under partner's top card here weighs 30 less (-1: none)
    int low_base         # the weight of a card that does not win, plus its rank
    int under            # such a card under LHO's top card here weighs 10 less (-1: none)
    int second           # the second-best card still out: a sequence from it weighs 25 more
    int bonus            # the card-independent terms shared by both kinds
    bint ruff_risk


cdef inline void _lead_suit(Ctx* c, int seat, int s, LeadSuit* f) noexcept nogil:
    """The suit's card-independent terms, and those of its winners."""
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pard = (seat + 2) & 3
    cdef int trump = c.trump, opp_top, pard_top, bonus = 0
    cdef unsigned int lho_s = c.hands[lho][s], rho_s = c.hands[rho][s], pard_s = c.hands[pard][s]
    cdef unsigned int mine = c.hands[seat][s]
    opp_top = _top(lho_s | rho_s)
    f.ruff_risk = 0
    if trump != NOTRUMP:
        if s != trump:
            f.ruff_risk = ((lho_s == 0 and c.hands[lho][trump] != 0)
                           or (rho_s == 0 and c.hands[rho][trump] != 0))
            if pard_s == 0 and c.hands[pard][trump]:
                bonus += 45  # partner can ruff
        elif opp_top < 0:
            bonus -= 30  # no trumps out: leading them wastes a tempo
    if pard_s == 0 and (trump == NOTRUMP or c.hands[pard][trump] == 0):
        bonus -= 45  # partner can neither follow nor ruff: he takes no trick in the suit
    # short suits of the opponents are where tricks run out
    bonus -= 14 * (_alternatives(c, lho, s) + _alternatives(c, rho, s))
    f.bonus = bonus
    f.win_above = 12 if f.ruff_risk else opp_top
    if not mine >> (f.win_above + 1):
        return  # no winner: the rest of the terms are for winners
    pard_top = _top(pard_s)
    # a winner: the top of the suit first keeps entries flexible; partner's winner would
    # cover it anyway, but the short hand's winner first unblocks partner's longer holding
    f.unblock = pard_top if popcount(mine) >= popcount(pard_s) else -1
    f.win_base = 100 + bonus
    if opp_top >= 0 and (rho_s >> opp_top) & 1 and not (trump == NOTRUMP and popcount(rho_s) == 1):
        # cashing it promotes RHO's top card, which then sits over partner (in notrump a
        # singleton falls under our winner)
        f.win_base -= 60 if trump == NOTRUMP else 20


cdef inline void _low_leads(Ctx* c, int seat, int s, LeadSuit* f) noexcept nogil:
    """The terms of the suit's cards that do not win (after ``_lead_suit``)."""
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pard = (seat + 2) & 3
    cdef int top, second, third, opp_top = f.win_above, pard_top
    cdef bint nt = c.trump == NOTRUMP
    cdef unsigned int lho_s = c.hands[lho][s], rho_s = c.hands[rho][s], pard_s = c.hands[pard][s]
    cdef unsigned int mine = c.hands[seat][s]
    f.under = -1
    f.second = -1
    if not f.ruff_risk:
        pard_top = _top(pard_s)
        if pard_top > opp_top:
            f.low_base = 100 + f.bonus  # lead low towards partner's winner
            if popcount(mine) > popcount(pard_s) and msb(mine) > pard_top:
                # before our own higher winners: the short hand's winner first unblocks
                f.low_base += 20
            return
    f.low_base = 30 + f.bonus
    if f.ruff_risk:
        f.low_base -= 20
    if not nt:
        # leading into the opponent sitting over the top cards tends to cost (in notrump
        # the cards over it, below, say enough)
        f.under = _top(lho_s)
    top = msb(c.remain[s])
    second = _top(c.remain[s] & ~(1u << top))
    if (rho_s >> top) & 1 or (second >= 0 and (rho_s >> second) & 1):
        f.low_base -= 10  # RHO's high card sits over ours
    elif (lho_s >> top) & 1 and second >= 0 and ((mine | pard_s) >> second) & 1:
        f.low_base += 45 if nt else 30  # LHO's top card is caught under our second-best
    if second < 0:
        return
    f.second = second  # a sequence knocking out the top card
    third = _top(c.remain[s] & ~(1u << top) & ~(1u << second))
    if third >= 0 and _second_and_third(c, seat, pard, s, second, third):
        # once the top card is gone, our side wins the next round: in notrump, where
        # the suit then runs, before cashing winners
        f.low_base += 90 if nt else 45


cdef inline int winner_weight(LeadSuit* f, int r) noexcept nogil:
    """The weight of leading a group whose top card ``r`` wins (above ``f.win_above``)."""
    if f.unblock > r:
        return f.win_base + r - 30
    return f.win_base + r


cdef inline int low_weight(LeadSuit* f, int r, unsigned int seq) noexcept nogil:
    """The weight of leading the group ``seq`` (top card ``r``) that does not win
    (``_low_leads`` done)."""
    cdef int w = f.low_base - r
    if f.under > r:
        w -= 10
    if r == f.second and (seq & (seq - 1)):
        w += 25
    return w


cdef inline bint killer_lead(Ctx* c, int seat, int ply, Move* m) noexcept nogil:
    """The lead that last cut off at this ply, when the leader holds it and it is a sure
    winner (no card of the suit above it still out, no opponent able to ruff it): its
    group of equal cards in ``m``, to be searched before any other lead is generated or
    weighed.  Killers that are not sure winners are left to the weights, which often put
    another lead first (trying every killer first: +10 to +17 % nodes in suit contracts;
    the sure winners alone: fewer nodes, benches/README "Lazy leads")."""
    cdef int k = c.killer[ply], s, r, lho = (seat + 1) & 3, rho = (seat + 3) & 3
    cdef unsigned int mine, others, below, seq
    if k < 0:
        return 0
    s = k >> 4
    r = k & 15
    mine = c.hands[seat][s]
    others = c.remain[s] & ~mine
    if not (mine >> r) & 1 or others >> (r + 1):
        return 0  # not held, or a card above it is still out
    if c.trump != NOTRUMP and s != c.trump and (
            (c.hands[lho][s] == 0 and c.hands[lho][c.trump] != 0)
            or (c.hands[rho][s] == 0 and c.hands[rho][c.trump] != 0)):
        return 0  # an opponent may ruff it
    # the group: the held cards from just above the highest card of another hand below it
    below = others & ((1u << r) - 1u)
    seq = mine
    if below:
        seq &= ~((2u << msb(below)) - 1u)
    m.suit = s
    m.rank = msb(seq)
    m.seq = <unsigned short>seq
    return 1
