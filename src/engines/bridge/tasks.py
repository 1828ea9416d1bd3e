"""The bridge batch tasks, board files as batch input, and ``qipai gen bridge``.

Tasks: ``bridge-table``, ``bridge-par``, and the per-deal steps of the
simulations of :mod:`engines.bridge.simulation`: ``bridge-lead`` (every
opening lead of a deal) and ``bridge-contracts`` (North's and South's tricks).

Deals come from board files (PBN, LIN or one deal a line, read by
:mod:`engines.bridge.board_files` like every bridge command) or JSON Lines
(``pbn`` or ``deal``, optional ``dealer`` and ``vulnerability``/``vul``).  The
payload holds the deal written from North by the engine, so the same deal
written from another seat, with ``10`` for ``T`` or its suits in another
order, hashes alike.  ``bridge-table`` does not depend on the dealer or the
vulnerability, so its payload leaves them out.

>>> from engines.batch.tasks import get_task
>>> get_task("bridge-par").prepare({"deal": "E:AKQJ.T98.765.432 T987.AKQ.432.J65 "
...     "65432.J76.AKQ.T9 .5432.JT98.AKQ87", "vul": "all"})["vulnerability"]
'Both'
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from engines.batch.generate import Generator, register_generator, write_jsonl
from engines.batch.inputs import BadInput, InputFormat, Record, register_input_format
from engines.batch.tasks import Task, read_field, register_task
from engines.errors import InputError

# A deal as the engine writes it: North first, one space between hands, every suit's ranks
# high to low at most once each (``T`` for the ten; a void is empty).
_SUIT = "A?K?Q?J?T?9?8?7?6?5?4?3?2?"
_HAND = rf"{_SUIT}\.{_SUIT}\.{_SUIT}\.{_SUIT}"
_CANONICAL_DEAL = re.compile(rf"N:{_HAND} {_HAND} {_HAND} {_HAND}")


def _deal(obj: dict[str, Any]) -> str:
    text = read_field(obj, "pbn", "deal")
    if not isinstance(text, str):
        raise InputError("field 'pbn' must be a PBN deal string")
    # A deal already written as the engine writes it is its own canonical text: parsing it
    # would cost more than a small ending's solve.
    if _CANONICAL_DEAL.fullmatch(text):
        return text
    from engines.bridge.cards import Deal

    return Deal.from_pbn(text).to_pbn()


def _table_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    return {"pbn": _deal(obj)}


def _par_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.bridge.seats import Seat, parse_vulnerability

    dealer = read_field(obj, "dealer", default="N", required=False)
    vul = read_field(obj, "vulnerability", "vul", "vulnerable", default="None", required=False)
    if not isinstance(dealer, str) or not isinstance(vul, str):
        raise InputError("'dealer' and 'vulnerability' must be strings such as \"N\", \"EW\"")
    deal = _deal(obj)
    if any(len(hand.split(".")) != 4 or len(hand) != 16 for hand in deal[2:].split()):
        # 13 cards and three dots: par assumes all 13 tricks are still to play.
        raise InputError(f"par needs a full deal (13 cards each), got {deal}")
    return {
        "pbn": deal,
        "dealer": Seat.from_char(dealer).char,
        "vulnerability": parse_vulnerability(vul),
    }


def _tables(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, Any]]:
    from engines.bridge.cards import Deal
    from engines.bridge.dd import dd_tables

    tables = dd_tables([Deal.from_pbn(p["pbn"]) for p in payloads], threads=threads)
    return [t.to_dict() for t in tables]


def _par(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, Any]]:
    from engines.bridge.dealer_par import par

    # A deal listed with several dealers or vulnerabilities is solved once per chunk.
    unique = list(dict.fromkeys(p["pbn"] for p in payloads))
    tables = dict(zip(unique, _tables([{"pbn": d} for d in unique], threads)))
    out = []
    for payload in payloads:
        table = tables[payload["pbn"]]
        result = par(table, payload["dealer"], payload["vulnerability"])
        out.append({"table": table, "par": result.to_dict()})
    return out


def _table_figures(task: str, results: list[Any]) -> list[Any]:
    from engines.bridge.plots import table_figures

    return table_figures(task, results)


def _par_figures(task: str, results: list[Any]) -> list[Any]:
    from engines.bridge.plots import par_figures

    return par_figures(task, results)


register_task(
    Task(
        "bridge-table",
        "bridge",
        "bridge double-dummy table → {strain: {declarer: tricks}} (C D H S NT × N E S W)",
        _table_prepare,
        _tables,
        native_threads=True,
        gil_free=True,
        chunk_size=2,
        result_kind="dd-table",
        figures=_table_figures,
        plain_json=True,  # {"pbn": text} in, {strain: {seat: int}} out
    )
)
register_task(
    Task(
        "bridge-par",
        "bridge",
        "bridge DD table and dealer par for the board's dealer and vulnerability → "
        "table, par {score (NS), contracts}",
        _par_prepare,
        _par,
        native_threads=True,
        gil_free=True,
        chunk_size=4,
        result_kind="dd-par",
        figures=_par_figures,
    )
)


# -- simulations (engines.bridge.simulation streams its deals through these) --------------------


def _lead_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.bridge.seats import Seat, Strain
    from engines.bridge.simulation import lead_payload

    trump = read_field(obj, "trump")
    leader = read_field(obj, "leader")
    if not isinstance(trump, str) or not isinstance(leader, str):
        raise InputError("'trump' and 'leader' must be strings such as \"NT\", \"W\"")
    return lead_payload(_deal(obj), Strain.from_str(trump), Seat.from_char(leader))


def _leads(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, int]]:
    from engines.bridge.simulation import solve_leads

    return solve_leads(payloads, threads)


def _contracts_prepare(obj: dict[str, Any]) -> dict[str, Any]:
    from engines.bridge.dd import _strain_filter
    from engines.bridge.seats import STRAINS
    from engines.bridge.simulation import contracts_payload

    strains = read_field(obj, "strains", default="C D H S NT", required=False)
    if not isinstance(strains, str | list):
        raise InputError('\'strains\' must be a list of strains such as ["S", "NT"]')
    return contracts_payload(_deal(obj), _strain_filter(strains) or STRAINS)


def _contract_tables(payloads: list[dict[str, Any]], threads: int) -> list[dict[str, int]]:
    from engines.bridge.simulation import solve_contract_tables

    return solve_contract_tables(payloads, threads)


register_task(
    Task(
        "bridge-lead",
        "bridge",
        "every opening lead of a full deal (pbn, trump, leader) → {card: tricks for the "
        "leader's side}",
        _lead_prepare,
        _leads,
        native_threads=True,
        gil_free=True,
        chunk_size=2,
        result_kind="answers",
    )
)
register_task(
    Task(
        "bridge-contracts",
        "bridge",
        "North's and South's DD tricks in the given strains (pbn, strains) → "
        '{"N NT": tricks, "S NT": tricks, ...}',
        _contracts_prepare,
        _contract_tables,
        native_threads=True,
        gil_free=True,
        chunk_size=2,
        result_kind="answers",
    )
)


# -- qipai gen bridge ---------------------------------------------------------------------------


def _gen_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-f", "--format", choices=("pbn", "jsonl"), default="pbn")
    parser.add_argument(
        "--rotate",
        action="store_true",
        help="dealer and vulnerability by board number (dealer N E S W, the 16-board "
        "vulnerability cycle); default: dealer N, nobody vulnerable",
    )
    parser.add_argument("--first-board", type=int, default=1, help="first board number (1)")
    parser.add_argument(
        "--cards",
        type=int,
        default=13,
        help="cards per hand: below 13 deals random endings of that many tricks "
        "(JSON Lines only; 13)",
    )
    parser.add_argument(
        "--trump", help="add this trump (C D H S NT) to every deal, for bridge-lead (JSON Lines)"
    )
    parser.add_argument(
        "--leader", help="add this opening leader (N E S W) to every deal, for bridge-lead "
        "(JSON Lines)",
    )


def _gen_records(args: argparse.Namespace) -> Iterable[dict[str, Any]]:
    from engines.bridge.generate import bridge_deals

    if args.cards != 13 and args.format == "pbn":
        raise InputError("endings (--cards below 13) are written as JSON Lines: add -f jsonl")
    if args.first_board < 1:
        raise InputError(f"--first-board must be >= 1, got {args.first_board}")
    extra = _lead_fields(args)
    if extra and args.format == "pbn":
        raise InputError("--trump and --leader are written as JSON Lines fields: add -f jsonl")
    deals = bridge_deals(
        args.count, args.seed, rotate=args.rotate, first_board=args.first_board, cards=args.cards
    )
    return ({**deal, **extra} for deal in deals) if extra else deals


def _lead_fields(args: argparse.Namespace) -> dict[str, str]:
    """The ``trump``/``leader`` fields asked for, checked and spelt canonically."""
    from engines.bridge.seats import Seat, Strain

    extra = {}
    for name, value, read in (("trump", args.trump, Strain.from_str),
                              ("leader", args.leader, Seat.from_char)):
        if value is not None:
            try:
                extra[name] = str(read(value))
            except InputError as exc:
                raise InputError(f"--{name}: {exc}") from None
    return extra


def _gen_write(records: Iterable[dict[str, Any]], out: TextIO, args: argparse.Namespace) -> int:
    from engines.bridge.generate import write_pbn

    if args.format == "pbn":
        return write_pbn(records, out, event=f"qipai gen bridge --seed {args.seed}")
    return write_jsonl(records, out)


register_generator(
    Generator(
        "bridge",
        "random deals as PBN or JSON Lines",
        "Random deals, dealt like the reference corpus (Python's Mersenne Twister shuffle of "
        "52 cards; N, E, S, W get 13 each).",
        "deals",
        _gen_arguments,
        _gen_records,
        _gen_write,
    )
)


# -- board files as batch input -----------------------------------------------------------------


def _read_board_file(path: str) -> Iterator[Record | BadInput]:
    """One record per board with a deal; a board with defects is one :class:`BadInput`."""
    from engines.bridge.board_files import iter_boards

    for board in iter_boards(path):
        line = board.line
        if board.errors:
            first = min(e.line for e in board.errors)
            yield BadInput(path, first, "; ".join(e.message for e in board.errors))
            continue
        skipped = board.unusable()
        if skipped is not None:
            # Not a position (a partial deal), but say so: nothing is dropped silently.
            yield BadInput(path, skipped.line, skipped.message)
            continue
        number = board.board_number
        obj: dict[str, Any] = {"pbn": board.deal.to_pbn()}
        if board.dealer is not None:
            obj["dealer"] = str(board.dealer)  # Seat prints as its letter
        if board.vulnerability is not None:
            obj["vulnerability"] = board.vulnerability
        if number is not None:
            obj["board"] = int(number)
        position_id = str(number) if number is not None else f"{Path(path).name}:{line}"
        yield Record(path, line, position_id, obj)


def _sniff(line: str) -> bool:
    from engines.bridge.board_files import sniff_board_line

    return sniff_board_line(line) is not None


def _count(path: str) -> int:
    from engines.bridge.board_files import count_boards

    return count_boards(path)


register_input_format(
    InputFormat("bridge boards", (".pbn", ".lin"), _sniff, _read_board_file, _count)
)


# -- qipai bench bridge, bridge-lead ------------------------------------------------------------


def _register_benches() -> None:
    from engines.batch.bench import register_bench
    from engines.bridge import bench

    register_bench(
        "bridge",
        bench.bridge_bench(
            "DD tables: qipai vs endplay/DDS (1 thread) on the same deals",
            bench.bridge_ours,
            bench.bridge_reference,
        ),
    )
    register_bench(
        "bridge-lead",
        bench.bridge_bench(
            "opening lead, every card scored (NT, West leads): qipai vs endplay/DDS SolveBoard",
            bench.bridge_lead_ours,
            bench.bridge_lead_reference,
        ),
    )


_register_benches()
