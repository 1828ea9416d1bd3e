# cython: language_level=3
"""Buffer-backed columns of the batch runner: a block's texts, ids and packed payloads.

A fast task solves a position in a few microseconds, about what making, keeping and
freeing a few Python objects a position costs.  The native record reader therefore
hands the runner each block's canonical texts, ids and packed payloads as one
:class:`Strings` each (one ``bytes`` buffer and the end of every item), and the runner
cuts, selects and joins whole columns (:meth:`Strings.part`, :meth:`Strings.chosen`,
:meth:`Strings.join`), writes the rows' text from the buffers
(:func:`solvers._batch_rows.block_json_columns`) and groups the packed payloads for the
engine calls (:func:`pack_groups`): no Python object a position after the scan.

>>> s = Strings.of(["ab", "", "c"])
>>> len(s), s[0], s.tolist(), s.part(1, 3).tolist()
(3, 'ab', ['ab', '', 'c'], ['', 'c'])
>>> Strings.join([s, Strings.of(["d"])]).chosen(bytearray([0, 1, 1, 0]), 0).tolist()
['ab', 'd']
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy
from cpython.bytearray cimport PyByteArray_AS_STRING
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.unicode cimport PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)


cdef inline const int64_t* _ends(Strings s) noexcept:
    return <const int64_t*>PyBytes_AS_STRING(s.ends)


@cython.final
cdef class Strings:
    """Items (``str`` when ``text``, else ``bytes``) held as ``data`` and ``ends`` (the end
    of each item in ``data``, int64).  ``ascii``: every item is ASCII; ``plain``: every item
    is a JSON text the row writer stores as a value as it is (set only by the native record
    reader, whose canonical texts are plain by construction); ``compact``: bytes items that
    are packed payloads' compact forms (see ``buffer_put_compact``), kept by every part,
    selection and join."""

    def __init__(self, bytes data, bytes ends, bint text=True, bint ascii=False,
                 bint plain=False, bint compact=False):
        cdef Py_ssize_t i, n = PyBytes_GET_SIZE(ends) // 8
        cdef const int64_t* e = <const int64_t*>PyBytes_AS_STRING(ends)
        cdef int64_t last = 0
        if PyBytes_GET_SIZE(ends) % 8:
            raise ValueError("ends must hold 8 bytes an item")
        for i in range(n):  # the writer reads the buffer by these: they must fit it
            if e[i] < last:
                raise ValueError("ends must not decrease")
            last = e[i]
        if last != PyBytes_GET_SIZE(data):
            raise ValueError("the last end must be the data's length")
        self.data, self.ends, self.count = data, ends, n
        self.text, self.ascii, self.plain = text, ascii or not text, plain and text
        self.compact = compact and not text

    def __reduce__(self):
        return Strings, (self.data, self.ends, self.text, self.ascii, self.plain, self.compact)

    def __len__(self):
        return self.count

    cdef object item(self, Py_ssize_t i):
        cdef const int64_t* e = _ends(self)
        cdef int64_t a = e[i - 1] if i else 0
        cdef const char* s = PyBytes_AS_STRING(self.data) + a
        if not self.text:
            return PyBytes_FromStringAndSize(s, e[i] - a)
        if self.ascii:
            return PyUnicode_DecodeASCII(s, e[i] - a, NULL)
        return PyUnicode_DecodeUTF8(s, e[i] - a, b"surrogatepass")

    def __getitem__(self, Py_ssize_t i):
        if i < 0:
            i += self.count
        if not 0 <= i < self.count:
            raise IndexError("Strings index out of range")
        return self.item(i)

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        """Every item as a ``str`` (``bytes`` when not ``text``)."""
        cdef Py_ssize_t i
        out = [None] * self.count
        for i in range(self.count):
            out[i] = self.item(i)
        return out

    def part(self, Py_ssize_t lo, Py_ssize_t hi):
        """Items ``lo:hi`` (``0 <= lo <= hi <= len``)."""
        cdef const int64_t* e = _ends(self)
        cdef int64_t base, i
        cdef int64_t* dst
        if not 0 <= lo <= hi <= self.count:
            raise IndexError("Strings part out of range")
        if lo == 0 and hi == self.count:
            return self
        base = e[lo - 1] if lo else 0
        ends = PyBytes_FromStringAndSize(NULL, 8 * (hi - lo))
        dst = <int64_t*>PyBytes_AS_STRING(ends)
        for i in range(hi - lo):
            dst[i] = e[lo + i] - base
        data = PyBytes_FromStringAndSize(PyBytes_AS_STRING(self.data) + base,
                                         (e[hi - 1] if hi else 0) - base)
        return _made(data, ends, self)

    def chosen(self, const uint8_t[:] status, int want):
        """The items whose ``status`` entry is ``want``, in order."""
        cdef const int64_t* e = _ends(self)
        cdef Py_ssize_t i, k = 0, size = 0
        cdef int64_t a
        cdef const char* src = PyBytes_AS_STRING(self.data)
        cdef char* out
        cdef int64_t* dst
        if status.shape[0] != self.count:
            raise ValueError("one status an item")
        for i in range(self.count):
            if status[i] == want:
                k += 1
                size += e[i] - (e[i - 1] if i else 0)
        data = PyBytes_FromStringAndSize(NULL, size)
        ends = PyBytes_FromStringAndSize(NULL, 8 * k)
        out, dst = PyBytes_AS_STRING(data), <int64_t*>PyBytes_AS_STRING(ends)
        size, k = 0, 0
        for i in range(self.count):
            if status[i] == want:
                a = e[i - 1] if i else 0
                memcpy(out + size, src + a, e[i] - a)
                size += e[i] - a
                dst[k] = size
                k += 1
        return _made(data, ends, self)

    @staticmethod
    def join(list parts):
        """The items of ``parts`` (one or more Strings, all text or all bytes) one after the
        other."""
        cdef Strings p, first
        cdef Py_ssize_t i, k = 0, size = 0, count = 0
        cdef const int64_t* e
        cdef int64_t* dst
        cdef bint ascii = True, plain = True
        if len(parts) == 1:
            return parts[0]
        first = parts[0]
        for p in parts:
            if p.text != first.text or p.compact != first.compact:
                raise ValueError("Strings.join: text and bytes items, or compact forms and "
                                 "others, mixed")
            count += p.count
            size += PyBytes_GET_SIZE(p.data)
            ascii = ascii and p.ascii
            plain = plain and p.plain
        ends = PyBytes_FromStringAndSize(NULL, 8 * count)
        dst = <int64_t*>PyBytes_AS_STRING(ends)
        size = 0
        for p in parts:
            e = _ends(p)
            for i in range(p.count):
                dst[k] = size + e[i]
                k += 1
            size += PyBytes_GET_SIZE(p.data)
        data = b"".join([p.data for p in parts])
        out = Strings.__new__(Strings)
        _set(out, data, ends, count, first.text, ascii, plain, first.compact)
        return out

    @staticmethod
    def of(list items, bint text=True):
        """A column of ``items``: all ``str`` (UTF-8 in the buffer, lone surrogates kept), or
        all ``bytes`` (``text=False``)."""
        cdef Py_ssize_t i, n = len(items), k
        cdef int64_t size = 0
        cdef int64_t* dst
        cdef bint ascii = True
        cdef const char** where
        cdef Py_ssize_t* sizes
        cdef char* out
        ends = PyBytes_FromStringAndSize(NULL, 8 * n)
        dst = <int64_t*>PyBytes_AS_STRING(ends)
        kept = []  # encodings made here, alive until copied
        where = <const char**>PyMem_Malloc(max(n, 1) * sizeof(char*))
        sizes = <Py_ssize_t*>PyMem_Malloc(max(n, 1) * sizeof(Py_ssize_t))
        try:
            if where == NULL or sizes == NULL:
                raise MemoryError()
            for i in range(n):
                item = items[i]
                if not text:
                    if type(item) is not bytes:
                        raise TypeError(f"Strings.of: bytes expected, got {type(item).__name__}")
                    where[i], sizes[i] = PyBytes_AS_STRING(item), PyBytes_GET_SIZE(item)
                elif type(item) is not str:
                    raise TypeError(f"Strings.of: str expected, got {type(item).__name__}")
                elif PyUnicode_IS_ASCII(item):
                    where[i], sizes[i] = PyUnicode_DATA(item), PyUnicode_GET_LENGTH(item)
                else:
                    ascii = False
                    raw = item.encode("utf-8", "surrogatepass")
                    kept.append(raw)
                    where[i], sizes[i] = PyBytes_AS_STRING(raw), PyBytes_GET_SIZE(raw)
                size += sizes[i]
                dst[i] = size
            data = PyBytes_FromStringAndSize(NULL, size)
            out = PyBytes_AS_STRING(data)
            for i in range(n):
                k = sizes[i]
                memcpy(out, where[i], k)
                out += k
        finally:
            PyMem_Free(where)
            PyMem_Free(sizes)
        made = Strings.__new__(Strings)
        _set(made, data, ends, n, text, ascii, False, False)
        return made


cdef inline void _set(Strings s, bytes data, bytes ends, Py_ssize_t count, bint text,
                      bint ascii, bint plain, bint compact) noexcept:
    s.data, s.ends, s.count = data, ends, count
    s.text, s.ascii, s.plain, s.compact = text, ascii, plain, compact


cdef Strings _made(bytes data, bytes ends, Strings like):
    """A part of ``like`` (its kind and flags) without the constructor's checks."""
    cdef Strings out = Strings.__new__(Strings)
    _set(out, data, ends, PyBytes_GET_SIZE(ends) // 8, like.text, like.ascii, like.plain,
         like.compact)
    return out


def select_fixed(bytes data, Py_ssize_t width, const uint8_t[:] status, int want):
    """The ``width``-byte items of ``data`` whose ``status`` entry is ``want``, in order."""
    cdef Py_ssize_t i, k = 0, count
    if width < 1 or PyBytes_GET_SIZE(data) % width:
        raise ValueError("data must be a multiple of the width")
    count = PyBytes_GET_SIZE(data) // width
    if status.shape[0] != count:
        raise ValueError("one status an item")
    for i in range(count):
        k += status[i] == want
    if k == count:  # (every item: ``data`` itself, bytes being immutable)
        return data
    out = PyBytes_FromStringAndSize(NULL, width * k)
    cdef char* dst = PyBytes_AS_STRING(out)
    cdef const char* src = PyBytes_AS_STRING(data)
    k = 0
    for i in range(count):
        if status[i] == want:
            memcpy(dst + width * k, src + width * i, width)
            k += 1
    return out


DEF MAX_GROUPS = 64

# a compact form's symbol byte -> its four symbols, one a byte (3: a byte of 3 or more, one of
# the form's extra bytes)
cdef uint8_t _SPREAD[256][4]
cdef int _b
for _b in range(256):
    _SPREAD[_b][0], _SPREAD[_b][1] = _b & 3, (_b >> 2) & 3
    _SPREAD[_b][2], _SPREAD[_b][3] = (_b >> 4) & 3, _b >> 6


cdef int64_t _form_size(const uint8_t* f, int64_t size) except -1:
    """The payload length of the compact form ``f[:size]`` (ValueError when it cannot be one)."""
    cdef int64_t n
    if size < 2 or size < 2 + ((f[0] | (f[1] << 8)) + 3) // 4:
        raise ValueError("not a compact payload")
    n = f[0] | (f[1] << 8)
    return n


cdef int _expand(const uint8_t* f, int64_t size, uint8_t* dst, int64_t n) except -1:
    """The payload (``n`` bytes, :func:`_form_size`'s) of the compact form ``f[:size]`` into
    ``dst``: four symbols a byte from a table, the escapes (3) from the extra bytes in order;
    ValueError when the form does not hold exactly them."""
    cdef int64_t w, j, words = (n + 3) >> 2, x = 2 + words
    cdef uint8_t b
    for w in range(words):
        b = f[2 + w]
        if (b & (b >> 1) & 0x55) == 0 and 4 * w + 4 <= n:  # (no escape: the usual byte)
            memcpy(dst + 4 * w, _SPREAD[b], 4)
            continue
        for j in range(4 * w, min(4 * w + 4, n)):
            dst[j] = _SPREAD[b][j & 3]
            if dst[j] == 3:
                if x >= size or f[x] < 3:
                    raise ValueError("a compact payload with a wrong escape")
                dst[j] = f[x]
                x += 1
    if x != size or (n & 3 and f[1 + words] >> ((n & 3) * 2)):
        raise ValueError("a compact payload with bytes to spare")
    return 0


def pack_groups(Strings packs):
    """The packed payloads by ``(kind code, length)``, in order of first appearance: a list
    of ``(kind, length, rows, data)``, ``rows`` the items' indexes (intp, native order) and
    ``data`` their bytes one after the other.  Empty items (payloads that are not packed)
    come as one group of kind -1 and length 0 (``data`` empty).  ``None`` when a chunk holds
    more than 64 groups (the caller groups it the Python way).  A column of compact forms
    (``packs.compact``) is grouped by its payloads, written out expanded (ValueError when an
    item is not a compact form)."""
    cdef const int64_t* e = _ends(packs)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(packs.data)
    cdef Py_ssize_t i, g, ngroups = 0, n = packs.count
    cdef int64_t a, size
    cdef int kind[MAX_GROUPS]
    cdef int64_t length[MAX_GROUPS]
    cdef Py_ssize_t members[MAX_GROUPS]
    cdef Py_ssize_t filled[MAX_GROUPS]
    cdef int k
    cdef bint compact = packs.compact
    cdef Py_ssize_t* row_at[MAX_GROUPS]
    cdef char* data_at[MAX_GROUPS]
    if packs.text:
        raise ValueError("pack_groups reads a column of bytes")
    groups = bytearray(8 * n)  # each item's group (int64 for alignment; few groups)
    cdef int64_t[:] of_item = memoryview(groups).cast("q")
    for i in range(n):
        a = e[i - 1] if i else 0
        size = _form_size(src + a, e[i] - a) if compact else e[i] - a
        k = (-1 if not size else src[a] if not compact else
             src[a + 2] & 3 if src[a + 2] & 3 != 3 else src[a + 2 + (size + 3) // 4])
        for g in range(ngroups):
            if kind[g] == k and length[g] == size:
                break
        else:
            if ngroups == MAX_GROUPS:
                return None
            g = ngroups
            kind[g], length[g], members[g] = k, size, 0
            ngroups += 1
        members[g] += 1
        of_item[i] = g
    out = []
    for g in range(ngroups):
        rows = PyBytes_FromStringAndSize(NULL, sizeof(Py_ssize_t) * members[g])
        data = PyBytes_FromStringAndSize(NULL, length[g] * members[g])
        row_at[g] = <Py_ssize_t*>PyBytes_AS_STRING(rows)
        data_at[g] = PyBytes_AS_STRING(data)
        filled[g] = 0
        out.append((kind[g], length[g], rows, data))
    for i in range(n):
        g = of_item[i]
        row_at[g][filled[g]] = i
        if compact:
            a = e[i - 1] if i else 0
            _expand(src + a, e[i] - a, <uint8_t*>data_at[g] + length[g] * filled[g], length[g])
        else:
            memcpy(data_at[g] + length[g] * filled[g], src + e[i] - length[g], length[g])
        filled[g] += 1
    return out


def expanded_payloads(bytes data, bytes ends):
    """The payloads of their compact forms (``data``, ``ends`` the int64 end of each; see
    ``buffer_put_compact`` in ``_batch_buffers.pxd``) as ``(data, ends)``; ValueError when
    one is not a compact form (a store's damaged block)."""
    cdef Py_ssize_t count = PyBytes_GET_SIZE(ends) // 8, i, j, n, words, k, total = 0
    cdef const int64_t* at = <const int64_t*>PyBytes_AS_STRING(ends)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef int64_t lo = 0, hi
    cdef uint8_t sym
    cdef uint8_t* dst
    cdef int64_t* out_ends
    if PyBytes_GET_SIZE(ends) % 8:
        raise ValueError("ends must be int64")
    for i in range(count):  # the sizes first: one allocation
        hi = at[i]
        if not lo + 2 <= hi <= PyBytes_GET_SIZE(data):
            raise ValueError("a compact payload out of its data")
        total += src[lo] | (src[lo + 1] << 8)
        lo = hi
    if lo != PyBytes_GET_SIZE(data):
        raise ValueError("bytes after the last compact payload")
    out = PyBytes_FromStringAndSize(NULL, total)
    out_ends_bytes = PyBytes_FromStringAndSize(NULL, 8 * count)
    dst = <uint8_t*>PyBytes_AS_STRING(out)
    out_ends = <int64_t*>PyBytes_AS_STRING(out_ends_bytes)
    lo, total = 0, 0
    for i in range(count):
        hi = at[i]
        n = src[lo] | (src[lo + 1] << 8)
        words = (n + 3) >> 2
        k = lo + 2 + words
        if k > hi:
            raise ValueError("a compact payload cut short")
        for j in range(n):
            sym = (src[lo + 2 + (j >> 2)] >> ((j & 3) * 2)) & 3
            if sym == 3:
                if k >= hi or src[k] < 3:
                    raise ValueError("a compact payload with a wrong escape")
                sym = src[k]
                k += 1
            dst[total + j] = sym
        if k != hi or (n & 3 and src[lo + 1 + words] >> ((n & 3) * 2)):
            raise ValueError("a compact payload with bytes to spare")
        total += n
        out_ends[i] = total
        lo = hi
    return out, out_ends_bytes
