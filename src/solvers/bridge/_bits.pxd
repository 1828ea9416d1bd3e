# cython: language_level=3
"""Bit tricks on suit masks (13 bits, bit ``rank - 2``; see engines/bridge/cards.py)."""

cdef extern from *:
    """
    static inline int qp_popcount(unsigned int x) { return __builtin_popcount(x); }
    /* index of the highest / lowest set bit; x must be non-zero, and for msb a card
       mask (below 2**13): msb reads an 8 KiB table, as BSR issues only one every 4
       cycles on some CPUs (AMD Zen 2: 4-5 % of a search's time) and LZCNT is not in
       the x86-64 baseline (on a CPU without it, it runs as BSR: wrong answers) */
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
    static inline int qp_lsb(unsigned int x) { return __builtin_ctz(x); }
    """
    int popcount "qp_popcount"(unsigned int x) noexcept nogil
    int msb "qp_msb"(unsigned int x) noexcept nogil
    int lsb "qp_lsb"(unsigned int x) noexcept nogil


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
