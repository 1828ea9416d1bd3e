"""The branched bound's node sets ruled out under official joker retrieval too
(``solvers.rummikub._official.held_places_proven``, read by ``_branch.rules_out``).

The exact check of a node's sets solves the rest of the table under the rest's rule (the
held-out jokers' places dropped).  Its failing proves that no move keeps those sets unless a
released table joker could have taken a held-out one's place while that one took what the
released one may not: two group jokers of one number whose missing colours differ.  Else the
sets are ruled out as under free retrieval: the answers stay, the states fall (the bench's
slowest official position, seed 4 40J #13, spent 2.29 M states in exact passes).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Position, Rules, least
from engines.rummikub.generate import rummikub_positions

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from test_rummikub_bound_parts import _most_kept_brute
from test_rummikub_nogoods import _with_and_without_rounds

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

OFFICIAL_REAL2_SETS2 = Rules(least_disturbance=True, joker_retrieval="official",
                             min_real_tiles=2, min_set_length=2)
OFFICIAL = Rules(least_disturbance=True, joker_retrieval="official")


def _rules_out(table: list[str], held: list[int], rules: Rules = OFFICIAL) -> bool:
    """``_branch.rules_out`` for the table sets ``table`` (text) holding out ``held``."""
    from solvers.rummikub._branch import rules_out

    sets = Position.from_strings([s.split() for s in table], "").table
    _numbers, slot_colour, set_start, _keys, _firsts = least.table_slots([sets], rules)
    mode = int(rules.search_mode(True, list(sets)))
    chosen = np.array([int(i in held) for i in range(len(sets))], np.int64)
    return bool(rules_out(mode, chosen, slot_colour, set_start, 0))


@pytest.mark.parametrize(("table", "held", "proven"), [
    (["O5 O6 O7 J O9", "R3 R4 R5"], [0], True),  # the only table joker
    (["R3 R4 J", "K3 K4 J"], [0], True),  # run jokers of two tiles
    (["R3 R4 J", "R3 R4 J"], [0], True),  # one tile's: each may take what the other may
    (["R5 B5 J", "R4 R5 J"], [0], True),  # a group joker and a run joker of one number
    (["R5 B5 J", "R7 K7 J"], [0], True),  # group jokers of two numbers
    (["R5 B5 K5 J", "R5 K5 J"], [0], True),  # lacking O, the other B and O: it may take O5
    (["R5 K5 J", "R5 B5 K5 J"], [0], False),  # lacking B and O: O5 only for the other
    (["R5 B5 J", "R5 K5 J"], [0], False),  # K5 frees it, not the other
    (["R5 B5 J", "R5 K5 J"], [0, 1], True),  # both held out: each at its place
    (["R5 B5 J", "R5 K5 J", "R7 R8 R9"], [2], True),  # none held out
])
def test_which_held_out_jokers_the_rest_of_the_table_proves(table: list[str], held: list[int],
                                                            proven: bool) -> None:
    assert _rules_out(table, held) == proven


def test_the_official_sets_of_2_tail_needs_no_exact_pass(monkeypatch) -> None:
    """Official + two real tiles + sets of 2, seed 4 40J #13: every node at the bound (10)
    holds out the run whose joker stands for O8, the table's only joker; those sets ruled
    out, the bound falls to the most kept (9) with no exact pass (2.29 M states before).
    Since the bound prices sets of two real tiles only, it is 9 itself, rounds or not (352
    states either way, rkleast8)."""
    obj = restrict(band_positions(40, True, n=14, seed=4)[13], OFFICIAL_REAL2_SETS2)
    assert sum(t == "J" for s in obj["table"] for t in s) == 1
    found = _with_and_without_rounds(monkeypatch, [obj], OFFICIAL_REAL2_SETS2, ["tiles"])
    (without, states_without), (with_rounds, states_with) = found
    assert without == with_rounds == [(10, 80, 9)]
    assert states_with <= states_without < 2_290_000 / 100, found


def _tables_with_jokers(rules: Rules):
    """Random positions of 2-7 table sets under ``rules`` with a table joker:
    ``(obj, position, objective)``, a third with the value objective."""
    for i, p in enumerate(rummikub_positions(300, 29, table_tiles=(12, 24), rack_size=(5, 10),
                                             joker_rate=0.9, initial_meld_rate=0.0)):
        obj = restrict(p, rules)
        pos = Position.from_strings(obj["table"], obj["rack"])
        if 2 <= len(pos.table) <= 7 and any(t.is_joker for s in pos.table for t in s):
            yield obj, pos, "value" if i % 3 == 0 else "tiles"


@pytest.mark.parametrize("rules", [OFFICIAL, OFFICIAL_REAL2_SETS2])
def test_official_sets_ruled_out_keep_the_most_kept_of_brute_force(monkeypatch,
                                                                  rules: Rules) -> None:
    """Small tables with table jokers: the same answers with and without sets ruled out,
    the most kept by brute force."""
    tables = list(_tables_with_jokers(rules))
    positions = [obj for obj, _pos, _objective in tables]
    objectives = [objective for _obj, _pos, objective in tables]
    found = _with_and_without_rounds(monkeypatch, positions, rules, objectives)
    assert found[0][0] == found[1][0]
    most = [_most_kept_brute(pos, objective, rules) for _obj, pos, objective in tables]
    assert [kept for _tiles, _value, kept in found[1][0]] == most
    assert len(tables) >= 20, len(tables)
