"""Cards, hands and deals as bitboards, with PBN text and validation.

**Rank-bit convention** (the one place it is defined; the native solver in
``solvers.bridge`` uses the same): a suit is a 13-bit mask where bit
``rank - 2`` is set when the card of that rank is held, so the deuce is bit 0
and the ace bit 12 (``1 << 12``); a higher card is a higher bit, the top card
of a suit is its most significant bit.  Suits are indexed in PBN hand order
``S H D C`` = 0..3 (:attr:`engines.bridge.seats.Strain.suit_index`), seats
``N E S W`` = 0..3.  A hand is four such masks, a deal four hands (indexed by
:class:`Seat`), i.e. a 4×4 array of suit masks ``masks[seat][suit]``.

>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> deal.to_pbn()
'N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87'
>>> deal[Seat.NORTH].masks[0] == 0b1111000000000
True
>>> Card.from_str("HT") in deal[Seat.NORTH]
True
>>> Deal.from_pbn("N:AK... Q... J... T...").status()  # N holds 2 cards, the others 1
<Status.WRONG_HAND_SIZE: 2>
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from enum import IntFlag
from typing import NamedTuple

from engines.arguments import as_list
from engines.bridge.errors import DealSyntaxError, HandError, InvalidDealError
from engines.bridge.seats import SEATS, Seat, _is_index

SUIT_CHARS = "SHDC"
RANK_CHARS = "23456789TJQKA"  # index = rank - 2 = bit number
FULL_SUIT = (1 << 13) - 1

__all__ = [
    "FULL_SUIT",
    "Card",
    "Deal",
    "DealSyntaxError",
    "Hand",
    "HandError",
    "InvalidDealError",
    "Status",
]


class Status(IntFlag):
    """Defects of a deal or end position (python-chess style: several can be set at once)."""

    VALID = 0
    DUPLICATE_CARD = 1  # a card held twice (or held and already on the table)
    WRONG_HAND_SIZE = 2  # hand sizes do not fit one deal / end position
    TOO_MANY_CARDS = 4  # a hand with more than 13 cards
    BAD_CURRENT_TRICK = 8  # more than 3 cards, no leader, or a revoke in the current trick
    EMPTY = 16  # no card left to play
    BAD_MASK = 32  # a suit mask outside 0..8191 (a card that does not exist)

    def describe(self) -> str:
        """The defects in words, e.g. ``'duplicate card, wrong hand size'``."""
        names = [flag.name.lower().replace("_", " ") for flag in Status if flag and flag in self]
        return ", ".join(names) or "valid"


class Card(NamedTuple):
    """One card: ``suit`` 0..3 in ``S H D C`` order, ``rank`` 2..14 (14 = ace).

    >>> Card.from_str("SA"), str(Card(2, 10))
    (Card(suit=0, rank=14), 'DT')
    >>> Card.from_str("♥10").index  # corpus numbering: suit * 13 + (14 - rank)
    17
    """

    suit: int
    rank: int

    @classmethod
    def from_str(cls, text: str) -> Card:
        """Parse suit then rank (``SA``, ``HT``, ``H10``, ``♠A``); any case."""
        if not isinstance(text, str):
            raise DealSyntaxError(f"bad card {text!r}; expected text such as 'SA' or 'HT'")
        key = text.strip().upper().translate(_SYMBOLS)
        if len(key) >= 2 and key[0] in SUIT_CHARS:
            rank_text = "T" if key[1:] == "10" else key[1:]
            if len(rank_text) == 1 and rank_text in RANK_CHARS:
                return cls(SUIT_CHARS.index(key[0]), RANK_CHARS.index(rank_text) + 2)
        raise DealSyntaxError(
            f"bad card {text!r}; expected suit S/H/D/C then rank, e.g. 'SA', 'HT'"
        )

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (0..51) as in the corpus: ``SA`` = 0, ``C2`` = 51."""
        if not _is_index(index) or not 0 <= index < 52:
            raise DealSyntaxError(f"card index {index!r} out of range 0..51")
        return cls(index // 13, 14 - index % 13)

    @property
    def index(self) -> int:
        return self.suit * 13 + 14 - self.rank

    @property
    def bit(self) -> int:
        """This card's bit in its suit mask."""
        return 1 << (self.rank - 2)

    def __str__(self) -> str:
        return SUIT_CHARS[self.suit] + RANK_CHARS[self.rank - 2]


_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})


class Hand:
    """The cards of one player as four suit masks (``S H D C``).

    >>> hand = Hand.from_pbn("AK2..QJ3.T98765")
    >>> len(hand), hand.suit_lengths(), str(hand)
    (12, (3, 0, 3, 6), 'AK2..QJ3.T98765')
    """

    __slots__ = ("_masks",)

    def __init__(self, masks: Sequence[int] = (0, 0, 0, 0)) -> None:
        # Exactly four integers 0..8191: a float, a bool or a digit string is refused, not
        # rounded or parsed, so a wrong value can never become a different hand.
        try:
            values = list(masks)
        except TypeError:
            raise HandError(f"a hand is four 13-bit suit masks, got {masks!r}") from None
        if len(values) != 4 or not all(_is_index(m) and 0 <= m <= FULL_SUIT for m in values):
            raise HandError(f"a hand is four integer suit masks 0..8191 (S H D C), got {values!r}")
        object.__setattr__(self, "_masks", tuple(int(m) for m in values))

    @property
    def masks(self) -> tuple[int, int, int, int]:
        """The four suit masks ``S H D C`` (read-only: a hand never changes)."""
        return self._masks  # type: ignore[return-value]

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Hand is immutable; build a new Hand instead of setting {name}")

    @classmethod
    def from_cards(cls, cards: Iterable[Card]) -> Hand:
        masks = [0, 0, 0, 0]
        for card in cards:
            masks[card.suit] |= card.bit
        return cls(masks)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Parse ``S.H.D.C`` (``T`` or ``10`` for the ten, ``-`` or empty for a void)."""
        if not isinstance(text, str):
            raise DealSyntaxError(f"bad hand {text!r}: expected text such as 'AK2..QJ3.T98765'")
        parts = text.strip().split(".")
        if len(parts) != 4:
            raise DealSyntaxError(f"bad hand {text!r}: expected four suits separated by '.'")
        masks = [0, 0, 0, 0]
        for suit, part in enumerate(parts):
            ranks = part.strip().upper().replace("10", "T")
            if ranks == "-":
                continue
            for char in ranks:
                if char not in RANK_CHARS:
                    raise DealSyntaxError(f"bad rank {char!r} in hand {text!r}")
                bit = 1 << RANK_CHARS.index(char)
                if masks[suit] & bit:
                    raise DealSyntaxError(f"card {SUIT_CHARS[suit]}{char} twice in hand {text!r}")
                masks[suit] |= bit
        return cls(masks)

    def to_pbn(self) -> str:
        return ".".join(
            "".join(RANK_CHARS[r] for r in range(12, -1, -1) if mask >> r & 1)
            for mask in self.masks
        )

    def cards(self) -> Iterator[Card]:
        """The cards, spades first, high to low inside each suit."""
        for suit, mask in enumerate(self.masks):
            for r in range(12, -1, -1):
                if mask >> r & 1:
                    yield Card(suit, r + 2)

    def suit_lengths(self) -> tuple[int, int, int, int]:
        return tuple(m.bit_count() for m in self.masks)  # type: ignore[return-value]

    def __len__(self) -> int:
        return sum(m.bit_count() for m in self.masks)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and bool(self.masks[card.suit] & card.bit)

    def __iter__(self) -> Iterator[Card]:
        return self.cards()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.masks == other.masks

    def __hash__(self) -> int:
        return hash(self.masks)

    def __reduce__(self):
        return (Hand, (self.masks,))

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.to_pbn()!r})"

    def __str__(self) -> str:
        return self.to_pbn()


class Deal:
    """Four hands indexed by :class:`Seat`, optionally with a trick in progress.

    A full deal has 13 cards in every hand.  An end position has fewer; when
    ``trick`` holds the 1–3 cards already played to the current trick (they
    are *not* in the hands), ``leader`` names who led it.  Construction never
    raises on a bad deal: call :meth:`status` for the defects or
    :meth:`validate` to raise :class:`InvalidDealError` listing all of them.

    >>> deal = Deal.from_pbn("N:A... K... Q... J...", leader=Seat.WEST, trick=["SA"])
    >>> deal.status()
    <Status.DUPLICATE_CARD|WRONG_HAND_SIZE: 3>
    >>> Deal.from_pbn("N:A... K... Q2... J3...", leader=Seat.NORTH, trick=["S5", "H4"]).status()
    <Status.BAD_CURRENT_TRICK: 8>
    >>> Deal.from_pbn("W:A2... K3... Q4... J5...").hands[Seat.NORTH]
    Hand.from_pbn('K3...')
    """

    __slots__ = ("hands", "leader", "trick")

    def __init__(
        self,
        hands: Sequence[Hand],
        *,
        leader: Seat | int | None = None,
        trick: Sequence[Card | str] = (),
    ) -> None:
        try:
            hands = tuple(hands)
        except TypeError:
            raise HandError(f"a deal is four Hands, got {hands!r}") from None
        if len(hands) != 4 or not all(isinstance(h, Hand) for h in hands):
            kinds = ", ".join(type(h).__name__ for h in hands)
            raise HandError(f"a deal is four Hands, got {len(hands)} ({kinds})")
        if isinstance(trick, str):
            trick = trick.replace(",", " ").split()
        trick = as_list(trick, "trick", DealSyntaxError)
        self.hands: tuple[Hand, Hand, Hand, Hand] = hands  # type: ignore[assignment]
        self.leader: Seat | None = None if leader is None else Seat.coerce(leader)
        self.trick: tuple[Card, ...] = tuple(_checked_card(card) for card in trick)

    # --- text ---------------------------------------------------------------------------

    @classmethod
    def from_pbn(
        cls,
        text: str,
        *,
        leader: Seat | int | None = None,
        trick: Sequence[Card | str] = (),
    ) -> Deal:
        """Parse a PBN deal ``"N:s.h.d.c e s w"`` (first seat, then clockwise).

        Without ``X:`` the first hand is North's.  A hand written ``-`` is
        unknown; one unknown hand of a full deal gets the 13 cards nobody holds.
        """
        if not isinstance(text, str):
            raise DealSyntaxError(f"bad deal {text!r}: expected PBN text such as 'N:AKQ... ...'")
        stripped = text.strip().strip('"')
        match = re.fullmatch(r"(?:([NESWnesw])\s*:)?\s*(.*)", stripped, re.S)
        assert match is not None  # the pattern matches any string
        first = Seat.from_char(match.group(1)) if match.group(1) else Seat.NORTH
        parts = match.group(2).split()
        if len(parts) != 4:
            raise DealSyntaxError(f"bad deal {text!r}: expected four hands, found {len(parts)}")
        hands: list[Hand | None] = [None] * 4
        for offset, part in enumerate(parts):
            seat = (first + offset) % 4
            hands[seat] = None if part == "-" else Hand.from_pbn(part)
        unknown = [seat for seat in range(4) if hands[seat] is None]
        if unknown:
            known = [h for h in hands if h is not None]
            if len(unknown) > 1 or any(len(h) != 13 for h in known):
                raise DealSyntaxError(
                    f"bad deal {text!r}: only one hand of a full deal may be unknown ('-')"
                )
            used = [0, 0, 0, 0]
            for hand in known:
                used = [u | m for u, m in zip(used, hand.masks)]
            hands[unknown[0]] = Hand([FULL_SUIT & ~u for u in used])
        return cls(hands, leader=leader, trick=trick)  # type: ignore[arg-type]

    def to_pbn(self, first: Seat = Seat.NORTH) -> str:
        """The PBN deal string starting at ``first`` (voids written as empty strings)."""
        order = [(first + i) % 4 for i in range(4)]
        return f"{Seat(first).char}:" + " ".join(self.hands[s].to_pbn() for s in order)

    # --- access -------------------------------------------------------------------------

    def __getitem__(self, seat: Seat | int) -> Hand:
        return self.hands[seat]

    def masks(self) -> list[list[int]]:
        """``masks[seat][suit]``: the 4×4 suit masks (see the module docstring)."""
        return [list(hand.masks) for hand in self.hands]

    @property
    def to_move(self) -> Seat | None:
        """The seat to play next (``leader`` + cards in ``trick``), or None without a leader."""
        if self.leader is None:
            return None
        return Seat((self.leader + len(self.trick)) % 4)

    @property
    def tricks_left(self) -> int:
        """Tricks still to play, the current one included."""
        return max(len(hand) for hand in self.hands)

    def legal_plays(self) -> list[Card]:
        """The cards the player to move may play (follow suit when possible)."""
        seat = self.to_move
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.trick and hand.masks[self.trick[0].suit]:
            led = self.trick[0].suit
            return [card for card in hand.cards() if card.suit == led]
        return list(hand.cards())

    # --- validation ---------------------------------------------------------------------

    def status(self) -> Status:
        """Every defect of this deal / end position, as one :class:`Status` (0 = valid)."""
        if not self.trick and self._plainly_valid():
            return Status.VALID
        return self._defects()

    def _plainly_valid(self) -> bool:
        """The common case in a few integer operations (a solve validates every position
        it is given): no trick, hands disjoint, all of one size 1..13.  Anything else
        goes through :meth:`_defects`, which names what is wrong."""
        masks = [hand.masks for hand in self.hands]
        size = sum(mask.bit_count() for mask in masks[0])
        if not 1 <= size <= 13:
            return False
        for hand in masks[1:]:
            if sum(mask.bit_count() for mask in hand) != size:
                return False
        return not any(
            (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d) for a, b, c, d in zip(*masks)
        )

    def _defects(self) -> Status:
        """:meth:`status` worked out in full, defect by defect."""
        status = Status.VALID
        if any(not 0 <= m <= FULL_SUIT for hand in self.hands for m in hand.masks):
            return Status.BAD_MASK  # nothing else can be judged on cards that do not exist
        seen = [0, 0, 0, 0]
        for hand in self.hands:
            for suit, mask in enumerate(hand.masks):
                if seen[suit] & mask:
                    status |= Status.DUPLICATE_CARD
                seen[suit] |= mask
        for card in self.trick:
            if seen[card.suit] & card.bit:
                status |= Status.DUPLICATE_CARD
            seen[card.suit] |= card.bit
        sizes = [len(hand) for hand in self.hands]
        if any(size > 13 for size in sizes):
            status |= Status.TOO_MANY_CARDS
        if len(self.trick) > 3 or (self.trick and self.leader is None):
            status |= Status.BAD_CURRENT_TRICK
        elif self.trick:
            led = self.trick[0].suit
            assert self.leader is not None
            for offset, card in enumerate(self.trick[1:], start=1):
                seat = (self.leader + offset) % 4
                if card.suit != led and self.hands[seat].masks[led]:
                    status |= Status.BAD_CURRENT_TRICK  # revoke: kept a card of the led suit
        played = len(self.trick) if len(self.trick) <= 3 and self.leader is not None else 0
        expected = list(sizes)
        if played:
            assert self.leader is not None
            for offset in range(played):
                expected[(self.leader + offset) % 4] += 1
        if len(set(expected)) != 1:
            status |= Status.WRONG_HAND_SIZE
        elif expected[0] == 0:
            status |= Status.EMPTY
        return status

    def is_valid(self) -> bool:
        return self.status() == Status.VALID

    def validate(self) -> Deal:
        """Raise :class:`InvalidDealError` naming every defect; return ``self`` when valid."""
        status = self.status()
        if status:
            raise InvalidDealError(
                f"invalid deal {self.describe()}: {self._details(status)}", status
            )
        return self

    def describe(self) -> str:
        text = self.to_pbn()
        if self.trick:
            lead = self.leader.char if self.leader is not None else "?"
            text += f" (trick led by {lead}: {' '.join(map(str, self.trick))})"
        return repr(text)

    def _details(self, status: Status) -> str:
        details = []
        if Status.DUPLICATE_CARD in status:
            counts: dict[Card, int] = {}
            for card in [*(c for h in self.hands for c in h), *self.trick]:
                counts[card] = counts.get(card, 0) + 1
            dups = " ".join(str(card) for card, n in counts.items() if n > 1)
            details.append(f"duplicate card {dups}")
        if Status.TOO_MANY_CARDS in status or Status.WRONG_HAND_SIZE in status:
            sizes = ", ".join(f"{seat.char} {len(self.hands[seat])}" for seat in SEATS)
            flag = "too many cards" if Status.TOO_MANY_CARDS in status else "wrong hand size"
            after = f" with {len(self.trick)} card(s) on the table" if self.trick else ""
            details.append(f"{flag} ({sizes}{after})")
        if Status.BAD_CURRENT_TRICK in status:
            details.append("bad current trick " + self._trick_problem())
        if Status.EMPTY in status:
            details.append("no cards left to play")
        if Status.BAD_MASK in status:
            details.append("a suit mask outside 0..8191")
        return "; ".join(details)

    def _trick_problem(self) -> str:
        if len(self.trick) > 3:
            return f"({len(self.trick)} cards; a trick in progress has at most 3)"
        if self.leader is None:
            return "(cards on the table but no leader given)"
        led = self.trick[0].suit
        for offset, card in enumerate(self.trick[1:], start=1):
            seat = Seat((self.leader + offset) % 4)
            if card.suit != led and self.hands[seat].masks[led]:
                return f"({seat.char} played {card} but still holds {SUIT_CHARS[led]})"
        return ""

    # --- value semantics ----------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Deal)
            and self.hands == other.hands
            and self.leader == other.leader
            and self.trick == other.trick
        )

    def __hash__(self) -> int:
        return hash((self.hands, self.leader, self.trick))

    def __reduce__(self):
        return (_rebuild_deal, (self.hands, self.leader, self.trick))

    def __repr__(self) -> str:
        extra = ""
        if self.leader is not None:
            extra += f", leader=Seat.{self.leader.name}"
        if self.trick:
            extra += f", trick={[str(c) for c in self.trick]!r}"
        return f"Deal.from_pbn({self.to_pbn()!r}{extra})"

    def __str__(self) -> str:
        return self.to_pbn()


def _checked_card(card: object) -> Card:
    """A :class:`Card` from a Card (suit 0..3, rank 2..14 checked) or card text."""
    if isinstance(card, Card):
        suit, rank = card
        if _is_index(suit) and _is_index(rank) and 0 <= suit < 4 and 2 <= rank <= 14:
            return Card(int(suit), int(rank))
        raise DealSyntaxError(f"bad card {tuple(card)!r}: suit must be 0..3 and rank 2..14")
    return Card.from_str(card)  # type: ignore[arg-type]


def _rebuild_deal(hands: Sequence[Hand], leader: Seat | None, trick: Sequence[Card]) -> Deal:
    return Deal(hands, leader=leader, trick=trick)
