"""``qipai bridge table``, ``qipai bridge solve`` and ``qipai bridge verify``.

``table FILE`` solves the DD table of every board of a PBN file (or of a plain
file with one ``N:…`` deal a line) on ``-j`` threads, with a progress bar on a
terminal; text grids by default (rows ``N S E W``, columns ``C D H S NT``, as
endplay prints them), ``--json`` for JSON Lines in the corpus layout.

``solve DEAL --trump S --leader W [--trick SA,S2]`` prints, for the side to
move in an end position, the tricks after each legal card (DDS SolveBoard).

``verify FILE.jsonl`` recomputes reference records (deals with ``dd``,
positions with card ``solutions``) and prints every difference, then
``verified N records: K match, M differ``; exit status 1 when anything differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engines.bridge.seats import BridgeInputError
from engines.cliargs import (
    add_deprecated_flag,
    add_json_flag,
    add_progress_flags,
    add_threads_flag,
    add_trump_flag,
)

__all__ = ["register"]


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``table``, ``solve`` and ``verify`` to the ``qipai bridge`` group."""
    table = commands.add_parser(
        "table",
        help="double-dummy table of every deal in a PBN or deal-per-line file",
        description=__doc__.split("\n\n")[1],
    )
    table.add_argument("file", type=Path, metavar="FILE", help="PBN, LIN or deal-per-line file")
    add_json_flag(table, "JSON Lines, one board a line")
    table.add_argument(
        "--strains", default=None, help="solve only these strains, e.g. NT or S,H (default: all)"
    )
    add_threads_flag(table)
    add_progress_flags(table)
    table.set_defaults(func=_run_table)

    solve = commands.add_parser(
        "solve",
        help="tricks after each legal card of an end position (mid-trick allowed)",
        description=__doc__.split("\n\n")[2],
    )
    solve.add_argument(
        "deal", help='remaining hands as a PBN deal, e.g. "N:AK... Q2... JT... 43..."'
    )
    add_trump_flag(solve, "C, D, H, S or NT")
    solve.add_argument("--leader", help="seat that led the current trick (required)")
    add_deprecated_flag(solve, "-l", dest="leader", replacement="--leader")
    solve.add_argument(
        "--trick", default="", help="cards already played to the trick, e.g. SA,S2 (lead first)"
    )
    solve.add_argument(
        "--target", type=int, default=None, help="only the cards whose line takes >= N tricks"
    )
    solve.add_argument(
        "--cards",
        choices=("all", "optimal", "one"),
        default="all",
        help="every legal card (default), only the optimal ones, or one optimal card",
    )
    add_json_flag(solve, "print one JSON object")
    solve.set_defaults(func=_run_solve)

    verify = commands.add_parser(
        "verify",
        help="recompute DD tables / position solutions of a JSON Lines file and diff them",
        description=__doc__.split("\n\n")[3],
    )
    verify.add_argument("file", type=Path, metavar="FILE.jsonl")
    add_threads_flag(verify)
    verify.set_defaults(func=_run_verify)


def _read_boards(path: Path):
    from engines.bridge.board_files import defect_lines, iter_boards

    good, bad = [], 0
    for board in iter_boards(path):
        # End positions are fine here: a DD table solves them.
        defects = defect_lines(path, board)
        if defects:
            bad += 1
            for line in defects:
                print(line, file=sys.stderr)
        else:
            good.append(board)
    return good, bad


def _run_table(args: argparse.Namespace) -> int:
    from engines.bridge.dd import dd_tables
    from engines.progress import progress_bar
    from solvers._parallel import max_threads

    boards, bad = _read_boards(args.file)
    threads = args.threads or max_threads()
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    # with a bar, solve in blocks so it can move; without, one call keeps every core busy
    block = 4 * threads if show else max(len(boards), 1)
    bar = progress_bar(total=len(boards), desc="DD tables", unit="deal", enabled=show)
    out = sys.stdout
    try:
        for start in range(0, len(boards), block):
            chunk = boards[start : start + block]
            tables = dd_tables([b.deal for b in chunk], threads=threads, strains=args.strains)
            for board, table in zip(chunk, tables):
                _print_table(out, board, table, args.json)
            bar.update(len(chunk))
    finally:
        bar.close()
    return 1 if bad else 0


def _print_table(out, board, table, as_json: bool) -> None:
    pbn = board.deal.to_pbn()
    if as_json:
        record = {"pbn": pbn, "dd": table.to_dict()}
        if board.board_number is not None:
            record = {"board": board.board_number, **record}
        print(json.dumps(record), file=out)
    else:
        print(f"{board.label}: {pbn}", file=out)
        print(table, file=out)
        print(file=out)


def _run_solve(args: argparse.Namespace) -> int:
    from engines.bridge.dd import solve_position

    if args.leader is None:
        raise BridgeInputError("--leader is required (the seat that led the current trick)")
    trick = [card for card in args.trick.replace(",", " ").split() if card]
    values = solve_position(
        args.deal, args.trump, args.leader, trick, target=args.target, cards=args.cards
    )
    if args.json:
        print(json.dumps({str(card): tricks for card, tricks in values.items()}))
    elif not values:
        print(f"no card takes {args.target} tricks")
        return 1
    elif args.target is not None:
        for card in values:
            print(f"{card} takes {args.target}+")  # the target is reached, not counted exactly
    else:
        best = max(values.values())
        for card, tricks in values.items():
            print(f"{card} {tricks}{'  *' if tricks == best else ''}")
    return 0


def _run_verify(args: argparse.Namespace) -> int:
    from engines.bridge.verify import verify_file

    return verify_file(args.file, threads=args.threads).status
