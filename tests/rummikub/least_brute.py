"""Least disturbance on a small tile set against brute force (``rummikub_variant_naive``):
the optimum and its tie-break, the most table sets kept."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

from engines.rummikub import best_move
from engines.rummikub.least import _Oracle
from engines.rummikub.position import Position, _counts, objective_weights
from engines.rummikub.rules import Rules

_SPEC = importlib.util.spec_from_file_location(
    "rummikub_variant_naive", Path(__file__).resolve().parent / "rummikub_variant_naive.py")
naive = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(naive)


def runs_table(rng, spec, runs, rack_sizes: tuple[int, int], rack_jokers: tuple[int, int]):
    """A small position of ``spec``'s tile set for :func:`check_least_against_brute`: the
    table holds each run of ``runs`` (lists of ``(colour, number)``, drawn as the table
    grows) that the tiles left still allow, the rack ``rng.randint(*rack_sizes)`` of the
    tiles left and ``rng.randint(*rack_jokers)`` jokers.  Returns ``(table, rack)``."""
    pool = Counter({(c, n): spec.copies for c in spec.letters
                    for n in range(1, spec.numbers + 1)})
    table = []
    for run in runs:
        if not Counter(run) - pool:
            table.append([(False, c, n) for c, n in run])
            pool -= Counter(run)
    left = [t for t, k in pool.items() for _ in range(k)]
    return table, rng.sample(left, rng.randint(*rack_sizes)) + ["J"] * rng.randint(*rack_jokers)


def check_least_against_brute(spec, table, rack, objective: str) -> None:
    """Assert that ``best_move`` (melded, least disturbance on by default) plays brute
    force's optimum and keeps its most table sets (``spec``: ``naive.Spec``; ``table``: sets
    of ``(is_joker, colour, number)``; ``rack``: tiles ``(colour, number)`` and ``"J"``)."""
    rules = Rules(colours=spec.colours, numbers=spec.numbers, copies=spec.copies,
                  jokers=spec.jokers, meld_threshold=0)
    best, most_kept, _moved = naive.brute(spec, table, [], Counter(rack), objective,
                                          melded=True, threshold=0)
    rack_text = ["J" if t == "J" else f"{t[0]}{t[1]}" for t in rack]
    move = best_move([[f"{c}{n}" for _, c, n in s] for s in table], rack_text, True,
                     objective, rules)
    after = [[(s.tile.is_joker, s.stands_for.colour, s.stands_for.number) for s in m]
             for m in move.table]
    assert naive.kept([naive._key(s) for s in table], after) == move.sets_kept == most_kept
    played = Counter("J" if t.is_joker else (t.colour, t.number) for t in move.played)
    assert naive.score(played, objective) == best, (spec.__dict__, table, rack)


def held_at_optimum(pos: Position, objective: str) -> list[int]:
    """Every set of table sets (bit masks) that some optimal move keeps: those held out
    while the DP on the others still reaches the optimum, every subset enumerated."""
    weight, joker_weight = objective_weights(objective)
    rack, rack_j = _counts(pos.rack)
    oracle = _Oracle(list(pos.table), rack, rack_j, weight, joker_weight)
    full = (1 << len(pos.table)) - 1
    target = oracle.solve(full)[0]
    return [full & ~in_play for in_play in range(full + 1)
            if oracle.solve(in_play)[0] == target]
