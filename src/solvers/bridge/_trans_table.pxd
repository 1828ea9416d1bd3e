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
of the 16 entries' signatures (the owners of the top two cards of each suit as two
bit planes, and which of those cards the entry depends on: 3 bytes an entry) rules
most of them out, and the rest are compared in full (an entry is half a cache
line).  A distribution keeps at most ``TT_BLOCK * TT_BLOCKS_PER_DIST`` entries and
then overwrites its oldest, so a lookup costs a bounded scan however hard the deal.
Memory is fixed at allocation; when a pool is full, or for a new deal or strain,
the table is cleared.

The table is too large for the caches, so a lookup's time goes to waiting for
memory: each cache line it needs only once the one before has been read costs a
full wait.  So the distributions live in the hash table itself (open addressing),
each slot holding the first block of its list (two thirds of the lookups scan one
block), and a block's first line holds both the distribution's key and the block's
signatures (a pool block's first line, the index of the next block): a lookup waits
for one line before it knows which entries to read.  The search prefetches that line
and the block's entries at the start of a trick, before quick tricks
(``tt_prefetch``): a lookup then mostly finds its lines on their way.  The slots in
use are a region at the table's start, doubled as the distributions grow in number
(``_grow``), so that a small search's slots lie on few pages (on a virtual machine the
host may map memory in 4 KiB pages, each needing its own TLB entry).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from solvers._hints cimport prefetch_read
from solvers.bridge._bits cimport kth_highest, lsb, msb, popcount
from solvers.bridge._tt_native cimport (
    qp_alloc_table,
    qp_free_table,
    qp_planes,
    qp_sig_equal,
    qp_sig_hits,
)
from solvers.bridge._types cimport (
    TT_BLOCK,
    TT_NO_MOVE,
    Ctx,
    TransTable,
    TT_GENERATIONS,
    TT_LIST_ENTRIES,
    TT_SEEN,
    TTBlock,
    TTEntry,
    TTVisit,
)


cdef inline size_t tt_bytes(int log_entries) noexcept nogil:
    """Memory of a table of ``2**log_entries`` entries: half of them in the slots' own
    blocks, half in the blocks of longer lists."""
    return (<size_t>1 << (log_entries - 4)) * sizeof(TTBlock)


cdef inline int tt_init(TransTable* tt, int log_entries) noexcept nogil:
    """Allocate ``2**log_entries`` entries; returns 0, or -1 when memory is short."""
    tt.slot_mask = (1u << (log_entries - 5)) - 1u
    tt.dist_capacity = <int32_t>((tt.slot_mask + 1) // 4 * 3)
    tt.block_capacity = 1 << (log_entries - 5)
    # zeroed (every slot free: generation 0), on cache-line boundaries: a block's
    # first line holds the key and the signatures
    tt.slots = <TTBlock*>qp_alloc_table(sizeof(TTBlock) * (tt.slot_mask + 1))
    tt.blocks = <TTBlock*>qp_alloc_table(sizeof(TTBlock) * tt.block_capacity)
    tt.lookups = 0
    tt.probes = 0
    tt.hits = 0
    tt.stores = 0
    tt.resets = 0
    tt.moves = 0
    tt.region_mask = _first_region(tt)
    if tt.slots == NULL or tt.blocks == NULL:
        tt_free(tt)
        return -1
    tt.generation = 1
    tt.dists_used = 0
    tt.blocks_used = 0
    return 0


cdef inline void tt_free(TransTable* tt) noexcept nogil:
    qp_free_table(tt.slots, sizeof(TTBlock) * (tt.slot_mask + 1))
    qp_free_table(tt.blocks, sizeof(TTBlock) * tt.block_capacity)
    tt.slots = NULL
    tt.blocks = NULL


cdef enum:
    # slots in the region a new table starts with (3 MiB; an opening-lead solve stores
    # about 5,000 distributions, at most ~23,000)
    TT_FIRST_REGION = 1 << 13


cdef inline uint32_t _first_region(TransTable* tt) noexcept nogil:
    return tt.slot_mask if tt.slot_mask < TT_FIRST_REGION else TT_FIRST_REGION - 1


cdef inline void _next_generation(TransTable* tt, bint keep) noexcept nogil:
    """A new generation number: the slots of the current one become free (unless moved on,
    see _grow).  When the numbers wrap around every slot is cleared, but with ``keep`` those
    of the current generation."""
    cdef uint16_t old = tt.generation
    cdef uint32_t i
    tt.generation += 1
    if tt.generation == TT_GENERATIONS:
        for i in range(tt.slot_mask + 1):
            if not keep or (tt.slots[i].tag >> 2) != old:
                tt.slots[i].tag = 0
        tt.generation = 1


cdef inline void tt_reset(TransTable* tt) noexcept nogil:
    """Empty the table: a new generation makes every slot free (the slots are cleared
    only when the generation number wraps around)."""
    if tt.dists_used:
        _next_generation(tt, 0)
        tt.region_mask = _first_region(tt)
        tt.moves += 1
        tt.dists_used = 0
        tt.blocks_used = 0


cdef inline void _grow(TransTable* tt) noexcept nogil:
    """Double the region of slots in use, its distributions rehashed into it.

    The table is spread over all its slots only when a search needs them: in the region
    a search's slots lie on fewer pages, and each 4 KiB page a lookup reads needs its own
    TLB entry on a virtual machine whose host maps memory in 4 KiB pages (a page walk
    otherwise).  A distribution's slot moves with its first block; its later blocks stay
    in the pool.  The moved slots take a new generation: a slot of the old one still holds
    a distribution to move, so one that lands there swaps it out and moves it on."""
    cdef uint16_t old = tt.generation
    cdef uint32_t i, t
    cdef TTBlock carry, held
    _next_generation(tt, 1)
    tt.moves += 1
    tt.region_mask = 2 * tt.region_mask + 1
    for i in range((tt.region_mask + 1) // 2):
        if (tt.slots[i].tag >> 2) != old:
            continue
        carry = tt.slots[i]
        tt.slots[i].tag = 0
        while True:
            carry.tag = _tag(tt, carry.tag & 3)
            t = _home(tt, carry.lens, carry.tag & 3)
            while (tt.slots[t].tag >> 2) == tt.generation:
                t = (t + 1) & tt.region_mask
            if (tt.slots[t].tag >> 2) != old:
                tt.slots[t] = carry
                break
            held = tt.slots[t]
            tt.slots[t] = carry
            carry = held


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
    return <uint32_t>(h >> 40) & tt.region_mask


cdef inline void tt_prefetch(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """Start loading the distribution's slot while the caller does other work: its first
    line (the key and the signatures), then the 16 entries.  Which entries a lookup
    compares in full is known only once the signatures are read: loading them all ahead
    takes that wait off the lookup too.  The entries' lines go to L2 only (most are never
    compared): into L1 as well, a lead simulation took 0.7 % longer on an Intel Xeon
    (docs/CHANGELOG.md, 2026-12-03 "TT prefetch hints")."""
    cdef char* slot = <char*>&tt.slots[_home(tt, lens, leader)]
    cdef int j
    prefetch_read(slot, 3)
    for j in range(64, <int>sizeof(TTBlock), 64):
        prefetch_read(slot + j, 2)


cdef inline uint16_t _tag(TransTable* tt, int leader) noexcept nogil:
    return <uint16_t>((tt.generation << 2) | leader)


cdef inline TTBlock* _find_slot(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """The slot of the distribution, or the free slot where it would go."""
    cdef uint32_t i = _home(tt, lens, leader)
    cdef uint16_t tag = _tag(tt, leader)
    cdef TTBlock* slot
    while True:
        slot = &tt.slots[i]
        if (slot.tag >> 2) != tt.generation or (slot.lens == lens and slot.tag == tag):
            return slot
        i = (i + 1) & tt.region_mask


cdef inline bint _in_use(TransTable* tt, TTBlock* slot) noexcept nogil:
    return (slot.tag >> 2) == tt.generation


cdef inline int _list_length(TTBlock* slot) noexcept nogil:
    """Entries in the slot's list."""
    return slot.fill if slot.fill < TT_LIST_ENTRIES else TT_LIST_ENTRIES


cdef inline uint32_t _top_owners(uint32_t* pat) noexcept nogil:
    """Owners of the top two cards of each suit, 4 bits a suit (the first pattern slots)."""
    return (pat[0] >> 28) | ((pat[1] >> 28) << 4) | ((pat[2] >> 28) << 8) | ((pat[3] >> 28) << 12)


cdef inline int _pinned(unsigned int cards) noexcept nogil:
    """Cards an entry depends on, of its ``cards``."""
    return (cards & 15) + ((cards >> 4) & 15) + ((cards >> 8) & 15) + (cards >> 12)


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
                          int threshold, Ctx* c, uint16_t* wm, int* move,
                          TTVisit* visit) noexcept nogil:
    """Is the leader's side sure to take >= threshold tricks? 1 yes, 0 no, -1 unknown.

    On an answer, ``wm`` gets the win ranks of the entry: in each suit the lowest
    card still out that the entry depends on.  Of the entries that answer, the one
    pinning the fewest cards is used: the parent stores the union of its children's
    win ranks, so a general answer here keeps the parent's entry general too (8 %
    fewer trick-start nodes than the first answering entry).  On a yes, ``move``
    gets the lead that reached the entry's lower bound (``suit * 16 + rank``), else
    -1.  ``visit`` gets what the store at the same node needs (see ``TTVisit``).
    """
    cdef TTBlock* blk
    cdef TTEntry* e
    cdef TTEntry* best = NULL
    cdef int b, j, s, k, count, pinned, best_pinned = 128, matched = 0
    cdef unsigned int cand, cards
    cdef uint32_t planes = qp_planes(_top_owners(pat))
    cdef uint32_t p0 = pat[0], p1 = pat[1], p2 = pat[2], p3 = pat[3]
    tt.lookups += 1
    move[0] = -1
    blk = _find_slot(tt, lens, leader)
    if not _in_use(tt, blk):
        visit.slot = NULL
        return -1
    visit.slot = blk
    visit.moves = tt.moves
    count = _list_length(blk)
    b = 0
    while True:
        # the signatures rule out most entries with the line already read; the rest are
        # compared in full, in slot order (so ties keep the oldest entry)
        cand = qp_sig_hits(blk.sig_high, blk.sig_low, blk.sig_mask, planes) & _live(b, count)
        while cand:
            j = lsb(cand)
            cand &= cand - 1u
            e = &blk.entry[j]
            cards = e.cards
            if ((<uint64_t>(p0 ^ e.pattern[0]) >> (32 - 2 * (cards & 15)))
                    | (<uint64_t>(p1 ^ e.pattern[1]) >> (32 - 2 * ((cards >> 4) & 15)))
                    | (<uint64_t>(p2 ^ e.pattern[2]) >> (32 - 2 * ((cards >> 8) & 15)))
                    | (<uint64_t>(p3 ^ e.pattern[3]) >> (32 - 2 * (cards >> 12)))):
                continue
            tt.probes += 1
            if matched < TT_SEEN:
                visit.match[matched] = e
            matched += 1
            if (e.bounds & 15) < threshold <= (e.bounds >> 4):
                continue
            pinned = _pinned(cards)
            if pinned < best_pinned:
                best = e
                best_pinned = pinned
        b += 1
        if b * TT_BLOCK >= count:
            break
        blk = &tt.blocks[blk.next]
    visit.last = blk
    visit.matched = matched if matched <= TT_SEEN else TT_SEEN + 1
    if best == NULL:
        return -1
    tt.hits += 1
    for s in range(4):
        k = (best.cards >> (4 * s)) & 15
        wm[s] = <uint16_t>(1u << kth_highest(c.remain[s], k)) if k else 0
    if (best.bounds & 15) >= threshold:
        move[0] = _move_of(c, leader, best.move)
        return 1
    return 0


cdef inline TTBlock* _claim(TransTable* tt, uint64_t lens, int leader) noexcept nogil:
    """A new distribution with an empty list in its free slot (the table emptied first
    when it holds as many distributions as it may, its region doubled when that is 3/4
    full)."""
    cdef TTBlock* slot
    if tt.dists_used >= tt.dist_capacity:
        tt_reset(tt)
        tt.resets += 1
    elif tt.dists_used >= (tt.region_mask + 1) // 4 * 3:
        _grow(tt)
    slot = _find_slot(tt, lens, leader)
    tt.dists_used += 1
    slot.tag = _tag(tt, leader)
    slot.lens = lens
    slot.fill = 0
    return slot


cdef inline bint _refine(TTEntry* e, uint32_t* patm, unsigned int depth, int lower,
                         int upper, uint8_t code) noexcept nogil:
    """If ``e`` is the entry of ``patm`` and ``depth``, narrow its bounds: 1, else 0."""
    if not (e.pattern[0] == patm[0] and e.pattern[1] == patm[1]
            and e.pattern[2] == patm[2] and e.pattern[3] == patm[3] and e.cards == depth):
        return 0
    if lower > (e.bounds & 15):
        e.bounds = <uint8_t>((e.bounds & 0xF0) | lower)
        e.move = code
    if upper < (e.bounds >> 4):
        e.bounds = <uint8_t>((e.bounds & 15) | (upper << 4))
    return 1


cdef inline TTBlock* _refine_in_list(TransTable* tt, TTBlock* slot, uint32_t* patm,
                                     unsigned int depth, unsigned int planes,
                                     unsigned int cards, int lower, int upper,
                                     uint8_t code) noexcept nogil:
    """Narrow the bounds of the list's entry of ``patm`` and ``depth`` (its signature
    ``planes`` and ``cards``): NULL, or where there is none, the list's last block."""
    cdef int k, j, count = _list_length(slot)
    cdef unsigned int cand
    cdef TTBlock* blk = slot
    for k in range((count + TT_BLOCK - 1) // TT_BLOCK):
        if k:
            blk = &tt.blocks[blk.next]
        cand = qp_sig_equal(blk.sig_high, blk.sig_low, blk.sig_mask, planes, cards) \
            & _live(k, count)
        while cand:
            j = lsb(cand)
            cand &= cand - 1u
            if _refine(&blk.entry[j], patm, depth, lower, upper, code):
                return NULL
    return blk


cdef inline TTBlock* _next_place(TransTable* tt, TTBlock** slot, TTBlock* last, uint64_t lens,
                                 int leader) noexcept nogil:
    """The block where the next entry of the slot's list goes (``last``: the list's last
    block); the table is emptied first when it needs a new block and the pool is used
    up (then ``slot`` is the distribution's new slot)."""
    cdef int count = _list_length(slot[0]), pos = slot[0].fill % TT_LIST_ENTRIES, k
    cdef TTBlock* blk = slot[0]
    if count == TT_LIST_ENTRIES:
        # the list is full: its oldest entry is overwritten
        for k in range(pos // TT_BLOCK):
            blk = &tt.blocks[blk.next]
        return blk
    if count == 0 or pos % TT_BLOCK:
        return last
    if tt.blocks_used >= tt.block_capacity:
        # the pool is used up: start again with this distribution alone
        tt_reset(tt)
        tt.resets += 1
        slot[0] = _claim(tt, lens, leader)
        return slot[0]
    last.next = tt.blocks_used
    tt.blocks_used += 1
    return &tt.blocks[last.next]


cdef inline void tt_store(TransTable* tt, uint64_t lens, int leader, uint32_t* pat,
                          Ctx* c, uint16_t* wm, int lower, int upper, int move,
                          TTVisit* visit) noexcept nogil:
    """Record bounds ``lower <= leader side's tricks <= upper`` valid under ``wm``;
    ``move`` (``suit * 16 + rank``, or -1) is the lead that reached ``lower``;
    ``visit``: what the lookup at this node saw.

    An entry of the same pinned cards only narrows its bounds.  It would have matched
    the lookup's position in full, so the lookup's matches are the only ones to look at,
    unless they were more than it keeps or the table was emptied (or its slots moved)
    since."""
    cdef uint32_t mask[4]
    cdef uint32_t patm[4]
    cdef int s, k, j
    cdef unsigned int depth = 0, planes, cards
    cdef uint32_t b
    cdef TTBlock* slot = visit.slot
    cdef TTBlock* last
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
        depth |= <unsigned int>k << (4 * s)
        patm[s] = pat[s] & mask[s]
    planes = qp_planes(_top_owners(patm))
    cards = qp_planes(_top_owners(mask)) & 0xFFu
    if slot != NULL and visit.moves == tt.moves and visit.matched <= TT_SEEN:
        for j in range(visit.matched):
            if _refine(visit.match[j], patm, depth, lower, upper, code):
                return
        last = visit.last
    else:
        slot = _find_slot(tt, lens, leader)
        if _in_use(tt, slot):
            last = _refine_in_list(tt, slot, patm, depth, planes, cards, lower, upper, code)
            if last == NULL:
                return
        else:
            slot = _claim(tt, lens, leader)
            last = slot
    last = _next_place(tt, &slot, last, lens, leader)
    j = slot.fill % TT_LIST_ENTRIES % TT_BLOCK
    slot.fill += 1
    if slot.fill == 2 * TT_LIST_ENTRIES:
        slot.fill = TT_LIST_ENTRIES
    tt.stores += 1
    e = &last.entry[j]
    for s in range(4):
        e.pattern[s] = patm[s]
    e.cards = <uint16_t>depth
    e.bounds = <uint8_t>(lower | (upper << 4))
    e.move = code
    last.sig_high[j] = <uint8_t>(planes >> 8)
    last.sig_low[j] = <uint8_t>planes
    last.sig_mask[j] = <uint8_t>cards
