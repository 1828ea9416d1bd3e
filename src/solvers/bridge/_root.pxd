# cython: language_level=3
"""The root of a search: what the drivers of ``_ab_search.pyx`` set up around it.

A search context's life (``_alloc_ctx``, ``_ctx_init``, ``_ctx_reuse``, ``_free_ctx``); a
deal or a position with cards already on the table put into it (``_setup``, ``_setup_trick``);
the first target of the null-window searches (``_estimate``); a root move
played (``_play_root``) and the root position saved and restored around it
(``RootState``, ``_root_state``); scores shared by cards of a suit (``RootClasses``).
"""

from libc.stdint cimport int32_t, uint16_t
from libc.string cimport memcpy, memset

from solvers.bridge._bits cimport lsb, popcount
from solvers.bridge._node_steps cimport _place_card
from solvers.bridge._trans_table cimport tt_free, tt_init, tt_reset
from solvers.bridge._types cimport MAX_PLY, NOTRUMP, Ctx, Move, TransTable


cdef extern from *:
    """
    #include <stdlib.h>
    /* Memory on whole cache lines of its own: starts on a line, ends on one. */
    #if defined(_WIN32)
    #include <malloc.h>
    static void* qp_alloc_lines(size_t n) { return _aligned_malloc((n + 63) & ~(size_t)63, 64); }
    static void qp_free_lines(void* p) { _aligned_free(p); }
    #else
    static void* qp_alloc_lines(size_t n) {
        void* p = NULL;
        return posix_memalign(&p, 64, (n + 63) & ~(size_t)63) == 0 ? p : NULL;
    }
    static void qp_free_lines(void* p) { free(p); }
    #endif
    """
    void* qp_alloc_lines(size_t n) noexcept nogil
    void qp_free_lines(void* p) noexcept nogil


cdef inline Ctx* _alloc_ctx() noexcept nogil:
    """Uninitialised memory for a context (``_ctx_init`` next), or NULL.

    On cache lines no other object shares: a batch takes its threads' contexts one
    after the other, and from plain ``malloc`` one context's end (the table's
    counters, written at every lookup and store) shared a line with the next one's
    start (the hands, written at every card) whenever the two were not line-aligned,
    as in a fresh ``simulate_lead`` process.  The line then moved between the two
    cores all the time: 2 threads took ~17 % more CPU than 1 for the same deals.
    """
    return <Ctx*>qp_alloc_lines(sizeof(Ctx))


cdef inline int _setup(Ctx* c, const uint16_t[:, :] hands, int trump) noexcept nogil:
    cdef int h, s
    for s in range(4):
        c.remain[s] = 0
        for h in range(4):
            c.hands[h][s] = hands[h, s]
            c.remain[s] |= hands[h, s]
    c.trump = trump
    c.tricks_max = 0
    c.pos = 0
    c.win_pos = 0
    for h in range(MAX_PLY):
        c.killer[h] = -1
    return 0


cdef inline int _estimate(Ctx* c, int side, int n) noexcept nogil:
    """First target of the null-window searches of a cold cell: ``side``'s share of
    the ``n`` tricks by high-card points, plus two thirds of its trump length
    advantage (the closer the guess, the fewer searches: about 4 a cell with the
    middle of the range, 2 when right)."""
    cdef int h, s, pts = 0, total = 0, v, t = 0
    for h in range(4):
        for s in range(4):
            v = 4 * popcount(c.hands[h][s] & 0x1000) + 3 * popcount(c.hands[h][s] & 0x800) \
                + 2 * popcount(c.hands[h][s] & 0x400) + popcount(c.hands[h][s] & 0x200)
            total += v
            if (h & 1) == side:
                pts += v
        if c.trump != NOTRUMP:
            v = popcount(c.hands[h][c.trump])
            t += v if (h & 1) == side else -v
    if total == 0:
        return (n + 1) // 2
    v = (2 * n * pts + total) // (2 * total) + (2 * t) // 3
    if v < 1:
        v = 1
    if v > n:
        v = n
    return v


cdef inline int _ctx_init(Ctx* c, int features, int tt_bits) noexcept nogil:
    memset(c, 0, sizeof(Ctx))
    c.features = features
    return tt_init(&c.tt, tt_bits)


cdef inline void _ctx_reuse(Ctx* c, int features) noexcept nogil:
    """A context of an earlier search made as new (zero counters, an empty table),
    keeping its table's memory."""
    cdef TransTable tt = c.tt
    memset(c, 0, sizeof(Ctx))
    c.features = features
    c.tt = tt
    tt_reset(&c.tt)
    c.tt.lookups = 0
    c.tt.probes = 0
    c.tt.hits = 0
    c.tt.stores = 0
    c.tt.resets = 0


cdef inline void _free_ctx(Ctx* c) noexcept nogil:
    tt_free(&c.tt)
    qp_free_lines(c)


cdef inline int _play_root(Ctx* c, int seat, int s, int r) noexcept nogil:
    """Play one card at the root (as the search does), completing the trick if it is full."""
    cdef int w, k
    c.hands[seat][s] ^= <uint16_t>(1u << r)
    _place_card(c, s, r)
    if c.pos < 3:
        c.pos += 1
        return 0
    w = (c.leader + c.win_pos) & 3
    for k in range(4):
        c.remain[c.trick_suit[k]] ^= <uint16_t>(1u << c.trick_rank[k])
    if (w & 1) == c.max_side:
        c.tricks_max += 1
    c.leader = w
    c.pos = 0
    return 0


cdef inline int _setup_trick(Ctx* c, const uint16_t[:, :] hands, int trump, int leader,
                             const int32_t[:, :] trick) noexcept nogil:
    """Set up a position with ``trick`` already played; returns the seat to move."""
    cdef int k
    _setup(c, hands, trump)
    c.leader = leader
    for k in range(trick.shape[0]):
        c.remain[trick[k, 0]] |= <uint16_t>(1u << trick[k, 1])
    c.pos = 0
    for k in range(trick.shape[0]):
        # a card already on the table: in the trick state, in no hand
        _place_card(c, trick[k, 0], trick[k, 1])
        c.pos += 1
    c.max_side = ((c.leader + c.pos) & 3) & 1
    return (c.leader + c.pos) & 3


cdef struct RootState:
    # the position at the root, restored after each root move is searched
    uint16_t hands[4][4]
    uint16_t remain[4]
    int trick_suit[4]
    int trick_rank[4]
    int leader
    int pos
    int win_pos
    int tricks_max


cdef inline void _transfer(void* ctx_field, void* saved, size_t size, bint restore) noexcept nogil:
    if restore:
        memcpy(ctx_field, saved, size)
    else:
        memcpy(saved, ctx_field, size)


cdef inline void _root_state(Ctx* c, RootState* r, bint restore) noexcept nogil:
    """Save the root position into ``r``, or put it back into ``c`` when ``restore``."""
    _transfer(c.hands, r.hands, sizeof(r.hands), restore)
    _transfer(c.remain, r.remain, sizeof(r.remain), restore)
    _transfer(c.trick_suit, r.trick_suit, sizeof(r.trick_suit), restore)
    _transfer(c.trick_rank, r.trick_rank, sizeof(r.trick_rank), restore)
    _transfer(&c.leader, &r.leader, sizeof(int), restore)
    _transfer(&c.pos, &r.pos, sizeof(int), restore)
    _transfer(&c.win_pos, &r.win_pos, sizeof(int), restore)
    _transfer(&c.tricks_max, &r.tricks_max, sizeof(int), restore)


cdef struct RootClasses:
    # per suit: every card of the suit to play below ``below[s]`` scores ``value[s]``
    # (below[s] = 0: nothing known yet)
    int below[4]
    int value[4]


cdef inline void _classes_clear(RootClasses* k) noexcept nogil:
    cdef int s
    for s in range(4):
        k.below[s] = 0
        k.value[s] = -1


cdef inline int _class_value(RootClasses* k, Move* m) noexcept nogil:
    """The score of root move ``m`` when an earlier card of its suit proved it, else -1."""
    if m.rank < k.below[m.suit]:
        return k.value[m.suit]
    return -1


cdef inline void _class_learn(Ctx* c, RootClasses* k, Move* m, uint16_t* used,
                              int value) noexcept nogil:
    """Root move ``m`` scored ``value`` by searches whose win ranks, together, are ``used``.

    The search's small-card rule, at the root: when the card played lies below the
    lowest card of its suit that mattered in any of those searches, every card of
    the suit below that rank gives the same play, so the same score (a proof depends
    only on the suit lengths and on who holds the cards at or above its win ranks).
    Not when the card completes the trick (``c.pos == 3`` at the root): the search
    below then never saw the trick's winner, which the win ranks would need.
    """
    cdef int s = m.suit
    cdef int low = lsb(used[s]) if used[s] else 13
    if c.pos < 3 and m.rank < low and low > k.below[s]:
        k.below[s] = low
        k.value[s] = value
