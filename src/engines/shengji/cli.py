"""``qipai shengji …`` commands: play, check, verify, follows.

Examples::

    qipai shengji play --seed 1                     # one round, trick by trick
    qipai shengji play --seed 1 --match -p heuristic,random,heuristic,random
    qipai shengji check position.json               # one conformance-format question
    qipai shengji verify cases.jsonl                # every record; exit 1 on a difference
    qipai shengji follows --level 10 -t H --hand "D2 D2 D3 C4" --lead D9
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any, TextIO

from engines.cliargs import (
    add_count_flag,
    add_deprecated_flag,
    add_json_flag,
    add_output_flag,
    add_players_flag,
    add_seed_flag,
    add_trump_flag,
    open_output,
    seat_kinds,
)
from engines.conformance_cli import add_conformance_commands, run_check
from engines.errors import InputError
from engines.shengji.kinds import CONFORMANCE_KINDS


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the shengji commands to the ``qipai shengji`` group."""
    p = subparsers.add_parser(
        "play",
        help="play a round (or a whole match) with computer players, trick by trick",
        description="Deal, bid, bury and play a 升级 round with computer players and print it.",
    )
    add_seed_flag(p, default=1)
    add_players_flag(
        p,
        "heuristic,random,heuristic,random",
        ("random", "heuristic"),
        "seats 0–3, or one kind for all four:",
    )
    p.add_argument("--match", action="store_true", help="play rounds until a team passes A")
    add_count_flag(p, 1, "independent first rounds to play (with --json: one line each)")
    add_deprecated_flag(p, "--rounds", dest="count", replacement="-n/--count", type=int)
    add_output_flag(p)
    p.add_argument(
        "--throw-winner",
        choices=("leading-component", "highest-card"),
        default="leading-component",
        help="how ruffs of a throw compare: the lead's longest chain (rules, default) or the "
        "highest card (house rule)",
    )
    p.add_argument(
        "--bottom",
        choices=("power-of-two", "twice-unit-cards"),
        default="power-of-two",
        help="bottom multiplier: 2^(1+pairs of the largest unit) (rules, default) or "
        "2 × its cards (anchor)",
    )
    p.add_argument(
        "--throw-penalty",
        choices=("none", "ten-points"),
        default="none",
        help="penalty for a failed throw (rules: none)",
    )
    add_json_flag(p, "print each round (or the match) as one JSON line")
    add_deprecated_flag(
        p, "-f", "--format", dest="legacy_format", replacement="--json", choices=("text", "json")
    )
    p.set_defaults(func=_play)

    add_conformance_commands(subparsers, CONFORMANCE_KINDS, _check, _verify)

    f = subparsers.add_parser(
        "follows",
        help="list the legal follows of a hand to a lead",
        description="List every distinct legal follow (section 6.3) of HAND to LEAD.",
    )
    f.add_argument("--level", help="level rank, e.g. 10 (required)")
    add_deprecated_flag(f, "-l", dest="level", replacement="--level")
    add_trump_flag(f, "S, H, C, D or NT")
    f.add_argument("--hand", required=True, help="the follower's cards, e.g. 'D2 D2 D3 C4'")
    f.add_argument("--lead", required=True, help="the cards led")
    f.add_argument("--limit", type=int, default=50, help="print at most this many (default 50)")
    f.set_defaults(func=_follows)


def _play(args: argparse.Namespace, out: TextIO | None = None) -> int:
    if out is None:
        with open_output(getattr(args, "output", None)) as handle:
            return _play_to(args, handle)
    return _play_to(args, out)


def _wants_json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "json", False)) or getattr(args, "legacy_format", None) == "json"


def _play_to(args: argparse.Namespace, out: TextIO) -> int:
    from engines.shengji.game import Round, play_match
    from engines.shengji.players import make_player

    rounds = getattr(args, "count", 1)
    if rounds < 1:
        raise InputError(f"--count: expected at least 1 round, got {rounds}")
    names = seat_kinds(args.players)
    rng = random.Random(args.seed)
    players = [make_player(n, random.Random(args.seed * 4 + i)) for i, n in enumerate(names)]
    policies = _policies(args)
    if args.match:
        match = play_match(players, rng, policies)
        if _wants_json(args):
            json.dump(
                {
                    "winner": match.winner,
                    "levels": match.levels,
                    "rounds": [r.as_dict() for r in match.rounds],
                },
                out,
            )
            print(file=out)
            return 0
        for i, res in enumerate(match.rounds, 1):
            s = res.score
            print(
                f"round {i}: level {res.level}, trump {res.trump}, declarer {res.declarer}; "
                f"defenders {s.defender_points} → next declarer {s.next_declarer}, "
                f"levels {s.new_levels}",
                file=out,
            )
        who = "none (round limit)" if match.winner is None else f"team {match.winner}"
        print(f"match won by {who}; levels {match.levels}", file=out)
        return 0
    for i in range(rounds):
        res = Round(players, rng, policies=policies).play_out()
        if _wants_json(args):
            json.dump(res.as_dict(), out)
            print(file=out)
            continue
        if rounds > 1:
            print(f"=== round {i + 1} ===", file=out)
        print_round(res, names, out)
    return 0


def _policies(args: argparse.Namespace):
    from engines.shengji.rules import BottomPolicy, Policies, ThrowPenalty, ThrowWinnerPolicy

    def enum_of(cls, text: str):
        return cls[text.upper().replace("-", "_")]

    return Policies(
        throw_winner=enum_of(ThrowWinnerPolicy, getattr(args, "throw_winner", "leading-component")),
        bottom=enum_of(BottomPolicy, getattr(args, "bottom", "power-of-two")),
        throw_penalty=enum_of(ThrowPenalty, getattr(args, "throw_penalty", "none")),
    )


def print_round(res: Any, names: list[str], out: TextIO) -> None:
    """Human-readable account of a round."""
    from engines.shengji.cards import card_name
    from engines.shengji.rules import TrumpContext

    ctx = TrumpContext(res.level, res.trump)
    show = lambda counts: " ".join(ctx.sorted_names(counts))  # noqa: E731
    print("players: " + ", ".join(f"{i}={n}" for i, n in enumerate(names)), file=out)
    bids = ", ".join(
        f"{s}:{card_name(c)}×{n}{'' if ok else ' (refused)'}" for s, c, n, ok in res.bids
    )
    print(f"bids: {bids or 'none'}" + (f" (after {res.redeals} redeals)" if res.redeals else ""),
          file=out)
    print(f"level {res.level}, trump {res.trump}, declarer seat {res.declarer} "
          f"(team {{{res.declarer % 2}, {res.declarer % 2 + 2}}})", file=out)
    print(f"bottom: {show(res.bottom)}", file=out)
    print(f"buried: {show(res.buried)}", file=out)
    for i, t in enumerate(res.tricks, 1):
        plays = " | ".join(f"{s}: {show(p)}" for s, p in zip(t.seats, t.plays))
        note = f" (failed throw of {show(t.attempted)})" if t.attempted is not None else ""
        pts = f", {t.points} points" if t.points else ""
        print(f"trick {i:2d}{note}: {plays} → seat {t.winner}{pts}", file=out)
    s = res.score
    captured = s.defender_points > res.defender_trick_points + res.penalty_points
    print(
        f"defenders' trick points {res.defender_trick_points}; bottom {s.bottom_points} "
        f"points × {s.multiplier}{' captured' if captured else ''}; total {s.defender_points}",
        file=out,
    )
    if s.declarers_keep:
        print(f"declarers keep the deal, +{s.declarer_delta}", file=out)
    else:
        print(f"defenders take over, +{s.defender_delta}", file=out)
    print(f"new levels {s.new_levels}; next declarer seat {s.next_declarer}"
          f"{'; match won' if s.match_won else ''}", file=out)


def _check(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shengji.verify import compare, evaluate

    return run_check(args.position, evaluate, compare, out)


def _verify(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shengji.verify import verify_file

    return verify_file(args.file, out=out).status


def _follows(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from engines.shengji.rules import TrumpContext, legal_follows

    out = out or sys.stdout
    if args.level is None:
        raise InputError("--level is required (the level rank, e.g. 10)")
    ctx = TrumpContext(args.level, args.trump)
    follows = legal_follows(args.hand, args.lead, ctx)
    total = follows.count()
    print(f"{total} legal follow{'s' if total != 1 else ''}", file=out)
    if total <= max(args.limit, 0) or total <= 100_000:
        for i, play in enumerate(follows):
            if i >= args.limit:
                print(f"… {total - args.limit} more", file=out)
                break
            print(" ".join(play), file=out)
    return 0
