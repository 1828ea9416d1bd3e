"""The sets of the wide DP's move, from its choices (:mod:`engines.rummikub.wide`): per colour
the runs, per number the groups, as the DP's key assumes them (:func:`arrange_choice`)."""

from __future__ import annotations

import numpy as np

from engines.rummikub.sets import Meld, Slot
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile


def arrange_choice(choice: np.ndarray, group_jokers: np.ndarray, colours: int,
                   min_len: int = 3) -> list[Meld]:
    """The sets of the DP's choices: per colour the runs (open runs shorter than
    ``min_len`` take the number's tiles first, then ``choice[c, v, 3]`` of the longer ones,
    the rest close; the other tiles start runs; real tiles go to runs of jokers alone
    first, then to the runs opened), per number its groups (:func:`split_groups`)."""
    numbers = choice.shape[1]
    melds: list[Meld] = []
    for c in range(colours):
        letter = ALL_COLOURS[c]
        open_runs: list[list[Slot]] = []
        for v in range(numbers + 1):
            real, jokers, longer = ((int(choice[c, v, 0]), int(choice[c, v, 2]),
                                     int(choice[c, v, 3])) if v < numbers else (0, 0, 0))
            open_runs.sort(key=_has_real)  # (runs of jokers alone first)
            short = [r for r in open_runs if len(r) < min_len]
            long = [r for r in open_runs if len(r) >= min_len]
            melds += long[longer:]
            going = short + long[:longer]
            fresh = real + jokers - len(going)
            # real tiles to runs of jokers alone, then to the runs opened, then to the
            # others: the order the DP's key assumes (solvers/rummikub/wide/_steps.bare_step)
            going = ([r for r in going if not _has_real(r)] + [[] for _ in range(fresh)]
                     + [r for r in going if _has_real(r)])
            tile = Tile(letter, v + 1)
            for k, run in enumerate(going):
                run.append(Slot(tile, tile) if k < real else Slot(JOKER, tile))
            open_runs = going
    for v in range(numbers):
        given = [(c, int(choice[c, v, 1])) for c in range(colours) if choice[c, v, 1]]
        melds += split_groups(given, int(group_jokers[v]), v + 1, colours, min_len)
    return [tuple(m) for m in melds]


def _has_real(run: list[Slot]) -> bool:
    return any(not s.tile.is_joker for s in run)


def split_groups(given: list[tuple[int, int]], jokers: int, number: int,
                 colours: int, min_len: int = 3) -> list[Meld]:
    """Groups of ``number`` from ``given`` (colour, tiles 1 to 4) and ``jokers``: the fewest
    groups ``k`` that hold them (``min_len``+ tiles, distinct colours, a real tile each),
    the real tiles dealt round-robin (a colour's copies to distinct groups), the jokers to
    the smallest groups, each standing for the first colour its group lacks."""
    real = sum(n for _, n in given)
    if real + jokers == 0:
        return []
    least = max(n for _, n in given)
    k = next(k for k in range(least, real + 1)
             if min_len * k <= real + jokers <= colours * k)
    groups: list[list[int]] = [[] for _ in range(k)]
    dealt = 0
    for c, n in given:
        for _ in range(n):
            groups[dealt % k].append(c)
            dealt += 1
    wild = [0] * k
    for _ in range(jokers):
        g = min(range(k), key=lambda i: (len(groups[i]) + wild[i] >= colours,
                                         len(groups[i]) + wild[i]))
        wild[g] += 1
    out = []
    for g, have in enumerate(groups):
        lacking = [c for c in range(colours) if c not in have][: wild[g]]
        slots = [(c, False) for c in have] + [(c, True) for c in lacking]
        out.append(tuple(Slot(JOKER if joker else Tile(ALL_COLOURS[c], number),
                              Tile(ALL_COLOURS[c], number)) for c, joker in sorted(slots)))
    return out
