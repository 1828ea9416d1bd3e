"""Random valid table sets for the oracle tests of house-rule tile sets."""

from __future__ import annotations

import random
from collections import Counter

from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile


def random_set(rng: random.Random, rules: Rules, pool: Counter, jokers: int, *,
               run_when_few_colours: bool = False):
    """A random valid set drawn from ``pool`` (None if this draw does not fit).

    A run 60 % of the time, else a group; with fewer than three colours (or fewer than
    ``rules.min_set_length``) no group exists, so the draw is either a run
    (``run_when_few_colours``) or None.  Runs are 3..5 tiles long (L..L+2 for sets of L).
    Jokers stand in for tiles of the shape (more often under official retrieval, where table
    jokers matter most).
    """
    letters = ALL_COLOURS[: rules.colours]
    shortest = rules.min_set_length  # (3: the draws of the rules document's sets)
    if rng.random() < 0.6 or (run_when_few_colours and rules.colours < 3):
        if shortest > rules.numbers:
            return None
        length = rng.randint(shortest, min(shortest + 2, rules.numbers))
        colour = rng.choice(letters)
        start = rng.randint(1, rules.numbers - length + 1)
        shape = [Tile(colour, n) for n in range(start, start + length)]
    else:
        if rules.colours < max(3, shortest):
            return None
        number = rng.randint(1, rules.numbers)
        colours = rng.sample(letters, rng.randint(max(3, shortest), rules.colours))
        shape = [Tile(c, number) for c in colours]
    use = [rng.random() < (0.35 if rules.joker_retrieval == "official" else 0.2)
           for _ in shape]
    real = [t for t, u in zip(shape, use) if not u]
    if sum(use) > jokers or len(real) < rules.min_real_tiles or Counter(real) - pool:
        return None
    return [JOKER if u else t for t, u in zip(shape, use)]
