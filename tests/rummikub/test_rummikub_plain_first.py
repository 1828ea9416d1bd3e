"""Least disturbance from the plain move (``solvers.rummikub._least.PLAIN_FIRST``, on with
three or four copies or jokers): the held-out passes take the plain move as the answer they
start from and ask for one set more; where no move keeps more, the kernel says so
(``UNCHANGED``) and the plain move stays.  Checked through both engine paths
(``least_disturbing_move`` without a first move, and the batch kernel behind ``best_move``)
on bench positions, and against brute force on small tables with more copies or jokers
(the optimum and the most table sets kept)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from rummikub_least_brute import check_least_against_brute, naive, runs_table

from engines.rummikub import Position, Rules, best_move, check_move
from engines.rummikub.least import least_disturbing_move
from solvers.rummikub import _least

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benches"))
from bench_rummikub import band_positions
from bench_rummikub_rules import restrict


@pytest.mark.parametrize("rules", [Rules(jokers=4), Rules(copies=4)], ids=["jokers4", "copies4"])
def test_the_plain_move_stays_where_none_keeps_more(monkeypatch, rules: Rules) -> None:
    statuses = []
    solve = _least.least_position

    def recording(*args):
        out = solve(*args)
        statuses.append(int(out[0]))
        return out

    monkeypatch.setattr(_least, "least_position", recording)
    for p in band_positions(20, True, n=12, seed=4):
        p = restrict(p, rules)
        pos = Position.from_strings(p["table"], p["rack"], **rules.position_limits())
        single = least_disturbing_move(pos, "tiles", rules)  # (no first move: the oracle's)
        assert check_move(pos, single, rules) == [], p
        batch = best_move(p["table"], p["rack"], True, "tiles", rules)
        assert check_move(pos, batch, rules) == [], p
        assert ((single.tiles, single.value, single.sets_kept)
                == (batch.tiles, batch.value, batch.sets_kept)), p
    # both outcomes occur on these positions: the plain move kept, a move keeping more
    assert _least.UNCHANGED in statuses and _least.FOUND in statuses, statuses


# (copies, jokers) beyond the rules document's, where the engine's policy starts from the
# plain move
TILE_SETS = ((3, 2), (4, 2), (3, 3), (4, 3), (2, 4), (3, 4))


def _small_table(seed: int):
    """Runs of 3-5 tiles on two colours of 1..5, and a few rack tiles and up to two jokers
    (the brute force's table sets hold no joker; more numbers or jokers take it minutes)."""
    rng = random.Random(seed)
    copies, jokers = TILE_SETS[seed % len(TILE_SETS)]
    spec = naive.Spec(2, 5, copies, jokers, 3, 1)

    def run():
        colour = rng.choice(spec.letters)
        first = rng.randint(1, spec.numbers - 2)
        return [(colour, n) for n in range(first, min(spec.numbers, first + rng.randint(2, 4)) + 1)]

    table, rack = runs_table(rng, spec, (run() for _ in range(rng.randint(3, 5))), (1, 3),
                             (0, min(jokers, 2)))
    return spec, table, rack


@pytest.mark.parametrize("seed", range(48))
def test_least_disturbance_from_the_plain_move_matches_brute_force(seed: int) -> None:
    spec, table, rack = _small_table(seed + 5200)
    check_least_against_brute(spec, table, rack, ("tiles", "value")[seed % 2])
