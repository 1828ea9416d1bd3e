"""Input checks done inside the batch kernels, reported as codes (kernels never raise).

A batch kernel checks each row while it reads it and writes one error code
per row (0 = clean): ``kind * 64 + card``, the smallest kind found in the
row and the first card where that kind shows.  The engine turns the first
bad row into an :class:`~engines.shengji.cards.ShengjiInputError`, so the
check costs one pass the kernel makes anyway instead of separate NumPy
passes before the call.

Kinds are numbered in the order the engine reports them.
"""

from __future__ import annotations

from numba import njit

from solvers.shengji._bits import lowest_bit

BAD_COUNT_0 = 1  # a count outside 0–2 in the first count array of the row (hand or lead)
BAD_COUNT_1 = 2  # … in the second (lead or others[0])
BAD_COUNT_2 = 3  # … in the third
BAD_COUNT_3 = 4  # … in the fourth
BAD_COUNT_4 = 5  # … in the fifth (the fourth play of a trick)
EMPTY_LEAD = 6  # the lead holds no cards
MIXED_LEAD = 7  # the lead mixes effective suits
TOO_MANY = 8  # more than two copies of a card in the arrays that share a deck
CARD_BITS = 64


@njit(cache=True, nogil=True, inline="always")
def note_error(err, kind, card):
    """Keep the smaller error kind of a row (the first card of that kind: cards are scanned
    in order, so a later card of the same kind never replaces an earlier one)."""
    if err == 0 or kind < err // CARD_BITS:
        return kind * CARD_BITS + card
    return err


@njit(cache=True, nogil=True, inline="always")
def bad_counts(err, kind, bad):
    """Note a count-range error of kind ``kind`` when mask ``bad`` has a card."""
    if bad:
        return note_error(err, kind, lowest_bit(bad))
    return err


@njit(cache=True, nogil=True, inline="always")
def check_lead(err, lead_held, esuit_t, mask_t, k):
    """Note an empty or mixed lead; return ``(err, effective suit of the lead or 0)``."""
    if lead_held == 0:
        return note_error(err, EMPTY_LEAD, 0), 0
    s = esuit_t[k, lowest_bit(lead_held)]
    mixed = lead_held & ~mask_t[k, s]
    if mixed:
        err = note_error(err, MIXED_LEAD, lowest_bit(mixed))
    return err, s


@njit(cache=True, nogil=True, inline="always")
def add_to_deck(at_least1, at_least2, at_least3, held, twice):
    """Add one set ``(held, twice)`` to saturating per-card counters (masks of the cards
    with at least 1, 2 and 3 copies so far)."""
    at_least3 |= (at_least2 & held) | (at_least1 & twice)
    at_least2 |= (at_least1 & held) | twice
    at_least1 |= held
    return at_least1, at_least2, at_least3


@njit(cache=True, nogil=True, inline="always")
def deck_error(err, at_least3):
    """Note more than two copies of a card across arrays that share the two decks."""
    if at_least3:
        return note_error(err, TOO_MANY, lowest_bit(at_least3))
    return err
