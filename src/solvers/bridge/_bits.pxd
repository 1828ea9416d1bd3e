# cython: language_level=3
"""Bit tricks on suit masks (13 bits, bit ``rank - 2``; see engines/bridge/cards.py)."""

cdef extern from *:
    """
    /* The search keeps the four suits' win ranks as one 64-bit word (suit s at bits
       16 s: _play's and _cover_sequence's whole-word writes) and a move as one 8-byte
       word: a big-endian CPU would give wrong answers, so it gets a build error. */
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
    #error "qipai: the bridge search assumes a little-endian CPU"
    #endif
    static inline int qp_popcount(unsigned int x) { return __builtin_popcount(x); }
    /* index of the highest / lowest set bit; x must be non-zero, and for msb a card
       mask (below 2**13).  Built with LZCNT (-mlzcnt: the bridge search's second build,
       chosen at import only on a CPU that has it; on one without it the instruction
       runs as BSR and answers wrong) msb is one LZCNT.  Otherwise it reads an 8 KiB
       table: BSR issues only one every 4 cycles on some CPUs (AMD Zen 2: 4-5 % of a
       search's time). */
    #ifdef __LZCNT__
    static inline int qp_msb(unsigned int x) { return 31 ^ __builtin_clz(x); }
    #else
    #define QP_R1(v) v
    #define QP_R2(v) v, v
    #define QP_R4(v) QP_R2(v), QP_R2(v)
    #define QP_R8(v) QP_R4(v), QP_R4(v)
    #define QP_R16(v) QP_R8(v), QP_R8(v)
    #define QP_R32(v) QP_R16(v), QP_R16(v)
    #define QP_R64(v) QP_R32(v), QP_R32(v)
    #define QP_R128(v) QP_R64(v), QP_R64(v)
    #define QP_R256(v) QP_R128(v), QP_R128(v)
    #define QP_R512(v) QP_R256(v), QP_R256(v)
    #define QP_R1024(v) QP_R512(v), QP_R512(v)
    #define QP_R2048(v) QP_R1024(v), QP_R1024(v)
    #define QP_R4096(v) QP_R2048(v), QP_R2048(v)
    static const unsigned char qp_msb_table[8192] = {
        0, QP_R1(0), QP_R2(1), QP_R4(2), QP_R8(3), QP_R16(4), QP_R32(5), QP_R64(6),
        QP_R128(7), QP_R256(8), QP_R512(9), QP_R1024(10), QP_R2048(11), QP_R4096(12)};
    static inline int qp_msb(unsigned int x) { return qp_msb_table[x & 8191]; }
    #endif
    static inline int qp_lsb(unsigned int x) { return __builtin_ctz(x); }
    #if defined(__LZCNT__) && defined(__BMI__) && defined(__BMI2__)
    #define QP_BIT_INSTRUCTIONS 1
    #else
    #define QP_BIT_INSTRUCTIONS 0
    #endif
    """
    int popcount "qp_popcount"(unsigned int x) noexcept nogil
    int msb "qp_msb"(unsigned int x) noexcept nogil
    int lsb "qp_lsb"(unsigned int x) noexcept nogil
    # 1 when compiled for LZCNT, BMI1 and BMI2 (see setup.py and _ab_search.pyx)
    const int built_for_bit_instructions "QP_BIT_INSTRUCTIONS"


cdef inline int top_winners(unsigned int mine, unsigned int others) noexcept nogil:
    """How many cards of ``mine`` rank above every card of ``others``."""
    if others:
        return popcount(mine >> (msb(others) + 1))
    return popcount(mine)


cdef inline int kth_highest(unsigned int mask, int k) noexcept nogil:
    """Bit index of the ``k``-th highest card of ``mask`` (1 <= k <= its card count)."""
    while k > 1:
        mask ^= 1u << msb(mask)
        k -= 1
    return msb(mask)
