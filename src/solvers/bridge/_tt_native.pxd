# cython: language_level=3
"""The transposition table's native helpers, in C: its memory (zeroed, on huge pages
where the system gives them) and the signature compares (bit planes, SSE2 byte compares)
that rule out most of a block's entries at once.  See ``_trans_table``."""

from libc.stdint cimport uint8_t


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

    /* The eight top cards' owners (4 bits a suit, as _top_owners gives them) as two
       bit planes: the owners' low bits in bits 0-7, their high bits in bits 8-15. */
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline unsigned qp_planes(unsigned owners) {
        return _pext_u32(owners, 0x5555u) | (_pext_u32(owners, 0xAAAAu) << 8);
    }
    #else
    static inline unsigned qp_even_bits(unsigned x) {
        x &= 0x5555u;
        x = (x | (x >> 1)) & 0x3333u;
        x = (x | (x >> 2)) & 0x0F0Fu;
        return (x | (x >> 4)) & 0x00FFu;
    }
    static inline unsigned qp_planes(unsigned owners) {
        return qp_even_bits(owners) | (qp_even_bits(owners >> 1) << 8);
    }
    #endif

    /* Bit j set where entry j of a block may match: its signature agrees with
       ``planes`` on the cards of its mask (16 entries of 3 bytes, in the line of the
       distribution's key); with ``exact``, where signature and mask equal ``planes``
       and ``mask``. */
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    static inline unsigned qp_sig_hits(const uint8_t* high, const uint8_t* low,
                                       const uint8_t* mask, unsigned planes) {
        __m128i d = _mm_or_si128(
            _mm_xor_si128(_mm_loadu_si128((const __m128i*)high),
                          _mm_set1_epi8((char)(planes >> 8))),
            _mm_xor_si128(_mm_loadu_si128((const __m128i*)low), _mm_set1_epi8((char)planes)));
        d = _mm_and_si128(d, _mm_loadu_si128((const __m128i*)mask));
        return (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128()));
    }
    static inline unsigned qp_sig_equal(const uint8_t* high, const uint8_t* low,
                                        const uint8_t* mask, unsigned planes,
                                        unsigned cards) {
        __m128i e = _mm_and_si128(
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)high),
                           _mm_set1_epi8((char)(planes >> 8))),
            _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)low), _mm_set1_epi8((char)planes)));
        e = _mm_and_si128(e, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i*)mask),
                                            _mm_set1_epi8((char)cards)));
        return (unsigned)_mm_movemask_epi8(e);
    }
    #else
    static inline unsigned qp_sig_hits(const uint8_t* high, const uint8_t* low,
                                       const uint8_t* mask, unsigned planes) {
        unsigned bits = 0;
        for (int j = 0; j < 16; j++)
            bits |= (unsigned)((((high[j] ^ (planes >> 8)) | (low[j] ^ planes))
                                & mask[j] & 0xFFu) == 0) << j;
        return bits;
    }
    static inline unsigned qp_sig_equal(const uint8_t* high, const uint8_t* low,
                                        const uint8_t* mask, unsigned planes,
                                        unsigned cards) {
        unsigned bits = 0;
        for (int j = 0; j < 16; j++)
            bits |= (unsigned)(high[j] == ((planes >> 8) & 0xFFu)
                               && low[j] == (planes & 0xFFu) && mask[j] == cards) << j;
        return bits;
    }
    #endif
    """
    void* qp_alloc_table(size_t n) noexcept nogil
    void qp_free_table(void* p, size_t n) noexcept nogil
    unsigned int qp_planes(unsigned int owners) noexcept nogil
    unsigned int qp_sig_hits(const uint8_t* high, const uint8_t* low, const uint8_t* mask,
                             unsigned int planes) noexcept nogil
    unsigned int qp_sig_equal(const uint8_t* high, const uint8_t* low, const uint8_t* mask,
                              unsigned int planes, unsigned int cards) noexcept nogil
