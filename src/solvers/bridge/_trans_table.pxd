# cython: language_level=3
"""Transposition table on trick boundaries, keyed by relative ranks (partition search).

An entry is stored for a position at the start of a trick.  Its key is the
leader and the suit lengths of all four hands; its body says who owns each of
the top ``k`` cards still out in every suit (ranks made *relative* to the
cards still out, so AK with the Q gone looks like AQ with the K gone), where
``k`` covers every card that won a trick by rank in the search below (the
"win ranks" the search backs up).  Lower cards only count through the suit
lengths.  Any position with the same key whose top cards agree on those
slots has the same bounds on the leader's side's tricks.

Layout: two hash tables with chained buckets.  *Shapes* list, per key, the
distinct masks (the ``k`` of each suit) that entries of that key use — few
per key.  *Entries* are hashed on key, mask and masked pattern, so a lookup
costs one probe per shape of its key instead of a scan of every entry of the
distribution.  Memory is fixed at allocation; when a pool is full, or for a
new deal or strain, the table is cleared.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from solvers.bridge._bits cimport msb, popcount
from solvers.bridge._types cimport Ctx, TransTable, TTEntry, TTShape


cdef inline int tt_init(TransTable* tt, int log_entries, int log_buckets) noexcept nogil:
    """Allocate the table; returns 0, or -1 when memory is short."""
    tt.capacity = 1 << log_entries
    tt.bucket_mask = (1 << log_buckets) - 1
    tt.shape_capacity = 1 << (log_entries - 2)
    tt.shape_bucket_mask = (1 << (log_buckets - 2)) - 1
    tt.entries = <TTEntry*>malloc(sizeof(TTEntry) * tt.capacity)
    tt.heads = <int32_t*>malloc(sizeof(int32_t) * (tt.bucket_mask + 1))
    tt.shapes = <TTShape*>malloc(sizeof(TTShape) * tt.shape_capacity)
    tt.shape_heads = <int32_t*>malloc(sizeof(int32_t) * (tt.shape_bucket_mask + 1))
    tt.lookups = 0
    tt.hits = 0
    tt.stores = 0
    tt.resets = 0
    if tt.entries == NULL or tt.heads == NULL or tt.shapes == NULL or tt.shape_heads == NULL:
        tt_free(tt)
        return -1
    tt.used = 1
    tt_reset(tt)
    return 0


cdef inline void tt_free(TransTable* tt) noexcept nogil:
    free(tt.entries)
    free(tt.heads)
    free(tt.shapes)
    free(tt.shape_heads)
    tt.entries = NULL
    tt.heads = NULL
    tt.shapes = NULL
    tt.shape_heads = NULL


cdef inline void tt_reset(TransTable* tt) noexcept nogil:
    if tt.used:
        memset(tt.heads, 0xFF, sizeof(int32_t) * (tt.bucket_mask + 1))
        memset(tt.shape_heads, 0xFF, sizeof(int32_t) * (tt.shape_bucket_mask + 1))
        tt.used = 0
        tt.shapes_used = 0


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


cdef inline uint64_t _key_hash(uint64_t lens, int leader) noexcept nogil:
    return (lens ^ (<uint64_t>leader * 0xD6E8FEB86659FD93ULL)) * 0x9E3779B97F4A7C15ULL


cdef inline uint32_t _entry_bucket(TransTable* tt, uint64_t lens, int leader, uint32_t* mask,
                                   uint32_t* patm) noexcept nogil:
    cdef uint64_t h = _key_hash(lens, leader)
    h = (h ^ (<uint64_t>mask[0] | (<uint64_t>mask[1] << 32))) * 0xC2B2AE3D27D4EB4FULL
    h = (h ^ (<uint64_t>mask[2] | (<uint64_t>mask[3] << 32))) * 0x165667B19E3779F9ULL
    h = (h ^ (<uint64_t>patm[0] | (<uint64_t>patm[1] << 32))) * 0x9E3779B97F4A7C15ULL
    h = (h ^ (<uint64_t>patm[2] | (<uint64_t>patm[3] << 32))) * 0xD6E8FEB86659FD93ULL
    return <uint32_t>(h >> 40) & tt.bucket_mask


cdef inline TTEntry* _find(TransTable* tt, uint64_t lens, int leader, uint32_t* mask,
                           uint32_t* patm) noexcept nogil:
    cdef int32_t i = tt.heads[_entry_bucket(tt, lens, leader, mask, patm)]
    cdef TTEntry* e
    while i >= 0:
        e = &tt.entries[i]
        if (e.lens == lens and e.leader == leader
                and e.pattern[0] == patm[0] and e.pattern[1] == patm[1]
                and e.pattern[2] == patm[2] and e.pattern[3] == patm[3]
                and e.mask[0] == mask[0] and e.mask[1] == mask[1]
                and e.mask[2] == mask[2] and e.mask[3] == mask[3]):
            return e
        i = e.next
    return NULL


cdef inline int tt_lookup(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          int threshold, Ctx* c, uint16_t* wm) noexcept nogil:
    """Is the leader's side sure to take >= threshold tricks? 1 yes, 0 no, -1 unknown.

    On an answer, ``wm`` gets the win ranks of the entry: in each suit the lowest
    card still out that the entry depends on.
    """
    cdef int32_t si = tt.shape_heads[<uint32_t>(_key_hash(lens, leader) >> 40)
                                     & tt.shape_bucket_mask]
    cdef TTShape* sh
    cdef TTEntry* e
    cdef uint32_t patm[4]
    cdef int s, answer, k
    cdef uint32_t rem
    tt.lookups += 1
    while si >= 0:
        sh = &tt.shapes[si]
        si = sh.next
        if sh.lens != lens or sh.leader != leader:
            continue
        for s in range(4):
            patm[s] = pat[s] & sh.mask[s]
        e = _find(tt, lens, leader, sh.mask, patm)
        if e == NULL:
            continue
        if e.lower >= threshold:
            answer = 1
        elif e.upper < threshold:
            answer = 0
        else:
            continue
        tt.hits += 1
        for s in range(4):
            wm[s] = 0
            k = popcount(e.mask[s]) >> 1
            rem = c.remain[s]
            while k > 1:
                rem ^= 1u << msb(rem)
                k -= 1
            if k == 1:
                wm[s] = <uint16_t>(1u << msb(rem))
        return answer
    return -1


cdef inline void tt_store(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          Ctx* c, uint16_t* wm, int lower, int upper) noexcept nogil:
    """Record bounds ``lower <= leader side's tricks <= upper`` valid under ``wm``."""
    cdef uint32_t mask[4]
    cdef uint32_t patm[4]
    cdef int s, k
    cdef uint32_t b, sb
    cdef int32_t i, si
    cdef TTEntry* e
    cdef TTShape* sh
    for s in range(4):
        if wm[s]:
            b = wm[s] & (~wm[s] + 1u)  # lowest win rank
            k = popcount(c.remain[s] & ~(b - 1u))
            mask[s] = 0xFFFFFFFFu << (32 - 2 * k) if k else 0u
        else:
            mask[s] = 0u
        patm[s] = pat[s] & mask[s]
    e = _find(tt, lens, leader, mask, patm)
    if e != NULL:
        if lower > e.lower:
            e.lower = <int8_t>lower
        if upper < e.upper:
            e.upper = <int8_t>upper
        return
    if tt.used >= tt.capacity or tt.shapes_used >= tt.shape_capacity:
        tt_reset(tt)
        tt.resets += 1
    # the shape of this entry, once per key
    sb = <uint32_t>(_key_hash(lens, leader) >> 40) & tt.shape_bucket_mask
    si = tt.shape_heads[sb]
    while si >= 0:
        sh = &tt.shapes[si]
        if (sh.lens == lens and sh.leader == leader and sh.mask[0] == mask[0]
                and sh.mask[1] == mask[1] and sh.mask[2] == mask[2] and sh.mask[3] == mask[3]):
            break
        si = sh.next
    if si < 0:
        si = tt.shapes_used
        tt.shapes_used += 1
        sh = &tt.shapes[si]
        sh.lens = lens
        sh.leader = <uint8_t>leader
        for s in range(4):
            sh.mask[s] = mask[s]
        sh.next = tt.shape_heads[sb]
        tt.shape_heads[sb] = si
    i = tt.used
    tt.used += 1
    tt.stores += 1
    e = &tt.entries[i]
    e.lens = lens
    e.leader = <uint8_t>leader
    for s in range(4):
        e.mask[s] = mask[s]
        e.pattern[s] = patm[s]
    e.lower = <int8_t>lower
    e.upper = <int8_t>upper
    b = _entry_bucket(tt, lens, leader, mask, patm)
    e.next = tt.heads[b]
    tt.heads[b] = i
