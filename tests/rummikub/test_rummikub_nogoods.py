"""The branched bound's nodes whose sets no move keeps, ruled out (``least.NOGOOD_ROUNDS``).

Where the node that reached the bound holds out sets that the exact check on the rest of the
table proves no move keeps all of, the search rules them out and goes on
(``solvers.rummikub._least._checked_bound``): the bound falls to the most kept, and that
target's node gives the move, with no exact pass.  The answers must not change (brute force
over the sets kept on small tables and on the bench's slowest sets-of-2 position), and the
held-out passes must take far fewer states there.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

from engines.rummikub import Position, Rules, best_move, check_move, least
from engines.rummikub.position import _counts, objective_weights

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from test_rummikub_bound_parts import _most_kept_brute, small_tables

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

REAL2_SETS2 = Rules(least_disturbance=True, min_real_tiles=2, min_set_length=2)


def _answers(positions: list[dict], rules: Rules, objectives: list[str]
             ) -> tuple[list[tuple[int, int, int]], int]:
    """(tiles, value, sets kept) of each position's move, checked valid, and the held-out
    passes' states in all."""
    before = least.WORK.copy()
    answers = []
    for obj, objective in zip(positions, objectives):
        move = best_move(obj["table"], obj["rack"], True, objective, rules)
        pos = Position.from_strings(obj["table"], obj["rack"], max_jokers=rules.jokers,
                                    max_copies=rules.copies)
        assert check_move(pos, move, rules) == [], obj
        answers.append((move.tiles, move.value, move.sets_kept))
    return answers, int((least.WORK - before)[1])


def _with_and_without_rounds(monkeypatch, positions: list[dict], rules: Rules,
                             objectives: list[str]) -> list[tuple[list, int]]:
    """:func:`_answers` with no set ruled out (0 rounds), then with ``least.NOGOOD_ROUNDS``."""
    found = []
    for rounds in (0, least.NOGOOD_ROUNDS):
        monkeypatch.setattr(least, "NOGOOD_ROUNDS", rounds)
        found.append(_answers(positions, rules, objectives))
    return found


def test_ruling_out_sets_keeps_the_most_kept_of_brute_force(monkeypatch) -> None:
    """Small tables under two real tiles + sets of 2 (40 positions; the sets ruled out
    change the passes on 15 of them): the same answers as without, the most kept by brute
    force, no more held-out states (since the bound prices sets of two real tiles only, it
    is the most kept on these without rounds: 21,500 states either way, rkleast8)."""
    rules = REAL2_SETS2
    tables = list(small_tables(rules))
    positions = [obj for obj, _pos, _objective in tables]
    objectives = [objective for _obj, _pos, objective in tables]
    found = _with_and_without_rounds(monkeypatch, positions, rules, objectives)
    (without, states_without), (with_rounds, states_with) = found
    assert without == with_rounds
    most = [_most_kept_brute(pos, objective, rules) for _obj, pos, objective in tables]
    assert [kept for _tiles, _value, kept in with_rounds] == most
    assert len(tables) >= 20 and states_with <= states_without, found


def _keepable(obj: dict, rules: Rules, size: int) -> int:
    """How many subsets of ``size`` table sets an optimal move keeps (the plain DP on the
    rest of the table, the rack whole)."""
    sets = [Position.from_strings([s], "").table[0] for s in obj["table"]]
    weight, joker_weight = objective_weights("tiles")
    rack, rack_j = _counts(Position.from_strings([], obj["rack"]).rack)
    oracle = least._Oracle(sets, rack, rack_j, weight, joker_weight,
                           Rules(min_real_tiles=rules.min_real_tiles,
                                 min_set_length=rules.min_set_length))
    full = (1 << len(sets)) - 1
    best = oracle.solve(full)[0]
    return sum(oracle.solve(full & ~sum(1 << i for i in kept))[0] == best
               for kept in itertools.combinations(range(len(sets)), size))


def test_the_sets_of_2_tail_needs_no_exact_pass(monkeypatch) -> None:
    """Two real tiles + sets of 2, seed 4 40J #13 (the ``--combos`` tail): the relaxation's
    bound 9, the most kept 8 (none of the 55 ways to keep 9 of the 11 sets reaches the
    optimum).  Without ruling sets out, exact passes at 9 and 8 took 1.13 M states each;
    with it, the nodes' sets ruled out lower the bound to 8, whose node gives the move.
    Since the bound prices sets of two real tiles only, it is 8 itself, rounds or not
    (3,339 states either way, rkleast8): no exact pass."""
    obj = restrict(band_positions(40, True, n=14, seed=4)[13], REAL2_SETS2)
    found = _with_and_without_rounds(monkeypatch, [obj], REAL2_SETS2, ["tiles"])
    (without, states_without), (with_rounds, states_with) = found
    assert without == with_rounds == [(11, 92, 8)]
    assert _keepable(obj, REAL2_SETS2, 9) == 0 and _keepable(obj, REAL2_SETS2, 8) > 0
    assert states_with <= states_without < 1_130_000 / 20, found


def test_sets_of_one_real_tile_are_not_priced_under_two_real_tiles() -> None:
    """Two real tiles + sets of 2, seed 8 40J #9 (the seed 8 ``--combos`` tail): the linear
    relaxation priced sets of one real tile and a joker, its bound stayed above the most
    kept, and 184 nodes' sets were ruled out one by one (183,253 held-out states).  Pricing
    only sets of two real tiles (``solvers.rummikub._bound.programme``'s ``min_real``), the
    bound is the most kept, 8 (none of the 220 ways to keep 9 of the 12 sets reaches the
    optimum), and the first node's sets give the move: one pass."""
    obj = restrict(band_positions(40, True, n=10, seed=8)[9], REAL2_SETS2)
    before = least.WORK.copy()
    move = best_move(obj["table"], obj["rack"], True, "tiles", REAL2_SETS2)
    passes, states = (least.WORK - before).tolist()
    assert (move.tiles, move.value, move.sets_kept) == (14, 93, 8)
    assert _keepable(obj, REAL2_SETS2, 9) == 0 and _keepable(obj, REAL2_SETS2, 8) > 0
    assert passes == 1 and states < 20_000, (passes, states)
