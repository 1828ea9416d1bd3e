# cython: language_level=3
"""Quick tricks: sure tricks for the side on lead, counted at the start of a trick.

The leader cashes, suit by suit, the cards that beat every other card of the
suit still out (keeping the lead since it wins each trick); once those top
cards have drawn every other hand's cards of the suit, the rest of his suit
wins by length.  In a suit contract a side-suit winner only counts while every
opponent holding trumps still has to follow suit, and length winners only when
no opponent can ruff.  Partner's winners count too when the leader can reach
them.  When nothing can be ruffed (notrump, or the opponents out of trumps),
partner's winners are counted after the leader's run, so a second-best card
behind the leader's top one (Ax opposite Kx) counts, and so does a finesse
when the leader crosses in a suit where partner holds the top card and the
next card below the LHO's best (KJ over the LHO's Q: the LHO plays before
partner).  When that falls short and partner's top cards of a suit would leave
a card of the leader's high there (a blocked suit, or an opponent's short
holding dropped), the same count runs from partner's side: the leader leads
low to partner's top card, partner cashes first, then the leader.  With the
opponents out of trumps, every trump of the side wins a trick whenever it is
played: the longer holding alone counts that many, and the leader's own trumps add to the
side winners he cashes first, whatever their ranks.  Two rules of DDS's that
rely on suit lengths and the top two cards only (no lower card pinned, so the
entries built on them stay general): a suit the opponents are out of gives as
many tricks as the shorter of the side's two holdings; and the top two cards
split between the leader and a partner with exactly two cards, the opponents
holding two at most, give every card of the leader's (low to partner's top
card, his other card back).  Rules for such suits that compare lower cards
(the longer holding outlasting the shorter one) cut more positions but pinned
those cards, and cost 1-3 % more nodes over whole sets.

Win ranks: the lowest counted winner of each suit (all higher cards are the
same hand's), so a transposition entry built on a quick-trick cutoff only
matches positions where the same hands hold those top cards.  A count with
tricks to spare gives the surplus back before answering (``_spare_pins``): the
leader's own winners (the leader's run with nothing to ruff, his side-suit
winners in a suit contract) and the second hand's later winners in notrump pin
only the cards the cutoff needs.
"""

from libc.stdint cimport uint16_t

from solvers.bridge._bits cimport kth_highest, lsb, msb, popcount
from solvers.bridge._spare_pins cimport drop_spare
from solvers.bridge._types cimport NOTRUMP, Ctx


cdef inline bint _opponents_trumpless(Ctx* c, int leader) noexcept nogil:
    if c.trump == NOTRUMP:
        return 1
    return (c.hands[(leader + 1) & 3][c.trump] | c.hands[(leader + 3) & 3][c.trump]) == 0


cdef inline int _longest_other(Ctx* c, int hand, int s) noexcept nogil:
    """The most cards of suit ``s`` held by one of the other three hands."""
    cdef int k = popcount(c.hands[(hand + 1) & 3][s]), m
    m = popcount(c.hands[(hand + 2) & 3][s])
    if m > k:
        k = m
    m = popcount(c.hands[(hand + 3) & 3][s])
    return m if m > k else k


cdef inline int _cashable(Ctx* c, int hand, int s, int drawn, int* low_bit) noexcept nogil:
    """Winners ``hand`` can cash in suit ``s`` while on lead, capped by ruffs.

    ``drawn``: rounds of trumps the hand cashes first (its top trumps), which
    strip opponents with that many trumps or fewer.
    """
    cdef unsigned int mine = c.hands[hand][s]
    cdef unsigned int others, above
    cdef int w, limit, opp, high
    cdef bint ruffable
    low_bit[0] = -1
    if not mine:
        return 0
    others = c.remain[s] & ~mine
    high = 0
    above = mine
    if others:
        # the winners: the cards above every other hand's
        high = msb(others) + 1
        above = mine >> high
        if not above:
            return 0
    w = popcount(above)
    ruffable = 0
    if c.trump != NOTRUMP and s != c.trump:
        # an opponent who still has trumps after ``drawn`` rounds of trumps can ruff
        # once out of the suit
        limit = 13
        opp = (hand + 1) & 3
        if popcount(c.hands[opp][c.trump]) > drawn:
            ruffable = 1
            limit = popcount(c.hands[opp][s])
        opp = (hand + 3) & 3
        if popcount(c.hands[opp][c.trump]) > drawn:
            ruffable = 1
            if popcount(c.hands[opp][s]) < limit:
                limit = popcount(c.hands[opp][s])
        if w > limit:
            if limit == 0:
                return 0
            if others:
                low_bit[0] = kth_highest(mine, limit)  # the lowest card relied upon
            return limit
    if not others:
        return w
    low_bit[0] = lsb(above) + high  # the lowest card relied upon: the lowest winner
    if not ruffable and _longest_other(c, hand, s) <= w:
        # the top cards exhaust every other hand: the rest are winners by length
        return popcount(mine)
    return w


cdef inline unsigned int _drop_lowest(unsigned int mask, int k) noexcept nogil:
    """``mask`` without its ``k`` lowest cards."""
    while k > 0 and mask:
        mask &= mask - 1
        k -= 1
    return mask


cdef inline bint _top_two_split(Ctx* c, int leader, int s) noexcept nogil:
    """The leader and partner hold the top two cards of suit ``s``, one each, partner
    exactly two cards and the leader two or more, each opponent two at most: the leader
    leads low to partner's top card and partner returns his other card to the leader's
    (or the reverse), and the opponents are out by then: every card of the leader's wins
    and the lead stays with him.  Lengths and the top two cards only."""
    cdef int partner = (leader + 2) & 3
    cdef unsigned int rem = c.remain[s], ours, top2
    if popcount(c.hands[partner][s]) != 2 or popcount(c.hands[leader][s]) < 2:
        return 0
    if popcount(c.hands[(leader + 1) & 3][s]) > 2 or popcount(c.hands[(leader + 3) & 3][s]) > 2:
        return 0
    top2 = 1u << msb(rem)
    top2 |= 1u << msb(rem ^ top2)
    ours = top2 & c.hands[leader][s]
    return popcount(ours) == 1 and (top2 & c.hands[partner][s]) != 0


cdef inline int _leader_run(Ctx* c, int leader, int* cashed, unsigned int* rest_l,
                            uint16_t* wm, int* tops, int* shared) noexcept nogil:
    """The leader's winners with nothing to ruff, suit by suit (``cashed``), the cards he
    keeps after them (``rest_l``) and their win ranks; returns their total.  ``tops``:
    how many of a suit's counted cards are its top cards (-1: counted all or none).

    ``shared``: the most tricks of one suit the opponents are out of while the leader
    and partner both hold cards of it: each round both follow and one of them wins, so
    it gives as many tricks as the shorter of the two holdings, whatever the ranks."""
    cdef int s, t, high, k, lead_total = 0, partner = (leader + 2) & 3
    cdef unsigned int mine, others, above
    shared[0] = 0
    for s in range(4):
        # the leader's winners: his cards above every other hand's (no ruffs here), all
        # of his cards once they have drawn every other hand's
        wm[s] = 0
        cashed[s] = 0
        tops[s] = 0
        mine = c.hands[leader][s]
        rest_l[s] = mine
        if not mine:
            continue
        others = c.remain[s] & ~mine
        if not others:
            cashed[s] = popcount(mine)
            rest_l[s] = 0
            lead_total += cashed[s]
            continue
        if others == c.hands[partner][s]:
            # the opponents are out of the suit
            k = popcount(others)
            t = popcount(mine)
            if t < k:
                k = t
            if k > shared[0]:
                shared[0] = k
        high = msb(others) + 1
        above = mine >> high
        if not above:
            if s != c.trump and _top_two_split(c, leader, s):
                # partner's top card, then his other card back to the leader's second best
                cashed[s] = popcount(mine)
                rest_l[s] = 0
                lead_total += cashed[s]
                wm[s] = <uint16_t>(1u << msb(mine))
                tops[s] = -1
            continue
        t = lsb(above) + high  # the lowest card relied upon
        wm[s] = <uint16_t>(1u << t)
        k = popcount(above)
        tops[s] = k
        if _longest_other(c, leader, s) <= k:
            k = popcount(mine)
            rest_l[s] = 0
        elif k == 1 and s != c.trump and _top_two_split(c, leader, s):
            # a low card to partner's second best, then his other card back to the top card
            k = popcount(mine)
            rest_l[s] = 0
            wm[s] = <uint16_t>(1u << msb(others))
            tops[s] = -1
        else:
            rest_l[s] = mine & ((1u << t) - 1u)
        cashed[s] = k
        lead_total += k
    return lead_total


cdef inline bint _reaches_partner(Ctx* c, int leader, int* cashed,
                                  unsigned int* rest_l) noexcept nogil:
    """Can the leader cross to a winner of partner's after his run?  In a suit the leader
    keeps a card of, partner's top card must beat every card left there (disjoint
    holdings: the larger mask holds the higher top card)."""
    cdef int s, cs, partner = (leader + 2) & 3, lho = (leader + 1) & 3, rho = (leader + 3) & 3
    cdef unsigned int others
    for s in range(4):
        cs = cashed[s]
        if rest_l[s] and popcount(c.hands[partner][s]) > cs:
            others = rest_l[s]
            if popcount(c.hands[lho][s]) > cs:
                others |= c.hands[lho][s]
            if popcount(c.hands[rho][s]) > cs:
                others |= c.hands[rho][s]
            if c.hands[partner][s] > others:
                return 1
    return 0


cdef inline int _finesse_gain(unsigned int rest_p, unsigned int below, int q, int t, int k,
                              int* relied) noexcept nogil:
    """Partner's extra tricks when the leader leads towards him in a suit whose best card
    out of partner's hand is the LHO's ``q``: a card of partner's under ``q`` but above
    every other card out (``below``) wins the first round if the LHO plays low, else his
    top card wins it and that card is then high.  ``t``: partner's cards above ``q``;
    ``k``: the most cards another hand holds in the suit.  ``relied`` gets the card."""
    cdef unsigned int mid = rest_p & ((1u << q) - 1u)
    if below:
        mid &= ~((1u << (msb(below) + 1)) - 1u)
    if not mid:
        return 0
    relied[0] = msb(mid)
    if k <= t + 1:
        return popcount(rest_p) - t  # every other hand is out of the suit by then
    return 1


cdef inline int _leader_first(Ctx* c, int leader, int need, uint16_t* wm) noexcept nogil:
    """Notrump, or the opponents out of trumps: the leader cashes his winners, then
    crosses to partner, who cashes his.

    Partner follows the leader's winners with his lowest cards and the
    opponents keep their highest, so partner's winners are counted against
    what is left of every other hand after the leader's run: his second-best
    card behind the leader's top one (Ax opposite Kx) becomes a winner.  The
    leader crosses in a suit where he keeps a card and partner holds a
    winner.  Partner void in a suit the leader cashes discards his other cards
    first, then his winners, one trick lost each (not his low trumps: playing
    one would take the lead).  A hand left with trumps only wins every trick
    from then on, so a forced ruff never costs a trick.  Partner's win ranks
    are added only when his tricks are needed.
    """
    cdef int s, t, high, partner_total = 0, k, m, cs, trump = c.trump
    cdef int discards = 0, spare = 0, gain, best_gain = 0, best_s = 0, best_w = 0
    cdef int partner = (leader + 2) & 3, lho = (leader + 1) & 3, rho = (leader + 3) & 3
    cdef unsigned int above, rest_p, rest_a, rest_b, others
    cdef int cashed[4]
    cdef unsigned int rest_l[4]  # the leader's cards of each suit left after his run
    cdef uint16_t w, best_lw = 0
    cdef int tops[4]
    cdef int lead_total
    lead_total = _leader_run(c, leader, cashed, rest_l, wm, tops, &k)
    if k >= need:
        for s in range(4):
            wm[s] = 0
        return k
    if lead_total >= need:
        if lead_total > need:
            drop_spare(c, c.hands[leader], cashed, tops, NULL, lead_total - need, -1, wm)
        return lead_total
    if trump != NOTRUMP:
        # the leader's side winners, then every one of his trumps wins a trick
        # whenever it is played, whatever its rank
        k = lead_total - cashed[trump] + popcount(c.hands[leader][trump])
        if k >= need:
            wm[trump] = 0
            return k
    # partner's winners count only when the leader can reach one: tested first on its
    # own, since about half of the positions cannot
    if not _reaches_partner(c, leader, cashed, rest_l):
        return lead_total
    for s in range(4):
        cs = cashed[s]
        rest_p = c.hands[partner][s]
        k = popcount(rest_p)
        if cs >= k:
            discards += cs - k
            continue  # partner's cards of the suit all go under the leader's
        rest_a = c.hands[lho][s]
        rest_b = c.hands[rho][s]
        if cs:
            rest_p = _drop_lowest(rest_p, cs)
            rest_a = _drop_lowest(rest_a, cs)
            rest_b = _drop_lowest(rest_b, cs)
        others = rest_l[s] | rest_a | rest_b
        if others:
            high = msb(others) + 1
            above = rest_p >> high
            if not above:
                if s != trump:
                    spare += popcount(rest_p)
                continue
            t = popcount(above)
            w = <uint16_t>(1u << (lsb(above) + high))
            k = popcount(rest_l[s])
            m = popcount(rest_a)
            if m > k:
                k = m
            m = popcount(rest_b)
            if m > k:
                k = m
            if k <= t:
                t = popcount(rest_p)  # every other hand is out of the suit by then
            elif rest_l[s] and (rest_a >> (high - 1)) & 1:
                gain = _finesse_gain(rest_p, others ^ (1u << (high - 1)), high - 1, t, k, &m)
                if gain > best_gain:
                    best_gain = gain
                    best_s = s
                    best_w = m
                    best_lw = wm[s]  # the leader's win rank alone
            wm[s] |= w
        else:
            t = popcount(rest_p)
        partner_total += t
        if s != trump:
            spare += popcount(rest_p) - t
    if best_gain:
        # the leader crosses to partner in the suit of the finesse
        partner_total += best_gain
        wm[best_s] = best_lw | <uint16_t>(1u << best_w)
        if best_s != trump:
            spare -= best_gain
    if discards > spare:
        partner_total -= discards - spare
    return lead_total + partner_total


cdef inline int topped_lengths(Ctx* c, int leader) noexcept nogil:
    """A cheap ceiling on :func:`quick_tricks`: for every suit whose highest card still
    out is the leader's side's, the longer of the side's two holdings.  Every trick the
    counts below take is won in such a suit (a winner beats every card still out; the
    opponents' void suits are the side's alone; the side's trumps count when the
    opponents have none), and a suit gives the side at most one trick a round."""
    cdef int s, a, b, total = 0, partner = (leader + 2) & 3
    cdef unsigned int mine, his
    for s in range(4):
        mine = c.hands[leader][s]
        his = c.hands[partner][s]
        # disjoint holdings: the larger mask holds the higher top card
        if (mine | his) > (c.hands[(leader + 1) & 3][s] | c.hands[(leader + 3) & 3][s]):
            a = popcount(mine)
            b = popcount(his)
            total += a if a > b else b
    return total


cdef inline int _unblocking_suit(Ctx* c, int leader) noexcept nogil:
    """A suit where partner holds the top card and the leader a card that beats every
    opponent's card left once partner has cashed his winners there (partner's top cards
    unblock it, or drop an opponent's short holding); -1 when none."""
    cdef int s, t, partner = (leader + 2) & 3
    cdef unsigned int mine, his, rest, lho, rho
    for s in range(4):
        mine = c.hands[leader][s]
        his = c.hands[partner][s]
        rest = c.remain[s] & ~his
        if not mine or his < rest:
            continue  # disjoint holdings: the larger mask holds the higher top card
        t = popcount(his >> (msb(rest) + 1))  # partner's cards above every other card
        if popcount(mine) <= t:
            continue
        lho = c.hands[(leader + 1) & 3][s]
        rho = c.hands[(leader + 3) & 3][s]
        if popcount(lho) <= t:
            lho = 0
        if popcount(rho) <= t:
            rho = 0
        if mine > (lho | rho):
            return s
    return -1


cdef inline int _no_ruff_tricks(Ctx* c, int leader, int need, uint16_t* wm,
                                bint both_orders) noexcept nogil:
    """:func:`_leader_first`, and when it falls short (``both_orders``), the same count
    from partner's side where that can give more (:func:`_unblocking_suit`): the leader
    leads low to partner's top card of that suit (the first trick of partner's run there:
    the leader follows it with his lowest card either way) and partner is on lead.  Pins
    that top card.  Calls itself for partner's count, so that GCC keeps it out of
    ``search`` (inlined there, it left no room to inline ``_moves._add_suit``: suit
    contracts and tables searched 1-2 % slower)."""
    cdef int s, k = _leader_first(c, leader, need, wm)
    cdef uint16_t pwm[4]
    if k >= need or not both_orders:
        return k
    s = _unblocking_suit(c, leader)
    if s < 0:
        return k
    k = _no_ruff_tricks(c, (leader + 2) & 3, need, pwm, 0)
    if k >= need:
        wm[0] = pwm[0]
        wm[1] = pwm[1]
        wm[2] = pwm[2]
        wm[3] = pwm[3]
        wm[s] |= <uint16_t>(1u << msb(c.remain[s]))
    return k


cdef inline int quick_tricks(Ctx* c, int leader, int need, uint16_t* wm) noexcept nogil:
    """Sure tricks for the leader's side; ``wm`` receives the win ranks relied upon.

    Enough for ``need`` by the trumps alone when the opponents have none: every trump
    of the side's longer holding wins a trick, whatever the ranks (no win rank).
    """
    cdef int s, w, total = 0, partner = (leader + 2) & 3
    cdef int low, pw, p_total, k
    cdef unsigned int mine
    cdef uint16_t pwm[4]
    cdef int counted[4]
    cdef int tops[4]
    cdef int drawn = 0
    if c.trump == NOTRUMP:
        return _no_ruff_tricks(c, leader, need, wm, 1)
    if _opponents_trumpless(c, leader):
        w = popcount(c.hands[leader][c.trump])
        k = popcount(c.hands[partner][c.trump])
        if k > w:
            w = k
        if w >= need:
            for s in range(4):
                wm[s] = 0
            return w
        return _no_ruff_tricks(c, leader, need, wm, 1)
    drawn = _cashable(c, leader, c.trump, 0, &low)
    for s in range(4):
        wm[s] = 0
        counted[s] = w = _cashable(c, leader, s, drawn, &low)
        tops[s] = 0
        if w:
            total += w
            if low >= 0:
                wm[s] = <uint16_t>(1u << low)
                tops[s] = popcount(c.hands[leader][s] >> low)  # the top cards counted
    if total >= need:
        # the side-suit counts rely on the trumps drawn first: the trump count stays
        if total > need:
            drop_spare(c, c.hands[leader], counted, tops, NULL, total - need, c.trump, wm)
        return total
    # Entries to partner: leader leads a card of s, partner wins with a top card,
    # then cashes his own winners (the suit s ones included).
    p_total = 0
    for s in range(4):
        pwm[s] = 0
    drawn = _cashable(c, partner, c.trump, 0, &low)
    for s in range(4):
        w = _cashable(c, partner, s, drawn, &low)
        if w:
            p_total += w
            if low >= 0:
                pwm[s] = <uint16_t>(1u << low)
    if p_total > total:
        for s in range(4):
            mine = c.hands[leader][s]
            if not mine or not c.hands[partner][s]:
                continue
            if pwm[s] == 0 or _cashable(c, partner, s, 0, &low) == 0:
                continue  # no sure winner of partner's to enter with, before trumps are drawn
            # partner's lowest counted winner must beat all of the opponents' cards
            # (it does by construction) and the leader must be able to play under it
            if lsb(mine) > msb(c.hands[partner][s]):
                continue
            # the leader's own winners in s are not cashed first: count partner's
            # tricks only (the leader's card goes under), a safe lower bound
            for w in range(4):
                wm[w] = pwm[w]
            total = p_total
            break
    return total
