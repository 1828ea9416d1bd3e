"""The ``qipai`` command line.

One subcommand group per game (``qipai bridge …``, ``qipai rummikub …``,
``qipai shengji …``) plus ``demo``, ``gen``, ``batch``, ``results``,
``report`` and ``bench``.  Each group's commands live in the game's own
``cli`` module, which exposes ``register(subparsers)``: it adds its parsers
and sets ``func(args) -> int`` on each leaf.  Command modules import their
solvers lazily so that ``qipai --help`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from engines import __version__
from engines.errors import InputError

GAME_GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "bridge",
        "contract bridge: double-dummy tables, end positions, par, scoring, play analysis",
        ("engines.bridge.cli", "engines.bridge.analysis_cli"),
    ),
    (
        "rummikub",
        "Rummikub: exact best move, table arrangement, full rounds",
        ("engines.rummikub.cli",),
    ),
    (
        "shengji",
        "升级 / Shengji / Tractor: follow legality, throws, trick winners, full rounds",
        ("engines.shengji.cli",),
    ),
    (
        "events",
        "bridge events: board scoring, weekly Rate, 贴点赛, team matches, ladder, pairs and Swiss",
        ("engines.events.cli",),
    ),
)

TOP_LEVEL_MODULES: tuple[str, ...] = ("engines.demo", "engines.batch.cli")


def _load(module_name: str):
    """Import a command module; a module not yet part of this build is skipped."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return None
        raise


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every installed command registered."""
    parser = argparse.ArgumentParser(
        prog="qipai",
        description="qipai: fast, exact solvers for bridge, Rummikub and Shengji (升级).",
    )
    parser.add_argument("--version", action="version", version=f"qipai {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, help_text, modules in GAME_GROUPS:
        group = commands.add_parser(name, help=help_text, description=help_text)
        group.set_defaults(func=_help_of(group))
        group_commands = group.add_subparsers(title=f"{name} commands", metavar="COMMAND")
        for module_name in modules:
            module = _load(module_name)
            if module is not None:
                module.register(group_commands)
    for module_name in TOP_LEVEL_MODULES:
        module = _load(module_name)
        if module is not None:
            module.register(commands)
    parser.set_defaults(func=_help_of(parser))
    return parser


def _help_of(parser: argparse.ArgumentParser):
    def show_help(_args: argparse.Namespace) -> int:
        parser.print_help()
        return 0

    return show_help


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``qipai`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"qipai: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Output piped into `head` and friends: stop quietly like other Unix tools.
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print("qipai: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
