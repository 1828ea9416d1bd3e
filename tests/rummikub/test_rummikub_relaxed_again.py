"""Least disturbance with meld then continue and two real tiles: where the relaxation that
drops both options plays a move the rules do not allow, the one dropping only meld then
continue is tried next (``least.RELAXED_AGAIN``), and the answer is the same as without it."""

from __future__ import annotations

import sys
from pathlib import Path

from engines.rummikub import Rules, best_move, least

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub_rules import band_positions, restrict

RULES = Rules(least_disturbance=True, meld_continue=True, min_real_tiles=2)


def test_the_closer_relaxation_bounds_the_same_answer(monkeypatch) -> None:
    position = restrict(band_positions(40, False, n=7, seed=2)[6], RULES)
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
    assert move.sets_kept == 8
