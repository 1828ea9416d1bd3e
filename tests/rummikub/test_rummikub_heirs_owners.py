"""Fewest tiles moved: states differing only in the open runs' owners, one dominating the
other (``solvers/rummikub/_heirs_owners.py``, ``heirs.DOMINANCE`` bits 4-7)."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from rummikub_ip_reference import reference_move

from engines.rummikub import best_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules
from solvers.rummikub._heirs_owners import _colour_delta, later_tops

FEWEST = Rules(fewest_tiles_moved=True)
PLAIN = 7  # (heirs.DOMINANCE without the owners' bits)
OWNERS = 7 | 0xF0


def _run(owner: int, length: int) -> int:
    return (2 + owner if owner >= 0 else -owner - 1) << 2 | length  # (-1 free, -2 spent)


def test_the_losses_of_doing_what_the_other_does():
    # A table run in slot 0 (5 tiles still able to stay) and one run of length 3.  Free in A
    # with slot 0 waiting, A does all the heir does in B (it adopts the run at the next
    # match): no loss.  The other way round, B's waiting run may gain its 5 tiles.  Spent in
    # A, the heir in B: 5.  Done in B: nothing to lose.
    rest, later, slots = 5, 0, 1
    linked, free, spent = _run(0, 3), _run(-1, 3), _run(-2, 3)
    assert _colour_delta(free, linked, 0, 0, slots, rest, later, 99) == 0
    assert _colour_delta(linked, free, 0, 0, slots, rest, later, 99) == 5
    assert _colour_delta(spent, linked, 1, 0, slots, rest, later, 99) == 5
    assert _colour_delta(spent, linked, 1, 1, slots, rest, later, 99) == 0
    # B's free run, spent in A, may be adopted by a table run starting later (7 tiles)
    assert _colour_delta(spent, free, 0, 0, 0, rest, 7, 99) == 7
    # two heirs swapped between runs of one length: matched run to run, no loss
    a = _run(0, 3) | _run(1, 3) << 6
    assert _colour_delta(a, _run(1, 3) | _run(0, 3) << 6, 0, 0, 3, rest | 4 << 5, later, 99) == 0
    # of different lengths they cannot be matched: each table run may lose its tiles
    b = _run(0, 3) | _run(1, 2) << 6
    assert _colour_delta(b, _run(1, 3) | _run(0, 2) << 6, 0, 0, 3, rest | 4 << 5, later,
                         99) == 9


def test_later_tops_lists_the_runs_starting_later():
    runs_at = np.full((4, 1, 4), -1, np.int64)
    run_type = np.zeros((2, 4), np.int64)
    run_type[0, 0:3] = 1  # (a run of numbers 1-3, and one of 2-4)
    run_type[1, 1:4] = 1
    for v in range(3):
        runs_at[v, 0, 0] = 0
    for v in range(1, 4):
        runs_at[v, 0, int(v < 3)] = 1
    tops = later_tops(runs_at, run_type)
    assert tops[0, 0] == 3 and tops[1, 0] == 0 and tops[3, 0] == 0


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_owner_dominance_keeps_the_answer_at_a_tight_floor(monkeypatch, objective):
    # Asked for exactly the answer's tiles staying (no slack to hide a wrong drop), each
    # direction finds the fewest tiles moved with and without the owners' dominance, in
    # fewer states with it.
    import engines.rummikub.heirs as heirs

    monkeypatch.setattr(heirs, "PROBES", ())
    compared, states = 0, {PLAIN: 0, OWNERS: 0}
    for p in rummikub_positions(24, seed=31, table_tiles=(16, 48), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        first = best_move(p["table"], p["rack"], True, objective)
        if first.sets_kept == len(pos.table) or first.tiles_moved == 0:
            continue
        monkeypatch.setattr(heirs, "DOMINANCE", PLAIN)
        monkeypatch.setattr(heirs, "DIRECTION", 0)
        monkeypatch.setattr(heirs, "ABOVE", 1)
        fewest = heirs.fewest_moved_move(pos, objective, FEWEST, first).tiles_moved
        monkeypatch.setattr(heirs, "ABOVE", first.tiles_moved - fewest)
        for mask, direction in product((PLAIN, OWNERS), (0, 1)):
            monkeypatch.setattr(heirs, "DOMINANCE", mask)
            monkeypatch.setattr(heirs, "DIRECTION", direction)
            before = int(least.WORK[1])
            move = heirs.fewest_moved_move(pos, objective, FEWEST, first)
            states[mask] += int(least.WORK[1]) - before
            assert (move.tiles_moved, check_move(pos, move, FEWEST)) == (fewest, []), \
                (p, direction, mask)
        compared += 1
    assert compared >= 10 and states[OWNERS] < states[PLAIN]


def test_owner_dominance_matches_the_programme(monkeypatch):
    import engines.rummikub.heirs as heirs

    monkeypatch.setattr(heirs, "DOMINANCE", OWNERS)
    for p in rummikub_positions(8, seed=32, table_tiles=(20, 40), joker_rate=0.5,
                                initial_meld_rate=0.0):
        move = best_move(p["table"], p["rack"], True, "tiles", FEWEST)
        ref, moved = reference_move(p["table"], p["rack"], True, "tiles", FEWEST)
        assert (move.tiles, move.value, move.sets_kept, move.tiles_moved) == \
            (ref.tiles, ref.value, ref.sets_kept, moved), (p["table"], p["rack"])
