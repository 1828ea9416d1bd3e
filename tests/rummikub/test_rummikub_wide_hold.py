"""The held-out choice of a table set (least disturbance) inside its first number
(:func:`solvers.rummikub.wide._pass.hold_steps`): just before the sub-step of the first
colour with a tile of the set there (the number's last for a set opened by a joker), so
the states of the colours before it are not multiplied by the choice.  The answers with
it are the oracle's: ``test_rummikub_wide.py``' least-disturbance cases."""

from __future__ import annotations

import numpy as np

from engines.rummikub import wide
from engines.rummikub.position import Position, _counts
from engines.rummikub.rules import Rules
from solvers.rummikub.wide._pass import colour_order, hold_steps


def test_each_set_is_chosen_before_its_first_colour_at_its_first_number():
    rules = Rules(colours=5)
    table = [["K5", "K6", "K7"], ["R5", "O5", "B5"], ["J", "K6", "K7"], ["K1", "K2", "K3"]]
    pos = Position.from_strings(table, "B6 O1 G5 K4 K8", **rules.position_limits())
    melds = wide._table_melds(pos, rules)
    hold = wide._hold_arrays(melds, 5, 13)
    must, _ = _counts(pos.table_tiles, 5, 13)
    rack, _ = _counts(pos.rack, 5, 13)
    order = colour_order(must, rack)[4]
    step_of = {int(c): s for s, c in enumerate(order)}
    starts, start_sets = hold[0], hold[1]
    want = np.zeros(5, np.int64)
    firsts = []
    for t, s in enumerate(start_sets[starts[4]:starts[5]]):
        real = [x.tile for x in melds[s] if not x.tile.is_joker and x.tile.number == 5]
        first = min((step_of["KROBG".index(t.colour)] for t in real), default=4)
        firsts.append(first)
        want[first] |= 1 << t
    decide, undecided = hold_steps(hold, 4, order)
    assert decide.tolist() == want.tolist()
    assert undecided.tolist() == [sum(f > s for f in firsts) for s in range(5)]
    assert sorted(firsts) == [0, 1, 4]  # (K5-K7, R5 O5 B5; J K6 K7 opened by a joker: last)
    assert hold_steps(hold, 0, colour_order(must, rack)[0])[0].sum() == 1  # (K1 K2 K3)
