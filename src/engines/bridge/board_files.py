"""The one reader of bridge board files: PBN, LIN, or one deal a line.

Every bridge command (``table``, ``analyse``, ``play``) and the batch runner
read boards through :func:`iter_boards`, so a file one of them accepts, all
of them accept.  The format is chosen by the file name (``.pbn``, ``.lin``)
or, for other names, by the first non-blank line: a PBN tag (``[``) or
comment (``%``), a LIN pair (``pn|``, ``md|``, ``qx|``…), else one PBN deal
string a line (``N:AKQ… …``; blank lines and lines starting with ``#``
skipped).  Each board is a :class:`~engines.bridge.pbn.PbnBoard` whose
``errors`` list its defects (nothing is dropped silently); a file that cannot
be opened raises :class:`~engines.bridge.seats.BridgeInputError`.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "deals.txt"
>>> _ = path.write_text("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87\\n"
...                     "N:AKQJ.T98.765.432 T987.AKQ.432.J65\\n")
>>> boards = list(iter_boards(path))
>>> board_file_format(path), len(boards), boards[0].errors, len(boards[1].errors)
('deals', 2, [], 1)
>>> print(defect_lines(path, boards[1])[0])  # doctest: +ELLIPSIS
/.../deals.txt: line 2: board at line 2: deal: expected four hands, found 2 ...
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from engines.bridge.pbn import PbnBoard, iter_pbn, read_deal_file
from engines.bridge.seats import BridgeInputError

__all__ = [
    "BOARD_FILE_SUFFIXES",
    "board_file_format",
    "count_boards",
    "defect_lines",
    "iter_boards",
    "read_boards",
    "sniff_board_line",
]

BOARD_FILE_SUFFIXES = (".pbn", ".lin")
_LIN_PAIR = re.compile(r"^(pn|md|qx|ah|sv|rh|st|vg|mb|pc|an)\|", re.IGNORECASE)


def _first_line(path: Path) -> str:
    try:
        with path.open(encoding="utf-8-sig", errors="replace") as handle:
            for line in handle:
                if line.strip():
                    return line.strip()
    except OSError as exc:
        raise BridgeInputError(f"{path}: cannot open: {exc.strerror}") from exc
    return ""


def board_file_format(path: str | Path) -> str:
    """``"pbn"``, ``"lin"`` or ``"deals"`` (one deal a line) for the file at ``path``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in BOARD_FILE_SUFFIXES:
        return suffix[1:]
    return sniff_board_line(_first_line(path)) or "deals"


def sniff_board_line(line: str) -> str | None:
    """The board-file format a first non-blank line announces, or ``None``.

    >>> sniff_board_line('[Event "x"]'), sniff_board_line("qx|o1|md|3SAK,,,|")
    ('pbn', 'lin')
    >>> sniff_board_line("{") is None
    True
    """
    if line.startswith(("[", "%")):
        return "pbn"
    if _LIN_PAIR.match(line):
        return "lin"
    if re.match(r"^[NESWnesw]:", line):
        return "deals"
    return None


def iter_boards(path: str | Path) -> Iterator[PbnBoard]:
    """The boards of a PBN, LIN or deal-per-line file, in file order (PBN streamed)."""
    path = Path(path)
    fmt = board_file_format(path)
    if fmt == "pbn":
        yield from iter_pbn(path)
    elif fmt == "lin":
        from engines.bridge.lin import read_lin

        yield from read_lin(path)
    else:
        yield from read_deal_file(path)


def count_boards(path: str | Path) -> int:
    """A cheap count of the boards in a file, without parsing (for progress bars):
    ``[Deal`` tags in PBN, ``md|`` pairs in LIN, deal lines otherwise."""
    path = Path(path)
    fmt = board_file_format(path)
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            if fmt == "pbn":
                return sum(1 for line in handle if line.lstrip().startswith("[Deal "))
            if fmt == "lin":
                return sum(line.lower().count("md|") for line in handle)
            return sum(1 for line in handle if line.strip() and not line.lstrip().startswith("#"))
    except OSError as exc:
        raise BridgeInputError(f"{path}: cannot open: {exc.strerror}") from exc


def read_boards(path: str | Path) -> list[PbnBoard]:
    """Every board of the file at ``path`` (see :func:`iter_boards`)."""
    return list(iter_boards(path))


def defect_lines(path: str | Path, board: PbnBoard, *, full_deal: bool = False) -> list[str]:
    """``FILE: line L: BOARD: defect`` for each defect of ``board``; a board the command
    cannot solve (no deal, a partial deal, or with ``full_deal`` an end position) and
    without other defects gets one ``skipped: why`` line."""
    lines = [f"{path}: {error}" for error in board.errors]
    skipped = board.unusable(full_deal=full_deal)
    if not lines and skipped is not None:
        lines.append(f"{path}: {skipped}")
    return lines
