"""The generator registry behind ``qipai gen GAME``: seeded random positions of each game.

This module knows no game.  A game registers a :class:`Generator` in its
``engines.<game>.tasks`` module; ``qipai gen`` adds one subcommand per
registered generator, with the flags every generator shares (``-n/--count``,
``--seed``, ``-o/--output``) plus the generator's own, and writes what
:attr:`Generator.records` yields (JSON Lines unless the generator has its own
writer).  Generators are seeded and reproducible: the same seed and options
give byte-identical output.

>>> "bridge" in GENERATORS
True
>>> parse_range("3-9"), parse_range("4")
((3, 9), (4, 4))
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from engines.errors import InputError

__all__ = [
    "GENERATORS",
    "Generator",
    "check_range",
    "get_generator",
    "parse_range",
    "register_generator",
    "write_jsonl",
]

Records = Iterable[dict[str, Any]]


def write_jsonl(records: Records, out: TextIO, _args: argparse.Namespace | None = None) -> int:
    """Write one JSON object a line; returns the number written."""
    n = 0
    for record in records:
        out.write(json.dumps(record, separators=(", ", ": ")) + "\n")
        n += 1
    return n


@dataclass(frozen=True)
class Generator:
    """``qipai gen <game>``: random positions of one game.

    ``add_arguments(parser)`` adds the generator's own flags; ``records(args)``
    validates them (raising :class:`InputError` before any output is opened)
    and returns the positions, lazily; ``write(records, out, args)`` writes them
    and returns the count (default: JSON Lines).  ``what`` names the positions
    in ``--count``'s help ("deals", "positions", "cases").
    """

    game: str
    help: str
    description: str
    what: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    records: Callable[[argparse.Namespace], Records]
    write: Callable[[Records, TextIO, argparse.Namespace], int] = write_jsonl


class GeneratorRegistry(Mapping[str, Generator]):
    """Game → :class:`Generator`; reading it first loads every game's registrations."""

    def __init__(self) -> None:
        self._generators: dict[str, Generator] = {}

    def add(self, generator: Generator) -> None:
        self._generators[generator.game] = generator

    def _load(self) -> None:
        from engines.batch.tasks import load_game_registrations

        load_game_registrations()

    def __getitem__(self, game: str) -> Generator:
        self._load()
        return self._generators[game]

    def __iter__(self) -> Iterator[str]:
        self._load()
        return iter(self._generators)

    def __len__(self) -> int:
        self._load()
        return len(self._generators)


GENERATORS = GeneratorRegistry()


def register_generator(generator: Generator) -> Generator:
    """Add ``generator`` (a later registration for the same game replaces it)."""
    GENERATORS.add(generator)
    return generator


def get_generator(game: str) -> Generator:
    try:
        return GENERATORS[game]
    except KeyError:
        known = ", ".join(sorted(GENERATORS)) or "none"
        raise InputError(f"no generator for {game!r}; known: {known}") from None


def check_range(name: str, bounds: tuple[int, int], low: int, high: int) -> None:
    """Raise :class:`InputError` unless ``low <= bounds[0] <= bounds[1] <= high``."""
    a, b = bounds
    if not low <= a <= b <= high:
        raise InputError(f"{name} range {a}-{b} must lie within {low}-{high} with min <= max")


def parse_range(text: str) -> tuple[int, int]:
    """``"5"`` → ``(5, 5)``, ``"3-9"`` → ``(3, 9)`` (for ``--table-tiles`` and friends)."""
    try:
        if "-" in text:
            low, high = text.split("-", 1)
            return int(low), int(high)
        return int(text), int(text)
    except ValueError:
        raise InputError(f"expected a number or a range like 3-9, got {text!r}") from None
