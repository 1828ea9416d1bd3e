# cython: language_level=3
"""Transposition table on trick boundaries, keyed by relative ranks (partition search).

An entry is stored for a position at the start of a trick.  Its key is the
leader and the suit lengths of all four hands (the *distribution*); its body
says who owns each of the top ``k`` cards still out in every suit (ranks made
*relative* to the cards still out, so AK with the Q gone looks like AQ with
the K gone), where ``k`` covers every card that won a trick by rank in the
search below (the "win ranks" the search backs up).  Lower cards only count
through the suit lengths.  Any position with the same key whose top cards
agree on those slots has the same bounds on the leader's side's tricks.
An entry also keeps the lead that reached its lower bound, by its place among
the suit's cards still out; when the entry answers a lookup, that lead becomes
the killer of the ply (as DDS keeps a best move per depth from its table).

Layout (as DDS's TransTableL): a hash table of distributions, each owning a
short list of entries in blocks of ``TT_BLOCK``; a lookup finds the
distribution once and then scans its entries block by block: one vector compare
of the 16 entries' signatures (the owners of the top two cards of each suit, one
cache line a block) rules most of them out, and the rest are compared in full
(an entry is half a cache line).  A distribution keeps at
most ``TT_BLOCK * TT_BLOCKS_PER_DIST`` entries and then overwrites its oldest,
so a lookup costs a bounded scan however hard the deal.  Memory is fixed at
allocation; when a pool is full, or for a new deal or strain, the table is
cleared.

The table is too large for the caches, so a lookup's time goes to waiting for
memory: each cache line it needs only once the one before has been read costs a
full wait.  So the distributions live in the hash table itself (open addressing),
each with the first block of its list right after its key (two thirds of the
lookups scan one block), and the search prefetches the key's line and that whole
block at the start of a trick, before quick tricks (``tt_prefetch``): a lookup then
mostly finds its lines on their way.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from solvers.bridge._bits cimport kth_highest, lsb, msb, popcount
from solvers.bridge._types cimport (
    TT_BLOCK,
    TT_BLOCKS_PER_DIST,
    TT_NEAR_BLOCKS,
    TT_NO_MOVE,
    Ctx,
    TransTable,
    TTSlot,
    TTBlock,
    TTEntry,
)


cdef extern from *:
    """
    #include <stdlib.h>
    #include <stdint.h>
    #include <string.h>
    /* Zeroed memory for the table, on cache-line boundaries.  On Linux, whole 2 MiB
       pages where the kernel gives them (transparent huge pages on request): the
       table's lines are read at random over tens of MiB, and with 4 KiB pages nearly
       every read first walks the page tables. */
    #if defined(__linux__)
    #include <sys/mman.h>
    #define QP_HUGE ((size_t)2 << 20)
    static size_t qp_table_span(size_t n) { return (n + QP_HUGE - 1) & ~(QP_HUGE - 1); }
    static void* qp_alloc_table(size_t n) {
        size_t span = qp_table_span(n);
        char* raw = (char*)mmap(NULL, span + QP_HUGE, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* p;
        size_t head;
        if (raw == (char*)MAP_FAILED)
            return NULL;
        p = (char*)(((uintptr_t)raw + QP_HUGE - 1) & ~(uintptr_t)(QP_HUGE - 1));
        head = (size_t)(p - raw);
        if (head)
            munmap(raw, head);
        if (QP_HUGE - head)
            munmap(p + span, QP_HUGE - head);
    #ifdef MADV_HUGEPAGE
        madvise(p, span, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static void qp_free_table(void* p, size_t n) {
        if (p != NULL)
            munmap(p, qp_table_span(n));
    }
    #elif defined(_WIN32)
    #include <malloc.h>
    static void* qp_alloc_table(size_t n) {
        void* p = _aligned_malloc(n, 64);
        if (p != NULL)
            memset(p, 0, n);
        return p;
    }
    static void qp_free_table(void* p, size_t n) { (void)n; _aligned_free(p); }
    #else
    static void* qp_alloc_table(size_t n) {
        void* p = NULL;
        if (posix_memalign(&p, 64, n) != 0)
            return NULL;
        memset(p, 0, n);
        return p;
    }
    static void qp_free_table(void* p, size_t n) { (void)n; free(p); }
    #endif

    /* Bit j set where entry j of a block may match: its signature agrees with
       ``owners`` on its sigmask (16 entries of 16 bits, one cache line with the masks);
       with ``exact``, where signature and sigmask equal ``owners`` and ``mask``. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline unsigned qp_sig_hits(const uint16_t* sig, const uint16_t* sigmask,
                                       unsigned owners) {
        __m128i o = _mm_set1_epi16((short)owners), z = _mm_setzero_si128();
        __m128i a = _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i*)sig), o),
                                  _mm_loadu_si128((const __m128i*)sigmask));
        __m128i b = _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i*)(sig + 8)), o),
                                  _mm_loadu_si128((const __m128i*)(sigmask + 8)));
        return (unsigned)_mm_movemask_epi8(
            _mm_packs_epi16(_mm_cmpeq_epi16(a, z), _mm_cmpeq_epi16(b, z)));
    }
    static inline unsigned qp_sig_equal(const uint16_t* sig, const uint16_t* sigmask,
                                        unsigned owners, unsigned mask) {
        __m128i o = _mm_set1_epi16((short)owners), m = _mm_set1_epi16((short)mask);
        __m128i a = _mm_and_si128(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)sig), o),
                                  _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)sigmask), m));
        __m128i b = _mm_and_si128(
            _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)(sig + 8)), o),
            _mm_cmpeq_epi16(_mm_loadu_si128((const __m128i*)(sigmask + 8)), m));
        return (unsigned)_mm_movemask_epi8(_mm_packs_epi16(a, b));
    }
    #else
    static inline unsigned qp_sig_hits(const uint16_t* sig, const uint16_t* sigmask,
                                       unsigned owners) {
        unsigned bits = 0;
        for (int j = 0; j < 16; j++)
            bits |= (unsigned)(((owners ^ sig[j]) & sigmask[j]) == 0) << j;
        return bits;
    }
    static inline unsigned qp_sig_equal(const uint16_t* sig, const uint16_t* sigmask,
                                        unsigned owners, unsigned mask) {
        unsigned bits = 0;
        for (int j = 0; j < 16; j++)
            bits |= (unsigned)(sig[j] == owners && sigmask[j] == mask) << j;
        return bits;
    }
    #endif
    """
    void* qp_alloc_table(size_t n) noexcept nogil
    void qp_free_table(void* p, size_t n) noexcept nogil
    unsigned int qp_sig_hits(const uint16_t* sig, const uint16_t* sigmask,
                             unsigned int owners) noexcept nogil
    unsigned int qp_sig_equal(const uint16_t* sig, const uint16_t* sigmask,
                              unsigned int owners, unsigned int mask) noexcept nogil


cdef inline size_t tt_bytes(int log_entries) noexcept nogil:
    """Memory of a table of ``2**log_entries`` entries: half of them in the slots' own
    blocks, half in the blocks of longer lists."""
    return (<size_t>1 << (log_entries - 5)) * (sizeof(TTSlot) + sizeof(TTBlock))


cdef inline int tt_init(TransTable* tt, int log_entries) noexcept nogil:
    """Allocate ``2**log_entries`` entries; returns 0, or -1 when memory is short."""
    tt.slot_mask = (1u << (log_entries - 5)) - 1u
    tt.dist_capacity = <int32_t>((tt.slot_mask + 1) // 4 * 3)
    tt.block_capacity = 1 << (log_entries - 5)
    # zeroed (every slot free: generation 0), on cache-line boundaries: a block's
    # signatures and sigmasks are one line
    tt.slots = <TTSlot*>qp_alloc_table(sizeof(TTSlot) * (tt.slot_mask + 1))
    tt.blocks = <TTBlock*>qp_alloc_table(sizeof(TTBlock) * tt.block_capacity)
    tt.lookups = 0
    tt.probes = 0
    tt.hits = 0
    tt.stores = 0
    tt.resets = 0
    if tt.slots == NULL or tt.blocks == NULL:
        tt_free(tt)
        return -1
    tt.generation = 1
    tt.dists_used = 0
    tt.blocks_used = 0
    return 0


cdef inline void tt_free(TransTable* tt) noexcept nogil:
    qp_free_table(tt.slots, sizeof(TTSlot) * (tt.slot_mask + 1))
    qp_free_table(tt.blocks, sizeof(TTBlock) * tt.block_capacity)
    tt.slots = NULL
    tt.blocks = NULL


cdef inline void _clear_slots(TransTable* tt) noexcept nogil:
    cdef uint32_t i
    for i in range(tt.slot_mask + 1):
        tt.slots[i].dist.generation = 0


cdef inline void tt_reset(TransTable* tt) noexcept nogil:
    """Empty the table: a new generation makes every slot free (the slots are cleared
    only when the generation number wraps around)."""
    if tt.dists_used:
        tt.generation += 1
        if tt.generation == 0:
            _clear_slots(tt)
            tt.generation = 1
        tt.dists_used = 0
        tt.blocks_used = 0


cdef inline uint64_t tt_lengths(Ctx* c) noexcept nogil:
    cdef uint64_t key = 0
    cdef int h, s
    for h in range(4):
        for s in range(4):
            key = (key << 4) | <uint64_t>popcount(c.hands[h][s])
    return key


cdef inline void tt_patterns(Ctx* c, uint32_t* pat) noexcept nogil:
    """Owner of each card still out, highest first, 2 bits a card from bit 31 down."""
    cdef int s, r, shift
    cdef uint32_t p, bit
    cdef uint32_t rem
    for s in range(4):
        p = 0
        shift = 30
        rem = c.remain[s]
        while rem:
            r = msb(rem)
            bit = 1u << r
            rem ^= bit
            if c.hands[1][s] & bit:
                p |= 1u << shift
            elif c.hands[2][s] & bit:
                p |= 2u << shift
            elif c.hands[3][s] & bit:
                p |= 3u << shift
            shift -= 2
        pat[s] = p


cdef inline uint64_t tt_length_unit(int seat, int s) noexcept nogil:
    """One card of ``seat`` in suit ``s`` in the key of :func:`tt_lengths`."""
    return (<uint64_t>1) << (60 - 16 * seat - 4 * s)


cdef inline uint32_t tt_drop_slot(uint32_t p, int i) noexcept nogil:
    """Pattern ``p`` of one suit without its ``i``-th card from the top (0-based): the
    lower cards move up a slot."""
    cdef int shift = 30 - 2 * i
    return (p & <uint32_t>(0xFFFFFFFFFFFFFFFFULL << (shift + 2))) \
        | ((p & ((1u << shift) - 1u)) << 2)


cdef inline uint32_t _home(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    cdef uint64_t h = (lens ^ (<uint64_t>leader * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL
    return <uint32_t>(h >> 40) & tt.slot_mask


cdef extern from *:
    """
    #define qp_prefetch(p) __builtin_prefetch(p)
    /* into L2 only (PREFETCHT1): lines that may not be read at all */
    #define qp_prefetch_l2(p) __builtin_prefetch(p, 0, 2)
    """
    void qp_prefetch(const void* p) noexcept nogil
    void qp_prefetch_l2(const void* p) noexcept nogil


cdef inline void tt_prefetch(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """Start loading the distribution's slot while the caller does other work: its key,
    then its first block (the signatures and the 16 entries).  Which entries a lookup
    compares in full is known only once the signatures are read: loading the whole
    block ahead takes that wait off the lookup too.  The entries' lines go to L2 only
    (most are never compared): into L1 as well, a lead simulation took 0.7 % longer on an
    Intel Xeon (docs/CHANGELOG.md, 2026-12-03 "TT prefetch hints")."""
    cdef TTSlot* slot = &tt.slots[_home(tt, lens, leader)]
    cdef int j
    qp_prefetch(&slot.dist)
    qp_prefetch(&slot.first)
    for j in range(0, TT_BLOCK, 2):
        qp_prefetch_l2(&slot.first.entry[j])


cdef inline TTSlot* _find_slot(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """The slot of the distribution, or the free slot where it would go."""
    cdef uint32_t i = _home(tt, lens, leader)
    cdef TTSlot* slot
    while True:
        slot = &tt.slots[i]
        if slot.dist.generation != tt.generation or (slot.dist.lens == lens
                                                     and slot.dist.leader == leader):
            return slot
        i = (i + 1) & tt.slot_mask


cdef inline int32_t* _block_index(TTSlot* slot, int b) noexcept nogil:
    """Where the slot keeps the pool index of block ``b`` >= 1 of its list."""
    return &slot.dist.blocks[b] if b < TT_NEAR_BLOCKS else &slot.far_blocks[b - TT_NEAR_BLOCKS]


cdef inline TTBlock* _block(TransTable* tt, TTSlot* slot, int b) noexcept nogil:
    return &slot.first if b == 0 else &tt.blocks[_block_index(slot, b)[0]]


cdef inline uint32_t _top_owners(uint32_t* pat) noexcept nogil:
    """Owners of the top two cards of each suit, 4 bits a suit (the first pattern slots)."""
    return (pat[0] >> 28) | ((pat[1] >> 28) << 4) | ((pat[2] >> 28) << 8) | ((pat[3] >> 28) << 12)


cdef inline unsigned int _live(int b, int count) noexcept nogil:
    """Bits of the entries of block ``b`` in use, of a list of ``count`` entries."""
    cdef int m = count - b * TT_BLOCK
    return 0xFFFFu if m >= TT_BLOCK else (1u << m) - 1u


cdef inline int _move_of(Ctx* c, int leader, int code) noexcept nogil:
    """The leader's card (``suit * 16 + rank``) for a stored move, or -1.

    The entry stores the card by its place among the suit's cards still out, so
    it names the same card in every position the entry matches when the entry pins
    it; a card below the pinned ones may belong to another hand there (then -1).
    """
    cdef int s = code >> 4, r
    if code == TT_NO_MOVE:
        return -1
    r = kth_highest(c.remain[s], (code & 15) + 1)
    return s * 16 + r if (c.hands[leader][s] >> r) & 1 else -1


cdef inline int tt_lookup(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          int threshold, Ctx* c, uint16_t* wm, int* move) noexcept nogil:
    """Is the leader's side sure to take >= threshold tricks? 1 yes, 0 no, -1 unknown.

    On an answer, ``wm`` gets the win ranks of the entry: in each suit the lowest
    card still out that the entry depends on.  Of the entries that answer, the one
    pinning the fewest cards is used: the parent stores the union of its children's
    win ranks, so a general answer here keeps the parent's entry general too (8 %
    fewer trick-start nodes than the first answering entry).  On a yes, ``move``
    gets the lead that reached the entry's lower bound (``suit * 16 + rank``), else
    -1.
    """
    cdef TTSlot* slot
    cdef TTBlock* blk
    cdef TTEntry* e
    cdef TTEntry* best = NULL
    cdef int b, j, s, k, best_pinned = 128
    cdef unsigned int cand
    cdef uint32_t owners = _top_owners(pat)
    cdef uint32_t p0 = pat[0], p1 = pat[1], p2 = pat[2], p3 = pat[3]
    tt.lookups += 1
    move[0] = -1
    slot = _find_slot(tt, lens, leader)
    if slot.dist.generation != tt.generation:
        return -1
    for b in range((slot.dist.count + TT_BLOCK - 1) // TT_BLOCK):
        blk = _block(tt, slot, b)
        # the signatures rule out most entries with one cache line; the rest are
        # compared in full, in slot order (so ties keep the oldest entry)
        cand = qp_sig_hits(blk.signature, blk.sigmask, owners) & _live(b, slot.dist.count)
        while cand:
            j = lsb(cand)
            cand &= cand - 1u
            e = &blk.entry[j]
            if ((<uint64_t>(p0 ^ e.pattern[0]) >> e.shift[0])
                    | (<uint64_t>(p1 ^ e.pattern[1]) >> e.shift[1])
                    | (<uint64_t>(p2 ^ e.pattern[2]) >> e.shift[2])
                    | (<uint64_t>(p3 ^ e.pattern[3]) >> e.shift[3])):
                continue
            tt.probes += 1
            if e.lower < threshold <= e.upper:
                continue
            if e.pinned < best_pinned:
                best = e
                best_pinned = e.pinned
    if best == NULL:
        return -1
    tt.hits += 1
    for s in range(4):
        k = (32 - best.shift[s]) >> 1  # cards of the suit the entry depends on
        wm[s] = <uint16_t>(1u << kth_highest(c.remain[s], k)) if k else 0
    if best.lower >= threshold:
        move[0] = _move_of(c, leader, best.move)
        return 1
    return 0


cdef inline TTBlock* _new_block(TransTable* tt, TTSlot* slot) noexcept nogil:
    """The next block of the slot's list: the slot's own for a new distribution, else one
    from the pool (NULL when the pool is used up)."""
    cdef TTBlock* blk
    cdef int j, s
    if slot.dist.count == 0:
        blk = &slot.first
    else:
        if tt.blocks_used >= tt.block_capacity:
            return NULL
        _block_index(slot, slot.dist.count // TT_BLOCK)[0] = tt.blocks_used
        blk = &tt.blocks[tt.blocks_used]
        tt.blocks_used += 1
    for j in range(TT_BLOCK):
        # unused entries never match: pattern bits below the 13 cards are always 0
        for s in range(4):
            blk.entry[j].shift[s] = 0
            blk.entry[j].pattern[s] = 1u
    return blk


cdef inline TTSlot* _claim(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """A new distribution with an empty list in its free slot (the table emptied first
    when it holds as many distributions as it may)."""
    cdef TTSlot* slot
    if tt.dists_used >= tt.dist_capacity:
        tt_reset(tt)
        tt.resets += 1
    slot = _find_slot(tt, lens, leader)
    tt.dists_used += 1
    slot.dist.generation = tt.generation
    slot.dist.lens = lens
    slot.dist.leader = <uint8_t>leader
    slot.dist.count = 0
    slot.dist.cursor = 0
    return slot


cdef inline void tt_store(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          Ctx* c, uint16_t* wm, int lower, int upper, int move) noexcept nogil:
    """Record bounds ``lower <= leader side's tricks <= upper`` valid under ``wm``;
    ``move`` (``suit * 16 + rank``, or -1) is the lead that reached ``lower``."""
    cdef uint32_t mask[4]
    cdef uint32_t patm[4]
    cdef uint8_t shift[4]
    cdef int s, k, j, pos
    cdef unsigned int cand, sig, sigmask
    cdef uint32_t b
    cdef TTSlot* slot
    cdef TTBlock* blk
    cdef TTEntry* e
    cdef uint8_t code = TT_NO_MOVE
    if move >= 0:
        # by its place among the suit's cards still out (see _move_of)
        code = <uint8_t>((move & ~15) | popcount(c.remain[move >> 4] >> ((move & 15) + 1)))
    for s in range(4):
        if wm[s]:
            b = wm[s] & (~wm[s] + 1u)  # lowest win rank
            k = popcount(c.remain[s] & ~(b - 1u))
            mask[s] = 0xFFFFFFFFu << (32 - 2 * k) if k else 0u
        else:
            k = 0
            mask[s] = 0u
        shift[s] = <uint8_t>(32 - 2 * k)
        patm[s] = pat[s] & mask[s]
    sig = _top_owners(patm)
    sigmask = _top_owners(mask)
    slot = _find_slot(tt, lens, leader)
    if slot.dist.generation == tt.generation:
        for k in range((slot.dist.count + TT_BLOCK - 1) // TT_BLOCK):
            blk = _block(tt, slot, k)
            cand = qp_sig_equal(blk.signature, blk.sigmask, sig, sigmask) \
                & _live(k, slot.dist.count)
            while cand:
                j = lsb(cand)
                cand &= cand - 1u
                e = &blk.entry[j]
                if (e.pattern[0] == patm[0] and e.pattern[1] == patm[1]
                        and e.pattern[2] == patm[2] and e.pattern[3] == patm[3]
                        and e.shift[0] == shift[0] and e.shift[1] == shift[1]
                        and e.shift[2] == shift[2] and e.shift[3] == shift[3]):
                    if lower > e.lower:
                        e.lower = <int8_t>lower
                        e.move = code
                    if upper < e.upper:
                        e.upper = <int8_t>upper
                    return
    else:
        slot = _claim(tt, lens, leader)
    if slot.dist.count % TT_BLOCK == 0 and slot.dist.count < TT_BLOCK * TT_BLOCKS_PER_DIST:
        if _new_block(tt, slot) == NULL:
            # the pool is used up: start again with this distribution alone
            tt_reset(tt)
            tt.resets += 1
            slot = _claim(tt, lens, leader)
            _new_block(tt, slot)
    if slot.dist.count < TT_BLOCK * TT_BLOCKS_PER_DIST:
        pos = slot.dist.count
        slot.dist.count += 1
    else:
        pos = slot.dist.cursor
        slot.dist.cursor = <uint16_t>((slot.dist.cursor + 1) % (TT_BLOCK * TT_BLOCKS_PER_DIST))
    tt.stores += 1
    blk = _block(tt, slot, pos // TT_BLOCK)
    j = pos % TT_BLOCK
    blk.signature[j] = <uint16_t>sig
    blk.sigmask[j] = <uint16_t>sigmask
    e = &blk.entry[j]
    e.pinned = 0
    for s in range(4):
        e.shift[s] = shift[s]
        e.pattern[s] = patm[s]
        e.pinned += 32 - shift[s]
    e.lower = <int8_t>lower
    e.upper = <int8_t>upper
    e.move = code
