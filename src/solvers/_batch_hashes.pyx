# cython: language_level=3
"""Native helpers of the batch runner's per-position bookkeeping: hashes, hash sets, row text.

A fast batch task solves a position in a few microseconds, so the runner cannot
spend a Python object or a Python call per position on hashing, checking what
is stored and writing the rows.  This module does that work for whole blocks:

* :func:`text_digests`: BLAKE2b with a 16-byte digest (RFC 7693; the digests
  :func:`hashlib.blake2b` gives with ``digest_size=16``) of every text of a list,
  as one ``bytes`` of 16 bytes a text; :func:`hexes` and :func:`hex_join` write
  them as the store's hexadecimal hashes.
* :class:`DigestSet`: a set of such hashes that also takes any other string
  (a hash that is not 32 lower-case hex digits is kept as it is, in a Python set), with
  block operations on digests.

The JSON text of the rows is written by :mod:`solvers._batch_rows`.

Nothing here raises for user input; the texts it reads are the runner's own
canonical texts and the task's results.
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII, PyUnicode_AsUTF8AndSize

from solvers._batch_columns import select_fixed

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)

DEF DIGEST = 16

# -- BLAKE2b (RFC 7693), 16-byte digests, no key ------------------------------------------------

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
        int i, j, k;
        for (i = 0; i < 8; i++) h[i] = _mm256_set1_epi64x((long long)qipai_blake2b_iv[i]);
        h[0] = QX_XOR(h[0], _mm256_set1_epi64x(0x01010000 ^ 16));
        for (b = 0; b < blocks; b++) {
            int final = b == blocks - 1;
            __m256i count;
            for (j = 0; j < 4; j++) p[j] = data[j] + 128 * b;
            if (final) {
                for (j = 0; j < 4; j++) {
                    memset(last[j], 0, 128);
                    memcpy(last[j], p[j], (size_t)(n[j] - 128 * b));
                    p[j] = last[j];
                }
                count = _mm256_setr_epi64x(n[0], n[1], n[2], n[3]);
            } else {
                count = _mm256_set1_epi64x(128 * (b + 1));
            }
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
            __m256i v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5],
                    v6 = h[6], v7 = h[7];
            __m256i v8 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[0]);
            __m256i v9 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[1]);
            __m256i v10 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[2]);
            __m256i v11 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[3]);
            __m256i v12 = QX_XOR(_mm256_set1_epi64x((long long)qipai_blake2b_iv[4]), count);
            __m256i v13 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[5]);
            __m256i v14 = _mm256_set1_epi64x(
                (long long)(final ? ~qipai_blake2b_iv[6] : qipai_blake2b_iv[6]));
            __m256i v15 = _mm256_set1_epi64x((long long)qipai_blake2b_iv[7]);
            QB_ROUNDS(QX_G);
            h[0] = QX_XOR(h[0], QX_XOR(v0, v8)); h[1] = QX_XOR(h[1], QX_XOR(v1, v9));
            h[2] = QX_XOR(h[2], QX_XOR(v2, v10)); h[3] = QX_XOR(h[3], QX_XOR(v3, v11));
            h[4] = QX_XOR(h[4], QX_XOR(v4, v12)); h[5] = QX_XOR(h[5], QX_XOR(v5, v13));
            h[6] = QX_XOR(h[6], QX_XOR(v6, v14)); h[7] = QX_XOR(h[7], QX_XOR(v7, v15));
        }
        _mm256_storeu_si256((__m256i *)words, h[0]);
        _mm256_storeu_si256((__m256i *)(words + 4), h[1]);
        for (j = 0; j < 4; j++) {  /* little-endian: the words' bytes are the digest's */
            memcpy(out[j], words + j, 8);
            memcpy(out[j] + 8, words + 4 + j, 8);
        }
    }
    static int qipai_blake2b_x4_usable(void) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2");
    }
    #else
    #define QIPAI_BLAKE2B_X4 0
    static void qipai_blake2b16_x4(const uint8_t *const *data, const int64_t *n,
                                   int64_t blocks, uint8_t *const *out) {}
    static int qipai_blake2b_x4_usable(void) { return 0; }
    #endif
    """
    const uint64_t* qipai_blake2b_iv
    void qipai_blake2b_compress(uint64_t* h, const uint8_t* block, uint64_t count,
                                int last) noexcept nogil
    void qipai_blake2b16_x4(const uint8_t* const* data, const int64_t* n, int64_t blocks,
                            uint8_t* const* out) noexcept nogil
    int qipai_blake2b_x4_usable() noexcept nogil


cdef inline uint64_t _load64(const uint8_t* p) noexcept nogil:
    cdef uint64_t x = 0
    cdef int k
    for k in range(8):
        x |= (<uint64_t>p[k]) << (8 * k)
    return x


cdef void _blake2b16(const uint8_t* data, Py_ssize_t n, uint8_t* out) noexcept nogil:
    cdef uint64_t h[8]
    cdef uint8_t last[128]
    cdef Py_ssize_t done = 0
    cdef int i, k
    for i in range(8):
        h[i] = qipai_blake2b_iv[i]
    h[0] ^= 0x01010000 ^ DIGEST  # parameter block: digest length 16, no key, fanout/depth 1
    while n - done > 128:
        qipai_blake2b_compress(h, data + done, <uint64_t>(done + 128), 0)
        done += 128
    memset(last, 0, 128)
    memcpy(last, data + done, n - done)
    qipai_blake2b_compress(h, last, <uint64_t>n, 1)
    for i in range(2):
        for k in range(8):
            out[8 * i + k] = <uint8_t>(h[i] >> (8 * k))


DEF X4_BLOCKS = 8  # texts of up to 8 blocks (1 KiB) are hashed four at a time

# whether qipai_blake2b16_x4 runs here (set_vector_hashing turns it off for tests)
cdef bint _x4_usable = qipai_blake2b_x4_usable() != 0
cdef bint _x4 = _x4_usable


cdef void blake2b16_many(const uint8_t* const* texts, const int64_t* sizes, Py_ssize_t count,
                         uint8_t* out) noexcept nogil:
    """The 16-byte digest of each text (``texts[i]``, ``sizes[i]`` bytes) into ``out``, one
    after the other: four texts of the same number of blocks at a time where the CPU has
    AVX2 (the digests of :func:`_blake2b16`), the others one by one."""
    cdef const uint8_t* waiting[X4_BLOCKS][4]
    cdef int64_t waiting_size[X4_BLOCKS][4]
    cdef uint8_t* dest[X4_BLOCKS][4]
    cdef int held[X4_BLOCKS]
    cdef Py_ssize_t i
    cdef int64_t n
    cdef int b, k
    memset(held, 0, sizeof(held))
    for i in range(count):
        n = sizes[i]
        b = <int>((n + 127) // 128 - 1) if n else 0  # blocks - 1
        if not _x4 or b >= X4_BLOCKS:
            _blake2b16(texts[i], n, out + DIGEST * i)
            continue
        k = held[b]
        waiting[b][k], waiting_size[b][k], dest[b][k] = texts[i], n, out + DIGEST * i
        if k < 3:
            held[b] = k + 1
            continue
        qipai_blake2b16_x4(waiting[b], waiting_size[b], b + 1, dest[b])
        held[b] = 0
    for b in range(X4_BLOCKS):
        for k in range(held[b]):
            _blake2b16(waiting[b][k], waiting_size[b][k], dest[b][k])


def set_vector_hashing(bint enabled):
    """Hash four texts at a time with AVX2 where the CPU has it (the default), or never
    (tests compare both ways): whether it is on now."""
    global _x4
    _x4 = enabled and _x4_usable
    return _x4


def blake2b16(bytes data):
    """The 16-byte BLAKE2b digest of ``data`` (as ``hashlib.blake2b(data, digest_size=16)``)."""
    cdef uint8_t out[DIGEST]
    _blake2b16(<const uint8_t*>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), out)
    return PyBytes_FromStringAndSize(<char*>out, DIGEST)


cdef inline const char* _utf8(object text, Py_ssize_t* n) except NULL:
    if PyUnicode_IS_ASCII(text):
        n[0] = PyUnicode_GET_LENGTH(text)
        return PyUnicode_DATA(text)
    return PyUnicode_AsUTF8AndSize(text, n)


def text_digests(list texts):
    """The 16-byte digests of the UTF-8 of each ``str`` of ``texts``, one after the other."""
    cdef Py_ssize_t i, n, count = len(texts)
    cdef const uint8_t** starts = <const uint8_t**>malloc(max(count, 1) * sizeof(uint8_t*))
    cdef int64_t* sizes = <int64_t*>malloc(max(count, 1) * sizeof(int64_t))
    try:
        if starts == NULL or sizes == NULL:
            raise MemoryError()
        out = PyBytes_FromStringAndSize(NULL, DIGEST * count)
        for i in range(count):
            text = texts[i]  # (the list holds the texts while they are hashed)
            if type(text) is not str:
                raise TypeError(f"text_digests needs str, got {type(text).__name__}")
            starts[i] = <const uint8_t*>_utf8(text, &n)
            sizes[i] = n
        blake2b16_many(starts, sizes, count, <uint8_t*>PyBytes_AS_STRING(out))
        return out
    finally:
        free(starts)
        free(sizes)


# -- hexadecimal ---------------------------------------------------------------------------------

cdef const char* _HEX = b"0123456789abcdef"


cdef void hex_digest(const uint8_t* digest, char* out) noexcept nogil:
    cdef int k
    for k in range(DIGEST):
        out[2 * k] = _HEX[digest[k] >> 4]
        out[2 * k + 1] = _HEX[digest[k] & 15]


cdef inline int _nibble(char c) noexcept nogil:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    return -1


cdef bint _unhex(const char* s, Py_ssize_t n, uint8_t* out) noexcept nogil:
    """32 lower-case hex digits into 16 bytes; False for anything else."""
    cdef int k, hi, lo
    if n != 2 * DIGEST:
        return False
    for k in range(DIGEST):
        hi = _nibble(s[2 * k])
        lo = _nibble(s[2 * k + 1])
        if hi < 0 or lo < 0:
            return False
        out[k] = <uint8_t>(hi * 16 + lo)
    return True


cdef Py_ssize_t digest_count(bytes digests) except -1:
    if PyBytes_GET_SIZE(digests) % DIGEST:
        raise ValueError("digests must be a multiple of 16 bytes")
    return PyBytes_GET_SIZE(digests) // DIGEST


def hexes(bytes digests):
    """The hexadecimal text of each digest (:meth:`hashlib.blake2b.hexdigest`)."""
    cdef Py_ssize_t i, count = digest_count(digests)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
    cdef char buf[2 * DIGEST]
    out = [None] * count
    for i in range(count):
        hex_digest(src + DIGEST * i, buf)
        out[i] = PyUnicode_DecodeASCII(buf, 2 * DIGEST, NULL)
    return out


def hex_join(bytes digests):
    """``" ".join(hexes(digests))``."""
    cdef Py_ssize_t i, count = digest_count(digests)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
    if count == 0:
        return ""
    raw = PyBytes_FromStringAndSize(NULL, count * (2 * DIGEST + 1) - 1)
    cdef char* dst = PyBytes_AS_STRING(raw)
    for i in range(count):
        if i:
            dst[i * (2 * DIGEST + 1) - 1] = 32
        hex_digest(src + DIGEST * i, dst + i * (2 * DIGEST + 1))
    return raw.decode("ascii")


def select(bytes digests, const uint8_t[:] mask, int want):
    """The digests whose ``mask`` entry is ``want``, in order."""
    if digest_count(digests) != mask.shape[0]:
        raise ValueError("one mask entry per digest")
    return select_fixed(digests, DIGEST, mask, want)


# -- a set of hashes -------------------------------------------------------------------------------


@cython.final
cdef class DigestSet:
    """Input hashes: 16-byte digests in an open-addressing table, other strings in a set.

    ``in``, :meth:`update` and :meth:`add_hex_text` take the store's hash
    strings; the block methods take digests (16 bytes each, one ``bytes``).
    :meth:`add_later` keeps digests aside, put in the table only when the set is next read
    (a run's own claims are most often never read).
    """

    cdef uint64_t* keys
    cdef uint8_t* used
    cdef Py_ssize_t cap
    cdef Py_ssize_t count
    cdef set odd
    cdef list later

    def __cinit__(self):
        self.cap = 0
        self.count = 0
        self.keys = NULL
        self.used = NULL
        self.odd = set()
        self.later = None
        self._grow(64)

    def __dealloc__(self):
        free(self.keys)
        free(self.used)

    cdef int _grow(self, Py_ssize_t cap) except -1:
        cdef uint64_t* old_keys = self.keys
        cdef uint8_t* old_used = self.used
        cdef Py_ssize_t old_cap = self.cap, i
        cdef uint64_t* keys = <uint64_t*>calloc(2 * cap, sizeof(uint64_t))
        cdef uint8_t* used = <uint8_t*>calloc(cap, 1)
        if keys == NULL or used == NULL:
            free(keys)
            free(used)
            raise MemoryError()
        self.keys, self.used, self.cap, self.count = keys, used, cap, 0
        for i in range(old_cap):
            if old_used[i]:
                self._insert(old_keys[2 * i], old_keys[2 * i + 1])
        free(old_keys)
        free(old_used)
        return 0

    cdef inline Py_ssize_t _find(self, uint64_t a, uint64_t b) noexcept:
        """The slot holding (a, b), or the empty slot where it would go."""
        cdef Py_ssize_t mask = self.cap - 1
        cdef Py_ssize_t i = <Py_ssize_t>((a ^ (b >> 7)) & <uint64_t>mask)
        while self.used[i] and not (self.keys[2 * i] == a and self.keys[2 * i + 1] == b):
            i = (i + 1) & mask
        return i

    cdef inline bint _insert(self, uint64_t a, uint64_t b) noexcept:
        """Add (a, b) (the table has room); True when it was not there."""
        cdef Py_ssize_t i = self._find(a, b)
        if self.used[i]:
            return False
        self.used[i] = 1
        self.keys[2 * i] = a
        self.keys[2 * i + 1] = b
        self.count += 1
        return True

    cdef int _room(self, Py_ssize_t more) except -1:
        cdef Py_ssize_t cap = self.cap
        while 2 * (self.count + more) > cap:
            cap *= 2
        if cap != self.cap:
            self._grow(cap)
        return 0

    cdef int _settle(self) except -1:
        """Put the digests of :meth:`add_later` in the table (before any read)."""
        cdef list later = self.later
        if later is not None:
            self.later = None
            for digests in later:
                self.add_digests(digests)
        return 0

    def add_later(self, bytes digests):
        """:meth:`add_digests`, done when the set is next read (or added to otherwise)."""
        digest_count(digests)
        if self.later is None:
            self.later = []
        self.later.append(digests)

    cdef inline bint _add(self, const uint8_t* d) noexcept:
        return self._insert(_load64(d), _load64(d + 8))

    cdef inline bint _has(self, const uint8_t* d) noexcept:
        return self.used[self._find(_load64(d), _load64(d + 8))] != 0

    def __len__(self):
        self._settle()
        return self.count + len(self.odd)

    def __contains__(self, hash_text):
        cdef uint8_t d[DIGEST]
        cdef Py_ssize_t n
        self._settle()
        if type(hash_text) is str and PyUnicode_IS_ASCII(hash_text):
            n = PyUnicode_GET_LENGTH(hash_text)
            if _unhex(PyUnicode_DATA(hash_text), n, d):
                return self._has(d)
        return hash_text in self.odd

    def update(self, hashes):
        """Add hash strings (any iterable of ``str``)."""
        cdef uint8_t d[DIGEST]
        self._settle()
        for h in hashes:
            if type(h) is str and PyUnicode_IS_ASCII(h) and _unhex(
                PyUnicode_DATA(h), PyUnicode_GET_LENGTH(h), d
            ):
                self._room(1)
                self._add(d)
            else:
                self.odd.add(h)

    def add_hex_text(self, str text):
        """Add the hashes of ``text``, separated by whitespace (``text.split()``)."""
        cdef const char* s
        cdef Py_ssize_t n, p = 0, q
        cdef uint8_t d[DIGEST]
        self._settle()
        if not PyUnicode_IS_ASCII(text):
            self.update(text.split())
            return
        s = PyUnicode_DATA(text)
        n = PyUnicode_GET_LENGTH(text)
        self._room(n // (2 * DIGEST + 1) + 1)
        while p < n:
            while p < n and (s[p] == 32 or 9 <= s[p] <= 13 or 28 <= s[p] <= 31):
                p += 1
            q = p
            while q < n and not (s[q] == 32 or 9 <= s[q] <= 13 or 28 <= s[q] <= 31):
                q += 1
            if q > p:
                if _unhex(s + p, q - p, d):
                    self._add(d)
                else:
                    self.odd.add(PyUnicode_DecodeASCII(s + p, q - p, NULL))
            p = q

    def add_digests(self, bytes digests):
        """Add every digest of ``digests``."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._room(count)
        for i in range(count):
            self._add(src + DIGEST * i)

    def present(self, bytes digests):
        """A bytearray: 1 where the digest is in the set, else 0."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._settle()
        out = bytearray(count)
        cdef uint8_t[:] view = out
        for i in range(count):
            view[i] = self._has(src + DIGEST * i)
        return out

    def mark(self, bytes digests, uint8_t[:] status, int value):
        """Set ``status`` to ``value`` where it is 0 and the digest is in the set."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        if status.shape[0] != count:
            raise ValueError("one status per digest")
        self._settle()
        for i in range(count):
            if status[i] == 0 and self._has(src + DIGEST * i):
                status[i] = <uint8_t>value

    def absent_first(self, bytes digests, bint repeats=True):
        """A bytearray: 1 where the digest is not in the set and not earlier in ``digests``
        (``repeats=False``: the caller knows ``digests`` hold none, so no set of them is
        made)."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        cdef DigestSet seen = DigestSet()
        self._settle()
        if repeats:
            seen._room(count)
        out = bytearray(count)
        cdef uint8_t[:] view = out
        for i in range(count):
            view[i] = not self._has(src + DIGEST * i) and (
                not repeats or seen._add(src + DIGEST * i))
        return out

    def add_new(self, bytes digests):
        """Add every digest; a bytearray: 1 where it was not in the set before (its first
        occurrence, when a digest repeats in ``digests``), else 0."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._settle()
        self._room(count)
        out = bytearray(count)
        cdef uint8_t[:] view = out
        for i in range(count):
            view[i] = self._add(src + DIGEST * i)
        return out
