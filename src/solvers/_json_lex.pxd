# cython: language_level=3
"""JSON lexing steps of :mod:`solvers._records`' scanner, inline (they run for every
character of every line): whitespace, strings, digits, array separators, ``null``."""

from libc.string cimport memcmp


cdef inline Py_ssize_t _ws(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept:
    while p < n and (s[p] == 32 or s[p] == 9 or s[p] == 10 or s[p] == 13):
        p += 1
    return p


cdef inline bint _blank(const char* s, Py_ssize_t n) noexcept:
    # str.strip()'s ASCII whitespace: \t \n \v \f \r, \x1c-\x1f and space
    cdef Py_ssize_t p
    cdef char c
    for p in range(n):
        c = s[p]
        if not (c == 32 or (9 <= c <= 13) or (28 <= c <= 31)):
            return False
    return True


cdef inline Py_ssize_t _string_end(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept:
    """``p`` at an opening quote: the index after the closing one, or -1 (escape, control)."""
    cdef char c
    p += 1
    while p < n:
        c = s[p]
        if c == 34:
            return p + 1
        if c == 92 or c < 32 or c == 127:
            return -1
        p += 1
    return -1


cdef inline Py_ssize_t _digits(const char* s, Py_ssize_t p, Py_ssize_t n) noexcept:
    cdef Py_ssize_t start = p
    while p < n and 48 <= s[p] <= 57:
        p += 1
    return p if p > start else -1


cdef inline Py_ssize_t _next_item(const char* s, Py_ssize_t p, Py_ssize_t n,
                                  bint* closed) noexcept:
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


cdef inline bint _is_null(const char* s, Py_ssize_t a, Py_ssize_t b) noexcept:
    return b - a == 4 and memcmp(s + a, b"null", 4) == 0
