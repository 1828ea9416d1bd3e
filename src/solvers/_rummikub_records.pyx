# cython: language_level=3, boundscheck=False, wraparound=False
"""Rummikub positions of JSON Lines read in native code: tile lists to count rows, canonical text.

The batch runner's fast path for ``rummikub-best`` (``engines.rummikub.records``).
:func:`scan` reads a block of lines (``str``) and, for every line it fully
understands, gives the position's canonical JSON text (the text of the task's
``prepare`` result: rack in tile order, table sets sorted), its ``id`` and a
*packed* payload, without building a Python dict or list per tile.

It never raises for user input: a line it does not fully understand is marked
``REFER`` and the engine reads it the ordinary way, which accepts what it can and
names what is wrong.  It reads a strict subset of JSON: one object per line,
ASCII, no escapes in the fields it reads, canonical tile names (``R5``, ``K13``,
``J``), each of ``id``, ``table``, ``rack``, ``initial_meld_done`` at most once,
no ``rules``; other fields are skipped when they are plain JSON (else referred).
At most two copies of a tile and two jokers, sets of 3 to 13 tiles.  Whether a
table set is valid is the engine's call: a set not seen before is passed to
``check(kinds)`` (a Python callable, bytes of tile kinds as written, returning
True for a valid set), and remembered in a bounded table.  A line with an invalid
set is referred, so that the engine names the fault.

Tile kind: ``13 * colour + number - 1`` for colours K R O B, 52 for the joker.
Packed payload: one byte ``initial_meld_done``, the 53 table counts, the 53 rack
counts, then the table's sets as canonical JSON text without the outer brackets
(what a result repeats before the initial meld, and what rules that look at the
table's sets read).
"""

from libc.string cimport memcmp, memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeASCII

from solvers._rummikub_text cimport (
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_IS_ASCII,
    put_quoted,
    tile_names,
)

OK, REFER, BLANK = 0, 1, 2

DEF KINDS = 53
DEF MAX_SETS = 64
DEF MAX_SET = 13
DEF MAX_RACK = 106
DEF MAX_DEPTH = 16
DEF SLOTS = 1 << 16       # the set table's slots (a power of two)
DEF MAX_KNOWN = SLOTS // 2  # then it is emptied (bounded memory)
DEF PACK_HEAD = 1 + 2 * KINDS
DEF TEXT_CAP = 8192

cdef char NAMES[KINDS][4]
cdef int NAME_LEN[KINDS]
tile_names(NAMES, NAME_LEN)


cdef class SetTable:
    """Table sets met so far, by their kinds as written: valid (1) or not (2)."""

    cdef unsigned char keys[SLOTS][16]
    cdef unsigned char state[SLOTS]
    cdef int known
    cdef object check

    def __init__(self, check):
        self.check = check
        self.clear()

    def clear(self):
        memset(self.state, 0, SLOTS)
        self.known = 0

    cdef int lookup(self, const unsigned char* key) except -1:
        """1 valid, 2 invalid (asking ``check`` the first time)."""
        cdef unsigned long long h = 1469598103934665603ULL
        cdef int i
        for i in range(16):
            h = (h ^ key[i]) * 1099511628211ULL
        cdef unsigned int slot = <unsigned int>(h >> 20) & (SLOTS - 1)
        while self.state[slot]:
            if memcmp(self.keys[slot], key, 16) == 0:
                return self.state[slot]
            slot = (slot + 1) & (SLOTS - 1)
        valid = self.check(PyBytes_FromStringAndSize(<const char*>key + 1, key[0]))
        if self.known >= MAX_KNOWN:
            self.clear()
            return self.lookup(key)
        memcpy(self.keys[slot], key, 16)
        self.state[slot] = 1 if valid else 2
        self.known += 1
        return self.state[slot]

    @property
    def size(self):
        return self.known


cdef struct Cursor:
    const char* s
    Py_ssize_t i
    Py_ssize_t n


cdef inline void ws(Cursor* c):
    cdef char ch
    while c.i < c.n:
        ch = c.s[c.i]
        if ch == 32 or ch == 9 or ch == 10 or ch == 13:
            c.i += 1
        else:
            return


cdef inline bint take(Cursor* c, char ch):
    ws(c)
    if c.i < c.n and c.s[c.i] == ch:
        c.i += 1
        return True
    return False


cdef Py_ssize_t string_end(Cursor* c):
    """After an opening quote: the index of the closing one (-1: an escape, a control
    character or no end)."""
    cdef Py_ssize_t j = c.i
    cdef unsigned char ch
    while j < c.n:
        ch = <unsigned char>c.s[j]
        if ch == 34:
            return j
        if ch == 92 or ch < 32:
            return -1
        j += 1
    return -1


cdef bint skip_literal(Cursor* c, const char* word, int length):
    if c.i + length <= c.n and memcmp(c.s + c.i, word, length) == 0:
        c.i += length
        return True
    return False


cdef inline Py_ssize_t digits(Cursor* c):
    """Past a run of digits: how many."""
    cdef Py_ssize_t start = c.i
    while c.i < c.n and 48 <= c.s[c.i] <= 57:
        c.i += 1
    return c.i - start


cdef bint skip_number(Cursor* c):
    if c.i < c.n and c.s[c.i] == 45:
        c.i += 1
    if c.i < c.n and c.s[c.i] == 48:
        c.i += 1
    elif digits(c) == 0:
        return False
    if c.i < c.n and c.s[c.i] == 46:
        c.i += 1
        if digits(c) == 0:
            return False
    if c.i < c.n and (c.s[c.i] == 101 or c.s[c.i] == 69):
        c.i += 1
        if c.i < c.n and (c.s[c.i] == 43 or c.s[c.i] == 45):
            c.i += 1
        if digits(c) == 0:
            return False
    return True


cdef bint skip_value(Cursor* c, int depth):
    """Past one plain JSON value (False: anything else, or nested deeper than MAX_DEPTH)."""
    cdef Py_ssize_t end
    ws(c)
    if c.i >= c.n or depth > MAX_DEPTH:
        return False
    cdef char ch = c.s[c.i]
    if ch == 34:
        c.i += 1
        end = string_end(c)
        if end < 0:
            return False
        c.i = end + 1
        return True
    if ch == 91 or ch == 123:
        c.i += 1
        if take(c, 93 if ch == 91 else 125):
            return True
        while True:
            if ch == 123:
                ws(c)
                if not take(c, 34):
                    return False
                end = string_end(c)
                if end < 0:
                    return False
                c.i = end + 1
                if not take(c, 58):
                    return False
            if not skip_value(c, depth + 1):
                return False
            if take(c, 44):
                continue
            return take(c, 93 if ch == 91 else 125)
    if ch == 116:
        return skip_literal(c, "true", 4)
    if ch == 102:
        return skip_literal(c, "false", 5)
    if ch == 110:
        return skip_literal(c, "null", 4)
    return skip_number(c)


cdef inline int tile_kind(const char* s, Py_ssize_t length):
    """The kind of a canonical tile name, else -1."""
    cdef int colour, number
    if length == 1:
        return 52 if s[0] == 74 else -1
    if s[0] == 75:
        colour = 0
    elif s[0] == 82:
        colour = 1
    elif s[0] == 79:
        colour = 2
    elif s[0] == 66:
        colour = 3
    else:
        return -1
    if length == 2 and 49 <= s[1] <= 57:
        number = s[1] - 48
    elif length == 3 and s[1] == 49 and 48 <= s[2] <= 51:
        number = 10 + s[2] - 48
    else:
        return -1
    return 13 * colour + number - 1


cdef int read_tiles(Cursor* c, unsigned char* kinds, int cap):
    """A list of tile names (after its ``[``) into ``kinds``: how many, or -1."""
    cdef int count = 0
    cdef Py_ssize_t end
    cdef int kind
    if take(c, 93):
        return 0
    while True:
        if not take(c, 34):
            return -1
        end = string_end(c)
        if end < 0:
            return -1
        kind = tile_kind(c.s + c.i, end - c.i)
        if kind < 0 or count >= cap:
            return -1
        kinds[count] = <unsigned char>kind
        count += 1
        c.i = end + 1
        if take(c, 44):
            continue
        return count if take(c, 93) else -1


cdef inline int put_names(char* out, int at, const unsigned char* kinds, int count):
    """``["R5","R6",…]`` at ``out + at``; the new end."""
    cdef int t, k
    out[at] = 91
    at += 1
    for t in range(count):
        if t:
            out[at] = 44
            at += 1
        k = kinds[t]
        at = put_quoted(out, at, NAMES[k], NAME_LEN[k])
    out[at] = 93
    return at + 1


cdef int set_order(const unsigned char* a, int na, const unsigned char* b, int nb):
    """Python's order of the two sets' name lists: < 0, 0, > 0."""
    cdef int t, d, la, lb
    for t in range(na if na < nb else nb):
        if a[t] != b[t]:
            la, lb = NAME_LEN[a[t]], NAME_LEN[b[t]]
            d = memcmp(NAMES[a[t]], NAMES[b[t]], la if la < lb else lb)
            return d if d else la - lb
    return na - nb


cdef struct Position:
    int nsets
    int lengths[MAX_SETS]
    unsigned char sets[MAX_SETS][MAX_SET]
    int order[MAX_SETS]
    int nrack
    unsigned char rack[MAX_RACK]
    int done          # -1 absent (true), 0, 1
    Py_ssize_t id_at  # -1 absent or null
    Py_ssize_t id_len
    int seen          # bits: id, table, rack, initial_meld_done


cdef int read_line(Cursor* c, Position* p, SetTable table) except -2:
    """OK or REFER for one line (a blank one is found before)."""
    cdef Py_ssize_t end, key_at
    cdef int bit, n
    p.nsets, p.nrack, p.done, p.id_at, p.seen = 0, 0, -1, -1, 0
    if not take(c, 123):
        return REFER
    if take(c, 125):
        return REFER  # no rack
    while True:
        if not take(c, 34):
            return REFER
        end = string_end(c)
        if end < 0:
            return REFER
        key_at, n = c.i, <int>(end - c.i)
        c.i = end + 1
        if not take(c, 58):
            return REFER
        bit = 0
        if n == 2 and memcmp(c.s + key_at, "id", 2) == 0:
            bit = 1
        elif n == 5 and memcmp(c.s + key_at, "table", 5) == 0:
            bit = 2
        elif n == 4 and memcmp(c.s + key_at, "rack", 4) == 0:
            bit = 4
        elif n == 17 and memcmp(c.s + key_at, "initial_meld_done", 17) == 0:
            bit = 8
        elif n == 5 and memcmp(c.s + key_at, "rules", 5) == 0:
            return REFER
        if bit & p.seen:
            return REFER  # a repeated key: JSON keeps the last, the engine decides
        p.seen |= bit
        ws(c)
        if bit == 1:
            if take(c, 34):
                end = string_end(c)
                if end < 0:
                    return REFER
                p.id_at, p.id_len = c.i, end - c.i
                c.i = end + 1
            elif not skip_literal(c, "null", 4):
                return REFER
        elif bit == 2:
            if not take(c, 91):
                return REFER
            if not take(c, 93):
                while True:
                    if p.nsets >= MAX_SETS or not take(c, 91):
                        return REFER
                    n = read_tiles(c, p.sets[p.nsets], MAX_SET)
                    if n < 3:
                        return REFER
                    p.lengths[p.nsets] = n
                    p.nsets += 1
                    if take(c, 44):
                        continue
                    if not take(c, 93):
                        return REFER
                    break
        elif bit == 4:
            if not take(c, 91):
                return REFER
            p.nrack = read_tiles(c, p.rack, MAX_RACK)
            if p.nrack < 0:
                return REFER
        elif bit == 8:
            if skip_literal(c, "true", 4):
                p.done = 1
            elif skip_literal(c, "false", 5):
                p.done = 0
            else:
                return REFER
        elif not skip_value(c, 1):
            return REFER
        if take(c, 44):
            continue
        if not take(c, 125):
            return REFER
        break
    ws(c)
    if c.i != c.n or not p.seen & 4:
        return REFER
    return checked(p, table)


cdef int checked(Position* p, SetTable table) except -2:
    """REFER for a third copy, a third joker or a set that is not valid; sorts the sets."""
    cdef unsigned char counts[KINDS]
    cdef unsigned char key[16]
    cdef int s, t, j, held
    memset(counts, 0, KINDS)
    for s in range(p.nsets):
        for t in range(p.lengths[s]):
            counts[p.sets[s][t]] += 1
    for t in range(p.nrack):
        counts[p.rack[t]] += 1
    for t in range(KINDS):
        if counts[t] > 2:
            return REFER
    for s in range(p.nsets):
        memset(key, 0, 16)
        key[0] = <unsigned char>p.lengths[s]
        memcpy(key + 1, p.sets[s], p.lengths[s])
        if table.lookup(key) != 1:
            return REFER
    for s in range(p.nsets):  # insertion sort of a few dozen sets
        held = s
        j = s - 1
        while j >= 0 and set_order(p.sets[p.order[j]], p.lengths[p.order[j]],
                                   p.sets[held], p.lengths[held]) > 0:
            p.order[j + 1] = p.order[j]
            j -= 1
        p.order[j + 1] = held
    return OK


cdef object payload(Position* p, char* text, unsigned char* pack):
    """The canonical text and the packed payload of a read position."""
    cdef int at, s, t, k, length
    cdef int table_at, table_end
    cdef unsigned char rack_counts[KINDS]
    memset(pack, 0, PACK_HEAD)
    pack[0] = 0 if p.done == 0 else 1
    for s in range(p.nsets):
        for t in range(p.lengths[s]):
            pack[1 + p.sets[s][t]] += 1
    memset(rack_counts, 0, KINDS)
    for t in range(p.nrack):
        rack_counts[p.rack[t]] += 1
    memcpy(pack + 1 + KINDS, rack_counts, KINDS)
    memcpy(text, b'{"initial_meld_done":', 21)
    at = 21
    if p.done == 0:
        memcpy(text + at, b'false,"rack":[', 14)
        at += 14
    else:
        memcpy(text + at, b'true,"rack":[', 13)
        at += 13
    for k in range(KINDS):
        for t in range(rack_counts[k]):
            if text[at - 1] != 91:
                text[at] = 44
                at += 1
            at = put_quoted(text, at, NAMES[k], NAME_LEN[k])
    memcpy(text + at, b'],"table":[', 11)
    at += 11
    table_at = at
    for s in range(p.nsets):
        if s:
            text[at] = 44
            at += 1
        at = put_names(text, at, p.sets[p.order[s]], p.lengths[p.order[s]])
    table_end = at
    text[at] = 93
    text[at + 1] = 125
    at += 2
    memcpy(pack + PACK_HEAD, text + table_at, table_end - table_at)
    length = PACK_HEAD + table_end - table_at
    return (PyUnicode_DecodeASCII(text, at, NULL),
            PyBytes_FromStringAndSize(<const char*>pack, length))


def scan(SetTable table, list lines):
    """``(status, texts, ids, packs)`` of a block of lines: status a bytearray (``OK``,
    ``REFER`` or ``BLANK`` a line); for an ``OK`` line its canonical text, its id (``str``,
    or ``None`` when absent or null) and its packed payload, else ``None``."""
    cdef Py_ssize_t count = len(lines), i
    cdef Cursor c
    cdef Position p
    cdef char text[TEXT_CAP]
    cdef unsigned char pack[PACK_HEAD + TEXT_CAP]
    cdef int state
    status = bytearray(count)
    texts = [None] * count
    ids = [None] * count
    packs = [None] * count
    for i in range(count):
        line = lines[i]
        if not PyUnicode_IS_ASCII(line):
            status[i] = REFER
            continue
        c.s = PyUnicode_DATA(line)
        c.n = PyUnicode_GET_LENGTH(line)
        c.i = 0
        ws(&c)
        if c.i == c.n:
            status[i] = BLANK
            continue
        state = read_line(&c, &p, table)
        status[i] = state
        if state == OK:
            texts[i], packs[i] = payload(&p, text, pack)
            if p.id_at >= 0:
                ids[i] = PyUnicode_DecodeASCII(c.s + p.id_at, p.id_len, NULL)
    return status, texts, ids, packs
