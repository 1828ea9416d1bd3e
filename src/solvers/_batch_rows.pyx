# cython: language_level=3
"""Native JSON text for the batch runner: a chunk's results split, its stored rows written.

* :func:`split_array`: the texts of the items of a JSON array (orjson's text of a
  chunk's results, one call for the whole chunk).
* :func:`block_json`: the JSON text of a block's rows (schema 3: no hash, no source, the
  input and the result as JSON values where that keeps their text).

Nothing here raises for user input: a text it cannot write as plain ASCII makes it
return ``None``, and the caller encodes that chunk the general way.
"""

cimport cython
from libc.stdint cimport uint8_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset
from libc.stdio cimport snprintf
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII

from libc.stdint cimport int64_t

from solvers._batch_buffers cimport Buffer, buffer_free, buffer_put, buffer_room
from solvers._batch_columns cimport Strings


from cpython.ref cimport PyObject, Py_XDECREF

cdef extern from "Python.h":
    PyObject* PyUnicode_New(Py_ssize_t, Py_UCS4) except NULL
    int PyUnicode_Resize(PyObject**, Py_ssize_t) except -1
    void* PyUnicode_DATA_OF "PyUnicode_DATA"(PyObject*)
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    char* PyOS_double_to_string(double, char, int, int, int*) except NULL
    void PyMem_Free(void*)
    int Py_DTSF_ADD_DOT_0


# per ASCII byte: 0 written as is, 1 after a backslash (quote, backslash), 2 as \u00XX
cdef uint8_t _ESCAPE[128]
_ESCAPE[:] = [2] * 32 + [0] * 96
_ESCAPE[34] = 1
_ESCAPE[92] = 1


# -- JSON text ---------------------------------------------------------------------------------------


cdef inline bint _string_step(const char* s, Py_ssize_t* p, bint* in_string) noexcept:
    """The character ``s[p]`` of JSON text as part of a string: True when it opens, is in or
    closes one (``p`` moves past an escaped character), False when it is outside strings."""
    cdef char c = s[p[0]]
    if in_string[0]:
        if c == 92:
            p[0] += 1
        elif c == 34:
            in_string[0] = False
        return True
    if c == 34:
        in_string[0] = True
        return True
    return False


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
        if _string_step(s, &p, &in_string):
            pass
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
cdef bint _string(Buffer* out, const char* s, Py_ssize_t k) noexcept nogil:
    """The ASCII text ``s[:k]`` as a JSON string; False: out of memory."""
    cdef Py_ssize_t i
    cdef char c
    cdef char esc[8]
    cdef int e
    cdef char* dst
    if not buffer_room(out, 6 * k + 3):
        return False
    # a local cursor: writes through char* could alias out.n, which the compiler would
    # then reload for every character
    dst = out.data + out.n
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
    out.n = dst + 1 - out.data
    return True


# the deepest object or array written as a value (deeper text is written as a string: SQLite's
# JSON functions refuse nesting beyond 1,000 levels, which would hide the whole block)
DEF MAX_VALUE_DEPTH = 64


cdef bint _plain_value(const char* s, Py_ssize_t k) noexcept nogil:
    """Whether the ASCII text ``s[:k]`` (a canonical JSON text) is an object or array that
    SQLite's json_extract gives back as it is: balanced, no control characters, no ``NaN``
    or ``Infinity`` (which the standard library writes and JSON does not have)."""
    cdef Py_ssize_t i
    cdef int depth = 0
    cdef bint in_string = False
    cdef char c
    if k < 2 or (s[0] != 123 and s[0] != 91):
        return False
    i = 0
    while i < k:
        c = s[i]
        if c < 32:
            return False
        if in_string:
            # most of the text is inside strings: on to the next quote, backslash or
            # control character in a tight loop (a backslash skips the character after it)
            while c != 34 and c != 92 and c >= 32:
                i += 1
                if i == k:
                    return False
                c = s[i]
            if c < 32:
                return False
            if c == 92:
                i += 1
            else:
                in_string = False
        elif c == 34:
            in_string = True
        elif c == 123 or c == 91:
            depth += 1
            if depth > MAX_VALUE_DEPTH:
                return False
        elif c == 125 or c == 93:
            depth -= 1
            if depth == 0 and i != k - 1:
                return False
        elif c == 78 or c == 73:  # N, I: NaN, Infinity
            return False
        i += 1
    return depth == 0 and not in_string


cdef bint _value(Buffer* out, const char* s, Py_ssize_t k) noexcept nogil:
    """A canonical JSON text as itself when :func:`_plain_value`, else as a JSON string."""
    if _plain_value(s, k):
        return buffer_put(out, s, k)
    return _string(out, s, k)


cdef Py_ssize_t _int_text(long long value, char* out) noexcept nogil:
    """``value`` in decimal into ``out`` (at least 21 bytes): its length (no snprintf: its
    format parsing cost as much as the rest of a row)."""
    cdef char digits[24]
    cdef Py_ssize_t k = 0, n = 0
    cdef unsigned long long v = <unsigned long long>value
    if value < 0:
        out[0] = 45
        n = 1
        v = <unsigned long long>(-(value + 1)) + 1
    while True:
        digits[k] = 48 + <char>(v % 10)
        k += 1
        v //= 10
        if v == 0:
            break
    while k:
        k -= 1
        out[n] = digits[k]
        n += 1
    return n


DEF SECONDS_CACHE = 16


@cython.final
cdef class _FloatTexts:
    """The repr of the last few float objects seen: a chunk's positions share a few timing
    values (one per engine call), interleaved when the input mixes record kinds."""

    cdef list values
    cdef list texts
    cdef int next

    def __cinit__(self):
        self.values = [None] * SECONDS_CACHE
        self.texts = [None] * SECONDS_CACHE
        self.next = 0

    cdef bytes seconds(self, object value, list kept):
        """:meth:`text` of a row's seconds (``None`` unless a finite float), kept alive in
        ``kept`` while the rows are written."""
        cdef bytes text
        if type(value) is not float:
            return None
        text = self.text(value)
        if text is not None:
            kept.append(text)
        return text

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef bytes text(self, object value):
        """The repr of the float ``value``, or ``None`` when it is not finite."""
        cdef int i
        cdef char* repr_text
        cdef bytes text
        for i in range(SECONDS_CACHE):
            if self.values[i] is value:
                return self.texts[i]
        if value != value or value in (float("inf"), float("-inf")):
            return None
        repr_text = PyOS_double_to_string(value, b"r", 0, Py_DTSF_ADD_DOT_0, NULL)
        text = repr_text
        PyMem_Free(repr_text)
        i = self.next
        self.values[i], self.texts[i] = value, text
        self.next = (i + 1) % SECONDS_CACHE
        return text


cdef struct _Row:
    # a row's texts (ASCII, owned by the Python objects of the columns); result and error
    # NULL where absent
    const char* id
    Py_ssize_t id_len
    long long line
    const char* input
    Py_ssize_t input_len
    bint input_plain  # known to be a plain JSON value (the native reader's texts)
    const char* seconds
    Py_ssize_t seconds_len
    const char* result
    Py_ssize_t result_len
    bint result_plain  # written as it is (:func:`_plain_value`), else as a string
    const char* error
    Py_ssize_t error_len


cdef inline const char* _ascii(object text, Py_ssize_t* k) noexcept:
    """The characters of an ASCII ``str`` (``k``: how many), else NULL."""
    if type(text) is not str or not PyUnicode_IS_ASCII(text):
        return NULL
    k[0] = PyUnicode_GET_LENGTH(text)
    return PyUnicode_DATA(text)


cdef bint _gathered(_Row* row, object pid, object line, object text, object result,
                    object error, bytes seconds) noexcept:
    """One row's texts into ``row``; False where one is not ASCII or of another type."""
    row.id = _ascii(pid, &row.id_len)
    row.input = _ascii(text, &row.input_len)
    if row.id == NULL or row.input == NULL or type(line) is not int:
        return False
    row.line = <long long>line
    row.input_plain = False
    return _gathered_tail(row, result, error, seconds, NULL)


cdef struct _Last:
    # the result object of the row before and whether it was plain: a chunk's results are
    # a few shared texts (engines.batch.tasks.answer_texts), checked once a run of them
    PyObject* result
    bint plain


cdef inline bint _gathered_tail(_Row* row, object result, object error,
                                bytes seconds, _Last* last) noexcept:
    """The seconds, result and error of one row into ``row``; False where one is not
    ASCII.  ``last`` (or NULL): see :class:`_Last` (``result`` kept alive by the caller)."""
    row.seconds = PyBytes_AS_STRING(seconds)
    row.seconds_len = PyBytes_GET_SIZE(seconds)
    row.result = row.error = NULL
    row.result_len = row.error_len = 0
    row.result_plain = False
    if error is not None:
        row.error = _ascii(error, &row.error_len)
        return row.error != NULL
    if result is not None:
        row.result = _ascii(result, &row.result_len)
        if row.result == NULL:
            return False
        if last != NULL and last.result == <PyObject*>result:
            row.result_plain = last.plain
        else:
            row.result_plain = _plain_value(row.result, row.result_len)
            if last != NULL:
                last.result, last.plain = <PyObject*>result, row.result_plain
    return True


cdef bint _write_rows(const _Row* rows, Py_ssize_t count, Buffer* out) noexcept nogil:
    """The rows' JSON text (without the outer brackets); False: out of memory."""
    cdef Py_ssize_t i
    cdef const _Row* row
    for i in range(count):
        row = rows + i
        if not (buffer_put(out, b",[", 2) if i else buffer_put(out, b"[", 1)):
            return False
        if not _string(out, row.id, row.id_len) or not buffer_room(out, 24):
            return False
        out.data[out.n] = 44
        out.n += 1 + _int_text(row.line, out.data + out.n + 1)
        out.data[out.n] = 44
        out.n += 1
        if row.input_plain:
            if not buffer_put(out, row.input, row.input_len):
                return False
        elif not _value(out, row.input, row.input_len):
            return False
        if not buffer_put(out, b",", 1) or \
                not buffer_put(out, row.seconds, row.seconds_len):
            return False
        if row.error != NULL:
            if not buffer_put(out, b",null,", 6) or not _string(out, row.error, row.error_len):
                return False
        elif row.result == NULL:
            if not buffer_put(out, b",null", 5):
                return False
        elif not buffer_put(out, b",", 1) or not (
                buffer_put(out, row.result, row.result_len) if row.result_plain
                else _string(out, row.result, row.result_len)):
            return False
        if not buffer_put(out, b"]", 1):
            return False
    return True


def block_json(list ids, list lines, list inputs, list results, list errors, list seconds):
    """The JSON text of a block's rows ``[id, line, input, seconds, result]``, or
    ``[id, line, input, seconds, null, error]`` where ``errors`` holds a message (``input``
    and ``result`` as the value of their canonical text, or as a string: see the store's
    schema 3); ``None`` when a text is not ASCII (then the caller encodes the rows another
    way).  The text is written without the GIL (the runner writes blocks on the solving
    threads)."""
    cdef Py_ssize_t i, count = len(ids)
    cdef _FloatTexts floats = _FloatTexts()
    cdef _Row* rows
    cdef bytes text
    if not (len(lines) == len(inputs) == len(results) == len(errors) == len(seconds) == count):
        raise ValueError("one entry per row in every column")
    rows = _rows_room(count)
    kept = []  # the seconds' texts, alive while written
    try:
        for i in range(count):
            text = floats.seconds(seconds[i], kept)
            if text is None or not _gathered(rows + i, ids[i], lines[i], inputs[i], results[i],
                                             errors[i], text):
                return None
        return _rows_text(rows, count)
    finally:
        free(rows)


cdef _Row* _rows_room(Py_ssize_t count) except NULL:
    cdef _Row* rows = <_Row*>malloc(max(count, 1) * sizeof(_Row))
    if rows == NULL:
        raise MemoryError()
    return rows


cdef inline Py_ssize_t _row_room(const _Row* row) noexcept nogil:
    """The most room :func:`_write_rows` asks for a row, piece by piece (what it writes
    is never more): its separator, the id as a string, the line and two commas, the input,
    a comma and the seconds, then the result or the error, and the closing bracket."""
    cdef Py_ssize_t k = 2 + (6 * row.id_len + 3) + 24 + 1 + row.seconds_len + 1
    k += row.input_len if row.input_plain else 6 * row.input_len + 3
    if row.error != NULL:
        return k + 6 + 6 * row.error_len + 3
    if row.result == NULL:
        return k + 5
    return k + 1 + (row.result_len if row.result_plain else 6 * row.result_len + 3)


cdef object _rows_text(const _Row* rows, Py_ssize_t count):
    """The JSON array of ``count`` gathered rows, written without the GIL straight into
    the characters of a ``str`` made as large as it can need (:func:`_row_room`), then
    shrunk (no copy of the text, which is most of a block's bytes)."""
    cdef Buffer out
    cdef bint done
    cdef Py_ssize_t i, size = 2
    cdef PyObject* text = NULL
    memset(&out, 0, sizeof(Buffer))
    for i in range(count):
        size += _row_room(rows + i)
    text = PyUnicode_New(size, 127)
    try:
        out.data, out.cap, out.fixed = <char*>PyUnicode_DATA_OF(text), size, True
        with nogil:
            done = buffer_put(&out, b"[", 1) and _write_rows(rows, count, &out) and \
                buffer_put(&out, b"]", 1)
        if not done:  # (never: the room is what the writer can ask for)
            raise MemoryError("the rows' text outgrew its room")
        if out.n < size:
            PyUnicode_Resize(&text, out.n)
        return <object>text
    finally:
        Py_XDECREF(text)


def block_json_columns(Strings ids, bytes lines, Strings inputs, list results, list errors,
                       list seconds):
    """:func:`block_json` of buffer-backed columns (:class:`solvers._batch_columns.Strings`
    ids and inputs, int64 ``lines``): the rows' ids and inputs are read from the buffers
    (no Python object a row), and inputs known ``plain`` are written as they are.  ``None``
    where :func:`block_json` gives ``None`` (a text that is not ASCII)."""
    return block_json_parts([(ids, lines, inputs)], 0, ids.count, results, errors, seconds)


def block_json_parts(list parts, Py_ssize_t lo, Py_ssize_t hi, list results, list errors,
                     list seconds):
    """:func:`block_json_columns` of rows ``lo:hi`` of columns given in parts: ``parts`` a
    list of ``(ids, lines, inputs)`` as there, one after the other (the blocks of a chunk,
    read from their own buffers: the chunk's ids and inputs are never joined);
    ``results``, ``errors`` and ``seconds`` one entry a row of all the parts."""
    cdef Py_ssize_t i, k, at = 0, first, count = hi - lo
    cdef _FloatTexts floats = _FloatTexts()
    cdef _Last last
    cdef _Row* rows
    cdef _Row* row
    cdef bytes text
    cdef Strings ids, inputs
    cdef bytes lines
    cdef const int64_t* id_ends
    cdef const int64_t* input_ends
    cdef const int64_t* line
    cdef const char* id_data
    cdef const char* input_data
    if not 0 <= lo <= hi <= len(results) or not len(results) == len(errors) == len(seconds):
        raise ValueError("one entry per row in every column")
    for ids, lines, inputs in parts:
        if not (inputs.count == ids.count and PyBytes_GET_SIZE(lines) == 8 * ids.count):
            raise ValueError("one entry per row in every column")
        at += ids.count
    if at != len(results):
        raise ValueError("one entry per row in every column")
    rows = _rows_room(count)
    kept = []  # the seconds' texts, alive while written
    at = 0
    last.result = NULL
    try:
        for ids, lines, inputs in parts:
            first, at = at, at + ids.count
            if at <= lo or first >= hi:
                continue
            if not (ids.text and inputs.text and ids.ascii and inputs.ascii):
                return None
            id_ends = <const int64_t*>PyBytes_AS_STRING(ids.ends)
            input_ends = <const int64_t*>PyBytes_AS_STRING(inputs.ends)
            line = <const int64_t*>PyBytes_AS_STRING(lines)
            id_data = PyBytes_AS_STRING(ids.data)
            input_data = PyBytes_AS_STRING(inputs.data)
            for k in range(max(lo, first) - first, min(hi, at) - first):
                i = first + k
                text = floats.seconds(seconds[i], kept)
                if text is None:
                    return None
                row = rows + (i - lo)
                row.id = id_data + (id_ends[k - 1] if k else 0)
                row.id_len = id_data + id_ends[k] - row.id
                row.input = input_data + (input_ends[k - 1] if k else 0)
                row.input_len = input_data + input_ends[k] - row.input
                row.input_plain = inputs.plain
                row.line = line[k]
                if not _gathered_tail(row, results[i], errors[i], text, &last):
                    return None
        return _rows_text(rows, count)
    finally:
        free(rows)
