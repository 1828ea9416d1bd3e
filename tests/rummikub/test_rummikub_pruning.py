"""The bounded solver (beam pass, then the exact pass pruned by its score) against the plain one.

The pruning only drops transitions that cannot reach a score some legal arrangement
already has, so every beam width must give the plain exact pass's optimum.  Tiny beams
force truncated, weak first passes (and infeasible ones, e.g. in initial-meld mode),
which is where a wrong bound would show.  Positions are 20-90 tile tables of random
runs and groups with jokers, both objectives, melded and initial.
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np
import pytest

import solvers.rummikub
from engines.rummikub import Position, best_moves, check_move
from engines.rummikub.position import _problem, objective_weights
from solvers.rummikub import solve_arrays

COLOURS = "KROB"


def _candidate_sets() -> list[list[str]]:
    sets = []
    for c in COLOURS:
        for s in range(1, 14):
            for length in (3, 4, 5, 6):
                if s + length - 1 <= 13:
                    sets.append([f"{c}{n}" for n in range(s, s + length)])
    for n in range(1, 14):
        for skip in COLOURS:
            sets.append([f"{c}{n}" for c in COLOURS if c != skip])
        sets.append([f"{c}{n}" for c in COLOURS])
    return sets


SETS = _candidate_sets()


def random_position(rng: random.Random) -> Position:
    """A table of random valid sets (jokers in place of some tiles) and a random rack."""
    melded = rng.random() < 0.7
    target = rng.choice((20, 40, 60, 80, 90)) if melded else 0
    left = {f"{c}{n}": 2 for c in COLOURS for n in range(1, 14)}
    jokers = 2
    table: list[list[str]] = []
    size = 0
    for _ in range(5000):
        if size >= target:
            break
        s = list(rng.choice(SETS))
        if any(left[t] == 0 for t in s):
            continue
        for t in s:
            left[t] -= 1
        if jokers and rng.random() < 0.25:
            k = rng.randrange(len(s))  # anywhere, run ends and groups included
            left[s[k]] += 1
            s[k] = "J"
            jokers -= 1
        table.append(s)
        size += len(s)
    pool = [t for t, n in left.items() for _ in range(n)]
    rack_jokers = sum(rng.random() < 0.6 for _ in range(jokers))
    rack = rng.sample(pool, rng.randrange(6, 22) - rack_jokers) + ["J"] * rack_jokers
    return Position.from_strings(table, rack, melded)


POSITIONS = [random_position(random.Random(1000 + i)) for i in range(48)]


def _arrays(objective: str):
    weight, jw = objective_weights(objective)
    cols = list(zip(*(_problem(p, weight, jw) for p in POSITIONS)))
    return [np.stack(cols[i]) if i in (0, 1, 4) else np.asarray(cols[i], np.int64)
            for i in range(7)]


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_every_beam_width_gives_the_plain_optimum(objective: str) -> None:
    arrays = _arrays(objective)
    plain_status, plain_best, *_ = solve_arrays(*arrays, beam=0)
    assert plain_status.sum() > len(POSITIONS) // 2
    for beam in (1, 3, 16, 128):
        status, best, *_ = solve_arrays(*arrays, beam=beam)
        assert status.tolist() == plain_status.tolist(), beam
        assert best.tolist() == plain_best.tolist(), beam


@pytest.mark.parametrize("beam", [0, 2, 128])
def test_moves_are_legal_for_every_beam_width(beam: int, monkeypatch) -> None:
    plain = [(m.tiles, m.value) for m in best_moves(POSITIONS[:24], objective="value")]
    monkeypatch.setattr(solvers.rummikub, "solve_arrays", partial(solve_arrays, beam=beam))
    moves = best_moves(POSITIONS[:24], objective="value")
    assert [(m.tiles, m.value) for m in moves] == plain
    for pos, move in zip(POSITIONS, moves):
        assert check_move(pos, move) == []
