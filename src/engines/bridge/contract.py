"""Contracts: level, strain, declarer, double/redouble and (optionally) the result.

Accepted text forms (any case, suit symbols ``♠♥♦♣`` allowed, blanks ignored):

========================  ==============================================
form                      meaning
========================  ==============================================
``4SN``  ``4S N``         4♠ by North, no result yet
``4HN=`` ``5CEx-2``       corpus / endplay: declarer, ``x``/``xx``, result
``3NTWxx+1``              redoubled, one overtrick
``3NTXW`` ``3NX W``       penalty before the declarer (``X``/``XX`` or ``*``/``**``)
``3NTX``                  PBN ``Contract`` tag; the declarer comes separately
``4S*-EW-1`` ``3N-NS+2``  DDS dealer-par text: several seats give several contracts
``Pass`` ``P`` ``AP``     a passed-out board
========================  ==============================================

``N`` and ``NT`` both mean notrump.  A result is ``=``, ``+k`` or ``-k``
relative to the contract; :meth:`Contract.from_str` returns one contract and
:func:`parse_contracts` every contract a multi-seat text names.  ``str()``
writes the corpus notation (``4HN=``, ``5CEx-2``, ``Pass``).

>>> c = Contract.from_str("3NTxW-1")
>>> c.level, c.strain, c.declarer, c.penalty, c.result
(3, <Strain.NOTRUMP: 4>, <Seat.WEST: 3>, 1, -1)
>>> str(c), c.score(vulnerable=False)
('3NTWx-1', -100)
>>> [str(x) for x in parse_contracts("4S*-EW-1")]
['4SEx-1', '4SWx-1']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engines.arguments import integer
from engines.bridge.errors import StrainError
from engines.bridge.scoring import score
from engines.bridge.seats import BridgeInputError, Seat, Strain, is_vulnerable

__all__ = ["Contract", "parse_contracts"]

PENALTY_SUFFIX: tuple[str, ...] = ("", "x", "xx")

_PASS_WORDS = frozenset({"PASS", "P", "AP", "PASSEDOUT", "ALLPASS"})

_CONTRACT_RE = re.compile(
    r"""
    (?P<level>[1-7])
    (?P<strain>NT|N|[CDHS])
    (?:
        (?P<star>\*{1,2})?-(?P<dseats>NS|EW|[NESW])(?=[+\-=]|$)   # DDS: 4S*-EW-1, 3N-NS+2
      | (?P<pen1>XX|X|\*\*|\*)?(?P<seats>NS|EW|[NESW])?(?P<pen2>XX|X|\*\*|\*)?
    )
    (?P<result>=|[+-]\d{1,2})?
    """,
    re.VERBOSE,
)

_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})


@dataclass(frozen=True)
class Contract:
    """A final contract, with its result when known.

    ``level`` is 1..7 (0 for a passed-out board, whose strain and declarer are
    ``None``); ``penalty`` is 0 undoubled, 1 doubled, 2 redoubled; ``result`` is
    tricks relative to the contract (``0`` made exactly, ``+1`` one overtrick,
    ``-2`` two down) or ``None`` when not known.
    """

    level: int
    strain: Strain | None
    declarer: Seat | None = None
    penalty: int = 0
    result: int | None = None

    def __post_init__(self) -> None:
        self._check_types()
        if self.level == 0:
            if self.strain is not None or self.declarer is not None or self.penalty:
                raise BridgeInputError("a passed-out board has no strain, declarer or double")
            return
        if not 1 <= self.level <= 7:
            raise BridgeInputError(f"contract level {self.level} is not 1..7")
        if self.strain is None:
            raise BridgeInputError("a contract needs a strain")
        if self.penalty not in (0, 1, 2):
            raise BridgeInputError(f"penalty {self.penalty} is not 0, 1 (X) or 2 (XX)")
        if self.result is not None and not 0 <= self.level + 6 + self.result <= 13:
            raise BridgeInputError(
                f"result {self.result:+d} is impossible for a level-{self.level} contract"
            )

    def _check_types(self) -> None:
        """Refuse a field of the wrong type; strain and declarer text become their enums."""
        set_field = object.__setattr__  # the dataclass is frozen; this runs once, at creation
        set_field(self, "level", integer(self.level, "contract level", BridgeInputError))
        if self.strain is not None and not isinstance(self.strain, Strain):
            if not isinstance(self.strain, str):
                raise StrainError(
                    f"contract strain must be a Strain or C, D, H, S, NT, got {self.strain!r}"[:300]
                )
            set_field(self, "strain", Strain.from_str(self.strain))
        if self.declarer is not None:
            set_field(self, "declarer", Seat.coerce(self.declarer))
        set_field(self, "penalty", integer(self.penalty, "contract penalty", BridgeInputError))
        if self.result is not None:
            set_field(self, "result", integer(self.result, "contract result", BridgeInputError))

    # -- construction --------------------------------------------------------

    @classmethod
    def passed_out(cls) -> Contract:
        """The contract of a board passed out (four passes)."""
        return cls(0, None)

    @classmethod
    def from_str(cls, text: str, declarer: Seat | str | None = None) -> Contract:
        """Parse one contract (see the module docstring for the forms).

        ``declarer`` supplies the declarer when the text has none (PBN's
        ``Contract`` and ``Declarer`` tags are separate).

        >>> str(Contract.from_str("3NTX", declarer="S"))
        '3NTSx'
        >>> Contract.from_str("4S-NS")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engines.bridge.seats.BridgeInputError: contract '4S-NS' names 2 declarers (N, S); ...
        """
        contracts = parse_contracts(text, declarer=declarer)
        if len(contracts) != 1:
            seats = ", ".join(str(c.declarer) for c in contracts)
            raise BridgeInputError(
                f"contract {text!r} names {len(contracts)} declarers ({seats}); expected one"
            )
        return contracts[0]

    def with_result(self, result: int | None) -> Contract:
        """This contract with another result (``None`` clears it)."""
        return replace(self, result=result)

    def with_tricks(self, tricks: int) -> Contract:
        """This contract with the result of declarer taking ``tricks`` tricks.

        >>> str(Contract.from_str("4HS").with_tricks(11))
        '4HS+1'
        """
        if self.is_passout:
            return self
        return replace(self, result=tricks - self.level - 6)

    # -- properties ----------------------------------------------------------

    @property
    def is_passout(self) -> bool:
        return self.level == 0

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer must take (level + 6)."""
        return self.level + 6

    @property
    def tricks(self) -> int | None:
        """Tricks declarer took, when the result is known."""
        if self.is_passout or self.result is None:
            return None
        return self.level + 6 + self.result

    @property
    def bid_index(self) -> int:
        """0 for 1♣ … 34 for 7NT (the auction order); -1 for a pass-out."""
        if self.is_passout:
            return -1
        return (self.level - 1) * 5 + int(self.strain)  # type: ignore[arg-type]

    # -- scoring -------------------------------------------------------------

    def score(self, vulnerable: bool = False, tricks: int | None = None) -> int:
        """Score for the declaring side (``vulnerable`` is that side's vulnerability)."""
        return score(self, tricks, vulnerable)

    def score_ns(self, vulnerability: str = "None", tricks: int | None = None) -> int:
        """Score from North–South's point of view under a board vulnerability.

        >>> Contract.from_str("4SEx-2").score_ns("EW")
        500
        """
        if self.is_passout:
            return 0
        if self.declarer is None:
            raise BridgeInputError(f"contract {self} has no declarer")
        vul = is_vulnerable(vulnerability, self.declarer)
        points = self.score(vul, tricks)
        return points if self.declarer.side == "NS" else -points

    # -- output --------------------------------------------------------------

    def __str__(self) -> str:
        if self.is_passout:
            return "Pass"
        seat = "" if self.declarer is None else self.declarer.char
        text = f"{self.level}{self.strain}{seat}{PENALTY_SUFFIX[self.penalty]}"
        if self.result is None:
            return text
        return text + ("=" if self.result == 0 else f"{self.result:+d}")

    def pbn_contract(self) -> str:
        """The PBN ``Contract`` tag value: ``3NTX``, ``4S``, ``Pass``."""
        if self.is_passout:
            return "Pass"
        return f"{self.level}{self.strain}{('', 'X', 'XX')[self.penalty]}"


def parse_contracts(text: str, declarer: Seat | str | None = None) -> list[Contract]:
    """Parse a contract text that may name two declarers (``3NT-NS``, ``4SEWx-1``).

    >>> [str(c) for c in parse_contracts("3N-NS+2")]
    ['3NTN+2', '3NTS+2']
    >>> parse_contracts("pass")
    [Contract(level=0, strain=None, declarer=None, penalty=0, result=None)]
    """
    if not isinstance(text, str):
        raise BridgeInputError(f"contract must be text, got {type(text).__name__}")
    key = re.sub(r"\s+", "", text.translate(_SYMBOLS).upper())
    if key in _PASS_WORDS:
        return [Contract.passed_out()]
    match = _CONTRACT_RE.fullmatch(key)
    if match is None:
        raise BridgeInputError(
            f"cannot parse contract {text!r}; expected e.g. 4SN, 3NTWx-1, 4HN=, 3NTX, Pass"
        )
    level = int(match["level"])
    strain = Strain.from_str(match["strain"])
    if match["dseats"] is not None:
        seats_text = match["dseats"]
        penalty = len(match["star"] or "")
    else:
        seats_text = match["seats"] or ""
        if match["pen1"] and match["pen2"]:
            raise BridgeInputError(f"contract {text!r} is doubled twice")
        penalty = len(match["pen1"] or match["pen2"] or "")
    if seats_text and declarer is not None:
        given = Seat.coerce(declarer)
        if seats_text != given.char:
            raise BridgeInputError(
                f"contract {text!r} names declarer {seats_text} but {given.char} was given"
            )
    if not seats_text and declarer is not None:
        seats: list[Seat | None] = [Seat.coerce(declarer)]
    elif seats_text:
        seats = [Seat.from_char(ch) for ch in seats_text]
    else:
        seats = [None]
    result_text = match["result"]
    result = None if result_text is None else (0 if result_text == "=" else int(result_text))
    if result is not None and not 0 <= level + 6 + result <= 13:
        raise BridgeInputError(
            f"contract {text!r}: result {result:+d} is impossible at level {level}"
        )
    return [Contract(level, strain, seat, penalty, result) for seat in seats]
