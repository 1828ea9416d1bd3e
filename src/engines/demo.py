"""``qipai demo``: show what each game can do on the samples shipped in ``engines/data``.

Each game contributes a ``demo(out)`` function in its ``demo`` module; the
sections run in the order below, each solving its sample for real.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import TextIO

from engines.errors import InputError

DEMO_SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("bridge", "Bridge", "engines.bridge.demo"),
    ("rummikub", "Rummikub", "engines.rummikub.demo"),
    ("shengji", "升级 / Shengji", "engines.shengji.demo"),
)


def available_sections() -> list[tuple[str, str, object]]:
    """The demo sections whose game module is part of this build."""
    sections = []
    for key, title, module_name in DEMO_SECTIONS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and module_name.startswith(exc.name):
                continue
            raise
        sections.append((key, title, module))
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
        description=(
            "Solve the sample deal, Rummikub position and Shengji trick shipped with qipai."
        ),
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="limit the demo to these games (bridge, rummikub, shengji); default: all",
    )
    parser.set_defaults(func=_run_from_args)


def _run_from_args(args: argparse.Namespace) -> int:
    known = [key for key, _, _ in DEMO_SECTIONS]
    unknown = [game for game in args.games if game not in known]
    if unknown:
        raise InputError(f"unknown game {unknown[0]!r}; choose from {', '.join(known)}")
    return run_demo(args.games or None)
