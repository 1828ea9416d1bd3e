"""The bounded solver against the plain exact DP (``beam=0``).

The default solver first looks for an arrangement that plays the whole playable rack
(a narrow pass of ``beam // 4`` states per layer, then the exact pass pruned by that
target), then, with jokers, runs a beam pass and the exact pass pruned by its score.
Pruning only drops transitions that cannot reach the target, and an answer is taken
only when it reaches it, so every beam width must give the plain exact pass's optimum.
Tiny beams force truncated, failing first passes (and infeasible ones, e.g. in
initial-meld mode), which is where a wrong bound would show.  Positions are 20-90 tile
tables of random runs and groups with jokers, and the same without jokers, both
objectives, melded and initial.
"""

from __future__ import annotations

import random
from functools import partial

import numpy as np
import pytest

import solvers.rummikub
from engines.rummikub import Position, best_moves, check_move
from engines.rummikub.position import _problem, objective_weights
from engines.rummikub.sets import is_valid_set
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


def without_jokers(pos: Position) -> Position:
    """The position with its jokers removed (table sets they broke are dropped)."""
    table = [tuple(t for t in s if not t.is_joker) for s in pos.table]
    table = [s for s in table if len(s) >= 3 and is_valid_set(s)]
    return Position(tuple(table), tuple(t for t in pos.rack if not t.is_joker),
                    pos.initial_meld_done)


# Without jokers the first passes differ (no beam pass), so those get their own positions.
PLAIN = [without_jokers(p) for p in POSITIONS]


def _arrays(objective: str, positions: list[Position]):
    weight, jw = objective_weights(objective)
    cols = list(zip(*(_problem(p, weight, jw) for p in positions)))
    return [np.stack(cols[i]) if i in (0, 1, 4) else np.asarray(cols[i], np.int64)
            for i in range(7)]


@pytest.mark.parametrize("jokers", [True, False], ids=["jokers", "no-jokers"])
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_every_beam_width_gives_the_plain_optimum(objective: str, jokers: bool) -> None:
    positions = POSITIONS if jokers else PLAIN
    arrays = _arrays(objective, positions)
    plain_status, plain_best, *_ = solve_arrays(*arrays, beam=0)
    assert plain_status.sum() > len(positions) // 2
    # the whole rack is not always playable: the fallback passes run too
    weight, _jw = objective_weights(objective)
    rack_total = (arrays[1] * weight).sum(axis=(1, 2))
    reached = (plain_best >= rack_total) & (plain_status == 1)
    assert 0 < reached.sum() < plain_status.sum()
    for beam in (1, 3, 16, 128):
        status, best, *_ = solve_arrays(*arrays, beam=beam)
        assert status.tolist() == plain_status.tolist(), beam
        assert best.tolist() == plain_best.tolist(), beam


@pytest.mark.parametrize("beam", [0, 2, 8, 128])
def test_moves_are_legal_for_every_beam_width(beam: int, monkeypatch) -> None:
    positions = POSITIONS[:24] + PLAIN[:24]
    plain = [(m.tiles, m.value) for m in best_moves(positions, objective="value")]
    monkeypatch.setattr(solvers.rummikub, "solve_arrays", partial(solve_arrays, beam=beam))
    moves = best_moves(positions, objective="value")
    assert [(m.tiles, m.value) for m in moves] == plain
    for pos, move in zip(positions, moves):
        assert check_move(pos, move) == []
