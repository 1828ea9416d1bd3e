# cython: language_level=3
"""The steps of the search at one node, around the recursion of ``_ab_search.search``.

At the start of a trick (``_trick_start``): the target already reached or out
of reach, the last trick played out directly (``_last_trick``), quick tricks,
later tricks and the transposition table, in that order; after the moves are
searched, ``_trick_result`` stores the answer as a bound.  Second hand
(``_second_hand``): second-hand quick tricks.  ``_place_card`` puts a card on
the table and keeps track of the card winning the trick; ``_cover_sequence``
widens the win ranks over a move's group of equal cards.

The recursion itself (``search`` and ``_play``) is in ``_search.pxd``, which
calls these steps (a ``.pxd`` cannot call back into a module that includes it).
"""

from libc.stdint cimport uint16_t, uint32_t, uint64_t

from solvers.bridge._bits cimport lsb, msb, popcount
from solvers.bridge._later_tricks cimport later_tricks
from solvers.bridge._quick_tricks cimport quick_tricks, topped_lengths
from solvers.bridge._second_hand cimport second_hand_tricks
from solvers.bridge._trans_table cimport tt_lookup, tt_prefetch, tt_store
from solvers.bridge._types cimport (
    FEATURE_LATER_TRICKS,
    FEATURE_QUICK_TRICKS,
    FEATURE_TT,
    Ctx,
    Move,
    TTVisit,
)


cdef struct TrickStart:
    # what a node at the start of a trick needs again after its moves are searched
    uint64_t lens          # the transposition-table key: suit lengths of the four hands
    uint32_t pat[4]        # owners of the cards still out, highest first
    int n                  # tricks left
    int threshold          # the question for the leader's side: >= threshold tricks?
    bint leader_max        # the leader's side is the counted side
    int table_move         # the lead of a table entry that answered (suit * 16 + rank), or -1
    TTVisit visit          # what the table lookup saw, for the store


cdef inline void _clear(uint16_t* wm) noexcept nogil:
    wm[0] = 0
    wm[1] = 0
    wm[2] = 0
    wm[3] = 0


cdef inline void _copy(uint16_t* dst, uint16_t* src) noexcept nogil:
    dst[0] = src[0]
    dst[1] = src[1]
    dst[2] = src[2]
    dst[3] = src[3]


cdef inline int _cards(Ctx* c, int seat) noexcept nogil:
    return popcount(c.hands[seat][0]) + popcount(c.hands[seat][1]) \
        + popcount(c.hands[seat][2]) + popcount(c.hands[seat][3])


cdef inline bint _last_trick(Ctx* c, int target, uint16_t* wm) noexcept nogil:
    """Every hand holds one card: play it out."""
    cdef int leader = c.leader, i, seat, s, r, ws = -1, wr = -1, winner = leader, same = 0
    _clear(wm)
    for i in range(4):
        seat = (leader + i) & 3
        for s in range(4):
            if c.hands[seat][s]:
                r = msb(c.hands[seat][s])
                break
        if i == 0:
            ws = s
            wr = r
        elif s == ws:
            if r > wr:
                wr = r
                winner = seat
        elif s == c.trump and ws != c.trump:
            ws = s
            wr = r
            winner = seat
    # the winner won by rank when another card of the winning suit was played
    for i in range(4):
        seat = (leader + i) & 3
        if c.hands[seat][ws]:
            same += 1
    if same >= 2:
        wm[ws] = <uint16_t>(1u << wr)
    return c.tricks_max + ((winner & 1) == c.max_side) >= target


cdef inline void _place_card(Ctx* c, int s, int r) noexcept nogil:
    """Record card (s, r) at ``c.pos`` of the current trick and update the winning position."""
    cdef int ws
    c.trick_suit[c.pos] = s
    c.trick_rank[c.pos] = r
    if c.pos == 0:
        c.win_pos = 0
    else:
        ws = c.trick_suit[c.win_pos]
        if (s == ws and r > c.trick_rank[c.win_pos]) or (s == c.trump and ws != c.trump):
            c.win_pos = c.pos


cdef inline int _settled(Ctx* c, int n, int target, uint16_t* wm) noexcept nogil:
    """The answers at a trick start with ``n`` tricks left that need no search: 1 or 0
    when the target is reached or out of reach, the last trick played out, else -1.
    Counts the trick start (by tricks left)."""
    c.trick_nodes[n] += 1
    if c.tricks_max >= target:
        _clear(wm)
        return 1
    if c.tricks_max + n < target:
        _clear(wm)
        return 0
    if n == 1:
        return _last_trick(c, target, wm)
    return -1


cdef inline int _threshold(Ctx* c, int n, int target, bint leader_max) noexcept nogil:
    """The question for the leader's side at a trick start with ``n`` tricks left: at
    least this many of them?"""
    return target - c.tricks_max if leader_max else n - target + c.tricks_max + 1


cdef inline int _trick_start(Ctx* c, int seat, int target, TrickStart* ts,
                             uint16_t* wm) noexcept nogil:
    """The cheap answers at the start of a trick: 1 or 0 when one decides, else -1.

    In order: target reached or out of reach, the last trick, quick tricks, later
    tricks (their win ranks are the most general), the transposition table.
    """
    cdef int n = _cards(c, seat), answer = _settled(c, n, target, wm)
    ts.n = n
    ts.table_move = -1
    if answer >= 0:
        return answer
    ts.leader_max = (seat & 1) == c.max_side
    ts.threshold = _threshold(c, n, target, ts.leader_max)
    ts.lens = c.lens
    if c.features & FEATURE_TT:
        tt_prefetch(&c.tt, ts.lens, seat)
    # quick tricks cost about half a node: the ceiling rules most failing counts out first
    if ((c.features & FEATURE_QUICK_TRICKS) and topped_lengths(c, seat) >= ts.threshold
            and quick_tricks(c, seat, ts.threshold, wm) >= ts.threshold):
        c.qt_cutoffs += 1
        return ts.leader_max
    if (c.features & FEATURE_LATER_TRICKS) and later_tricks(c, seat, n, n - ts.threshold + 1, wm):
        c.lt_cutoffs += 1
        return not ts.leader_max
    ts.pat[0] = c.pat[0]
    ts.pat[1] = c.pat[1]
    ts.pat[2] = c.pat[2]
    ts.pat[3] = c.pat[3]
    if c.features & FEATURE_TT:
        answer = tt_lookup(&c.tt, ts.lens, seat, ts.pat, ts.threshold, c, wm, &ts.table_move,
                           &ts.visit)
        if answer >= 0:
            return answer == ts.leader_max
    return -1


cdef inline int _second_hand(Ctx* c, int seat, int target, bint mover_max,
                             uint16_t* wm) noexcept nogil:
    """Second-hand quick tricks: 1 or 0 when they decide, else -1."""
    # the tricks the side of the second hand needs to decide the question
    cdef int need = target - c.tricks_max if mover_max else c.tricks_max + _cards(c, seat) - target + 1
    cdef int k = second_hand_tricks(c, seat, need, wm)
    if k == 0:
        return -1
    if k >= need:
        c.qt2_cutoffs += 1
        return mover_max
    return -1


cdef inline void _trick_result(Ctx* c, int seat, TrickStart* ts, bint res,
                               uint16_t* wm, int move) noexcept nogil:
    """Store a searched trick-start node: ``res`` for the counted side becomes a bound
    on the leader's side's tricks; ``move`` is the lead that cut off (or -1)."""
    c.trick_searched[ts.n][res == ts.leader_max] += 1
    if not (c.features & FEATURE_TT):
        return
    if res == ts.leader_max:
        tt_store(&c.tt, ts.lens, seat, ts.pat, c, wm, ts.threshold, ts.n, move, &ts.visit)
    else:
        tt_store(&c.tt, ts.lens, seat, ts.pat, c, wm, 0, ts.threshold - 1, -1, &ts.visit)


cdef inline void _cover_sequence(Move* m, uint64_t* wm) noexcept nogil:
    """Cards searched for their whole group of equals: if the group's top card is at or
    above the lowest win rank of its suit, the whole group must stay above it.  ``wm`` is
    the four suits' win ranks as one word (suit s at bits 16 s): ``search`` stores it
    whole, as its caller reads it whole (narrow writes then a wide read stall)."""
    cdef int sh = 16 * m.suit
    cdef unsigned int w = <unsigned int>(wm[0] >> sh) & 0xFFFFu
    if w and msb(m.seq) >= lsb(w):
        wm[0] |= <uint64_t>(m.seq & (~m.seq + 1u)) << sh
