"""The fewest-tiles-moved pass's bound on the table sets kept later, from the linear relaxation.

The pass (:mod:`engines.rummikub.heirs`) prunes a state whose sets held out, plus those that
may still be held out, fall short of least disturbance's count ``K``.  Counting every set
that starts after a number as one that may still be kept lets a state that released more
sets than any optimal move can live on until the table's end; the relaxation's bound on
how many of them an optimal move keeps (:func:`solvers.rummikub._bound.later_bounds`, the
one least disturbance's passes use) cuts it as soon as it has released too many.  Every
move the pass looks for is optimal for the objective (its floor is the optimum), so the
bound holds for each: the answer is the same, found in fewer states (benches/README.md
"Fewest tiles moved").  Also each table set's tiles that may still stay later, per number
(:func:`rest_of`, :func:`joker_rest`: the pass's ``rest`` tables).
"""

from __future__ import annotations

import numpy as np

from engines.rummikub.position import _counts
from engines.rummikub.rules import Rules

# The kernels' (colour, number) layout: solvers.rummikub._layout's, kept here so that importing
# the engine does not load the kernels
NCOL, NNUM = 4, 13

__all__ = [
    "LATER_BOUND", "NCOL", "NNUM", "joker_rest", "kernel_layout", "relaxation_inputs", "rest_of",
    "with_later_kept",
]

# Whether the pass reads the relaxation's bound (False: every later set counted, an A/B)
LATER_BOUND = True


def kernel_layout(counts: np.ndarray) -> np.ndarray:
    """``counts`` (colours x numbers of the rules' tile set) in the kernels' full (colour,
    number) layout, int64, zero beyond the tile set."""
    full = np.zeros((NCOL, NNUM), np.int64)
    full[: counts.shape[0], : counts.shape[1]] = counts
    return full


def with_later_kept(tables: dict, way: tuple[list, np.ndarray, np.ndarray],
                    rest: tuple[int, int, int], rules: Rules) -> dict:
    """``tables`` (:func:`engines.rummikub.heirs._tables` of the table sets) with
    ``"later"``: per number v+1, at most how many of the sets starting after it an optimal
    move keeps.  ``way``: the table sets, the rack's counts and the objective's weights, in
    one order of numbers (the pass's: maybe turned round); ``rest``: the rack's jokers, the
    joker weight and the rack's gain of an optimal move."""
    from solvers.rummikub._bound import later_bounds

    sets, rack, weight = way
    later = np.array(tables["hold"][5], np.int64)  # (at most: every later set)
    if LATER_BOUND and sets:
        later_bounds(*relaxation_inputs(sets, (rack, weight), rest, rules), later,
                     np.zeros((0, 2), np.int64))  # (no caps: the pass reads none; 1/3 the solves)
    return {**tables, "later": later}


def relaxation_inputs(sets: list, counts: tuple[np.ndarray, np.ndarray],
                      rest: tuple[int, int, int], rules: Rules) -> tuple:
    """The linear relaxation's first arguments for the table ``sets`` (all of them), as
    :func:`solvers.rummikub._bound.sets_bound` reads them and ``later_bounds`` and
    :func:`solvers.rummikub._kept.kept_always` after it: the table's counts, the rack's and
    the weights in the kernels' layout, the mode, the sets' slots.  ``counts``: the rack's
    counts and the objective's weights over the rules' numbers; ``rest``: the rack's jokers,
    the joker weight and the rack's gain of an optimal move."""
    from engines.rummikub.least import table_slots

    rack, weight = counts
    rack_j, joker_weight, optimum = rest
    must, must_j = _counts(t for s in sets for t in s)
    slot_number, slot_colour, set_start, _keys, _firsts = table_slots([sets], rules)
    return (must, kernel_layout(rack), must_j, rack_j, kernel_layout(weight), joker_weight,
            optimum, int(rules.search_mode(True, sets)), slot_number, slot_colour, set_start,
            0, len(sets))


def rest_of(rest: np.ndarray, numbers: list[int], colours: list[int], slot: int) -> None:
    """A set's ``rest[v, c, slot]``: its tiles that :func:`engines.rummikub.heirs._bounds`'
    ``bonus[v, c]`` counts (those at later numbers; a run's tile at v+1 when its colour comes
    later; a group's tiles at v+1 before the close), and ``rest[v, 4, slot]`` its tiles from
    v+1 on."""
    group = len(set(numbers)) == 1
    colour = next(c for c in colours if c >= 0)
    for v in range(min(numbers) - 1, max(numbers)):
        rest[v, NCOL, slot] = sum(x - 1 >= v for x in numbers)
        later = sum(x - 1 > v for x in numbers)
        for c in range(NCOL):
            here = len(numbers) if c < NCOL - 1 else 0
            if not group:
                here = int(colour > c and v + 1 in numbers)
            rest[v, c, slot] = later + here


def joker_rest(rest_j: np.ndarray, jokers_in: np.ndarray, numbers: list[int],
               colours: list[int], slot: int) -> None:
    """:func:`rest_of` for a set's jokers only (``rest_j``), and their sum over the table
    (``jokers_in[v, c]``: the jokers among the tiles ``bonus[v, c]`` counts; a joker's
    place stays only if a joker is put there)."""
    group = len(set(numbers)) == 1
    colour = next(c for c in colours if c >= 0)
    places = [x for x, c in zip(numbers, colours) if c < 0]
    for v in range(max(places, default=0)):  # (no joker place from v+1 on: all zero)
        counted = [sum(x - 1 >= v for x in places)]
        later = sum(x - 1 > v for x in places)
        for c in range(NCOL):
            here = len(places) if group and c < NCOL - 1 and v + 1 in numbers else 0
            if not group:
                here = int(colour > c and v + 1 in places)
            counted.insert(c, later + here)
        jokers_in[v] += counted
        if min(numbers) - 1 <= v < max(numbers):
            rest_j[v, :, slot] = counted
