"""Least disturbance with meld then continue and two real tiles: where the relaxation that
drops both options plays a move the rules do not allow, the one dropping only meld then
continue is tried next (``least.RELAXED_AGAIN``), and the answer is the same as without it.
A relaxation drops two real tiles only with three or more copies or jokers
(``least.relaxes_real_tiles``); with two of each, meld then continue's is the melded player's
turn under two real tiles, and a melded player's position has none."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from engines.rummikub import Rules, best_move, least
from engines.rummikub.position import Position

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub_rules import band_positions, restrict

RULES = Rules(least_disturbance=True, meld_continue=True, min_real_tiles=2)


def test_the_closer_relaxation_bounds_the_same_answer(monkeypatch) -> None:
    position = restrict(band_positions(40, False, n=7, seed=2)[6], RULES)
    plain = best_move(position["table"], position["rack"], False, "tiles", RULES)
    # (the relaxation dropping two real tiles too, as with three copies or jokers)
    monkeypatch.setattr(least, "relaxes_real_tiles", lambda rules: True)
    tried = []
    relaxed_move = least._relaxed_move

    def spy(pos, objective, rules, first, dropped=least.RELAXED, melded_plain=None,
            first_turned=False):
        tried.append(dropped)
        return relaxed_move(pos, objective, rules, first, dropped, melded_plain, first_turned)

    monkeypatch.setattr(least, "_relaxed_move", spy)
    move = best_move(position["table"], position["rack"], False, "tiles", RULES)
    assert tried == [least.RELAXED, least.RELAXED_AGAIN]
    monkeypatch.setattr(least, "RELAXED_AGAIN", least.RELAXED)  # (no second relaxation)
    tried.clear()
    alone = best_move(position["table"], position["rack"], False, "tiles", RULES)
    assert tried == [least.RELAXED]
    assert (move.tiles, move.value, move.sets_kept) == (alone.tiles, alone.value,
                                                        alone.sets_kept)
    assert (move.tiles, move.value, move.sets_kept) == (plain.tiles, plain.value,
                                                        plain.sets_kept)
    assert move.sets_kept == 8


def test_two_real_tiles_are_relaxed_with_three_copies_or_jokers_only() -> None:
    position = restrict(band_positions(40, False, n=7, seed=2)[6], RULES)
    pos = Position.from_strings(position["table"], position["rack"], False)
    melded = replace(pos, initial_meld_done=True)
    loose_pos, loose = least._relaxation(pos, RULES)
    assert loose_pos.initial_meld_done and (loose.meld_continue, loose.min_real_tiles) == (
        False, 2)
    assert least._relaxation(pos, RULES, least.RELAXED_AGAIN) == (loose_pos, loose)
    assert least._relaxation(melded, replace(RULES, meld_continue=False)) is None
    for more in (dict(copies=3), dict(jokers=3), dict(copies=4), dict(jokers=4)):
        rules = replace(RULES, meld_continue=False, **more)
        assert least._relaxation(melded, rules)[1].min_real_tiles == 1, more
