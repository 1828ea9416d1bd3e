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
    # 20 bytes: a block's 16 entries take five cache lines after its first
    uint32_t pattern[4]   # owners (2 bits each) of the relevant top cards, highest first
    uint16_t cards        # how many cards of each suit the entry depends on (suit s at
                          # bits 4 s): the pattern bits below them are not compared
    uint8_t bounds        # lower | upper << 4: bounds on the leader's side's tricks from
                          # this trick on
    uint8_t move          # the lead that reached the lower bound: suit * 16 + how many
                          # cards still out in the suit rank above it; TT_NO_MOVE when none


cdef struct TTBlock:
    # one line for a lookup to wait on: the distribution's key (in a pool block only
    # ``next`` is used) and the block's signatures column by column, so that a lookup
    # compares the whole block's with vector instructions; then the entries, two a line
    uint64_t lens          # suit lengths of all four hands, 4 bits each
    uint16_t tag           # generation << 2 | leader: the slot is in use when its
                           # generation is the table's
    uint16_t fill          # entries stored, counting on from TT_LIST_ENTRIES as the
                           # oldest are overwritten (then back to TT_LIST_ENTRIES at twice
                           # that): the next entry goes to ``fill % TT_LIST_ENTRIES``
    int32_t next           # pool index of the list's next block
    # the owners of the top two cards of each suit as two bit planes (bit 2 s + i: the
    # high / low bit of the owner of suit s's card i from the top), and which of those
    # eight cards the entry depends on
    uint8_t sig_high[TT_BLOCK]
    uint8_t sig_low[TT_BLOCK]
    uint8_t sig_mask[TT_BLOCK]
    TTEntry entry[TT_BLOCK]        # 384 bytes in all, six whole cache lines


cdef enum:
    TT_LIST_ENTRIES = TT_BLOCK * TT_BLOCKS_PER_DIST
    TT_GENERATIONS = 1 << 14   # generation numbers that fit a tag


cdef enum:
    TT_SEEN = 4   # entries matching a position that a lookup keeps for its node's store


cdef struct TTVisit:
    # what a lookup that gave no answer leaves for the store at the same node: the search
    # in between stores only distributions of fewer cards, so the distribution's list
    # is as the lookup saw it unless the table was emptied (or its slots moved) meanwhile
    TTBlock* slot          # the distribution's slot; NULL when it was not in the table
    TTBlock* last          # the last block of its list
    int64_t moves          # the table's moves at the lookup
    int matched            # entries that matched the position in full; TT_SEEN + 1: more
    TTEntry* match[TT_SEEN]


cdef struct TransTable:
    TTBlock* slots         # a distribution's key and the first block of its list: open
                           # addressing on the distribution's hash, linear probing
    uint32_t slot_mask
    uint32_t region_mask   # the slots in use: the first region_mask + 1, doubled as the
                           # distributions grow in number (see tt_reset)
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
    int64_t moves          # resets and regions doubled: the slots' contents moved


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
