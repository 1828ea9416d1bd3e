"""Fewest tiles moved: the bound on what the numbers from one on lose once every joker is
placed (engines/rummikub/heirs_jokers.py, from the pass in the other order of numbers with
no joker) keeps the answer, against the reference programme and at a floor with no slack."""

from __future__ import annotations

from rummikub_ip_reference import reference_move

from engines.rummikub import best_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _bound_everywhere(monkeypatch):
    """The bound read by every pass after the probes (not only where they are dear); a
    record of each bound made, and of whether it found a number losing tiles."""
    import engines.rummikub.heirs as heirs
    import engines.rummikub.heirs_jokers as heirs_jokers

    made: list[bool] = []
    original = heirs_jokers.joker_losses

    def recorded(*args, **kwargs):
        out = original(*args, **kwargs)
        made.append(bool((out & 255).any()))
        return out

    monkeypatch.setattr(heirs, "JOKER_PROBE", 0)
    monkeypatch.setattr(heirs_jokers, "joker_losses", recorded)
    return made


def test_the_joker_bound_keeps_the_programmes_answer(monkeypatch):
    # With the bound on every pass of positions with jokers, the fewest tiles moved (and the
    # optimum, sets kept) equal the programme's and the answers without it, the move is
    # valid; the bound found tiles lost on some of them, and cut states over all.
    import engines.rummikub.heirs_jokers as heirs_jokers

    made = _bound_everywhere(monkeypatch)
    states = [0, 0]
    compared = 0
    for p in rummikub_positions(30, seed=41, table_tiles=(12, 40), joker_rate=1.0,
                                initial_meld_rate=0.0):
        table, rack = p["table"], p["rack"]
        answers = []
        for on in (False, True):
            monkeypatch.setattr(heirs_jokers, "JOKER_LOSSES", on)
            work = int(least.WORK[1])
            move = best_move(table, rack, True, "tiles", FEWEST)
            states[on] += int(least.WORK[1]) - work
            answers.append((move.tiles, move.value, move.sets_kept, move.tiles_moved))
        assert check_move(Position.from_strings(table, rack), move, FEWEST) == []
        ref, moved = reference_move(table, rack, True, "tiles", FEWEST)
        assert answers[0] == answers[1] == (ref.tiles, ref.value, ref.sets_kept, moved), p
        compared += 1
    assert compared == 30 and any(made) and states[1] < states[0]


def test_the_joker_bound_keeps_the_answer_at_a_tight_floor(monkeypatch):
    # Asked for exactly the answer's tiles staying (no slack to hide a wrong cut), each
    # direction finds the fewest tiles moved with the bound as without it.
    import engines.rummikub.heirs as heirs
    import engines.rummikub.heirs_jokers as heirs_jokers

    made = _bound_everywhere(monkeypatch)
    drawn = rummikub_positions(24, seed=43, table_tiles=(12, 44), joker_rate=1.0,
                               initial_meld_rate=0.0)
    cases = [(Position.from_strings(p["table"], p["rack"]), p, best_move(
        p["table"], p["rack"], True, "tiles")) for p in drawn]
    compared = 0
    for pos, p, first in cases:
        if first.tiles_moved == 0 or first.sets_kept == len(pos.table):
            continue  # (every tile stays: no pass)
        for name, value in (("DIRECTION", 0), ("ABOVE", 1)):
            monkeypatch.setattr(heirs, name, value)
        monkeypatch.setattr(heirs_jokers, "JOKER_LOSSES", False)
        fewest = heirs.fewest_moved_move(pos, "tiles", FEWEST, first).tiles_moved
        monkeypatch.setattr(heirs, "ABOVE", first.tiles_moved - fewest)
        monkeypatch.setattr(heirs_jokers, "JOKER_LOSSES", True)
        for direction in (0, 1):
            monkeypatch.setattr(heirs, "DIRECTION", direction)
            move = heirs.fewest_moved_move(pos, "tiles", FEWEST, first)
            assert move.tiles_moved == fewest, (p, direction)
        compared += 1
    assert compared >= 10 and any(made)
