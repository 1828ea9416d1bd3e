"""Cards of 双扣: tokens, parsing with named errors, count arrays.

A card is a suit letter (``S`` ``H`` ``D`` ``C``) and a rank (``3`` … ``10``,
``J``, ``Q``, ``K``, ``A``, ``2``), or a joker: ``LJ`` (small) and ``BJ``
(big).  ``SJ`` is the jack of spades.  Two decks: each token exists twice, so
a hand is a multiset in which no token appears more than twice.

Internally a set of cards is a ``(15, 4)`` ``uint8`` count array (rank value ×
suit; jokers in column 0 of ranks 13 and 14), the kernels' input.

Example:
    >>> from engines.shuangkou.cards import parse_cards, card_names
    >>> card_names(parse_cards("H3 s3 LJ S10 S3"))
    ['S3', 'S3', 'H3', 'S10', 'LJ']
    >>> parse_cards("S3 S3 S3")
    Traceback (most recent call last):
    ...
    engines.shuangkou.errors.ThirdCopyError: cards: S3 appears 3 times; each card exists ...
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from engines.arguments import as_list
from engines.shuangkou.errors import (
    CardTextError,
    DealError,
    FifthJokerError,
    ShuangkouInputError,
    ThirdCopyError,
)

RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "LJ", "BJ")
SUITS = "SHDC"
RANK_VALUE = {name: value for value, name in enumerate(RANKS)}
SMALL_JOKER, BIG_JOKER = 13, 14

CardsLike = str | Iterable[str] | Iterable["Card"] | np.ndarray


@dataclass(frozen=True, order=True)
class Card:
    """One card: rank value 0–14 (3 … A, 2, LJ, BJ) and suit index 0–3 (S, H, D, C;
    0 for a joker).  Ordered by rank, then suit (the display order).

    >>> Card.parse("h10")
    Card(rank=7, suit=1)
    >>> str(Card(13, 0))
    'LJ'
    """

    rank: int
    suit: int

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written ``text``; raises :class:`CardTextError` naming the token."""
        token = text.strip().upper()
        if token in ("LJ", "BJ"):
            return cls(RANK_VALUE[token], 0)
        if (
            len(token) >= 2
            and token[0] in SUITS
            and token[1:] in RANK_VALUE
            and token[1:]
            not in (
                "LJ",
                "BJ",
            )
        ):
            return cls(RANK_VALUE[token[1:]], SUITS.index(token[0]))
        hint = ""
        if token in ("SJ", "RJ", "JO", "JOKER"):
            hint = " (jokers are LJ and BJ; SJ is the jack of spades)"
        elif token[1:] == "T":
            hint = " (write the ten as 10, e.g. S10)"
        raise CardTextError(f"{text!r} is not a card{hint}: expected e.g. S10, HA, D2, C3, LJ, BJ")

    def __str__(self) -> str:
        if self.rank >= SMALL_JOKER:
            return RANKS[self.rank]
        return SUITS[self.suit] + RANKS[self.rank]

    @property
    def is_joker(self) -> bool:
        return self.rank >= SMALL_JOKER


_SEPARATORS = re.compile(r"[\s,]+")


def _tokens(cards: CardsLike) -> list[str | Card]:
    if isinstance(cards, str):
        return [t for t in _SEPARATORS.split(cards.strip()) if t]
    try:
        items = list(cards)
    except TypeError:
        raise CardTextError(f"expected cards as text or a list of cards, got {cards!r}") from None
    for item in items:
        if not isinstance(item, str | Card):
            raise CardTextError(f"expected a card, got {item!r}")
    return items


def parse_cards(cards: CardsLike, what: str = "cards") -> np.ndarray:
    """The ``(15, 4)`` count array of ``cards`` (text such as ``"S3 H3 LJ"``, a list of
    tokens or :class:`Card` objects, or a count array, which is checked and copied).

    Raises :class:`CardTextError` for a bad token, :class:`ThirdCopyError` for a
    third copy of a card and :class:`FifthJokerError` for more than four jokers;
    ``what`` names the input in the message.
    """
    if isinstance(cards, np.ndarray):
        return check_counts(cards, what)
    counts = np.zeros((15, 4), dtype=np.uint8)
    for token in _tokens(cards):
        try:
            card = token if isinstance(token, Card) else Card.parse(token)
        except CardTextError as exc:
            raise CardTextError(f"{what}: {exc}") from None
        counts[card.rank, card.suit] += 1
    _check_copies(counts, what)
    return counts


def check_counts(counts: np.ndarray, what: str = "cards") -> np.ndarray:
    """Validate a count array (shape, values 0–2, jokers in column 0) and return a copy."""
    arr = np.asarray(counts)
    if arr.shape != (15, 4):
        raise ShuangkouInputError(f"{what}: expected a (15, 4) count array, got shape {arr.shape}")
    if arr.dtype.kind not in "iu" or arr.min(initial=0) < 0:
        raise ShuangkouInputError(f"{what}: counts must be non-negative integers")
    if arr[13:, 1:].any():
        raise ShuangkouInputError(f"{what}: jokers belong in column 0 of ranks 13 and 14")
    out = arr.astype(np.uint8) if arr.max(initial=0) < 256 else arr
    _check_copies(out, what)
    return np.array(out, dtype=np.uint8)


def _check_copies(counts: np.ndarray, what: str) -> None:
    jokers = int(counts[13:, 0].sum())
    if jokers > 4:
        raise FifthJokerError(
            f"{what}: {jokers} jokers; the two decks hold only four (LJ LJ BJ BJ)"
        )
    over = np.argwhere(counts > 2)
    if len(over):
        r, s = (int(v) for v in over[0])
        raise ThirdCopyError(
            f"{what}: {Card(r, s)} appears {int(counts[r, s])} times; "
            "each card exists only twice (two decks)"
        )


def card_names(counts: np.ndarray) -> list[str]:
    """The tokens of a count array in display order (rank, then suit S, H, D, C)."""
    if not (
        isinstance(counts, np.ndarray)
        and counts.shape == (15, 4)
        and counts.dtype.kind in "iu"
        and counts.min() >= 0
        and counts.max() <= 2
    ):
        shown = counts.shape if isinstance(counts, np.ndarray) else repr(counts)[:100]
        raise CardTextError(f"expected a (15, 4) array of card counts 0..2, got {shown}")
    names = []
    for r in range(15):
        for s in range(4):
            names.extend([str(Card(r, s))] * int(counts[r, s]))
    return names


def format_cards(counts: np.ndarray) -> str:
    """Display text of a count array: ``"S3 S3 H3 LJ"`` (empty string for no cards)."""
    return " ".join(card_names(counts))


def full_deck() -> np.ndarray:
    """The 108 cards of two decks as a count array."""
    counts = np.full((15, 4), 2, dtype=np.uint8)
    counts[13:, 1:] = 0
    return counts


def deck_list() -> list[Card]:
    """The 108 cards of two decks, one :class:`Card` per physical card."""
    return [Card(r, s) for r in range(15) for s in range(4 if r < 13 else 1) for _ in range(2)]


def parse_hands(hands: Iterable[CardsLike], sizes: tuple[int, int] = (0, 27)) -> np.ndarray:
    """Four hands as a ``(4, 15, 4)`` array; raises :class:`DealError` when they hold
    more than two copies of a card together or a hand size is outside ``sizes``."""
    hands = as_list(hands, "hands", DealError)
    if len(hands) != 4:
        raise DealError(f"expected 4 hands, got {len(hands)}")
    arr = np.stack([parse_cards(h, f"hand {i}") for i, h in enumerate(hands)])
    for i in range(4):
        n = int(arr[i].sum())
        if not sizes[0] <= n <= sizes[1]:
            raise DealError(f"hand {i}: {n} cards; expected {sizes[0]}–{sizes[1]}")
    total = arr.sum(axis=0)
    try:
        _check_copies(total, "the four hands together")
    except ThirdCopyError as exc:
        raise DealError(str(exc)) from None
    return arr
