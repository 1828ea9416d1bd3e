"""Hand evaluation: HCP, controls, shape, losing tricks, quick tricks and Kaplan–Rubens.

Every function takes a :class:`~engines.bridge.cards.Hand` (and returns a
Python number), or an array of suit masks whose last axis is the four suits
``S H D C`` (and returns an array over the leading axes): ``uint16[4]`` for
one hand, ``uint16[4, 4]`` for a deal (one value per seat ``N E S W``),
``uint16[n, 4, 4]`` for ``n`` deals, as the dealer produces them.  A
:class:`~engines.bridge.cards.Deal` is taken as its ``4 × 4`` masks.  The
work is a lookup in a table indexed by the 13-bit suit mask (built once),
so evaluating a million deals costs milliseconds.

Definitions (each function's docstring gives its source):

==================  ============================================================
``hcp``             Milton Work count: A 4, K 3, Q 2, J 1.
``controls``        A 2, K 1.
``suit_lengths``    cards per suit, ``S H D C``; ``shape`` the same sorted longest first.
``shape_class``     :class:`ShapeClass`: balanced 4333 4432 5332; semi-balanced the
                    other shapes without a singleton or void (5422 6322 7222);
                    then three-, two- or single-suited by the number of 4+ suits.
``losers``          losing-trick count, ``variant="ltc"`` (basic) or ``"nltc"`` (new).
``quick_tricks``    AK 2, AQ 1½, A 1, KQ 1, Kx ½ per suit.
``cccc``            Kaplan and Rubens' "four Cs" count.
==================  ============================================================

>>> from engines.bridge.cards import Deal, Hand
>>> hand = Hand.from_pbn("AKJ4.Q93.K82.T76")
>>> hcp(hand), controls(hand), losers(hand), losers(hand, "nltc"), quick_tricks(hand)
(13, 4, 8, 8.0, 2.5)
>>> cccc(hand), shape_class(hand).name
(12.6, 'BALANCED')
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> hcp(deal).tolist(), suit_lengths(deal)[3].tolist()
([10, 10, 10, 10], [0, 4, 4, 5])
"""

from __future__ import annotations

import functools
from enum import IntEnum
from typing import Any

import numpy as np

from engines.bridge.cards import Deal, Hand
from engines.bridge.seats import BridgeInputError

__all__ = [
    "ShapeClass",
    "cccc",
    "controls",
    "hcp",
    "is_balanced",
    "is_semi_balanced",
    "losers",
    "quick_tricks",
    "shape",
    "shape_class",
    "suit_lengths",
]

_MASKS = np.arange(1 << 13, dtype=np.int64)
_ACE, _KING, _QUEEN, _JACK, _TEN, _NINE, _EIGHT = (1 << b for b in (12, 11, 10, 9, 8, 7, 6))


def _has(mask: np.ndarray, bit: int) -> np.ndarray:
    return (mask & bit) != 0


@functools.cache
def _suit_tables() -> dict[str, np.ndarray]:
    """Per-suit values for every 13-bit holding (computed on first use, ~1 ms)."""
    m = _MASKS
    a, k, q, j = (_has(m, bit).astype(np.int64) for bit in (_ACE, _KING, _QUEEN, _JACK))
    length = np.array([int(x).bit_count() for x in range(1 << 13)], dtype=np.int64)
    ab, kb, qb = a == 1, k == 1, q == 1
    tables = {
        "length": length,
        "hcp": 4 * a + 3 * k + 2 * q + j,
        "controls": 2 * a + k,
        # losers among the top min(length, 3) honours A, K, Q; NLTC weights them 3/2/1 halves
        "ltc": (length >= 1) * (1 - a) + (length >= 2) * (1 - k) + (length >= 3) * (1 - q),
        "nltc2": 3 * (length >= 1) * (1 - a)
        + 2 * (length >= 2) * (1 - k)
        + (length >= 3) * (1 - q),
        "qt2": np.select(
            [ab & kb, ab & qb, ab, kb & qb, kb & (length >= 2)], [4, 3, 2, 2, 1], default=0
        ),
        "cccc100": _cccc_suit_table(length),
    }
    return {name: np.ascontiguousarray(t, dtype=np.int32) for name, t in tables.items()}


def _cccc_suit_table(length: np.ndarray) -> np.ndarray:
    """One suit's Kaplan–Rubens value ×100 (the hand adds −1, or −½ for 4333).

    Richard Pavlicek's step-by-step statement of the October 1982 Bridge World
    article ("Kaplan-Rubens hand evaluation", rpbridge.net/8j19.htm), steps 1–26:
    a 4-3-2-1-½ count adjusted for tens, nines and long suits, times length/10;
    plus A 3, K 2 (singleton ½), Q 1 (¾ without A or K; doubleton ½ / ¼;
    singleton 0), J ½ / ¼ with two / one of A K Q, T ¼ with two of A K Q J or
    with the 9 and one of them; plus 3 / 2 / 1 for a void / singleton / doubleton.
    Values are integers in hundredths (every step is a multiple of 0.05).
    """
    m = _MASKS
    a, k, q, j = _has(m, _ACE), _has(m, _KING), _has(m, _QUEEN), _has(m, _JACK)
    t, nine, eight = _has(m, _TEN), _has(m, _NINE), _has(m, _EIGHT)
    top3 = a.astype(np.int64) + k + q  # honours above the jack
    top4 = top3 + j  # above the ten
    top5 = top4 + t  # above the nine
    # quality count in halves: A 8, K 6, Q 4, J 2, T 1
    halves = 8 * a + 6 * k + 4 * q + 2 * j + t.astype(np.int64)
    mid = (length >= 2) & (length <= 6)
    halves += mid & t & (j | (top4 >= 2))
    halves += mid & nine & (eight | t | (top5 == 2))
    halves += (length >= 4) & (length <= 6) & nine & ~(eight & t) & (top4 == 3)
    halves += 2 * ((length >= 7) & (~q | ~j))
    halves += 2 * ((length >= 8) & ~q)
    halves += 2 * ((length >= 9) & ~q & ~j)
    value = halves * length * 5  # (halves / 2) * (length / 10) * 100
    value += 300 * a
    value += np.where(k, np.where(length > 1, 200, 50), 0)
    with_higher = a | k
    queen_long = np.where(with_higher, 100, 75)
    queen_doubleton = np.where(with_higher, 50, 25)
    value += np.where(
        q & (length >= 3), queen_long, np.where(q & (length == 2), queen_doubleton, 0)
    )
    value += np.where(j & (top3 == 2), 50, np.where(j & (top3 == 1), 25, 0))
    value += np.where(t & (top4 == 2), 25, 0) + np.where(t & nine & (top4 == 1), 25, 0)
    value += np.select([length == 0, length == 1, length == 2], [300, 200, 100], default=0)
    return value


def _masks(hands: Any) -> tuple[np.ndarray, bool]:
    """``(masks, scalar)``: the suit masks as an integer array with last axis 4."""
    if isinstance(hands, Hand):
        return np.asarray(hands.masks, dtype=np.int64), True
    if isinstance(hands, Deal):
        return np.asarray(hands.masks(), dtype=np.int64), False
    array = np.asarray(hands)
    if array.ndim == 0 or array.shape[-1] != 4 or not np.issubdtype(array.dtype, np.integer):
        raise BridgeInputError(
            f"expected a Hand, a Deal or integer suit masks with last axis 4, got "
            f"{type(hands).__name__} of shape {getattr(array, 'shape', ())}"
        )
    if array.size and (array.min() < 0 or array.max() >= 1 << 13):
        raise BridgeInputError("suit masks must be 13-bit values (0..8191)")
    return array, False


def _per_suit(table: str, hands: Any) -> tuple[np.ndarray, bool]:
    masks, scalar = _masks(hands)
    return _suit_tables()[table][masks], scalar


def _total(table: str, hands: Any, scale: float = 1.0) -> Any:
    values, scalar = _per_suit(table, hands)
    total = values.sum(axis=-1)
    if scale != 1.0:
        total = total / scale
    if scalar:
        return total.item()
    return total


def hcp(hands: Any) -> Any:
    """High-card points, A 4 K 3 Q 2 J 1 (Milton Work's count; endplay ``hcp``).

    >>> hcp(Hand.from_pbn("AKQJ.AKQ.AKQ.AKQ")), hcp(Hand.from_pbn("T98.765.5432.432"))
    (37, 0)
    """
    return _total("hcp", hands)


def controls(hands: Any) -> Any:
    """Controls, A 2 K 1 (used in slam bidding; endplay ``controls``).

    >>> controls(Hand.from_pbn("AK2.K32.5432.432"))
    4
    """
    return _total("controls", hands)


def suit_lengths(hands: Any) -> Any:
    """Cards per suit in the order ``S H D C`` (a tuple for a Hand, else an array)."""
    values, scalar = _per_suit("length", hands)
    return tuple(values.tolist()) if scalar else values


def shape(hands: Any) -> Any:
    """Suit lengths sorted longest first, e.g. ``(4, 4, 3, 2)``.

    >>> shape(Hand.from_pbn("A2.KQ32.J5432.43"))
    (5, 4, 2, 2)
    """
    values, scalar = _per_suit("length", hands)
    ordered = -np.sort(-values, axis=-1)
    return tuple(ordered.tolist()) if scalar else ordered


class ShapeClass(IntEnum):
    """Hand patterns by the usual bridge terms (Wikipedia, "Balanced hand").

    ``BALANCED``: 4333, 4432, 5332.  ``SEMI_BALANCED``: no singleton or void
    and not balanced (5422, 6322, 7222).  The rest hold a singleton or void
    and are named by their number of suits of four or more cards:
    ``THREE_SUITED`` (4441, 5440), ``TWO_SUITED`` (5431, 5521, 6421, …),
    ``SINGLE_SUITED`` (6331, 7321, 8221, …).
    """

    BALANCED = 0
    SEMI_BALANCED = 1
    SINGLE_SUITED = 2
    TWO_SUITED = 3
    THREE_SUITED = 4


def _shape_classes(lengths: np.ndarray) -> np.ndarray:
    shortest = lengths.min(axis=-1)
    longest = lengths.max(axis=-1)
    doubletons = (lengths == 2).sum(axis=-1)
    four_plus = (lengths >= 4).sum(axis=-1)
    balanced = (shortest >= 2) & (doubletons <= 1) & (longest <= 5)
    semi = (shortest >= 2) & ~balanced
    return np.select(
        [balanced, semi, four_plus >= 3, four_plus == 2],
        [
            ShapeClass.BALANCED,
            ShapeClass.SEMI_BALANCED,
            ShapeClass.THREE_SUITED,
            ShapeClass.TWO_SUITED,
        ],
        default=ShapeClass.SINGLE_SUITED,
    ).astype(np.int8)


def shape_class(hands: Any) -> Any:
    """The :class:`ShapeClass` of each hand (an ``int8`` array of its values for arrays).

    >>> [shape_class(Hand.from_pbn(h)).name for h in ("AK2.K32.5432.432", "AKQ32.K32.54.43")]
    ['BALANCED', 'SEMI_BALANCED']
    """
    values, scalar = _per_suit("length", hands)
    classes = _shape_classes(values)
    return ShapeClass(int(classes)) if scalar else classes


def is_balanced(hands: Any) -> Any:
    """4333, 4432 or 5332 (see :class:`ShapeClass`)."""
    result = shape_class(hands)
    return result == ShapeClass.BALANCED


def is_semi_balanced(hands: Any) -> Any:
    """5422, 6322 or 7222: no singleton or void, but not balanced."""
    result = shape_class(hands)
    return result == ShapeClass.SEMI_BALANCED


def losers(hands: Any, variant: str = "ltc") -> Any:
    """The losing-trick count (Wikipedia, "Losing-Trick Count").

    ``"ltc"`` (basic count, F. Dudley Courtenay 1934; endplay ``losers``): in
    each suit, one loser for each of A, K, Q missing among the top
    ``min(length, 3)`` places (void 0; singleton: 0 for the ace, else 1;
    doubleton: AK 0, Ax or Kx 1, else 2; longer: 3 minus A, K, Q held).
    ``"nltc"`` (New Losing-Trick Count, Ron Klinger): the same places, but a
    missing ace costs 1½, a king 1 and a queen ½.

    >>> hand = Hand.from_pbn("KQ2.A.QJ432.8765")
    >>> losers(hand), losers(hand, "nltc")
    (6, 7.0)
    """
    if variant == "ltc":
        return _total("ltc", hands)
    if variant == "nltc":
        return _total("nltc2", hands, scale=2.0)
    raise BridgeInputError(f"unknown losing-trick variant {variant!r}; expected 'ltc' or 'nltc'")


def quick_tricks(hands: Any) -> Any:
    """Quick (defensive) tricks per Culbertson: AK 2, AQ 1½, A 1, KQ 1, K with another card ½.

    At most two per suit (AKQ counts 2); a singleton king counts nothing.

    >>> quick_tricks(Hand.from_pbn("AKQ.AQ2.K5.KJ432"))
    4.5
    """
    return _total("qt2", hands, scale=2.0)


def cccc(hands: Any) -> Any:
    """Kaplan and Rubens' hand evaluation ("CCCC", The Bridge World, October 1982).

    Follows Richard Pavlicek's step-by-step statement of the algorithm
    (rpbridge.net/8j19.htm), as endplay's ``cccc`` does: the sum of each
    suit's value (see ``_cccc_suit_table``), minus 1, or minus ½ for a 4333
    hand.  Values are exact to the hundredth.  Dealer's ``cccc`` differs in a
    few details (e.g. its treatment of tens in long suits).

    >>> cccc(Hand.from_pbn("AQ2.KJ32.A54.432")), cccc(Hand.from_pbn("AKJT98.K2.432.2"))
    (13.35, 15.8)
    """
    values, scalar = _per_suit("cccc100", hands)
    lengths = _suit_tables()["length"][_masks(hands)[0]]
    square = (-np.sort(-lengths, axis=-1) == np.array([4, 3, 3, 3])).all(axis=-1)
    total = (values.sum(axis=-1) - np.where(square, 50, 100)) / 100.0
    return total.item() if scalar else total
