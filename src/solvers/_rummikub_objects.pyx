# cython: language_level=3, boundscheck=False, wraparound=False
"""Rummikub positions read into the kernel's count arrays, and moves' tiles back, natively.

``best_moves`` takes Python ``Position`` objects: looking up each of a batch's tiles in a
dictionary (hashing a ``Tile`` named tuple) cost about 8 us a position of the 10-80 tile
tables of issue #16, on the caller's one thread.  A position's tiles are the 53
canonical ``Tile`` objects (``Position`` checks every tile into them), so here a tile is
found by its address in a small open-addressed table, with the dictionary as the fallback
for any other object equal to a tile.

Tile kind: ``13 * colour + number - 1`` for colours K R O B, 52 for the joker.
"""

from libc.stdint cimport int64_t, uintptr_t
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF

DEF SLOTS = 512  # power of two, well above the 53 tiles


cdef class TileKinds:
    """The kind of each canonical tile object, by address (``index``: the fallback look-up
    of any other tile, e.g. ``engines.rummikub.position._INDEX``)."""

    cdef uintptr_t keys[SLOTS]
    cdef int kinds[SLOTS]
    cdef dict index
    cdef list tiles

    def __init__(self, list tiles, dict index):
        cdef int k
        cdef unsigned int h
        self.index = index
        self.tiles = list(tiles)  # keeps the objects (and so their addresses) alive
        for h in range(SLOTS):
            self.keys[h] = 0
        for k in range(len(self.tiles)):
            h = _slot(<uintptr_t><void*>self.tiles[k])
            while self.keys[h] != 0:
                h = (h + 1) & (SLOTS - 1)
            self.keys[h] = <uintptr_t><void*>self.tiles[k]
            self.kinds[h] = index[self.tiles[k]]

    cdef inline int kind(self, object tile) except -1:
        cdef uintptr_t key = <uintptr_t><void*>tile
        cdef unsigned int h = _slot(key)
        while self.keys[h] != 0:
            if self.keys[h] == key:
                return self.kinds[h]
            h = (h + 1) & (SLOTS - 1)
        return self.index[tile]  # another object equal to a tile (KeyError for a non-tile)


cdef inline unsigned int _slot(uintptr_t key) noexcept:
    return <unsigned int>((key >> 4) ^ (key >> 13)) & (SLOTS - 1)


def count_positions(TileKinds kinds, positions, bint whole_table,
                    int64_t[:, :] table_out, int64_t[:, :] rack_out,
                    unsigned char[:] melded_out):
    """Fill ``table_out[p]``/``rack_out[p]`` (zeroed (n, 53)) with the counts of each kind of
    position ``p``'s table and rack tiles, and ``melded_out[p]`` with its
    ``initial_meld_done``; a table is counted only for a melded position, or for every
    position when ``whole_table`` (meld then continue)."""
    cdef Py_ssize_t p = 0
    cdef bint done
    for pos in positions:
        done = pos.initial_meld_done
        melded_out[p] = done
        if done or whole_table:
            for tiles in pos.table:
                for tile in tiles:
                    table_out[p, kinds.kind(tile)] += 1
        for tile in pos.rack:
            rack_out[p, kinds.kind(tile)] += 1
        p += 1


def played_tiles(const int64_t[:] counts, list tile_of):
    """The list of ``tile_of[k]`` repeated ``counts[k]`` times, in kind order."""
    cdef Py_ssize_t k, t, n = 0, at = 0
    for k in range(counts.shape[0]):
        if counts[k] < 0:
            raise ValueError("a negative tile count")
        n += counts[k]
    out = PyList_New(n)
    for k in range(counts.shape[0]):
        tile = tile_of[k]
        for t in range(counts[k]):
            Py_INCREF(tile)
            PyList_SET_ITEM(out, at, tile)
            at += 1
    return out
