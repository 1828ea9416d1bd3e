# cython: language_level=3
"""Card records of JSON Lines read in native code: card lists to count rows, canonical text.

The batch runner's fast path for the games whose positions are a few card lists
and a few names (升级 and 双扣 conformance records).  :func:`scan` reads one
block of lines (``str``) against a :class:`RecordSpec` and, for every line it
fully understands, gives the position's canonical JSON text (sorted keys, card
lists in card order: the text the task's Python ``prepare`` would produce), its
``id`` and a *packed* payload (bytes: the codes of the named fields and the
count row of each card list), without building a Python dict or list.

It never raises for user input: a line it does not fully understand is marked
``REFER`` and the engine reads it the ordinary way, which accepts what it can
and names what is wrong.  It understands only a strict subset of JSON: one
object per line, ASCII, no escapes, no nested objects, each known key at most
once, field values exactly as the spec spells them (canonical card tokens, at
most two copies of a card).  Everything else is referred, so the subset can
only change speed, never an answer or an error message.

Packed payload: the kind's code, then for each output field of the kind in
order: a name field, one byte (its code); a card list, ``width`` count bytes; a
nullable card list, one byte (1 present, 0 null) and ``width`` count bytes; a
list of card lists, one byte (how many) and that many count rows.

This module is longer than the project's 600 lines: the scanner's steps are inline C
functions that its two entry points (a list of lines, a block of text read without the
GIL) share, and a split would call them through function pointers in the hot loop.
"""

cimport cython
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memchr, memcmp, memset, memcpy
from cpython.bytearray cimport (
    PyByteArray_AS_STRING, PyByteArray_FromStringAndSize, PyByteArray_GET_SIZE)
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_DecodeASCII

from solvers._batch_buffers cimport (
    COMPACT_MARKS,
    Buffer,
    buffer_free,
    buffer_put,
    buffer_put_compact,
    buffer_room,
)
from solvers._batch_hashes cimport blake2b16_many
from solvers._hints cimport prefetch_read
from solvers._json_lex cimport _blank, _is_null, _next_item, _same, _string_end, _value_end, _ws

cdef extern from "Python.h":
    int PyUnicode_IS_ASCII(object)
    const char* PyUnicode_DATA(object)
    Py_ssize_t PyUnicode_GET_LENGTH(object)

# line status, key types and output item types: C constants (compared for every value of
# every line), also given to Python under the same names
cdef enum:
    S_OK = 0
    S_REFER = 1
    S_BLANK = 2
    K_NAME = 1        # a string from a fixed list (kind, level, trump…)
    K_CARDS = 2       # a list of card tokens
    K_CARD_LISTS = 3  # a list of lists of card tokens
    K_ID = 4          # the position id (a string, or null)
    K_NULL_ONLY = 5   # absent or null, else the line is referred (e.g. a policy object)
    I_NAME = 1
    I_CARDS = 2
    I_NULLABLE_CARDS = 3
    I_CARD_LISTS = 4
    I_CONST = 5

OK, REFER, BLANK = S_OK, S_REFER, S_BLANK
KEY_NAME, KEY_CARDS, KEY_CARD_LISTS, KEY_ID, KEY_NULL_ONLY = (
    K_NAME, K_CARDS, K_CARD_LISTS, K_ID, K_NULL_ONLY)
ITEM_NAME, ITEM_CARDS, ITEM_NULLABLE_CARDS, ITEM_CARD_LISTS, ITEM_CONST = (
    I_NAME, I_CARDS, I_NULLABLE_CARDS, I_CARD_LISTS, I_CONST)

DEF MAX_KEYS = 16
DEF MAX_NAMES = 24
DEF MAX_KINDS = 8
DEF MAX_ITEMS = 12
DEF MAX_CELLS = 64
DEF MAX_LISTS = 8
DEF TEXT_CAP = 32768
DEF TOKEN_SLOTS = 1024  # open-addressing table of card tokens (a power of two)
DEF PACK_CAP = 8192
DEF MAX_ROWS = 32  # card lists counted in one line's first pass
DEF SPAN = 5  # what _scan_lines keeps of a line read


cdef class RecordSpec:
    """What :func:`scan` reads: keys, name values, card tokens, and each kind's output.

    ``keys``: ``[(key, type, names)]`` (the first key is the kind; ``names`` the
    allowed strings of a name key, else ``()``); ``cards``: token per cell
    (``""`` for an unused cell); ``kinds``: per code of the first key, ``None``
    (refer every record of that kind) or ``[(type, literal, key index)]`` in the
    output order, where ``literal`` is the text before the value (``"hand":``
    with its comma) or, for a constant item, the whole text.
    """

    cdef int nkeys
    cdef bytes key_text
    cdef int key_start[MAX_KEYS]
    cdef int key_len[MAX_KEYS]
    cdef int key_type[MAX_KEYS]
    # a key of 1-7 plain characters and its closing quote, as the 8 bytes after the opening
    # quote read little-endian (masked to its length): one compare finds the key
    cdef uint64_t key_word[MAX_KEYS]
    cdef uint64_t key_mask[MAX_KEYS]
    cdef bint key_fast[MAX_KEYS]
    cdef int id_key
    cdef int nnames[MAX_KEYS]
    cdef bytes name_text
    cdef int name_start[MAX_KEYS][MAX_NAMES]
    cdef int name_len[MAX_KEYS][MAX_NAMES]
    cdef int width
    cdef uint32_t token_key[TOKEN_SLOTS]
    cdef int token_cell[TOKEN_SLOTS]
    cdef bytes cell_text
    cdef int cell_start[MAX_CELLS]
    cdef int cell_len[MAX_CELLS]
    cdef char quoted[MAX_CELLS][8]  # '"SA",' and padding: the token as written in a list
    cdef uint64_t used_cells  # the cells with a token (a count elsewhere: not a payload)
    cdef bint plain_tokens  # every token printable ASCII without quote or backslash
    cdef int quoted_len[MAX_CELLS]
    cdef int nkinds
    cdef int nitems[MAX_KINDS]
    cdef int item_type[MAX_KINDS][MAX_ITEMS]
    cdef int item_key[MAX_KINDS][MAX_ITEMS]
    cdef int item_start[MAX_KINDS][MAX_ITEMS]
    cdef int item_len[MAX_KINDS][MAX_ITEMS]
    cdef bytes item_text
    # the bytes above as C pointers: the scanner reads them without the GIL
    cdef const char* key_ptr
    cdef const char* name_ptr
    cdef const char* item_ptr

    def __init__(self, keys, cards, kinds):
        cdef int i, j
        if not 1 <= len(keys) <= MAX_KEYS or len(cards) > MAX_CELLS or len(kinds) > MAX_KINDS:
            raise ValueError("record spec too large")
        buf = bytearray()
        names = bytearray()
        self.nkeys = len(keys)
        self.id_key = -1
        for i, (key, kind, values) in enumerate(keys):
            raw = key.encode("ascii")
            self.key_start[i], self.key_len[i] = len(buf), len(raw)
            buf += raw
            self.key_fast[i] = 1 <= len(raw) <= 7 and all(32 <= c < 127 and c not in b'"\\'
                                                         for c in raw)
            self.key_word[i] = int.from_bytes(raw + b'"', "little") if self.key_fast[i] else 0
            self.key_mask[i] = (1 << (8 * len(raw) + 8)) - 1 if self.key_fast[i] else 0
            self.key_type[i] = kind
            if kind == K_ID:
                self.id_key = i
            if len(values) > MAX_NAMES:
                raise ValueError("too many names")
            self.nnames[i] = len(values)
            for j, value in enumerate(values):
                raw = value.encode("ascii")
                self.name_start[i][j], self.name_len[i][j] = len(names), len(raw)
                names += raw
        self.key_text, self.name_text = bytes(buf), bytes(names)
        self.key_ptr, self.name_ptr = self.key_text, self.name_text
        self.width = len(cards)
        cells = bytearray()
        tokens = []
        self.plain_tokens = all(32 <= c < 127 and c not in b'"\\'
                                for name in cards for c in name.encode("ascii"))
        for i, name in enumerate(cards):
            raw = name.encode("ascii")
            if not 0 <= len(raw) <= 4:
                raise ValueError(f"card token {name!r} is longer than 4 characters")
            self.cell_start[i], self.cell_len[i] = len(cells), len(raw)
            cells += raw
            quoted = b'"' + raw + b'",' + bytes(8)
            for j in range(8):
                self.quoted[i][j] = quoted[j]
            self.quoted_len[i] = len(raw) + 3
            if raw:
                tokens.append((int.from_bytes(raw, "little"), i))
        self.cell_text = bytes(cells)
        self.used_cells = sum(1 << i for i, name in enumerate(cards) if name)
        for i in range(TOKEN_SLOTS):
            self.token_key[i], self.token_cell[i] = 0, -1
        for code, cell in tokens:
            i = _slot(code)
            while self.token_cell[i] >= 0:
                i = (i + 1) & (TOKEN_SLOTS - 1)
            self.token_key[i], self.token_cell[i] = code, cell
        items = bytearray()
        self.nkinds = len(kinds)
        for i, plan in enumerate(kinds):
            if plan is None:
                self.nitems[i] = -1
                continue
            if len(plan) > MAX_ITEMS:
                raise ValueError("too many output fields")
            self.nitems[i] = len(plan)
            for j, (kind, literal, key) in enumerate(plan):
                raw = literal.encode("ascii")
                self.item_type[i][j], self.item_key[i][j] = kind, key
                self.item_start[i][j], self.item_len[i][j] = len(items), len(raw)
                items += raw
        self.item_text = bytes(items)
        self.item_ptr = self.item_text


cdef int _name_code(RecordSpec spec, int key, const char* s, Py_ssize_t a,
                    Py_ssize_t b) noexcept nogil:
    """The code of the string value ``s[a:b]`` (quotes included) among the key's names, or -1."""
    cdef int j
    cdef const char* names = spec.name_ptr
    if b - a < 2 or s[a] != 34:
        return -1
    for j in range(spec.nnames[key]):
        if spec.name_len[key][j] == b - a - 2 and _same(
            names + spec.name_start[key][j], s + a + 1, b - a - 2
        ):
            return j
    return -1


cdef extern from *:
    """
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    #define QIPAI_LITTLE_ENDIAN 1
    #else
    #define QIPAI_LITTLE_ENDIAN 0
    #endif
    """
    int _lowest "__builtin_ctzll"(uint64_t) noexcept nogil
    bint LITTLE_ENDIAN "QIPAI_LITTLE_ENDIAN"


cdef inline int _slot(uint32_t code) noexcept nogil:
    return (code * 2654435761u) >> 22  # the top 10 bits: a slot of TOKEN_SLOTS


cdef inline int _cell(RecordSpec spec, const char* s, Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    """The cell of the token ``s[a:b]`` (no quotes), or -1."""
    cdef uint32_t code = 0
    cdef Py_ssize_t k
    cdef int i
    if b - a < 1 or b - a > 4:
        return -1
    for k in range(b - a):
        code |= (<uint32_t><uint8_t>s[a + k]) << (8 * k)
    return _code_cell(spec, code)


cdef inline int _code_cell(RecordSpec spec, uint32_t code) noexcept nogil:
    """The cell of the token whose characters, little-endian, are ``code``, or -1."""
    cdef int i = _slot(code)
    while spec.token_cell[i] >= 0:
        if spec.token_key[i] == code:
            return spec.token_cell[i]
        i = (i + 1) & (TOKEN_SLOTS - 1)
    return -1


cdef inline Py_ssize_t _quoted_token(RecordSpec spec, const char* s, Py_ssize_t p,
                                     Py_ssize_t n, int* cell) noexcept nogil:
    """``p`` at an opening quote: the index after the closing quote when it is 2-5 bytes
    on (a token of 1-4 characters) and 8 bytes can be read, and (``cell``) the token's cell
    or -1, from the same word; else -1 (then the character loop reads the string)."""
    cdef uint64_t w, x, t
    cdef int k
    if p + 8 > n:
        return -1
    memcpy(&w, s + p, 8)  # (little-endian: byte i of the text is byte i of w)
    x = (w >> 8) ^ 0x2222222222222222ULL  # zero bytes where a quote follows the opening one
    t = (x - 0x0101010101010101ULL) & ~x & 0x8080808080808080ULL  # the lowest is exact
    if t == 0:
        return -1
    k = _lowest(t) >> 3  # the token's length
    if k < 1 or k > 4:
        return -1
    cell[0] = _code_cell(spec, <uint32_t>((w >> 8) & ((1ULL << (8 * k)) - 1)))
    return p + k + 2


cdef Py_ssize_t _card_list(RecordSpec spec, const char* s, Py_ssize_t p, Py_ssize_t n,
                           uint8_t* counts, uint64_t* masks) noexcept nogil:
    """Count the card tokens of the list at ``p`` into ``counts``, and into ``masks`` the
    cells held (``masks[0]``) and held twice (``masks[1]``): the index after it, or -1
    (not a list of canonical tokens, or a third copy)."""
    cdef Py_ssize_t q
    cdef int cell
    cdef bint closed
    memset(counts, 0, spec.width)
    masks[0] = 0
    masks[1] = 0
    if p >= n or s[p] != 91:
        return -1
    p = _ws(s, p + 1, n)
    if p < n and s[p] == 93:
        return p + 1
    while True:
        if p >= n or s[p] != 34:
            return -1
        # the token and its closing quote in one 8-byte word where it can be read so, else
        # character by character (the same token either way: the text up to the first quote)
        q = _quoted_token(spec, s, p, n, &cell) if LITTLE_ENDIAN and spec.plain_tokens else -1
        if q < 0:
            q = _string_end(s, p, n)
            if q < 0:
                return -1
            cell = _cell(spec, s, p + 1, q - 1)
        if cell < 0 or counts[cell] >= 2:
            return -1
        counts[cell] += 1
        masks[counts[cell] - 1] |= (<uint64_t>1) << cell
        if q + 2 < n and s[q] == 44 and s[q + 1] == 32 and s[q + 2] == 34:
            p = q + 2  # ', "': the next token, as json.dumps separates items
            continue
        p = _next_item(s, q, n, &closed)
        if p < 0 or closed:
            return p

@cython.final
cdef class _Out:
    cdef char text[TEXT_CAP]
    cdef Py_ssize_t tn
    cdef uint8_t pack[PACK_CAP]
    cdef Py_ssize_t pn
    # card lists counted while the line's fields are found (see _parsed_cards): per key,
    # 0 (not counted), 1 (a list: one row) or 2 (a list of lists: nrows rows from first)
    cdef int shape[MAX_KEYS]
    cdef int first[MAX_KEYS]
    cdef int nrows[MAX_KEYS]
    cdef int used
    # the key found after each key (the last one is "the line's start") in the lines read
    # so far: tried first (a file's lines most often spell their keys in one order)
    cdef int follow[MAX_KEYS + 1]
    # after each key, the last key of 1-7 plain characters found there that the spec does
    # not know (e.g. "tags"), as _key_word's masked word (``unknown_mask`` 0: none yet): the
    # next line's same key is known unknown at one compare
    cdef uint64_t unknown_word[MAX_KEYS + 1]
    cdef uint64_t unknown_mask[MAX_KEYS + 1]
    cdef int unknown_len[MAX_KEYS + 1]
    cdef uint8_t rows[MAX_ROWS][MAX_CELLS]
    cdef uint64_t masks[MAX_ROWS][2]
    # _unpacked checks a payload without writing its card lists (unpacked_texts, texts off)
    cdef bint checking

    cdef inline bint put(self, const char* src, Py_ssize_t k) noexcept nogil:
        if self.tn + k > TEXT_CAP:
            return False
        memcpy(self.text + self.tn, src, k)
        self.tn += k
        return True

    cdef bint cards(self, RecordSpec spec, const uint8_t* counts,
                    const uint64_t* masks) noexcept nogil:
        """``["A","B"]`` from a count row (card order) into the text, the row into the pack;
        ``masks``: the cells held once or more, and twice (see :func:`_card_list`)."""
        cdef int cell, size
        cdef uint64_t held = masks[0], twice = masks[1]
        cdef Py_ssize_t tn = self.tn
        cdef char* dst
        cdef char* start
        # at most two copies of each cell, each a token of at most 4 characters, 2 quotes
        # and a comma (8 bytes copied each), and the brackets
        if self.pn + spec.width > PACK_CAP or tn + 2 + 16 * spec.width > TEXT_CAP:
            return False
        memcpy(self.pack + self.pn, counts, spec.width)
        self.pn += spec.width
        # a local cursor and fixed 8-byte copies of each quoted token with its comma
        # (the last comma becomes the closing bracket); only the cells held, lowest first
        start = self.text + tn
        start[0] = 91
        dst = start + 1
        while held:
            cell = _lowest(held)
            held &= held - 1
            size = spec.quoted_len[cell]
            memcpy(dst, spec.quoted[cell], 8)
            dst += size
            # the second copy without a branch: written always, kept when held twice
            memcpy(dst, spec.quoted[cell], 8)
            dst += size * <int>((twice >> cell) & 1)
        if dst == start + 1:
            dst[0] = 93
            dst += 1
        else:
            dst[-1] = 93
        self.tn = tn + (dst - start)
        return True

    cdef inline bint byte(self, int value) noexcept nogil:
        if self.pn >= PACK_CAP:
            return False
        self.pack[self.pn] = <uint8_t>value
        self.pn += 1
        return True


cdef bint _render(RecordSpec spec, int kind, const char* s, Py_ssize_t n,
                  Py_ssize_t* start, Py_ssize_t* end, _Out out) noexcept nogil:
    """The canonical text and packed payload of one record into ``out``; False: refer it."""
    cdef int i, key, code, t, count, row
    cdef Py_ssize_t p, a, b
    cdef uint8_t counts[MAX_CELLS]
    cdef uint64_t masks[2]
    cdef bint closed
    cdef const char* items = spec.item_ptr
    out.tn = 0
    out.pn = 0
    if not out.put(b"{", 1) or not out.byte(kind):
        return False
    for i in range(spec.nitems[kind]):
        t = spec.item_type[kind][i]
        if not out.put(items + spec.item_start[kind][i], spec.item_len[kind][i]):
            return False
        if t == I_CONST:
            continue
        key = spec.item_key[kind][i]
        a, b = start[key], end[key]
        if t == I_NAME:
            # (the kind's code is known: _scan_line found it)
            code = kind if key == 0 else _name_code(spec, key, s, a, b) if a >= 0 else -1
            if code < 0 or not out.byte(code) or not out.put(s + a, b - a):
                return False
        elif t == I_CARDS or t == I_NULLABLE_CARDS:
            if a < 0 or _is_null(s, a, b):
                if t == I_CARDS or not out.byte(0) or not out.put(b"null", 4):
                    return False
                memset(counts, 0, spec.width)
                if out.pn + spec.width > PACK_CAP:
                    return False
                memcpy(out.pack + out.pn, counts, spec.width)
                out.pn += spec.width
                continue
            if t == I_NULLABLE_CARDS and not out.byte(1):
                return False
            if out.shape[key] == 1:
                row = out.first[key]
                if not out.cards(spec, out.rows[row], out.masks[row]):
                    return False
            elif _card_list(spec, s, a, n, counts, masks) != b or \
                    not out.cards(spec, counts, masks):
                return False
        elif t == I_CARD_LISTS and out.shape[key] == 2:
            if out.nrows[key] > MAX_LISTS or not out.byte(out.nrows[key]) or \
                    not out.put(b"[", 1):
                return False
            for row in range(out.first[key], out.first[key] + out.nrows[key]):
                if (row > out.first[key] and not out.put(b",", 1)) or \
                        not out.cards(spec, out.rows[row], out.masks[row]):
                    return False
            if not out.put(b"]", 1):
                return False
        elif t == I_CARD_LISTS:
            if a < 0 or s[a] != 91:
                return False
            # count the inner lists first: the pack gives their number before the rows
            count = 0
            p = _ws(s, a + 1, n)
            if p < n and s[p] == 93:
                return False  # an empty list of plays: the engine reads it
            if not out.byte(0) or not out.put(b"[", 1):
                return False
            while True:
                if count == MAX_LISTS:
                    return False
                if count and not out.put(b",", 1):
                    return False
                p = _card_list(spec, s, p, n, counts, masks)
                if p < 0 or not out.cards(spec, counts, masks):
                    return False
                count += 1
                p = _next_item(s, p, n, &closed)
                if p < 0:
                    return False
                if closed:
                    break
            if p != b:
                return False
            out.pack[out.pn - count * spec.width - 1] = <uint8_t>count
            if not out.put(b"]", 1):
                return False
        else:
            return False
    return out.put(b"}", 1)


cdef Py_ssize_t _parsed_cards(RecordSpec spec, const char* s, Py_ssize_t p, Py_ssize_t n,
                              int key, _Out out) noexcept nogil:
    """The card list, or list of card lists, at ``p`` counted into ``out``'s rows for
    ``key``: the index after it, or -1 (then nothing is kept, and the value is read as
    any JSON value; :func:`_render` counts it again and refers the line if it uses it)."""
    cdef Py_ssize_t q = _ws(s, p + 1, n)
    cdef int first = out.used
    cdef bint closed
    if p >= n or s[p] != 91 or first >= MAX_ROWS:
        return -1
    if q >= n or s[q] != 91:  # a list of cards (or not a card list at all: -1)
        q = _card_list(spec, s, p, n, out.rows[first], out.masks[first])
        if q >= 0:
            out.shape[key], out.first[key], out.nrows[key] = 1, first, 1
            out.used = first + 1
        return q
    while True:
        if out.used == MAX_ROWS:
            return -1
        q = _card_list(spec, s, q, n, out.rows[out.used], out.masks[out.used])
        if q >= 0:
            out.used += 1
            q = _next_item(s, q, n, &closed)
        if q < 0:
            out.used = first
            return -1
        if closed:
            break
    out.shape[key], out.first[key], out.nrows[key] = 2, first, out.used - first
    return q


cdef inline int _key_word(RecordSpec spec, const char* s, Py_ssize_t p, Py_ssize_t n,
                          int before, _Out out) noexcept nogil:
    """``p`` at the opening quote of a key: the key whose characters and closing quote
    follow it, compared 8 bytes at a time (the one that followed ``before`` in the lines
    read first), or -1 (not found so: the character loop decides), or -2: the key that
    last followed ``before`` and that the spec does not know (``out.unknown_word``)."""
    cdef uint64_t w
    cdef int i, guess = out.follow[before]
    cdef int key = guess if 0 <= guess < spec.nkeys else 0
    if not LITTLE_ENDIAN or p + 9 > n:
        return -1
    memcpy(&w, s + p + 1, 8)
    if spec.key_fast[key] and (w & spec.key_mask[key]) == spec.key_word[key]:
        return key
    if out.unknown_mask[before] and (w & out.unknown_mask[before]) == out.unknown_word[before]:
        return -2
    for i in range(spec.nkeys - 1):
        key = key + 1 if key + 1 < spec.nkeys else 0
        if spec.key_fast[key] and (w & spec.key_mask[key]) == spec.key_word[key]:
            return key
    return -1


cdef inline void _unknown_key(const char* s, Py_ssize_t p, Py_ssize_t k, Py_ssize_t n,
                              int before, _Out out) noexcept nogil:
    """Keep the key ``s[p + 1 : p + 1 + k]`` (read by :func:`_string_end`: plain characters,
    its closing quote after it), which the spec does not know, for :func:`_key_word`, when
    it and its quote fit the 8 bytes that function compares."""
    if LITTLE_ENDIAN and k <= 7 and p + 9 <= n:
        memcpy(&out.unknown_word[before], s + p + 1, 8)
        out.unknown_mask[before] = (<uint64_t>1 << (8 * k + 8)) - 1 if k < 7 else \
            0xFFFFFFFFFFFFFFFFULL
        out.unknown_word[before] &= out.unknown_mask[before]
        out.unknown_len[before] = <int>k


cdef bint _fields(RecordSpec spec, const char* s, Py_ssize_t n,
                  Py_ssize_t* start, Py_ssize_t* end, _Out out) noexcept nogil:
    """Check the line is one object of the subset; the value span of each known key (card
    lists counted into ``out`` on the way)."""
    cdef Py_ssize_t p, q, k
    cdef int key, found, before = MAX_KEYS
    cdef const char* keys = spec.key_ptr
    for key in range(spec.nkeys):
        start[key] = -1
        end[key] = -1
        out.shape[key] = 0
    out.used = 0
    p = _ws(s, 0, n)
    if p >= n or s[p] != 123:
        return False
    p = _ws(s, p + 1, n)
    if p < n and s[p] == 125:
        return _ws(s, p + 1, n) == n
    while True:
        if p >= n or s[p] != 34:
            return False
        found = _key_word(spec, s, p, n, before, out)
        if found >= 0:
            q = p + spec.key_len[found] + 2
        elif found == -2:  # the unknown key kept (its word held its closing quote)
            q = p + out.unknown_len[before] + 2
            found = -1
        else:
            q = _string_end(s, p, n)
            if q < 0:
                return False
            k = q - p - 2
            for key in range(spec.nkeys):
                if spec.key_len[key] == k and _same(keys + spec.key_start[key], s + p + 1, k):
                    found = key
                    break
            if found < 0:
                _unknown_key(s, p, k, n, before, out)
        if found >= 0:
            out.follow[before] = found
            before = found
        p = _ws(s, q, n)
        if p >= n or s[p] != 58:
            return False
        p = _ws(s, p + 1, n)
        q = -1
        if found >= 0 and spec.key_type[found] == K_CARDS:
            q = _parsed_cards(spec, s, p, n, found, out)
        if q < 0:
            q = _value_end(s, p, n, 0)
        if q < 0:
            return False
        if found >= 0:
            if start[found] >= 0:
                return False  # a key twice: the engine decides which counts
            start[found], end[found] = p, q
        p = _ws(s, q, n)
        if p >= n:
            return False
        if s[p] == 125:
            return _ws(s, p + 1, n) == n
        if s[p] != 44:
            return False
        p = _ws(s, p + 1, n)


cdef int _scan_line(RecordSpec spec, const char* s, Py_ssize_t n, Py_ssize_t* start,
                    Py_ssize_t* end, _Out out) noexcept nogil:
    """Read one ASCII line into ``out`` (canonical text and pack; ``start``/``end`` keep the
    value spans, the id's among them): its status."""
    cdef int kind, key
    cdef bint ok
    if _blank(s, n):
        return S_BLANK
    ok = _fields(spec, s, n, start, end, out)
    kind = -1
    if ok:
        kind = _name_code(spec, 0, s, start[0], end[0]) if start[0] >= 0 else -1
        ok = kind >= 0 and kind < spec.nkinds and spec.nitems[kind] >= 0
    if ok:
        for key in range(spec.nkeys):
            if spec.key_type[key] == K_NULL_ONLY and start[key] >= 0 and not _is_null(
                s, start[key], end[key]
            ):
                ok = False
        key = spec.id_key
        if ok and key >= 0 and start[key] >= 0 and not _is_null(s, start[key], end[key]):
            ok = s[start[key]] == 34
    if ok:
        ok = _render(spec, kind, s, n, start, end, out)
    return S_OK if ok else S_REFER


cdef object _id_of(RecordSpec spec, const char* s, Py_ssize_t* start, Py_ssize_t* end):
    """The id string of a line read OK, or ``None`` (absent or null)."""
    cdef int key = spec.id_key
    if key >= 0 and start[key] >= 0 and s[start[key]] == 34:
        return PyUnicode_DecodeASCII(s + start[key] + 1, end[key] - start[key] - 2, NULL)
    return None


def scan(RecordSpec spec, list lines):
    """Read ``lines`` (``str``): ``(status, texts, ids, packs)``, one entry per line.

    ``status`` is a bytearray of :data:`OK`, :data:`REFER` or :data:`BLANK`;
    for an ``OK`` line ``texts`` holds the canonical text, ``ids`` the ``id``
    string (``None`` when absent or null) and ``packs`` the packed payload;
    the other entries are ``None``.
    """
    cdef Py_ssize_t i, n, nlines = len(lines)
    cdef Py_ssize_t start[MAX_KEYS]
    cdef Py_ssize_t end[MAX_KEYS]
    cdef const char* s
    cdef int state
    cdef _Out out = _Out()
    status = bytearray(nlines)
    texts = [None] * nlines
    ids = [None] * nlines
    packs = [None] * nlines
    for i in range(nlines):
        line = lines[i]
        if type(line) is not str or not PyUnicode_IS_ASCII(line):
            status[i] = S_REFER
            continue
        s = PyUnicode_DATA(line)
        n = PyUnicode_GET_LENGTH(line)
        state = _scan_line(spec, s, n, start, end, out)
        status[i] = state
        if state == S_OK:
            texts[i] = PyUnicode_DecodeASCII(out.text, out.tn, NULL)
            packs[i] = PyBytes_FromStringAndSize(<char*>out.pack, out.pn)
            ids[i] = _id_of(spec, s, start, end)
    return status, texts, ids, packs


cdef bint _scan_lines(RecordSpec spec, const char* base, Py_ssize_t size, _Out out,
                      Buffer* status, Buffer* texts, Buffer* packs, Buffer* spans,
                      Buffer* refer) noexcept nogil:
    """:func:`scan_text`'s reading, without the GIL: per line its status byte; per ``OK``
    line its canonical text and pack appended, and ``(text length, pack length, id start in
    base or -1, id length, line index in the block)``; per ``REFER`` line its ``(start,
    end)``.  False: out of memory."""
    cdef Py_ssize_t p = 0, q, line = 0
    cdef Py_ssize_t start[MAX_KEYS]
    cdef Py_ssize_t end[MAX_KEYS]
    cdef Py_ssize_t span[SPAN]
    cdef const char* nl
    cdef uint8_t state
    cdef int key = spec.id_key
    while p < size:
        nl = <const char*>memchr(base + p, 10, size - p)
        q = nl - base if nl != NULL else size
        state = _scan_line(spec, base + p, q - p, start, end, out)
        if not buffer_put(status, &state, 1):
            return False
        if state == S_OK:
            span[0], span[1], span[2], span[3], span[4] = out.tn, out.pn, -1, 0, line
            if key >= 0 and start[key] >= 0 and base[p + start[key]] == 34:
                span[2], span[3] = p + start[key] + 1, end[key] - start[key] - 2
            if not (buffer_put(texts, out.text, out.tn) and buffer_put(packs, out.pack, out.pn)
                    and buffer_put(spans, span, sizeof(span))):
                return False
        elif state == S_REFER:
            span[0], span[1] = p, q
            if not buffer_put(refer, span, 2 * sizeof(Py_ssize_t)):
                return False
        p = q + 1
        line += 1
    return True


cdef struct _Scanned:
    # what _scan_lines made of a block (see there)
    Buffer status
    Buffer texts
    Buffer packs
    Buffer spans
    Buffer refer
    Py_ssize_t nok


cdef inline bint _ascii_bytes(const char* s, Py_ssize_t n) noexcept nogil:
    """Whether the ``n`` bytes at ``s`` are ASCII (eight at a time)."""
    cdef Py_ssize_t i = 0
    cdef uint64_t word, seen = 0
    while i + 8 <= n:
        memcpy(&word, s + i, 8)
        seen |= word
        i += 8
    while i < n:
        seen |= <uint8_t>s[i]
        i += 1
    return (seen & 0x8080808080808080ULL) == 0


cdef const char* _block_text(object text, Py_ssize_t* size) except NULL:
    """The characters of a block: a ``str``, or the bytes of a ``bytes`` or ``bytearray``
    (the runner reads files as bytes: no decoding, no copy); ValueError unless ASCII."""
    cdef const char* base
    cdef bint ascii
    if type(text) is str:
        size[0] = PyUnicode_GET_LENGTH(text)
        ascii = PyUnicode_IS_ASCII(text)
        base = PyUnicode_DATA(text)
    elif type(text) is bytes or type(text) is bytearray:
        if type(text) is bytes:
            base, size[0] = PyBytes_AS_STRING(text), PyBytes_GET_SIZE(text)
        else:
            base, size[0] = PyByteArray_AS_STRING(text), PyByteArray_GET_SIZE(text)
        with nogil:
            ascii = _ascii_bytes(base, size[0])
    else:
        raise TypeError(f"the record scanner reads str, bytes or bytearray, got {type(text)}")
    if not ascii:
        raise ValueError("the record scanner reads ASCII text")
    return base


cdef int _scan_block(RecordSpec spec, const char* base, Py_ssize_t size,
                     _Scanned* got) except -1:
    """:func:`_scan_lines` of ``size`` ASCII characters at ``base`` into ``got`` (freed by
    :func:`_scanned_free`, also when this raises), without the GIL."""
    cdef _Out out = _Out()
    cdef bint done
    memset(got, 0, sizeof(_Scanned))
    with nogil:
        # room for what a block of this size most often gives (canonical texts and packs
        # shorter than their lines), so the buffers are seldom copied while they grow
        done = buffer_room(&got.texts, size) and buffer_room(&got.packs, size) and \
            buffer_room(&got.status, size // 64) and \
            buffer_room(&got.spans, size // 64 * SPAN * sizeof(Py_ssize_t))
        done = done and _scan_lines(spec, base, size, out, &got.status, &got.texts, &got.packs,
                           &got.spans, &got.refer)
    if not done:
        raise MemoryError("the record scanner: out of memory")
    got.nok = got.spans.n // sizeof(Py_ssize_t) // SPAN
    return 0


cdef void _scanned_free(_Scanned* got) noexcept:
    buffer_free(&got.status)
    buffer_free(&got.texts)
    buffer_free(&got.packs)
    buffer_free(&got.spans)
    buffer_free(&got.refer)


cdef object _scanned_refer(_Scanned* got):
    cdef Py_ssize_t i
    cdef Py_ssize_t* span = <Py_ssize_t*>got.refer.data
    return [(span[2 * i], span[2 * i + 1]) for i in range(got.refer.n // sizeof(span[0]) // 2)]


cdef bytes _scanned_digests(_Scanned* got):
    """The 16-byte BLAKE2b digest of each text read, one after the other (without the GIL)."""
    cdef Py_ssize_t i, at = 0
    cdef const Py_ssize_t* span
    cdef const uint8_t** starts = <const uint8_t**>malloc(max(got.nok, 1) * sizeof(uint8_t*))
    cdef int64_t* sizes = <int64_t*>malloc(max(got.nok, 1) * sizeof(int64_t))
    cdef uint8_t* dst
    try:
        if starts == NULL or sizes == NULL:
            raise MemoryError()
        hashes = PyBytes_FromStringAndSize(NULL, 16 * got.nok)
        dst = <uint8_t*>PyBytes_AS_STRING(hashes)
        with nogil:
            for i in range(got.nok):
                span = (<const Py_ssize_t*>got.spans.data) + SPAN * i
                starts[i], sizes[i] = <const uint8_t*>got.texts.data + at, span[0]
                at += span[0]
            blake2b16_many(starts, sizes, got.nok, dst)
        return hashes
    finally:
        free(starts)
        free(sizes)


def scan_text(RecordSpec spec, str text, bint digests=False):
    """:func:`scan` of the lines of ``text`` (ASCII: the caller checks), split at ``\\n`` as
    a file's lines are (the last one may lack its ``\\n``), without a ``str`` per line:
    ``(status, texts, ids, packs, refer)``.  ``texts``, ``ids`` and ``packs`` hold only the
    ``OK`` lines, in order; ``refer`` the ``(start, end)`` of each ``REFER`` line in
    ``text`` (its newline excluded), in order.  With ``digests``, a sixth item: the 16-byte
    BLAKE2b digest of each text (as :func:`solvers._batch_hashes.text_digests`), one after
    the other.  The lines are read and hashed without the GIL (the batch runner reads its
    blocks on worker threads)."""
    cdef Py_ssize_t i, at_text = 0, at_pack = 0, size
    cdef const char* base = _block_text(text, &size)
    cdef Py_ssize_t* span
    cdef _Scanned got
    try:
        _scan_block(spec, base, size, &got)
        text_list, ids, pack_list = [None] * got.nok, [None] * got.nok, [None] * got.nok
        for i in range(got.nok):
            span = (<Py_ssize_t*>got.spans.data) + SPAN * i
            text_list[i] = PyUnicode_DecodeASCII(got.texts.data + at_text, span[0], NULL)
            pack_list[i] = PyBytes_FromStringAndSize(got.packs.data + at_pack, span[1])
            if span[2] >= 0:
                ids[i] = PyUnicode_DecodeASCII(base + span[2], span[3], NULL)
            at_text += span[0]
            at_pack += span[1]
        result = (PyByteArray_FromStringAndSize(got.status.data, got.status.n), text_list,
                  ids, pack_list, _scanned_refer(&got))
        return result + (_scanned_digests(&got),) if digests else result
    finally:
        _scanned_free(&got)


def scan_columns(RecordSpec spec, object text):
    """:func:`scan_text` of ``text`` (ASCII, else ValueError: a ``str``, or a file's bytes as
    ``bytes`` or ``bytearray``) with ``digests``, its columns as buffers (no Python object a
    line read): ``(status, texts, ids, packs, lines, missing, refer, digests)``.  ``texts``,
    ``ids`` and ``packs`` are ``(data, ends)`` pairs (the items one after the other and the
    int64 end of each) of the ``OK`` lines; ``lines`` each one's index in the block
    (int64); ``missing`` a bytearray, 1 where the line has no id (its ``ids`` item empty),
    or ``None`` when every line has one; ``refer`` and ``digests`` as :func:`scan_text`'s."""
    cdef Py_ssize_t i, nok, at = 0, size
    # (a buffer held while it is read: a bytearray cannot be resized meanwhile)
    cdef const unsigned char[::1] held = None if type(text) is str else text
    cdef const char* base = _block_text(text, &size)
    cdef Py_ssize_t* span
    cdef _Scanned got
    cdef bint any_missing = False
    cdef char* id_out
    cdef uint8_t* miss
    cdef int64_t* t_ends
    cdef int64_t* p_ends
    cdef int64_t* i_ends
    cdef int64_t* at_line
    try:
        _scan_block(spec, base, size, &got)
        nok = got.nok
        text_ends = PyBytes_FromStringAndSize(NULL, 8 * nok)
        pack_ends = PyBytes_FromStringAndSize(NULL, 8 * nok)
        id_ends = PyBytes_FromStringAndSize(NULL, 8 * nok)
        lines = PyBytes_FromStringAndSize(NULL, 8 * nok)
        missing = bytearray(nok)
        for i in range(nok):
            span = (<Py_ssize_t*>got.spans.data) + SPAN * i
            at += span[3] if span[2] >= 0 else 0
        ids = PyBytes_FromStringAndSize(NULL, at)
        id_out = PyBytes_AS_STRING(ids)
        miss = <uint8_t*>PyByteArray_AS_STRING(missing)
        t_ends = <int64_t*>PyBytes_AS_STRING(text_ends)
        p_ends = <int64_t*>PyBytes_AS_STRING(pack_ends)
        i_ends = <int64_t*>PyBytes_AS_STRING(id_ends)
        at_line = <int64_t*>PyBytes_AS_STRING(lines)
        with nogil:
            _columns_of(got.spans.data, nok, base, id_out, t_ends, p_ends, i_ends, at_line, miss,
                        &any_missing)
        return (PyByteArray_FromStringAndSize(got.status.data, got.status.n),
                (PyBytes_FromStringAndSize(got.texts.data, got.texts.n), text_ends),
                (ids, id_ends), (PyBytes_FromStringAndSize(got.packs.data, got.packs.n), pack_ends),
                lines, missing if any_missing else None, _scanned_refer(&got),
                _scanned_digests(&got))
    finally:
        _scanned_free(&got)


cdef void _columns_of(const char* spans, Py_ssize_t nok, const char* base, char* id_out,
                      int64_t* text_ends, int64_t* pack_ends, int64_t* id_ends,
                      int64_t* lines, uint8_t* missing, bint* any_missing) noexcept nogil:
    """:func:`scan_columns`' ends, ids, line indexes and missing ids from the spans of
    :func:`_scan_lines`."""
    cdef Py_ssize_t i, t = 0, p = 0, d = 0
    cdef const Py_ssize_t* span
    for i in range(nok):
        span = (<const Py_ssize_t*>spans) + SPAN * i
        t += span[0]
        p += span[1]
        text_ends[i], pack_ends[i], lines[i] = t, p, span[4]
        if span[2] >= 0:
            memcpy(id_out + d, base + span[2], span[3])
            d += span[3]
        else:
            missing[i] = 1
            any_missing[0] = True
        id_ends[i] = d


# -- packed payloads back to their canonical text ------------------------------------------------

cdef Py_ssize_t _pack_row(RecordSpec spec, const uint8_t* pack, Py_ssize_t p, Py_ssize_t n,
                          _Out out) noexcept nogil:
    """The count row at ``pack[p]`` as the scanner writes a card list (``out.cards``): the
    index after it, or -1 (too short, a count over 2, or a count in an unused cell).  Eight
    cells at a time: each byte's low bit gathered into ``held``, its second bit into
    ``twice`` (a multiply moves bit 0 of byte i to bit 56 + i)."""
    cdef int cell
    cdef uint64_t masks[2]
    cdef uint64_t word, bad = 0
    if p + spec.width > n:
        return -1
    masks[0] = 0
    masks[1] = 0
    for cell in range(0, spec.width, 8):
        word = 0
        memcpy(&word, pack + p + cell, 8 if spec.width - cell >= 8 else spec.width - cell)
        # a byte over 2: a bit above the two lowest, or both of them
        bad |= (word & 0xFCFCFCFCFCFCFCFCULL) | (word & (word >> 1) & 0x0101010101010101ULL)
        masks[0] |= ((((word | (word >> 1)) & 0x0101010101010101ULL) *
                      0x0102040810204080ULL) >> 56) << cell
        masks[1] |= ((((word >> 1) & 0x0101010101010101ULL) * 0x0102040810204080ULL) >> 56) << cell
    if bad or (masks[0] & ~spec.used_cells):
        return -1
    if not out.checking and not out.cards(spec, pack + p, masks):
        return -1
    return p + spec.width


cdef bint _unpacked(RecordSpec spec, const uint8_t* pack, Py_ssize_t n, _Out out) noexcept nogil:
    """The canonical text of one packed payload into ``out.text`` (as :func:`_render` writes
    it from a line), and the payload into ``out.pack``; False: not a payload this spec's
    scanner could have made (the wrong length, a code out of range, a third copy…)."""
    cdef int i, t, key, code, kind, count, row
    cdef Py_ssize_t p = 1, k
    cdef const char* items = spec.item_ptr
    out.tn = 0
    out.pn = 0
    if n < 1 or pack[0] >= spec.nkinds or spec.nitems[pack[0]] < 0:
        return False
    kind = pack[0]
    out.text[0] = 123  # "{", and the kind's code first in the pack, as _render writes them
    out.tn = 1
    out.pack[0] = <uint8_t>kind
    out.pn = 1
    for i in range(spec.nitems[kind]):
        t, key = spec.item_type[kind][i], spec.item_key[kind][i]
        if not out.put(items + spec.item_start[kind][i], spec.item_len[kind][i]):
            return False
        if t == I_CONST:
            pass
        elif t == I_NAME:
            if p >= n:
                return False
            code = pack[p] if key != 0 else kind
            p += 1
            if code >= spec.nnames[key] or (key == 0 and pack[p - 1] != kind) or \
                    not out.byte(code) or not out.put(b'"', 1) or \
                    not out.put(spec.name_ptr + spec.name_start[key][code],
                                spec.name_len[key][code]) or not out.put(b'"', 1):
                return False
        elif t == I_CARDS:
            p = _pack_row(spec, pack, p, n, out)
            if p < 0:
                return False
        elif t == I_NULLABLE_CARDS:
            if p >= n or pack[p] > 1 or not out.byte(pack[p]):
                return False
            p += 1
            if pack[p - 1] == 0:
                if p + spec.width > n or not out.put(b"null", 4):
                    return False
                for k in range(spec.width):
                    if pack[p + k] or not out.byte(0):
                        return False
                p += spec.width
                continue
            p = _pack_row(spec, pack, p, n, out)
            if p < 0:
                return False
        elif t == I_CARD_LISTS:
            # (the scanner refers an empty list of lists: the engine reads it)
            if p >= n or not 1 <= pack[p] <= MAX_LISTS or not out.byte(pack[p]) or \
                    not out.put(b"[", 1):
                return False
            count = pack[p]
            p += 1
            for row in range(count):
                if row and not out.put(b",", 1):
                    return False
                p = _pack_row(spec, pack, p, n, out)
                if p < 0:
                    return False
            if not out.put(b"]", 1):
                return False
        else:
            return False
    return p == n and out.put(b"}", 1)


def unpacked_texts(RecordSpec spec, bytes packs, bytes ends, bint texts=True):
    """The canonical text of each packed payload (``packs`` one after the other, ``ends``
    the int64 end of each), as :func:`scan_columns` writes it for a line that packs alike,
    and its input hash, without the GIL: ``(status, texts, digests)``.  ``status`` holds one
    byte a payload: :data:`OK`, or :data:`REFER` for one this spec's scanner could not have
    made (another length, a code out of range, a count over 2…: never trusted);
    ``texts`` is the ``(data, ends)`` pair and ``digests`` the 16-byte BLAKE2b digests of
    the ``OK`` ones only, in order.  With ``texts`` off, the payloads are only checked (the
    same status; a payload's text is a function of its bytes and back, so equal positions
    have equal payloads) and no text is written: ``texts`` holds the ``OK`` payloads'
    compact forms (2 bits a count byte: ``buffer_put_compact`` in ``_batch_buffers.pxd``,
    :func:`solvers._batch_columns.expanded_payloads` reads them back) and ``digests``
    are theirs."""
    cdef Py_ssize_t count = PyBytes_GET_SIZE(ends) // 8, i, lo = 0, hi
    cdef const int64_t* at = <const int64_t*>PyBytes_AS_STRING(ends)
    cdef const uint8_t* base = <const uint8_t*>PyBytes_AS_STRING(packs)
    cdef Py_ssize_t size = PyBytes_GET_SIZE(packs)
    cdef _Out out = _Out()
    cdef _Scanned got
    cdef bint done = True
    cdef uint8_t ok
    cdef Py_ssize_t kept
    if PyBytes_GET_SIZE(ends) % 8:
        raise ValueError("ends must be int64")
    memset(&got, 0, sizeof(_Scanned))
    out.checking = not texts
    try:
        with nogil:
            for i in range(count):
                hi = at[i]
                if not lo <= hi <= size:
                    done = False
                    break
                ok = S_OK if _unpacked(spec, base + lo, hi - lo, out) else S_REFER
                if not buffer_put(&got.status, &ok, 1):
                    done = False
                    break
                if ok == S_OK:
                    got.nok += 1
                    if texts and (not buffer_put(&got.texts, out.text, out.tn) or
                                  not buffer_put(&got.spans, &out.tn, sizeof(Py_ssize_t))):
                        done = False
                        break
                    if not texts:
                        kept = buffer_put_compact(&got.texts, base + lo, hi - lo)
                        if kept < 0 or not buffer_put(&got.spans, &kept, sizeof(Py_ssize_t)):
                            done = False
                            break
                lo = hi
        if not done:
            if i < count and not 0 <= at[i] <= size:
                raise ValueError("ends out of range")
            raise MemoryError("unpacked_texts: out of memory")
        text_ends = PyBytes_FromStringAndSize(NULL, 8 * got.nok)
        _running_ends(<const Py_ssize_t*>got.spans.data, got.nok,
                      <int64_t*>PyBytes_AS_STRING(text_ends))
        status = PyByteArray_FromStringAndSize(got.status.data, got.status.n)
        data = PyBytes_FromStringAndSize(got.texts.data, got.texts.n)
        return status, (data, text_ends), _text_digests(data, text_ends)
    finally:
        _scanned_free(&got)


cdef void _running_ends(const Py_ssize_t* sizes, Py_ssize_t n, int64_t* ends) noexcept nogil:
    cdef Py_ssize_t i, at = 0
    for i in range(n):
        at += sizes[i]
        ends[i] = at


cdef bint _digests_at(const uint8_t* base, const int64_t* ends, Py_ssize_t n,
                     uint8_t* dst) noexcept nogil:
    """The 16-byte BLAKE2b digest of each of the ``n`` texts at ``base`` (ending at ``ends``,
    running offsets) into ``dst``, one after the other.  False: no memory."""
    cdef Py_ssize_t i, lo = 0
    cdef const uint8_t** starts = <const uint8_t**>malloc(max(n, 1) * sizeof(uint8_t*))
    cdef int64_t* sizes = <int64_t*>malloc(max(n, 1) * sizeof(int64_t))
    cdef bint done = starts != NULL and sizes != NULL
    if done:
        for i in range(n):
            starts[i], sizes[i] = base + lo, ends[i] - lo
            lo = ends[i]
        blake2b16_many(starts, sizes, n, dst)
    free(starts)
    free(sizes)
    return done


cdef bytes _text_digests(bytes texts, bytes ends):
    """The BLAKE2b digest of each text of a ``(data, ends)`` pair (without the GIL)."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(ends) // 8
    cdef const int64_t* at = <const int64_t*>PyBytes_AS_STRING(ends)
    cdef const uint8_t* base = <const uint8_t*>PyBytes_AS_STRING(texts)
    cdef uint8_t* dst
    cdef bint done
    hashes = PyBytes_FromStringAndSize(NULL, 16 * n)
    dst = <uint8_t*>PyBytes_AS_STRING(hashes)
    with nogil:
        done = _digests_at(base, at, n, dst)
    if not done:
        raise MemoryError()
    return hashes


# -- a packed file's records, read in one call ---------------------------------------------------

DEF CELL_WORDS = 8  # MAX_CELLS / 8: a count row's 8-byte words

# record status of packed_records: read, an id the rows' JSON cannot hold, a payload refused
DEF P_ID = 1
DEF P_PAYLOAD = 2


cdef inline uint64_t _word(const uint8_t* s, Py_ssize_t k, const uint8_t* limit) noexcept nogil:
    """The first ``k`` (1 to 8) bytes at ``s`` as a little-endian word, zeros above (one
    8-byte load where the buffer, which ends at ``limit``, holds 8 bytes there)."""
    cdef uint64_t w = 0
    cdef Py_ssize_t i
    if s + 8 <= limit:
        memcpy(&w, s, 8)
        return w if k >= 8 else w & ((1ULL << (8 * k)) - 1)
    for i in range(k):
        w |= (<uint64_t>s[i]) << (8 * i)
    return w


cdef inline bint _plain_id(const uint8_t* s, Py_ssize_t k, const uint8_t* limit) noexcept nogil:
    """Whether the ``k`` bytes at ``s`` are printable ASCII without quote or backslash (an
    id the rows' JSON holds without escapes), eight at a time: a byte under 32 or
    over 126, or equal to 34 or 92, sets its high bit in ``bad`` (exact as to whether any
    does; bytes past ``k`` read as ``A``)."""
    cdef Py_ssize_t i = 0, take
    cdef uint64_t w, q, b, bad = 0
    while i < k:
        take = k - i if k - i < 8 else 8
        w = _word(s + i, take, limit)
        if take < 8:
            w |= 0x4141414141414141ULL & ~((1ULL << (8 * take)) - 1)
        q = w ^ (0x2222222222222222ULL)
        b = w ^ (0x5C5C5C5C5C5C5C5CULL)
        bad |= w | ((w - 0x2020202020202020ULL) & ~w) | (w + 0x0101010101010101ULL) | ((q - 0x0101010101010101ULL) & ~q) | ((b - 0x0101010101010101ULL) & ~b)
        i += 8
    return (bad & 0x8080808080808080ULL) == 0


cdef inline bint _row_ok(RecordSpec spec, const uint8_t* row, const uint64_t* unused,
                         const uint8_t* limit) noexcept nogil:
    """Whether a count row (``spec.width`` bytes at ``row``) is one :func:`_pack_row` takes:
    every count 0, 1 or 2, none in an unused cell (``unused``: per 8 cells, 0xFF in the
    bytes of the unused ones)."""
    cdef int cell
    cdef uint64_t w, bad = 0
    for cell in range(0, spec.width, 8):
        w = _word(row + cell, spec.width - cell, limit)
        bad |= (w & 0xFCFCFCFCFCFCFCFCULL) | (w & (w >> 1) & 0x0101010101010101ULL) | (w & unused[cell >> 3])
    return bad == 0


cdef struct _Marks:
    # the offsets in a payload of its bytes of 3 or more (buffer_put_compact), and how many
    # (-1: more than it keeps, so a row is checked byte by byte); whether the spec has unused
    # cells (else a row without such a byte is good)
    uint16_t at[COMPACT_MARKS]
    Py_ssize_t count
    bint unused_cells


cdef inline bint _marked_row_ok(RecordSpec spec, const uint8_t* pack, Py_ssize_t p,
                                const uint64_t* unused, const uint8_t* limit,
                                const _Marks* marks) noexcept nogil:
    """:func:`_row_ok` of the row at ``pack[p]`` knowing where the payload's bytes over 2
    are: none in the row, and (when the spec has unused cells) no count in one."""
    cdef Py_ssize_t j
    cdef int cell
    cdef uint64_t bad = 0
    if marks == NULL or marks.count < 0:
        return _row_ok(spec, pack + p, unused, limit)
    for j in range(marks.count):
        if p <= marks.at[j] < p + spec.width:
            return False
    if marks.unused_cells:
        for cell in range(0, spec.width, 8):
            if unused[cell >> 3]:  # (most often only the last words hold unused cells)
                bad |= _word(pack + p + cell, spec.width - cell, limit) & unused[cell >> 3]
    return bad == 0


cdef bint _payload_ok(RecordSpec spec, const uint8_t* pack, Py_ssize_t n,
                      const uint64_t* unused, const uint8_t* limit,
                      const _Marks* marks) noexcept nogil:
    """Whether :func:`_unpacked` takes the payload ``pack[:n]`` (the same checks, no text;
    ``marks``, when given, where its bytes over 2 are)."""
    cdef int i, t, key, kind, row
    cdef Py_ssize_t p = 1, k
    if n < 1 or pack[0] >= spec.nkinds or spec.nitems[pack[0]] < 0:
        return False
    kind = pack[0]
    for i in range(spec.nitems[kind]):
        t, key = spec.item_type[kind][i], spec.item_key[kind][i]
        if t == I_CONST:
            continue
        if t == I_NAME:
            if p >= n or (pack[p] if key != 0 else kind) >= spec.nnames[key] or \
                    (key == 0 and pack[p] != kind):
                return False
            p += 1
            continue
        if t == I_NULLABLE_CARDS:
            if p >= n or pack[p] > 1:
                return False
            p += 1
            if pack[p - 1] == 0:
                if p + spec.width > n:
                    return False
                for k in range(spec.width):
                    if pack[p + k]:
                        return False
                p += spec.width
                continue
            t = I_CARDS
        if t == I_CARDS:
            if p + spec.width > n or not _marked_row_ok(spec, pack, p, unused, limit, marks):
                return False
            p += spec.width
        elif t == I_CARD_LISTS:
            if p >= n or not 1 <= pack[p] <= MAX_LISTS:
                return False
            p += 1
            for row in range(pack[p - 1]):
                if p + spec.width > n or not _marked_row_ok(spec, pack, p, unused, limit,
                                                            marks):  # fmt: skip
                    return False
                p += spec.width
        else:
            return False
    return p == n


cdef struct _Frames:
    # a block's whole records (packed_records): how many, where they end, their id and
    # payload bytes
    Py_ssize_t count
    Py_ssize_t end
    Py_ssize_t id_bytes
    Py_ssize_t pack_bytes


DEF FRAMES_AHEAD = 1024  # bytes of a block asked for ahead of the record being walked


cdef void _frames(const uint8_t* s, Py_ssize_t n, _Frames* got) noexcept nogil:
    """Count the whole records of ``s[:n]`` (see :func:`packed_records`).  Each record's
    place follows from the one before, so the walk waits on every load of a header: the
    bytes :data:`FRAMES_AHEAD` on are asked for ahead, a cache line at a time (records of
    ~190 bytes step over lines, which the hardware's prefetchers do not follow): a 升级 block
    walked 0.013 -> 0.008 us a record right after it is read (as the runner walks it), 0.08 ->
    0.013 when it has left the caches (AMD EPYC)."""
    cdef Py_ssize_t p = 0, k, m, ahead = 0
    memset(got, 0, sizeof(_Frames))
    while p + 3 <= n:
        while ahead < p + FRAMES_AHEAD and ahead < n:
            prefetch_read(s + ahead, 3)
            ahead += 64
        k, m = s[p], s[p + 1] | (s[p + 2] << 8)
        if p + 3 + k + m > n:
            break
        got.id_bytes += k
        got.pack_bytes += m
        got.count += 1
        p += 3 + k + m
    got.end = p


def whole_frames(const uint8_t[::1] data):
    """``(end, count)``: where the first record of ``data`` that is not whole starts, and
    how many whole records come before it (records as :func:`packed_records` reads them)."""
    cdef Py_ssize_t n = data.shape[0]
    cdef _Frames frames
    _frames(&data[0] if n else NULL, n, &frames)
    return frames.end, frames.count


cdef extern from *:
    """
    /* Fault in the whole pages of p[:n] writable in one madvise(MADV_POPULATE_WRITE, Linux
       5.14+) instead of one page fault a page as they are first written, where they are new:
       the columns of a block outlive it (until their positions are stored), so in a run's
       first blocks they land on pages never touched before. A kernel without it answers
       EINVAL once: then never again. */
    #if defined(__linux__)
    #include <errno.h>
    #include <stdint.h>
    #include <sys/mman.h>
    #include <unistd.h>
    #ifndef MADV_POPULATE_WRITE
    #define MADV_POPULATE_WRITE 23
    #endif
    static int qipai_populate_off = 0;
    static void qipai_populate(void *p, size_t n) {
        static uintptr_t page = 0;
        uintptr_t lo, hi;
        if (qipai_populate_off) return;
        if (page == 0) {
            long size = sysconf(_SC_PAGESIZE);
            page = size > 0 ? (uintptr_t)size : 4096;
        }
        lo = ((uintptr_t)p + page - 1) & ~(page - 1);
        hi = ((uintptr_t)p + n) & ~(page - 1);
        unsigned char resident = 0;
        if (hi <= lo) return;
        /* the last page already there: the column reuses freed memory (a new page is at the
           arena's top, the column's end), and populating resident pages costs */
        if (mincore((void *)(hi - page), page, &resident) == 0 && (resident & 1)) return;
        if (madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE) != 0 && errno == EINVAL)
            qipai_populate_off = 1;
    }
    #else
    static void qipai_populate(void *p, size_t n) { (void)p; (void)n; }
    #endif
    """
    void _populate "qipai_populate"(void* p, size_t n) noexcept nogil


DEF POPULATED = 16384  # columns of at least this many bytes are faulted in at once


cdef bytes _fresh_bytes(Py_ssize_t n):
    """A new ``bytes`` of ``n`` bytes to write, its whole pages faulted in at once when it is
    large (``qipai_populate``)."""
    cdef bytes out = PyBytes_FromStringAndSize(NULL, n)
    cdef char* at = PyBytes_AS_STRING(out)
    if n >= POPULATED:
        with nogil:
            _populate(at, n)
    return out


cdef struct _Columns:
    # where packed_records writes a block's columns (the read records' only)
    uint8_t* status
    char* ids
    int64_t* id_ends
    char* packs
    int64_t* pack_ends
    int64_t* lines
    int64_t* form_ends
    Buffer forms
    Py_ssize_t nok


cdef inline void _copy(char* dst, const uint8_t* src, Py_ssize_t n) noexcept nogil:
    """``memcpy`` of a few dozen bytes without its call or a ``rep movs`` (which GCC makes of
    a copy of unknown size): 16 bytes at a time, the last 16 overlapping (never outside
    ``dst[:n]``)."""
    cdef Py_ssize_t i = 0
    if n >= 16:
        while i + 16 < n:
            memcpy(dst + i, src + i, 16)
            i += 16
        memcpy(dst + n - 16, src + n - 16, 16)
    elif n >= 8:
        memcpy(dst, src, 8)
        memcpy(dst + n - 8, src + n - 8, 8)
    elif n >= 4:
        memcpy(dst, src, 4)
        memcpy(dst + n - 4, src + n - 4, 4)
    else:
        for i in range(n):
            dst[i] = src[i]


cdef void _unused_bytes(RecordSpec spec, uint64_t* unused) noexcept nogil:
    """Per 8 cells of a count row, 0xFF in the bytes of the cells no token uses."""
    cdef int cell
    memset(unused, 0, CELL_WORDS * sizeof(uint64_t))
    for cell in range(spec.width):
        if not (spec.used_cells >> cell) & 1:
            unused[cell >> 3] |= 0xFFULL << (8 * (cell & 7))


cdef bint _read_frames(RecordSpec spec, const uint8_t* s, Py_ssize_t count, const uint8_t* limit,
                       int64_t first, _Out out, _Columns* c, bint forms=True) noexcept nogil:
    """Each of the ``count`` records at ``s``: its status, and for a read one its id,
    payload, line (``first`` + its index) and compact form (with ``out``: its canonical
    text, written there first; without ``forms``: none, each payload checked byte by byte)
    into ``c``.  False: out of memory."""
    cdef uint64_t unused[CELL_WORDS]
    cdef Py_ssize_t i, p = 0, k, m, idn = 0, pn = 0, size
    cdef const uint8_t* pack
    cdef bint texts = out is not None
    cdef _Marks marks
    _unused_bytes(spec, unused)
    marks.unused_cells = spec.used_cells != ((1ULL << spec.width) - 1 if spec.width < 64 else
                                             0xFFFFFFFFFFFFFFFFULL)  # fmt: skip
    for i in range(count):
        k, m = s[p], s[p + 1] | (s[p + 2] << 8)
        pack = s + p + 3 + k
        p += 3 + k + m
        if not _plain_id(pack - k, k, limit):
            c.status[i] = P_ID
            continue
        if texts:
            size = -1
            if _unpacked(spec, pack, m, out):
                size = out.tn if buffer_put(&c.forms, out.text, out.tn) else -2
        elif not forms:
            size = 0 if _payload_ok(spec, pack, m, unused, limit, NULL) else -1
        else:
            # the compact form first: where the bytes over 2 are spares most rows' check
            size = buffer_put_compact(&c.forms, pack, m, marks.at)
            if size >= 0:
                marks.count = size - 2 - ((m + 3) >> 2)
                if marks.count > COMPACT_MARKS:
                    marks.count = -1
                if not _payload_ok(spec, pack, m, unused, limit, &marks):
                    c.forms.n -= size
                    size = -1
            else:
                size = -2
        if size == -2:
            return False
        if size < 0:
            c.status[i] = P_PAYLOAD
            continue
        c.status[i] = 0
        _copy(c.ids + idn, pack - k, k)
        if c.packs != NULL:
            _copy(c.packs + pn, pack, m)
            pn += m
            c.pack_ends[c.nok] = pn
        idn += k
        c.id_ends[c.nok] = idn
        c.form_ends[c.nok], c.lines[c.nok] = c.forms.n, first + i
        c.nok += 1
    return True


def packed_records(RecordSpec spec, const uint8_t[::1] data, int64_t first=0,
                   bint texts=False, bint packs=True, bint hashed=True, bint compact=True):
    """The whole records of a block of a packed positions file (each one byte ``k``, two
    bytes ``m`` little-endian, ``k`` bytes of id, ``m`` bytes of packed payload; see
    :mod:`engines.batch.packed`), read, checked, made compact and hashed in one call
    without the GIL: ``(status, ids, packs, forms, digests, lines)``.

    ``status``: one byte a whole record: 0 read, 1 an id that is not printable ASCII
    without quote or backslash (the rows' JSON would need escapes), 2 a payload this
    spec's scanner could not have made (as :func:`unpacked_texts` refuses it).  The rest
    holds the read records only, in order: ``ids`` (ASCII), ``packs`` and ``forms`` are
    ``(data, ends)`` pairs (int64 ends), ``forms`` the payloads' compact forms
    (``buffer_put_compact``; with ``texts``: their canonical texts, as
    :func:`unpacked_texts` writes them), ``digests`` the forms' 16-byte BLAKE2b digests
    one after the other, ``lines`` each one's number (``first`` + its index, int64).
    Without ``packs``, ``packs`` is None (no copy of the payloads: a caller that solves from
    the compact forms saves the block's largest column and its fresh pages).  Without
    ``hashed``, ``digests`` is empty (a run keyed by the records' places in their file,
    :mod:`engines.batch.placed`, finds no repeats: ~0.03 µs a position less); without
    ``compact`` (and ``texts``), ``forms`` is empty too and each payload is checked without
    its compact form being written (that run solves from the payloads themselves)."""
    cdef Py_ssize_t n = data.shape[0]
    cdef const uint8_t* s = &data[0] if n else NULL
    cdef _Frames frames
    cdef _Columns c
    cdef _Out out = _Out() if texts else None
    cdef bint done
    cdef uint8_t* dst
    with nogil:
        _frames(s, n, &frames)
    status = PyByteArray_FromStringAndSize(NULL, frames.count)
    ids = PyBytes_FromStringAndSize(NULL, frames.id_bytes)
    pack_data = _fresh_bytes(frames.pack_bytes) if packs else None
    ends = [PyBytes_FromStringAndSize(NULL, 8 * frames.count if packs or i != 1 else 0)
            for i in range(4)]
    memset(&c, 0, sizeof(_Columns))
    c.status = <uint8_t*>PyByteArray_AS_STRING(status)
    c.ids = PyBytes_AS_STRING(ids)
    c.packs = PyBytes_AS_STRING(pack_data) if packs else NULL
    c.id_ends, c.pack_ends = <int64_t*>PyBytes_AS_STRING(ends[0]), <int64_t*>PyBytes_AS_STRING(ends[1])
    c.form_ends, c.lines = <int64_t*>PyBytes_AS_STRING(ends[2]), <int64_t*>PyBytes_AS_STRING(ends[3])
    try:
        with nogil:
            # room for the compact forms most payloads make (a quarter of their bytes)
            done = buffer_room(&c.forms, frames.pack_bytes // 3 + 64) and \
                _read_frames(spec, s, frames.count, s + n, first, out, &c, compact or texts)
        if not done:
            raise MemoryError("packed_records: out of memory")
        digests = _fresh_bytes(16 * c.nok if hashed else 0)
        dst = <uint8_t*>PyBytes_AS_STRING(digests)
        if hashed:
            with nogil:
                done = _digests_at(<const uint8_t*>c.forms.data, c.form_ends, c.nok, dst)
        if not done:
            raise MemoryError("packed_records: out of memory")
        forms = _fresh_bytes(c.forms.n)
        memcpy(PyBytes_AS_STRING(forms), c.forms.data, c.forms.n)
    finally:
        buffer_free(&c.forms)
    if c.nok < frames.count:  # (bad records: the columns hold fewer items)
        last = c.nok - 1
        ids = ids[: c.id_ends[last] if c.nok else 0]
        if packs:
            pack_data = pack_data[: c.pack_ends[last] if c.nok else 0]
        ends = [e[: 8 * c.nok] for e in ends]
    return (status, (ids, ends[0]), (pack_data, ends[1]) if packs else None, (forms, ends[2]),
            digests, ends[3])


cdef extern from *:
    """
    /* XXH64 (Yann Collet's xxHash, 64-bit, the reference algorithm): four lanes over 32-byte
       stripes, then the tail and the avalanche.  Little-endian reads (memcpy: unaligned). */
    #include <string.h>
    #define QP_P1 11400714785074694791ULL
    #define QP_P2 14029467366897019727ULL
    #define QP_P3 1609587929392839161ULL
    #define QP_P4 9650029242287828579ULL
    #define QP_P5 2870177450012600261ULL
    static inline uint64_t qp_rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
    static inline uint64_t qp_read64(const uint8_t* p) {
        uint64_t v; memcpy(&v, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap64(v);
    #endif
        return v;
    }
    static inline uint32_t qp_read32(const uint8_t* p) {
        uint32_t v; memcpy(&v, p, 4);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        v = __builtin_bswap32(v);
    #endif
        return v;
    }
    static inline uint64_t qp_round(uint64_t acc, uint64_t input) {
        acc += input * QP_P2;
        return qp_rotl(acc, 31) * QP_P1;
    }
    static inline uint64_t qp_merge(uint64_t acc, uint64_t val) {
        acc ^= qp_round(0, val);
        return acc * QP_P1 + QP_P4;
    }
    static uint64_t qp_xxh64(const uint8_t* p, size_t len, uint64_t seed) {
        const uint8_t* end = p + len;
        uint64_t h;
        if (len >= 32) {
            uint64_t v1 = seed + QP_P1 + QP_P2, v2 = seed + QP_P2, v3 = seed, v4 = seed - QP_P1;
            const uint8_t* limit = end - 32;
            do {
                v1 = qp_round(v1, qp_read64(p));
                v2 = qp_round(v2, qp_read64(p + 8));
                v3 = qp_round(v3, qp_read64(p + 16));
                v4 = qp_round(v4, qp_read64(p + 24));
                p += 32;
            } while (p <= limit);
            h = qp_rotl(v1, 1) + qp_rotl(v2, 7) + qp_rotl(v3, 12) + qp_rotl(v4, 18);
            h = qp_merge(h, v1); h = qp_merge(h, v2); h = qp_merge(h, v3); h = qp_merge(h, v4);
        } else {
            h = seed + QP_P5;
        }
        h += (uint64_t)len;
        while (p + 8 <= end) {
            h ^= qp_round(0, qp_read64(p));
            h = qp_rotl(h, 27) * QP_P1 + QP_P4;
            p += 8;
        }
        if (p + 4 <= end) {
            h ^= (uint64_t)qp_read32(p) * QP_P1;
            h = qp_rotl(h, 23) * QP_P2 + QP_P3;
            p += 4;
        }
        while (p < end) {
            h ^= (*p) * QP_P5;
            h = qp_rotl(h, 11) * QP_P1;
            p++;
        }
        h ^= h >> 33; h *= QP_P2; h ^= h >> 29; h *= QP_P3; h ^= h >> 32;
        return h;
    }
    """
    uint64_t qp_xxh64(const uint8_t* p, size_t n, uint64_t seed) nogil


def xxh64(const uint8_t[::1] data, uint64_t seed=0):
    """XXH64 of ``data`` (xxHash's 64-bit hash; without the GIL): the digest of a packed file
    whose positions a store keeps by place (:mod:`engines.batch.store_placed`), several times
    cheaper than ``zlib.crc32`` a byte.

    >>> hex(xxh64(b"")), hex(xxh64(b"a")), hex(xxh64(b"abc"))
    ('0xef46db3751d8e999', '0xd24ec4f1a98c6e5b', '0x44bc2cf5ad770999')
    """
    cdef Py_ssize_t n = data.shape[0]
    cdef uint64_t h
    with nogil:
        h = qp_xxh64(&data[0] if n else NULL, n, seed)
    return h
