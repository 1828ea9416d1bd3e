"""The bound on the sets kept under official joker retrieval
(``solvers.rummikub._official.placed_run_jokers``): a table run joker that no rack tile can
free stays at its place, so the linear relaxation counts that slot as a tile for runs only.

The bound must stay at or above the most sets kept (brute force over the sets held out on
small tables where such jokers are), fall below free retrieval's where that one lets the
joker go elsewhere, and leave least disturbance's answer as it was, with far fewer states.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engines.rummikub import Position, Rules, best_move, check_move, least
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import _counts

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from test_rummikub_bound_branch import _bounds
from test_rummikub_bound_parts import _most_kept_brute

from bench_rummikub import band_positions
from bench_rummikub_rules import restrict

OFFICIAL4 = Rules(least_disturbance=True, joker_retrieval="official", copies=4)


def _placed(pos: Position, rules: Rules) -> int:
    """The table jokers that the bound counts as their run tiles."""
    from solvers.rummikub._official import placed_run_jokers

    slot_number, slot_colour, set_start, _keys, _firsts = least.table_slots([pos.table], rules)
    mode = int(rules.search_mode(True, list(pos.table)))
    colours = placed_run_jokers(mode, _counts(pos.rack)[0], slot_number, slot_colour,
                                set_start, 0, len(pos.table))
    return int((colours < -1).sum())


def _tables_with_placed_jokers(rules: Rules):
    """Random positions of 2-7 table sets under ``rules`` with a table run joker that no
    rack tile frees: ``(obj, position, objective)``, a third with the value objective."""
    for i, p in enumerate(rummikub_positions(400, 23, table_tiles=(12, 24),
                                             rack_size=(5, 10), joker_rate=0.8,
                                             initial_meld_rate=0.0)):
        obj = restrict(p, rules)
        pos = Position.from_strings(obj["table"], obj["rack"], max_copies=rules.copies)
        if 2 <= len(pos.table) <= 7 and _placed(pos, rules):
            yield obj, pos, "value" if i % 3 == 0 else "tiles"


@pytest.mark.parametrize("copies", [3, 4])
def test_the_bound_with_placed_jokers_is_never_below_brute_force(copies: int) -> None:
    rules = Rules(least_disturbance=True, joker_retrieval="official", copies=copies)
    free = Rules(least_disturbance=True, copies=copies)
    checked = lower = 0
    for obj, pos, objective in _tables_with_placed_jokers(rules):
        root, branched, _plain = _bounds(pos, obj, objective, rules, 10_000)
        most = _most_kept_brute(pos, objective, rules)
        assert most <= branched <= root, (obj, objective)
        lower += root < _bounds(pos, obj, objective, free, 0)[0]
        checked += 1
    assert checked >= 30
    assert lower >= 1, (lower, checked)


@pytest.mark.parametrize(("seed", "index", "answer"), [(2, 4, (20, 166, 11)),
                                                       (6, 3, (20, 138, 11))])
def test_placed_jokers_bring_the_bound_to_the_most_kept(seed: int, index: int,
                                                        answer: tuple) -> None:
    """official + copies=4 80J seed 2 #4 and seed 6 #3: free retrieval's bound is 13 (the
    free answer moves the table joker where it keeps 13 sets), the most kept under official
    retrieval 11.  With the joker at its place, the branched bound is 11, the node's sets a
    move: one narrow pass (3-7 k states) where the exact passes took 1.5-1.6 M."""
    obj = restrict(band_positions(80, True, n=index + 1, seed=seed)[index], OFFICIAL4)
    pos = Position.from_strings(obj["table"], obj["rack"], max_copies=4)
    assert _placed(pos, OFFICIAL4) == 1
    free = Rules(least_disturbance=True, copies=4)
    nodes = least.BRANCH_NODES_FOUR_COPIES
    assert _bounds(pos, obj, "tiles", free, nodes)[1] == 13
    assert _bounds(pos, obj, "tiles", OFFICIAL4, nodes)[1] == answer[2]
    before = least.WORK.copy()
    move = best_move(obj["table"], obj["rack"], True, "tiles", OFFICIAL4)
    assert (move.tiles, move.value, move.sets_kept) == answer
    assert check_move(pos, move, OFFICIAL4) == []
    assert (least.WORK - before)[1] < 20_000
