"""The list of games: the one place that names them.

Everything that works across games (the ``qipai`` command groups, ``qipai
demo``, ``qipai warmup``, the batch task and generator registry) walks
:data:`GAMES` and finds each game's pieces by module name under
``engines.<key>`` (``docs/architecture.md``, "The shape of a game"):

* ``cli`` (and any extra ``cli_modules``): ``register(subparsers)``;
* ``demo``: ``demo(out)``;
* ``tasks``: registers the game's batch tasks and generators on import;
* the package itself: ``warmup()``.

A module a game does not have (yet) is skipped, so a game can grow its pieces
one at a time.  Adding a game is one :class:`Game` line here.

>>> [game.key for game in GAMES][:3]
['bridge', 'rummikub', 'shengji']
>>> game_module("bridge", "no_such_module") is None
True
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

__all__ = ["GAMES", "Game", "game_module", "get_game", "optional_module"]


@dataclass(frozen=True)
class Game:
    """One game: ``key`` names the package ``engines.<key>`` and the ``qipai <key>`` group."""

    key: str
    title: str
    help: str
    cli_modules: tuple[str, ...] = ("cli",)


GAMES: tuple[Game, ...] = (
    Game(
        "bridge",
        "Bridge",
        "contract bridge: double-dummy tables, end positions, par, scoring, play analysis, "
        "dealing and simulations",
        ("cli", "analysis_cli", "simulation_cli"),
    ),
    Game("rummikub", "Rummikub", "Rummikub: exact best move, table arrangement, full rounds"),
    Game(
        "shengji",
        "升级 / Shengji",
        "升级 / Shengji / Tractor: follow legality, throws, trick winners, full rounds",
    ),
    Game(
        "shuangkou",
        "双扣 / Shuangkou",
        "双扣 / Shuangkou: combinations, legal plays, rounds, exact end-game solver",
    ),
    Game(
        "events",
        "Bridge events",
        "bridge events: board scoring, weekly Rate, 贴点赛, team matches, ladder, pairs and Swiss",
    ),
)


def get_game(key: str) -> Game:
    """The :class:`Game` called ``key``; ``KeyError`` when there is none."""
    for game in GAMES:
        if game.key == key:
            return game
    raise KeyError(key)


def optional_module(module_name: str) -> ModuleType | None:
    """Import ``module_name``; ``None`` when that module (or its package) does not exist.

    An import error *inside* an existing module is not hidden: it propagates.
    """
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            return None
        raise


def game_module(game: Game | str, name: str) -> ModuleType | None:
    """The module ``engines.<game>.<name>``, or ``None`` when this game has none."""
    key = game.key if isinstance(game, Game) else game
    return optional_module(f"engines.{key}.{name}")
