"""Card numbering and per-(level, trump) lookup tables for the 升级 kernels.

A card is an integer 0–53: ``suit * 13 + rank`` for the printed suits
S, H, C, D (0–3) and ranks 2 … A (0–12), then 52 = small joker (LJ) and
53 = big joker (BJ).  A hand or play is a count vector of length 54 with
entries 0–2 (two decks).

For one trump context (level rank index 0–12, trump suit 0–3 or 4 = no
trump) the kernels need, per card, its *effective* suit (0–3 plain, 4 = the
trump suit T) and its *position* 0–15 inside that suit (rules, section 2),
plus the list of cards of each effective suit.  Contexts are stacked into
arrays so one batch can mix contexts: row ``ctx_index`` of every table.

Example:
    >>> t = context_tables(8, 0)          # level 10, trump spades
    >>> int(t.esuit[1 * 13 + 8]), int(t.pos[1 * 13 + 8])   # H10
    (4, 12)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import njit

N_CARDS = 54
LJ = 52
BJ = 53
TRUMP = 4  # effective suit index of all trump cards; also "NT" as a trump setting
N_POS = 16
MAX_SUIT_CARDS = 18  # 12 trump-suit cards + 4 level cards + 2 jokers


@dataclass(frozen=True)
class ContextTables:
    """Lookup tables of one (level, trump) context; all arrays are read-only int64."""

    level: int
    trump: int
    esuit: np.ndarray  # (54,) effective suit 0–4
    pos: np.ndarray  # (54,) position 0–15
    suit_cards: np.ndarray  # (5, 18) card ids of each effective suit, padded with -1
    n_suit_cards: np.ndarray  # (5,)
    points: np.ndarray  # (54,) trick points of each card
    suit_mask: np.ndarray  # (5,) 54-bit mask of the cards of each effective suit


@njit(cache=True, nogil=True)
def suit_masks(esuit):
    """The 54-bit card mask of each effective suit 0–4 of an ``esuit`` table."""
    out = np.zeros(5, dtype=np.int64)
    for c in range(54):
        out[esuit[c]] |= np.int64(1) << c
    return out


def card_points() -> np.ndarray:
    """Points of each card id: 5 → 5, 10 and K → 10, everything else 0 (section 9)."""
    pts = np.zeros(N_CARDS, dtype=np.int64)
    for suit in range(4):
        pts[suit * 13 + 3] = 5
        pts[suit * 13 + 8] = 10
        pts[suit * 13 + 11] = 10
    return pts


@cache
def context_tables(level: int, trump: int) -> ContextTables:
    """Build the tables of level rank index ``level`` (0 = '2' … 12 = 'A') and ``trump``."""
    if not 0 <= level <= 12 or not 0 <= trump <= 4:
        raise ValueError(f"bad context level={level} trump={trump}")
    esuit = np.zeros(N_CARDS, dtype=np.int64)
    pos = np.zeros(N_CARDS, dtype=np.int64)
    for suit in range(4):
        for rank in range(13):
            card = suit * 13 + rank
            if rank == level:
                esuit[card] = TRUMP
                pos[card] = 13 if (trump == TRUMP or suit == trump) else 12
            else:
                esuit[card] = TRUMP if suit == trump else suit
                pos[card] = rank if rank < level else rank - 1  # level rank deleted
    esuit[LJ] = esuit[BJ] = TRUMP
    pos[LJ] = 14
    pos[BJ] = 15
    suit_cards = np.full((5, MAX_SUIT_CARDS), -1, dtype=np.int64)
    n_suit_cards = np.zeros(5, dtype=np.int64)
    for card in range(N_CARDS):
        s = esuit[card]
        suit_cards[s, n_suit_cards[s]] = card
        n_suit_cards[s] += 1
    masks = suit_masks(esuit)
    pts = card_points()
    for arr in (esuit, pos, suit_cards, n_suit_cards, masks, pts):
        arr.setflags(write=False)
    return ContextTables(level, trump, esuit, pos, suit_cards, n_suit_cards, pts, masks)


def stack_tables(contexts: list[ContextTables]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                          np.ndarray, np.ndarray]:
    """Stack several contexts' tables for batch kernels:
    ``(esuit, pos, suit_cards, n_suit_cards, suit_mask)``.

    The stacks are read-only like the single-context tables, so the kernels see one
    array type either way (Numba compiles read-only and writable arrays separately).
    """
    out = (
        np.stack([c.esuit for c in contexts]),
        np.stack([c.pos for c in contexts]),
        np.stack([c.suit_cards for c in contexts]),
        np.stack([c.n_suit_cards for c in contexts]),
        np.stack([c.suit_mask for c in contexts]),
    )
    for arr in out:
        arr.setflags(write=False)
    return out


N_CONTEXTS = 13 * 5


def context_code(level: int, trump: int) -> int:
    """Row of context (``level``, ``trump``) in :func:`all_tables`: ``level * 5 + trump``."""
    return level * 5 + trump


@cache
def all_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`stack_tables` of all 65 contexts, row :func:`context_code` for each.

    Batches index these directly with per-row context codes, so a batch never
    has to find which contexts it uses.
    """
    return stack_tables([context_tables(lv, tr) for lv in range(13) for tr in range(5)])
