"""The vocabulary every bridge module shares: seats, strains, sides, vulnerability.

Orders follow DDS and the corpus: seats ``N E S W`` (clockwise, index 0..3),
suits ``S H D C`` (index 0..3, as in PBN hands), strains for tables in the
corpus order ``C D H S NT``.  DDS's own ``resTable`` indexes strains
``S H D C NT``; :attr:`Strain.dds_index` gives that index.

>>> Seat.from_char("e").partner
<Seat.WEST: 3>
>>> Seat.NORTH.next
<Seat.EAST: 1>
>>> Strain.from_str("N")
<Strain.NOTRUMP: 4>
>>> str(Strain.NOTRUMP), Strain.SPADES.dds_index
('NT', 0)
"""

from __future__ import annotations

from enum import IntEnum

from engines.bridge.errors import BridgeInputError, SeatError, StrainError


class Seat(IntEnum):
    """A player's seat; the integer value is the clockwise index from North."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @classmethod
    def _missing_(cls, value: object) -> Seat:
        # Seat(7) or Seat(None): a SeatError, never Enum's bare ValueError
        raise SeatError(
            f"unknown seat {value!r}; expected an index 0..3 (Seat.coerce also takes N, E, S, W)"[
                :300
            ]
        )

    @classmethod
    def from_char(cls, text: str) -> Seat:
        """Parse ``N``, ``E``, ``S`` or ``W`` (any case; full names accepted)."""
        if not isinstance(text, str):
            raise SeatError(f"unknown seat {text!r}; expected N, E, S or W")
        key = text.strip().upper()[:1]
        if key not in "NESW" or not key:
            raise SeatError(f"unknown seat {text!r}; expected N, E, S or W")
        return cls("NESW".index(key))

    @classmethod
    def coerce(cls, value: Seat | int | str) -> Seat:
        """A :class:`Seat` from a Seat, an index 0..3 or a letter; anything else is a
        :class:`SeatError` (never a ``ValueError`` or ``TypeError``).

        >>> Seat.coerce(3), Seat.coerce("s")
        (<Seat.WEST: 3>, <Seat.SOUTH: 2>)
        >>> Seat.coerce(4)
        Traceback (most recent call last):
        ...
        engines.bridge.seats.SeatError: unknown seat 4; expected N, E, S or W or an index 0..3
        """
        if isinstance(value, Seat):
            return value
        if isinstance(value, str):
            return cls.from_char(value)
        if _is_index(value) and 0 <= int(value) < 4:
            return cls(int(value))
        raise SeatError(f"unknown seat {value!r}; expected N, E, S or W or an index 0..3")

    @property
    def char(self) -> str:
        return "NESW"[self]

    @property
    def next(self) -> Seat:
        """The seat to the left (next to play, clockwise)."""
        return Seat((self + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def side(self) -> str:
        """``"NS"`` or ``"EW"``."""
        return "NS" if self % 2 == 0 else "EW"

    def __str__(self) -> str:
        return self.char


class Strain(IntEnum):
    """A denomination, in the corpus table order ``C D H S NT`` (value 0..4)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @classmethod
    def _missing_(cls, value: object) -> Strain:
        raise StrainError(
            f"unknown strain {value!r}; expected an index 0..4 (Strain.from_str "
            "also takes C, D, H, S, NT)"[:300]
        )

    @classmethod
    def from_str(cls, text: str) -> Strain:
        """Parse ``C D H S N NT`` (any case; suit symbols accepted)."""
        if isinstance(text, Strain):
            return text
        if not isinstance(text, str):
            raise StrainError(f"unknown strain {text!r}; expected C, D, H, S or NT")
        key = text.strip().upper().translate(_SUIT_SYMBOLS)
        if key in ("N", "NT"):
            return cls.NOTRUMP
        if len(key) == 1 and key in "CDHS":
            return cls("CDHS".index(key))
        raise StrainError(f"unknown strain {text!r}; expected C, D, H, S or NT")

    @property
    def symbol(self) -> str:
        return ("C", "D", "H", "S", "NT")[self]

    @property
    def is_major(self) -> bool:
        return self in (Strain.HEARTS, Strain.SPADES)

    @property
    def is_minor(self) -> bool:
        return self in (Strain.CLUBS, Strain.DIAMONDS)

    @property
    def suit_index(self) -> int:
        """Index in PBN hand order ``S H D C`` (0..3), or 4 for notrump."""
        return (3, 2, 1, 0, 4)[self]

    @property
    def dds_index(self) -> int:
        """Index in DDS's ``resTable`` strain order ``S H D C NT``."""
        return self.suit_index

    def __str__(self) -> str:
        return self.symbol


STRAINS: tuple[Strain, ...] = tuple(Strain)
SEATS: tuple[Seat, ...] = tuple(Seat)

_SUIT_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})

VULNERABILITIES: tuple[str, ...] = ("None", "NS", "EW", "Both")


def parse_vulnerability(text: str) -> str:
    """Normalise a vulnerability to ``None``, ``NS``, ``EW`` or ``Both``.

    Accepts the PBN spellings (``None``, ``Love``, ``-``, ``NS``, ``EW``,
    ``All``, ``Both``) in any case.

    >>> parse_vulnerability("all"), parse_vulnerability("-")
    ('Both', 'None')
    """
    if not isinstance(text, str):
        raise BridgeInputError(f"unknown vulnerability {text!r}; expected None, NS, EW or Both/All")
    key = text.strip().upper().replace("-", "").replace("/", "")
    if key in ("", "NONE", "LOVE", "O"):
        return "None"
    if key in ("NS", "N", "S"):
        return "NS"
    if key in ("EW", "E", "W"):
        return "EW"
    if key in ("ALL", "BOTH", "B"):
        return "Both"
    raise BridgeInputError(f"unknown vulnerability {text!r}; expected None, NS, EW or Both/All")


def pbn_vulnerability(vulnerability: str) -> str:
    """The PBN export spelling of a normalised vulnerability (``Both`` is written ``All``).

    >>> pbn_vulnerability("Both"), pbn_vulnerability("NS")
    ('All', 'NS')
    """
    return "All" if vulnerability == "Both" else vulnerability


def is_vulnerable(vulnerability: str, seat: Seat) -> bool:
    """Whether ``seat``'s side is vulnerable under ``vulnerability`` (any PBN spelling).

    >>> is_vulnerable("All", Seat.EAST), is_vulnerable("NS", "E")
    (True, False)
    """
    side = Seat.coerce(seat).side
    vulnerability = parse_vulnerability(vulnerability)
    return vulnerability == "Both" or vulnerability == side


def _is_index(value: object) -> bool:
    """True for a true integer (Python or NumPy), never for a bool, float or text."""
    import numbers

    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
