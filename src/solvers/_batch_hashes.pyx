# cython: language_level=3
"""Native helpers of the batch runner's per-position bookkeeping: hashes, hash sets, row text.

A fast batch task solves a position in a few microseconds, so the runner cannot
spend a Python object or a Python call per position on hashing, checking what
is stored and writing the rows.  This module does that work for whole blocks:

* :func:`text_digests`: BLAKE2b with a 16-byte digest (RFC 7693; the digests
  :func:`hashlib.blake2b` gives with ``digest_size=16``) of every text of a list,
  as one ``bytes`` of 16 bytes a text; :func:`hexes` and :func:`hex_join` write
  them as the store's hexadecimal hashes.
* :class:`DigestSet`: a set of such hashes that also takes any other string
  (a hash that is not 32 lower-case hex digits is kept as it is, in a Python set), with
  block operations on digests.

The JSON text of the rows is written by :mod:`solvers._batch_rows`.

Nothing here raises for user input; the texts it reads are the runner's own
canonical texts and the task's results.
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII, PyUnicode_AsUTF8AndSize

from solvers._blake2b cimport (
    qipai_blake2b16_x4,
    qipai_blake2b16_x8,
    qipai_blake2b_compress,
    qipai_blake2b_iv,
    qipai_blake2b_x4_usable,
    qipai_blake2b_x8_usable,
)
from solvers._hints cimport prefetch_read

from solvers._batch_columns import select_fixed

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)

DEF DIGEST = 16

# -- BLAKE2b (RFC 7693), 16-byte digests, no key (its compression: _blake2b.pxd) ---------------

cdef inline uint64_t _load64(const uint8_t* p) noexcept nogil:
    cdef uint64_t x = 0
    cdef int k
    for k in range(8):
        x |= (<uint64_t>p[k]) << (8 * k)
    return x


cdef void _blake2b16(const uint8_t* data, Py_ssize_t n, uint8_t* out) noexcept nogil:
    cdef uint64_t h[8]
    cdef uint8_t last[128]
    cdef Py_ssize_t done = 0
    cdef int i, k
    for i in range(8):
        h[i] = qipai_blake2b_iv[i]
    h[0] ^= 0x01010000 ^ DIGEST  # parameter block: digest length 16, no key, fanout/depth 1
    while n - done > 128:
        qipai_blake2b_compress(h, data + done, <uint64_t>(done + 128), 0)
        done += 128
    memset(last, 0, 128)
    memcpy(last, data + done, n - done)
    qipai_blake2b_compress(h, last, <uint64_t>n, 1)
    for i in range(2):
        for k in range(8):
            out[8 * i + k] = <uint8_t>(h[i] >> (8 * k))


DEF X4_BLOCKS = 8  # texts of up to 8 blocks (1 KiB) are hashed four (or eight) at a time
DEF WIDEST = 8  # texts hashed at once by the widest kernel

# whether qipai_blake2b16_x4 and _x8 run here (set_vector_hashing narrows them for tests)
cdef bint _x4_usable = qipai_blake2b_x4_usable() != 0
cdef bint _x4 = _x4_usable
cdef bint _x8_usable = _x4_usable and qipai_blake2b_x8_usable() != 0
cdef bint _x8 = _x8_usable


cdef void blake2b16_many(const uint8_t* const* texts, const int64_t* sizes, Py_ssize_t count,
                         uint8_t* out) noexcept nogil:
    """The 16-byte digest of each text (``texts[i]``, ``sizes[i]`` bytes) into ``out``, one
    after the other: eight texts of the same number of blocks at a time where the CPU has
    AVX-512F, else four where it has AVX2 (the digests of :func:`_blake2b16`), the others
    one by one."""
    cdef const uint8_t* waiting[X4_BLOCKS][WIDEST]
    cdef int64_t waiting_size[X4_BLOCKS][WIDEST]
    cdef uint8_t* dest[X4_BLOCKS][WIDEST]
    cdef int held[X4_BLOCKS]
    cdef int width = 8 if _x8 else 4
    cdef Py_ssize_t i
    cdef int64_t n
    cdef int b, k, start
    memset(held, 0, sizeof(held))
    for i in range(count):
        n = sizes[i]
        b = <int>((n + 127) // 128 - 1) if n else 0  # blocks - 1
        if not _x4 or b >= X4_BLOCKS:
            _blake2b16(texts[i], n, out + DIGEST * i)
            continue
        k = held[b]
        waiting[b][k], waiting_size[b][k], dest[b][k] = texts[i], n, out + DIGEST * i
        if k < width - 1:
            held[b] = k + 1
            continue
        if _x8:
            qipai_blake2b16_x8(waiting[b], waiting_size[b], b + 1, dest[b])
        else:
            qipai_blake2b16_x4(waiting[b], waiting_size[b], b + 1, dest[b])
        held[b] = 0
    for b in range(X4_BLOCKS):
        start = 0
        if held[b] >= 4:  # (eight at a time: four of those left)
            qipai_blake2b16_x4(waiting[b], waiting_size[b], b + 1, dest[b])
            start = 4
        for k in range(start, held[b]):
            _blake2b16(waiting[b][k], waiting_size[b][k], dest[b][k])


def set_vector_hashing(int widest):
    """Hash up to ``widest`` texts at a time: 8 (AVX-512F, the default), 4 (AVX2) or 0 (one
    by one), as far as the CPU has them (tests compare every way): the width used now."""
    global _x4, _x8
    _x4 = widest >= 4 and _x4_usable
    _x8 = widest >= 8 and _x8_usable
    return 8 if _x8 else 4 if _x4 else 0


def blake2b16(bytes data):
    """The 16-byte BLAKE2b digest of ``data`` (as ``hashlib.blake2b(data, digest_size=16)``)."""
    cdef uint8_t out[DIGEST]
    _blake2b16(<const uint8_t*>PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data), out)
    return PyBytes_FromStringAndSize(<char*>out, DIGEST)


cdef inline const char* _utf8(object text, Py_ssize_t* n) except NULL:
    if PyUnicode_IS_ASCII(text):
        n[0] = PyUnicode_GET_LENGTH(text)
        return PyUnicode_DATA(text)
    return PyUnicode_AsUTF8AndSize(text, n)


def text_digests(list texts):
    """The 16-byte digests of the UTF-8 of each ``str`` of ``texts``, one after the other."""
    cdef Py_ssize_t i, n, count = len(texts)
    cdef const uint8_t** starts = <const uint8_t**>malloc(max(count, 1) * sizeof(uint8_t*))
    cdef int64_t* sizes = <int64_t*>malloc(max(count, 1) * sizeof(int64_t))
    try:
        if starts == NULL or sizes == NULL:
            raise MemoryError()
        out = PyBytes_FromStringAndSize(NULL, DIGEST * count)
        for i in range(count):
            text = texts[i]  # (the list holds the texts while they are hashed)
            if type(text) is not str:
                raise TypeError(f"text_digests needs str, got {type(text).__name__}")
            starts[i] = <const uint8_t*>_utf8(text, &n)
            sizes[i] = n
        blake2b16_many(starts, sizes, count, <uint8_t*>PyBytes_AS_STRING(out))
        return out
    finally:
        free(starts)
        free(sizes)


# -- hexadecimal ---------------------------------------------------------------------------------

cdef const char* _HEX = b"0123456789abcdef"


cdef void hex_digest(const uint8_t* digest, char* out) noexcept nogil:
    cdef int k
    for k in range(DIGEST):
        out[2 * k] = _HEX[digest[k] >> 4]
        out[2 * k + 1] = _HEX[digest[k] & 15]


cdef inline int _nibble(char c) noexcept nogil:
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    return -1


cdef bint _unhex(const char* s, Py_ssize_t n, uint8_t* out) noexcept nogil:
    """32 lower-case hex digits into 16 bytes; False for anything else."""
    cdef int k, hi, lo
    if n != 2 * DIGEST:
        return False
    for k in range(DIGEST):
        hi = _nibble(s[2 * k])
        lo = _nibble(s[2 * k + 1])
        if hi < 0 or lo < 0:
            return False
        out[k] = <uint8_t>(hi * 16 + lo)
    return True


cdef Py_ssize_t digest_count(bytes digests) except -1:
    if PyBytes_GET_SIZE(digests) % DIGEST:
        raise ValueError("digests must be a multiple of 16 bytes")
    return PyBytes_GET_SIZE(digests) // DIGEST


def hexes(bytes digests):
    """The hexadecimal text of each digest (:meth:`hashlib.blake2b.hexdigest`)."""
    cdef Py_ssize_t i, count = digest_count(digests)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
    cdef char buf[2 * DIGEST]
    out = [None] * count
    for i in range(count):
        hex_digest(src + DIGEST * i, buf)
        out[i] = PyUnicode_DecodeASCII(buf, 2 * DIGEST, NULL)
    return out


def hex_join(bytes digests):
    """``" ".join(hexes(digests))``."""
    cdef Py_ssize_t i, count = digest_count(digests)
    cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
    if count == 0:
        return ""
    raw = PyBytes_FromStringAndSize(NULL, count * (2 * DIGEST + 1) - 1)
    cdef char* dst = PyBytes_AS_STRING(raw)
    for i in range(count):
        if i:
            dst[i * (2 * DIGEST + 1) - 1] = 32
        hex_digest(src + DIGEST * i, dst + i * (2 * DIGEST + 1))
    return raw.decode("ascii")


def select(bytes digests, const uint8_t[:] mask, int want):
    """The digests whose ``mask`` entry is ``want``, in order."""
    if digest_count(digests) != mask.shape[0]:
        raise ValueError("one mask entry per digest")
    return select_fixed(digests, DIGEST, mask, want)


# -- a set of hashes -------------------------------------------------------------------------------


# The lookups of a block ask for the slot of the digest this many ahead (DigestSet._prefetch).
DEF _AHEAD = 8
#: DigestSet.reserve makes room for this many digests at most (a table of 8M slots, 136 MB
#: of address space, whose pages are touched only as it fills).
RESERVE_MAX = 1 << 22


@cython.final
cdef class DigestSet:
    """Input hashes: 16-byte digests in an open-addressing table, other strings in a set.

    ``in``, :meth:`update` and :meth:`add_hex_text` take the store's hash
    strings; the block methods take digests (16 bytes each, one ``bytes``).
    :meth:`add_later` keeps digests aside, put in the table only when the set is next read
    (a run's own claims are most often never read).
    """

    cdef uint64_t* keys
    cdef uint8_t* used
    cdef Py_ssize_t cap
    cdef Py_ssize_t count
    cdef set odd
    cdef list later

    def __cinit__(self):
        self.cap = 0
        self.count = 0
        self.keys = NULL
        self.used = NULL
        self.odd = set()
        self.later = None
        self._grow(64)

    def __dealloc__(self):
        free(self.keys)
        free(self.used)

    cdef int _grow(self, Py_ssize_t cap) except -1:
        cdef uint64_t* old_keys = self.keys
        cdef uint8_t* old_used = self.used
        cdef Py_ssize_t old_cap = self.cap, i
        # (only the flags are cleared: a key is read once its slot is used)
        cdef uint64_t* keys = <uint64_t*>malloc(2 * cap * sizeof(uint64_t))
        cdef uint8_t* used = <uint8_t*>calloc(cap, 1)
        if keys == NULL or used == NULL:
            free(keys)
            free(used)
            raise MemoryError()
        self.keys, self.used, self.cap, self.count = keys, used, cap, 0
        for i in range(old_cap):
            if old_used[i]:
                self._place(old_keys[2 * i], old_keys[2 * i + 1])
        free(old_keys)
        free(old_used)
        return 0

    cdef inline Py_ssize_t _start(self, uint64_t a, uint64_t b) noexcept nogil:
        """The slot where the probe for (a, b) begins."""
        return <Py_ssize_t>((a ^ (b >> 7)) & <uint64_t>(self.cap - 1))

    cdef inline Py_ssize_t _home(self, const uint8_t* d) noexcept:
        """The slot where the probe for digest ``d`` begins."""
        return self._start(_load64(d), _load64(d + 8))

    cdef inline void _prefetch(self, const uint8_t* d) noexcept:
        """Ask for the cache lines of digest ``d``'s slot ahead of its probe: the table
        outgrows the caches, and a block's digests fall in random slots (a lookup in a
        100,000-digest set, caches flushed: 16 -> 14 ns; inserts gained nothing)."""
        cdef Py_ssize_t i = self._home(d)
        prefetch_read(&self.used[i], 1)
        prefetch_read(&self.keys[2 * i], 1)

    cdef inline void _place(self, uint64_t a, uint64_t b) noexcept:
        """Add (a, b), known to be absent (the table has room)."""
        cdef Py_ssize_t mask = self.cap - 1
        cdef Py_ssize_t i = self._start(a, b)
        while self.used[i]:
            i = (i + 1) & mask
        self._fill(i, a, b)

    cdef inline void _fill(self, Py_ssize_t i, uint64_t a, uint64_t b) noexcept nogil:
        """Put (a, b) in the empty slot ``i``."""
        self.used[i] = 1
        self.keys[2 * i] = a
        self.keys[2 * i + 1] = b
        self.count += 1

    cdef inline Py_ssize_t _find(self, uint64_t a, uint64_t b) noexcept nogil:
        """The slot holding (a, b), or the empty slot where it would go."""
        cdef Py_ssize_t mask = self.cap - 1
        cdef Py_ssize_t i = self._start(a, b)
        while self.used[i] and not (self.keys[2 * i] == a and self.keys[2 * i + 1] == b):
            i = (i + 1) & mask
        return i

    cdef inline bint _insert(self, uint64_t a, uint64_t b) noexcept nogil:
        """Add (a, b) (the table has room); True when it was not there."""
        cdef Py_ssize_t i = self._find(a, b)
        if self.used[i]:
            return False
        self._fill(i, a, b)
        return True

    cdef int _room(self, Py_ssize_t more) except -1:
        cdef Py_ssize_t cap = self.cap
        while 2 * (self.count + more) > cap:
            cap *= 2
        if cap != self.cap:
            self._grow(cap)
        return 0

    cdef int _settle(self) except -1:
        """Put the digests of :meth:`add_later` in the table (before any read)."""
        cdef list later = self.later
        if later is not None:
            self.later = None
            for digests in later:
                self.add_digests(digests)
        return 0

    def reserve(self, Py_ssize_t count):
        """Room for ``count`` digests in all (at most :data:`RESERVE_MAX`): a set sized once
        from what it will hold, rather than doubled and copied into fresh memory as it fills
        (each table's pages are first touches: ~1.5 µs a page)."""
        self._room(min(count, RESERVE_MAX) - self.count)

    def add_later(self, bytes digests):
        """:meth:`add_digests`, done when the set is next read (or added to otherwise)."""
        digest_count(digests)
        if self.later is None:
            self.later = []
        self.later.append(digests)

    cdef inline bint _add(self, const uint8_t* d) noexcept nogil:
        return self._insert(_load64(d), _load64(d + 8))

    cdef inline bint _has(self, const uint8_t* d) noexcept:
        return self.used[self._find(_load64(d), _load64(d + 8))] != 0

    def __len__(self):
        self._settle()
        return self.count + len(self.odd)

    def __contains__(self, hash_text):
        cdef uint8_t d[DIGEST]
        cdef Py_ssize_t n
        self._settle()
        if type(hash_text) is str and PyUnicode_IS_ASCII(hash_text):
            n = PyUnicode_GET_LENGTH(hash_text)
            if _unhex(PyUnicode_DATA(hash_text), n, d):
                return self._has(d)
        return hash_text in self.odd

    def update(self, hashes):
        """Add hash strings (any iterable of ``str``)."""
        cdef uint8_t d[DIGEST]
        self._settle()
        for h in hashes:
            if type(h) is str and PyUnicode_IS_ASCII(h) and _unhex(
                PyUnicode_DATA(h), PyUnicode_GET_LENGTH(h), d
            ):
                self._room(1)
                self._add(d)
            else:
                self.odd.add(h)

    def add_hex_text(self, str text):
        """Add the hashes of ``text``, separated by whitespace (``text.split()``)."""
        cdef const char* s
        cdef Py_ssize_t n, p = 0, q
        cdef uint8_t d[DIGEST]
        self._settle()
        if not PyUnicode_IS_ASCII(text):
            self.update(text.split())
            return
        s = PyUnicode_DATA(text)
        n = PyUnicode_GET_LENGTH(text)
        self._room(n // (2 * DIGEST + 1) + 1)
        while p < n:
            while p < n and (s[p] == 32 or 9 <= s[p] <= 13 or 28 <= s[p] <= 31):
                p += 1
            q = p
            while q < n and not (s[q] == 32 or 9 <= s[q] <= 13 or 28 <= s[q] <= 31):
                q += 1
            if q > p:
                if _unhex(s + p, q - p, d):
                    self._add(d)
                else:
                    self.odd.add(PyUnicode_DecodeASCII(s + p, q - p, NULL))
            p = q

    def add_digests(self, bytes digests):
        """Add every digest of ``digests``."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._room(count)
        for i in range(count):
            self._add(src + DIGEST * i)

    def present(self, bytes digests):
        """A bytearray: 1 where the digest is in the set, else 0."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._settle()
        out = bytearray(count)
        if self.count == 0:  # (a run's first claims in a fresh store: nothing to probe)
            return out
        cdef uint8_t[:] view = out
        for i in range(count):
            if i + _AHEAD < count:
                self._prefetch(src + DIGEST * (i + _AHEAD))
            view[i] = self._has(src + DIGEST * i)
        return out

    def mark(self, bytes digests, uint8_t[:] status, int value):
        """Set ``status`` to ``value`` where it is 0 and the digest is in the set."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        if status.shape[0] != count:
            raise ValueError("one status per digest")
        self._settle()
        if self.count == 0:
            return
        for i in range(count):
            if status[i] == 0 and self._has(src + DIGEST * i):
                status[i] = <uint8_t>value

    def absent_first(self, bytes digests, bint repeats=True):
        """A bytearray: 1 where the digest is not in the set and not earlier in ``digests``
        (``repeats=False``: the caller knows ``digests`` hold none, so no set of them is
        made)."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        cdef DigestSet seen = DigestSet()
        self._settle()
        if repeats:
            seen._room(count)
        out = bytearray(count)
        cdef uint8_t[:] view = out
        for i in range(count):
            if i + _AHEAD < count:
                self._prefetch(src + DIGEST * (i + _AHEAD))
            view[i] = not self._has(src + DIGEST * i) and (
                not repeats or seen._add(src + DIGEST * i))
        return out

    def add_new(self, bytes digests):
        """Add every digest; a bytearray: 1 where it was not in the set before (its first
        occurrence, when a digest repeats in ``digests``), else 0.  The inserts run without
        the GIL: one thread at a time may use the set (the runner's set of a run's digests
        is checked on its reading threads, one block at a time, in the blocks' order:
        :mod:`engines.batch.positions`)."""
        cdef Py_ssize_t i, count = digest_count(digests)
        cdef const uint8_t* src = <const uint8_t*>PyBytes_AS_STRING(digests)
        self._settle()
        self._room(count)
        out = bytearray(count)
        cdef uint8_t[:] view = out
        cdef uint8_t* first = NULL
        if count:
            first = &view[0]
        with nogil:
            for i in range(count):
                first[i] = self._add(src + DIGEST * i)
        return out
