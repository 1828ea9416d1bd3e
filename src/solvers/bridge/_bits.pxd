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
