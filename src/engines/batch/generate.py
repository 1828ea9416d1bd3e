"""Random position generators behind ``qipai gen`` (seeded, reproducible, engine-free).

* :func:`bridge_deals`: random deals, dealt exactly as the reference corpus
  deals them (``random.Random(seed)``, shuffle 0..51, 13 cards each to N, E, S,
  W), with board numbers and optionally the standard dealer/vulnerability
  rotation; written as PBN (:func:`write_pbn`) or JSON Lines.
* :func:`rummikub_positions`: tables made of valid runs and groups drawn from
  the 106-tile set, jokers substituted into table sets or dealt to the rack
  at a chosen rate, racks drawn from the remaining tiles; the corpus format.
* :func:`shengji_cases`: ``follow_legal``, ``legal_follows_count``,
  ``trick_winner`` and ``throw_valid`` records in the conformance-case format
  (rules section 15) without ``expected``: leads are one effective suit (rules
  section 2), hands are biased towards the led suit so following is not trivial,
  and every record respects the two-deck limit.

>>> deals = list(bridge_deals(2, seed=1, rotate=True))
>>> [(d["board"], d["dealer"], d["vulnerability"]) for d in deals]
[(1, 'N', 'None'), (2, 'E', 'NS')]
>>> len(deals[0]["pbn"].split())
4
>>> pos = next(rummikub_positions(1, seed=3, table_tiles=(6, 9)))
>>> sorted(pos) == ['gen', 'id', 'initial_meld_done', 'rack', 'table']
True
>>> case = next(shengji_cases(1, seed=5, kinds=("follow_legal",)))
>>> case["kind"], len(case["play"]) == len(case["lead"])
('follow_legal', True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from engines.errors import InputError

SEATS = "NESW"
# Vulnerability of boards 1..16; the cycle repeats every 16 boards (PBN 2.1, duplicate laws).
ROTATION_VULNERABILITY = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)  # fmt: skip
_BRIDGE_RANKS = "AKQJT98765432"


# -- bridge ------------------------------------------------------------------------------------


def deal_pbn(cards: Sequence[int], per_hand: int = 13) -> str:
    """PBN deal string (North first): ``per_hand`` cards each to N, E, S, W from ``cards``.

    Card ``k`` is suit ``"SHDC"[k // 13]``, rank ``"AKQJT98765432"[k % 13]``.

    >>> deal_pbn(range(52))
    'N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432'
    """
    hands = []
    for seat in range(4):
        held = sorted(cards[per_hand * seat : per_hand * seat + per_hand])
        suits = [
            "".join(_BRIDGE_RANKS[k % 13] for k in held if k // 13 == suit) for suit in range(4)
        ]
        hands.append(".".join(suits))
    return "N:" + " ".join(hands)


def bridge_deals(
    count: int, seed: int = 0, *, rotate: bool = False, first_board: int = 1, cards: int = 13
) -> Iterator[dict[str, Any]]:
    """``count`` random deals as dicts: ``id``, ``board``, ``dealer``, ``vulnerability``, ``pbn``.

    Without ``rotate`` every board is dealt by North with nobody vulnerable;
    with it, dealer and vulnerability follow the board number (dealer N, E, S,
    W; vulnerability in the standard 16-board cycle).  ``cards`` < 13 deals
    random endings with ``cards`` tricks to play: North gets the first
    ``cards`` cards of the shuffle, East the next ``cards``, and so on.

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
            "dealer": SEATS[(board - 1) % 4] if rotate else "N",
            "vulnerability": ROTATION_VULNERABILITY[(board - 1) % 16] if rotate else "None",
            "pbn": deal_pbn(deck, cards),
        }


def write_pbn(deals: Iterator[dict[str, Any]], out: TextIO, *, event: str = "") -> int:
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


# -- rummikub ----------------------------------------------------------------------------------

RUMMIKUB_COLOURS = "KROB"


def _tile(colour: int, number: int) -> str:
    return f"{RUMMIKUB_COLOURS[colour]}{number}"


def _rack_key(tile: str) -> tuple[int, int]:
    if tile == "J":
        return (4, 0)
    return (RUMMIKUB_COLOURS.index(tile[0]), int(tile[1:]))


def rummikub_positions(
    count: int,
    seed: int = 0,
    *,
    table_tiles: tuple[int, int] = (0, 30),
    rack_size: tuple[int, int] = (5, 14),
    joker_rate: float = 0.3,
    initial_meld_rate: float = 0.2,
) -> Iterator[dict[str, Any]]:
    """``count`` random positions in the corpus format (``id``, ``table``, ``rack``,
    ``initial_meld_done``, plus ``gen`` with the drawn sizes).

    ``table_tiles`` and ``rack_size`` are inclusive ranges; the table is built
    from random valid runs (3–5 tiles) and groups (3–4) until it holds at least
    the drawn number of tiles (it may exceed it by the last set).  Each of the two
    jokers is in play with probability ``joker_rate``, then equally likely in a
    random table set (standing for the tile it replaces) or in the rack.  A
    position is an initial meld (``initial_meld_done: false``) with
    probability ``initial_meld_rate``.
    """
    _check_range("table tiles", table_tiles, 0, 104)
    _check_range("rack size", rack_size, 1, 104)
    for name, rate in (("joker rate", joker_rate), ("initial meld rate", initial_meld_rate)):
        if not 0.0 <= rate <= 1.0:
            raise InputError(f"{name} must be between 0 and 1, got {rate}")
    rng = random.Random(seed)
    for i in range(count):
        pool = Counter({(c, n): 2 for c in range(4) for n in range(1, 14)})
        target = rng.randint(*table_tiles)
        sets: list[list[tuple[int, int]]] = []
        placed = 0
        attempts = 0
        while placed < target and attempts < 500:
            attempts += 1
            if rng.random() < 0.6:
                length = rng.randint(3, 5)
                colour = rng.randrange(4)
                start = rng.randint(1, 14 - length)
                tiles = [(colour, start + k) for k in range(length)]
            else:
                number = rng.randint(1, 13)
                colours = rng.sample(range(4), rng.choice((3, 4)))
                tiles = [(c, number) for c in sorted(colours)]
            if all(pool[t] >= 1 for t in tiles):
                for t in tiles:
                    pool[t] -= 1
                sets.append(tiles)
                placed += len(tiles)
        table: list[list[str]] = [[_tile(*t) for t in s] for s in sets]
        rack_jokers = 0
        table_jokers = 0
        for _ in range(2):
            if rng.random() >= joker_rate:
                continue
            if table and rng.random() < 0.5:
                # The joker stands for the tile it replaces, which goes back to the pool.
                where = rng.randrange(len(table))
                slot = rng.randrange(len(table[where]))
                if table[where][slot] == "J":
                    rack_jokers += 1
                    continue
                replaced = sets[where][slot]
                pool[replaced] += 1
                table[where][slot] = "J"
                table_jokers += 1
            else:
                rack_jokers += 1
        size = rng.randint(*rack_size)
        bag = [t for t, n in pool.items() for _ in range(n)]
        bag.sort()
        drawn = rng.sample(bag, max(0, min(len(bag), size - rack_jokers)))
        rack = sorted([_tile(*t) for t in drawn] + ["J"] * rack_jokers, key=_rack_key)
        yield {
            "id": f"gr{seed}-{i:06d}",
            "table": table,
            "rack": rack,
            "initial_meld_done": rng.random() >= initial_meld_rate,
            "gen": {
                "T": sum(len(s) for s in table),
                "R": len(rack),
                "table_jokers": table_jokers,
                "rack_jokers": rack_jokers,
            },
        }


def _check_range(name: str, bounds: tuple[int, int], low: int, high: int) -> None:
    a, b = bounds
    if not low <= a <= b <= high:
        raise InputError(f"{name} range {a}-{b} must lie within {low}-{high} with min <= max")


def parse_range(text: str) -> tuple[int, int]:
    """``"5"`` → ``(5, 5)``, ``"3-9"`` → ``(3, 9)`` (for ``--table-tiles`` and friends).

    >>> parse_range("3-9"), parse_range("4")
    ((3, 9), (4, 4))
    """
    try:
        if "-" in text:
            low, high = text.split("-", 1)
            return int(low), int(high)
        return int(text), int(text)
    except ValueError:
        raise InputError(f"expected a number or a range like 3-9, got {text!r}") from None


# -- shengji -----------------------------------------------------------------------------------

SHENGJI_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SHENGJI_SUITS = "SHCD"
SHENGJI_KINDS = ("follow_legal", "legal_follows_count", "trick_winner", "throw_valid")
_DECK = tuple([s + r for s in SHENGJI_SUITS for r in SHENGJI_RANKS] + ["LJ", "BJ"])


def effective_suit(card: str, level: str, trump: str) -> str:
    """``"T"`` for trumps (rules section 2), else the printed suit.

    >>> [effective_suit(card, "10", "S") for card in ("H10", "HA", "LJ", "S2")]
    ['T', 'H', 'T', 'T']
    """
    if card in ("LJ", "BJ"):
        return "T"
    suit, rank = card[0], card[1:]
    if rank == level or suit == trump:
        return "T"
    return suit


def card_position(card: str, level: str, trump: str) -> int:
    """The card's position 0–15 inside its effective suit (rules section 2).

    >>> [card_position(c, "10", "S") for c in ("S2", "SA", "H10", "S10", "LJ", "BJ", "HJ")]
    [0, 11, 12, 13, 14, 15, 8]
    """
    if card == "BJ":
        return 15
    if card == "LJ":
        return 14
    suit, rank = card[0], card[1:]
    if rank == level:
        return 13 if trump == "NT" or suit == trump else 12
    ranks = [r for r in SHENGJI_RANKS if r != level]
    return ranks.index(rank)


def shengji_cases(
    count: int, seed: int = 0, *, kinds: Sequence[str] = SHENGJI_KINDS
) -> Iterator[dict[str, Any]]:
    """``count`` random cases of the given ``kinds`` (cycled in order), without ``expected``."""
    for kind in kinds:
        if kind not in SHENGJI_KINDS:
            raise InputError(
                f"unknown shengji case kind {kind!r}; known: {', '.join(SHENGJI_KINDS)}"
            )
    rng = random.Random(seed)
    for i in range(count):
        kind = kinds[i % len(kinds)]
        level = rng.choice(SHENGJI_RANKS)
        trump = rng.choice(("S", "H", "C", "D", "NT"))
        pool = Counter(dict.fromkeys(_DECK, 2))
        throw = kind == "throw_valid"
        lead, shape = _lead(rng, pool, level, trump, throw=throw)
        suit = effective_suit(lead[0], level, trump)
        record: dict[str, Any] = {
            "id": f"gs{seed}-{i:06d}",
            "kind": kind,
            "level": level,
            "trump": trump,
        }
        if kind in ("follow_legal", "legal_follows_count"):
            hand = _hand(rng, pool, level, trump, suit, rng.randint(len(lead), 25))
            record["hand"] = hand
            record["lead"] = lead
            if kind == "follow_legal":
                record["play"] = _play(rng, hand, len(lead), level, trump, suit)
        elif kind == "trick_winner":
            plays = [lead]
            for _ in range(3):
                hand = _hand(rng, pool, level, trump, suit, len(lead))
                plays.append(hand)
            record["plays"] = plays
        else:
            record["lead"] = lead
            record["others"] = [
                _hand(rng, pool, level, trump, suit, rng.randint(5, 25)) for _ in range(3)
            ]
        record["tags"] = ["generated", shape]
        yield record


def _take(pool: Counter, card: str, n: int = 1) -> None:
    pool[card] -= n
    assert pool[card] >= 0


def _lead(
    rng: random.Random, pool: Counter, level: str, trump: str, *, throw: bool
) -> tuple[list[str], str]:
    """A lead of one effective suit: single, pair, tractor or (multi-component) throw."""
    plain = [s for s in SHENGJI_SUITS if s != trump]
    suit = "T" if rng.random() < 0.3 else rng.choice(plain)
    members = [c for c in _DECK if effective_suit(c, level, trump) == suit]
    by_position: dict[int, list[str]] = {}
    for card in members:
        by_position.setdefault(card_position(card, level, trump), []).append(card)
    shape = rng.choice(("throw",) if throw else ("single", "single", "pair", "tractor", "throw"))
    if shape == "single":
        card = rng.choice(members)
        _take(pool, card)
        return [card], shape
    if shape == "pair":
        card = rng.choice(members)
        _take(pool, card, 2)
        return [card, card], shape
    if shape == "tractor":
        positions = sorted(by_position)
        length = rng.choice((2, 2, 3))
        starts = [p for p in positions if all(p + k in by_position for k in range(length))]
        start = rng.choice(starts)
        lead = []
        for k in range(length):
            card = rng.choice(by_position[start + k])
            _take(pool, card, 2)
            lead += [card, card]
        return lead, shape
    # A throw: two to four components (singles and pairs) of distinct cards of the suit.
    chosen = rng.sample(members, min(len(members), rng.randint(2, 4)))
    lead = []
    for card in chosen:
        copies = 2 if rng.random() < 0.35 else 1
        _take(pool, card, copies)
        lead += [card] * copies
    return lead, "throw"


def _hand(
    rng: random.Random, pool: Counter, level: str, trump: str, suit: str, size: int
) -> list[str]:
    """``size`` cards from ``pool``, a random share of them from effective suit ``suit``."""
    in_suit = [
        c for c, n in pool.items() for _ in range(n) if effective_suit(c, level, trump) == suit
    ]
    other = [
        c for c, n in pool.items() for _ in range(n) if effective_suit(c, level, trump) != suit
    ]
    # Pairs and tractors only show up when the suit is well stocked, so bias towards it.
    want = min(len(in_suit), rng.randint(0, size))
    hand = rng.sample(sorted(in_suit), want)
    hand += rng.sample(sorted(other), min(len(other), size - want))
    for card in hand:
        _take(pool, card)
    return sorted(hand, key=_DECK.index)


def _play(
    rng: random.Random, hand: list[str], size: int, level: str, trump: str, suit: str
) -> list[str]:
    """``size`` cards out of ``hand``: often as many of the led suit as possible, else random."""
    if rng.random() < 0.5:
        return sorted(rng.sample(hand, size), key=_DECK.index)
    in_suit = [c for c in hand if effective_suit(c, level, trump) == suit]
    other = [c for c in hand if effective_suit(c, level, trump) != suit]
    pick = rng.sample(in_suit, min(size, len(in_suit)))
    pick += rng.sample(other, size - len(pick))
    return sorted(pick, key=_DECK.index)
