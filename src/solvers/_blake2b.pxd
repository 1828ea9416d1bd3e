# cython: language_level=3
"""BLAKE2b's compression (RFC 7693) in C for :mod:`solvers._batch_hashes`: one message at a
time, and four (AVX2) or eight (AVX-512F) messages of the same number of blocks at once, each
in its own 64-bit lane of the vectors; the ``*_usable`` functions say whether this CPU runs
the vector ones.  Kept apart so that the hashing module stays readable; only
:mod:`solvers._batch_hashes` cimports it."""

from libc.stdint cimport int64_t, uint8_t, uint64_t


cdef extern from *:
    """
    /* BLAKE2b's compression function (RFC 7693, section 3.2), its twelve rounds written
       out so that every message-word index is a constant. */
    static const uint64_t qipai_blake2b_iv[8] = {
        0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
        0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
        0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    #define QB_ROTR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
    #define QB_G(a, b, c, d, x, y) do { \
        a = a + b + (x); d = QB_ROTR(d ^ a, 32); c = c + d; b = QB_ROTR(b ^ c, 24); \
        a = a + b + (y); d = QB_ROTR(d ^ a, 16); c = c + d; b = QB_ROTR(b ^ c, 63); \
    } while (0)
    /* one round with the mixing G (the scalar QB_G, or the vector QX_G below) */
    #define QB_ROUND(G, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
        do { \
        G(v0, v4, v8, v12, m[s0], m[s1]); G(v1, v5, v9, v13, m[s2], m[s3]); \
        G(v2, v6, v10, v14, m[s4], m[s5]); G(v3, v7, v11, v15, m[s6], m[s7]); \
        G(v0, v5, v10, v15, m[s8], m[s9]); G(v1, v6, v11, v12, m[s10], m[s11]); \
        G(v2, v7, v8, v13, m[s12], m[s13]); G(v3, v4, v9, v14, m[s14], m[s15]); \
        } while (0)
    /* the twelve rounds, each with its message schedule */
    #define QB_ROUNDS(G) do { \
        QB_ROUND(G, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); \
        QB_ROUND(G, 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3); \
        QB_ROUND(G, 11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4); \
        QB_ROUND(G, 7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8); \
        QB_ROUND(G, 9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13); \
        QB_ROUND(G, 2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9); \
        QB_ROUND(G, 12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11); \
        QB_ROUND(G, 13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10); \
        QB_ROUND(G, 6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5); \
        QB_ROUND(G, 10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0); \
        QB_ROUND(G, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15); \
        QB_ROUND(G, 14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3); \
        } while (0)
    static void qipai_blake2b_compress(uint64_t *h, const uint8_t *block, uint64_t count,
                                       int last) {
        uint64_t m[16];
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(m, block, 128);  /* the message words are little-endian: one copy */
    #else
        int i, k;
        for (i = 0; i < 16; i++) {
            uint64_t x = 0;
            for (k = 0; k < 8; k++) x |= (uint64_t)block[8 * i + k] << (8 * k);
            m[i] = x;
        }
    #endif
        uint64_t v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5],
                 v6 = h[6], v7 = h[7];
        uint64_t v8 = qipai_blake2b_iv[0], v9 = qipai_blake2b_iv[1],
                 v10 = qipai_blake2b_iv[2], v11 = qipai_blake2b_iv[3];
        uint64_t v12 = qipai_blake2b_iv[4] ^ count, v13 = qipai_blake2b_iv[5];
        uint64_t v14 = last ? ~qipai_blake2b_iv[6] : qipai_blake2b_iv[6];
        uint64_t v15 = qipai_blake2b_iv[7];
        QB_ROUNDS(QB_G);
        h[0] ^= v0 ^ v8; h[1] ^= v1 ^ v9; h[2] ^= v2 ^ v10; h[3] ^= v3 ^ v11;
        h[4] ^= v4 ^ v12; h[5] ^= v5 ^ v13; h[6] ^= v6 ^ v14; h[7] ^= v7 ^ v15;
    }

    /* What the vector kernels share: each lane's block pointers (the last block copied into
       last[j], padded with zeros), the start of h, the working v0-v15 of a block and h's update
       after it (S: the vector type's set1, X: its xor), and each lane's digest from the
       stores of h[0] and h[1] (words). */
    static void qipai_blake2b_lanes_at(const uint8_t *const *data, const int64_t *n, int64_t b,
                                       int final, int lanes, uint8_t (*last)[128],
                                       const uint8_t **p) {
        int j;
        for (j = 0; j < lanes; j++) {
            p[j] = data[j] + 128 * b;
            if (final) {
                memset(last[j], 0, 128);
                memcpy(last[j], p[j], (size_t)(n[j] - 128 * b));
                p[j] = last[j];
            }
        }
    }
    static void qipai_blake2b_lanes_out(const uint64_t *words, int lanes, uint8_t *const *out) {
        int j;
        for (j = 0; j < lanes; j++) {  /* little-endian: the words' bytes are the digest's */
            memcpy(out[j], words + j, 8);
            memcpy(out[j] + 8, words + lanes + j, 8);
        }
    }
    #define QV_IV(S, i) S((long long)qipai_blake2b_iv[i])
    #define QV_H(S, X) do { \
        int i_; \
        for (i_ = 0; i_ < 8; i_++) h[i_] = QV_IV(S, i_); \
        h[0] = X(h[0], S(0x01010000 ^ 16)); \
    } while (0)
    #define QV_BLOCK(T, S, X, count, final) \
        T v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5], v6 = h[6]; \
        T v7 = h[7], v8 = QV_IV(S, 0), v9 = QV_IV(S, 1), v10 = QV_IV(S, 2), v11 = QV_IV(S, 3); \
        T v12 = X(QV_IV(S, 4), count), v13 = QV_IV(S, 5), v15 = QV_IV(S, 7); \
        T v14 = S((long long)(final ? ~qipai_blake2b_iv[6] : qipai_blake2b_iv[6]))
    #define QV_UPDATE(X) do { \
        h[0] = X(h[0], X(v0, v8)); h[1] = X(h[1], X(v1, v9)); h[2] = X(h[2], X(v2, v10)); \
        h[3] = X(h[3], X(v3, v11)); h[4] = X(h[4], X(v4, v12)); h[5] = X(h[5], X(v5, v13)); \
        h[6] = X(h[6], X(v6, v14)); h[7] = X(h[7], X(v7, v15)); \
    } while (0)

    /* Four messages of the same number of blocks at once, one in each 64-bit lane of AVX2
       vectors (the same twelve rounds on the lanes; x86-64 with GCC or Clang only, called
       where the CPU has AVX2: qipai_blake2b_x4_usable). */
    #if defined(__GNUC__) && defined(__x86_64__)
    #define QIPAI_BLAKE2B_X4 1
    #include <immintrin.h>
    #define QX_ADD _mm256_add_epi64
    #define QX_XOR _mm256_xor_si256
    #define QX_G(a, b, c, d, x, y) do { \
        a = QX_ADD(QX_ADD(a, b), x); d = _mm256_shuffle_epi32(QX_XOR(d, a), 0xB1); \
        c = QX_ADD(c, d); b = _mm256_shuffle_epi8(QX_XOR(b, c), rot24); \
        a = QX_ADD(QX_ADD(a, b), y); d = _mm256_shuffle_epi8(QX_XOR(d, a), rot16); \
        c = QX_ADD(c, d); b = QX_XOR(b, c); \
        b = _mm256_or_si256(_mm256_srli_epi64(b, 63), QX_ADD(b, b)); \
    } while (0)
    /* data[j], n[j]: message j (blocks of 128 bytes each, the last one padded with zeros);
       out[j]: its 16-byte digest. */
    __attribute__((target("avx2")))
    static void qipai_blake2b16_x4(const uint8_t *const *data, const int64_t *n,
                                   int64_t blocks, uint8_t *const *out) {
        const __m256i rot24 = _mm256_setr_epi8(3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9,
            10, 3, 4, 5, 6, 7, 0, 1, 2, 11, 12, 13, 14, 15, 8, 9, 10);
        const __m256i rot16 = _mm256_setr_epi8(2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8,
            9, 2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9);
        __m256i h[8], m[16];
        uint8_t last[4][128];
        uint64_t words[8];
        const uint8_t *p[4];
        int64_t b;
        int k;
        QV_H(_mm256_set1_epi64x, QX_XOR);
        for (b = 0; b < blocks; b++) {
            int final = b == blocks - 1;
            __m256i count = final ? _mm256_setr_epi64x(n[0], n[1], n[2], n[3])
                                  : _mm256_set1_epi64x(128 * (b + 1));
            qipai_blake2b_lanes_at(data, n, b, final, 4, last, p);
            /* word w of the four messages into m[w]: 4x4 transposes of 32-byte rows */
            for (k = 0; k < 4; k++) {
                __m256i r0 = _mm256_loadu_si256((const __m256i *)(p[0] + 32 * k));
                __m256i r1 = _mm256_loadu_si256((const __m256i *)(p[1] + 32 * k));
                __m256i r2 = _mm256_loadu_si256((const __m256i *)(p[2] + 32 * k));
                __m256i r3 = _mm256_loadu_si256((const __m256i *)(p[3] + 32 * k));
                __m256i t0 = _mm256_unpacklo_epi64(r0, r1), t1 = _mm256_unpackhi_epi64(r0, r1);
                __m256i t2 = _mm256_unpacklo_epi64(r2, r3), t3 = _mm256_unpackhi_epi64(r2, r3);
                m[4 * k] = _mm256_permute2x128_si256(t0, t2, 0x20);
                m[4 * k + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
                m[4 * k + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
                m[4 * k + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
            }
            QV_BLOCK(__m256i, _mm256_set1_epi64x, QX_XOR, count, final);
            QB_ROUNDS(QX_G);
            QV_UPDATE(QX_XOR);
        }
        _mm256_storeu_si256((__m256i *)words, h[0]);
        _mm256_storeu_si256((__m256i *)(words + 4), h[1]);
        qipai_blake2b_lanes_out(words, 4, out);
    }
    static int qipai_blake2b_x4_usable(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    }

    /* The same with eight messages in AVX-512 vectors, whose rotations are one instruction
       each (called where the CPU has AVX-512F: qipai_blake2b_x8_usable). */
    #define QZ_ADD _mm512_add_epi64
    #define QZ_XOR _mm512_xor_si512
    #define QZ_G(a, b, c, d, x, y) do { \
        a = QZ_ADD(QZ_ADD(a, b), x); d = _mm512_ror_epi64(QZ_XOR(d, a), 32); \
        c = QZ_ADD(c, d); b = _mm512_ror_epi64(QZ_XOR(b, c), 24); \
        a = QZ_ADD(QZ_ADD(a, b), y); d = _mm512_ror_epi64(QZ_XOR(d, a), 16); \
        c = QZ_ADD(c, d); b = _mm512_ror_epi64(QZ_XOR(b, c), 63); \
    } while (0)
    __attribute__((target("avx512f")))
    static void qipai_blake2b16_x8(const uint8_t *const *data, const int64_t *n,
                                   int64_t blocks, uint8_t *const *out) {
        __m512i h[8], m[16];
        uint8_t last[8][128];
        uint64_t words[16];
        const uint8_t *p[8];
        int64_t b;
        int i;
        QV_H(_mm512_set1_epi64, QZ_XOR);
        for (b = 0; b < blocks; b++) {
            int final = b == blocks - 1;
            __m512i count = final ? _mm512_loadu_si512((const void *)n)
                                  : _mm512_set1_epi64(128 * (b + 1));
            qipai_blake2b_lanes_at(data, n, b, final, 8, last, p);
            /* word w of the eight messages into m[w]: gathered by address (base 0) */
            __m512i at = _mm512_loadu_si512((const void *)p);
            for (i = 0; i < 16; i++)
                m[i] = _mm512_i64gather_epi64(_mm512_add_epi64(at, _mm512_set1_epi64(8 * i)),
                                              (const void *)0, 1);
            QV_BLOCK(__m512i, _mm512_set1_epi64, QZ_XOR, count, final);
            QB_ROUNDS(QZ_G);
            QV_UPDATE(QZ_XOR);
        }
        _mm512_storeu_si512((void *)words, h[0]);
        _mm512_storeu_si512((void *)(words + 8), h[1]);
        qipai_blake2b_lanes_out(words, 8, out);
    }
    static int qipai_blake2b_x8_usable(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f");
    }
    #else
    #define QIPAI_BLAKE2B_X4 0
    static void qipai_blake2b16_x4(const uint8_t *const *data, const int64_t *n,
                                   int64_t blocks, uint8_t *const *out) {}
    static int qipai_blake2b_x4_usable(void) { return 0; }
    static void qipai_blake2b16_x8(const uint8_t *const *data, const int64_t *n,
                                   int64_t blocks, uint8_t *const *out) {}
    static int qipai_blake2b_x8_usable(void) { return 0; }
    #endif
    """
    const uint64_t* qipai_blake2b_iv
    void qipai_blake2b_compress(uint64_t* h, const uint8_t* block, uint64_t count,
                                int last) noexcept nogil
    void qipai_blake2b16_x4(const uint8_t* const* data, const int64_t* n, int64_t blocks,
                            uint8_t* const* out) noexcept nogil
    int qipai_blake2b_x4_usable() noexcept nogil
    void qipai_blake2b16_x8(const uint8_t* const* data, const int64_t* n, int64_t blocks,
                            uint8_t* const* out) noexcept nogil
    int qipai_blake2b_x8_usable() noexcept nogil
