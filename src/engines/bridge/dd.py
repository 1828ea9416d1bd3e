"""Double-dummy tables and end positions: the public face of the native solver.

Every entry point validates its input here (raising a
:class:`~engines.bridge.seats.BridgeInputError` subclass that names the
defect) before the arrays reach :mod:`solvers.bridge`, which trusts them.

>>> from engines.bridge import Deal
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> table = dd_table(deal)
>>> table["NT"]["N"], table[Strain.SPADES][Seat.SOUTH]
(4, 7)
>>> print(table)
      C  D  H  S NT
N     3  4  3  7  4
S     3  4  3  7  4
E    10  8 10  5  5
W    10  8 10  5  5
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from engines.arguments import as_list, integer
from engines.bridge.cards import Card, Deal
from engines.bridge.seats import SEATS, STRAINS, BridgeInputError, Seat, Strain

__all__ = ["DDTable", "dd_table", "dd_tables", "solve_position", "table_mib"]

# DDS / kernel row order S H D C NT for each strain in corpus order C D H S NT
_ROW = [strain.dds_index for strain in STRAINS]


class DDTable(Mapping[str, dict[str, int]]):
    """The 20 double-dummy results of one deal.

    ``table[strain][declarer]`` (strain ``C D H S NT`` or :class:`Strain`,
    declarer ``N E S W`` or :class:`Seat`) is the number of tricks declarer's
    side takes with the opening lead from declarer's left.  :meth:`to_dict`
    gives the corpus layout (strains ``C D H S NT``, then declarers ``N E S W``);
    :meth:`to_array` the DDS ``resTable`` order (rows ``S H D C NT``, columns
    ``N E S W``); ``str()`` the grid endplay prints (rows ``N S E W``, columns
    ``C D H S NT``).
    """

    __slots__ = ("_cells",)

    def __init__(self, cells: Any) -> None:
        array = np.asarray(cells) if isinstance(cells, np.ndarray | list | tuple) else None
        if array is None or array.shape != (5, 4):
            shape = "no array" if array is None else array.shape
            raise BridgeInputError(f"a DD table is 5 strains × 4 declarers, got {shape}")
        if array.dtype.kind not in "iu" or array.min() < -1 or array.max() > 13:
            raise BridgeInputError(
                "DD table cells must be integers 0..13 (-1: strain not solved), got "
                f"{array.tolist()}"
            )
        array = array.astype(np.int32)
        array.flags.writeable = False  # shared by every view the table hands out
        self._cells = array  # DDS order: rows S H D C NT, columns N E S W

    @classmethod
    def from_dict(cls, data: Mapping[str, Mapping[str, int]]) -> DDTable:
        """Build from the corpus layout ``{"C": {"N": 9, ...}, ..., "NT": {...}}``."""
        cells = np.full((5, 4), -1, dtype=np.int32)
        for strain in STRAINS:
            if strain.symbol in data:
                for seat in SEATS:
                    cells[strain.dds_index, seat] = int(data[strain.symbol][seat.char])
        return cls(cells)

    @property
    def strains(self) -> tuple[Strain, ...]:
        """The strains this table holds (all five unless solved with ``strains=``)."""
        return tuple(s for s in STRAINS if self._cells[s.dds_index, 0] >= 0)

    def _row(self, strain: str | Strain) -> np.ndarray:
        key = strain if isinstance(strain, Strain) else Strain.from_str(strain)
        row = self._cells[key.dds_index]
        if row[0] < 0:
            solved = " ".join(s.symbol for s in self.strains)
            raise KeyError(f"strain {key.symbol} was not solved (this table holds {solved})")
        return row

    def __getitem__(self, strain: str | Strain) -> dict[str, int]:  # type: ignore[override]
        row = self._row(strain)
        return _SeatRow({seat.char: int(row[seat]) for seat in SEATS})

    def tricks(self, strain: Strain | str, declarer: Seat | str) -> int:
        seat = declarer if isinstance(declarer, Seat) else Seat.from_char(declarer)
        return int(self._row(strain)[seat])

    def __iter__(self) -> Iterator[str]:
        return (strain.symbol for strain in self.strains)

    def __len__(self) -> int:
        return len(self.strains)

    def to_dict(self) -> dict[str, dict[str, int]]:
        """The corpus layout: ``{"C": {"N": .., "E": .., "S": .., "W": ..}, ..., "NT": {..}}``."""
        return {strain.symbol: dict(self[strain]) for strain in self.strains}

    def to_array(self) -> np.ndarray:
        """A copy in DDS ``resTable`` order: rows ``S H D C NT``, columns ``N E S W``."""
        return self._cells.copy()

    def to_list(self) -> list[list[int]]:
        """Rows in corpus strain order ``C D H S NT``, columns ``N E S W``."""
        return [self._cells[row].tolist() for row in _ROW]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DDTable):
            return bool(np.array_equal(self._cells, other._cells))
        if isinstance(other, Mapping):
            try:
                return self.to_dict() == {k: dict(v) for k, v in other.items()}
            except (TypeError, AttributeError):
                return False
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return (DDTable, (self._cells.tolist(),))

    def __repr__(self) -> str:
        return f"DDTable.from_dict({self.to_dict()!r})"

    def __str__(self) -> str:
        lines = ["    " + "".join(f"{s.symbol:>3}" for s in STRAINS)]
        for seat in (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST):
            cells = "".join(
                f"{self._cells[s.dds_index, seat]:>3}"
                if self._cells[s.dds_index, seat] >= 0
                else "  -"
                for s in STRAINS
            )
            lines.append(f"{seat.char}   {cells}")
        return "\n".join(lines)


class _SeatRow(dict):
    """One strain's row: ``row["N"]`` or ``row[Seat.NORTH]``."""

    def __getitem__(self, seat: str | Seat) -> int:  # type: ignore[override]
        if isinstance(seat, Seat):
            return super().__getitem__(seat.char)
        if isinstance(seat, str) and seat not in self:
            return super().__getitem__(Seat.from_char(seat).char)
        return super().__getitem__(seat)


def _full_deal_masks(deal: Deal | str) -> np.ndarray:
    if isinstance(deal, str):
        deal = Deal.from_pbn(deal)
    if not isinstance(deal, Deal):
        raise BridgeInputError(f"expected a Deal or a PBN deal string, got {type(deal).__name__}")
    if deal.trick:
        raise BridgeInputError(
            "a DD table needs a deal at the start of a trick; use solve_position for a trick "
            "in progress"
        )
    Deal(deal.hands).validate()
    return np.array(deal.masks(), dtype=np.uint16)


def _table_bits(table_mb: float | None) -> int:
    """Size exponent of the largest transposition table within ``table_mb`` MiB."""
    from solvers.bridge import _ab_search

    if table_mb is None:
        return _ab_search.DEFAULT_TABLE_BITS
    if isinstance(table_mb, bool) or not isinstance(table_mb, int | float) or table_mb != table_mb:
        raise BridgeInputError(f"table_mb must be a number of MiB, got {table_mb!r}")
    low, high = _ab_search.TABLE_BITS_RANGE
    fitting = [b for b in range(low, high + 1) if _ab_search.table_bytes(b) <= table_mb * 2**20]
    if not fitting:
        smallest = _ab_search.table_bytes(low) / 2**20
        raise BridgeInputError(f"table_mb must be at least {smallest:.3f} MiB, got {table_mb}")
    return fitting[-1]


def table_mib(bits: int | None = None) -> float:
    """MiB of one thread's transposition table (the default one when ``bits`` is None).

    >>> round(table_mib(), 1)
    48.0
    """
    from solvers.bridge import _ab_search

    return _ab_search.table_bytes(_ab_search.DEFAULT_TABLE_BITS if bits is None else bits) / 2**20


def _thread_count(threads: int | None) -> int:
    """``threads`` checked and capped at the cores this process may use (0: all cores)."""
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise BridgeInputError(f"threads must be an integer, got {threads!r}")
    if threads < 1:
        raise BridgeInputError(f"threads must be at least 1 (or None for all cores), got {threads}")
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return min(threads, max(cores, 1))


def dd_table(
    deal: Deal | str,
    *,
    strains: Iterable[Strain | str] | str | None = None,
    table_mb: float | None = None,
) -> DDTable:
    """The DD table of one deal (or of an end position with equal hands), on this thread.

    Accepts a :class:`Deal` or a PBN deal string; raises
    :class:`~engines.bridge.errors.InvalidDealError` naming every defect.
    ``strains`` (e.g. ``"NT"``, ``"S,H"`` or ``[Strain.SPADES]``) solves only
    those strains, like DDS's trump filter.  ``table_mb`` bounds the
    transposition table (default about 48 MiB, see :func:`dd_tables`).

    >>> table = dd_table("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87",
    ...                  strains="NT")
    >>> dict(table["NT"]), list(table)
    ({'N': 4, 'E': 5, 'S': 4, 'W': 5}, ['NT'])
    """
    from solvers.bridge import dd_table as kernel

    masks = _full_deal_masks(deal)
    bits = _table_bits(table_mb)
    wanted = _strain_filter(strains)
    if wanted is None:
        return DDTable(kernel(masks, tt_bits=bits))
    return DDTable(_some_strains(masks, wanted, bits))


def dd_tables(
    deals: Iterable[Deal | str],
    threads: int | None = None,
    *,
    chunk: int = 0,
    strains: Iterable[Strain | str] | str | None = None,
    table_mb: float | None = None,
) -> list[DDTable]:
    """DD tables of any number of deals, solved on ``threads`` cores (None = all).

    The native solver runs the deals in parallel with the GIL released; each
    thread owns one transposition table of at most ``table_mb`` MiB (default
    :func:`table_mib`, about 48 MiB; smaller tables lose speed on hard deals,
    never exactness).  ``threads`` above the number of cores this process may
    run on is capped at that number (more threads than cores only cost
    memory), and at five per deal (one job per deal and strain).  So the
    memory held is at most ``threads × table_mb`` plus the deals and the
    results.  ``chunk`` > 0 solves that many deals per native call (to bound
    the memory of the input arrays for huge batches); results come back in
    input order.  ``strains`` solves only those strains (see :func:`dd_table`).
    """
    from solvers.bridge import dd_tables as kernel

    count = _thread_count(threads)
    bits = _table_bits(table_mb)
    wanted = _strain_filter(strains)
    if isinstance(deals, str | Deal):
        raise BridgeInputError("deals must be a list of deals; use dd_table for one deal")
    chunk = integer(chunk, "chunk", BridgeInputError)
    masks = [_full_deal_masks(deal) for deal in as_list(deals, "deals", BridgeInputError)]
    if not masks:
        return []
    if wanted is not None:
        return _some_strains_batch(masks, wanted, count, bits)
    step = chunk if chunk > 0 else len(masks)
    tables: list[DDTable] = []
    for start in range(0, len(masks), step):
        block = np.stack(masks[start : start + step])
        out = kernel(block, count, tt_bits=bits)
        tables.extend(DDTable(cells) for cells in out)
    return tables


# One strain solved as four single-cell searches costs about half a whole table
# (0.35-0.55 measured; the cells do not share a transposition table there), so a
# filter of two strains or more solves the whole table and drops the rest.
_MAX_STRAINS_ONE_BY_ONE = 1


def _strain_filter(strains: Iterable[Strain | str] | str | None) -> tuple[Strain, ...] | None:
    """The strains asked for, or None for all five."""
    if strains is None:
        return None
    if isinstance(strains, str):
        items = strains.replace(",", " ").split()
    else:
        items = as_list(strains, "strains", BridgeInputError)
    chosen = {Strain.from_str(s) for s in items}
    if not chosen:
        raise BridgeInputError("strains= names no strain; expected some of C, D, H, S, NT")
    return None if len(chosen) == 5 else tuple(sorted(chosen))


def _some_strains(masks: np.ndarray, wanted: tuple[Strain, ...], bits: int) -> np.ndarray:
    """Cells in DDS order with -1 for the strains not wanted."""
    from solvers.bridge import dd_table as kernel
    from solvers.bridge._ab_search import leader_tricks

    if len(wanted) > _MAX_STRAINS_ONE_BY_ONE:
        cells = kernel(masks, tt_bits=bits)
    else:
        cells = np.zeros((5, 4), dtype=np.int32)
        size = int(sum(int(m).bit_count() for m in masks[0]))
        for strain in wanted:
            for declarer in SEATS:
                defence = leader_tricks(
                    masks, strain.suit_index, (declarer + 1) % 4, tt_bits=bits
                )
                cells[strain.dds_index, declarer] = size - defence
    keep = np.zeros(5, dtype=bool)
    keep[[s.dds_index for s in wanted]] = True
    cells[~keep] = -1
    return cells


def _some_strains_batch(
    masks: list[np.ndarray], wanted: tuple[Strain, ...], threads: int, bits: int
) -> list[DDTable]:
    """Filtered tables on ``threads`` threads (the kernels release the GIL)."""
    from concurrent.futures import ThreadPoolExecutor

    from solvers._parallel import max_threads

    workers = max(1, min(threads or max_threads(), len(masks)))
    if workers == 1:
        return [DDTable(_some_strains(m, wanted, bits)) for m in masks]
    with ThreadPoolExecutor(workers) as pool:
        return [DDTable(c) for c in pool.map(lambda m: _some_strains(m, wanted, bits), masks)]


def solve_position(
    deal: Deal | str,
    trump: Strain | str,
    leader: Seat | str | None = None,
    trick: Sequence[Card | str] = (),
    *,
    target: int | None = None,
    cards: str = "all",
) -> dict[Card, int]:
    """Tricks for the side to move after each of its legal cards (DDS SolveBoard).

    ``deal`` holds the cards still in the hands (cards already played to the
    current trick are *not* in them); ``trick`` lists those cards in play
    order, led by ``leader`` (``leader`` may also come from ``deal.leader``).
    The count includes the trick in progress.

    DDS's modes: ``cards="all"`` (every legal card, SolveBoard solutions=3),
    ``"optimal"`` (only the cards that reach the maximum, solutions=2) or
    ``"one"`` (one optimal card: the first in hand order, spades first and high
    first, solutions=1).  These values are exact trick counts; for ``"optimal"``
    and ``"one"`` the best value is solved once for the position and each
    card is then asked one question at it, rather than every card solved.

    ``target=t`` is DDS's target: one null-window question per card ("does
    this line take at least ``t`` tricks?") instead of exact values, so it
    costs about half a full solve.  It returns the cards that reach ``t``, each
    with the value ``t`` (at least ``t``, as DDS reports), or an empty dict
    when no card does; with ``cards="one"`` it stops at the first such card,
    and ``"optimal"`` is the same as ``"all"`` (every card reaching the target,
    as DDS's solutions=2 with a target).

    >>> values = solve_position("N:AK... Q2... JT... 43...", "NT", "N")
    >>> {str(card): tricks for card, tricks in values.items()}
    {'SA': 2, 'SK': 2}
    >>> deal = "N:5.82.4. .J.52.A Q8..Q8. K.6.9.J"
    >>> {str(c): t for c, t in solve_position(deal, "NT", "N").items()}
    {'S5': 1, 'H8': 2, 'H2': 2, 'D4': 2}
    >>> {str(c): t for c, t in solve_position(deal, "NT", "N", cards="optimal").items()}
    {'H8': 2, 'H2': 2, 'D4': 2}
    >>> {str(c): t for c, t in solve_position(deal, "NT", "N", target=2).items()}
    {'H8': 2, 'H2': 2, 'D4': 2}
    >>> len(solve_position(deal, "NT", "N", target=2, cards="one"))  # whichever is found first
    1
    >>> solve_position("N:AK... Q2... JT... 43...", "NT", "N", ["S4"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engines.bridge.errors.InvalidDealError: invalid deal ...: duplicate card S4; wrong hand size ...
    """
    from solvers.bridge import solve_position as kernel

    if cards not in ("all", "optimal", "one"):
        raise BridgeInputError(f"cards must be 'all', 'optimal' or 'one', got {cards!r}")
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 0 <= target <= 13
    ):
        raise BridgeInputError(f"target must be a number of tricks 0..13, got {target!r}")
    if isinstance(deal, str):
        deal = Deal.from_pbn(deal)
    if not isinstance(deal, Deal):
        raise BridgeInputError(f"expected a Deal or a PBN deal string, got {type(deal).__name__}")
    strain = trump if isinstance(trump, Strain) else Strain.from_str(trump)
    if leader is None:
        leader = deal.leader
    if leader is None:
        raise BridgeInputError("solve_position needs the leader of the current trick")
    seat = leader if isinstance(leader, Seat) else Seat.from_char(str(leader))
    played = [card if isinstance(card, Card) else Card.from_str(card) for card in trick] or list(
        deal.trick
    )
    position = Deal(deal.hands, leader=seat, trick=played).validate()
    trick_array = np.array([[c.suit, c.rank - 2] for c in position.trick], dtype=np.int32)
    suits, ranks, values = kernel(
        np.array(position.masks(), dtype=np.uint16),
        strain.suit_index,
        int(seat),
        trick_array.reshape(-1, 2),
        target=-1 if target is None else target,
        first_only=cards == "one",
        optimal_only=cards != "all",
    )
    # the kernel groups equal cards; report them in hand order (suits S H D C, high first)
    slots = sorted(zip(suits.tolist(), ranks.tolist(), values.tolist()), key=_hand_order)
    ordered = {_CARDS[s][r]: v for s, r, v in slots}
    if target is not None:
        return dict(list(ordered.items())[:1]) if cards == "one" else ordered
    return _select(ordered, cards)


# the 52 cards by suit and rank bit, built once: a solve reports up to 13 of them
_CARDS = tuple(tuple(Card(suit, bit + 2) for bit in range(13)) for suit in range(4))


def _hand_order(entry: tuple[int, int, int]) -> tuple[int, int]:
    return entry[0], -entry[1]


def _select(values: dict[Card, int], cards: str) -> dict[Card, int]:
    """DDS's solutions modes applied to exact values."""
    if cards != "all" and values:
        best = max(values.values())
        values = {card: v for card, v in values.items() if v == best}
        if cards == "one":
            values = dict([next(iter(values.items()))])
    return values
