# cython: language_level=3
"""Later tricks: tricks the side *not* on lead is sure to take, at the start of a trick.

``later_tricks(c, leader, need, wm)`` asks whether the leader's opponents surely
take at least ``need`` of the remaining tricks, by cheap rules, most general
first (each rule pins as few cards as it can, so that a transposition entry
built on the answer covers many positions):

* Trumps.  Each trump of an unbroken run from the top in one opponent's hand
  wins a trick.  When the leader's side holds no trump, every trump of the
  opponents' longer trump holding wins a trick (nobody can overruff; the
  partner's trump in the same trick still wins it for the side), whatever the
  ranks.  The top two trumps split between the two opponents win two tricks
  unless both are singletons (only then can they be made to fall together).
  When the leader's side holds the top trump but needs every trick, an
  opponent's guarded second-best trump still wins one if it sits over the top
  trump, or if the third-best trump is the opponents' too.
* One trick.  The leader's side can take every remaining trick only by
  leading each of them and winning it.  So the opponents take one when every
  suit the leader holds is topped by an opponent's card that the leader's
  partner cannot ruff; and, with no trumps left, when the suits topped by the
  leader's side are too short to give him one lead a trick: the number of
  leads in such a suit is at most its length in the longer hand of the side,
  and a suit topped by an opponent is never led to a trick the side wins.  A
  suit whose opponents' best card sits with a long enough guard gives fewer
  (``_guarded_suit``): the guard keeps that card to his last one.

Win ranks: the cards each rule relies on (the counted trumps; the top card of
each suit that must stay the opponents'; a guarded suit's best opponents' card, or the
last of the guard's cards equal to it that the count relies on).
"""

from libc.stdint cimport uint16_t

from solvers.bridge._bits cimport kth_highest, msb, popcount, top_winners
from solvers.bridge._types cimport NOTRUMP, Ctx


cdef inline int _holder(Ctx* c, int s, unsigned int bit) noexcept nogil:
    """Seat holding card ``bit`` of suit ``s`` (it must be in a hand)."""
    cdef int h
    for h in range(3):
        if c.hands[h][s] & bit:
            return h
    return 3


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
    h = _holder(c, t, 1u << msb(trumps))
    mine = c.hands[h][t]
    others = trumps & ~mine
    holder[0] = h
    if not others:
        return popcount(mine)  # every trump left: each wins a trick, ranks irrelevant
    k = top_winners(mine, others)
    low_bit[0] = kth_highest(mine, k)  # the lowest trump relied upon
    return k


cdef inline bint _guarded_second_trump(Ctx* c, int leader, int holder,
                                      uint16_t* wm) noexcept nogil:
    """The leader's side holds the top trump and must win every trick: does an
    opponent's guarded second-best trump still take one?  It does when it sits
    over the top trump (the leader's side leads every trick, so the top trump is
    always played first), or when the third-best trump is the opponents' too."""
    cdef int t = c.trump, second, third, h2, h3
    cdef unsigned int rest = c.remain[t] ^ (1u << msb(c.remain[t]))
    if not rest:
        return 0
    second = msb(rest)
    h2 = _holder(c, t, 1u << second)
    if ((h2 ^ leader) & 1) == 0 or popcount(c.hands[h2][t]) < 2:
        return 0
    if h2 == ((holder + 1) & 3):
        wm[t] = <uint16_t>(1u << second)
        return 1
    rest ^= 1u << second
    if not rest:
        return 0
    third = msb(rest)
    h3 = _holder(c, t, 1u << third)
    if ((h3 ^ leader) & 1) == 0:
        return 0
    wm[t] = <uint16_t>(1u << third)
    return 1


cdef inline bint _trump_tricks(Ctx* c, int leader, int need, uint16_t* wm) noexcept nogil:
    """The trump rules: do the opponents surely take ``need`` tricks with their trumps?"""
    cdef int t = c.trump, holder, low, k, lho, rho, second, h2
    cdef unsigned int trumps, rest
    lho = (leader + 1) & 3
    rho = (leader + 3) & 3
    if (c.hands[leader][t] | c.hands[(leader + 2) & 3][t]) == 0:
        k = popcount(c.hands[lho][t])
        if popcount(c.hands[rho][t]) > k:
            k = popcount(c.hands[rho][t])
        if k >= need:
            return 1  # lengths alone decide: no rank pinned
    k = top_trump_run(c, &holder, &low)
    if k == 0:
        return 0
    if ((holder ^ leader) & 1) == 0:
        return need == 1 and _guarded_second_trump(c, leader, holder, wm)
    if k >= need:
        if low >= 0:
            # only the run's top ``need`` trumps are relied upon
            wm[t] = <uint16_t>(1u << kth_highest(c.hands[holder][t], need))
        return 1
    if need == 2 and k == 1:
        trumps = c.remain[t]
        rest = trumps ^ (1u << msb(trumps))
        if rest:
            second = msb(rest)
            h2 = _holder(c, t, 1u << second)
            if h2 == (holder ^ 2) and (popcount(c.hands[holder][t]) > 1
                                       or popcount(c.hands[h2][t]) > 1):
                wm[t] = <uint16_t>(1u << second)
                return 1
    return 0


cdef inline bint _no_winning_lead(Ctx* c, int leader, uint16_t* wm) noexcept nogil:
    """Is every suit the leader holds topped by an opponent's card his partner cannot ruff?"""
    cdef int s, t = c.trump, partner = (leader + 2) & 3
    cdef unsigned int top
    cdef uint16_t pins[4]
    for s in range(4):
        pins[s] = 0
        if not c.hands[leader][s]:
            continue
        top = 1u << msb(c.remain[s])
        if (c.hands[leader][s] | c.hands[partner][s]) & top:
            return 0
        if (t != NOTRUMP and s != t and c.hands[partner][s] == 0
                and c.hands[partner][t] != 0):
            return 0  # partner may ruff
        pins[s] = <uint16_t>top
    for s in range(4):
        wm[s] = pins[s]
    return 1


cdef inline int _guarded_suit(Ctx* c, int leader, int s, int* guard,
                              unsigned int* pin) noexcept nogil:
    """Suit ``s``, topped by the leader's side: at most how many tricks led in it can the
    side win while X, the opponents' best card, stays with its holder (``guard``)?  -1 when
    the guard is too short to keep X to his last card.  ``pin`` gets the lowest card whose
    owner the count relies on (X, or the last of the guard's cards equal to X).

    The guard keeps X and plays a smaller card when a card above X is already in the
    trick, else X, which wins unless a card above X comes after it: only when the side
    hand after him holds one.  So each trick the side wins in the suit takes one of its
    t cards above X, or, when the hand after the guard (F's partner) holds one, a lead of
    one of F's other cards (F: the hand before the guard) to which F's partner, who must
    follow, plays one of his cards below X: at most the fewer of the two hands' cards
    below X.  The guard's cards equal to X (his run down from X among the cards left),
    played on the first such leads, make F's partner beat them with a card above X: each
    but one takes away one of those leads.  With more smaller cards than that, the guard
    never has to play X, and discarding the suit only when it is all he holds, he keeps X
    to his last card."""
    cdef unsigned int opp = c.hands[(leader + 1) & 3][s] | c.hands[(leader + 3) & 3][s]
    cdef unsigned int x, above, low, below
    cdef int g, f, b, small, leads
    if not opp:
        return -1
    x = 1u << msb(opp)
    above = c.remain[s] & ~((x << 1) - 1)
    g = (leader + 1) & 3 if c.hands[(leader + 1) & 3][s] & x else (leader + 3) & 3
    f = (g + 3) & 3
    b = popcount(above)
    pin[0] = x
    if c.hands[f ^ 2][s] & above:
        small = popcount(c.hands[f ^ 2][s] & ~above)
        leads = popcount(c.hands[f][s] & ~above)
        if leads < small:
            small = leads
        # the guard's run of cards equal to X takes away all but one of them
        low = x
        below = c.remain[s] & (x - 1)
        while below and (c.hands[g][s] >> msb(below)) & 1:
            low = 1u << msb(below)
            leads -= 1
            below &= low - 1
        if leads < small:
            small = leads if leads > 0 else 0
            pin[0] = low
        b += small
    if popcount(c.hands[g][s]) <= b:
        return -1
    guard[0] = g
    return b


cdef inline bint _leads_run_out(Ctx* c, int leader, int n, uint16_t* wm) noexcept nogil:
    """With no trumps left: are the suits topped by the leader's side too short for ``n``
    winning leads?  Each such suit gives at most its length in the longer hand of the side;
    a suit topped by an opponent none (he keeps the top card).  A guarded suit
    (``_guarded_suit``) may give fewer, one for each opponent, but its guard spends his
    other cards first: the suits he tops then give their length in the side's longer hand
    too."""
    cdef int s, h, a, b, k, g, total = 0, mode = -1
    cdef unsigned int x
    cdef int longer[4]
    cdef int tops[4]
    cdef int cut[2]        # by opponent (0: the leader's left, 1: his right): the best cut
    cdef int cut_suit[2]   # the suit giving it
    cdef uint16_t cut_pin[2]  # and the lowest card its count relies on
    cdef int topped[2]     # the longer lengths of the suits he tops
    for k in range(2):
        cut[k] = 0
        cut_suit[k] = -1
        topped[k] = 0
    for s in range(4):
        tops[s] = -1
        longer[s] = 0
        if not c.remain[s]:
            continue
        h = _holder(c, s, 1u << msb(c.remain[s]))
        tops[s] = h
        a = popcount(c.hands[leader][s])
        b = popcount(c.hands[leader ^ 2][s])
        longer[s] = a if a > b else b
        if ((h ^ leader) & 1) == 0:
            total += longer[s]
        else:
            topped[((h - leader) & 3) >> 1] += longer[s]
    if total >= n:
        for s in range(4):
            if tops[s] < 0 or ((tops[s] ^ leader) & 1):
                continue
            b = _guarded_suit(c, leader, s, &g, &x)
            k = ((g - leader) & 3) >> 1
            if b >= 0 and longer[s] - b > cut[k]:
                cut[k] = longer[s] - b
                cut_suit[k] = s
                cut_pin[k] = <uint16_t>x
        if total - cut[0] + topped[0] < n:
            mode = 0
        elif total - cut[1] + topped[1] < n:
            mode = 1
        elif total - cut[0] - cut[1] + topped[0] + topped[1] < n:
            mode = 2
        else:
            return 0
    for s in range(4):
        wm[s] = 0
        if tops[s] < 0:
            continue
        k = ((tops[s] - leader) & 3) >> 1
        if s == cut_suit[0] and mode != 1:
            wm[s] = cut_pin[0]  # X (and its equals): the cards above and their holders
        elif s == cut_suit[1] and mode >= 1:
            wm[s] = cut_pin[1]
        elif ((tops[s] ^ leader) & 1) and mode != 2 and k != mode and c.remain[s] != c.hands[tops[s]][s]:
            wm[s] = <uint16_t>(1u << msb(c.remain[s]))  # must stay the opponents'
    return 1


cdef inline bint later_tricks(Ctx* c, int leader, int n, int need, uint16_t* wm) noexcept nogil:
    """Do the opponents of ``leader`` surely take at least ``need`` of the ``n`` tricks
    left?  ``wm`` gets the win ranks relied upon (only when the answer is yes)."""
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0
    if need <= 0:
        return 1
    if c.trump != NOTRUMP and c.remain[c.trump] and _trump_tricks(c, leader, need, wm):
        return 1
    if need != 1:
        return 0
    if _no_winning_lead(c, leader, wm):
        return 1
    if c.trump == NOTRUMP or c.remain[c.trump] == 0:
        return _leads_run_out(c, leader, n, wm)
    return 0
