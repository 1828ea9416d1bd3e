# cython: language_level=3
"""JSON lexing steps of :mod:`solvers._records`' scanner, inline (they run for every
character of every line): whitespace, strings, digits, array separators, ``null``, numbers,
whole values (no objects, no escapes), short comparisons."""

from libc.stdint cimport uint64_t
from libc.string cimport memcmp, memcpy


cdef inline Py_ssize_t _ws(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    cdef char c
    while p < n:
        c = s[p]
        # (most often a character above the space: one compare, not four)
        if c > 32 or not (c == 32 or c == 9 or c == 10 or c == 13):
            break
        p += 1
    return p


cdef inline bint _blank(const char* s, Py_ssize_t n) noexcept nogil:
    # str.strip()'s ASCII whitespace: \t \n \v \f \r, \x1c-\x1f and space
    cdef Py_ssize_t p
    cdef char c
    for p in range(n):
        c = s[p]
        if not (c == 32 or (9 <= c <= 13) or (28 <= c <= 31)):
            return False
    return True


cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define QIPAI_LEX_LITTLE_ENDIAN 1
    #else
    #define QIPAI_LEX_LITTLE_ENDIAN 0
    #endif
    """
    int _lex_lowest "__builtin_ctzll"(uint64_t) noexcept nogil
    bint _LEX_LITTLE_ENDIAN "QIPAI_LEX_LITTLE_ENDIAN"


cdef inline uint64_t _zero_bytes(uint64_t x) noexcept nogil:
    """The high bit of each zero byte of ``x`` (exact for the lowest one: a borrow only
    marks bytes above a zero byte)."""
    return (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL


cdef inline uint64_t _string_stops(uint64_t w) noexcept nogil:
    """The high bit of each byte of ``w`` (8 characters of a string) that ends the fast
    read of a JSON string: a quote, a backslash, a control character, DEL or a byte of 128
    or more (exact for the lowest one, which is all the caller uses)."""
    return (_zero_bytes(w ^ 0x2222222222222222ULL) | _zero_bytes(w ^ 0x5C5C5C5C5C5C5C5CULL)
            | ((w - 0x2020202020202020ULL) & ~w & 0x8080808080808080ULL)
            | _zero_bytes(w ^ 0x7F7F7F7F7F7F7F7FULL) | (w & 0x8080808080808080ULL))


cdef inline Py_ssize_t _string_end(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """``p`` at an opening quote: the index after the closing one, or -1 (escape, control).
    Eight characters at a time while eight can be read (little-endian builds): the first
    byte that stops the read decides, as the character loop below would."""
    cdef char c
    cdef uint64_t w, stops
    p += 1
    if _LEX_LITTLE_ENDIAN:
        while p + 8 <= n:
            memcpy(&w, s + p, 8)  # (byte i of the text is byte i of w)
            stops = _string_stops(w)
            if stops:
                p += _lex_lowest(stops) >> 3
                return p + 1 if s[p] == 34 else -1
            p += 8
    while p < n:
        c = s[p]
        if c == 34:
            return p + 1
        if c == 92 or c < 32 or c == 127:
            return -1
        p += 1
    return -1


cdef inline Py_ssize_t _digits(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t start = p
    while p < n and 48 <= s[p] <= 57:
        p += 1
    return p if p > start else -1


cdef inline Py_ssize_t _next_item(const char* s, Py_ssize_t p, Py_ssize_t n,
                                  bint* closed) noexcept nogil:
    """After an array item at ``p``: the next item's index, or (``closed``) the index after
    the ``]``; -1 when neither a comma nor a ``]`` follows."""
    p = _ws(s, p, n)
    closed[0] = False
    if p >= n:
        return -1
    if s[p] == 93:
        closed[0] = True
        return p + 1
    if s[p] != 44:
        return -1
    return _ws(s, p + 1, n)


cdef inline bint _is_null(const char* s, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    return b - a == 4 and memcmp(s + a, b"null", 4) == 0


cdef inline bint _same(const char* a, const char* b, Py_ssize_t k) noexcept nogil:
    """``a[:k] == b[:k]`` for the short keys and names of a spec (no call: memcmp's cost
    more than the comparison), eight characters at a time, then one at a time."""
    cdef Py_ssize_t i = 0
    cdef uint64_t x, y
    while i + 8 <= k:
        memcpy(&x, a + i, 8)
        memcpy(&y, b + i, 8)
        if x != y:
            return False
        i += 8
    while i < k:
        if a[i] != b[i]:
            return False
        i += 1
    return True


DEF MAX_DEPTH = 16  # the deepest array a value may nest


cdef inline Py_ssize_t _number_end(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """A JSON number at ``p``: the index after it, or -1."""
    if p < n and s[p] == 45:
        p += 1
    if p < n and s[p] == 48:
        p += 1
    else:
        p = _digits(s, p, n)
        if p < 0:
            return -1
    if p < n and s[p] == 46:
        p = _digits(s, p + 1, n)
        if p < 0:
            return -1
    if p < n and (s[p] == 101 or s[p] == 69):
        p += 1
        if p < n and (s[p] == 43 or s[p] == 45):
            p += 1
        p = _digits(s, p, n)
    return p


cdef inline Py_ssize_t _value_end(const char* s, Py_ssize_t p, Py_ssize_t n,
                                  int depth) noexcept nogil:
    """The index after the JSON value at ``p`` (no objects, no escapes), or -1."""
    cdef char c
    cdef bint closed
    if p >= n or depth > MAX_DEPTH:
        return -1
    c = s[p]
    if c == 34:
        return _string_end(s, p, n)
    if c == 91:
        p = _ws(s, p + 1, n)
        if p < n and s[p] == 93:
            return p + 1
        while True:
            p = _value_end(s, p, n, depth + 1)
            if p < 0:
                return -1
            p = _next_item(s, p, n, &closed)
            if p < 0 or closed:
                return p
    if c == 116:
        return p + 4 if n - p >= 4 and memcmp(s + p, b"true", 4) == 0 else -1
    if c == 102:
        return p + 5 if n - p >= 5 and memcmp(s + p, b"false", 5) == 0 else -1
    if c == 110:
        return p + 4 if n - p >= 4 and memcmp(s + p, b"null", 4) == 0 else -1
    if c == 45 or 48 <= c <= 57:
        return _number_end(s, p, n)
    return -1
