"""``qipai events …``: bridge event scoring, from result files to the tables a director posts.

Examples::

    qipai events rank event.json             # final ranking (Swiss: with masterpoints)
    qipai events standings event.json        # standings after the rounds so far
    qipai events pair event.json             # next Swiss round: tables and bye
    qipai events rate week.json --json       # weekly Rate run -> qipai-bridge-players/1
    qipai events rate w1.json w2.json        # several weeks in order
    qipai events masterpoints 12             # awards by rank for 12 completed pairs
    qipai events grade 250                   # 等级 of a masterpoint total
    qipai events match match.json            # team match IMPs and VPs
    qipai events tiedian session.json        # 贴点赛 results and total
    qipai events verify cases.jsonl          # conformance cases; exit 1 on a difference
    qipai events tiedian-table -n 5        # rebuild the 贴点 expected-score table (DD solver)
    qipai events demo                        # a small Swiss event on DD-solved deals

Every command takes ``--json`` for machine-readable output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engines.cliargs import (
    add_count_flag,
    add_deprecated_flag,
    add_json_flag,
    add_output_flag,
    add_seed_flag,
    add_threads_flag,
    open_output,
)
from engines.errors import InputError

__all__ = ["register"]


def _dump(obj: Any, out: TextIO) -> None:
    json.dump(obj, out, ensure_ascii=False, indent=1)
    out.write("\n")


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``qipai events`` commands."""

    def command(name: str, help_text: str, func, file_help: str | None = None, json_flag=True):
        parser = commands.add_parser(name, help=help_text, description=help_text)
        if file_help:
            parser.add_argument("file", type=Path, metavar="FILE", help=file_help)
        if json_flag:
            add_json_flag(parser, "print JSON instead of a table")
        parser.set_defaults(func=func)
        return parser

    command(
        "rank",
        "final ranking of a pairs or Swiss event file (Swiss: masterpoints)",
        _rank,
        "event file (qipai-bridge-event/1)",
    )
    command(
        "standings",
        "standings of an event file after the results so far",
        _standings,
        "event file (qipai-bridge-event/1)",
    )
    pair = command(
        "pair",
        "seat the next round of a Swiss event file (tables, bye, rematches)",
        _pair,
        "Swiss event file (qipai-bridge-event/1)",
    )
    pair.add_argument("--withdraw", default="", help="pairs leaving before this round, e.g. 4,7")
    rate = command("rate", "weekly Rate run of one or more week files (new Rates, weekly points)",
                   _rate)  # fmt: skip
    rate.add_argument(
        "files", type=Path, nargs="+", metavar="WEEK",
        help="week files (qipai-bridge-week/1) in order; each week starts from the Rates and "
        "totals the previous one left (players a later file lists are added if new)",
    )  # fmt: skip
    mp = command("masterpoints", "masterpoint award of each rank for a field size", _masterpoints)
    mp.add_argument("completed", type=int, help="pairs that completed the event")
    grade = command("grade", "grade (等级) of a masterpoint total", _grade)
    grade.add_argument("points", help="masterpoints (a decimal is read exactly)")
    command(
        "match", "IMPs and VPs of a team match file", _match, "match file (qipai-bridge-match/1)"
    )
    command(
        "ladder",
        "apply challenges and joins to a ladder of teams",
        _ladder,
        'JSON {"teams": [...], "reach": 3, "ops": [...]}',
    )
    tiedian = command(
        "tiedian",
        "贴点赛 result of each board and the session total",
        _tiedian,
        'JSON {"boards": [{"ns_score", "ns_hcp" or "deal", "side", "disconnect"}]}',
    )
    tiedian.add_argument(
        "--table",
        type=Path,
        help="expected-score table: JSON array of 41 integers "
        "(default: the file's \"table\", else qipai's DD-computed table)",
    )
    command(
        "verify",
        "recompute conformance cases and print every difference",
        _verify,
        "JSON Lines cases (section 15 of the event rules)",
        json_flag=False,
    )
    build = command(
        "tiedian-table", "rebuild the 贴点 expected-score table with the DD solver", _tiedian_table
    )
    add_count_flag(build, 5, "deals per N-S HCP total 20..37")
    add_deprecated_flag(build, "--deals", dest="count", replacement="-n/--count", type=int)
    add_seed_flag(build, 1)
    add_threads_flag(build)
    add_output_flag(build, "write the table file here (default: standard output)")
    demo = command(
        "demo", "a small Swiss event on generated deals, scored and set against DD par", _demo
    )
    demo.add_argument("--pairs", type=int, default=7, help="pairs (default 7)")
    demo.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    demo.add_argument("--boards", type=int, default=3, help="boards per round (default 3)")
    add_seed_flag(demo, 1)
    add_threads_flag(demo)
    demo.add_argument("--method", choices=("mp", "ximp", "butler"), default="mp", help="(mp)")


def _event(path: Path):
    from engines.events.files import load_json, parse_event

    return parse_event(load_json(path), str(path))


def _rank(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.pairs import pairs_event
    from engines.events.report import result_file, show, text_table
    from engines.events.swiss import swiss_ranking

    out = out or sys.stdout
    event = _event(args.file)
    ranking: Any = swiss_ranking(event) if event.type == "swiss" else pairs_event(event).ranking
    if args.json:
        _dump(result_file(event, ranking), out)
        return 0
    sections = {"": ranking} if isinstance(ranking, list) else ranking
    for side, rows in sections.items():
        if side != "all" and side:
            print(f"{side} pairs", file=out)
        header = ["rank", "pair", "players", "score", "boards"]
        if event.type == "swiss":
            header += ["scheduled", "completed", "masterpoints"]
        lines = []
        for row in rows:
            line = [
                row.rank,
                row.pair,
                " / ".join(event.pair(row.pair).players),
                show(row.score),
                row.boards,
            ]
            if event.type == "swiss":
                line += [row.scheduled, "yes" if row.completed else "no", row.masterpoints]
            lines.append(line)
        print(text_table(header, lines), file=out)
    return 0


def _standings(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.report import show, text_table
    from engines.events.swiss import event_standings

    out = out or sys.stdout
    event = _event(args.file)
    standings = event_standings(event)
    if args.json:
        rows = [
            {
                "pair": s.pair,
                "score": float(s.score) if not isinstance(s.score, int) else s.score,
                "boards": s.boards,
                "byes": s.byes,
            }
            for s in standings
        ]
        _dump({"after_rounds": len(event.rounds), "standings": rows}, out)
        return 0
    print(f"standings after {len(event.rounds)} round(s)", file=out)
    lines = [
        [i, s.pair, " / ".join(event.pair(s.pair).players), show(s.score), s.boards, s.byes]
        for i, s in enumerate(standings, start=1)
    ]
    print(text_table(["pos", "pair", "players", "score", "boards", "byes"], lines), file=out)
    return 0


def _pair(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.report import text_table
    from engines.events.swiss import next_round

    out = out or sys.stdout
    event = _event(args.file)
    if event.type != "swiss":
        raise InputError(f"{args.file}: pairing needs a swiss event, got type {event.type!r}")
    try:
        withdraw = [int(p) for p in args.withdraw.split(",") if p.strip()]
    except ValueError:
        raise InputError(f"--withdraw: expected pair ids like 4,7, got {args.withdraw!r}") from None
    pairing = next_round(event, withdraw)
    number = len(event.rounds) + 1
    if args.json:
        _dump(
            {
                "round": number,
                "tables": [list(t) for t in pairing.tables],
                "bye": pairing.bye,
                "rematches": pairing.rematches,
                "order": pairing.order,
            },
            out,
        )
        return 0
    print(
        f"round {number}: {len(pairing.tables)} tables, {pairing.rematches} rematch(es)", file=out
    )
    lines = [
        [t, ns, " / ".join(event.pair(ns).players), ew, " / ".join(event.pair(ew).players)]
        for t, (ns, ew) in enumerate(pairing.tables, start=1)
    ]
    print(text_table(["table", "N-S", "players", "E-W", "players"], lines), file=out)
    if pairing.bye is not None:
        print(f"bye: pair {pairing.bye} ({' / '.join(event.pair(pairing.bye).players)})", file=out)
    return 0


def _rate(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.files import load_json, parse_week
    from engines.events.rate import PlayerState, rate_week
    from engines.events.report import players_file, show, text_table

    out = out or sys.stdout
    state: dict[str, PlayerState] = {}
    for path in args.files:
        week = parse_week(load_json(path), str(path))
        start = {**week.players, **state}
        figures = rate_week(start, week.boards, week.params)
        state = {name: PlayerState(f.rate, f.total_boards) for name, f in figures.items()}
    if args.json:
        _dump(players_file(figures), out)
        return 0
    order = sorted(figures, key=lambda n: (-figures[n].rate, n))
    lines = [
        [n, show(f.rate), show(f.week_rate), f.boards, f.total_boards, f.points,
         f.dynamic_points, show(f.avg)]
        for n, f in ((n, figures[n]) for n in order)
    ]  # fmt: skip
    header = ["player", "Rate", "week rate", "boards", "total", "points", "dynamic", "avg"]
    print(f"week {week.label or path}: {len(week.boards)} boards", file=out)
    print(text_table(header, lines), file=out)
    return 0


def _masterpoints(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.awards import masterpoints

    out = out or sys.stdout
    awards = masterpoints(args.completed)
    if args.json:
        _dump({"awards": awards}, out)
    else:
        print(
            " ".join(f"{rank}:{award}" for rank, award in enumerate(awards, 1) if award), file=out
        )
    return 0


def _grade(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.awards import grade

    out = out or sys.stdout
    level, name = grade(args.points)
    if args.json:
        _dump({"grade": level, "name": name}, out)
    else:
        print(f"grade {level}: {name}", file=out)
    return 0


def _match(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.files import load_json, parse_match
    from engines.events.teams import team_match

    out = out or sys.stdout
    result = team_match(parse_match(load_json(args.file), str(args.file)))
    if args.json:
        _dump(result.to_dict(), out)
        return 0
    print("board IMPs (team A): " + " ".join(f"{v:+d}" for v in result.board_imps), file=out)
    print(
        f"IMPs {result.imps_a} - {result.imps_b} (margin {result.margin:+d}), "
        f"VP {result.vp_a:.2f} - {result.vp_b:.2f}",
        file=out,
    )
    return 0


def _ladder(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.files import load_json
    from engines.events.verify import KINDS

    out = out or sys.stdout
    data = load_json(args.file)
    if not isinstance(data, dict) or "teams" not in data or "ops" not in data:
        raise InputError(f"{args.file}: expected an object with 'teams' and 'ops'")
    result = KINDS["ladder"](data)
    if args.json:
        _dump(result, out)
        return 0
    for i, entry in enumerate(result["log"], start=1):
        state = "valid" if entry["valid"] else "invalid"
        if "vp" in entry and entry["valid"]:
            state += f", VP {entry['vp']:.2f}, {'won' if entry['success'] else 'lost'}"
        print(f"op {i}: {state}", file=out)
    print(
        "ladder: " + " ".join(f"{i}.{t}" for i, t in enumerate(result["order"], start=1)), file=out
    )
    return 0


def _tiedian(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.files import load_json
    from engines.events.tiedian import default_table
    from engines.events.verify import KINDS

    out = out or sys.stdout
    data = load_json(args.file)
    if not isinstance(data, dict) or "boards" not in data:
        raise InputError(f"{args.file}: expected an object with 'boards'")
    table = load_json(args.table) if args.table else data.get("table") or default_table()
    result = KINDS["tiedian"]({**data, "table": table, "id": str(args.file)})
    if args.json:
        _dump(result, out)
        return 0
    print("board results: " + " ".join(f"{v:+d}" for v in result["results"]), file=out)
    print(f"total: {result['total']:+d}", file=out)
    return 0


def _verify(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.verify import verify_file

    return verify_file(args.file, out=out).status


def _tiedian_table(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.expected import build_table

    out = out or sys.stdout
    data = build_table(args.count, seed=args.seed, threads=args.threads)
    if args.output in (None, "-"):
        _dump(data, out)
    else:
        with open_output(args.output) as handle:
            _dump(data, handle)
    return 0


def _demo(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.events.demo import run_demo

    run_demo(
        out or sys.stdout,
        pairs=args.pairs,
        rounds=args.rounds,
        boards=args.boards,
        seed=args.seed,
        method=args.method,
        as_json=args.json,
        threads=args.threads,
    )
    return 0
