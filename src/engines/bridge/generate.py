"""Random bridge deals for ``qipai gen bridge`` and the benchmarks (seeded, reproducible).

Deals are dealt exactly as the reference corpus deals them
(``random.Random(seed)``, shuffle 0..51, 13 cards each to N, E, S, W), with
board numbers and optionally the dealer and vulnerability of the board number
(:mod:`engines.bridge.boards`); written as PBN (:func:`write_pbn`) or JSON Lines.

>>> deals = list(bridge_deals(2, seed=1, rotate=True))
>>> [(d["board"], d["dealer"], d["vulnerability"]) for d in deals]
[(1, 'N', 'None'), (2, 'E', 'NS')]
>>> len(deals[0]["pbn"].split())
4
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

from engines.bridge.boards import board_dealer, board_vulnerability
from engines.bridge.seats import pbn_vulnerability
from engines.errors import InputError

__all__ = ["bridge_deals", "deal_pbn", "write_pbn"]

_RANKS = "AKQJT98765432"


def deal_pbn(cards: Sequence[int], per_hand: int = 13) -> str:
    """PBN deal string (North first): ``per_hand`` cards each to N, E, S, W from ``cards``.

    Card ``k`` is suit ``"SHDC"[k // 13]``, rank ``"AKQJT98765432"[k % 13]``.

    >>> deal_pbn(range(52))
    'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
    """
    hands = []
    for seat in range(4):
        held = sorted(cards[per_hand * seat : per_hand * seat + per_hand])
        suits = ["".join(_RANKS[k % 13] for k in held if k // 13 == suit) for suit in range(4)]
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def bridge_deals(
    count: int, seed: int = 0, *, rotate: bool = False, first_board: int = 1, cards: int = 13
) -> Iterator[dict[str, Any]]:
    """``count`` random deals as dicts: ``id``, ``board``, ``dealer``, ``vulnerability``, ``pbn``.

    Without ``rotate`` every board is dealt by North with nobody vulnerable;
    with it, dealer and vulnerability follow the board number (dealer N, E, S,
    W; vulnerability in the standard 16-board cycle, written the PBN way:
    ``None``, ``NS``, ``EW``, ``All``).  ``cards`` < 13 deals random endings
    with ``cards`` tricks to play: North gets the first ``cards`` cards of the
    shuffle, East the next ``cards``, and so on.

    >>> next(bridge_deals(1, seed=2, cards=3))["pbn"]
    'N:5.Q.J. T8.6.. .5.A.2 6.3.6.'
    """
    if not 1 <= cards <= 13:
        raise InputError(f"cards per hand must be 1..13, got {cards}")
    rng = random.Random(seed)
    for i in range(count):
        board = first_board + i
        deck = list(range(52))
        rng.shuffle(deck)
        yield {
            "id": f"gb{seed}-{board:06d}",
            "board": board,
            "dealer": board_dealer(board).char if rotate else "N",
            "vulnerability": pbn_vulnerability(board_vulnerability(board)) if rotate else "None",
            "pbn": deal_pbn(deck, cards),
        }


def write_pbn(deals: Iterable[dict[str, Any]], out: TextIO, *, event: str = "") -> int:
    """Write deals from :func:`bridge_deals` as PBN 2.1 export-format games; returns the count."""
    out.write("% PBN 2.1\n% EXPORT\n")
    n = 0
    for deal in deals:
        out.write(
            f'\n[Event "{event}"]\n[Site "?"]\n[Date "?"]\n[Board "{deal["board"]}"]\n'
            f'[West "?"]\n[North "?"]\n[East "?"]\n[South "?"]\n'
            f'[Dealer "{deal["dealer"]}"]\n[Vulnerable "{deal["vulnerability"]}"]\n'
            f'[Deal "{deal["pbn"]}"]\n[Scoring "?"]\n[Declarer "?"]\n[Contract "?"]\n'
            f'[Result "?"]\n'
        )
        n += 1
    return n
