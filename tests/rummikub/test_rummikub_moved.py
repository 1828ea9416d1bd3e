"""Table tiles moved, positional definition (engines.rummikub.moved): hand cases, the
assignment against brute force, and Move.tiles_moved against the brute force's matching."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path

from engines.rummikub import best_move, best_moves
from engines.rummikub.moved import _best_assignment, stays, tiles_moved
from engines.rummikub.sets import validate_set
from engines.rummikub.tiles import parse_tiles

_SPEC = importlib.util.spec_from_file_location(
    "rummikub_variant_naive", Path(__file__).with_name("rummikub_variant_naive.py"))
naive = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(naive)


def _melds(*texts):
    return [validate_set(parse_tiles(t)) for t in texts]


def _moved(before, *after):
    return tiles_moved([parse_tiles(t) for t in before], _melds(*after))


def test_hand_cases():
    assert _moved(["R3 R4 R5 R6 R7 R8"], "R3 R4 R5 R6", "R5 R6 R7 R8") == 2
    assert _moved(["R3 R4 R5"], "R3 R4 R5") == 0  # kept
    assert _moved(["R3 R4 R5"], "R2 R3 R4 R5 R6") == 0  # grows at its ends
    # a run joker moved inside its run is a move; one at the same number stays
    assert _moved(["R3 J R5"], "J R3 R4 R5") == 1
    assert _moved(["R3 J R5"], "R3 J R5 R6") == 0
    assert _moved(["R3 J R5"], "R3 R4 R5", "K9 K10 J") == 1
    # a group's joker stays in any joker of its heir (it stands for the same number)
    assert _moved(["K7 R7 J"], "K7 O7 J R7") == 0
    assert _moved(["K7 R7 J"], "K7 J O7 B7", "R7 R8 R9") == 1
    assert _moved(["K7 R7 J"], "K7 O7 B7", "R7 R8 R9", "J K11 K12") == 2
    # one heir per table set, one table set per heir: two runs merged keep one of them
    assert _moved(["B1 B2 B3", "B4 B5 B6"], "B1 B2 B3 B4 B5 B6") == 3
    # a group and a run of the same tiles are different kinds
    assert _moved(["K4 K5 K6"], "K4 R4 O4", "K5 R5 O5", "K6 R6 O6") == 3


def test_stays_of_different_kinds_is_zero():
    run, group = _melds("R5 R6 R7", "R5 K5 O5")
    assert stays(run, group) == stays(group, run) == 0
    assert stays(run, run) == 3


def test_assignment_matches_brute_force():
    rng = random.Random(5)
    for _ in range(300):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        weight = [[rng.choice((0, 0, 1, 2, 3, 5)) for _ in range(cols)] for _ in range(rows)]
        best = 0
        for perm in itertools.permutations(range(max(rows, cols)), rows):
            best = max(best, sum(weight[i][j] for i, j in enumerate(perm) if j < cols))
        assert _best_assignment(weight) == best, weight


def _naive_sets(melds):
    return [[(s.tile.is_joker, s.stands_for.colour, s.stands_for.number) for s in m]
            for m in melds]


def test_moves_against_the_brute_force_matching():
    # Move.tiles_moved on the DP's moves (least disturbance on and off) equals the table
    # tiles less the brute force's most staying, over every one-to-one heir choice.
    from engines.rummikub.arrays import _table_melds
    from engines.rummikub.generate import rummikub_positions
    from engines.rummikub.position import Position
    from engines.rummikub.rules import Rules

    positions = [Position.from_json(p) for p in rummikub_positions(
        60, seed=21, table_tiles=(6, 30), joker_rate=0.6, initial_meld_rate=0.0)]
    checked = 0
    for rules in (Rules(), Rules(least_disturbance=False)):
        for pos, move in zip(positions, best_moves(positions, "tiles", rules=rules)):
            table = _naive_sets(_table_melds(pos.table))
            expected = sum(map(len, table)) - naive.stays(table, _naive_sets(move.table))
            assert move.tiles_moved == expected, (pos, move.table)
            checked += move.tiles_moved > 0
    assert checked >= 10


def test_best_move_reports_it():
    move = best_move([["R3", "R4", "R5", "R6", "R7", "R8"]], "R5 R6")
    assert (move.sets_kept, move.tiles_moved) == (0, 2)


def test_moves_read_the_table_in_their_rules_tile_set():
    # numbers=10: the table's J stands for R7 (there is no R11), and R6 J R8 R9 R10 keeps it
    # in place; read in the standard tile set it would be R11, moved.  Every path that makes
    # a Move carries the rules' tile set: least disturbance on (the fast path's move, then
    # the held-out passes) and off (the batch's lazy moves), copies and pickles too.
    import copy
    import pickle

    from engines.rummikub.position import Position
    from engines.rummikub.rules import Rules

    table, rack = [["R8", "R9", "R10", "J"]], "R6"
    pos = Position.from_strings(table, rack, numbers=10)
    for rules in (Rules(numbers=10), Rules(numbers=10, least_disturbance=False)):
        moves = [best_move(table, rack, rules=rules), *best_moves([pos, pos], rules=rules)]
        for move in moves:
            assert move.tile_set == (4, 10)
            assert [[str(s) for s in m] for m in move.table] == [["R6", "J(R7)", "R8", "R9",
                                                                  "R10"]]
            assert (move.tiles, move.tiles_moved) == (1, 0)
        for again in (copy.copy(moves[1]), pickle.loads(pickle.dumps(moves[2]))):
            assert (again.tile_set, again.tiles_moved) == ((4, 10), 0)
    # without a tile set (a Move made by hand): the standard reading, as before
    standard = best_move(table, rack, rules=Rules(numbers=10))
    standard.tile_set = None
    assert standard.tiles_moved == 1
