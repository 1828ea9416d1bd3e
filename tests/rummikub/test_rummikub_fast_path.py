"""The one-call path of ``best_move`` against the checked Python path it replaces.

``best_move`` checks, solves and rebuilds the sets of a position in one compiled call
(:func:`solvers.rummikub.solve_position`) and falls back to ``Position`` + ``best_moves`` for any
input it does not take or rejects.  These tests pin the pieces to their Python models:
set validity against ``validate_set``, the packed sets against ``build_sets`` and the
engine's former ordering, and whole moves and errors against the checked path.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Tile, best_move, best_moves, check_move
from engines.rummikub.position import _VALID_SETS, _meld, _problem, objective_weights
from engines.rummikub.sets import SetError, Slot, is_valid_set
from engines.rummikub.tiles import JOKER, parse_tiles
from solvers.rummikub import meld_codes_batch, solve_arrays
from solvers.rummikub._groups import PART_COUNT, PART_MASKS

_spec = importlib.util.spec_from_file_location(
    "rummikub_pruning_positions", Path(__file__).with_name("test_rummikub_pruning.py"))
_pruning = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_pruning)
POSITIONS, random_position = _pruning.POSITIONS, _pruning.random_position
_spec = importlib.util.spec_from_file_location(
    "rummikub_reconstruct", Path(__file__).with_name("rummikub_reconstruct.py"))
_reconstruct = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_reconstruct)
build_sets = _reconstruct.build_sets
COLOURS = "KROB"
ALL = [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + ["J"]


def _index(tile: Tile) -> int:
    return 52 if tile.is_joker else COLOURS.index(tile.colour) * 13 + tile.number - 1


def _near_sets(rng: random.Random) -> list[str]:
    """Mostly runs and groups with a tile changed, moved, doubled or made a joker."""
    c, n = rng.choice(COLOURS), rng.randrange(1, 14)
    if rng.random() < 0.5:
        length = rng.randrange(1, 8)
        tiles = [f"{c}{k}" for k in range(n, min(13, n + length - 1) + 1)]
    else:
        tiles = [f"{x}{n}" for x in rng.sample(COLOURS, rng.randrange(1, 5))]
    for _ in range(rng.randrange(0, 3)):
        k = rng.randrange(len(tiles) + 1)
        action = rng.random()
        if action < 0.3:
            tiles.insert(k, "J")
        elif action < 0.6 and tiles:
            tiles[k % len(tiles)] = rng.choice(ALL)
        elif action < 0.8:
            tiles.insert(k, rng.choice(tiles or ALL))
        elif tiles:
            tiles.pop(k % len(tiles))
    if rng.random() < 0.2:
        rng.shuffle(tiles)
    return tiles


def test_fast_path_set_check_is_validate_set() -> None:
    """The fast path decides set legality with validate_set itself (one rule), memoised."""
    rng = random.Random(7)
    samples = [_near_sets(rng) for _ in range(3000)]
    samples += [rng.sample(ALL + ALL, rng.randrange(0, 7)) for _ in range(1000)]
    valid = 0
    for texts in samples:
        expected = is_valid_set(parse_tiles(texts))
        valid += expected
        try:
            move = best_move([texts], "K1")
        except SetError:
            assert not expected, texts
        else:
            assert expected and check_move(Position.from_strings([texts], "K1"), move) == []
        key = tuple(_index(t) for t in parse_tiles(texts))
        assert _VALID_SETS[key] == expected, texts
    assert 500 < valid < len(samples) - 500  # both answers well represented


def _reference_melds(choice: np.ndarray, group_jokers: np.ndarray) -> list[tuple[Slot, ...]]:
    """The engine's former Python reconstruction: build_sets, then sets as Slots, sorted."""
    melds = []
    for placed in build_sets(choice, group_jokers):
        if placed[0][1] == placed[-1][1]:  # a group: colours in order
            placed = sorted(placed)
        melds.append(tuple(
            Slot(JOKER if joker else Tile(COLOURS[c], n), Tile(COLOURS[c], n))
            for c, n, joker in placed
        ))

    def order(m: tuple[Slot, ...]) -> tuple[int, int, int]:
        first = m[0].stands_for
        group = len({s.stands_for.number for s in m}) == 1 and m[0].stands_for.colour != (
            m[1].stands_for.colour)
        return (int(group), first.number if group else first.colour_index, first.number)

    return sorted(melds, key=order)


@pytest.mark.default_forms
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_packed_sets_match_the_python_reconstruction(objective: str) -> None:
    weight, jw = objective_weights(objective)
    positions = [*POSITIONS, Position.from_strings([], " ".join(ALL[:52] * 2) + " J J")]
    problems = [_problem(p, weight, jw) for p in positions]
    arrays = [np.stack([q[i] for q in problems]) if i in (0, 1, 4)
              else np.array([q[i] for q in problems], np.int64) for i in range(7)]
    status, _best, choice, gj, _stats = solve_arrays(*arrays)
    # (the shortest set given, as the engines and the warm-up pass it: omitted, Numba would
    # compile the kernel again for the default)
    codes, counts = meld_codes_batch(status, choice, gj, PART_COUNT, PART_MASKS, 3)
    solved = 0
    for p in range(len(positions)):
        if status[p] != 1:
            assert counts[p] == -2
            continue
        solved += 1
        got = [_meld(int(code)) for code in codes[p, : counts[p]]]
        assert got == _reference_melds(choice[p], gj[p])
    assert solved > len(positions) // 2


def _checked(table, rack, done, objective):
    """The checked path: a Position (parsing, set and count checks) and the batch solver."""
    pos = Position(tuple(tuple(parse_tiles(s)) for s in table), tuple(parse_tiles(rack)),
                   bool(done))
    return best_moves([pos], objective)[0]


def _positions() -> list[Position]:
    out = list(POSITIONS)
    for i in range(60):
        try:
            pos = random_position(random.Random(90_000 + i))
        except ValueError:  # the generator asked for a rack larger than the pool
            continue
        # the same tables without jokers, rack jokers dropped
        table = [[t for t in s if not t.is_joker] for s in pos.table]
        table = [s for s in table if len(s) >= 3 and is_valid_set(s)]
        out.append(pos)
        out.append(Position(tuple(map(tuple, table)), tuple(t for t in pos.rack
                                                              if not t.is_joker),
                            pos.initial_meld_done))
    return out


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_best_move_equals_the_checked_path(objective: str) -> None:
    for pos in _positions():
        texts = [[str(t) for t in s] for s in pos.table]
        rack = " ".join(str(t) for t in pos.rack)
        expected = _checked(texts, rack, pos.initial_meld_done, objective)
        for table in (texts, pos.table):
            move = best_move(table, rack, pos.initial_meld_done, objective)
            assert move == expected
        assert check_move(pos, expected) == []


BAD = [
    ([["R1", "R2"]], "R5"),
    ([["R1", "R2", "X3"]], "R5"),
    ([["R1", "R2", "R3"]], "R14"),
    ([["K1", "K2", "K3"], ["R4", "R5", "B6"]], "R7"),
    ([["R1", "R2", "R3"], ["R1", "R2", "R3"]], "R1"),
    ([["J", "J", "J"]], ""),
    ([["R1", "R2", "R3"]], "J J J"),
    ([("R", 1), "R2 R3"], "B5"),
    ([[("R", 1), "R2", "R3"]], "B5"),
    ([["R1", "R2", "R3"]], [("B", 5)]),
    ([[1, 2, 3]], ""),
    ([["K5", "R5", "O5", "B5", "J"]], ""),
    ([["R1", "R2", "R3"]], [None]),
    ([["R1", "R2", "R3"]], [["R4"]]),
    ([["R1", "R2", "R13"]], "R4"),
    ([["K7", "R7", "O7"], ["K6", "K7", "K8"]], ["K7"]),
]


@pytest.mark.parametrize(("table", "rack"), BAD)
@pytest.mark.parametrize("done", [True, False])
def test_errors_equal_the_checked_path(table, rack, done: bool) -> None:
    with pytest.raises(Exception) as checked:
        _checked(table, rack, done, "tiles")
    with pytest.raises(type(checked.value)) as fast:
        best_move(table, rack, done)
    assert str(fast.value) == str(checked.value)


def test_other_spellings_and_iterables_take_the_checked_path() -> None:
    expected = best_move([["R1", "R2", "R3"]], ["R4", "B5", "K5", "O5"])
    assert best_move(iter([" r1 , R2 R3"]), "r4 b5 k5 o5") == expected
    assert best_move([(t for t in ["R1", "R2", "R3"])], iter(["R4", "B5", "K5", "O5"])) == (
        expected)
