"""The ``qipai`` command line.

One subcommand group per game of :data:`engines.games.GAMES` (``qipai bridge
…``, ``qipai rummikub …``, ``qipai shengji …``) plus ``demo``, ``warmup``,
``gen``, ``batch``, ``results``, ``report`` and ``bench``.  Each group's
commands live in the game's own ``cli`` module, which exposes
``register(subparsers)``: it adds its parsers and sets ``func(args) -> int``
on each leaf.  Command modules import their solvers inside the handlers so
that ``qipai --help`` starts fast; the flags every command shares come from
:mod:`engines.cliargs` (``docs/architecture.md``, "Command-line conventions").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import engines.malloc_env  # (first with openmp_env: freed memory kept for reuse)
import engines.openmp_env  # noqa: F401  (first: it sets OpenMP's spinning before libgomp loads)
from engines import __version__
from engines.errors import InputError
from engines.games import GAMES, game_module, optional_module

TOP_LEVEL_MODULES: tuple[str, ...] = (
    "engines.demo",
    "engines.warmup",
    "engines.batch.cli",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser, with every installed command registered.

    ``only``: a game's key, to register that group alone (a command of one game parses the
    same without importing every other game's command modules).
    """
    parser = argparse.ArgumentParser(
        prog="qipai",
        description="qipai: fast, exact solvers for card and tile games: "
        + ", ".join(game.title for game in GAMES)
        + ".",
    )
    parser.add_argument("--version", action="version", version=f"qipai {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for game in GAMES:
        if only is not None and game.key != only:
            continue
        group = commands.add_parser(game.key, help=game.help, description=game.help)
        group.set_defaults(func=_help_of(group))
        group_commands = group.add_subparsers(title=f"{game.key} commands", metavar="COMMAND")
        for name in game.cli_modules:
            module = game_module(game, name)
            if module is not None:
                module.register(group_commands)
    for module_name in TOP_LEVEL_MODULES if only is None else ():
        module = optional_module(module_name)
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
    argv = sys.argv[1:] if argv is None else list(argv)
    game = argv[0] if argv and any(g.key == argv[0] for g in GAMES) else None
    args = build_parser(only=game).parse_args(argv)
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
