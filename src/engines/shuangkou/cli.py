"""``qipai shuangkou …`` commands: play, check, verify, follows, solve.

Examples::

    qipai shuangkou play --seed 1                        # one round, action by action
    qipai shuangkou play --seed 1 -n 10 -p heuristic,random,heuristic,random --match --json
    qipai shuangkou check position.json                  # one conformance-format question
    qipai shuangkou verify cases.jsonl                   # every record; exit 1 on a difference
    qipai shuangkou follows --hand "S3 H3 D3 S4 S5 S6 S7 HA" --previous C10
    qipai shuangkou solve --hands "S3 S4|H9|SQ SK|S8 S8" --leader 0
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, TextIO

from engines.cliargs import (
    add_count_flag,
    add_json_flag,
    add_output_flag,
    add_players_flag,
    add_seed_flag,
    open_output,
    seat_kinds,
)
from engines.conformance_cli import add_conformance_commands, run_check
from engines.errors import InputError
from engines.shuangkou.kinds import CONFORMANCE_KINDS


def _policy_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--straight-flush",
        choices=("bomb", "straight"),
        default="bomb",
        help="a one-suit straight is a bomb (rules, default) or a plain straight",
    )
    p.add_argument(
        "--points",
        default="3,2,1",
        help="points of the winning side when the partner finishes 2nd,3rd,4th (default 3,2,1)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the shuangkou commands to the ``qipai shuangkou`` group."""
    p = subparsers.add_parser(
        "play",
        help="play rounds (or a match) with computer players, action by action",
        description="Deal and play 双扣 rounds with computer players and print them.",
    )
    add_seed_flag(p, default=1)
    add_players_flag(p, "heuristic,random,heuristic,random", ("random", "heuristic"))
    add_count_flag(p, 1, "rounds")
    p.add_argument(
        "--match",
        action="store_true",
        help="chain the rounds as a match (first leader: previous first finisher, or random "
        "after a double win) and print the running points",
    )
    add_json_flag(p, "one JSON object per round (JSON Lines)")
    add_output_flag(p)
    _policy_args(p)
    p.set_defaults(func=_play)

    add_conformance_commands(subparsers, CONFORMANCE_KINDS, _check, _verify)

    f = subparsers.add_parser(
        "follows",
        help="list the legal plays of a hand (answering a previous play, or leading)",
        description="Count and list every distinct legal play (section 6.3) of HAND.",
    )
    f.add_argument("--hand", required=True, help="the player's cards, e.g. 'S3 H3 D3 S4 S5'")
    f.add_argument("--previous", help="the last play of the trick (omit when leading)")
    f.add_argument("--limit", type=int, default=50, help="print at most this many (default 50)")
    _policy_args(f)
    f.set_defaults(func=_follows)

    s = subparsers.add_parser(
        "solve",
        help="solve an end-game exactly (all hands known)",
        description=(
            "Best play for both sides from a position with every hand known: side 0's "
            "points, whether the side on move forces a double win, every action's value "
            "and a principal variation."
        ),
    )
    s.add_argument("--hands", required=True, help="four hands separated by '|' (empty: out)")
    s.add_argument("--leader", type=int, required=True, help="the seat leading the trick")
    s.add_argument("--finished", default="", help="seats already out, in order, e.g. '2'")
    s.add_argument(
        "--actions", default="", help="actions already made in this trick, separated by '|'"
    )
    s.add_argument("--node-limit", type=int, default=50_000_000, help="give up past this many")
    add_json_flag(s)
    _policy_args(s)
    s.set_defaults(func=_solve)


def _policy(args: argparse.Namespace):
    from engines.shuangkou.rules import Policy

    try:
        points = tuple(int(x) for x in args.points.split(","))
    except ValueError:
        raise InputError(
            f"--points: expected three integers like 3,2,1, got {args.points!r}"
        ) from None
    return Policy(args.straight_flush, points)  # type: ignore[arg-type]


def _play(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shuangkou.players import make_player

    if args.count < 1:
        raise InputError(f"-n/--count: expected at least 1, got {args.count}")
    names = seat_kinds(args.players)
    policy = _policy(args)
    rng = random.Random(args.seed)
    players = [make_player(n, random.Random(args.seed * 4 + i)) for i, n in enumerate(names)]
    if out is not None:
        return _play_to(args, names, policy, players, rng, out)
    with open_output(args.output) as handle:
        return _play_to(args, names, policy, players, rng, handle)


def _play_to(
    args: argparse.Namespace, names: list[str], policy: Any, players: list[Any],
    rng: random.Random, handle: TextIO,
) -> int:
    from engines.shuangkou.cards import format_cards
    from engines.shuangkou.game import play_round

    totals = [0, 0]
    leader = None
    for i in range(args.count):
        rec = play_round(players, rng, leader if args.match else None, policy)
        totals = [totals[0] + rec.result.points[0], totals[1] + rec.result.points[1]]
        leader = rec.result.next_leader
        if args.json:
            print(json.dumps(rec.as_dict()), file=handle)
            continue
        if args.count > 1:
            print(f"=== round {i + 1} ===", file=handle)
        print("players: " + ", ".join(f"{s}={n}" for s, n in enumerate(names)), file=handle)
        for seat in range(4):
            print(f"seat {seat}: {format_cards(rec.hands[seat])}", file=handle)
        print(f"seat {rec.leader} leads", file=handle)
        for seat, cards in rec.actions:
            print(f"  {seat}: {'pass' if cards is None else format_cards(cards)}", file=handle)
        res = rec.result
        print(
            f"finishing order {list(res.order)}; side {res.winning_side} wins"
            f"{' (双扣, double win)' if res.double_win else ''}; points {list(res.points)}",
            file=handle,
        )
        if args.match:
            print(f"match points so far {totals}", file=handle)
    return 0


def _check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shuangkou.verify import answer, record_mismatches

    return run_check(args.position, answer, record_mismatches, out)


def _verify(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shuangkou.verify import verify_file

    return verify_file(args.file, out=out).status


def _follows(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shuangkou.rules import legal_plays

    out = out or sys.stdout
    if args.limit < 0:
        raise InputError(f"--limit: expected ≥ 0, got {args.limit}")
    plays = legal_plays(args.hand, args.previous, _policy(args))
    total = plays.count()
    what = "lead" if plays.leading else "beating play"
    print(f"{total} {what}{'s' if total != 1 else ''}"
          + ("" if plays.leading else f" ({total + 1} legal responses with pass)"), file=out)
    for name, n in sorted(plays.by_type().items()):
        print(f"  {name}: {n}", file=out)
    for i, play in enumerate(plays):
        if i >= args.limit:
            print(f"… {total - args.limit} more", file=out)
            break
        print(" ".join(play), file=out)
    return 0


def _solve(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shuangkou.endgame import solve_endgame
    from engines.shuangkou.game import Round

    out = out or sys.stdout
    hands = [h.strip() for h in args.hands.split("|")]
    if len(hands) != 4:
        raise InputError(f"--hands: expected four hands separated by '|', got {len(hands)}")
    try:
        finished = [int(x) for x in args.finished.replace(",", " ").split()]
    except ValueError:
        raise InputError(f"--finished: expected seats like '2 0', got {args.finished!r}") from None
    game = Round(hands, args.leader, finished, _policy(args))
    for action in [a.strip() for a in args.actions.split("|") if a.strip()]:
        game.play(action)
    res = solve_endgame(game, node_limit=args.node_limit)
    show = lambda a: a if isinstance(a, str) else " ".join(a)  # noqa: E731
    if args.json:
        print(json.dumps({
            "points": res.points,
            "winning_side": list(res.winning_side),
            "to_move": res.to_move,
            "double_win": res.double_win,
            "best_play": res.best_play,
            "actions": [{"action": a, "points": v} for a, v in res.action_values],
            "line": [[s, a] for s, a in res.line],
            "finishing_order": res.finishing_order,
            "nodes": res.nodes,
        }, ensure_ascii=False), file=out)
        return 0
    side = "side 0 (seats 0, 2)" if res.winning_side[0] == 0 else "side 1 (seats 1, 3)"
    print(f"seat {res.to_move} to move; under best play {side} finishes first; "
          f"side 0 points {res.points:+d}", file=out)
    print(f"side on move can force a double win: {'yes' if res.double_win else 'no'}", file=out)
    print(f"best play: {show(res.best_play)}", file=out)
    for action, value in res.action_values:
        print(f"  {show(action)}: {value:+d}", file=out)
    print("line: " + "; ".join(f"{s}: {show(a)}" for s, a in res.line), file=out)
    print(f"finishing order {res.finishing_order}; {res.nodes} nodes", file=out)
    return 0
