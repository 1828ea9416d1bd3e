"""The table sets every move keeping the most sets keeps, as the relaxation proves them
(engines/rummikub/heirs_kept.py), against every optimal move's sets kept, enumerated, and
the fewest-tiles-moved answer with and without leaving them out of the pass."""

from __future__ import annotations

import pytest
from rummikub_least_brute import held_at_optimum

from engines.rummikub import best_move, heirs, heirs_kept
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.moved import tiles_moved
from engines.rummikub.position import Position, _counts, check_move, objective_weights
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _small_positions(objective: str) -> list[Position]:
    out = []
    for p in rummikub_positions(60, seed=41 if objective == "tiles" else 42,
                                table_tiles=(9, 27), joker_rate=0.5, initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        if 2 <= len(pos.table) <= 8:
            out.append(pos)
    return out


def _kept_by_every(pos: Position, objective: str) -> set[int]:
    """The sets held out by every arrangement that reaches the optimum holding the most
    (every subset of the table held out, the DP on the others)."""
    held = held_at_optimum(pos, objective)
    most = max(h.bit_count() for h in held)
    every = (1 << len(pos.table)) - 1
    for h in held:
        if h.bit_count() == most:
            every &= h
    return {i for i in range(len(pos.table)) if every >> i & 1}


def _proven(pos: Position, objective: str) -> tuple[set[int], int]:
    weight, joker_weight = objective_weights(objective)
    move = best_move([list(s) for s in pos.table], list(pos.rack), True, objective)
    played, played_j = _counts(move.played)
    optimum = int((weight * played).sum()) + joker_weight * played_j
    return (heirs_kept.kept_always(list(pos.table), pos.rack, FEWEST,
                                   (weight, joker_weight, optimum), move), move.sets_kept)


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_only_sets_every_move_keeps_are_left_out(objective):
    # Never a set some move keeping the most releases (the pass would lose moves), and on
    # some positions a set (else it would leave nothing out).
    checked = proving = 0
    for pos in _small_positions(objective):
        every = _kept_by_every(pos, objective)
        proven, _kept = _proven(pos, objective)
        assert proven <= every, (pos, proven, every)
        proving += bool(proven)
        checked += 1
    assert checked >= 10 and proving >= 3, (checked, proving)


def test_the_answer_is_the_same_without_the_sets_kept(monkeypatch):
    # Larger tables (where sets are left out): the move moves as few tiles, keeps as many
    # sets and plays as well as the move of the pass on the whole table, and is legal; on
    # some of them the pass moves fewer tiles than least disturbance's move (its move is
    # rebuilt with the sets left out added back).
    compared = rebuilt = 0
    for p in rummikub_positions(10, seed=48, table_tiles=(30, 45), joker_rate=0.5,
                                initial_meld_rate=0.0):
        pos = Position.from_strings(p["table"], p["rack"])
        if not pos.table:
            continue
        first = best_move(p["table"], p["rack"], True, "tiles")
        moves = []
        for level in (False, True):
            monkeypatch.setattr(heirs_kept, "KEPT_ALWAYS", level)
            moves.append(heirs.fewest_moved_move(pos, "tiles", FEWEST, first))
        whole, without = moves
        assert (without.tiles, without.value, without.sets_kept, without.tiles_moved) == \
            (whole.tiles, whole.value, whole.sets_kept, whole.tiles_moved), p
        assert tiles_moved(list(pos.table), without.table) == without.tiles_moved
        assert not check_move(pos, without, FEWEST), p
        rebuilt += bool(_proven(pos, "tiles")[0]) and without.tiles_moved < first.tiles_moved
        compared += 1
    assert compared >= 8 and rebuilt >= 2, (compared, rebuilt)
