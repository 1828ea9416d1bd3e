# cython: language_level=3
"""The leader's side of move ordering: the facts of each suit for the lead (``_lead_suit``),
a weight per lead (``_lead_weight``), and the killer lead tried before any lead is
generated or weighed (``killer_lead``).

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
    # facts of one suit for the leader, the same for every card of it
    int opp_top, pard_top, lho_top, second
    bint ruff_risk, rho_over_top, rho_over, lho_caught, ours_next
    bint nt              # notrump: the weights tuned for it (below)
    bint short           # the leader holds fewer cards of the suit than partner
    bint over_pard       # the leader holds more cards of the suit than partner and a card
                         # above partner's top
    int bonus            # the card-independent terms


cdef inline void _lead_suit(Ctx* c, int seat, int s, LeadSuit* f) noexcept nogil:
    cdef int lho = (seat + 1) & 3, rho = (seat + 3) & 3, pard = (seat + 2) & 3
    cdef int trump = c.trump, top, second, third
    cdef unsigned int lho_s = c.hands[lho][s], rho_s = c.hands[rho][s], pard_s = c.hands[pard][s]
    f.opp_top = _top(lho_s | rho_s)
    f.pard_top = _top(pard_s)
    f.lho_top = _top(lho_s)
    f.ruff_risk = 0
    f.nt = trump == NOTRUMP
    f.short = popcount(c.hands[seat][s]) < popcount(pard_s)
    f.over_pard = (popcount(c.hands[seat][s]) > popcount(pard_s)
                   and _top(c.hands[seat][s]) > f.pard_top)
    if trump != NOTRUMP and s != trump:
        f.ruff_risk = ((lho_s == 0 and c.hands[lho][trump] != 0)
                       or (rho_s == 0 and c.hands[rho][trump] != 0))
    f.rho_over_top = f.opp_top >= 0 and (rho_s >> f.opp_top) & 1
    if f.nt and popcount(rho_s) == 1:
        f.rho_over_top = 0  # a singleton falls under our winner
    top = _top(c.remain[s])
    second = _top(c.remain[s] & ~(1u << top))
    f.second = second
    f.rho_over = (rho_s >> top) & 1 or (second >= 0 and (rho_s >> second) & 1)
    f.lho_caught = ((lho_s >> top) & 1 and second >= 0
                    and ((c.hands[seat][s] | pard_s) >> second) & 1)
    third = _top(c.remain[s] & ~(1u << top) & ~(1u << second)) if second >= 0 else -1
    f.ours_next = third >= 0 and _second_and_third(c, seat, pard, s, second, third)
    f.bonus = 0
    if trump != NOTRUMP and s != trump and pard_s == 0 and c.hands[pard][trump]:
        f.bonus += 45  # partner can ruff
    if trump != NOTRUMP and s == trump and f.opp_top < 0:
        f.bonus -= 30  # no trumps out: leading them wastes a tempo
    if pard_s == 0 and (trump == NOTRUMP or c.hands[pard][trump] == 0):
        f.bonus -= 45  # partner can neither follow nor ruff: he takes no trick in the suit
    # short suits of the opponents are where tricks run out
    f.bonus -= 14 * (_alternatives(c, lho, s) + _alternatives(c, rho, s))


cdef inline int _lead_weight(LeadSuit* f, int r, unsigned int seq) noexcept nogil:
    cdef int w
    if r > f.opp_top and not f.ruff_risk:
        w = 100 + r  # a winner; the top of the suit first keeps entries flexible
        if f.pard_top > r and not f.short:
            # partner's winner would cover it anyway; but the short hand's winner
            # first unblocks partner's longer holding
            w -= 30
        if f.rho_over_top:
            # cashing it promotes RHO's top card, which then sits over partner
            w -= 60 if f.nt else 20
    elif f.pard_top > f.opp_top and not f.ruff_risk:
        w = 100 - r  # lead low towards partner's winner
        if f.over_pard:
            # before our own higher winners: the short hand's winner first unblocks
            w += 20
    else:
        w = 30 - r
        if f.ruff_risk:
            w -= 20
        # leading into the opponent sitting over the top cards tends to cost (in notrump
        # the cards over it, below, say enough)
        if f.lho_top > r and r + 1 < 13 and not f.nt:
            w -= 10
        if f.rho_over:
            w -= 10  # RHO's high card sits over ours
        elif f.lho_caught:
            w += 45 if f.nt else 30  # LHO's top card is caught under our second-best
        if f.ours_next:
            # once the top card is gone, our side wins the next round: in notrump, where
            # the suit then runs, before cashing winners
            w += 90 if f.nt else 45
        if r == f.second and (seq & (seq - 1)):
            w += 25  # a sequence knocking out the top card
    return w + f.bonus


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
