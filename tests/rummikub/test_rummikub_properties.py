"""Property tests: the kernel agrees with a brute-force search; colours are symmetric."""

from __future__ import annotations

import importlib.util
import random
from itertools import combinations
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.rummikub import Position, arrange, best_move, best_moves, check_move
from engines.verify import read_jsonl

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("rummikub_naive", HERE / "rummikub_naive.py")
naive = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(naive)
arrange_value, brute_force = naive.arrange_value, naive.brute_force
CORPUS = HERE.parent / "data" / "rummikub" / "positions.jsonl"

COLOURS = "KROB"
MAX_NUMBER = 7


def _candidate_sets() -> list[list[str]]:
    sets = []
    for c in COLOURS:
        for s in range(1, MAX_NUMBER + 1):
            for e in range(s + 2, min(s + 4, MAX_NUMBER) + 1):
                sets.append([f"{c}{k}" for k in range(s, e + 1)])
    for n in range(1, MAX_NUMBER + 1):
        for size in (3, 4):
            for cols in combinations(COLOURS, size):
                sets.append([f"{c}{n}" for c in cols])
    return sets


SETS = _candidate_sets()


@st.composite
def positions(draw, initial: bool | None = None):
    """A small random position: up to 2 table sets (maybe with a joker) and a 1-6 tile rack."""
    left = {f"{c}{n}": 2 for c in COLOURS for n in range(1, MAX_NUMBER + 1)}
    jokers = 2
    table = []
    melded = draw(st.booleans()) if initial is None else not initial
    for _ in range(draw(st.integers(0, 2)) if melded else 0):
        s = list(draw(st.sampled_from(SETS)))
        if any(left[t] == 0 for t in s):
            continue
        for t in s:
            left[t] -= 1
        if jokers and draw(st.integers(0, 3)) == 0:
            k = draw(st.integers(0, len(s) - 1))
            left[s[k]] += 1
            s[k] = "J"
            jokers -= 1
        table.append(s)
    pool = [t for t, n in left.items() for _ in range(n)] + ["J"] * jokers
    size = draw(st.integers(1, 6))
    rack = draw(st.lists(st.sampled_from(range(len(pool))), min_size=size, max_size=size,
                         unique=True))
    return table, [pool[i] for i in rack], melded


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_agrees_with_brute_force(case) -> None:
    table, rack, melded = case
    max_t, value_at_t, max_v, tiles_at_v = brute_force(table, rack, melded)
    for objective in ("tiles", "value"):
        move = best_move(table, rack, initial_meld_done=melded, objective=objective)
        pos = Position.from_strings(table, rack, melded)
        assert check_move(pos, move) == []
        if objective == "tiles":
            assert (move.tiles, move.value) == (max_t, value_at_t)
        else:
            assert (move.value, move.tiles) == (max_v, tiles_at_v)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(initial=True))
def test_initial_meld_agrees_with_brute_force(case) -> None:
    table, rack, melded = case
    max_t, value_at_t, _, _ = brute_force(table, rack, melded)
    move = best_move(table, rack, initial_meld_done=melded)
    assert (move.tiles, move.value) == (max_t, value_at_t)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([f"{c}{n}" for c in "KR" for n in range(1, 7)] + ["J"]),
                max_size=8))
def test_arrange_agrees_with_brute_force(tiles) -> None:
    tiles = [t for t in tiles if tiles.count(t) <= 2]
    melds = arrange(tiles)
    assert (melds is None) == (arrange_value(tiles) is None)
    if melds is not None:
        assert sorted(str(s.tile) for m in melds for s in m) == sorted(tiles)


def _recolour(tiles, perm):
    return [t if t == "J" else perm[t[0]] + t[1:] for t in tiles]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.permutations(COLOURS))
def test_colour_permutation_keeps_optimum(case, order) -> None:
    table, rack, melded = case
    perm = dict(zip(COLOURS, order))
    for objective in ("tiles", "value"):
        a = best_move(table, rack, melded, objective)
        b = best_move([_recolour(s, perm) for s in table], _recolour(rack, perm), melded,
                      objective)
        assert (a.tiles, a.value) == (b.tiles, b.value)


def test_colour_permutation_on_corpus() -> None:
    rng = random.Random(5)
    picked = rng.sample([o for _, o in read_jsonl(CORPUS)], 30)
    base = [Position.from_json(o) for o in picked]
    moved = []
    for o in picked:
        order = list(COLOURS)
        rng.shuffle(order)
        perm = dict(zip(COLOURS, order))
        moved.append(Position.from_strings([_recolour(s, perm) for s in o["table"]],
                                           _recolour(o["rack"], perm), o["initial_meld_done"]))
    for objective in ("tiles", "value"):
        x = best_moves(base, objective)
        y = best_moves(moved, objective)
        assert [(m.tiles, m.value) for m in x] == [(m.tiles, m.value) for m in y]
