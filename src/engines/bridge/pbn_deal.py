"""The ``Deal`` tag of a PBN game: full deals, end positions and partial deals.

PBN writes the hands clockwise from a first seat (``N:`` when omitted); a
hand is ``spades.hearts.diamonds.clubs`` and ``-`` stands for a hand nobody
recorded.  Three kinds of deal are valid:

* a full deal, 13 cards a hand (one ``-`` hand is then the 13 cards nobody
  holds);
* an end position, every hand the same size below 13 (double-dummy problems,
  the PBN verifier's ``correct_10`` and ``correct_20`` files);
* a partial deal, some hands ``-`` (single-hand or two-hand problems): the
  known hands are kept, but no DD table can be computed.

Hands written with suit letters (``SAKQ.HJT.D-.C432``, ``S:SA7.H864...``,
suit symbols ``♠AK``), which endplay and several scorers accept, are read too.

>>> parse_deal_tag("N:AK... QJ... T9... 87...").deal.tricks_left
2
>>> parsed = parse_deal_tag("S:AKQJT98765432... - - -")
>>> parsed.deal is None, parsed.unknown
(True, 'N E W')
>>> parse_full_deal("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8")
Traceback (most recent call last):
...
engines.bridge.seats.BridgeInputError: deal: hand W has 12 cards (expected 13); C7 missing
"""

from __future__ import annotations

import re
from typing import NamedTuple

from engines.bridge.cards import FULL_SUIT, Deal, DealSyntaxError, Hand
from engines.bridge.seats import SEATS, BridgeInputError, Seat

__all__ = ["DealTag", "parse_deal_tag", "parse_full_deal"]


class DealTag(NamedTuple):
    """A parsed ``Deal`` tag: ``deal`` (None for a partial deal) and each seat's hand or None."""

    deal: Deal | None
    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]

    @property
    def unknown(self) -> str:
        """The seats written ``-``, e.g. ``'E W'`` (empty for a full deal or end position)."""
        return " ".join(s.char for s in SEATS if self.hands[s] is None)


def parse_full_deal(text: str) -> Deal:
    """A deal or end position from PBN text; a partial deal is refused (message says why)."""
    parsed = parse_deal_tag(text)
    if parsed.deal is None:
        raise BridgeInputError(
            f"deal: hands {parsed.unknown} unknown ('-'); this needs all four hands"
        )
    return parsed.deal


def parse_deal_tag(text: str) -> DealTag:
    """Parse a ``Deal`` tag value, with a precise :class:`BridgeInputError` for each defect."""
    match = re.fullmatch(r"\s*(?:([NESWnesw])\s*:)?\s*(.*?)\s*", text, re.S)
    assert match is not None  # the pattern matches any string
    first = Seat.from_char(match.group(1)) if match.group(1) else Seat.NORTH
    parts = match.group(2).split()
    if len(parts) != 4:
        raise BridgeInputError(
            f"deal: expected four hands, found {len(parts)} (truncated deal?) in {text!r}"
        )
    hands: list[Hand | None] = [None, None, None, None]
    for offset, part in enumerate(parts):
        seat = Seat((first + offset) % 4)
        if part == "-":
            continue
        try:
            hands[seat] = Hand.from_pbn(normalise_hand(part))
        except DealSyntaxError as exc:
            raise BridgeInputError(f"deal: hand {seat.char}: {exc}") from None
    seen = _check_no_duplicates(hands)
    known = [h for h in hands if h is not None]
    unknown = [s for s in SEATS if hands[s] is None]
    if len(unknown) == 1 and all(len(h) == 13 for h in known):
        hands[unknown[0]] = Hand([FULL_SUIT & ~mask for mask in seen])
        unknown = []
    if unknown:
        too_big = [s for s in SEATS if hands[s] is not None and len(hands[s]) > 13]  # type: ignore[arg-type]
        if too_big:
            raise BridgeInputError(f"deal: hand {too_big[0].char} has more than 13 cards")
        return DealTag(None, tuple(hands))  # type: ignore[arg-type]
    sizes = [len(h) for h in hands]  # type: ignore[arg-type]
    if len(set(sizes)) != 1 or sizes[0] == 0 or sizes[0] > 13:
        _raise_size_defect(hands, sizes)  # type: ignore[arg-type]
    deal = Deal(hands)  # type: ignore[arg-type]
    return DealTag(deal, deal.hands)


def _check_no_duplicates(hands: list[Hand | None]) -> list[int]:
    """The union of the known hands' suit masks; a card held twice is an error."""
    seen = [0, 0, 0, 0]
    clash = False
    for hand in hands:
        if hand is not None:
            for suit, mask in enumerate(hand.masks):
                clash = clash or bool(seen[suit] & mask)
                seen[suit] |= mask
    if clash:  # only now list who holds what, for the message
        owners: dict[tuple[int, int], list[Seat]] = {}
        for seat in SEATS:
            hand = hands[seat]
            for card in hand.cards() if hand is not None else ():
                owners.setdefault(card, []).append(seat)
        card, seats = next((c, o) for c, o in owners.items() if len(o) > 1)
        raise BridgeInputError(
            f"deal: duplicated card {card} (held by {' and '.join(s.char for s in seats)})"
        )
    return seen


def _raise_size_defect(hands: list[Hand], sizes: list[int]) -> None:
    if max(sizes) == 0:
        raise BridgeInputError("deal: every hand is empty")
    # the size most hands have is the intended one (a full deal when any hand reaches 13)
    expected = 13 if max(sizes) >= 13 else max(sizes, key=lambda n: (sizes.count(n), n))
    bad = next(s for s in SEATS if sizes[s] != expected)
    note = ""
    if expected == 13:
        held = {c for h in hands for c in h.cards()}
        missing = [
            f"{'SHDC'[s]}{'23456789TJQKA'[r - 2]}"
            for s in range(4)
            for r in range(14, 1, -1)
            if (s, r) not in held
        ]
        note = f"; {' '.join(missing[:4])} missing" if missing else ""
    else:
        note = " (an end position has the same number of cards in every hand)"
    raise BridgeInputError(
        f"deal: hand {bad.char} has {sizes[bad]} cards (expected {expected}){note}"
    )


def normalise_hand(text: str) -> str:
    """Accept hands written with suit letters (``SAKQ.HJT.D-.C432``, ``SAKQHJTDC432``).

    No rank letter is also a suit letter, so the letters can be read as suit
    markers; the result is the plain ``S.H.D.C`` form.

    >>> normalise_hand("SA7.H864.DKQJ2.C9532"), normalise_hand("♠AK♥-♦Q♣T9")
    ('A7.864.KQJ2.9532', 'AK..Q.T9')
    """
    upper = text.upper().translate(_SUIT_SYMBOLS)
    if not any(ch in "SHDC" for ch in upper):
        return text
    suits = {"S": "", "H": "", "D": "", "C": ""}
    current = None
    for ch in upper.replace("10", "T"):
        if ch in suits:
            current = ch
        elif ch in ".:-":
            continue
        elif current is None:
            return text  # ranks before any suit letter: let Hand.from_pbn report it
        else:
            suits[current] += ch
    return ".".join(suits[s] for s in "SHDC")


_SUIT_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
