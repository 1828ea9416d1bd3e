"""Least disturbance's exact cuts and descents (``engines.rummikub.least.CUTS``,
``DESCENTS``, ``DESCENT_WIDTH``): the same answer.

``FEWEST_HELD``: a held-out state must hold the pass floor's sets less the most of the later
ones an optimal move keeps (every move reaching the floor is optimal for the objective).  It
drops only states that cannot reach a pass's floor, so the objective, the rack tiles played
and the sets kept are those without it.  ``DESCENTS``: exact
passes asking for the linear relaxation's bound on the sets kept, then one less, before the
others (where the bound was computed); an exact pass finds the best move reaching its floor
or proves there is none, so the answer keeps as many sets; with ``DESCENT_WIDTH`` a narrow
pass at the same floor first, whose move then keeps the bound's sets.  ``PLAIN_FIRST``: the
passes start from the plain move as an answer (asking one set more), which stays when none
keeps more.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engines.rummikub import Position, Rules, best_move, check_move, least
from engines.rummikub.generate import rummikub_positions

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

# (CUTS, DESCENTS, DESCENT_WIDTH): CUTS bit 1 FEWEST_HELD, bit 2 PLAIN_FIRST
POLICIES = ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0), (0, 2, 0), (2, 0, 0), (3, 2, 0),
            (3, 2, 1024), (3, 3, -512), (2, 1, 256))


def _answers(monkeypatch, table, rack, rules: Rules, objective: str = "tiles") -> list:
    out = []
    pos = Position.from_strings(table, rack, **rules.position_limits())
    for cuts, descents, width in POLICIES:
        monkeypatch.setattr(least, "CUTS", cuts)
        monkeypatch.setattr(least, "DESCENTS", descents)
        monkeypatch.setattr(least, "DESCENT_WIDTH", width)
        move = best_move(table, rack, True, objective, rules)
        assert check_move(pos, move, rules) == [], (cuts, descents, width, table, rack)
        out.append((sorted(map(str, move.played)), move.value, move.tiles, move.sets_kept))
    return out


@pytest.mark.parametrize("rules", [Rules(least_disturbance=True, copies=4),
                                   Rules(least_disturbance=True, jokers=4),
                                   Rules(least_disturbance=True, jokers=3),
                                   Rules(least_disturbance=True),
                                   Rules(least_disturbance=True, joker_retrieval="official",
                                         min_real_tiles=2)],
                         ids=["copies4", "jokers4", "jokers3", "default", "official2"])
def test_cuts_keep_the_answer_on_bench_bands(monkeypatch, rules: Rules) -> None:
    for size, jokers in ((40, True), (60, True), (80, False)):
        for p in band_positions(size, jokers, n=2, seed=5):
            p = restrict(p, rules)
            answers = _answers(monkeypatch, p["table"], p["rack"], rules)
            assert answers.count(answers[0]) == len(answers), (size, jokers, p, answers)


def test_cuts_keep_the_answer_with_identical_sets(monkeypatch) -> None:
    # random tables with two of their sets laid a second time (four copies allow it)
    rules = Rules(least_disturbance=True, copies=4)
    for i, obj in enumerate(rummikub_positions(10, 41, table_tiles=(20, 60),
                                               rack_size=(8, 14), initial_meld_rate=0.0)):
        table = [list(s) for s in obj["table"]]
        table += [list(table[0]), list(table[-1])]
        objective = "value" if i % 2 else "tiles"
        answers = _answers(monkeypatch, table, obj["rack"], rules, objective)
        assert answers.count(answers[0]) == len(answers), (table, obj["rack"], answers)
