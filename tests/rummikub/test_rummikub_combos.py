"""The option combinations of the ``--combos`` bench (``COMBO_ROWS``): the search solves each
(none is refused, so the bench runs), and on bench positions its least-disturbing move is
a legal one with the plain DP's tiles and value, keeping at least the plain answer's sets."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from engines.rummikub import Position, best_move, check_move

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import COMBO_ROWS, restrict


@pytest.mark.parametrize(("name", "rules", "melded"), COMBO_ROWS, ids=[r[0] for r in COMBO_ROWS])
def test_combination_matches_the_plain_dp(name: str, rules, melded: bool) -> None:
    plain_rules = replace(rules, least_disturbance=False)
    for p in band_positions(20, True, n=2, seed=1) + band_positions(40, False, n=1, seed=2):
        p = restrict(p, rules)
        move = best_move(p["table"], p["rack"], melded, "tiles", rules)
        plain = best_move(p["table"], p["rack"], melded, "tiles", plain_rules)
        assert (move.tiles, move.value) == (plain.tiles, plain.value), (name, p)
        assert move.sets_kept >= plain.sets_kept, (name, p)
        pos = Position.from_strings(p["table"], p["rack"], initial_meld_done=melded,
                                    **rules.position_limits())
        assert check_move(pos, move, rules) == [], (name, p)
