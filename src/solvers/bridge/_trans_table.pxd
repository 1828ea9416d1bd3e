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
cache line a block) rules most of them out, and the rest are compared on four
32-bit words.  A distribution keeps at
most ``TT_BLOCK * TT_BLOCKS_PER_DIST`` entries and then overwrites its oldest,
so a lookup costs a bounded scan however hard the deal.  Memory is fixed at
allocation; when a pool is full, or for a new deal or strain, the table is
cleared.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from solvers.bridge._bits cimport kth_highest, lsb, msb, popcount
from solvers.bridge._types cimport (
    TT_BLOCK,
    TT_BLOCKS_PER_DIST,
    TT_NO_MOVE,
    Ctx,
    TransTable,
    TTDist,
    TTBlock,
)


cdef extern from *:
    """
    #include <stdlib.h>
    #include <stdint.h>
    #ifdef _WIN32
    #include <malloc.h>
    static void* qp_alloc_lines(size_t n) { return _aligned_malloc(n, 64); }
    static void qp_free_lines(void* p) { _aligned_free(p); }
    #else
    static void* qp_alloc_lines(size_t n) {
        void* p = NULL;
        return posix_memalign(&p, 64, n) == 0 ? p : NULL;
    }
    static void qp_free_lines(void* p) { free(p); }
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
    void* qp_alloc_lines(size_t n) noexcept nogil
    void qp_free_lines(void* p) noexcept nogil
    unsigned int qp_sig_hits(const uint16_t* sig, const uint16_t* sigmask,
                             unsigned int owners) noexcept nogil
    unsigned int qp_sig_equal(const uint16_t* sig, const uint16_t* sigmask,
                              unsigned int owners, unsigned int mask) noexcept nogil


cdef inline size_t tt_bytes(int log_entries) noexcept nogil:
    """Memory of a table of ``2**log_entries`` entries: blocks, distributions, bucket heads."""
    return (<size_t>1 << (log_entries - 4)) * (sizeof(TTBlock) + sizeof(TTDist) + sizeof(int32_t))


cdef inline int tt_init(TransTable* tt, int log_entries) noexcept nogil:
    """Allocate ``2**log_entries`` entries; returns 0, or -1 when memory is short."""
    tt.block_capacity = 1 << (log_entries - 4)
    tt.dist_capacity = tt.block_capacity  # every distribution holds at least one block
    tt.bucket_mask = (1 << (log_entries - 4)) - 1
    # blocks on cache-line boundaries: a block's signatures and sigmasks are one line
    tt.blocks = <TTBlock*>qp_alloc_lines(sizeof(TTBlock) * tt.block_capacity)
    tt.dists = <TTDist*>malloc(sizeof(TTDist) * tt.dist_capacity)
    tt.heads = <int32_t*>malloc(sizeof(int32_t) * (tt.bucket_mask + 1))
    tt.lookups = 0
    tt.probes = 0
    tt.hits = 0
    tt.stores = 0
    tt.resets = 0
    if tt.blocks == NULL or tt.dists == NULL or tt.heads == NULL:
        tt_free(tt)
        return -1
    tt.dists_used = 1
    tt_reset(tt)
    return 0


cdef inline void tt_free(TransTable* tt) noexcept nogil:
    qp_free_lines(tt.blocks)
    free(tt.dists)
    free(tt.heads)
    tt.blocks = NULL
    tt.dists = NULL
    tt.heads = NULL


cdef inline void tt_reset(TransTable* tt) noexcept nogil:
    if tt.dists_used:
        memset(tt.heads, 0xFF, sizeof(int32_t) * (tt.bucket_mask + 1))
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


cdef inline uint32_t _bucket(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    cdef uint64_t h = (lens ^ (<uint64_t>leader * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL
    return <uint32_t>(h >> 40) & tt.bucket_mask


cdef extern from *:
    """
    #define qp_prefetch(p) __builtin_prefetch(p)
    """
    void qp_prefetch(const void* p) noexcept nogil


cdef inline void tt_prefetch(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """Start loading the distribution's bucket while the caller does other work."""
    qp_prefetch(&tt.heads[_bucket(tt, lens, leader)])


cdef inline TTDist* _find_dist(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    cdef int32_t i = tt.heads[_bucket(tt, lens, leader)]
    cdef TTDist* d
    while i >= 0:
        d = &tt.dists[i]
        if d.lens == lens and d.leader == leader:
            return d
        i = d.next
    return NULL


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
    cdef TTDist* d
    cdef TTBlock* blk
    cdef TTBlock* best = NULL
    cdef int b, j, s, k, best_j = 0, best_pinned = 128
    cdef unsigned int cand
    cdef uint32_t owners = _top_owners(pat)
    cdef uint32_t p0 = pat[0], p1 = pat[1], p2 = pat[2], p3 = pat[3]
    tt.lookups += 1
    move[0] = -1
    d = _find_dist(tt, lens, leader)
    if d == NULL:
        return -1
    for b in range((d.count + TT_BLOCK - 1) // TT_BLOCK):
        blk = &tt.blocks[d.blocks[b]]
        # the signatures rule out most entries with one cache line; the rest are
        # compared in full, in slot order (so ties keep the oldest entry)
        cand = qp_sig_hits(blk.signature, blk.sigmask, owners) & _live(b, d.count)
        while cand:
            j = lsb(cand)
            cand &= cand - 1u
            if (((p0 & blk.mask[0][j]) ^ blk.pattern[0][j])
                    | ((p1 & blk.mask[1][j]) ^ blk.pattern[1][j])
                    | ((p2 & blk.mask[2][j]) ^ blk.pattern[2][j])
                    | ((p3 & blk.mask[3][j]) ^ blk.pattern[3][j])):
                continue
            tt.probes += 1
            if blk.lower[j] < threshold <= blk.upper[j]:
                continue
            if blk.pinned[j] < best_pinned:
                best = blk
                best_j = j
                best_pinned = blk.pinned[j]
    if best == NULL:
        return -1
    tt.hits += 1
    for s in range(4):
        k = popcount(best.mask[s][best_j]) >> 1  # cards of the suit the entry depends on
        wm[s] = <uint16_t>(1u << kth_highest(c.remain[s], k)) if k else 0
    if best.lower[best_j] >= threshold:
        move[0] = _move_of(c, leader, best.move[best_j])
        return 1
    return 0


cdef inline void tt_store(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          Ctx* c, uint16_t* wm, int lower, int upper, int move) noexcept nogil:
    """Record bounds ``lower <= leader side's tricks <= upper`` valid under ``wm``;
    ``move`` (``suit * 16 + rank``, or -1) is the lead that reached ``lower``."""
    cdef uint32_t mask[4]
    cdef uint32_t patm[4]
    cdef int s, k, j, slot
    cdef unsigned int cand, sig, sigmask
    cdef uint32_t b, bucket
    cdef int32_t di
    cdef TTDist* d
    cdef TTBlock* blk
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
            mask[s] = 0u
        patm[s] = pat[s] & mask[s]
    sig = _top_owners(patm)
    sigmask = _top_owners(mask)
    d = _find_dist(tt, lens, leader)
    if d != NULL:
        for k in range((d.count + TT_BLOCK - 1) // TT_BLOCK):
            blk = &tt.blocks[d.blocks[k]]
            cand = qp_sig_equal(blk.signature, blk.sigmask, sig, sigmask) & _live(k, d.count)
            while cand:
                j = lsb(cand)
                cand &= cand - 1u
                if (blk.pattern[0][j] == patm[0] and blk.pattern[1][j] == patm[1]
                        and blk.pattern[2][j] == patm[2] and blk.pattern[3][j] == patm[3]
                        and blk.mask[0][j] == mask[0] and blk.mask[1][j] == mask[1]
                        and blk.mask[2][j] == mask[2] and blk.mask[3][j] == mask[3]):
                    if lower > blk.lower[j]:
                        blk.lower[j] = <int8_t>lower
                        blk.move[j] = code
                    if upper < blk.upper[j]:
                        blk.upper[j] = <int8_t>upper
                    return
    if d == NULL or (d.count % TT_BLOCK == 0 and d.count < TT_BLOCK * TT_BLOCKS_PER_DIST):
        # a new distribution and/or a new block
        if tt.dists_used >= tt.dist_capacity or tt.blocks_used >= tt.block_capacity:
            tt_reset(tt)
            tt.resets += 1
            d = NULL
        if d == NULL:
            di = tt.dists_used
            tt.dists_used += 1
            d = &tt.dists[di]
            d.lens = lens
            d.leader = <uint8_t>leader
            d.count = 0
            d.cursor = 0
            bucket = _bucket(tt, lens, leader)
            d.next = tt.heads[bucket]
            tt.heads[bucket] = di
        blk = &tt.blocks[tt.blocks_used]
        for s in range(4):
            for j in range(TT_BLOCK):
                # unused slots never match: pattern bits below the 13 cards are always 0
                blk.mask[s][j] = 0xFFFFFFFFu
                blk.pattern[s][j] = 1u
        d.blocks[d.count // TT_BLOCK] = tt.blocks_used
        tt.blocks_used += 1
    if d.count < TT_BLOCK * TT_BLOCKS_PER_DIST:
        slot = d.count
        d.count += 1
    else:
        slot = d.cursor
        d.cursor = <uint16_t>((d.cursor + 1) % (TT_BLOCK * TT_BLOCKS_PER_DIST))
    tt.stores += 1
    blk = &tt.blocks[d.blocks[slot // TT_BLOCK]]
    j = slot % TT_BLOCK
    blk.signature[j] = <uint16_t>sig
    blk.sigmask[j] = <uint16_t>sigmask
    blk.pinned[j] = 0
    for s in range(4):
        blk.mask[s][j] = mask[s]
        blk.pattern[s][j] = patm[s]
        blk.pinned[j] += popcount(mask[s])
    blk.lower[j] = <int8_t>lower
    blk.upper[j] = <int8_t>upper
    blk.move[j] = code
