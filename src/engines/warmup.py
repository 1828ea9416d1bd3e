"""``qipai warmup``: load or compile every game's kernels before the first real call.

Each game package defines ``warmup() -> None`` (``docs/architecture.md``,
"Warm-up"): it runs every compiled kernel once on a tiny input so that Numba
compiles it (first use after installation) or loads it from the on-disk cache,
and a Cython extension is loaded.  Benchmarks and servers call it before any
timed region; the command does the same for all games at once.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys
import time
from typing import TextIO

from engines.errors import InputError
from engines.games import GAMES

__all__ = ["register", "warmup"]


def warmup(games: list[str] | None = None, out: TextIO | None = None,
           house_rules: bool = True) -> dict[str, float]:
    """Warm up ``games`` (default: all); returns the seconds each took.

    ``out``, when given, gets one ``game: N.N s`` line per game as it finishes.
    ``house_rules=False``: a game whose kernels have a second compiled form for its house
    rules (Rummikub: :mod:`solvers.rummikub._family`) warms its default rules' form only.
    """
    known = [game.key for game in GAMES]
    for key in games or ():
        if key not in known:
            raise InputError(f"unknown game {key!r}; choose from {', '.join(known)}")
    seconds: dict[str, float] = {}
    for key in games or known:
        start = time.perf_counter()
        warm = getattr(importlib.import_module(f"engines.{key}"), "warmup", None)
        if warm is None:  # a pure-Python game has nothing to compile
            pass
        elif "house_rules" in inspect.signature(warm).parameters:
            warm(house_rules=house_rules)
        else:
            warm()
        seconds[key] = time.perf_counter() - start
        if out is not None:
            print(f"{key}: {seconds[key]:.1f} s", file=out, flush=True)
    return seconds


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "warmup",
        help="compile or load every game's kernels now, so later runs start fast",
        description="Run each game's warm-up: Numba kernels compile on first use after "
        "installation (seconds; Rummikub's minutes) and load from the on-disk cache later.",
    )
    parser.add_argument(
        "games",
        nargs="*",
        metavar="GAME",
        help="only these games (" + ", ".join(game.key for game in GAMES) + "); default: all",
    )
    parser.add_argument(
        "--default-rules",
        action="store_true",
        help="only the kernels of each game's default rules (Rummikub: not those of the "
        "house rules' wider searches, about half of its first compile)",
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    warmup(args.games or None, out=sys.stdout, house_rules=not args.default_rules)
    return 0
