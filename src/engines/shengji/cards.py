"""Card text encoding (rules, section 1) and count vectors.

Tokens: suit letter then rank (``S10``, ``HA``, ``D2``, ``SJ`` = jack of
spades), ``LJ`` the small joker, ``BJ`` the big joker.  Internally a card is
an integer 0–53 (``suit * 13 + rank``, jokers 52 and 53) and a collection is
a count vector of 54 int8 entries, each 0–2.

Example:
    >>> parse_card("H10"), card_name(21), card_name(52)
    (21, 'H10', 'LJ')
    >>> cards_to_names(parse_cards("S10 HA S10"))
    ['S10', 'S10', 'HA']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from engines.shengji.errors import CardError, ShengjiInputError

SUITS = "SHCD"
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
LJ = 52
BJ = 53
N_CARDS = 54


def _names() -> list[str]:
    names = [s + r for s in SUITS for r in RANKS]
    return [*names, "LJ", "BJ"]


CARD_NAMES: tuple[str, ...] = tuple(_names())
_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}


def parse_card(token: str) -> int:
    """The card id of one token; raises :class:`CardError` naming the token."""
    if isinstance(token, str):
        key = token.strip().upper()
        if key in _INDEX:
            return _INDEX[key]
    raise CardError(f"unknown card {token!r} (expected e.g. S10, HA, D2, LJ, BJ)")


def card_name(card: int) -> str:
    """Text token of a card id."""
    return CARD_NAMES[card]


def parse_cards(cards: str | Iterable[str], what: str = "cards") -> np.ndarray:
    """A count vector (54 int8) from tokens (a list, or one string separated by spaces/commas).

    Raises :class:`ShengjiInputError` for an unknown token or a third copy of a card.
    """
    if isinstance(cards, str):
        tokens = cards.replace(",", " ").split()
    elif isinstance(cards, np.ndarray):
        return check_counts(cards, what)
    else:
        try:
            tokens = list(cards)
        except TypeError as exc:
            raise ShengjiInputError(f"{what}: expected a list of card names") from exc
    counts = np.zeros(N_CARDS, dtype=np.int8)
    for token in tokens:
        try:
            card = parse_card(token)
        except CardError as exc:
            raise CardError(f"{what}: {exc}") from None
        if counts[card] >= 2:
            raise ShengjiInputError(
                f"{what}: a third copy of {CARD_NAMES[card]} (two decks hold two of each card)"
            )
        counts[card] += 1
    return counts


def check_counts(counts: np.ndarray, what: str = "cards") -> np.ndarray:
    """Validate a count vector given directly (54 entries, each 0–2); returns an int8 copy."""
    arr = np.asarray(counts)
    if arr.shape != (N_CARDS,):
        raise ShengjiInputError(f"{what}: a count vector needs 54 entries, got shape {arr.shape}")
    if arr.dtype.kind not in "iub":
        raise ShengjiInputError(f"{what}: a count vector must hold integers")
    bad = np.nonzero((arr < 0) | (arr > 2))[0]
    if bad.size:
        raise ShengjiInputError(
            f"{what}: {int(arr[bad[0]])} copies of {CARD_NAMES[bad[0]]} (allowed 0–2)"
        )
    return arr.astype(np.int8)


def cards_to_names(counts: np.ndarray) -> list[str]:
    """Tokens of a count vector, in card-id order (suits S H C D, ranks low to high, jokers)."""
    out: list[str] = []
    for card in np.nonzero(counts)[0]:
        out.extend([CARD_NAMES[card]] * int(counts[card]))
    return out


def format_cards(counts: np.ndarray, order: Sequence[int] | None = None) -> str:
    """Space-separated tokens (in ``order`` of card ids when given)."""
    if order is None:
        return " ".join(cards_to_names(counts))
    return " ".join(CARD_NAMES[c] for c in order for _ in range(int(counts[c])))


def full_deck() -> np.ndarray:
    """The 108-card two-deck count vector."""
    return np.full(N_CARDS, 2, dtype=np.int8)


def parse_level(level: str | int) -> int:
    """Level rank index 0–12 from ``'2'`` … ``'A'`` (an int is taken as an index)."""
    if isinstance(level, bool):
        raise ShengjiInputError(f"bad level {level!r}")
    if isinstance(level, int):
        if 0 <= level <= 12:
            return level
        raise ShengjiInputError(f"bad level index {level} (expected 0–12)")
    key = str(level).strip().upper()
    if key == "T":
        key = "10"
    if key in RANKS:
        return RANKS.index(key)
    raise ShengjiInputError(f"bad level {level!r} (expected one of {' '.join(RANKS)})")


def parse_trump(trump: str | int) -> int:
    """Trump setting index: S H C D → 0–3, NT → 4."""
    if isinstance(trump, int) and not isinstance(trump, bool) and 0 <= trump <= 4:
        return trump
    key = str(trump).strip().upper()
    if key in ("NT", "N"):
        return 4
    if len(key) == 1 and key in SUITS:
        return SUITS.index(key)
    raise ShengjiInputError(f"bad trump {trump!r} (expected S, H, C, D or NT)")


def trump_name(trump: int) -> str:
    """Text of a trump setting index."""
    return "NT" if trump == 4 else SUITS[trump]
