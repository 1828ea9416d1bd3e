# cython: language_level=3
"""Native JSON text for the batch runner: a chunk's results split, its stored rows written.

* :func:`split_array`: the texts of the items of a JSON array (orjson's text of a
  chunk's results, one call for the whole chunk).
* :func:`rows_json`: the JSON text of a chunk's stored rows, hashes given as the
  16-byte digests of :mod:`solvers._batch_hashes`.

Nothing here raises for user input: a text it cannot write as plain ASCII makes it
return ``None``, and the caller encodes that chunk the general way.
"""

cimport cython
from libc.stdint cimport uint8_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy
from libc.stdio cimport snprintf
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII

from solvers._batch_hashes cimport digest_count, hex_digest

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    char* PyOS_double_to_string(double, char, int, int, int*) except NULL
    void PyMem_Free(void*)
    int Py_DTSF_ADD_DOT_0

DEF DIGEST = 16

# per ASCII byte: 0 written as is, 1 after a backslash (quote, backslash), 2 as \u00XX
cdef uint8_t _ESCAPE[128]
_ESCAPE[:] = [2] * 32 + [0] * 96
_ESCAPE[34] = 1
_ESCAPE[92] = 1


# -- JSON text ---------------------------------------------------------------------------------------


def split_array(bytes data):
    """The text of each item of the JSON array ``data`` (ASCII, no spaces between items, as
    orjson writes it), or ``None`` when ``data`` is not such an array."""
    cdef const char* s = PyBytes_AS_STRING(data)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(data), p = 1, start = 1
    cdef int depth = 0
    cdef bint in_string = False
    cdef char c
    out = []
    if n < 2 or s[0] != 91 or s[n - 1] != 93:
        return None
    if n == 2:
        return out
    while p < n - 1:
        c = s[p]
        if c < 0:
            return None
        if in_string:
            if c == 92:
                p += 1
            elif c == 34:
                in_string = False
        elif c == 34:
            in_string = True
        elif c == 91 or c == 123:
            depth += 1
        elif c == 93 or c == 125:
            depth -= 1
            if depth < 0:
                return None
        elif c == 44 and depth == 0:
            if p == start:
                return None
            out.append(PyUnicode_DecodeASCII(s + start, p - start, NULL))
            start = p + 1
        p += 1
    if in_string or depth != 0 or p != n - 1 or start >= p:
        return None
    out.append(PyUnicode_DecodeASCII(s + start, p - start, NULL))
    return out


@cython.final
cdef class _Text:
    """A growing ASCII buffer."""

    cdef char* buf
    cdef Py_ssize_t n
    cdef Py_ssize_t cap

    def __cinit__(self, Py_ssize_t cap):
        self.cap = max(cap, 64)
        self.n = 0
        self.buf = <char*>malloc(self.cap)
        if self.buf == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.buf)

    cdef int room(self, Py_ssize_t k) except -1:
        cdef Py_ssize_t cap = self.cap
        cdef char* grown
        if self.n + k <= cap:
            return 0
        while self.n + k > cap:
            cap *= 2
        grown = <char*>malloc(cap)
        if grown == NULL:
            raise MemoryError()
        memcpy(grown, self.buf, self.n)
        free(self.buf)
        self.buf, self.cap = grown, cap
        return 0

    cdef inline int put(self, const char* s, Py_ssize_t k) except -1:
        self.room(k)
        memcpy(self.buf + self.n, s, k)
        self.n += k
        return 0

    cdef int string(self, object text) except -1:
        """``text`` (ASCII ``str``) as a JSON string; -2 when it is not ASCII."""
        cdef const char* s
        cdef Py_ssize_t k, i
        cdef char c
        cdef char esc[8]
        cdef int e
        if type(text) is not str or not PyUnicode_IS_ASCII(text):
            return -2
        s = PyUnicode_DATA(text)
        k = PyUnicode_GET_LENGTH(text)
        self.room(6 * k + 3)
        # a local cursor: writes through char* could alias self.n, which the compiler would
        # then reload for every character
        cdef char* dst = self.buf + self.n
        dst[0] = 34
        dst += 1
        for i in range(k):
            c = s[i]
            e = _ESCAPE[<uint8_t>c]
            if e == 2:  # a control character: rare
                snprintf(esc, 8, b"\\u%04x", <int>c)
                memcpy(dst, esc, 6)
                dst += 6
                continue
            # without a branch on the (frequent, unpredictable) quotes: a backslash or the
            # character first, then the character where it belongs
            dst[0] = 92 if e else c
            dst[e] = c
            dst += 1 + e
        dst[0] = 34
        self.n = dst + 1 - self.buf
        return 0


def rows_json(bytes digests, list ids, list sources, list lines, list inputs, list results,
              list errors, list seconds):
    """The JSON text of rows ``[hash, id, source, line, input, result, error, seconds]``
    (``result`` and ``error`` may be ``None``), or ``None`` when a text is not ASCII (then the
    caller encodes the rows another way)."""
    cdef Py_ssize_t i, count = digest_count(digests)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
    cdef char num[32]
    cdef int k
    cdef char* repr_text
    cdef _Text out
    cdef object last_seconds = None
    cdef bytes last_text = b""
    if not (len(ids) == len(sources) == len(lines) == len(inputs) == len(results)
            == len(errors) == len(seconds) == count):
        raise ValueError("one entry per row in every column")
    cdef Py_ssize_t size = 2
    for column in (ids, sources, inputs, results):
        for text in <list>column:
            if type(text) is str:
                size += PyUnicode_GET_LENGTH(<str>text)
    # the texts once, room for quotes and a few escapes, hash, line, seconds and commas
    out = _Text(size + size // 8 + count * 96)
    out.put(b"[", 1)
    for i in range(count):
        out.put(b',["' if i else b'["', 3 if i else 2)
        out.room(2 * DIGEST + 2)
        hex_digest(src + DIGEST * i, out.buf + out.n)
        out.n += 2 * DIGEST
        out.put(b'",', 2)
        if out.string(ids[i]) < 0:
            return None
        out.put(b",", 1)
        if out.string(sources[i]) < 0:
            return None
        line = lines[i]
        if type(line) is not int:
            return None
        k = snprintf(num, 32, b",%lld,", <long long>line)
        out.put(num, k)
        if out.string(inputs[i]) < 0:
            return None
        out.put(b",", 1)
        for value in (results[i], errors[i]):
            if value is None:
                out.put(b"null,", 5)
            elif out.string(value) < 0:
                return None
            else:
                out.put(b",", 1)
        value = seconds[i]
        if type(value) is not float:
            return None
        if value is not last_seconds:
            if value != value or value in (float("inf"), float("-inf")):
                return None
            repr_text = PyOS_double_to_string(value, b"r", 0, Py_DTSF_ADD_DOT_0, NULL)
            last_text = repr_text
            PyMem_Free(repr_text)
            last_seconds = value
        out.put(last_text, len(last_text))
        out.put(b"]", 1)
    out.put(b"]", 1)
    return PyUnicode_DecodeASCII(out.buf, out.n, NULL)
