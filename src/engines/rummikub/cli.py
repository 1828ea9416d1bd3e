"""``qipai rummikub …``: best move, arrangement, verification and full rounds."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engines.cliargs import (
    add_count_flag,
    add_deprecated_flag,
    add_json_flag,
    add_players_flag,
    add_seed_flag,
    add_threads_flag,
    split_list,
)
from engines.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    best = subparsers.add_parser(
        "best",
        help="the exact best move of one position (JSON: table, rack, initial_meld_done)",
        description="Answer one position file in the corpus format ('-' reads stdin).",
    )
    best.add_argument("position", metavar="POSITION.json")
    best.add_argument("--objective", choices=("tiles", "value"), default="tiles",
                      help="maximise tiles played (default) or their face value")
    add_json_flag(best, "print the move as JSON")
    best.add_argument("--line", type=int, default=None, metavar="N",
                      help="in a JSON Lines file, answer the position on line N (default 1)")
    best.add_argument("--explain", action="store_true",
                      help="also list the move as physical steps (take, pick up, add, lay down)")
    best.add_argument("--rule", action="append", default=[], metavar="NAME=VALUE",
                      help="a house rule (repeatable): meld_threshold=0..127 (initial meld "
                      "value, 0: none), meld_joker=stands-for|zero (a joker's worth towards "
                      "it), meld_continue=on (meld, then play onto the table in the same "
                      "turn), joker_retrieval=official, min_real_tiles=2, "
                      "least_disturbance=off (on by default: among the optimal moves, "
                      "one keeping the most table sets), colours=1..4, numbers=1..13, copies=1..4, "
                      "jokers=0..4, min_set_length=2..13; the others of "
                      "docs/rummikub-house-rules.md are refused "
                      "by name")
    best.set_defaults(func=_best)

    arrange = subparsers.add_parser(
        "arrange", help="can these tiles form a valid table? print one arrangement",
        description="Arrange exactly the given tiles (e.g. R5 R6 R7 J K9 O9 B9) into sets.",
    )
    arrange.add_argument("tiles", nargs="+", metavar="TILE")
    arrange.set_defaults(func=_arrange)

    verify = subparsers.add_parser(
        "verify", help="recompute every position of a corpus file (both objectives)",
        description="Check best moves against optimal.max_tiles / optimal.max_value and check "
        "every returned arrangement; exit 1 when anything differs.",
    )
    verify.add_argument("file", metavar="FILE.jsonl")
    add_threads_flag(verify, "Numba threads (default: all cores)")
    verify.set_defaults(func=_verify)

    play = subparsers.add_parser(
        "play", help="play a full round and print it move by move",
        description="A seeded round between the solver (greedy best move), the planner (exact "
        "two-turn plan) and random players; with -n N > 1 a tournament of N deals, each played "
        "once per seat rotation, reporting win rates with 95%% confidence intervals.",
    )
    add_players_flag(play, "solver,random,solver,random", ("solver", "planner", "random"),
                     "2 to 4 players:")
    add_count_flag(play, 1, "deals (more than 1: a tournament)")
    add_seed_flag(play, default=None, help="shuffle seed (random)")
    add_deprecated_flag(play, "--kinds", dest="kinds", replacement="--players KIND,KIND,...",
                        default=None)
    play.add_argument("--show-table", action="store_true", help="print the table after each play")
    play.set_defaults(func=_play)


def _load_position(path: str, line: int | None = None, limits: dict | None = None) -> Any:
    """The file's :class:`Position` (``limits``: what it accepts,
    :meth:`~engines.rummikub.rules.Rules.position_limits`)."""
    from engines.rummikub.position import Position

    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    lines = [(n, t) for n, t in enumerate(text.splitlines(), start=1) if t.strip()]
    if line is not None or (len(lines) > 1 and lines[0][1].strip().endswith("}")
                            and lines[1][1].lstrip().startswith("{")):
        # JSON Lines: one position per line
        wanted = line or 1
        if not 1 <= wanted <= len(lines):
            raise InputError(f"{path}: --line {wanted} out of range (1..{len(lines)})")
        number, text = lines[wanted - 1]
        where = f"{path}:{number}"
    else:
        where = path
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{where}: not valid JSON: {exc.msg} (line {exc.lineno})") from exc
    return Position.from_json(obj, where=where, **(limits or {}))


def _best(args: argparse.Namespace) -> int:
    from engines.rummikub.position import best_moves
    from engines.rummikub.rules import Rules
    from engines.rummikub.sets import format_meld
    from engines.rummikub.tiles import format_tiles, sort_tiles

    # before reading the position: a bad or unsupported rule needs no file
    rules = Rules.parse(args.rule).check_supported()
    pos = _load_position(args.position, args.line, rules.position_limits())
    move = best_moves([pos], objective=args.objective, rules=rules)[0]
    moved = move.tiles_moved  # (the table read in the rules' tile set: Move.tile_set)
    rack = format_tiles(sort_tiles(pos.rack))
    if args.json:
        data = {"objective": args.objective, **move.to_json()}
        if args.explain:
            data["steps"] = [str(step) for step in move.steps()]
            data["sets_kept"] = move.sets_kept
            data["tiles_moved"] = moved
        print(json.dumps(data))
        return 0
    print(f"rack: {rack}")
    print(f"best move ({args.objective}): {move}")
    if not move.is_pass:
        print("table after the move:")
        for m in move.table:
            print(f"  {format_meld(m)}")
    if args.explain and not move.is_pass:
        print("steps:")
        for number, step in enumerate(move.steps(), start=1):
            print(f"  {number}. {step}")
        print(f"table sets kept: {move.sets_kept} of {len(pos.table)}; "
              f"table tiles moved: {moved}")
    return 0


def _arrange(args: argparse.Namespace) -> int:
    from engines.rummikub.position import arrange
    from engines.rummikub.sets import format_meld

    melds = arrange(args.tiles)
    if melds is None:
        print("no valid arrangement")
        return 1
    for m in melds:
        print(format_meld(m))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from engines.rummikub.verify import verify_file

    return verify_file(args.file, threads=args.threads).status


def _player_kinds(players: str, legacy_kinds: str | None, known: Sequence[str]) -> list[str]:
    """The kind of each seat from ``--players`` (a bare count is the deprecated spelling:
    that many players, solver and random alternating, or the kinds of ``--kinds``)."""
    if players.strip().isdigit():
        print("qipai: warning: --players N is deprecated; use --players KIND,KIND,...",
              file=sys.stderr)
        count = int(players)
        if legacy_kinds:
            kinds = split_list(legacy_kinds)
            if len(kinds) != count:
                raise InputError(f"--kinds names {len(kinds)} players but --players is {count}")
        else:
            kinds = [("solver", "random")[i % 2] for i in range(count)]
    elif legacy_kinds:
        raise InputError("give the player kinds once, with --players")
    else:
        kinds = split_list(players)
    if not 2 <= len(kinds) <= 4:
        raise InputError(f"--players must name 2-4 players, got {len(kinds)}")
    for kind in kinds:
        if kind not in known:
            raise InputError(f"unknown player kind {kind!r}; choose from {', '.join(known)}")
    return kinds


def _play(args: argparse.Namespace) -> int:
    from engines.rummikub.game import PLAYER_KINDS, format_table, play_round

    kinds = _player_kinds(args.players, args.kinds, PLAYER_KINDS)
    names = kinds
    if args.count < 1:
        raise InputError(f"-n/--count: expected at least 1 deal, got {args.count}")
    if args.count > 1:
        from engines.rummikub.tournament import play_tournament

        print(play_tournament(kinds, args.count, 0 if args.seed is None else args.seed).format())
        return 0

    def show(turn) -> None:
        print(f"{len(shown) + 1:3d}. {turn.describe(names)}")
        shown.append(turn)
        if args.show_table and turn.played:
            print(f"     table: {format_table(turn.table)}")

    shown: list = []
    print(f"Rummikub round, {len(kinds)} players ({', '.join(kinds)}), seed {args.seed}")
    result = play_round(kinds, seed=args.seed, on_turn=show)
    print(f"round over after {len(result.turns)} turns: {result.reason}; "
          f"winner P{result.winner + 1} ({names[result.winner]})")
    from engines.rummikub.tiles import format_tiles

    for p, (score, rack) in enumerate(zip(result.scores, result.racks)):
        left = format_tiles(rack) or "-"
        print(f"P{p + 1} ({names[p]}): {score:+d}   rack left: {left}")
    return 0
