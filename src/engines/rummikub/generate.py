"""Random Rummikub positions for ``qipai gen rummikub`` and the benchmarks (seeded).

Tables are made of valid runs and groups drawn from the 106-tile set, jokers
substituted into table sets or dealt to the rack at a chosen rate, racks drawn
from the remaining tiles; positions are written in the corpus format.

>>> pos = next(rummikub_positions(1, seed=3, table_tiles=(6, 9)))
>>> sorted(pos) == ['gen', 'id', 'initial_meld_done', 'rack', 'table']
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from engines.batch.generate import check_range
from engines.errors import InputError

__all__ = ["rummikub_positions"]

RUMMIKUB_COLOURS = "KROB"


def _tile(colour: int, number: int) -> str:
    return f"{RUMMIKUB_COLOURS[colour]}{number}"


def _rack_key(tile: str) -> tuple[int, int]:
    if tile == "J":
        return (4, 0)
    return (RUMMIKUB_COLOURS.index(tile[0]), int(tile[1:]))


def rummikub_positions(
    count: int,
    seed: int = 0,
    *,
    table_tiles: tuple[int, int] = (0, 30),
    rack_size: tuple[int, int] = (5, 14),
    joker_rate: float = 0.3,
    initial_meld_rate: float = 0.2,
) -> Iterator[dict[str, Any]]:
    """``count`` random positions in the corpus format (``id``, ``table``, ``rack``,
    ``initial_meld_done``, plus ``gen`` with the drawn sizes).

    ``table_tiles`` and ``rack_size`` are inclusive ranges; the table is built
    from random valid runs (3–5 tiles) and groups (3–4) until it holds at least
    the drawn number of tiles (it may exceed it by the last set).  Each of the two
    jokers is in play with probability ``joker_rate``, then equally likely in a
    random table set (standing for the tile it replaces) or in the rack.  A
    position is an initial meld (``initial_meld_done: false``) with
    probability ``initial_meld_rate``.
    """
    check_range("table tiles", table_tiles, 0, 104)
    check_range("rack size", rack_size, 1, 104)
    for name, rate in (("joker rate", joker_rate), ("initial meld rate", initial_meld_rate)):
        if not 0.0 <= rate <= 1.0:
            raise InputError(f"{name} must be between 0 and 1, got {rate}")
    rng = random.Random(seed)
    for i in range(count):
        pool = Counter({(c, n): 2 for c in range(4) for n in range(1, 14)})
        target = rng.randint(*table_tiles)
        sets: list[list[tuple[int, int]]] = []
        placed = 0
        attempts = 0
        while placed < target and attempts < 500:
            attempts += 1
            if rng.random() < 0.6:
                length = rng.randint(3, 5)
                colour = rng.randrange(4)
                start = rng.randint(1, 14 - length)
                tiles = [(colour, start + k) for k in range(length)]
            else:
                number = rng.randint(1, 13)
                colours = rng.sample(range(4), rng.choice((3, 4)))
                tiles = [(c, number) for c in sorted(colours)]
            if all(pool[t] >= 1 for t in tiles):
                for t in tiles:
                    pool[t] -= 1
                sets.append(tiles)
                placed += len(tiles)
        table: list[list[str]] = [[_tile(*t) for t in s] for s in sets]
        rack_jokers = 0
        table_jokers = 0
        for _ in range(2):
            if rng.random() >= joker_rate:
                continue
            if table and rng.random() < 0.5:
                # The joker stands for the tile it replaces, which goes back to the pool.
                where = rng.randrange(len(table))
                slot = rng.randrange(len(table[where]))
                if table[where][slot] == "J":
                    rack_jokers += 1
                    continue
                replaced = sets[where][slot]
                pool[replaced] += 1
                table[where][slot] = "J"
                table_jokers += 1
            else:
                rack_jokers += 1
        size = rng.randint(*rack_size)
        bag = [t for t, n in pool.items() for _ in range(n)]
        bag.sort()
        drawn = rng.sample(bag, max(0, min(len(bag), size - rack_jokers)))
        rack = sorted([_tile(*t) for t in drawn] + ["J"] * rack_jokers, key=_rack_key)
        yield {
            "id": f"gr{seed}-{i:06d}",
            "table": table,
            "rack": rack,
            "initial_meld_done": rng.random() >= initial_meld_rate,
            "gen": {
                "T": sum(len(s) for s in table),
                "R": len(rack),
                "table_jokers": table_jokers,
                "rack_jokers": rack_jokers,
            },
        }
