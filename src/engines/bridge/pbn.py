"""PBN (Portable Bridge Notation 2.1): lenient import, strict export.

Import (:func:`read_pbn`, :func:`loads`, :func:`load`) accepts what real files
contain: ``;`` and ``{…}`` comments (also on comment-only lines), ``%``
directive lines, ``"?"`` values (unknown), ``10`` for the ten, several boards
per file separated by blank lines, tag sections (``Auction``, ``Play``,
``OptimumResultTable`` …), tag inheritance (a value ``#`` repeats the
previous board's value of that tag), repeated tags such as ``Note`` (kept in
order in :class:`Tags`), a tag value continued on the next line, files in
UTF-8 or Latin-1 (detected, see :mod:`engines.bridge.encoding`), end
positions, partial deals and suit-letter hands (:mod:`engines.bridge.pbn_deal`).
Nothing in a file is fatal: each defect (a game without a ``Deal`` tag too)
becomes a :class:`PbnDefect` naming the line, the board and what is wrong,
collected in :attr:`PbnBoard.errors` (a board whose deal is broken has
``deal = None``).

Export (:func:`dumps`, :func:`dump`) is strict PBN 2.1 export format: a
``% PBN 2.1`` / ``% EXPORT`` header, the mandatory tags first in their
standard order, one tag per line, the deal written from the dealer, blank
lines between boards.  :func:`set_analysis` writes a DD table and par into the
standard tags ``OptimumResultTable``, ``OptimumScore`` and ``ParContract``;
:meth:`PbnBoard.optimum_table` reads them back.  :func:`write_pbn` writes a
file in the encoding its boards were read in.

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
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from engines.bridge.encoding import decode_bytes, encode_text, read_text
from engines.bridge.errors import BridgeInputError, PbnSyntaxError
from engines.bridge.pbn_board import (
    _DEALER_VALUES,
    MANDATORY_TAGS,
    SINGLE_TAGS,
    PbnBoard,
    PbnDefect,
    PbnError,
    Tags,
    _pbn_vul,
)
from engines.bridge.pbn_deal import parse_deal_tag
from engines.bridge.seats import Seat, parse_vulnerability

if TYPE_CHECKING:
    from engines.bridge.dealer_par import Par

__all__ = [
    "PbnBoard",
    "PbnDefect",
    "PbnError",
    "PbnSyntaxError",
    "Tags",
    "dump",
    "dumps",
    "load",
    "loads",
    "read_deal_file",
    "read_pbn",
    "set_analysis",
    "write_pbn",
]

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


# -- reading ------------------------------------------------------------------------------------


def _open_text(source: str | Path | TextIO) -> tuple[TextIO, str, str]:
    """``(handle, name, encoding)``; a ``str`` containing a newline or ``[`` is PBN text.

    A file is read whole and decoded as UTF-8 or Latin-1 (see
    :mod:`engines.bridge.encoding`); a binary stream is decoded the same way.
    """
    if isinstance(source, Path) or (
        isinstance(source, str) and "\n" not in source and "[" not in source
    ):
        text, encoding = read_text(source)
        return io.StringIO(text), str(source), encoding
    if isinstance(source, str):
        return io.StringIO(source), "<string>", "utf-8"
    if isinstance(source, io.BufferedIOBase | io.RawIOBase):
        text, encoding = decode_bytes(source.read())
        return io.StringIO(text), getattr(source, "name", "<stream>"), encoding
    if not hasattr(source, "readline"):
        raise BridgeInputError(
            f"expected a PBN path, PBN text or an open file, got {source!r}"[:300]
        )
    return source, getattr(source, "name", "<stream>"), getattr(source, "encoding", None) or "utf-8"


def read_pbn(source: str | Path | TextIO) -> list[PbnBoard]:
    """Every board of a PBN file, path, or text (lenient; see the module docstring)."""
    return list(iter_pbn(source))


def iter_pbn(source: str | Path | TextIO) -> Iterator[PbnBoard]:
    """Stream the boards of a PBN source one at a time."""
    handle, _name, encoding = _open_text(source)
    yield from _Reader(handle, encoding).boards()


def loads(text: str) -> list[PbnBoard]:
    """Parse PBN text (json-module style)."""
    if not isinstance(text, str):
        raise BridgeInputError(f"expected PBN text, got {text!r}"[:300])
    return list(_Reader(io.StringIO(text)).boards())


def load(fp: TextIO) -> list[PbnBoard]:
    """Parse an open PBN text stream (json-module style)."""
    return list(_Reader(fp).boards())


class _Reader:
    """Line-based lenient PBN reader with tag inheritance."""

    def __init__(self, handle: TextIO, encoding: str = "utf-8") -> None:
        self.handle = handle
        self.encoding = encoding
        self.previous: dict[str, str] = {}
        self.count = 0

    def boards(self) -> Iterator[PbnBoard]:
        board: PbnBoard | None = None
        last_tag: str | None = None
        in_brace = False
        brace_text: list[str] = []
        pending_comments: list[str] = []
        number = 0
        carried: tuple[int, str] | None = None  # a tag line whose value goes on
        for number, raw in enumerate(self.handle, start=1):
            line = raw.rstrip("\r\n")
            if carried is not None:
                if line.lstrip().startswith("[") or not line.strip():
                    # the value never closed: report the tag line as it is
                    start, text = carried
                    carried = None
                    board, last_tag = yield from self._tag_line(board, text, start, last_tag)
                else:
                    start, text = carried
                    carried = (start, text + " " + line.strip())
                    if not _quote_open(carried[1]):
                        board, last_tag = yield from self._tag_line(
                            board, carried[1], start, last_tag
                        )
                        carried = None
                    continue
            if not in_brace and line.startswith("%"):
                continue  # escape / directive line
            if not in_brace and line.lstrip().startswith("[") and _quote_open(line):
                carried = (number, line.rstrip())
                continue
            text, in_brace, comments = _strip_comments(line, in_brace, brace_text)
            if comments:
                (board.comments if board is not None else pending_comments).extend(comments)
            if not text.strip():
                if not line.strip() and board is not None and not in_brace:
                    yield self._finish(board)
                    board, last_tag = None, None
                continue
            stripped = text.strip()
            if stripped.startswith("["):
                if board is None:
                    board = self._new_board(number, pending_comments)
                    pending_comments = []
                board, last_tag = yield from self._tag_line(board, text, number, last_tag)
                continue
            # A section line (Auction calls, Play cards, table rows) belongs to the last tag.
            if board is None or last_tag is None:
                if board is None:
                    board = self._new_board(number, pending_comments)
                    pending_comments = []
                board.errors.append(
                    PbnDefect(number, board.label, f"text outside any tag: {stripped[:60]!r}")
                )
                continue
            board.sections.setdefault(last_tag, []).append(stripped)
        if carried is not None:
            start, text = carried
            if board is None:
                board = self._new_board(start, pending_comments)
            board.errors.append(
                PbnDefect(start, board.label, f"tag value never closed: {text[:60]!r}")
            )
        if in_brace and board is not None:
            board.errors.append(PbnDefect(number, board.label, "unterminated { comment"))
        if board is not None:
            yield self._finish(board)

    def _new_board(self, line: int, comments: list[str] | None = None) -> PbnBoard:
        return PbnBoard(line=line, comments=list(comments or []), encoding=self.encoding)

    def _tag_line(
        self, board: PbnBoard | None, text: str, number: int, last_tag: str | None
    ) -> Iterator[PbnBoard]:
        """Read the tags of one line into ``board``; yields a board a repeated tag ended.

        Returns (via ``yield from``) the board now being read and the last tag.
        """
        if board is None:
            board = self._new_board(number)
        position = 0
        for match in _TAG_RE.finditer(text):
            if text[position : match.start()].strip():
                break
            name, value = match.group(1), _unescape(match.group(2))
            if name in board.tags and name in SINGLE_TAGS:
                # A repeated game tag means the blank line between two games is missing.
                yield self._finish(board)
                board = self._new_board(number)
            board.tags.add(name, value)
            board.tag_lines.setdefault(name, number)
            last_tag = name
            position = match.end()
        rest = text[position:].strip()
        if rest:
            board.errors.append(PbnDefect(number, board.label, f"malformed tag line {rest[:60]!r}"))
        return board, last_tag

    def _finish(self, board: PbnBoard) -> PbnBoard:
        self.count += 1
        for index, (name, value) in enumerate(board.tags.pairs()):
            if value == "#":
                if name in self.previous:
                    board.tags.replace_pair(index, self.previous[name])
                else:
                    board.errors.append(
                        PbnDefect(
                            board.tag_lines.get(name, board.line),
                            board.label,
                            f'tag {name} is "#" but no earlier board has it',
                        )
                    )
        self.previous.update(board.tags)
        _check_board(board)
        return board


def _quote_open(line: str) -> bool:
    """True when a tag line ends inside a quoted value (the value goes on on the next line)."""
    in_quote = False
    i = 0
    while i < len(line):
        ch = line[i]
        if in_quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
        elif ch == ";":
            return False
        elif ch == "{":
            end = line.find("}", i)
            if end < 0:
                return False
            i = end
        i += 1
    return in_quote


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
        board.errors.append(PbnDefect(board.tag_lines.get(name, board.line), label, message))

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
        # "?" is PBN's "unknown", written on purpose; a missing or empty Deal is a defect
        if board.tags.get("Deal", "").strip() != "?":
            error("Deal", "no Deal tag: the game has no cards")
        return
    try:
        parsed = parse_deal_tag(deal_text)
    except BridgeInputError as exc:
        board.deal = None
        error("Deal", str(exc))
        return
    board.deal, board.hands = parsed.deal, parsed.hands


def read_deal_file(path: str | Path) -> list[PbnBoard]:
    """Boards from a PBN file or from a plain file of one PBN deal per line.

    Plain files hold ``N:…`` deal strings, one a line; blank lines and lines
    starting with ``#`` are ignored.  Every entry becomes a :class:`PbnBoard`
    (tags ``Deal`` only) with its line number and defects.
    """
    text, encoding = read_text(path)
    if any(line.lstrip().startswith("[") for line in text.splitlines()):
        return list(_Reader(io.StringIO(text), encoding).boards())
    boards = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        board = PbnBoard(
            tags=Tags({"Deal": line}), line=number, tag_lines={"Deal": number}, encoding=encoding
        )
        try:
            parsed = parse_deal_tag(line)
            board.deal, board.hands = parsed.deal, parsed.hands
        except BridgeInputError as exc:
            board.errors.append(PbnDefect(number, board.label, str(exc)))
        boards.append(board)
    return boards


# -- writing ------------------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace('"', '\\"')


def _export_tags(board: PbnBoard) -> list[tuple[str, str]]:
    """Every tag to write, mandatory ones first in the standard order, repeats kept."""
    fixed: dict[str, str] = {}
    # Strict export writes only valid values: what could not be read becomes "?"
    # (the defect itself is kept as a comment by dumps()).
    if board.deal is not None:
        fixed["Deal"] = board.deal.to_pbn(board.dealer or Seat.NORTH)
    elif board.hands is not None:
        fixed["Deal"] = "N:" + " ".join("-" if h is None else h.to_pbn() for h in board.hands)
    else:  # unreadable or missing: unknown (the defect is written as a comment)
        fixed["Deal"] = "?"
    if board._value("Vulnerable") is not None:
        vul = board.vulnerability
        fixed["Vulnerable"] = "?" if vul is None else _pbn_vul(vul)
    if board._value("Dealer") is not None:
        fixed["Dealer"] = "?" if board.dealer is None else board.dealer.char
    if board._value("Board") is not None and board.board_number is None:
        fixed["Board"] = "?"
    ordered = [(name, fixed.get(name, board.tags.get(name, ""))) for name in MANDATORY_TAGS]
    ordered += [(n, v) for n, v in board.tags.pairs() if n not in MANDATORY_TAGS]
    return ordered


def _section_row(row: str) -> str:
    """A section row as written: spaces normalised, never read back as an escape line.

    A row that begins with ``%`` (text left after a comment closed on its line) is
    indented, because a ``%`` in the first column starts a PBN escape line, which a
    reader skips: without it the row would vanish on the next read.
    """
    row = " ".join(row.split())
    return " " + row if row.startswith("%") else row


def dumps(boards: Iterable[PbnBoard], *, header: bool = True) -> str:
    """Strict PBN export of ``boards`` (see the module docstring)."""
    out: list[str] = []
    if header:
        out += ["% PBN 2.1", "% EXPORT", ""]
    for board in boards:
        written: set[str] = set()
        for name, value in _export_tags(board):
            out.append(f'[{name} "{_escape(value)}"]')
            if name not in written:
                out.extend(_section_row(row) for row in board.sections.get(name, []))
                written.add(name)
        comments = list(board.comments)
        comments += [f"error: {e}" for e in board.errors if f"error: {e}" not in comments]
        for comment in comments:
            out.append("{" + comment.replace("}", ")") + "}")
        out.append("")
    return "\n".join(out)


def write_pbn(path: str | Path, boards: Iterable[PbnBoard]) -> str:
    """Write ``boards`` to ``path`` as strict PBN in the encoding they were read in.

    Boards read from Latin-1 files are written in Latin-1 (PBN 2.1's own
    character set) unless some text needs UTF-8; everything else is written
    as UTF-8.  Returns the encoding used.
    """
    boards = list(boards)
    encodings = {b.encoding for b in boards}
    encoding = "latin-1" if encodings == {"latin-1"} else "utf-8"
    data, used = encode_text(dumps(boards), encoding)
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise BridgeInputError(f"{path}: cannot write: {exc.strerror}") from exc
    return used


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
