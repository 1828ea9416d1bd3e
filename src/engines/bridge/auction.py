"""Auctions: legal calls, the final contract and declarer, passed-out boards, PBN sections.

Calls are written ``1C`` … ``7NT`` (``N`` also means notrump), ``Pass``
(``P``), ``X`` (``Dbl``) and ``XX`` (``Rdbl``).  Legality follows the Laws:
a bid must be higher than the last bid; ``X`` only of an opponent's bid not
yet doubled; ``XX`` only of an opponent's double; nothing after the auction
ends (four initial passes, or three passes after a call).

>>> auction = Auction.from_calls("N", "1NT Pass 3NT Pass Pass Pass".split())
>>> str(auction.contract), auction.declarer
('3NTN', <Seat.NORTH: 0>)
>>> Auction.from_calls("E", ["1S", "X", "XX", "2H", "Pass", "Pass", "X"]).to_move
<Seat.NORTH: 0>
>>> Auction.from_calls("N", ["1H", "Pass", "X"])
Traceback (most recent call last):
...
engines.bridge.auction.AuctionError: call 3 (S): X doubles partner's bid 1H
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from engines.arguments import as_list
from engines.bridge.contract import Contract
from engines.bridge.errors import AuctionError
from engines.bridge.seats import Seat, Strain

__all__ = ["Auction", "AuctionError", "Call", "final_contract", "parse_pbn_auction"]


class Call(NamedTuple):
    """One call: ``kind`` is ``bid``, ``pass``, ``double`` or ``redouble``."""

    kind: str
    level: int = 0
    strain: Strain | None = None

    @classmethod
    def from_str(cls, text: str) -> Call:
        """Parse ``1NT``, ``1N``, ``7C``, ``Pass``/``P``, ``X``/``Dbl``, ``XX``/``Rdbl``.

        >>> Call.from_str("2n")
        Call(kind='bid', level=2, strain=<Strain.NOTRUMP: 4>)
        >>> str(Call.from_str("dbl"))
        'X'
        """
        if not isinstance(text, str):
            raise AuctionError(f"a call must be text such as 1NT or Pass, got {text!r}"[:300])
        key = text.strip().upper().translate(_SYMBOLS)
        if key in ("P", "PASS", "-P-"):
            return PASS
        if key in ("X", "D", "DBL", "DOUBLE"):
            return DOUBLE
        if key in ("XX", "R", "RDBL", "REDOUBLE"):
            return REDOUBLE
        match = re.fullmatch(r"([1-7])(NT|N|[CDHS])", key)
        if match is None:
            raise AuctionError(f"unknown call {text!r}; expected e.g. 1C, 3NT, Pass, X, XX")
        return cls("bid", int(match.group(1)), Strain.from_str(match.group(2)))

    @classmethod
    def coerce(cls, call: Call | str) -> Call:
        """``call`` checked (a hand-built :class:`Call` too), or text parsed; else an
        :class:`AuctionError`.

        >>> Call.coerce("1S") == Call("bid", 1, Strain.SPADES)
        True
        >>> Call.coerce(Call("bid", 8, Strain.SPADES))
        Traceback (most recent call last):
        ...
        engines.bridge.auction.AuctionError: bad call Call(kind='bid', level=8, ...
        """
        if isinstance(call, str):
            return cls.from_str(call)
        if not isinstance(call, Call):
            raise AuctionError(f"a call must be a Call or text such as 1NT, got {call!r}"[:300])
        if call.kind == "bid":
            good = (
                type(call.level) is int and 1 <= call.level <= 7 and isinstance(call.strain, Strain)
            )
        else:
            good = call.kind in ("pass", "double", "redouble") and call == cls(call.kind)
        if not good:
            raise AuctionError(
                f"bad call {call!r}: a bid has a level 1..7 and a Strain; pass, double and "
                "redouble have neither"[:300]
            )
        return call

    @property
    def index(self) -> int:
        """0 for 1♣ … 34 for 7NT; -1 for other calls."""
        if self.kind != "bid":
            return -1
        return (self.level - 1) * 5 + int(self.strain)  # type: ignore[arg-type]

    def __str__(self) -> str:
        if self.kind == "bid":
            return f"{self.level}{self.strain}"
        return {"pass": "Pass", "double": "X", "redouble": "XX"}[self.kind]


PASS = Call("pass")
DOUBLE = Call("double")
REDOUBLE = Call("redouble")

_SYMBOLS = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})


@dataclass
class Auction:
    """A sequence of calls starting with ``dealer``; every call is checked as it is added."""

    dealer: Seat
    calls: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.dealer = Seat.coerce(self.dealer)
        calls, self.calls = as_list(self.calls, "calls", AuctionError), []
        for call in calls:
            self.add(call)

    @classmethod
    def from_calls(cls, dealer: Seat | str, calls: Iterable[Call | str]) -> Auction:
        """Build and check an auction (``AP`` = pass until the auction ends)."""
        auction = cls(Seat.coerce(dealer))
        for call in as_list(calls, "calls", AuctionError):
            if isinstance(call, str) and call.strip().upper() == "AP":
                auction.pass_out()
            else:
                auction.add(call)
        return auction

    # -- state -------------------------------------------------------------------------------

    @property
    def to_move(self) -> Seat:
        return Seat((self.dealer + len(self.calls)) % 4)

    @property
    def is_complete(self) -> bool:
        # Four passes, or three passes after a call; nothing can be added afterwards, so the
        # last three calls being passes (with at least four calls) is exactly "ended".
        return len(self.calls) >= 4 and all(c.kind == "pass" for c in self.calls[-3:])

    @property
    def is_passed_out(self) -> bool:
        return len(self.calls) == 4 and all(c.kind == "pass" for c in self.calls)

    def _last(self, kinds: tuple[str, ...]) -> tuple[int, Call] | None:
        for i in range(len(self.calls) - 1, -1, -1):
            if self.calls[i].kind in kinds:
                return i, self.calls[i]
        return None

    def _seat_of(self, index: int) -> Seat:
        return Seat((self.dealer + index) % 4)

    def problem(self, call: Call | str) -> str | None:
        """Why ``call`` would be illegal now, or ``None`` when it is legal."""
        call = Call.coerce(call)
        if self.is_complete:
            return f"{call} after the auction has ended"
        if call.kind == "pass":
            return None
        last_bid = self._last(("bid",))
        last_action = self._last(("bid", "double", "redouble"))
        me = self.to_move
        if call.kind == "bid":
            if last_bid is not None and call.index <= last_bid[1].index:
                return f"{call} is insufficient after {last_bid[1]}"
            return None
        if last_action is None:
            return f"{call} with no bid to {'double' if call.kind == 'double' else 'redouble'}"
        index, previous = last_action
        by_partner = self._seat_of(index) in (me, me.partner)
        if call.kind == "double":
            if previous.kind != "bid":
                return f"X of {last_bid[1] if last_bid else 'nothing'}, already doubled"
            if by_partner:
                return f"X doubles partner's bid {previous}"
            return None
        if previous.kind != "double":
            return "XX without an opponent's double"
        if by_partner:
            return "XX of partner's double"
        return None

    def is_legal(self, call: Call | str) -> bool:
        return self.problem(call) is None

    def add(self, call: Call | str) -> None:
        """Append a call; raise :class:`AuctionError` (naming call and seat) if illegal."""
        call = Call.coerce(call)
        reason = self.problem(call)
        if reason is not None:
            raise AuctionError(f"call {len(self.calls) + 1} ({self.to_move.char}): {reason}")
        self.calls.append(call)

    def pass_out(self) -> None:
        """Add passes until the auction ends (PBN's ``AP``)."""
        while not self.is_complete:
            self.add(PASS)

    def legal_calls(self) -> list[Call]:
        """Every legal call now (empty once the auction is over)."""
        candidates = [PASS, DOUBLE, REDOUBLE] + [
            Call("bid", level, strain) for level in range(1, 8) for strain in Strain
        ]
        return [c for c in candidates if self.is_legal(c)]

    # -- result ----------------------------------------------------------------------------

    @property
    def contract(self) -> Contract | None:
        """The final contract (``Pass`` for a pass-out), ``None`` while the auction runs."""
        if not self.is_complete:
            return None
        last_bid = self._last(("bid",))
        if last_bid is None:
            return Contract.passed_out()
        index, bid = last_bid
        side = self._seat_of(index).side
        penalty = 0
        for call in self.calls[index + 1 :]:
            if call.kind == "double":
                penalty = 1
            elif call.kind == "redouble":
                penalty = 2
        declarer = next(
            self._seat_of(i)
            for i, c in enumerate(self.calls)
            if c.kind == "bid" and c.strain == bid.strain and self._seat_of(i).side == side
        )
        return Contract(bid.level, bid.strain, declarer, penalty)

    @property
    def declarer(self) -> Seat | None:
        contract = self.contract
        return None if contract is None else contract.declarer

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.calls)


def final_contract(dealer: Seat | str, calls: Sequence[Call | str]) -> Contract:
    """The contract a complete auction reaches; :class:`AuctionError` if it is not complete."""
    auction = Auction.from_calls(dealer, calls)
    contract = auction.contract
    if contract is None:
        raise AuctionError(f"auction {auction} has not ended")
    return contract


def parse_pbn_auction(first: str, lines: Sequence[str]) -> Auction:
    """An :class:`Auction` from a PBN ``Auction`` tag value (first caller) and its section.

    Note references (``=1=``), NAGs (``$12``), alert marks (``!``), ``+``
    (auction continues) and ``*`` are skipped; ``AP`` passes out the auction.
    """
    auction = Auction(Seat.from_char(first))
    for token in " ".join(as_list(lines, "auction lines", AuctionError)).split():
        if re.fullmatch(r"=\d+=|\$\d+|\+|\*", token):
            continue
        token = token.rstrip("!?")
        if not token:
            continue
        if token.upper() == "AP":
            auction.pass_out()
        else:
            auction.add(token)
    return auction
