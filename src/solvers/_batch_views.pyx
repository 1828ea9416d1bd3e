# cython: language_level=3
"""Columns gathered from pieces of blocks: how the batch runner's chunks get their columns.

The runner cuts the blocks it reads into chunks without copying them: a chunk is a list of
*pieces*, each the items ``lo:hi`` of a block's column, all of them or only those a mask
keeps (the positions that are new: not repeated, stored or claimed by another run).  Each
column is copied once, from the blocks into the chunk's own buffer, by the thread that
reads it (the solving thread its payloads, the store thread the rest): one call a column.

>>> from solvers._batch_columns import Strings
>>> s = Strings.of(["ab", "", "c", "def"])
>>> gather_strings([(s, 1, 4, bytearray([1, 1, 0, 1])), (s, 0, 1, None)]).tolist()
['', 'def', 'ab']
>>> gather_fixed([(b"aabbcc", 0, 3, b"\\x01\\x00\\x01"), (b"dd", 0, 1, None)], 2)
b'aaccdd'
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE

from solvers._batch_columns cimport Strings


cdef const uint8_t* _mask(object mask, Py_ssize_t count) except? NULL:
    """The bytes of ``mask`` (``bytes`` or ``bytearray``, one a item), or NULL for None."""
    if mask is None:
        return NULL
    if type(mask) is bytearray:
        if len(mask) != count:
            raise ValueError("one mask byte an item")
        return <const uint8_t*><char*>mask
    if type(mask) is bytes:
        if PyBytes_GET_SIZE(mask) != count:
            raise ValueError("one mask byte an item")
        return <const uint8_t*>PyBytes_AS_STRING(mask)
    raise TypeError("a mask is bytes, bytearray or None")


cdef inline int _bounds(Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t count) except -1:
    if not 0 <= lo <= hi <= count:
        raise IndexError("a piece out of its column's range")
    return 0


def gather_fixed(list pieces, Py_ssize_t width):
    """The ``width``-byte items of ``pieces`` one after the other: each piece ``(data, lo,
    hi, mask)`` gives items ``lo:hi`` of ``data`` (``bytes``), those whose ``mask`` byte
    (one an item of ``data``) is not 0, or all of them when ``mask`` is None."""
    cdef Py_ssize_t i, k, lo, hi, count, size = 0
    cdef const uint8_t* m
    cdef const char* src
    cdef char* dst
    cdef bytes data
    if width < 1:
        raise ValueError("width must be at least 1")
    for piece in pieces:
        data, lo, hi, mask = piece
        if PyBytes_GET_SIZE(data) % width:
            raise ValueError("data must be a multiple of the width")
        count = PyBytes_GET_SIZE(data) // width
        _bounds(lo, hi, count)
        m = _mask(mask, count)
        if m == NULL:
            size += hi - lo
        else:
            for i in range(lo, hi):
                size += m[i] != 0
    out = PyBytes_FromStringAndSize(NULL, width * size)
    dst = PyBytes_AS_STRING(out)
    k = 0
    for piece in pieces:
        data, lo, hi, mask = piece
        src = PyBytes_AS_STRING(data)
        m = _mask(mask, PyBytes_GET_SIZE(data) // width)
        if m == NULL:
            memcpy(dst + width * k, src + width * lo, width * (hi - lo))
            k += hi - lo
            continue
        for i in range(lo, hi):
            if m[i]:
                memcpy(dst + width * k, src + width * i, width)
                k += 1
    return out


def gather_strings(list pieces):
    """The items of ``pieces`` one after the other, as one :class:`Strings` (each piece
    ``(strings, lo, hi, mask)`` as :func:`gather_fixed`'s; all text or all bytes; ASCII and
    plain when every piece's column is)."""
    cdef Strings s, out, first = None
    cdef Py_ssize_t i, lo, hi, count = 0, k = 0
    cdef int64_t size = 0, a, base
    cdef const int64_t* e
    cdef const uint8_t* m
    cdef int64_t* ends_at
    cdef char* dst
    cdef const char* src
    cdef bint ascii = True, plain = True
    for piece in pieces:
        s, lo, hi, mask = piece
        if first is None:
            first = s
        elif s.text != first.text or s.compact != first.compact:
            raise ValueError("gather_strings: text and bytes items, or compact forms and "
                             "others, mixed")
        _bounds(lo, hi, s.count)
        m = _mask(mask, s.count)
        e = <const int64_t*>PyBytes_AS_STRING(s.ends)
        ascii = ascii and s.ascii
        plain = plain and s.plain
        if m == NULL:
            if hi > lo:
                count += hi - lo
                size += e[hi - 1] - (e[lo - 1] if lo else 0)
            continue
        for i in range(lo, hi):
            if m[i]:
                count += 1
                size += e[i] - (e[i - 1] if i else 0)
    data = PyBytes_FromStringAndSize(NULL, size)
    ends = PyBytes_FromStringAndSize(NULL, 8 * count)
    dst = PyBytes_AS_STRING(data)
    ends_at = <int64_t*>PyBytes_AS_STRING(ends)
    size = 0
    for piece in pieces:
        s, lo, hi, mask = piece
        m = _mask(mask, s.count)
        e = <const int64_t*>PyBytes_AS_STRING(s.ends)
        src = PyBytes_AS_STRING(s.data)
        if m == NULL:
            if hi == lo:
                continue
            base = e[lo - 1] if lo else 0
            memcpy(dst + size, src + base, e[hi - 1] - base)
            for i in range(lo, hi):
                ends_at[k] = size + e[i] - base
                k += 1
            size += e[hi - 1] - base
            continue
        for i in range(lo, hi):
            if m[i]:
                a = e[i - 1] if i else 0
                memcpy(dst + size, src + a, e[i] - a)
                size += e[i] - a
                ends_at[k] = size
                k += 1
    out = Strings.__new__(Strings)
    out.data, out.ends, out.count = data, ends, count
    text = first.text if first is not None else True
    out.text, out.ascii, out.plain = text, ascii or not text, plain and text
    out.compact = first is not None and first.compact
    return out
