"""The fewest-tiles-moved pass's bound on the sets kept later (engines/rummikub/heirs_later.py)
against every optimal move's sets kept, enumerated, and the pass's answer with and without it."""

from __future__ import annotations

import numpy as np
import pytest
from rummikub_ip_reference import reference_move
from rummikub_least_brute import held_at_optimum

from engines.rummikub import best_move, heirs, heirs_later
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.heirs_turned import turned_set
from engines.rummikub.least import table_slots
from engines.rummikub.position import Position, _counts, objective_weights
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _ways(pos: Position, objective: str) -> tuple[list, tuple[int, int, int]]:
    """The pass's two orders of numbers (as :func:`engines.rummikub.heirs.fewest_moved_move`
    builds them) and the rack's jokers, the joker weight and an optimal move's gain."""
    weight, joker_weight = objective_weights(objective)
    rack, rack_j = _counts(pos.rack)
    move = best_move([list(s) for s in pos.table], list(pos.rack), True, objective)
    played, played_j = _counts(move.played)
    optimum = int((weight * played).sum()) + joker_weight * played_j
    sets = list(pos.table)
    turned = [turned_set(s, 13) for s in sets]
    return ([(sets, rack, weight), (turned, rack[:, ::-1], weight[:, ::-1])],
            (rack_j, joker_weight, optimum))


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_the_bound_holds_for_every_optimal_move(objective):
    # For each order of numbers, every optimal move keeps at most later[v] of the sets
    # starting after number v+1 (the pass prunes on it: a bound too low would lose the
    # answer), and later[v] never exceeds their count; the bound is below the count on
    # some of these positions (else it would cut nothing).
    checked = tighter = 0
    for p in rummikub_positions(40, seed=31 if objective == "tiles" else 32,
                                table_tiles=(9, 27), joker_rate=0.5, initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        if not 2 <= len(pos.table) <= 8:
            continue
        kept_sets = held_at_optimum(pos, objective)
        ways, rest = _ways(pos, objective)
        for way in ways:
            later = heirs_later.with_later_kept(heirs._tables(way[0], FEWEST), way, rest,
                                                FEWEST)["later"]
            slot_number, _colour, set_start, _keys, _firsts = table_slots([way[0]], FEWEST)
            first = [min(slot_number[set_start[i]:set_start[i + 1]])
                     for i in range(len(way[0]))]
            count = np.array([sum(f > v + 1 for f in first) for v in range(13)])
            assert (later <= count).all(), p
            for kept in kept_sets:
                after = [sum(kept >> i & 1 and f > v + 1 for i, f in enumerate(first))
                         for v in range(13)]
                assert (np.array(after) <= later).all(), (p, kept, later)
            tighter += bool((later < count).any())
        checked += 1
    assert checked >= 10 and tighter >= 3, (checked, tighter)


def test_the_answer_is_the_same_with_and_without_the_bound(monkeypatch):
    # Larger tables (where the bound cuts): the move with the bound equals the move
    # counting every later set, and the programme's (optimum, sets kept, tiles moved).
    for p in rummikub_positions(6, seed=33, table_tiles=(24, 40), joker_rate=0.5,
                                initial_meld_rate=0.0):
        answers = set()
        for on in (False, True):
            monkeypatch.setattr(heirs_later, "LATER_BOUND", on)
            move = best_move(p["table"], p["rack"], True, "tiles", FEWEST)
            answers.add((move.tiles, move.value, move.sets_kept, move.tiles_moved))
        ref, moved = reference_move(p["table"], p["rack"], True, "tiles", FEWEST)
        assert answers == {(ref.tiles, ref.value, ref.sets_kept, moved)}, p


def test_the_later_bound_needs_no_caps():
    # The pass reads only ``later``: with_later_kept asks later_bounds for no caps (a third
    # of the solves); each later[v] is solved before the caps, so it equals the one of the
    # call that also fills them.
    from solvers.rummikub._bound import later_bounds

    compared = 0
    for p in rummikub_positions(12, seed=34, table_tiles=(24, 40), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        ways, rest = _ways(pos, "tiles")
        for way in ways:
            tables = heirs._tables(way[0], FEWEST)
            later = np.array(tables["hold"][5], np.int64)
            later_bounds(*heirs_later.relaxation_inputs(way[0], way[1:], rest, FEWEST), later,
                         np.zeros((14, 2), np.int64))
            got = heirs_later.with_later_kept(tables, way, rest, FEWEST)["later"]
            assert (got == later).all(), (p, got, later)
            compared += bool((later < tables["hold"][5]).any())
    assert compared >= 3, compared
