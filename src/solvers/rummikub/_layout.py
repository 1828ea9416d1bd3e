"""The board and the DP's state key: sizes, bit positions, and the score sentinels.

A state between number v-1 and v records, per colour, how many open runs end at v-1 with
length 1, 2 and >= 3 (``a1, a2, a3``, up to four runs per colour with jokers) as the code
``a1 + 5*a2 + 25*a3``.  Key bits: colour c's code at ``7*c`` (28 bits), jokers placed so
far (``ju``) at 28, inside a number the colours that gave one / two tiles to groups
(``n1``, ``n2``) at 30 and 33, the initial-meld value so far (capped at the threshold,
7 bits) at 36, and inside a number the jokers that the short runs of the colours done so
far will need at number+1, at 43.  With two real tiles per set, the runs that hold a joker
and fewer than two real tiles are kept out of the colour codes and listed at 45
(:data:`SHORT_AT`: two 5-bit slots, with three jokers a third in the second word, with
three copies the whole list there, see
:mod:`solvers.rummikub._dp`); with sets of two tiles the same bits (45-52) hold the runs
of jokers alone (:func:`solvers.rummikub._lengths.bare_step`).

The rules reach the kernels as one integer per position, ``meld`` (:func:`rules_mode`):
its low two bits are 0 when the player has melded, else 1 (the default initial meld: 30,
jokers count; the value older callers pass) or 2 (:func:`meld_mode` of the threshold and
whether a joker counts as the tile it stands for; decoded by :func:`meld_target` and
:func:`joker_meld_factor`).  Bit 10 asks for two real tiles per set, bits 11-14 give the
highest number when it is below 13 (:func:`highest_number`).  Under official joker
retrieval, bits 15-34, 42-51 and 52-61 hold the places of the table's jokers
(:func:`joker_place`, read by :func:`place_of`): each must
end the turn there (a joker in a run at its tile, in a group at its number) or be replaced
by a rack tile it may stand for, played that turn; the key's bits 55-57 then record, inside
the number, which of its table jokers the choices so far can account for (with three
table jokers at one number, the subsets holding the third at 49-52: :data:`COVER_HIGH_AT`;
in a pass with the second key word, whose first word's bits 45-54 then hold the copies'
group counts or the runs short of real tiles, at its :data:`COVER_PAIRED_AT`; with four,
the subsets holding the third or the fourth there, 12 bits: a fourth joker's passes
always carry that word).  Bit 35 asks for
meld then continue, bits 36-38 and 41 give the minimum set length when it is not 3
(:func:`min_set_length`: 2, 4 .. 13; past 5 a colour code needs up to 12 bits,
:func:`code_at`: the second key word below), bits 39-40 the copies of each tile beyond two
(:func:`copies`; the colours that gave three tiles to a number's groups are then counted
at :data:`N3_AT`, four tiles at :data:`N4_AT`; with four copies, or three copies and three
jokers, a colour's six or seven open runs are numbered by :func:`solvers.rummikub._lengths.
length_tables`, 84 or 120 codes, so the colour code keeps its 7 bits).

The second key word (*word B*): a pass whose variant needs more than these 64 bits carries
a second int64 a state (:func:`second_word` decides per pass; the DP's sub-step then gets
the words as an array, else None, so Numba compiles the rules document's and the other
house rules' sub-steps without it).  Its fields, by the variant that uses them (a field
may be shared by variants that never come together: the rules refuse those by name):

- bits 0-19, sets of 6+ tiles (:data:`WIDE_HIGH_AT`): colour c's code from its 8th bit on
  at ``5 * c`` (codes up to 4,095; sets of 13 need 2,380);
- bits 20-30, four jokers (sets of 3+, never with sets of 6+: the rules refuse it): the
  jokers placed' third bit at :data:`JOKERS_HIGH_AT` (the low two stay at
  :data:`JOKERS_AT`), and at :data:`RISKY_AT` two 5-bit slots (``colour << 3 | length``,
  the length 1..3, 3 meaning 3 or more; 0: empty) listing the runs of jokers alone that
  could still end as a set of jokers alone (:mod:`solvers.rummikub._risky`);
- bits 31-35, two real tiles per set with a third joker (sets of 3, never with sets of 6+:
  the rules refuse it): the third slot of the list of runs short of real
  tiles (:data:`SHORT_HIGH_AT`; the first two stay at :data:`SHORT_AT`,
  :func:`solvers.rummikub._real2.short_kinds3`);
- bits 31-45, two real tiles per set with three or four copies, or four jokers (sets
  of 3): the whole list (four jokers: its first three slots), its three slots from
  :data:`SHORT_HIGH_AT` (the first word's
  :data:`SHORT_AT` bits hold :data:`N3_AT` and :data:`N4_AT` then, the list's there stay 0;
  six or seven open runs a colour: :func:`solvers.rummikub._real2.long_joker_runs3`);
- bits 46-49, official retrieval with three table jokers at one number (sets of 3, never
  with sets of 6+), in a pass with this word (two real tiles per set, four jokers, or
  three or four copies with three places at one number: :func:`second_word`): the cover's
  subsets holding the third joker (:data:`COVER_PAIRED_AT`; :data:`COVER_HIGH_AT` in the
  first word elsewhere); with four table jokers at one number (four jokers: up to three
  copies), bits 46-57 (:data:`COVER_PAIRED_BITS`): the cover's
  subsets holding the third or the fourth (those with the fourth from bit 50);
- bits 58-62, two real tiles per set with four jokers (up to three copies, sets of 3): the
  fourth slot of the list of runs short of real tiles (:data:`SHORT_FOURTH_AT`; the first
  three from :data:`SHORT_HIGH_AT`, the first word's :data:`SHORT_AT` bits stay 0; the
  four jokers' :data:`RISKY_AT` slots stay 0: the list holds the runs of jokers alone,
  :func:`solvers.rummikub._real2_four.long_joker_runs4`): no bit is free.  To claim bits,
  add a named ``..._AT`` constant (and width) here beside the others, make
  :func:`second_word` true for the variants that use them, and refuse in
  ``engines/rummikub/rules.py`` the combinations whose fields overlap.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NCOL = 4
NNUM = 13
MELD_TARGET = 30

COLOUR_BITS = 7
JOKERS_AT = 28
N1_AT = 30
N2_AT = 33
MELD_AT = 36
MELD_MASK = 127  # thresholds up to 127
NEED_AT = 43
SHORT_AT = 45  # runs with a joker and under two real tiles (two 5-bit slots)
COVER_AT = 55  # inside a number: which table jokers its choices so far can account for
# Least disturbance (melded positions only, so the meld value's 7 bits are free): which
# table sets covering the number are held out, 7 bits at MELD_AT and 5 at HOLD_HIGH_AT.
HOLD_BITS = 12
HOLD_HIGH_AT = 58
HOLD_KEY_MASK = np.int64(MELD_MASK << MELD_AT | 31 << HOLD_HIGH_AT)
REAL2_BIT = 10
NUMBERS_AT = 11
OFFICIAL_AT = 15  # in the rules integer: the first two 10-bit table-joker places
OFFICIAL_THIRD_AT = 42  # ... and the third (three jokers), past the other rules' bits
OFFICIAL_FOURTH_AT = 52  # ... and the fourth (four jokers), past the third's
PLACES = 4  # the table jokers' places the rules integer holds
# (the places' bits read from OFFICIAL_AT: none set under free retrieval or no joker)
OFFICIAL_PLACES = ((1 << 20) - 1 | 1023 << (OFFICIAL_THIRD_AT - OFFICIAL_AT)
                   | 1023 << (OFFICIAL_FOURTH_AT - OFFICIAL_AT))
COVER_HIGH_AT = 49  # three table jokers at a number: the cover's subsets holding the third
CONTINUE_AT = 35  # in the rules integer: meld then continue (solvers.rummikub._continue)
LENGTH_AT = 36  # in the rules integer: the minimum set length when not 3 (3 bits)
COPIES_AT = 39  # in the rules integer: the copies of each tile beyond two (2 bits)
# three copies: inside a number, the colours that gave three tiles to groups (beside the run
# of three jokers alone at SHORT_AT, 4 bits)
N3_AT = SHORT_AT + 4
N4_AT = N3_AT + 3  # four copies: ... and four tiles
# The second key word (word B): sets of 6+ tiles keep their colour codes' high bits there
WIDE_HIGH_AT = 0
WIDE_HIGH_BITS = 5  # a colour's code bits 7..11 (codes up to 4,095)
# Four jokers (word B): the third bit of the jokers placed, and the risky runs' two slots
JOKERS_HIGH_AT = 20
RISKY_AT = 21
RISKY_SLOT_BITS = 5
# Two real tiles per set and three jokers (word B): the third slot of the short runs' list
# (three copies: the whole list, 15 bits from here)
SHORT_HIGH_AT = 31
# ... and with four jokers (word B): the list's fourth slot (its first three from
# SHORT_HIGH_AT, as with three copies)
SHORT_FOURTH_AT = 58
# Official retrieval, three or four table jokers at one number, two key words: the cover's
# subsets holding the third or fourth (4 bits, and 8 more past them for the 8 subsets holding
# the fourth, in the four jokers' passes only; COVER_HIGH_AT in one-word passes)
COVER_PAIRED_AT = 46
COVER_PAIRED_BITS = 12
LENGTH_HIGH_AT = 41  # in the rules integer: the minimum set length's fourth bit (8..12)
LENGTH_MASK = np.int64(7 << LENGTH_AT | 1 << LENGTH_HIGH_AT)

NEG = np.int64(-(2**62))  # the score of "no arrangement"
NO_BEAM = np.int64(0)
NO_CAP = np.int64(2**62)  # no known bound on the optimum
# States per layer kept by the heuristic beam pass (50..1000 measured alike on the slow
# corpus positions; small enough that the pass costs little next to the exact one).  The
# search for an arrangement that reaches the whole-rack target keeps BEAM // 4 = 32
# (16..64 measured alike on the bench bands and the corpus).
BEAM = 128


def meld_mode(threshold: int = MELD_TARGET, jokers_count: bool = True) -> int:
    """The kernels' ``meld`` for an initial meld worth ``threshold`` (0..127).

    >>> meld_mode(), meld_mode(30, False), meld_target(meld_mode(0)), meld_target(1)
    (1, 634, 0, 30)
    """
    if threshold == MELD_TARGET and jokers_count:
        return 1
    return 2 | threshold << 2 | (0 if jokers_count else 1) << 9


def rules_mode(melded: bool, threshold: int = MELD_TARGET, jokers_count: bool = True,
               min_real: int = 1, numbers: int = NNUM, joker_places: tuple = (),
               meld_continue: bool = False, min_length: int = 3, copies: int = 2) -> int:
    """The kernels' ``meld`` for a position: melded or not, and the house rules the DP
    solves (initial meld, real tiles per set, highest number 1..13, the places of the table
    jokers under official retrieval: up to four :func:`joker_place` values, meld then
    continue: the table's tiles are then the arrangement's too, as for a melded player;
    the minimum set length, 3 to 5: :mod:`solvers.rummikub._lengths`; ``copies`` of each
    tile, 1 to 4).

    >>> rules_mode(True), rules_mode(False), rules_mode(True, min_real=2, numbers=10)
    (0, 1, 21504)
    >>> rules_mode(False, meld_continue=True) == 1 | 1 << CONTINUE_AT
    True
    """
    if meld_continue and not melded and threshold == 0:
        melded = True  # any first play may touch the table: a melded player's turn
    mode = 0 if melded else meld_mode(threshold, jokers_count)
    if mode == 1 and (min_real != 1 or numbers != NNUM or min_length != 3 or copies > 2):
        mode = 2 | MELD_TARGET << 2
    if min_real == 2:
        mode |= 1 << REAL2_BIT
    if numbers != NNUM:
        mode |= numbers << NUMBERS_AT
    if joker_places and mode & 3 == 1:
        mode = 2 | MELD_TARGET << 2
    for i, place in enumerate(joker_places):
        # (place_at's formula as Python: compiled, njit keeps it as ``py_func``; without
        # the JIT, njit returns the function itself)
        mode |= place << getattr(place_at, "py_func", place_at)(i)
    if meld_continue and not melded:
        mode |= 1 << CONTINUE_AT
    if min_length != 3:
        mode |= (min_length & 7) << LENGTH_AT | (min_length >> 3) << LENGTH_HIGH_AT
    if copies > 2:
        mode |= (copies - 2) << COPIES_AT
    return mode


def joker_place(number: int, colour: int = -1, missing: int = 0) -> int:
    """One table joker's place for :func:`rules_mode`: a run joker standing for ``colour``
    ``number``, or (``colour`` -1) a group joker at ``number`` whose group lacks the colours
    of bit mask ``missing``.

    >>> joker_place(6, 1), joker_place(5, missing=0b1100)
    (85, 787)
    """
    if colour >= 0:
        return 1 | (number - 1) << 2 | colour << 6
    return 1 | 2 | (number - 1) << 2 | missing << 6


@njit(cache=True, inline="always")
def place_at(k):
    """The rules integer's bit where table joker ``k``'s place (:func:`joker_place`) starts."""
    return OFFICIAL_AT + 10 * k if k < 2 else OFFICIAL_THIRD_AT + 10 * (k - 2)


@njit(cache=True, inline="always")
def place_of(meld, k):
    """Table joker ``k``'s place in rules ``meld`` (0: none)."""
    return (meld >> place_at(k)) & 1023


@njit(cache=True, inline="always")
def place_number(place):
    """The number - 1 of a table joker's place (:func:`joker_place`: bits 2-5)."""
    return (place >> 2) & 15


@njit(cache=True, inline="always")
def place_colours(place):
    """A place's colours (from bit 6): a run joker's colour; a group joker's group's missing
    colours, a bit mask (:func:`place_in_group` tells which)."""
    return place >> 6


@njit(cache=True, inline="always")
def place_in_group(place):
    """Whether a place is a group joker's (bit 1)."""
    return place & 2 != 0


@njit(cache=True, inline="always")
def meld_target(meld):
    """The value the initial meld must reach (``meld & 3`` > 0)."""
    if meld & 3 == 1:
        return MELD_TARGET
    return (meld >> 2) & MELD_MASK


@njit(cache=True, inline="always")
def joker_meld_factor(meld):
    """1 if a joker counts as the tile it stands for towards the initial meld, else 0."""
    if meld & 3 == 1:
        return 1
    return 1 - ((meld >> 9) & 1)


@njit(cache=True, inline="always")
def highest_number(meld):
    """The highest tile number of the rules (13 unless ``meld`` says fewer)."""
    numbers = (meld >> NUMBERS_AT) & 15
    return NNUM if numbers == 0 else numbers


@njit(cache=True, inline="always")
def min_set_length(meld):
    """The shortest set of the rules (3 unless ``meld`` says otherwise)."""
    length = (meld >> LENGTH_AT) & 7 | ((meld >> LENGTH_HIGH_AT) & 1) << 3
    return 3 if length == 0 else length


@njit(cache=True, inline="always")
def copies(meld):
    """The most copies of a tile the DP's codes must hold: 2, or 3 or 4 if ``meld`` says so."""
    return 2 + ((meld >> COPIES_AT) & 3)


@njit(cache=True, inline="always")
def hold_field(key):
    """The held-out table sets' bits (:data:`HOLD_BITS`) of state ``key``."""
    return (key >> MELD_AT) & MELD_MASK | ((key >> HOLD_HIGH_AT) & 31) << 7


@njit(cache=True, inline="always")
def hold_key(field):
    """The key bits of held-out field ``field`` (the inverse of :func:`hold_field`)."""
    return (field & MELD_MASK) << MELD_AT | (field >> 7) << HOLD_HIGH_AT


@njit(cache=True, inline="always")
def colour_code(key, c):
    """Colour ``c``'s open-run code ``a1 + 5*a2 + 25*a3`` in state ``key``."""
    return (key >> (COLOUR_BITS * c)) & 127


@njit(cache=True, inline="always")
def second_word(meld, jokers=2):
    """Whether a pass under rules ``meld`` with ``jokers`` jokers carries the second key
    word: sets of 6+ tiles (colour codes past 127), four jokers, or two real tiles per set
    with three jokers (a third run short of real tiles listed) or three or four copies (the
    list leaves :data:`N3_AT`'s bits), or three or four copies with three table jokers at
    one number under official retrieval (the cover's high bits leave :data:`N3_AT`'s: at
    :data:`COVER_PAIRED_AT`)."""
    return min_set_length(meld) > 5 or jokers > 3 or (
        (jokers > 2 or copies(meld) > 2) and (meld >> REAL2_BIT) & 1 == 1) or (
        copies(meld) > 2 and three_places_at_one_number(meld))


@njit(cache=True, inline="always")
def three_places_at_one_number(meld):
    """Whether the rules integer places three table jokers, all at one number.

    >>> three_places_at_one_number(rules_mode(True, joker_places=(joker_place(5, 0),) * 3))
    True
    >>> three_places_at_one_number(rules_mode(True, joker_places=(85, 85, joker_place(7, 1))))
    False
    """
    third = place_of(meld, 2)
    return third != 0 and (place_number(place_of(meld, 0)) == place_number(third)
                           == place_number(place_of(meld, 1)))


@njit(cache=True, inline="always")
def code_at(key, key2, c, wide):
    """Colour ``c``'s code in state ``(key, key2)``; ``wide``: codes past 127 (sets of 6+
    tiles), whose bits from the 8th on are in the second word (``key2``) at
    :data:`WIDE_HIGH_AT`."""
    code = (key >> (COLOUR_BITS * c)) & 127
    if wide:
        code |= ((key2 >> (WIDE_HIGH_AT + WIDE_HIGH_BITS * c)) & 31) << 7
    return code


@njit(cache=True, inline="always")
def code_bits(code, c, wide=False):
    """The first key word's bits of colour ``c``'s code ``code`` (``wide``: its low 7 bits;
    else the code is below 128, and the one-word passes' code is as before the second word)."""
    if wide:
        code &= 127
    return np.int64(code) << (COLOUR_BITS * c)


@njit(cache=True, inline="always")
def code_high(code, c):
    """The second key word's bits of colour ``c``'s code ``code`` (the inverse of
    :func:`code_at` with :func:`code_bits`).

    >>> codes = ((5, 0), (300, 1), (2379, 3))
    >>> key = sum(int(code_bits(x, c, True)) for x, c in codes)
    >>> key2 = sum(int(code_high(x, c)) for x, c in codes)
    >>> [int(code_at(key, key2, c, True)) for c in range(4)], int(code_at(key, key2, 1, False))
    ([5, 300, 0, 2379], 44)
    """
    return np.int64(code >> 7) << (WIDE_HIGH_AT + WIDE_HIGH_BITS * c)
