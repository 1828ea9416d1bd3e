# cython: language_level=3
"""Growing byte buffers in C for the batch runner's native steps that run without the GIL:
what they produce for a whole block of lines is kept here until Python objects are made
of it (a ``realloc``'d area; a failed allocation returns False, never raises)."""

from libc.stdint cimport uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcpy, memset


cdef struct Buffer:
    char* data
    Py_ssize_t n
    Py_ssize_t cap
    bint fixed  # ``data`` is not this buffer's (e.g. a str's characters): never grown


cdef inline bint buffer_room(Buffer* b, Py_ssize_t k) noexcept nogil:
    """Room for ``k`` more bytes (False: out of memory, or a fixed buffer full)."""
    cdef Py_ssize_t cap
    cdef char* grown
    if b.n + k <= b.cap:
        return True
    if b.fixed:
        return False
    cap = 2 * b.cap if 2 * b.cap > b.n + k else b.n + k
    if cap < 4096:
        cap = 4096
    grown = <char*>realloc(b.data, cap)
    if grown == NULL:
        return False
    b.data, b.cap = grown, cap
    return True


cdef inline bint buffer_put(Buffer* b, const void* src, Py_ssize_t k) noexcept nogil:
    if not buffer_room(b, k):
        return False
    memcpy(b.data + b.n, src, k)
    b.n += k
    return True


cdef inline void buffer_free(Buffer* b) noexcept nogil:
    free(b.data)
    b.data = NULL
    b.n = 0
    b.cap = 0


# -- compact payloads: two bits a byte ----------------------------------------------------------
# A packed payload (engines.batch.records) is mostly count bytes 0, 1 and 2.  Its compact
# form: its length (2 bytes, little-endian), then one 2-bit symbol a byte, four to a byte from
# the lowest bits (the byte itself when under 3, else 3), then the bytes of 3 or more in order.
# 180 bytes of a 升级 payload become ~48, which is what a store that keeps payloads writes.

cdef enum:
    COMPACT_MARKS = 32  # offsets of bytes of 3 or more buffer_put_compact records

cdef inline void _symbols(const uint8_t* src, Py_ssize_t n, uint8_t* sym,
                          uint8_t* extra, Py_ssize_t* k, Py_ssize_t at,
                          uint16_t* marks) noexcept nogil:
    """The symbols of ``src[:n]`` (n <= 8, ``sym`` zeroed) and its bytes of 3 or more (their
    offsets, ``at`` + their index, into ``marks`` while it has room, when given)."""
    cdef Py_ssize_t i
    cdef uint8_t v
    for i in range(n):
        v = src[i]
        if v >= 3:
            sym[i >> 2] |= 3 << ((i & 3) * 2)
            if marks != NULL and k[0] < COMPACT_MARKS:
                marks[k[0]] = <uint16_t>(at + i)
            extra[k[0]] = v
            k[0] += 1
        else:
            sym[i >> 2] |= v << ((i & 3) * 2)


cdef inline Py_ssize_t buffer_put_compact(Buffer* b, const uint8_t* src, Py_ssize_t n,
                                          uint16_t* marks=NULL) noexcept nogil:
    """The compact form of ``src[:n]`` (n < 65536) appended: its size, or -1 (no memory).
    ``marks`` (when given): the offsets of the first :data:`COMPACT_MARKS` bytes of 3 or
    more (how many there are: the size less ``2 + (n + 3) // 4``)."""
    cdef Py_ssize_t i, words = (n + 3) >> 2, k = 0, at
    cdef uint64_t w
    cdef uint8_t* dst
    cdef uint8_t* extra
    if n > 65535 or not buffer_room(b, 2 + words + n):  # (at most n bytes of 3 or more)
        return -1
    dst = <uint8_t*>b.data + b.n
    dst[0], dst[1] = n & 255, n >> 8
    memset(dst + 2, 0, words)
    extra = dst + 2 + words
    i = 0
    while i + 8 <= n:
        memcpy(&w, src + i, 8)
        if (w & 0xFCFCFCFCFCFCFCFCULL) == 0 and (w & (w >> 1) & 0x0101010101010101ULL) == 0:
            # every byte under 3: the low two bits of each, gathered
            w &= 0x0303030303030303ULL
            w = (w | (w >> 6)) & 0x000F000F000F000FULL
            w = (w | (w >> 12)) & 0x000000FF000000FFULL
            w = (w | (w >> 24)) & 0xFFFFULL
            dst[2 + (i >> 2)] = w & 255
            dst[3 + (i >> 2)] = w >> 8
        else:
            _symbols(src + i, 8, dst + 2 + (i >> 2), extra, &k, i, marks)
        i += 8
    if i < n:
        _symbols(src + i, n - i, dst + 2 + (i >> 2), extra, &k, i, marks)
    at = 2 + words + k
    b.n += at
    return at
