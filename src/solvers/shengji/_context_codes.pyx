# cython: language_level=3, boundscheck=False, wraparound=False
"""The context code of every row of a 升级 batch in one C pass.

The batch API takes one ``TrumpContext`` per row.  Reading ``code`` from 34,000 objects and
checking their types were two passes in Python, about 10 % of a whole legality call.  The
contexts are interned (one object per setting), so a small table keyed by the object's
address, valid for one call (the list keeps its objects alive), answers nearly every row
with one comparison.
"""

from libc.stdint cimport uintptr_t


def context_codes(list items, type cls, unsigned char[::1] out):
    """Write ``items[i].code`` to ``out[i]`` for objects of exactly type ``cls`` whose
    ``code`` is an int 0..254; return the first index where that fails, else -1."""
    cdef Py_ssize_t i, n = len(items)
    cdef uintptr_t seen[256]
    cdef unsigned char codes[256]
    cdef uintptr_t address
    cdef int slot
    cdef object item, code
    if out.shape[0] < n:
        return 0 if n else -1
    for slot in range(256):
        seen[slot] = 0
    for i in range(n):
        item = items[i]
        if type(item) is not cls:
            return i
        address = <uintptr_t><void*>item
        slot = (address >> 4) & 255
        if seen[slot] == address:
            out[i] = codes[slot]
            continue
        code = getattr(item, "code", None)
        if type(code) is not int or not 0 <= code <= 254:
            return i
        seen[slot] = address
        codes[slot] = <unsigned char>code
        out[i] = codes[slot]
    return -1
