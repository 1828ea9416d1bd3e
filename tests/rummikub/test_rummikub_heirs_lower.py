"""Fewest tiles moved: the one-tile probe's floor lowered round by round (``heirs.LOWER``,
``solvers/rummikub/_heirs_rounds.py``) against the passes started afresh at each floor and
the reference integer programme (HiGHS, ``ip_model.py``)."""

from __future__ import annotations

from rummikub_ip_reference import reference_move

from engines.rummikub import best_move
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules

FEWEST = Rules(fewest_tiles_moved=True)


def _answer(move):
    return move.tiles, move.value, move.sets_kept, move.tiles_moved


def test_lowered_rounds_find_the_fresh_passes_fewest(monkeypatch):
    # With the probe lowered after every one-tile probe that found nothing (whatever the
    # full pass's floor), the answer equals the passes' without the rounds (probes asking
    # for twice the tiles moved, then the full pass) and the programme's, and the move is
    # valid; on these seeds a round after the first finds the answer, and one proves that
    # none moves fewer tiles than least disturbance's move.
    import engines.rummikub.heirs as heirs

    rounds: list[bool] = []
    lowered = heirs._lowered

    def counted(done):
        out = lowered(done)
        rounds.append(out is not False)
        return out

    monkeypatch.setattr(heirs, "_lowered", counted)
    for seed in (33, 39):
        for pos in rummikub_positions(40, seed=seed, table_tiles=(12, 30), joker_rate=0.5,
                                      initial_meld_rate=0.0):
            table, rack = pos["table"], pos["rack"]
            monkeypatch.setattr(heirs, "LOWER", -1)
            plain = best_move(table, rack, True, "tiles", FEWEST)
            monkeypatch.setattr(heirs, "LOWER", 99)
            calls = len(rounds)
            move = best_move(table, rack, True, "tiles", FEWEST)
            assert _answer(move) == _answer(plain), pos
            assert check_move(Position.from_strings(table, rack), move, FEWEST) == [], pos
            if len(rounds) > calls and rounds[-1]:
                ref, moved = reference_move(table, rack, True, "tiles", FEWEST)
                assert _answer(move) == (ref.tiles, ref.value, ref.sets_kept, moved), pos
    assert sorted(set(rounds)) == [False, True]
