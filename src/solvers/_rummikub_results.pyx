# cython: language_level=3, boundscheck=False, wraparound=False
"""The stored results of a Rummikub batch written as JSON text in native code.

For ``rummikub-best``: from the kernel's outputs (``engines.rummikub.arrays.solve_counts``)
straight to each result's canonical JSON text (sorted keys, no spaces), the text that
``json.dumps(result, sort_keys=True, separators=(",", ":"))`` gives for ``{"played":
names, "sets": sets, "tiles": n, "value": v}``, without a Python list or dict per result.
"""

from libc.stdint cimport int64_t
from libc.string cimport memcpy
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII

from solvers._rummikub_text cimport put_quoted, tile_names

DEF KINDS = 53
DEF CAP = 32768

cdef char NAMES[KINDS][4]
cdef int NAME_LEN[KINDS]
tile_names(NAMES, NAME_LEN)


cdef inline int put(char* out, int at, bytes text) except -1:
    cdef Py_ssize_t n = PyBytes_GET_SIZE(text)
    if at + n >= CAP - 64:
        raise ValueError("result text too long")
    memcpy(out + at, PyBytes_AS_STRING(text), n)
    return at + <int>n


cdef inline int put_int(char* out, int at, long long value):
    cdef char digits[24]
    cdef int n = 0
    if value == 0:
        out[at] = 48
        return at + 1
    while value > 0:
        digits[n] = 48 + value % 10
        value //= 10
        n += 1
    while n:
        n -= 1
        out[at] = digits[n]
        at += 1
    return at


def result_texts(const int64_t[:] status, const int64_t[:] counts,
                 const int64_t[:, :] codes, const int64_t[:, :] played,
                 const unsigned char[:] melded, list tables, dict set_texts, set_text):
    """The JSON text of each position's result.  ``status[p] == 1`` where a move was found
    (then ``codes[p, :counts[p]]`` are its sets); ``played``: (n, 53) counts of the rack
    tiles played; ``tables[p]``: the table's sets as JSON text without the outer brackets,
    repeated before the new sets where ``melded[p]`` is 0 (an initial meld); ``set_texts``:
    set code -> its JSON text (``set_text(code)`` fills a missing one)."""
    cdef Py_ssize_t n = status.shape[0], p
    cdef int at, k, t, s, first
    cdef long long tiles, value
    cdef char out[CAP]
    texts = []
    for p in range(n):
        memcpy(out, b'{"played":[', 11)
        at = 11
        tiles = 0
        value = 0
        for k in range(KINDS):
            for t in range(played[p, k]):
                if tiles:
                    out[at] = 44
                    at += 1
                at = put_quoted(out, at, NAMES[k], NAME_LEN[k])
                tiles += 1
                if k < 52:
                    value += k % 13 + 1
        memcpy(out + at, b'],"sets":[', 10)
        at += 10
        first = 1
        if not melded[p]:
            table = tables[p]
            if PyBytes_GET_SIZE(table):
                at = put(out, at, table)
                first = 0
        if status[p] == 1:
            for s in range(counts[p]):
                code = codes[p, s]
                text = set_texts.get(code)
                if text is None:
                    text = set_text(code)
                    set_texts[code] = text
                if not first:
                    out[at] = 44
                    at += 1
                first = 0
                at = put(out, at, text)
        memcpy(out + at, b'],"tiles":', 10)
        at = put_int(out, at + 10, tiles)
        memcpy(out + at, b',"value":', 9)
        at = put_int(out, at + 9, value)
        out[at] = 125
        texts.append(PyUnicode_DecodeASCII(out, at + 1, NULL))
    return texts
