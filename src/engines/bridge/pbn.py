"""PBN (Portable Bridge Notation 2.1): lenient import, strict export.

Import (:func:`read_pbn`, :func:`loads`, :func:`load`) accepts what real files
contain: ``;`` and ``{…}`` comments (also on comment-only lines), ``%``
directive lines, ``"?"`` values (unknown), ``10`` for the ten, several boards
per file separated by blank lines, tag sections (``Auction``, ``Play``,
``OptimumResultTable`` …) and tag inheritance (a value ``#`` repeats the
previous board's value of that tag).  Nothing in a file is fatal: each
defect becomes a :class:`PbnError` naming the line, the board and what is
wrong, collected in :attr:`PbnBoard.errors` (a board whose deal is broken has
``deal = None``).

Export (:func:`dumps`, :func:`dump`) is strict PBN 2.1 export format: a
``% PBN 2.1`` / ``% EXPORT`` header, the mandatory tags first in their
standard order, one tag per line, the deal written from the dealer, blank
lines between boards.  :func:`set_analysis` writes a DD table and par into the
standard tags ``OptimumResultTable``, ``OptimumScore`` and ``ParContract``;
:meth:`PbnBoard.optimum_table` reads them back.

>>> boards = loads('''
... [Board "7"]  ; a comment
... [Dealer "S"]
... [Vulnerable "All"]
... [Deal "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"]
... ''')
>>> b = boards[0]
>>> b.board_number, b.dealer, b.vulnerability, b.errors
(7, <Seat.SOUTH: 2>, 'Both', [])
>>> print(dumps(boards).splitlines()[13])
[Deal "S:65432.J76.AKQ.T9 .5432.JT98.AKQ87 AKQJ.T98.765.432 T987.AKQ.432.J65"]
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from engines.bridge.cards import FULL_SUIT, Deal, DealSyntaxError, Hand
from engines.bridge.seats import SEATS, BridgeInputError, Seat, parse_vulnerability

if TYPE_CHECKING:
    from engines.bridge.dealer_par import Par

__all__ = [
    "PbnBoard",
    "PbnError",
    "PbnSyntaxError",
    "dump",
    "dumps",
    "load",
    "loads",
    "read_deal_file",
    "read_pbn",
    "set_analysis",
]

#: The mandatory tag set (PBN 2.1 §3.1), in export order.
MANDATORY_TAGS: tuple[str, ...] = (
    "Event", "Site", "Date", "Board", "West", "North", "East", "South",
    "Dealer", "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result",
)  # fmt: skip

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_DEALER_VALUES = {"N", "E", "S", "W"}


class PbnError(NamedTuple):
    """One defect found while reading: ``line`` (1-based), the ``board`` it belongs to, what."""

    line: int
    board: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.board}: {self.message}"


class PbnSyntaxError(BridgeInputError):
    """Raised by the strict helpers when a file has defects; ``errors`` lists them all."""

    def __init__(self, errors: list[PbnError], source: str = "") -> None:
        prefix = f"{source}: " if source else ""
        shown = "; ".join(str(e) for e in errors[:5])
        more = f" (and {len(errors) - 5} more)" if len(errors) > 5 else ""
        super().__init__(f"{prefix}{shown}{more}")
        self.errors = errors


@dataclass
class PbnBoard:
    """One PBN game: its tags (file order), sections, deal and the defects found.

    ``tags`` maps tag name to value as written (``"?"`` kept); ``sections``
    maps a tag name to the data lines that follow it (``Auction``, ``Play``,
    ``OptimumResultTable`` …); ``line`` is where the board starts;
    ``tag_lines`` where each tag is.
    """

    tags: dict[str, str] = field(default_factory=dict)
    deal: Deal | None = None
    line: int = 0
    errors: list[PbnError] = field(default_factory=list)
    sections: dict[str, list[str]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    tag_lines: dict[str, int] = field(default_factory=dict)

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
        tags: dict[str, str] = {}
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


# -- reading ------------------------------------------------------------------------------------


def _open_text(source: str | Path | TextIO) -> tuple[TextIO, str, bool]:
    """``(handle, name, must_close)``; a ``str`` containing a newline or ``[`` is PBN text."""
    if isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and "[" not in source
    ):
        path = Path(source)
        try:
            return path.open(encoding="utf-8-sig", errors="replace"), str(path), True
        except OSError as exc:
            raise BridgeInputError(f"{path}: cannot open: {exc.strerror}") from exc
    if isinstance(source, str):
        return io.StringIO(source), "<string>", True
    return source, getattr(source, "name", "<stream>"), False


def read_pbn(source: str | Path | TextIO) -> list[PbnBoard]:
    """Every board of a PBN file, path, or text (lenient; see the module docstring)."""
    return list(iter_pbn(source))


def iter_pbn(source: str | Path | TextIO) -> Iterator[PbnBoard]:
    """Stream the boards of a PBN source one at a time."""
    handle, _name, must_close = _open_text(source)
    try:
        yield from _Reader(handle).boards()
    finally:
        if must_close:
            handle.close()


def loads(text: str) -> list[PbnBoard]:
    """Parse PBN text (json-module style)."""
    return list(_Reader(io.StringIO(text)).boards())


def load(fp: TextIO) -> list[PbnBoard]:
    """Parse an open PBN text stream (json-module style)."""
    return list(_Reader(fp).boards())


class _Reader:
    """Line-based lenient PBN reader with tag inheritance."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle
        self.previous: dict[str, str] = {}
        self.count = 0

    def boards(self) -> Iterator[PbnBoard]:
        board: PbnBoard | None = None
        last_tag: str | None = None
        in_brace = False
        brace_text: list[str] = []
        pending_comments: list[str] = []
        number = 0
        for number, raw in enumerate(self.handle, start=1):
            line = raw.rstrip("\r\n")
            if not in_brace and line.startswith("%"):
                continue  # escape / directive line
            text, in_brace, comments = _strip_comments(line, in_brace, brace_text)
            if comments:
                (board.comments if board is not None else pending_comments).extend(comments)
            if not text.strip():
                if not line.strip() and board is not None and not in_brace:
                    yield self._finish(board)
                    board, last_tag = None, None
                continue
            position = 0
            stripped = text.strip()
            if stripped.startswith("["):
                for match in _TAG_RE.finditer(text):
                    if text[position : match.start()].strip():
                        break
                    if board is None:
                        board = PbnBoard(line=number, comments=pending_comments)
                        pending_comments = []
                    name, value = match.group(1), _unescape(match.group(2))
                    if name in board.tags:
                        # A repeated tag means the blank line between two boards is missing.
                        yield self._finish(board)
                        board = PbnBoard(line=number)
                    board.tags[name] = value
                    board.tag_lines[name] = number
                    last_tag = name
                    position = match.end()
                rest = text[position:].strip()
                if rest:
                    if board is None:
                        board = PbnBoard(line=number, comments=pending_comments)
                        pending_comments = []
                    board.errors.append(
                        PbnError(number, board.label, f"malformed tag line {rest[:60]!r}")
                    )
                continue
            # A section line (Auction calls, Play cards, table rows) belongs to the last tag.
            if board is None or last_tag is None:
                board = board or PbnBoard(line=number, comments=pending_comments)
                pending_comments = []
                board.errors.append(
                    PbnError(number, board.label, f"text outside any tag: {stripped[:60]!r}")
                )
                continue
            board.sections.setdefault(last_tag, []).append(stripped)
        if in_brace and board is not None:
            board.errors.append(PbnError(number, board.label, "unterminated { comment"))
        if board is not None:
            yield self._finish(board)

    def _finish(self, board: PbnBoard) -> PbnBoard:
        self.count += 1
        for name, value in list(board.tags.items()):
            if value == "#":
                if name in self.previous:
                    board.tags[name] = self.previous[name]
                else:
                    board.errors.append(
                        PbnError(
                            board.tag_lines.get(name, board.line),
                            board.label,
                            f'tag {name} is "#" but no earlier board has it',
                        )
                    )
        self.previous.update(board.tags)
        _check_board(board)
        return board


def _strip_comments(
    line: str, in_brace: bool, brace_text: list[str]
) -> tuple[str, bool, list[str]]:
    """Remove ``{…}`` (possibly multi-line) and ``;`` comments outside quoted strings."""
    if not in_brace and ";" not in line and "{" not in line:
        return line, False, []  # the common case: nothing to strip
    out: list[str] = []
    comments: list[str] = []
    in_quote = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_brace:
            end = line.find("}", i)
            if end < 0:
                brace_text.append(line[i:])
                return "".join(out), True, comments
            brace_text.append(line[i:end])
            comments.append("\n".join(brace_text).strip())
            brace_text.clear()
            in_brace = False
            i = end + 1
            continue
        if in_quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(line):
                out.append(line[i + 1])
                i += 2
                continue
            if ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
            out.append(ch)
        elif ch == ";":
            comments.append(line[i + 1 :].strip())
            break
        elif ch == "{":
            in_brace = True
        else:
            out.append(ch)
        i += 1
    return "".join(out), in_brace, comments


def _unescape(value: str) -> str:
    if "\\" not in value:
        return value
    return re.sub(r'\\(["\\])', r"\1", value)


def _check_board(board: PbnBoard) -> None:
    """Validate the tags every analysis needs; record defects, never raise."""
    label = board.label

    def error(name: str, message: str) -> None:
        board.errors.append(PbnError(board.tag_lines.get(name, board.line), label, message))

    value = board._value("Board")
    if value is not None and not value.isdigit():
        error("Board", f"Board {value!r} is not a board number")
    value = board._value("Dealer")
    if value is not None and value.upper() not in _DEALER_VALUES:
        error("Dealer", f"unknown Dealer value {value!r}; expected N, E, S or W")
    value = board._value("Vulnerable")
    if value is not None:
        try:
            parse_vulnerability(value)
        except BridgeInputError:
            error("Vulnerable", f"unknown Vulnerable value {value!r}; expected None, NS, EW, All")
    deal_text = board._value("Deal")
    if deal_text is None:
        return
    try:
        board.deal = parse_full_deal(deal_text)
    except BridgeInputError as exc:
        board.deal = None
        error("Deal", str(exc))


def parse_full_deal(text: str) -> Deal:
    """A 52-card deal from PBN text, with a precise message for each defect.

    >>> parse_full_deal("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8")
    Traceback (most recent call last):
    ...
    engines.bridge.seats.BridgeInputError: deal: hand W has 12 cards (expected 13); C7 missing
    """
    match = re.fullmatch(r"\s*(?:([NESWnesw])\s*:)?\s*(.*?)\s*", text, re.S)
    assert match is not None
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
            hands[seat] = Hand.from_pbn(_normalise_hand(part))
        except DealSyntaxError as exc:
            raise BridgeInputError(f"deal: hand {seat.char}: {exc}") from None
    unknown = [s for s in SEATS if hands[s] is None]
    if len(unknown) > 1:
        raise BridgeInputError(
            f"deal: {len(unknown)} hands unknown ({' '.join(s.char for s in unknown)}); "
            "a full deal may leave out at most one"
        )
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
        dups = [(c, o) for c, o in owners.items() if len(o) > 1]
        card, seats = dups[0]
        raise BridgeInputError(
            f"deal: duplicated card {card} (held by {' and '.join(s.char for s in seats)})"
        )
    if unknown:
        if any(len(h) != 13 for h in hands if h is not None):
            bad = next(s for s in SEATS if hands[s] is not None and len(hands[s]) != 13)  # type: ignore[arg-type]
            raise BridgeInputError(
                f"deal: hand {bad.char} has {len(hands[bad])} cards (expected 13)"  # type: ignore[arg-type]
            )
        hands[unknown[0]] = Hand([FULL_SUIT & ~mask for mask in seen])
        deal = Deal(hands)  # type: ignore[arg-type]
    else:
        deal = Deal(hands)  # type: ignore[arg-type]
    for seat in SEATS:
        size = len(deal[seat])
        if size != 13:
            held = {c for h in deal.hands for c in h.cards()}
            missing = [
                f"{'SHDC'[s]}{'23456789TJQKA'[r - 2]}"
                for s in range(4)
                for r in range(14, 1, -1)
                if (s, r) not in held
            ]
            note = f"; {' '.join(missing[:4])} missing" if missing else ""
            raise BridgeInputError(f"deal: hand {seat.char} has {size} cards (expected 13){note}")
    return deal


def _normalise_hand(text: str) -> str:
    """Accept hands written with suit letters (``SAKQ.HJT.D-.C432``, ``SAKQHJTDC432``).

    No rank letter is also a suit letter, so the letters can be read as suit
    markers; the result is the plain ``S.H.D.C`` form.
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


def read_deal_file(path: str | Path) -> list[PbnBoard]:
    """Boards from a PBN file or from a plain file of one PBN deal per line.

    Plain files hold ``N:…`` deal strings, one a line; blank lines and lines
    starting with ``#`` are ignored.  Every entry becomes a :class:`PbnBoard`
    (tags ``Deal`` only) with its line number and defects.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise BridgeInputError(f"{path}: cannot open: {exc.strerror}") from exc
    if any(line.lstrip().startswith("[") for line in text.splitlines()):
        return loads(text)
    boards = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        board = PbnBoard(tags={"Deal": line}, line=number, tag_lines={"Deal": number})
        try:
            board.deal = parse_full_deal(line)
        except BridgeInputError as exc:
            board.errors.append(PbnError(number, f"deal at line {number}", str(exc)))
        boards.append(board)
    return boards


# -- writing ------------------------------------------------------------------------------------


def _pbn_vul(vul: str) -> str:
    return "All" if vul == "Both" else vul


def _escape(value: str) -> str:
    return value.replace('"', '\\"')


def _export_tags(board: PbnBoard) -> list[tuple[str, str]]:
    tags = dict(board.tags)
    # Strict export writes only valid values: what could not be read becomes "?"
    # (the defect itself is kept as a comment by dumps()).
    if board.deal is not None:
        tags["Deal"] = board.deal.to_pbn(board.dealer or Seat.NORTH)
    elif board._value("Deal") is not None:
        tags["Deal"] = "?"
    if board._value("Vulnerable") is not None:
        vul = board.vulnerability
        tags["Vulnerable"] = "?" if vul is None else _pbn_vul(vul)
    if board._value("Dealer") is not None:
        tags["Dealer"] = "?" if board.dealer is None else board.dealer.char
    if board._value("Board") is not None and board.board_number is None:
        tags["Board"] = "?"
    ordered = [(name, tags.get(name, "")) for name in MANDATORY_TAGS]
    ordered += [(name, value) for name, value in tags.items() if name not in MANDATORY_TAGS]
    return ordered


def dumps(boards: Iterable[PbnBoard], *, header: bool = True) -> str:
    """Strict PBN export of ``boards`` (see the module docstring)."""
    out: list[str] = []
    if header:
        out += ["% PBN 2.1", "% EXPORT", ""]
    for board in boards:
        for name, value in _export_tags(board):
            out.append(f'[{name} "{_escape(value)}"]')
            out.extend(" ".join(row.split()) for row in board.sections.get(name, []))
        comments = list(board.comments)
        comments += [f"error: {e}" for e in board.errors if f"error: {e}" not in comments]
        for comment in comments:
            out.append("{" + comment.replace("}", ")") + "}")
        out.append("")
    return "\n".join(out)


def dump(boards: Iterable[PbnBoard], fp: TextIO, *, header: bool = True) -> None:
    """Write ``boards`` to an open text stream in PBN export format."""
    fp.write(dumps(boards, header=header))


def set_analysis(board: PbnBoard, table: Mapping[str, Mapping[str, int]] | Any, par: Par) -> None:
    """Store a DD table and par in the standard PBN tags of ``board``.

    ``OptimumResultTable`` gets 20 rows ``N NT 11`` (seats N S E W, strains
    NT S H D C); ``OptimumScore`` is ``NS 460`` / ``EW 100``; ``ParContract``
    lists the par contracts grouped by side, ``NS 3NT+2`` or ``EW 5DX-2``,
    several joined with ``"; "``, ``Pass`` for a pass-out.
    """
    from engines.bridge.dealer_par import dd_table_tuple

    rows = dd_table_tuple(table)
    strains = ("C", "D", "H", "S", "NT")
    board.tags["OptimumResultTable"] = "Declarer;Denomination\\2R;Result\\2R"
    board.sections["OptimumResultTable"] = [
        f"{seat} {strain:>2} {rows[strains.index(strain)]['NESW'.index(seat)]:>2}"
        for seat in "NSEW"
        for strain in ("NT", "S", "H", "D", "C")
    ]
    board.tags["OptimumScore"] = par.side_text()
    board.tags["ParContract"] = par_contract_text(par)


def par_contract_text(par: Par) -> str:
    """The ``ParContract`` value: contracts grouped by seats, e.g. ``NS 3NT+2; EW 5DX-2``."""
    if par.is_passout:
        return "Pass"
    groups: dict[str, list[str]] = {}
    for contract in par.parsed:
        key = f"{contract.level}{contract.strain}{('', 'X', 'XX')[contract.penalty]}"
        result = contract.result or 0
        key += "=" if result == 0 else f"{result:+d}"
        groups.setdefault(key, []).append(contract.declarer.char)  # type: ignore[union-attr]
    return "; ".join(
        f"{''.join(sorted(seats, key='NESW'.index))} {key}" for key, seats in groups.items()
    )
