# cython: language_level=3
"""Native helpers of the packed-block store (:mod:`engines.batch.store_packed`): a column's
distinct items, numbered ids, the solver seconds' bits, the stored payloads' digests.

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
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from cpython.object cimport PyObject

from solvers._batch_hashes cimport blake2b16_many

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)


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


@cython.boundscheck(False)
@cython.wraparound(False)
def distinct_texts(list items):
    """:func:`distinct_items` of the UTF-8 of the ``str`` ``items`` (as of the data and ends
    of ``Strings.of(items)``), with no copy of every text: an item that is the same object
    as an earlier one takes its code unread (a block's answers are a few hundred objects
    shared by thousands of positions).

    >>> a = "x" * 9
    >>> data, ends, codes = distinct_texts([a, "y", "x" * 9, a, "é"])
    >>> data, len(ends) // 8, list(codes[::4])
    (b'xxxxxxxxxy\xc3\xa9', 3, [0, 1, 0, 0, 2])
    """
    cdef Py_ssize_t n = len(items), i, j, slot, k = 0, size = 256, seen = 0, held = 1024
    cdef Py_ssize_t objects = 1024, total = 0, room = 4096, m, code
    cdef const char* text
    cdef uint64_t h
    cdef PyObject* key
    codes = PyBytes_FromStringAndSize(NULL, 4 * n)
    cdef uint32_t* out = <uint32_t*>PyBytes_AS_STRING(codes)
    # (objects met: their address and code; distinct texts: their hash, end and slot table)
    cdef PyObject** met = <PyObject**>PyMem_Malloc(objects * sizeof(PyObject*))
    cdef uint32_t* met_codes = <uint32_t*>PyMem_Malloc(objects * sizeof(uint32_t))
    cdef Py_ssize_t* table = <Py_ssize_t*>PyMem_Malloc(size * sizeof(Py_ssize_t))
    cdef uint64_t* hashes = <uint64_t*>PyMem_Malloc(held * sizeof(uint64_t))
    cdef int64_t* ends = <int64_t*>PyMem_Malloc(held * sizeof(int64_t))
    cdef char* buf = <char*>PyMem_Malloc(room)
    try:
        if not (met and met_codes and table and hashes and ends and buf):
            raise MemoryError()
        for slot in range(objects):
            met[slot] = NULL
        for slot in range(size):
            table[slot] = -1
        for i in range(n):
            item = items[i]
            key = <PyObject*>item
            slot = <Py_ssize_t>(((<uint64_t><size_t>key >> 4) * 0x9E3779B97F4A7C15ULL) >> 40) & \
                (objects - 1)
            while met[slot] != NULL and met[slot] != key:
                slot = (slot + 1) & (objects - 1)
            if met[slot] != NULL:
                out[i] = met_codes[slot]
                continue
            if type(item) is not str:
                raise TypeError(f"distinct_texts: str expected, got {type(item).__name__}")
            if PyUnicode_IS_ASCII(item):
                text, m = PyUnicode_DATA(item), PyUnicode_GET_LENGTH(item)
            else:  # (as Strings.of writes it: lone surrogates kept)
                raw = item.encode("utf-8", "surrogatepass")
                text, m = PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw)
            h = _hash(<const unsigned char*>text, m)
            j = _text_slot(table, size, hashes, ends, buf, h, text, m)
            code = table[j]
            if code < 0:  # (a new text)
                if k == held:
                    held *= 2
                    hashes = <uint64_t*>_grown(hashes, held * sizeof(uint64_t))
                    ends = <int64_t*>_grown(ends, held * sizeof(int64_t))
                if total + m > room:
                    while total + m > room:
                        room *= 2
                    buf = <char*>_grown(buf, room)
                memcpy(buf + total, text, m)
                total += m
                code = table[j] = k
                hashes[k], ends[k] = h, total
                k += 1
                if 2 * k > size:
                    size *= 2
                    table = _rehashed(table, size, hashes, k)
            out[i] = <uint32_t>code
            met[slot], met_codes[slot] = key, out[i]
            seen += 1
            if 2 * seen > objects:  # (a new table of the objects met, from the codes)
                objects *= 2
                PyMem_Free(met)
                PyMem_Free(met_codes)
                met = <PyObject**>PyMem_Malloc(objects * sizeof(PyObject*))
                met_codes = <uint32_t*>PyMem_Malloc(objects * sizeof(uint32_t))
                if not (met and met_codes):
                    raise MemoryError()
                for slot in range(objects):
                    met[slot] = NULL
                seen = 0  # (the objects met so far are looked up by their text again)
        distinct = PyBytes_FromStringAndSize(buf, total)
        distinct_ends = PyBytes_FromStringAndSize(<char*>ends, 8 * k)
    finally:
        PyMem_Free(met)
        PyMem_Free(met_codes)
        PyMem_Free(table)
        PyMem_Free(hashes)
        PyMem_Free(ends)
        PyMem_Free(buf)
    return distinct, distinct_ends, codes


cdef void* _grown(void* block, size_t size) except NULL:
    cdef void* grown = PyMem_Realloc(block, size)
    if grown == NULL:
        raise MemoryError()
    return grown


cdef inline Py_ssize_t _text_slot(const Py_ssize_t* table, Py_ssize_t size, const uint64_t* hashes,
                                  const int64_t* ends, const char* buf, uint64_t h,
                                  const char* text, Py_ssize_t m) noexcept:
    """The slot of the distinct text equal to ``text`` (``m`` bytes), or the empty slot
    where it goes."""
    cdef Py_ssize_t slot = <Py_ssize_t>(h & <uint64_t>(size - 1)), j, start
    while True:
        j = table[slot]
        if j < 0:
            return slot
        start = ends[j - 1] if j else 0
        if hashes[j] == h and ends[j] - start == m and memcmp(buf + start, text, m) == 0:
            return slot
        slot = (slot + 1) & (size - 1)


cdef Py_ssize_t* _rehashed(Py_ssize_t* table, Py_ssize_t size, const uint64_t* hashes,
                           Py_ssize_t k) except NULL:
    """A table of ``size`` slots holding the ``k`` distinct items (``table`` freed; kept,
    still the caller's to free, when there is no memory for the new one)."""
    cdef Py_ssize_t j, slot
    cdef Py_ssize_t* grown = <Py_ssize_t*>PyMem_Malloc(size * sizeof(Py_ssize_t))
    if grown == NULL:
        raise MemoryError()
    PyMem_Free(table)
    table = grown
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


@cython.boundscheck(False)
@cython.wraparound(False)
def form_digests(bytes data, bytes ends):
    """The 16-byte BLAKE2b digest of each item of ``data`` (ending at ``ends``, int64 bytes,
    checked), one after the other: a schema-7 packed block's input hashes, which are its
    stored compact payloads' digests (the reading threads hash the same bytes).

    >>> from array import array
    >>> from solvers._batch_hashes import blake2b16
    >>> form_digests(b"abcd", array("q", [1, 4]).tobytes()) == blake2b16(b"a") + blake2b16(b"bcd")
    True
    """
    cdef Py_ssize_t n = PyBytes_GET_SIZE(ends) // 8, i
    cdef const int64_t* e = <const int64_t*>PyBytes_AS_STRING(ends)
    cdef const uint8_t* base = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef int64_t lo = 0
    if PyBytes_GET_SIZE(ends) % 8 or (n and e[n - 1] != PyBytes_GET_SIZE(data)):
        raise ValueError("ends that do not end the data")
    for i in range(n):
        if e[i] < lo:
            raise ValueError("ends out of order")
        lo = e[i]
    cdef const uint8_t** starts = <const uint8_t**>PyMem_Malloc(max(n, 1) * sizeof(uint8_t*))
    cdef int64_t* sizes = <int64_t*>PyMem_Malloc(max(n, 1) * sizeof(int64_t))
    cdef uint8_t* dst
    try:
        if starts == NULL or sizes == NULL:
            raise MemoryError()
        out = PyBytes_FromStringAndSize(NULL, 16 * n)
        dst = <uint8_t*>PyBytes_AS_STRING(out)
        lo = 0
        for i in range(n):
            starts[i], sizes[i] = base + lo, e[i] - lo
            lo = e[i]
        with nogil:
            blake2b16_many(starts, sizes, n, dst)
        return out
    finally:
        PyMem_Free(starts)
        PyMem_Free(sizes)
