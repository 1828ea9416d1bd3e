# cython: language_level=3
"""Bit tricks on suit masks (13 bits, bit ``rank - 2``; see engines/bridge/cards.py)."""

cdef extern from *:
    """
    static inline int qp_popcount(unsigned int x) { return __builtin_popcount(x); }
    /* index of the highest / lowest set bit; x must be non-zero */
    static inline int qp_msb(unsigned int x) { return 31 - __builtin_clz(x); }
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
