"""An answer that the narrow passes find without proof (status ``ASK_ABOVE``).

Where a narrow pass finds a move short of the whole rack, the kernel asks for the linear
relaxation at the next objective above it (without the sets kept: which moves reach an
objective does not depend on them) and runs the exact pass above it only if the relaxation
leaves one in reach (:func:`solvers.rummikub.wide._exact._above`), with least disturbance
off (the answer) and on (the objective's optimum from the passes holding no set out, then
the sets kept per part left out).  Checked on small positions with narrow passes of one
state a layer, where both outcomes occur: the answers are the oracle's.
"""

from __future__ import annotations

import random

import pytest
from rummikub_random_sets import random_table_and_rack, same_as_the_oracle

import solvers.rummikub.wide as kernels
from engines.rummikub import wide
from engines.rummikub.rules import Rules
from solvers.rummikub.wide._exact import ASK_ABOVE


def _case(seed: int, least: bool) -> tuple[Rules, list, list]:
    rng = random.Random(seed)
    rules = Rules(colours=rng.choice((5, 6, 8)), numbers=rng.choice((8, 13)),
                  copies=rng.choice((2, 3)), jokers=rng.choice((0, 1, 2)),
                  least_disturbance=least)
    table, rack = random_table_and_rack(rng, rules, 9, 9, 0.7)
    return rules, table, rack


@pytest.mark.parametrize("least", (False, True))
def test_a_narrow_answer_is_proven_by_the_relaxation_or_by_the_exact_pass(least, monkeypatch):
    above: list[int] = []  # (the states that each call resumed at ASK_ABOVE stored)
    solve = kernels.solve_wide

    def recorded(*args):
        before = int(wide.STATS[0])
        status, score = solve(*args)
        if args[-2] == ASK_ABOVE:
            above.append(int(wide.STATS[0]) - before)
        return status, score

    monkeypatch.setattr(wide, "WIDTH", 1)
    monkeypatch.setattr(kernels, "solve_wide", recorded)
    for seed in range(40):
        same_as_the_oracle(*_case(seed, least), True)
    assert above.count(0) >= 5  # (the relaxation: nothing better in reach)
    assert len(above) - above.count(0) >= 5  # (the exact pass above the answer)
