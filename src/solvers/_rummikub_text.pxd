# cython: language_level=3
"""Tile names as C text, shared by the Rummikub record reader and result writer.

Tile kind: ``13 * colour + number - 1`` for colours K R O B, 52 for the joker.
"""

from libc.string cimport memcpy

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)


cdef inline void tile_names(char (*names)[4], int* lengths) noexcept:
    """The canonical name of each of the 53 kinds (``K1`` … ``B13``, ``J``), not terminated."""
    cdef int colour, number, k
    cdef const char* letters = b"KROB"
    for colour in range(4):
        for number in range(1, 14):
            k = 13 * colour + number - 1
            names[k][0] = letters[colour]
            if number < 10:
                names[k][1] = 48 + number
                lengths[k] = 2
            else:
                names[k][1] = 49
                names[k][2] = 48 + number - 10
                lengths[k] = 3
    names[52][0] = 74
    lengths[52] = 1


cdef inline int put_quoted(char* out, int at, const char* name, int length) noexcept:
    """``"name"`` at ``out + at``; the new end."""
    out[at] = 34
    memcpy(out + at + 1, name, length)
    out[at + length + 1] = 34
    return at + length + 2
