# cython: language_level=3
"""Growing byte buffers in C for the batch runner's native steps that run without the GIL:
what they produce for a whole block of lines is kept here until Python objects are made
of it (a ``realloc``'d area; a failed allocation returns False, never raises)."""

from libc.stdlib cimport free, realloc
from libc.string cimport memcpy


cdef struct Buffer:
    char* data
    Py_ssize_t n
    Py_ssize_t cap


cdef inline bint buffer_room(Buffer* b, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t cap
    cdef char* grown
    if b.n + k <= b.cap:
        return True
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
