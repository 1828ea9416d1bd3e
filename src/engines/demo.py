"""``qipai demo``: show what each game can do on the samples shipped in ``engines/data``.

Each game contributes a ``demo(out)`` function in its ``demo`` module; the
sections run in the order of :data:`engines.games.GAMES`, each solving its
sample for real.
"""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import TextIO

from engines.errors import InputError
from engines.games import GAMES, game_module


def available_sections() -> list[tuple[str, str, ModuleType]]:
    """``(key, title, demo module)`` of every game of :data:`~engines.games.GAMES` with a demo."""
    sections = []
    for game in GAMES:
        module = game_module(game, "demo")
        if module is not None and hasattr(module, "demo"):
            sections.append((game.key, game.title, module))
    return sections


def run_demo(games: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the demo sections (all, or those named in ``games``) and write them to ``out``."""
    out = out or sys.stdout
    shown = 0
    for key, title, module in available_sections():
        if games and key not in games:
            continue
        heading = f"== {title} =="
        print(heading, file=out)
        module.demo(out)
        print(file=out)
        shown += 1
    return 0 if shown else 1


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "demo",
        help="show each game's solver on the shipped sample data",
        description="Solve the sample positions shipped with qipai, game by game.",
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="limit the demo to these games ("
        + ", ".join(game.key for game in GAMES)
        + "); default: all",
    )
    parser.set_defaults(func=_run_from_args)


def _run_from_args(args: argparse.Namespace) -> int:
    known = [game.key for game in GAMES]
    unknown = [game for game in args.games if game not in known]
    if unknown:
        raise InputError(f"unknown game {unknown[0]!r}; choose from {', '.join(known)}")
    return run_demo(args.games or None)
