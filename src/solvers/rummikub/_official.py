"""Official joker retrieval in the DP: where each table joker must end the turn, and which
of a number's table jokers its choices so far can account for.

The rules integer holds each table joker's place (:func:`solvers.rummikub._layout.
joker_place`); :func:`official_tables` turns them into per-number masks, and the DP's
sub-step keeps, inside a number, the subsets accounted for (:func:`cover`; key bits at
:data:`solvers.rummikub._layout.COVER_AT`, and with three or four table jokers at one
number past :data:`~solvers.rummikub._layout.COVER_HIGH_AT` or the second word's
:data:`~solvers.rummikub._layout.COVER_PAIRED_AT`: :func:`cover_of`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import (
    COVER_AT,
    COVER_HIGH_AT,
    COVER_PAIRED_AT,
    NCOL,
    NNUM,
    OFFICIAL_AT,
    OFFICIAL_PLACES,
    PLACES,
    place_at,
    place_colours,
    place_in_group,
    place_number,
    place_of,
)

# Per table joker i of a number, the subsets (as bits of a family, bit s for subset s) that
# lack it: a family's subsets without joker i, moved up by ``1 << i``, are those with it.
_WITHOUT = (0x5555, 0x3333, 0x0F0F, 0x00FF)


@njit(cache=True, error_model="numpy", inline="always")
def cover(fam, eligible, units):
    """Official retrieval: the subsets of a number's table jokers (0..4) that its choices can
    account for, after ``units`` more resources each usable for the jokers of bit mask
    ``eligible``.  ``fam`` has bit s-1 for subset s (the empty subset always counts).

    >>> int(cover(0, 0b101, 1)), int(cover(0, 0b101, 2)), int(cover(0b1, 0b110, 1))
    (9, 25, 31)
    >>> bin(int(cover(0, 0b1001, 2))), int(cover(0, 0b1111, 4)) == (1 << 15) - 1
    ('0b110000001', True)
    """
    full = fam << 1 | 1
    for _ in range(min(units, 4)):
        grown = full
        for i in range(4):
            if eligible >> i & 1:
                grown |= (full & _WITHOUT[i]) << (1 << i)
        if grown == full:  # (no resource adds a subset: the rest add none either)
            break
        full = grown
    return full >> 1


@njit(cache=True, inline="always")
def cover_of(key, key2, full, second=None):
    """The cover (:func:`cover`'s family) in state ``(key, key2)`` at a number whose table
    jokers are ``full``: its subsets of the first two at :data:`~solvers.rummikub._layout.
    COVER_AT`, those holding the third or fourth at :data:`~solvers.rummikub._layout.
    COVER_HIGH_AT` (a pass with the second key word, ``second`` its array: ``key2``'s
    :data:`~solvers.rummikub._layout.COVER_PAIRED_AT`, 12 bits: a fourth table joker's
    passes always carry that word), read only where the number has a third, and the
    subsets of a fourth only where it has one (elsewhere those bits are other fields': the
    runs of jokers alone of sets of 2, the list of two real tiles per set, the third and
    fourth copies' group counts, least disturbance's held-out sets)."""
    fam = (key >> COVER_AT) & 7
    if full > 3:
        high = (key >> COVER_HIGH_AT) if second is None else (key2 >> COVER_PAIRED_AT)
        fam |= (high << 3) & ((1 << full) - 1)  # (``full`` jokers: 2**full - 1 subsets)
    return fam


@njit(cache=True, inline="always")
def cover_key(fam, second=None):
    """The first key word's bits of cover ``fam`` (with :func:`cover_key2`, the inverse of
    :func:`cover_of`; past 7 only where the number has a third table joker, whose bits
    alone :func:`cover` adds; a fourth's passes carry the second word, where the bits past
    7 all go)."""
    high = np.int64(fam >> 3) << COVER_HIGH_AT if second is None else np.int64(0)
    return np.int64(fam & 7) << COVER_AT | high


@njit(cache=True, inline="always")
def cover_key2(fam):
    """The second key word's bits of cover ``fam`` in a pass with that word (:func:`cover_of`;
    with a fourth table joker at the number, :data:`~solvers.rummikub._layout.
    COVER_PAIRED_BITS` of them)."""
    return np.int64(fam >> 3) << COVER_PAIRED_AT


@njit(cache=True, error_model="numpy")
def official_tables(meld):
    """Per number, the table jokers placed there (bit i: joker i of the number) that a rack
    tile of colour c (``tile[v, c]``), a run joker of colour c (``run[v, c]``) or a group
    joker (``group[v]``) can account for, and all of them (``full[v]``)."""
    tile = np.zeros((NNUM, NCOL), np.int64)
    run = np.zeros((NNUM, NCOL), np.int64)
    group = np.zeros(NNUM, np.int64)
    full = np.zeros(NNUM, np.int64)
    for k in range(PLACES):
        place = place_of(meld, k)
        if place == 0:
            continue
        v = place_number(place)
        bit = full[v] + 1  # (the number's jokers so far are bits 0.., all set)
        full[v] |= bit
        what = place_colours(place)
        if place_in_group(place):  # a group joker: any colour its group lacks
            group[v] |= bit
            for c in range(NCOL):
                if what >> c & 1:
                    tile[v, c] |= bit
        else:
            run[v, what] |= bit
            tile[v, what] |= bit
    return tile, run, group, full


@njit(cache=True, inline="always")
def _jokers_in(bits):
    """How many table jokers a mask of :func:`official_tables` holds (a number's: bits 0-3)."""
    return (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3 & 1)


@njit(cache=True, error_model="numpy")
def jokers_owed_ahead(tile, run, group, opt):
    """Official retrieval: per number v+1 (``v`` 0..12), the fewest jokers that any move must
    still place after it, at the places of the table jokers of the later numbers (all 0
    under free retrieval).  ``tile``, ``run``, ``group``: :func:`official_tables`' first
    three; ``opt``: the rack tiles the pass may play.

    A place takes a tile or a joker, one each (:func:`cover`): a run joker's place a rack
    tile of its colour and number, a group joker's a rack tile of its number in a colour
    its group lacks.  So at a number, the run places of a colour beyond its rack tiles,
    and the group places beyond the rack tiles of every colour some group there lacks,
    each need a joker of their own (the two counts are of different places).  A state
    with fewer jokers left than the numbers after it owe cannot end the turn: the DP's
    passes drop it, which changes no answer, and the approximate passes (beam, narrow)
    no longer fill their widths with states that spent the jokers the later places need
    (official + jokers=4 + copies=3, seed 7 60J #1: the beam pass found nothing).

    >>> from solvers.rummikub._layout import joker_place, rules_mode
    >>> rack = np.zeros((4, 13), np.int64)
    >>> rack[0, 8] = 1   # the rack holds the run place's tile at 9, not the one at 11
    >>> mode = rules_mode(True, joker_places=(joker_place(9, 0), joker_place(11, 0)))
    >>> jokers_owed_ahead(*official_tables(mode)[:3], rack)[7:12].tolist()
    [1, 1, 1, 0, 0]
    """
    ahead = np.zeros(NNUM, np.int64)
    owed = np.int64(0)
    for v in range(NNUM - 1, -1, -1):
        ahead[v] = owed
        tiles = np.int64(0)
        for c in range(NCOL):
            owed += max(0, _jokers_in(run[v, c]) - opt[c, v])
            if tile[v, c] & group[v]:  # (a group joker here lacks colour c)
                tiles += opt[c, v]
        owed += max(0, _jokers_in(group[v]) - tiles)
    return ahead


@njit(cache=True)
def placed_run_jokers(mode, rack, slot_number, slot_colour, set_start, s0, s1):
    """Official retrieval (the table jokers' places in ``mode``), for the linear relaxation
    of the sets kept (:func:`solvers.rummikub._bound.programme`): ``slot_colour`` with each
    table run joker of the sets ``s0..s1-1`` that no rack tile can free (the rack lacks the
    tile it stands for) as ``-2 - c``, c its run's colour: a tile of that run's only.

    Such a joker's place takes a joker standing for its tile in a run, its own or another
    (jokers are alike), in every move the DP counts, so the relaxation may count that slot
    as the place's own tile, for runs only, and stays a relaxation.  Free retrieval's bound
    lets the joker go where it keeps more sets: official + copies=4 seed 2 80J #4, bound 13
    (the free-retrieval answer) where the most kept is 11."""
    colours = slot_colour.copy()
    if (mode >> OFFICIAL_AT) & OFFICIAL_PLACES == 0:  # (free retrieval, or no table joker)
        return colours
    for i in range(s0, s1):
        lo, hi = set_start[i], set_start[i + 1]
        colour = -1
        group = True
        for k in range(lo, hi):
            if slot_colour[k] >= 0:
                colour = slot_colour[k]
            group = group and slot_number[k] == slot_number[lo]
        if group or colour < 0:
            continue
        for k in range(lo, hi):
            if slot_colour[k] < 0 and rack[colour, slot_number[k] - 1] == 0:
                colours[k] = -2 - colour
    return colours


@njit(cache=True)
def run_only_rows(shape, slot_number, slot_colour, set_start, s0, s1, first):
    """The tiles for runs only, by colour and number (``shape``): the table jokers of the
    sets ``s0..s1-1`` kept at a run tile's place (``slot_colour`` ``-2 - c``:
    :func:`placed_run_jokers`); their rows of the programme from ``first`` (-1: none); the
    next row."""
    count = np.zeros(shape, np.int64)
    for k in range(set_start[s0], set_start[s1]):
        if slot_colour[k] < -1:
            count[-2 - slot_colour[k], slot_number[k] - 1] += 1
    rows = np.full(shape, -1, np.int64)
    for c in range(shape[0]):
        for v in range(shape[1]):
            if count[c, v] > 0:
                rows[c, v] = first
                first += 1
    return count, rows, first


@njit(cache=True)
def cheaper_rows(y, row, run_row):
    """The tiles' rows for runs (``row``, or ``run_row`` where there is one, -1 where none)
    where the duals ``y`` price it lower: what a run's slot takes."""
    if run_row.max() < 0:
        return row
    runs = row.copy()
    for c in range(row.shape[0]):
        for v in range(row.shape[1]):
            r = run_row[c, v]
            if r >= 0 and (row[c, v] < 0 or y[r] < y[row[c, v]]):
                runs[c, v] = r
    return runs


@njit(cache=True)
def without_held_places(mode, chosen, slot_colour, set_start, s0, s1):
    """``mode`` without the places of the table jokers of the sets held out (``chosen[i]``
    1 for set ``s0 + i``; places in the table's joker order, :func:`engines.rummikub.rules.
    joker_places`'): the rule of the rest of the table.  Each held-out joker stays at its
    own place, so a move of the rest under this rule, with those sets kept, is a move of
    the whole (a matching that gives a held-out joker's place to another joker is not
    looked at: a move only it allows is left to the held-out passes)."""
    joker = 0
    for i in range(s1 - s0):
        for k in range(set_start[s0 + i], set_start[s0 + i + 1]):
            if slot_colour[k] < 0:
                if chosen[i] and joker < PLACES:
                    mode &= ~(np.int64(1023) << place_at(joker))
                joker += 1
    return mode


@njit(cache=True)
def held_places_proven(mode, chosen, slot_colour, set_start, s0, s1):
    """Whether the rest of the table's rule (:func:`without_held_places`) loses no move
    that keeps the sets ``chosen``: each held-out table joker's place serves none of the
    released table jokers, or only those that may take whatever it may (a run joker of the
    same tile; a group joker of its number whose group lacks every colour its own lacks).

    A move keeping the chosen sets, valid, matches each table joker to a place or tile it
    may take (a held-out joker standing where it stood is its own place's).  Where a
    released joker took a held-out one's place and that one took something else, the two
    swap: the held-out joker at its own place for good, the released one where it was (a
    place it may take, by the condition); repeated, no released joker is left on a
    held-out place, and the held-out jokers not at their own take them (free now).  The
    rest's move is then valid under its own rule.  Two group jokers of one number whose
    missing colours differ may not swap (the held-out one's tile is not the other's):
    not proven then, nor with more table jokers than the rules integer places."""
    held = np.zeros(PLACES, np.int64)  # (by joker: 1 held out, 0 released)
    joker = 0
    for i in range(s1 - s0):
        for k in range(set_start[s0 + i], set_start[s0 + i + 1]):
            if slot_colour[k] < 0:
                if joker == PLACES:
                    return False
                held[joker] = chosen[i]
                joker += 1
    for h in range(joker):
        mine = place_of(mode, h)
        if not held[h] or not place_in_group(mine):
            continue  # (a run joker's place: only a joker of the same tile takes it)
        for r in range(joker):
            other = place_of(mode, r)
            if (not held[r] and place_in_group(other)
                    and place_number(mine) == place_number(other)
                    and place_colours(mine) & ~place_colours(other) != 0):
                return False
    return True
