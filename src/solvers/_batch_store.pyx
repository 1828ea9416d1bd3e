# cython: language_level=3
"""Native helpers of the packed-block store (:mod:`engines.batch.store_packed`): a column's
distinct items, numbered ids, the solver seconds' bits.

A block of 升级 or 双扣 answers holds a handful of distinct JSON texts, and its solver
seconds a few distinct values (one a group of positions solved together): the store keeps
each distinct item once and a small index a position, since SQLite spends about a nanosecond of
CPU a byte it writes.  :func:`distinct_items` finds them with a hash table, no Python
object a position.

>>> from array import array
>>> data, ends, codes = distinct_items(b"abcab", array("q", [2, 3, 5]).tobytes(), 0)
>>> data, array("q", ends).tolist(), array("I", codes).tolist()
(b'abc', [2, 3], [0, 1, 0])
>>> data, ends, codes = distinct_items(array("d", [0.5, -0.0, 0.0, 0.5]).tobytes(), None, 8)
>>> array("d", data).tolist(), array("I", codes).tolist()
([0.5, -0.0, 0.0], [0, 1, 2, 0])
"""

cimport cython
from libc.stdint cimport int64_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.mem cimport PyMem_Free, PyMem_Malloc


def float64_bytes(list values):
    """``array("d", values).tobytes()``: a float's bits read in place (``array`` parses
    each item, 11 ns a position in a block of solver seconds; this takes 1), anything else
    converted by :c:func:`PyFloat_AsDouble`.

    >>> from array import array
    >>> float64_bytes([0.5, -0.0, 3]) == array("d", [0.5, -0.0, 3]).tobytes()
    True
    """
    cdef Py_ssize_t i, n = len(values)
    out = PyBytes_FromStringAndSize(NULL, 8 * n)
    cdef double* bits = <double*>PyBytes_AS_STRING(out)
    for i in range(n):
        value = values[i]
        bits[i] = PyFloat_AS_DOUBLE(value) if type(value) is float else <double>value
    return out


cdef inline uint64_t _word(const unsigned char* p) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, p, 8)  # (a fixed size: one load)
    return word


cdef inline uint64_t _hash(const unsigned char* p, Py_ssize_t n) noexcept nogil:
    """A 64-bit mix of ``n`` bytes, eight at a time (the last eight overlapping the ones
    before; equal items, equal hashes)."""
    cdef uint64_t h = 0x9E3779B97F4A7C15ULL ^ <uint64_t>n, word = 0
    cdef Py_ssize_t at = 0
    if n < 8:
        for at in range(n):
            word |= <uint64_t>p[at] << (8 * at)
        h = (h ^ word) * 0xC4CEB9FE1A85EC53ULL
    else:
        while at + 8 < n:
            h = (h ^ _word(p + at)) * 0xFF51AFD7ED558CCDULL
            h ^= h >> 32
            at += 8
        h = (h ^ _word(p + n - 8)) * 0xC4CEB9FE1A85EC53ULL
    h ^= h >> 33
    h *= 0xFF51AFD7ED558CCDULL
    return h ^ (h >> 33)


cdef inline Py_ssize_t _start(const int64_t* e, Py_ssize_t width, Py_ssize_t i) noexcept nogil:
    return i * width if e == NULL else (e[i - 1] if i else 0)


@cython.boundscheck(False)
@cython.wraparound(False)
def distinct_items(bytes data, ends, Py_ssize_t width):
    """``(distinct, distinct_ends, codes)`` of the items of ``data``: items end at
    ``ends`` (int64 bytes), or are ``width`` bytes each when ``ends`` is None.
    ``distinct`` holds each distinct item once (in the order first met, bytes compared:
    ``-0.0`` and ``0.0`` differ), ``distinct_ends`` their ends (int64 bytes) and ``codes``
    the index of each item's distinct item (uint32 bytes)."""
    cdef Py_ssize_t n, i, j, slot, k = 0, size = 256, total = 0, start, stop
    cdef const unsigned char* d = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef const int64_t* e = NULL
    cdef uint64_t h
    if ends is None:
        if width <= 0 or PyBytes_GET_SIZE(data) % width:
            raise ValueError("items of another width")
        n = PyBytes_GET_SIZE(data) // width
    else:
        n = PyBytes_GET_SIZE(ends) // 8
        e = <const int64_t*>PyBytes_AS_STRING(ends)
        for i in range(n):
            if e[i] < _start(e, 0, i) or e[i] > PyBytes_GET_SIZE(data):
                raise ValueError("ends out of order")
    codes = PyBytes_FromStringAndSize(NULL, 4 * n)
    cdef uint32_t* out = <uint32_t*>PyBytes_AS_STRING(codes)
    # (the table grows with the distinct items, not the items: a few hundred stay in L1)
    cdef Py_ssize_t* table = <Py_ssize_t*>PyMem_Malloc(size * sizeof(Py_ssize_t))
    cdef Py_ssize_t* first = <Py_ssize_t*>PyMem_Malloc((n + 1) * sizeof(Py_ssize_t))
    cdef uint64_t* hashes = <uint64_t*>PyMem_Malloc((n + 1) * sizeof(uint64_t))
    if table == NULL or first == NULL or hashes == NULL:
        PyMem_Free(table)
        PyMem_Free(first)
        PyMem_Free(hashes)
        raise MemoryError()
    try:
        for slot in range(size):
            table[slot] = -1
        for i in range(n):
            start = _start(e, width, i)
            stop = start + width if e == NULL else e[i]
            h = _hash(d + start, stop - start)
            slot = <Py_ssize_t>(h & <uint64_t>(size - 1))
            j = table[slot]
            while j >= 0 and not (hashes[j] == h and _same(d, e, width, first[j], start, stop)):
                slot = (slot + 1) & (size - 1)
                j = table[slot]
            if j < 0:  # (a new item)
                j = table[slot] = k
                first[k], hashes[k] = i, h
                total += stop - start
                k += 1
                if 2 * k > size:
                    size *= 2
                    table = _rehashed(table, size, hashes, k)
            out[i] = <uint32_t>j
        distinct = PyBytes_FromStringAndSize(NULL, total)
        distinct_ends = PyBytes_FromStringAndSize(NULL, 8 * k)
        _gather(d, e, width, first, k, <unsigned char*>PyBytes_AS_STRING(distinct),
                <int64_t*>PyBytes_AS_STRING(distinct_ends))
    finally:
        PyMem_Free(table)
        PyMem_Free(first)
        PyMem_Free(hashes)
    return distinct, distinct_ends, codes


cdef Py_ssize_t* _rehashed(Py_ssize_t* table, Py_ssize_t size, const uint64_t* hashes,
                           Py_ssize_t k) except NULL:
    """A table of ``size`` slots holding the ``k`` distinct items (``table`` freed)."""
    cdef Py_ssize_t j, slot
    PyMem_Free(table)
    table = <Py_ssize_t*>PyMem_Malloc(size * sizeof(Py_ssize_t))
    if table == NULL:
        raise MemoryError()
    for slot in range(size):
        table[slot] = -1
    for j in range(k):
        slot = <Py_ssize_t>(hashes[j] & <uint64_t>(size - 1))
        while table[slot] >= 0:
            slot = (slot + 1) & (size - 1)
        table[slot] = j
    return table


cdef inline bint _same(const unsigned char* d, const int64_t* e, Py_ssize_t width,
                       Py_ssize_t j, Py_ssize_t start, Py_ssize_t stop) noexcept nogil:
    """Item ``j`` holds the bytes ``d[start:stop]``."""
    cdef Py_ssize_t j_start = _start(e, width, j)
    cdef Py_ssize_t j_stop = j_start + width if e == NULL else e[j]
    cdef Py_ssize_t at = 0, n = stop - start
    if j_stop - j_start != n:
        return False
    if n < 8:
        for at in range(n):
            if d[j_start + at] != d[start + at]:
                return False
        return True
    while at + 8 < n:
        if _word(d + j_start + at) != _word(d + start + at):
            return False
        at += 8
    return _word(d + j_start + n - 8) == _word(d + start + n - 8)


@cython.boundscheck(False)
@cython.wraparound(False)
cdef void _gather(const unsigned char* d, const int64_t* e, Py_ssize_t width,
                  const Py_ssize_t* first, Py_ssize_t k, unsigned char* out,
                  int64_t* out_ends) noexcept nogil:
    cdef Py_ssize_t j, at = 0, start, stop
    for j in range(k):
        start = _start(e, width, first[j])
        stop = start + width if e == NULL else e[first[j]]
        memcpy(out + at, d + start, stop - start)
        at += stop - start
        out_ends[j] = at


@cython.boundscheck(False)
@cython.wraparound(False)
@cython.cdivision(True)
def numbered_ids(bytes data, bytes ends, bytes lines):
    """``(prefix_size, width, offset)`` when every item of ``data`` (ending at ``ends``,
    int64 bytes) is ``prefix + str(line + offset).zfill(width)`` for its ``line`` (int64
    bytes) and one ``prefix`` (that of the item of the least line, whose trailing digits
    give the width and the offset), else None: every item's bytes checked.

    >>> from array import array
    >>> q = lambda *v: array("q", v).tobytes()
    >>> numbered_ids(b"g-09g-10g-11", q(4, 8, 12), q(3, 4, 5))
    (2, 2, 6)
    >>> numbered_ids(b"g-09g-010", q(4, 9), q(3, 4)) is None
    True
    """
    cdef Py_ssize_t n = PyBytes_GET_SIZE(ends) // 8, i, at = 0, lo, hi, width = 0, plen, j
    cdef Py_ssize_t count = 0
    cdef const unsigned char* d = <const unsigned char*>PyBytes_AS_STRING(data)
    cdef const int64_t* e = <const int64_t*>PyBytes_AS_STRING(ends)
    cdef const int64_t* line = <const int64_t*>PyBytes_AS_STRING(lines)
    cdef const unsigned char* prefix
    cdef int64_t offset = 0, number, rest, shown = -1, least
    # (the digits of the number ``shown``, zero-filled to the width, end at digits + 19)
    cdef unsigned char digits[19]
    if n == 0 or PyBytes_GET_SIZE(lines) != 8 * n or e[n - 1] != PyBytes_GET_SIZE(data):
        return None
    least = line[0]
    for i in range(n):
        if e[i] < (e[i - 1] if i else 0):
            return None
        if line[i] < least:  # (a register, not line[at]: no load waits on the last compare)
            at, least = i, line[i]
    lo, hi = (e[at - 1] if at else 0), e[at]
    while width < hi - lo and 48 <= d[hi - 1 - width] <= 57:
        offset += (d[hi - 1 - width] - 48) * _POWERS[width] if width < 18 else 0
        width += 1
    if width == 0 or width > 18:
        return None
    plen = hi - lo - width
    prefix = d + lo
    offset -= line[at]
    for i in range(n):
        number = line[i] + offset  # (>= the least line's number, >= 0)
        if number >= _POWERS[18]:
            return None
        if number == shown + 1 and shown >= 0:  # (the next line: add one to the digits)
            j = 18
            while j >= 19 - count and digits[j] == 57:
                digits[j] = 48
                j -= 1
            if j >= 19 - count:
                digits[j] += 1
            else:  # (all nines: one digit more)
                count += 1
                digits[j] = 49
        else:
            count = width
            while count < 18 and number >= _POWERS[count]:
                count += 1
            rest = number
            for j in range(count):
                digits[18 - j] = <unsigned char>(48 + rest % 10)
                rest //= 10
        shown = number
        hi = e[i]
        lo = e[i - 1] if i else 0
        if hi - lo != plen + count or memcmp(d + hi - count, digits + 19 - count, count) or \
                memcmp(d + lo, prefix, plen):
            return None
    return plen, width, offset


cdef int64_t[19] _POWERS
_POWERS[0] = 1
for _i in range(1, 19):
    _POWERS[_i] = _POWERS[_i - 1] * 10
