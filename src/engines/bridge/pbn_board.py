"""A PBN game in memory: its tags (repeats kept, in order), deal and defects.

:class:`PbnBoard` is what every bridge file reader returns (PBN, LIN, plain
deal lists); :class:`Tags` keeps the tags of a game in file order with
repeated names (several ``Note`` tags on every alerted board); :class:`PbnDefect`
is one defect, printed as ``line L: board B: what``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import NamedTuple

from engines.bridge.cards import Deal, Hand
from engines.bridge.seats import BridgeInputError, Seat, parse_vulnerability, pbn_vulnerability

__all__ = ["MANDATORY_TAGS", "SINGLE_TAGS", "PbnBoard", "PbnDefect", "PbnError", "Tags"]

#: The mandatory tag set (PBN 2.1 §3.1), in export order.
MANDATORY_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)  # fmt: skip

#: Tags of which a game has one: a second one means a new game began without a blank line.
#: Any other tag may repeat (``Note`` on every alerted call) and is kept in order.
SINGLE_TAGS: frozenset[str] = frozenset(
    (*MANDATORY_TAGS, "Auction", "Play", "OptimumResultTable", "OptimumScore", "ParContract")
)

_DEALER_VALUES = {"N", "E", "S", "W"}


class PbnDefect(NamedTuple):
    """One defect found while reading: ``line`` (1-based), the ``board`` it belongs to, what."""

    line: int
    board: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.board}: {self.message}"


#: The former name of :class:`PbnDefect`: it is a record of a defect, not an exception.
PbnError = PbnDefect


class Tags(MutableMapping[str, str]):
    """The tags of a game in file order; a name may repeat (several ``Note`` tags).

    As a mapping it shows each name once with its first value, so
    ``tags["Deal"]`` and ``tags.get("Board")`` work as with a dict; assigning
    replaces every value of that name.  :meth:`add` appends one more tag,
    :meth:`get_all` lists every value of a name and :meth:`pairs` every tag in
    order, repeats included.

    >>> tags = Tags({"Board": "1"})
    >>> tags.add("Note", "1:Stayman"); tags.add("Note", "2:no major")
    >>> tags["Note"], tags.get_all("Note"), len(tags)
    ('1:Stayman', ['1:Stayman', '2:no major'], 2)
    >>> tags.pairs()
    [('Board', '1'), ('Note', '1:Stayman'), ('Note', '2:no major')]
    """

    __slots__ = ("_pairs",)

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        source = items.items() if isinstance(items, Mapping) else items
        self._pairs: list[tuple[str, str]] = [(str(k), str(v)) for k, v in source]

    def __getitem__(self, name: str) -> str:
        for key, value in self._pairs:
            if key == name:
                return value
        raise KeyError(name)

    def __setitem__(self, name: str, value: str) -> None:
        for index, (key, _) in enumerate(self._pairs):
            if key == name:
                self._pairs[index] = (name, value)
                self._pairs[index + 1 :] = [p for p in self._pairs[index + 1 :] if p[0] != name]
                return
        self._pairs.append((name, value))

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._pairs = [p for p in self._pairs if p[0] != name]

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self._pairs)

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(key for key, _ in self._pairs))

    def __len__(self) -> int:
        return len(set(key for key, _ in self._pairs))

    def add(self, name: str, value: str) -> None:
        """Append a tag, keeping any earlier one of the same name."""
        self._pairs.append((name, value))

    def get_all(self, name: str) -> list[str]:
        """Every value of ``name`` in file order (empty when absent)."""
        return [value for key, value in self._pairs if key == name]

    def pairs(self) -> list[tuple[str, str]]:
        """Every tag as ``(name, value)`` in order, repeated names included."""
        return list(self._pairs)

    def replace_pair(self, index: int, value: str) -> None:
        """Set the value of the ``index``-th pair (tag inheritance of a repeated tag)."""
        self._pairs[index] = (self._pairs[index][0], value)

    def __repr__(self) -> str:
        return f"Tags({self._pairs!r})"


@dataclass
class PbnBoard:
    """One PBN game: its tags (file order), sections, deal and the defects found.

    ``tags`` (a :class:`Tags`) holds every tag with its value as written
    (``"?"`` kept), repeated tags such as ``Note`` in file order; ``sections``
    maps a tag name to the data lines that follow it (``Auction``, ``Play``,
    ``OptimumResultTable`` …); ``line`` is where the board starts;
    ``tag_lines`` where each tag first is.  ``deal`` is the full deal or end
    position; for a partial deal (hands written ``-``) it is None and
    ``hands`` holds the known hands.  ``encoding`` is the file's (``utf-8``,
    ``utf-8-sig`` or ``latin-1``), which :func:`write_pbn` writes back.
    """

    tags: Tags = field(default_factory=Tags)
    deal: Deal | None = None
    line: int = 0
    errors: list[PbnDefect] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    tag_lines: dict[str, int] = field(default_factory=dict)
    hands: tuple[Hand | None, ...] | None = None
    encoding: str = "utf-8"

    def __post_init__(self) -> None:
        if not isinstance(self.tags, Tags):
            self.tags = Tags(self.tags)

    @property
    def is_partial(self) -> bool:
        """True for a deal with unknown (``-``) hands: readable, but nothing to solve."""
        return self.deal is None and self.hands is not None

    def unusable(self, *, full_deal: bool = False) -> PbnDefect | None:
        """:meth:`unusable_reason` as a :class:`PbnDefect` at the ``Deal`` line (``skipped: …``)."""
        reason = self.unusable_reason(full_deal=full_deal)
        if reason is None:
            return None
        return PbnDefect(self.tag_lines.get("Deal", self.line), self.label, f"skipped: {reason}")

    def unusable_reason(self, *, full_deal: bool = False) -> str | None:
        """Why a command cannot solve this board (None when it can), for skip messages.

        ``full_deal=True`` also refuses end positions (par needs 13 cards a hand).
        """
        if self.hands is not None and self.deal is None:
            unknown = " ".join(s.char for s in Seat if self.hands[s] is None)
            return f"partial deal (hands {unknown} unknown): nothing to solve"
        if self.deal is None:
            return "no deal"
        if full_deal and self.deal.tricks_left != 13:
            return (
                f"end position of {self.deal.tricks_left} tricks: par and contract scores need "
                "a full deal (qipai bridge table solves end positions)"
            )
        return None

    # -- construction -------------------------------------------------------

    @classmethod
    def from_deal(
        cls,
        deal: Deal,
        *,
        board: int | None = None,
        dealer: Seat | str | None = None,
        vulnerability: str | None = None,
    ) -> PbnBoard:
        """A board holding ``deal`` with optional Board/Dealer/Vulnerable tags."""
        tags = Tags()
        if board is not None:
            tags["Board"] = str(board)
        if dealer is not None:
            tags["Dealer"] = (Seat.from_char(dealer) if isinstance(dealer, str) else dealer).char
        if vulnerability is not None:
            tags["Vulnerable"] = _pbn_vul(parse_vulnerability(vulnerability))
        tags["Deal"] = deal.to_pbn()
        return cls(tags=tags, deal=deal)

    # -- typed views of the tags --------------------------------------------

    def _value(self, name: str) -> str | None:
        value = self.tags.get(name)
        if value is None or value.strip() in ("", "?", "-"):
            return None
        return value.strip()

    @property
    def board_number(self) -> int | None:
        """The ``Board`` tag as an integer (None when absent, unknown or not a number)."""
        value = self._value("Board")
        if value is None or not value.isdigit():
            return None
        return int(value)

    @property
    def dealer(self) -> Seat | None:
        value = self._value("Dealer")
        if value is None or value.upper() not in _DEALER_VALUES:
            return None
        return Seat.from_char(value)

    @property
    def vulnerability(self) -> str | None:
        """``None``/``NS``/``EW``/``Both`` from the ``Vulnerable`` tag (Python None if unknown)."""
        value = self._value("Vulnerable")
        if value is None:
            return None
        try:
            return parse_vulnerability(value)
        except BridgeInputError:
            return None

    @property
    def label(self) -> str:
        """``board 7`` (or ``board at line 12`` when there is no Board tag), for messages."""
        number = self._value("Board")
        return f"board {number}" if number is not None else f"board at line {self.line}"

    def optimum_table(self) -> dict[str, dict[str, int]] | None:
        """The DD table stored in ``OptimumResultTable`` (corpus layout), if complete."""
        rows = self.sections.get("OptimumResultTable")
        if not rows:
            return None
        table: dict[str, dict[str, int]] = {}
        for row in rows:
            parts = row.split()
            if len(parts) != 3 or not parts[2].isdigit():
                return None
            seat, strain, tricks = parts[0].upper(), parts[1].upper(), int(parts[2])
            strain = "NT" if strain in ("N", "NT") else strain
            table.setdefault(strain, {})[seat] = tricks
        if sorted(table) != sorted(("C", "D", "H", "S", "NT")) or any(
            sorted(r) != sorted("NESW") for r in table.values()
        ):
            return None
        return {s: {p: table[s][p] for p in "NESW"} for s in ("C", "D", "H", "S", "NT")}


_pbn_vul = pbn_vulnerability
