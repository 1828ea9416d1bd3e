# cython: language_level=3
"""The plain C state of one search (one per thread; no Python objects).

Cards: suit 0..3 in ``S H D C`` order, rank as bit index 0..12 (deuce = 0,
ace = 12), hands ``hands[seat][suit]`` as 13-bit masks, seats ``N E S W`` =
0..3, trump 0..3 or 4 for notrump (DDS numbering).
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef enum:
    NOTRUMP = 4
    MAX_PLY = 56


cdef struct Move:
    # 8 bytes, so that ordering copies a move in one load and one store
    int8_t suit
    int8_t rank       # bit index 0..12
    uint16_t seq      # this card and the cards equivalent to it in the same hand
    int32_t weight


cdef enum:
    TT_BLOCK = 16            # entries in one block of a distribution's list
    TT_BLOCKS_PER_DIST = 32   # so at most 512 entries a distribution, then overwritten
    TT_NO_MOVE = 0xFF


cdef struct TTEntry:
    # 32 bytes, half a cache line: a lookup that compares an entry in full reads one line
    uint32_t pattern[4]   # owners (2 bits each) of the relevant top cards, highest first
    uint8_t shift[4]      # 32 - 2 * (cards of the suit the entry depends on): the pattern
                          # bits below the relevant cards, shifted out when comparing
    int8_t lower          # bounds on the leader's side's tricks from this trick on
    int8_t upper
    uint8_t move          # the lead that reached ``lower``: suit * 16 + how many cards
                          # still out in the suit rank above it; TT_NO_MOVE when none
    uint8_t pinned        # 2-bit slots the entry depends on
    uint8_t spare[8]


cdef struct TTBlock:
    # the signatures column by column, so that a lookup compares the whole block's
    # with vector instructions (one cache line); then the entries, two a line
    uint16_t signature[TT_BLOCK]   # owners of the top two cards of each suit, as far as
    uint16_t sigmask[TT_BLOCK]     # the entry depends on them (2 bits a card)
    TTEntry entry[TT_BLOCK]        # 576 bytes in all, nine whole cache lines


cdef enum:
    TT_NEAR_BLOCKS = 12      # block indices kept in the key's cache line (1 to 11 used)


cdef struct TTDist:
    # a distribution: its key and the indices of its list's blocks 1 to 11, one cache
    # line (64 bytes)
    uint64_t lens          # suit lengths of all four hands, 4 bits each
    uint16_t count         # entries stored (at most TT_BLOCK * TT_BLOCKS_PER_DIST)
    uint16_t cursor        # next entry to overwrite once the list is full
    uint16_t generation    # the slot is in use when this is the table's generation
    uint8_t leader
    uint8_t spare
    int32_t blocks[TT_NEAR_BLOCKS]  # blocks[0] unused: the slot's own block


cdef struct TTSlot:
    # one distribution with the first block of its list right after its key's line, so
    # that the lines a lookup reads first are adjacent (768 bytes, twelve cache lines)
    TTDist dist
    TTBlock first
    int32_t far_blocks[TT_BLOCKS_PER_DIST - TT_NEAR_BLOCKS]  # the indices of blocks 12 on
    uint8_t spare_end[48]


cdef struct TransTable:
    TTSlot* slots          # open addressing on the distribution's hash, linear probing
    uint32_t slot_mask
    int32_t dists_used
    int32_t dist_capacity  # at most this many distributions (3/4 of the slots)
    uint16_t generation
    TTBlock* blocks        # the blocks of the lists after their first
    int32_t block_capacity
    int32_t blocks_used
    int64_t lookups
    int64_t probes
    int64_t hits
    int64_t stores
    int64_t resets


cdef enum:
    # search features (bits of Ctx.features), switched off one by one only by the
    # differential tests
    FEATURE_TT = 1
    FEATURE_QUICK_TRICKS = 2
    FEATURE_LATER_TRICKS = 4
    FEATURE_SMALL_CARDS = 8
    ALL_FEATURES = 15


cdef struct Ctx:
    uint16_t hands[4][4]
    uint16_t remain[4]     # cards not yet gone in completed tricks (hands + current trick)
    int trump
    int max_side           # 0: the search counts N-S tricks, 1: E-W tricks
    int tricks_max         # tricks the counted side has won since the root
    int leader             # seat that led the current trick
    int pos                # cards already played to the current trick (0..3)
    int trick_suit[4]
    int trick_rank[4]
    int win_pos            # position in the trick of the card winning it so far
    # the transposition-table key, kept up to date card by card (from scratch at the
    # root of every search): the suit lengths of the four hands, 4 bits each, and the
    # owners of the cards still out in each suit, highest first, 2 bits a card from
    # bit 31 down (the cards of the current trick stay in until it is complete)
    uint64_t lens
    uint32_t pat[4]
    int killer[MAX_PLY]    # suit * 16 + rank of the last move that cut off at this ply, or
                           # that reached the bound a table entry answered with here
    int root_cut           # suit * 16 + rank of the last move that cut off at the root
    int probe_horizon      # inside a probe (_search._probe_cut): the ply of the next trick
                           # start, where the probe stops; 0 outside probes
    bint probe_fail        # the answer a probe's trick start gives when no cheap answer
                           # decides: the probing mover's failure
    int probe_plies        # plies from the root of a search (below this) whose mover may
                           # probe: those with _search.PROBE_TRICKS cards or more
    int features           # FEATURE_* bits in use
    int64_t nodes
    int64_t qt_cutoffs
    int64_t qt2_cutoffs     # second-hand quick-trick cutoffs
    int64_t root_searches
    int64_t lt_cutoffs
    int64_t trick_nodes[14]   # trick-start nodes by tricks left
    int64_t trick_searched[14][2]  # of those, searched move by move: leader's side fails / makes
    int64_t small_skips
    int64_t cut_first[4]   # cutoffs by the first move tried, by position in the trick
    int64_t cut_later[4]   # cutoffs by a later move
    int64_t no_cut[4]      # nodes where every move was searched
    TransTable tt
