"""Board analysis: DD table, par, and the double-dummy score of every contract.

This answers the analyst's daily question — *what is par on this board, and
what does each contract score against it?* — for one deal
(:func:`analyse`) or a batch (:func:`analyse_boards`, which solves all the
tables in one call to the solver's ``dd_tables`` on several threads).

For each of the 20 cells of the DD table the result lists the contract that
cell makes at its own level (10 tricks in spades by North: ``4SN=``; 5 tricks:
``1SN-2``, undoubled), its score from North–South's point of view, and the
IMPs it gains or loses against par from the declaring side's point of view
(below, ``1CE-4`` scores +200 for N–S but is 260 better than par for E–W,
the declaring side: +6 IMPs).

>>> dd = {"C": {"N": 9, "E": 3, "S": 9, "W": 3}, "D": {"N": 10, "E": 3, "S": 10, "W": 3},
...       "H": {"N": 11, "E": 2, "S": 11, "W": 2}, "S": {"N": 11, "E": 2, "S": 11, "W": 2},
...       "NT": {"N": 11, "E": 2, "S": 11, "W": 2}}
>>> from engines.bridge.cards import Deal
>>> deal = Deal.from_pbn("N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6")
>>> result = analyse(deal, dealer="N", vulnerability="None", table=dd)
>>> str(result.par)
'Par +460: 3NTN+2 3NTS+2'
>>> [(c.contract, c.score_ns, c.imps_vs_par) for c in result.contracts[:2]]
[('3CN=', 110, -8), ('1CE-4', 200, 6)]
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.bridge.boards import board_dealer, board_vulnerability
from engines.bridge.cards import Deal
from engines.bridge.compare import imps
from engines.bridge.contract import Contract
from engines.bridge.dealer_par import SEAT_KEYS, STRAIN_KEYS, Par, dd_table_tuple, par
from engines.bridge.seats import BridgeInputError, Seat, Strain, parse_vulnerability

__all__ = [
    "BoardAnalysis",
    "ContractResult",
    "analyse",
    "analyse_boards",
    "dd_score",
    "format_text",
]


@dataclass(frozen=True)
class ContractResult:
    """One cell of the DD table as a contract: ``contract`` text, ``tricks``, scores."""

    strain: str
    declarer: str
    tricks: int
    contract: str
    score_ns: int
    imps_vs_par: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "strain": self.strain,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "contract": self.contract,
            "score_ns": self.score_ns,
            "imps_vs_par": self.imps_vs_par,
        }


@dataclass
class BoardAnalysis:
    """The analysis of one board (see the module docstring)."""

    deal: Deal
    dealer: Seat
    vulnerability: str
    table: dict[str, dict[str, int]]
    par: Par
    contracts: list[ContractResult] = field(default_factory=list)
    board: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON Lines record: ``dd`` in the corpus layout ``dd[strain][declarer]``."""
        return {
            "board": self.board,
            "dealer": self.dealer.char,
            "vulnerability": self.vulnerability,
            "pbn": self.deal.to_pbn(),
            "dd": self.table,
            "par": self.par.to_dict(),
            "contracts": [c.to_dict() for c in self.contracts],
        }


def _table_dict(table: Any) -> dict[str, dict[str, int]]:
    rows = dd_table_tuple(table)
    return {s: dict(zip(SEAT_KEYS, rows[i])) for i, s in enumerate(STRAIN_KEYS)}


def dd_score(table: Any, contract: Contract | str, vulnerability: str = "None") -> int:
    """The double-dummy score (N–S point of view) of ``contract`` on a board with ``table``.

    >>> dd = {s: {"N": 10, "E": 3, "S": 9, "W": 3} for s in ("C", "D", "H", "S", "NT")}
    >>> dd_score(dd, "4SN", "NS"), dd_score(dd, "5SNx", "None"), dd_score(dd, "2DE", "EW")
    (620, -100, 500)
    """
    if isinstance(contract, str):
        contract = Contract.from_str(contract)
    if not isinstance(contract, Contract):
        raise BridgeInputError(f"contract must be a Contract or text, got {contract!r}"[:300])
    if contract.is_passout:
        return 0
    if contract.declarer is None or contract.strain is None:
        raise BridgeInputError(f"contract {contract} needs a declarer for a DD score")
    rows = dd_table_tuple(table)
    tricks = rows[int(contract.strain)][int(contract.declarer)]
    return contract.score_ns(vulnerability, tricks)


def _contract_results(
    table: dict[str, dict[str, int]], vulnerability: str, par_score: int
) -> list[ContractResult]:
    results = []
    for strain_key in STRAIN_KEYS:
        strain = Strain.from_str(strain_key)
        for seat_key in SEAT_KEYS:
            seat = Seat.from_char(seat_key)
            tricks = table[strain_key][seat_key]
            level = max(1, tricks - 6)
            contract = Contract(level, strain, seat, 0, tricks - level - 6)
            score = contract.score_ns(vulnerability)
            # IMPs against par from the declaring side's own point of view.
            side_diff = score - par_score if seat.side == "NS" else par_score - score
            results.append(
                ContractResult(strain_key, seat_key, tricks, str(contract), score, imps(side_diff))
            )
    return results


def analyse(
    deal: Deal | str,
    dealer: Seat | str | None = None,
    vulnerability: str | None = None,
    *,
    board: int | None = None,
    table: Any = None,
) -> BoardAnalysis:
    """DD table, par and every contract's DD score for one deal.

    ``dealer`` / ``vulnerability`` default to those of ``board`` when a board
    number is given, else North and None.  ``table`` skips the solver (pass a
    DD table you already have).
    """
    if isinstance(deal, str):
        deal = Deal.from_pbn(deal)
    if table is None:
        from engines.bridge.dd import dd_table

        table = dd_table(deal)
    return _build(deal, dealer, vulnerability, board, table)


def _build(
    deal: Deal, dealer: Seat | str | None, vulnerability: str | None, board: int | None, table: Any
) -> BoardAnalysis:
    if dealer is None:
        dealer = board_dealer(board) if board is not None else Seat.NORTH
    seat = Seat.coerce(dealer)
    if vulnerability is None:
        vulnerability = board_vulnerability(board) if board is not None else "None"
    vul = parse_vulnerability(vulnerability)
    tables = _table_dict(table)
    result = par(tables, seat, vul)
    return BoardAnalysis(
        deal=deal,
        dealer=seat,
        vulnerability=vul,
        table=tables,
        par=result,
        contracts=_contract_results(tables, vul, result.score),
        board=board,
    )


def analyse_boards(
    items: Sequence[tuple[Deal, Seat | str | None, str | None, int | None]],
    *,
    threads: int | None = None,
    chunk: int | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> list[BoardAnalysis]:
    """Analyse ``(deal, dealer, vulnerability, board)`` items, solving tables in batches.

    Tables come from the solver's ``dd_tables(deals, threads=threads)`` in
    chunks (``chunk`` deals at a time; default 8 per thread, at least 16:
    solve times vary a lot between deals, so small chunks leave threads idle)
    so that ``on_progress(n)`` can report after each chunk.
    """
    from engines.bridge.dd import dd_tables

    deals = [item[0] for item in items]
    size = chunk or max(16, 8 * (threads or os.cpu_count() or 1))
    tables: list[Any] = []
    for start in range(0, len(deals), size):
        part = deals[start : start + size]
        tables.extend(dd_tables(part, threads=threads))
        if on_progress is not None:
            on_progress(len(part))
    return [
        _build(deal, dealer, vul, board, table)
        for (deal, dealer, vul, board), table in zip(items, tables)
    ]


def format_text(result: BoardAnalysis, *, title: str | None = None) -> str:
    """A readable block: heading, deal, the DD grid (rows N S E W), par and the best contracts.

    >>> dd = {s: {"N": 7, "E": 6, "S": 7, "W": 6} for s in ("C", "D", "H", "S", "NT")}
    >>> deal = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"
    >>> print(format_text(analyse(deal, "E", "EW", board=2, table=dd)))
    Board 2   Dealer E   Vulnerable EW
    N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87
         C  D  H  S NT
      N  7  7  7  7  7
      S  7  7  7  7  7
      E  6  6  6  6  6
      W  6  6  6  6  6
    Par +90: 1NTN= 1NTS=
    """
    head = title or (f"Board {result.board}" if result.board is not None else "Deal")
    lines = [
        f"{head}   Dealer {result.dealer.char}   Vulnerable {result.vulnerability}",
        result.deal.to_pbn(),
        "    " + " ".join(f"{s:>2}" for s in STRAIN_KEYS),
    ]
    for seat in "NSEW":
        lines.append(f"  {seat} " + " ".join(f"{result.table[s][seat]:>2}" for s in STRAIN_KEYS))
    lines.append(str(result.par))
    return "\n".join(lines)
