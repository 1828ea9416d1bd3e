# cython: language_level=3
"""Move generation and ordering.

Generation: the legal cards of the player to move (follow suit when able),
one move per group of *equivalent* cards — cards of one hand with no card of
another hand between them among the cards not yet gone in completed tricks
(cards on the table in the current trick still separate them: playing the K
or the J over a Q on the table differs).  ``Move.seq`` holds the group.

Ordering: a weight per move by the seat's place in the trick, in the spirit
of DDS's empirical weights: for leads, see :mod:`_leads`; duck second hand (always
when partner, last to play, tops the suit), third hand low unless it wins surely or
forces out the fourth hand's top card, win as cheaply as possible fourth hand, but
overtake partner's winner in notrump when our cards then run; ruff when partner is not
winning, discard low cards from long suits, keeping a guarded second-best card; plus,
for the lead, the killer move of this ply.  Leads and the cards of a player void in the
led suit get a weight each as they are generated and are then sorted by weight, a
stable sort counting for each move the moves above it (``lead_moves``, ``void_moves``,
``rank_sort``: each move stored whole, as one 8-byte word, so that moving it on does not
wait for its fields' stores); cards following suit fall into a few bands
(wins surely; third hand high, or the card that forces out the fourth hand's top;
second hand's cover; low), so they are put in band order directly, lowest card
first within a band: the order the weights gave, without weighing and sorting.
The move tried first is made alone where it often cuts off: a
follower's (``first_follower_move``: the bands decided before any card is generated,
or a void player's heaviest card found suit by suit) and the leader's killer when it
is a sure winner (``_leads.killer_lead``); the rest (``later_moves``) only when it does
not cut off.
"""

from libc.stdint cimport int32_t, uint32_t, uint64_t

from solvers.bridge._bits cimport lsb, msb, popcount
from solvers.bridge._leads cimport LeadSuit, _lead_suit, _low_leads, _top, killer_lead
from solvers.bridge._leads cimport low_weight, winner_weight
from solvers.bridge._types cimport NOTRUMP, Ctx, Move


cdef inline uint64_t _packed(int s, int r, unsigned int seq, int w) noexcept nogil:
    """A ``Move`` as the 8-byte word it is in memory (little-endian: the weight on top), so
    that the moves are stored and shifted whole: a move written field by field and then read
    whole waits for the fields' stores to drain."""
    return ((<uint64_t><uint32_t>w) << 32) | (<uint64_t>seq << 16) | (<uint64_t>r << 8) \
        | <uint64_t>s


cdef inline int _add_suit(Ctx* c, int seat, int s, Move* out, int n) noexcept nogil:
    cdef unsigned int mine = c.hands[seat][s]
    cdef unsigned int others = c.remain[s] & ~mine
    cdef unsigned int gone = ~c.remain[s] & 0x1FFFu
    cdef unsigned int seq, low, above
    cdef int i
    # a group's top card is the one whose next card still out above (gone cards carried
    # over, bit 13 when none) is not the same hand's: that many groups
    i = n + popcount((((mine << 1) + gone) & ~gone) & ~mine)
    n = i
    while mine:
        # from the lowest group up, stored from the last place down (the moves run from
        # the highest group down): a group runs up from its lowest card to just below
        # the next card of another hand
        low = mine & (~mine + 1u)
        above = others & (~(low << 1) + 1u)
        seq = mine & ((above & (~above + 1u)) - 1u)
        i -= 1
        (<uint64_t*>out)[i] = _packed(s, msb(seq), seq, 0)
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


cdef inline int _third_low(Ctx* c, int seat, int ls, int wr, bint pard_winning) noexcept nogil:
    """Third hand, able to beat the card winning the trick but not the fourth hand's top
    card, plays low, except the cheapest card that forces that top card out (one above the
    fourth hand's next card that is not equal to it), or, with the second hand winning,
    the cheapest card that beats it: the lowest such card of ours, or -1."""
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
        return -1  # partner's card already forces the top card, or nothing to force
    else:
        force = wr
    mine = c.hands[seat][ls] & ~((2u << force) - 1u)
    if mine:
        return lsb(mine)
    return -1


cdef inline void _play_low(Move* moves, int n) noexcept nogil:
    """Lowest card first: the moves were generated high first, so reversed."""
    cdef int i
    cdef Move tmp
    for i in range(n // 2):
        tmp = moves[i]
        moves[i] = moves[n - 1 - i]
        moves[n - 1 - i] = tmp


cdef inline int _overtake(Ctx* c, int seat, int ls, int wr) noexcept nogil:
    """Notrump, partner's card wins the trick: when our cards left after overtaking it
    with the cheapest card that beats it all stand above the opponents' cards, as many as
    the longer opponent holds, that card (the overtake comes first: it unblocks the suit
    and keeps the lead to run it); else -1."""
    cdef unsigned int mine = c.hands[seat][ls], over, rest
    cdef unsigned int lho = c.hands[(seat + 1) & 3][ls], rho = c.hands[(seat + 3) & 3][ls]
    cdef int o, opp_len
    over = mine & ~((2u << wr) - 1u)
    if not over:
        return -1
    o = lsb(over)
    rest = mine & ~(1u << o)
    opp_len = popcount(lho)
    if popcount(rho) > opp_len:
        opp_len = popcount(rho)
    if not rest or popcount(rest >> (_top(lho | rho) + 1)) < opp_len:
        return -1
    return o


cdef inline void _to_front(Move* moves, int suit, int card) noexcept nogil:
    """Move the move holding card (``suit``, rank ``card``) to the front, the others keeping
    their order."""
    cdef int k = 0
    cdef Move tmp
    while not (moves[k].suit == suit and (moves[k].seq >> card) & 1):
        k += 1
    tmp = moves[k]
    while k > 0:
        moves[k] = moves[k - 1]
        k -= 1
    moves[0] = tmp


cdef inline void _bands(Move* moves, int n, int sure, int beat, bint beaters_first,
                        int special) noexcept nogil:
    """Put the moves (generated high first) in band order, each band lowest card first:
    the cards that win surely (``moves[:sure]``), then the card holding rank ``special``
    when it is among the other cards that beat the trick (``moves[sure:beat]``), then
    those before (``beaters_first``) or after the cards that do not beat it."""
    cdef Move out[13]
    cdef int i, k = 0, first = -1
    for i in range(sure - 1, -1, -1):
        out[k] = moves[i]
        k += 1
    if special >= 0:
        for i in range(sure, beat):
            if (moves[i].seq >> special) & 1:
                first = i
                out[k] = moves[i]
                k += 1
                break
    if beaters_first:
        for i in range(beat - 1, sure - 1, -1):
            if i != first:
                out[k] = moves[i]
                k += 1
    for i in range(n - 1, beat - 1, -1):
        out[k] = moves[i]
        k += 1
    if not beaters_first:
        for i in range(beat - 1, sure - 1, -1):
            if i != first:
                out[k] = moves[i]
                k += 1
    for i in range(n):
        moves[i] = out[i]


cdef struct FollowPlan:
    # how the cards of the led suit are ordered at one node (``follow_plan``), decided
    # before any of them is generated: the move tried first is known from it alone
    bint low            # every card low first (then ``front`` first, when >= 0)
    int front           # the notrump overtake's card, or -1
    int over            # bands: ranks above ``over`` win surely (13: none)
    int wr              # the rank of the card winning the trick
    int special         # the forcing card of the third hand (``_third_low``), or -1
    bint beaters_first  # the cards that beat the trick before those that do not
    int first           # the lowest card of the move tried first


cdef inline void follow_plan(Ctx* c, int seat, FollowPlan* p) noexcept nogil:
    """Decide the order of the cards of the led suit (the player holds some), DDS-like: a
    card that beats the trick and every later opponent's card (no ruff possible, or fourth
    hand) first, the cheapest first; then the third hand high (when the fourth hand cannot
    follow: it may ruff), the cheapest card that forces the fourth hand's top card out
    (with the fourth hand following; otherwise the third hand plays low), the second hand's
    cover of an honour (one of the top four cards left); the rest low.  Low, too, when
    partner has the trick (except the notrump overtake), when partner, last to play, tops
    the suit, or when no card beats the trick."""
    cdef int pos = c.pos, ls = c.trick_suit[0], trump = c.trump, wr, over
    cdef bint pard_winning
    cdef unsigned int later, mine = c.hands[seat][ls], rest
    wr = c.trick_rank[c.win_pos]
    p.wr = wr
    p.low = 1
    p.front = -1
    p.first = lsb(mine)
    if c.trick_suit[c.win_pos] != ls or msb(mine) < wr:
        return  # no card beats the trick (it is higher, or a ruff)
    pard_winning = (((c.leader + c.win_pos) & 3) ^ seat) & 1 == 0
    if pard_winning and (pos == 3 or not _fourth_beats(c, ls, ls, wr)):
        if trump == NOTRUMP:
            p.front = _overtake(c, seat, ls, wr)
            if p.front >= 0:
                p.first = p.front
        return
    if pos == 1 and _partner_tops(c, seat, ls):
        return
    p.low = 0
    p.special = -1
    p.beaters_first = 1
    over = wr  # ranks above ``over`` win surely
    if pos < 3:
        # the one opponent still to play after us
        later = c.hands[(seat + 1) & 3][ls]
        if later:
            if msb(later) > over:
                over = msb(later)
        elif trump != NOTRUMP and ls != trump and c.hands[(seat + 1) & 3][trump]:
            over = 13  # he may ruff
        if pos == 2:
            if later:
                p.special = _third_low(c, seat, ls, wr, pard_winning)
                p.beaters_first = 0
        else:
            p.beaters_first = popcount(c.remain[ls] >> (c.trick_rank[0] + 1)) <= 3
    p.over = over
    # the move tried first: the cheapest sure winner, else the forcing card, else the
    # cheapest card that beats the trick or the lowest card, as the bands put them
    rest = mine & ~((2u << over) - 1u)
    if rest:
        p.first = lsb(rest)
    elif p.special >= 0:
        p.first = p.special
    else:
        rest = mine & ~((2u << wr) - 1u)
        if p.beaters_first or mine == rest:
            p.first = lsb(rest)


cdef inline void first_move(Ctx* c, int seat, int s, int low, Move* m) noexcept nogil:
    """The move of ``seat``'s group of equal cards of suit ``s`` whose lowest card is
    ``low`` (the group ``gen_moves`` makes of it)."""
    cdef unsigned int mine = c.hands[seat][s]
    cdef unsigned int above = c.remain[s] & ~mine & ~((2u << low) - 1u)
    cdef unsigned int seq = mine & ((above & (~above + 1u)) - 1u) & ~((1u << low) - 1u)
    (<uint64_t*>m)[0] = _packed(s, msb(seq), seq, 0)


cdef inline void follow_order(Move* moves, int n, FollowPlan* p) noexcept nogil:
    """Put the cards of the led suit (``n`` > 1 moves, generated high first) in the
    order of ``p``: each band lowest card first."""
    cdef int sure, beat
    if p.low:
        _play_low(moves, n)
        if p.front >= 0:
            _to_front(moves, moves[0].suit, p.front)
        return
    sure = 0
    while sure < n and moves[sure].rank > p.over:
        sure += 1
    beat = sure
    while beat < n and moves[beat].rank > p.wr:
        beat += 1
    _bands(moves, n, sure, beat, p.beaters_first, p.special)


cdef struct VoidNode:
    # facts of the trick so far for a player void in the led suit
    int ws, wr
    bint pard_has_it     # partner's card wins unless the fourth hand can still beat it
    int later_overruff   # the later opponents' top trump, among those void in the led suit


cdef inline void _void_node(Ctx* c, int seat, VoidNode* f) noexcept nogil:
    cdef int pos = c.pos, trump = c.trump, ls = c.trick_suit[0], i, later, t
    cdef bint pard_winning = (((c.leader + c.win_pos) & 3) ^ seat) & 1 == 0
    f.ws = c.trick_suit[c.win_pos]
    f.wr = c.trick_rank[c.win_pos]
    f.pard_has_it = pard_winning and (pos == 3 or not _fourth_beats(c, ls, f.ws, f.wr))
    f.later_overruff = -1
    if f.pard_has_it:
        return  # partner has the trick: the weights ask for no other fact
    for i in range(pos + 1, 4):
        later = (c.leader + i) & 3
        if (later ^ seat) & 1 == 0 or c.hands[later][ls]:
            continue  # partner, or an opponent who follows suit
        t = _top(c.hands[later][trump])
        if t > f.later_overruff:
            f.later_overruff = t


cdef inline int _void_weight(Ctx* c, VoidNode* f, int seat, int s, int r) noexcept nogil:
    """Weight of a card of a player void in the led suit (ruffing or discarding)."""
    cdef int trump = c.trump, w, n, top
    if s == trump:
        if f.pard_has_it:
            return -20 - r  # do not ruff partner's winner
        if f.ws != trump or r > f.wr:
            # we ruff; a later opponent can overruff only when void in the led suit
            return (75 if f.later_overruff < r else 40) - r
        return -30 - r  # underruff: a waste
    # discard: low cards from long suits, keep winners
    n = popcount(c.hands[seat][s])
    w = 2 * n - r
    top = _top(c.remain[s])
    if r == top:
        w -= 20
    elif n == 2 and msb(c.hands[seat][s]) == _top(c.remain[s] & ~(1u << top)):
        w -= 6  # Kx: keep the guard of the second-best card (as DDS's discards)
    return w


cdef inline bint first_void(Ctx* c, int seat, Move* m) noexcept nogil:
    """A player void in the led suit: the move ``void_moves`` puts first (the heaviest,
    the first generated among equals), found without generating and weighing every card:
    a discard's weight falls as its rank rises, so of a suit other than trumps only the
    lowest group can be the heaviest.  True when it is the player's only move."""
    cdef int s, k, w, best = -1000, groups = 0, n
    cdef VoidNode void
    cdef Move trumps[13]
    cdef Move low
    if c.trump != NOTRUMP:
        _void_node(c, seat, &void)
    for s in range(4):
        if not c.hands[seat][s]:
            continue
        if s == c.trump:
            n = _add_suit(c, seat, s, trumps, 0)
            groups += n
            for k in range(n):
                w = _void_weight(c, &void, seat, s, trumps[k].rank)
                if w > best:
                    best = w
                    m[0] = trumps[k]
        else:
            first_move(c, seat, s, lsb(c.hands[seat][s]), &low)
            groups += 1 if low.seq == c.hands[seat][s] else 2
            w = _void_weight(c, &void, seat, s, low.rank)
            if w > best:
                best = w
                m[0] = low
    return groups == 1


cdef extern from *:
    """
    /* Heaviest first, by counting: move i goes to the place equal to the number of keys
       above its key (the keys are distinct), with no branch on the keys: an insertion's
       exit mispredicts (docs/CHANGELOG.md, "sorted by counting").
       With SSE2 each key is compared with 16 at once; the places past n are masked out
       of the count (their keys are never written). */
    #if defined(__SSE2__)
    #include <emmintrin.h>
    static inline void qp_rank_sort(const uint64_t* moves, const int32_t* keys, int n,
                                    uint64_t* out) {
        const __m128i k0 = _mm_loadu_si128((const __m128i*)keys);
        const __m128i k1 = _mm_loadu_si128((const __m128i*)(keys + 4));
        const __m128i k2 = _mm_loadu_si128((const __m128i*)(keys + 8));
        const __m128i k3 = _mm_loadu_si128((const __m128i*)(keys + 12));
        const unsigned int live = (1u << n) - 1u;
        for (int i = 0; i < n; i++) {
            __m128i x = _mm_set1_epi32(keys[i]);
            __m128i a = _mm_packs_epi32(_mm_cmpgt_epi32(k0, x), _mm_cmpgt_epi32(k1, x));
            __m128i b = _mm_packs_epi32(_mm_cmpgt_epi32(k2, x), _mm_cmpgt_epi32(k3, x));
            unsigned int above = (unsigned int)_mm_movemask_epi8(_mm_packs_epi16(a, b));
            out[__builtin_popcount(above & live)] = moves[i];
        }
    }
    #else
    static inline void qp_rank_sort(const uint64_t* moves, const int32_t* keys, int n,
                                    uint64_t* out) {
        for (int i = 0; i < n; i++) {
            int above = 0;
            for (int j = 0; j < n; j++)
                above += keys[j] > keys[i];
            out[above] = moves[i];
        }
    }
    #endif
    """
    # ``out[:n]``: ``moves[:n]`` by their ``keys`` (distinct; 16 of them readable), highest
    # first
    void rank_sort "qp_rank_sort"(const uint64_t* moves, const int32_t* keys, int n,
                                  uint64_t* out) noexcept nogil


cdef inline int _add(uint64_t* moves, int32_t* keys, int n, uint64_t m) noexcept nogil:
    """Append the packed move ``m`` with its sort key for ``rank_sort``: its weight, ties
    broken by the order of generation (the earlier move first, as a stable sort keeps
    them: ``n`` < 16; the weights are a few hundred at most)."""
    keys[n] = (<int32_t>(m >> 32)) * 16 + 15 - n
    moves[n] = m
    return n + 1


cdef inline unsigned int _top_group(unsigned int mine, unsigned int others,
                                    int* r) noexcept nogil:
    """The group of equal cards of ``mine`` (not empty) that holds its highest card ``r``:
    down to just above the highest card of ``others`` (another hand's) below it."""
    cdef unsigned int below
    r[0] = msb(mine)
    below = others & ((1u << r[0]) - 1u)
    if below:
        return mine & ~((2u << msb(below)) - 1u)
    return mine


cdef inline int lead_moves(Ctx* c, int seat, Move* moves, int ply) noexcept nogil:
    """The leader's moves, heaviest first (``_leads``' weights): each group of equal cards
    weighed as it is generated (suit by suit, the highest group first, as ``gen_moves``),
    then sorted so that equal weights keep the order of generation.  A suit's
    winners come first; the terms of the cards that do not win are worked out only when
    the suit has such cards."""
    cdef uint64_t made[13]
    cdef int32_t keys[16]
    cdef int s, r, w, n = 0, killer = c.killer[ply]
    cdef unsigned int mine, others, seq
    cdef LeadSuit lead
    for s in range(4):
        mine = c.hands[seat][s]
        if not mine:
            continue
        _lead_suit(c, seat, s, &lead)
        others = c.remain[s] & ~mine
        while mine >> (lead.win_above + 1):
            seq = _top_group(mine, others, &r)
            mine &= ~seq
            w = winner_weight(&lead, r)
            if killer == s * 16 + r:
                # the lead that last cut off at this depth (or a table answer's lead); a
                # bonus to followers' killers measured as doubling the search, so only
                # leads get it; more for a winner, which then comes before the other
                # winners (a bonus to every killer above 80 raised the medians)
                w += 130
            n = _add(made, keys, n, _packed(s, r, seq, w))
        if not mine:
            continue
        _low_leads(c, seat, s, &lead)
        while mine:
            seq = _top_group(mine, others, &r)
            mine &= ~seq
            w = low_weight(&lead, r, seq)
            if killer == s * 16 + r:
                w += 80
            n = _add(made, keys, n, _packed(s, r, seq, w))
    rank_sort(made, keys, n, <uint64_t*>moves)
    return n


cdef inline int void_moves(Ctx* c, int seat, Move* moves) noexcept nogil:
    """The moves of a player void in the led suit, heaviest first (``_void_weight``),
    weighed as they are generated and sorted, as ``lead_moves``."""
    cdef uint64_t made[13]
    cdef int32_t keys[16]
    cdef int s, r, w, n = 0, top = -1, base = 0
    cdef unsigned int mine, others, seq
    cdef VoidNode void
    if c.trump != NOTRUMP:
        _void_node(c, seat, &void)
    for s in range(4):
        mine = c.hands[seat][s]
        if not mine:
            continue
        others = c.remain[s] & ~mine
        if s != c.trump:
            # a discard's weight (``_void_weight``): the suit's terms once
            top = msb(c.remain[s])
            base = 2 * popcount(mine)
            if base == 4 and msb(mine) != top and msb(mine) == _top(c.remain[s] & ~(1u << top)):
                base -= 6
        while mine:
            seq = _top_group(mine, others, &r)
            mine &= ~seq
            if s == c.trump:
                w = _void_weight(c, &void, seat, s, r)
            elif r == top:
                w = 2 * popcount(c.hands[seat][s]) - 20 - r
            else:
                w = base - r
            n = _add(made, keys, n, _packed(s, r, seq, w))
    rank_sort(made, keys, n, <uint64_t*>moves)
    return n


cdef inline int ordered_moves(Ctx* c, int seat, Move* moves, int ply) noexcept nogil:
    """All the moves of a node in search order; return the count."""
    cdef FollowPlan plan
    cdef int ls, nm
    if c.pos == 0:
        return lead_moves(c, seat, moves, ply)
    ls = c.trick_suit[0]
    if not c.hands[seat][ls]:
        return void_moves(c, seat, moves)
    nm = _add_suit(c, seat, ls, moves, 0)
    if nm > 1:
        follow_plan(c, seat, &plan)
        follow_order(moves, nm, &plan)
    return nm


cdef inline bint first_follower_move(Ctx* c, int seat, Move* m, FollowPlan* plan) noexcept nogil:
    """The move ``ordered_moves`` puts first for a follower, made without generating and
    ordering the others (most follower nodes cut off on it); ``plan`` keeps the order of
    the led suit for ``later_moves``.  True when it is the player's only move."""
    cdef int ls = c.trick_suit[0]
    cdef unsigned int mine = c.hands[seat][ls]
    if not mine:
        return first_void(c, seat, m)
    first_move(c, seat, ls, lsb(mine), m)
    if m.seq == mine:
        return 1  # one group of equal cards: nothing to order
    follow_plan(c, seat, plan)
    if plan.first != lsb(m.seq):
        first_move(c, seat, ls, plan.first, m)
    return 0


cdef inline int later_moves(Ctx* c, int seat, Move* moves, FollowPlan* plan,
                            int ply) noexcept nogil:
    """All the moves of a node whose first move, made alone (``first_follower_move``, or
    ``_leads.killer_lead``), did not cut off, in search order: that move first again."""
    cdef Move first = moves[0]
    cdef int nm
    if c.pos == 0:
        # the killer lead first, the others in the order of their weights
        nm = lead_moves(c, seat, moves, ply)
        if nm > 1:
            _to_front(moves, first.suit, first.rank)
    elif c.hands[seat][c.trick_suit[0]]:
        nm = _add_suit(c, seat, c.trick_suit[0], moves, 0)
        follow_order(moves, nm, plan)
    else:
        nm = void_moves(c, seat, moves)
    return nm
