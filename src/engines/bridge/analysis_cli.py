"""``qipai bridge analyse`` and ``qipai bridge play``.

``analyse FILE…`` reads PBN (lenient), plain one-deal-per-line files or LIN
(``.lin``), solves every DD table in one batch on ``--threads`` threads with a
progress bar on a terminal, and prints each board as a grid with its par;
``--json`` prints JSON Lines instead, ``-o OUT.pbn`` writes the boards back as
strict PBN with ``OptimumResultTable``/``OptimumScore``/``ParContract``.
Dealer and vulnerability come from the ``Dealer``/``Vulnerable`` tags, else
from the ``Board`` number, else N and None.  A board with defects is reported
on standard error (file, line, board, defect) and skipped; the exit status is
then 1.

``play FILE`` takes each board's contract (``Contract``/``Declarer`` tags or
``--contract``) and cards played (its ``Play`` section or ``--cards``) and
prints the double-dummy result after every card, marking the cards that cost
a trick, then the double-dummy-optimal continuation.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engines.bridge.seats import BridgeInputError
from engines.cliargs import (
    add_json_flag,
    add_progress_flags,
    add_threads_flag,
)

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``analyse`` and ``play`` to the ``qipai bridge`` group."""
    analyse = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="DD table, par and every contract's DD score for each board of a file",
        description=__doc__.split("\n\n")[1],
    )
    analyse.add_argument(
        "files", nargs="+", type=Path, metavar="FILE", help="PBN, LIN or deal-per-line file"
    )
    fmt = analyse.add_mutually_exclusive_group()
    add_json_flag(fmt, "print JSON Lines, one board a line (same as --format json)")
    fmt.add_argument(
        "-f", "--format", choices=("text", "json", "pbn"), default="text", help="output format"
    )
    analyse.add_argument("-o", "--output", type=Path, help="write the boards with results as PBN")
    add_threads_flag(analyse)
    add_progress_flags(analyse)
    analyse.set_defaults(func=_run_analyse)

    play = commands.add_parser(
        "play",
        help="double-dummy verdict on each card played, and the optimal line of play",
        description=__doc__.split("\n\n")[2],
    )
    play.add_argument("file", type=Path, metavar="FILE", help="PBN, LIN or deal-per-line file")
    play.add_argument("-b", "--board", type=int, help="only this board number")
    play.add_argument("--contract", help="contract with declarer, e.g. 4SN (overrides the tags)")
    play.add_argument("--cards", help="cards played in order, e.g. 'SK S2 SA S3' (overrides Play)")
    add_json_flag(play, "print JSON Lines")
    play.set_defaults(func=_run_play)


# -- shared ----------------------------------------------------------------------------------------


def _read_boards(path: Path) -> list[Any]:
    from engines.bridge.board_files import read_boards

    return read_boards(path)


def _report_errors(path: Path, board: Any, err: TextIO) -> None:
    for error in board.errors:
        print(f"{path}: {error}", file=err)


# -- analyse ---------------------------------------------------------------------------------------


def _run_analyse(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    from engines.bridge.analysis import analyse_boards, format_text
    from engines.bridge.pbn import dumps, set_analysis, write_pbn
    from engines.progress import progress_bar

    out = out or sys.stdout
    err = err or sys.stderr
    fmt = "json" if args.json else args.format
    boards: list[tuple[Path, Any]] = []
    for path in args.files:
        boards.extend((path, board) for board in _read_boards(path))
    status = 0
    items = []
    usable = []
    for path, board in boards:
        if board.errors:
            _report_errors(path, board, err)
            status = 1
        skipped = board.unusable(full_deal=True)
        if skipped is not None:
            if not board.errors:
                print(f"{path}: {skipped}", file=err)
                status = 1
            continue
        items.append((board.deal, board.dealer, board.vulnerability, board.board_number))
        usable.append(board)
    if not items:
        print("qipai: no deal to analyse", file=err)
        return 1
    bar = progress_bar(total=len(items), desc="analyse", unit="board", enabled=args.progress)
    try:
        results = analyse_boards(items, threads=args.threads, on_progress=bar.update)
    finally:
        bar.close()
    for board, result in zip(usable, results):
        if fmt == "json":
            out.write(json.dumps(result.to_dict(), separators=(",", ":")) + "\n")
        elif fmt == "text":
            print(format_text(result), file=out)
            print(file=out)
        set_analysis(board, result.table, result.par)
    if fmt == "pbn":
        out.write(dumps([b for _, b in boards]))
    if args.output is not None:
        write_pbn(args.output, [b for _, b in boards])  # in the encoding the files came in
    return status


# -- play ------------------------------------------------------------------------------------------


def _run_play(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    from engines.bridge.auction import AuctionError, parse_pbn_auction
    from engines.bridge.contract import Contract
    from engines.bridge.play import analyse_play, optimal_line, parse_pbn_play

    out = out or sys.stdout
    err = err or sys.stderr
    boards = _read_boards(args.file)
    if args.board is not None:
        boards = [b for b in boards if b.board_number == args.board]
        if not boards:
            raise BridgeInputError(f"{args.file}: no board {args.board}")
    status = 0
    for board in boards:
        skipped = board.unusable(full_deal=True)
        if skipped is not None:
            _report_errors(args.file, board, err)
            if not board.errors:
                print(f"{args.file}: {skipped}", file=err)
            status = 1
            continue
        try:
            if args.contract:
                contract = Contract.from_str(args.contract)
            elif board._value("Contract") and board._value("Declarer"):
                contract = Contract.from_str(
                    board.tags["Contract"], declarer=board.tags["Declarer"]
                )
            elif "Auction" in board.tags:
                contract = parse_pbn_auction(
                    board.tags["Auction"], board.sections.get("Auction", [])
                ).contract
                if contract is None:
                    raise AuctionError("the auction has not ended")
            else:
                raise BridgeInputError("no contract (Contract/Declarer tags or --contract)")
            if contract.is_passout or contract.declarer is None or contract.strain is None:
                print(f"{board.label}: passed out, nothing to play", file=out)
                continue
            if args.cards is not None:
                cards = args.cards.split()
            elif "Play" in board.tags and board._value("Play"):
                cards = [
                    str(c)
                    for c in parse_pbn_play(
                        board.tags["Play"], board.sections.get("Play", []), contract.strain
                    )
                ]
            else:
                cards = []
            steps = analyse_play(board.deal, contract, cards)
            line = optimal_line(board.deal, contract.strain, contract.declarer.next, cards)
        except BridgeInputError as exc:
            print(f"{args.file}: line {board.line}: {board.label}: {exc}", file=err)
            status = 1
            continue
        if args.json:
            record = {
                "board": board.board_number,
                "contract": str(contract),
                "steps": [s.to_dict() for s in steps],
                "optimal": [{"seat": s.char, "card": str(c), "tricks": t} for s, c, t in line],
            }
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
            continue
        _print_play(board, contract, steps, line, out)
    return status


def _print_play(board: Any, contract: Any, steps: list[Any], line: list[Any], out: TextIO) -> None:
    side = contract.declarer.side
    print(f"{board.label}: {contract} ({side} tricks double dummy after each card)", file=out)
    for step in steps:
        mark = ""
        if step.cost:
            best = " ".join(str(c) for c in step.best)
            mark = f"  costs {step.cost} trick{'s' if step.cost > 1 else ''} (best: {best})"
        print(
            f"  trick {step.trick:>2}  {step.seat.char} {step.card}  {side} {step.after:>2}{mark}",
            file=out,
        )
    if line:
        print("  optimal continuation:", file=out)
        cards = [f"{seat.char}:{card}" for seat, card, _ in line]
        first_in_trick = (4 - len(steps) % 4) % 4
        chunks = [cards[:first_in_trick]] if first_in_trick else []
        chunks += [cards[i : i + 4] for i in range(first_in_trick, len(cards), 4)]
        for chunk in chunks:
            print("    " + " ".join(chunk), file=out)
    print(file=out)
