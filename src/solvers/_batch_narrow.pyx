# cython: language_level=3
"""Integer columns of a packed block in the fewest bytes a value, in one pass each
(:func:`engines.batch.store_packed.narrow`'s form, no NumPy array between).

A block's sizes, lines and codes were narrowed by ``np.diff``, ``min``, ``max`` and
``astype``: four or five passes and as many new arrays a column, ~100 ns a 升级 position on
the store thread in whole runs, more than the column's bytes cost SQLite.  These read the
column twice (its bounds, then its values written at the width chosen) and allocate only
the result.  The form: a code byte (index into ``_WIDTHS`` of ``store_packed``: 0 uint8,
1 uint16, 2 uint32, 3 int64, 4 int8, 5 int16, 6 int32; the narrowest holding every value,
unsigned first), then each value little-endian; with ``repeated``, a column whose values
are all equal (and not empty) is code 7 and that value as int64.

>>> from array import array
>>> narrow_steps(array("q", [3, 5, 9]).tobytes(), 0, False)
b'\\x00\\x03\\x02\\x04'
>>> narrow_steps(array("q", [4, 5, 6]).tobytes(), 3, True)
b'\\x07\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00'
>>> narrow_codes(array("I", [0, 300, 2]).tobytes(), False)
b'\\x01\\x00\\x00,\\x01\\x02\\x00'
>>> codes_met_in_order(array("I", [0, 1, 0, 2]).tobytes(), 3)
True
"""

cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE

ctypedef fused item_t:
    int64_t
    uint32_t

# (the code of one value that every item repeats: store_packed._REPEATED)
DEF REPEATED = 7
cdef Py_ssize_t[7] _SIZES
_SIZES[:] = [1, 2, 4, 8, 1, 2, 4]


cdef inline int _narrowest(int64_t low, int64_t high) noexcept nogil:
    """The first code, unsigned first and narrowest first, whose type holds low..high."""
    if low >= 0 and high <= 0xFF:
        return 0
    if low >= -0x80 and high <= 0x7F:
        return 4
    if low >= 0 and high <= 0xFFFF:
        return 1
    if low >= -0x8000 and high <= 0x7FFF:
        return 5
    if low >= 0 and high <= <int64_t>0xFFFFFFFF:
        return 2
    if low >= -<int64_t>0x80000000 and high <= <int64_t>0x7FFFFFFF:
        return 6
    return 3


cdef inline int64_t _value(const item_t* v, Py_ssize_t i, bint steps,
                           int64_t before) noexcept nogil:  # fmt: skip
    """Item ``i``, or with ``steps`` its difference from ``before`` (wrapping as int64
    arithmetic does in NumPy)."""
    if steps:
        return <int64_t>(<uint64_t>v[i] - <uint64_t>before)
    return <int64_t>v[i]


@cython.boundscheck(False)
@cython.wraparound(False)
cdef bytes _narrowed(const item_t* v, Py_ssize_t n, bint steps, int64_t first, bint repeated):
    cdef Py_ssize_t i
    cdef int64_t low = 0, high = 0, x, before = first
    cdef int code
    cdef char* out
    cdef int8_t b8
    cdef int16_t b16
    cdef int32_t b32
    for i in range(n):
        x = _value(v, i, steps, before)
        before = <int64_t>v[i]
        if i == 0 or x < low:
            low = x
        if i == 0 or x > high:
            high = x
    if repeated and n and low == high:
        result = PyBytes_FromStringAndSize(NULL, 9)
        out = PyBytes_AS_STRING(result)
        out[0] = REPEATED
        memcpy(out + 1, &low, 8)
        return result
    code = _narrowest(low, high)
    result = PyBytes_FromStringAndSize(NULL, 1 + n * _SIZES[code])
    out = PyBytes_AS_STRING(result)
    out[0] = <char>code
    out += 1
    before = first
    for i in range(n):  # (two's complement: the low bytes of x are the narrow value's)
        x = _value(v, i, steps, before)
        before = <int64_t>v[i]
        if code == 0 or code == 4:
            b8 = <int8_t>x
            memcpy(out + i, &b8, 1)
        elif code == 1 or code == 5:
            b16 = <int16_t>x
            memcpy(out + 2 * i, &b16, 2)
        elif code == 2 or code == 6:
            b32 = <int32_t>x
            memcpy(out + 4 * i, &b32, 4)
        else:
            memcpy(out + 8 * i, &x, 8)
    return result


def narrow_steps(bytes values not None, int64_t first, bint repeated):
    """``narrow(np.diff(v, prepend=first), repeated)`` of the int64 ``values`` (``v``): each
    value's difference from the one before (the first's from ``first``), narrowed."""
    if PyBytes_GET_SIZE(values) % 8:
        raise ValueError("int64 values of another length")
    return _narrowed(<const int64_t*>PyBytes_AS_STRING(values), PyBytes_GET_SIZE(values) // 8,
                     True, first, repeated)


def narrow_codes(bytes codes not None, bint repeated):
    """``narrow(np.frombuffer(codes, np.uint32), repeated)``."""
    if PyBytes_GET_SIZE(codes) % 4:
        raise ValueError("uint32 codes of another length")
    return _narrowed(<const uint32_t*>PyBytes_AS_STRING(codes), PyBytes_GET_SIZE(codes) // 4,
                     False, 0, repeated)


@cython.boundscheck(False)
@cython.wraparound(False)
def codes_met_in_order(bytes codes not None, Py_ssize_t count):
    """Whether the uint32 ``codes`` (not empty) meet each of ``0 .. count - 1`` and each
    first after every smaller one: every code is at most one more than the greatest before
    it, the first is 0 and the greatest ``count - 1``."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(codes) // 4, i
    cdef const uint32_t* c = <const uint32_t*>PyBytes_AS_STRING(codes)
    cdef uint32_t met
    if PyBytes_GET_SIZE(codes) % 4:
        raise ValueError("uint32 codes of another length")
    if n == 0 or c[0] != 0:
        return False
    met = 0
    for i in range(1, n):
        if c[i] > met:
            if c[i] != met + 1:
                return False
            met = c[i]
    return <Py_ssize_t>met + 1 == count
