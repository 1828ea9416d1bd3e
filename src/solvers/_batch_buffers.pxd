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
