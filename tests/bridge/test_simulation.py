"""Lead and contract simulations against exactly solved small cases.

Each case fixes a deal except three or four cards, so the dealer can place
them only a handful of ways, all equally likely: the exact answer is the
average over those layouts, solved one by one here, and the simulation must
(a) report exactly the average over the layouts it dealt and (b) cover the
exact answer with its confidence interval.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.dd import dd_table, solve_position
from engines.bridge.seats import BridgeInputError, Seat
from engines.bridge.simulation import (
    _equal_groups,
    local_solver,
    mean_interval,
    simulate_contracts,
    simulate_lead,
    wilson_interval,
)

BASE = Deal.from_pbn("N:AK862.T652.T7.KQ Q7.K3.AQ2.965432 9543.QJ984.83.J7 JT.A7.KJ9654.AT8")


def _without(hand: Hand, *cards: str) -> Hand:
    return Hand.from_cards(c for c in hand if str(c) not in cards)


def _layouts(free: list[str], seats: list[Seat], fixed: dict[Seat, Hand]) -> list[Deal]:
    """Every way of giving one free card to each seat in ``seats`` (the rest fixed)."""
    deals = []
    for order in itertools.permutations(free):
        hands = dict(fixed)
        for seat, card in zip(seats, order):
            hands[seat] = Hand.from_cards([*hands[seat], Card.from_str(card)])
        deals.append(Deal([hands[s] for s in Seat]))
    return deals


def test_lead_statistics_match_the_exact_layouts() -> None:
    free = ["S2", "HK", "CJ"]  # one from N, E and S: 3! = 6 layouts
    fixed = {
        Seat.NORTH: _without(BASE[Seat.NORTH], "S2"),
        Seat.EAST: _without(BASE[Seat.EAST], "HK"),
        Seat.SOUTH: _without(BASE[Seat.SOUTH], "CJ"),
        Seat.WEST: BASE[Seat.WEST],
    }
    layouts = _layouts(free, [Seat.NORTH, Seat.EAST, Seat.SOUTH], fixed)
    exact = {d.to_pbn(): solve_position(d, "NT", "W") for d in layouts}
    groups = _equal_groups(BASE[Seat.WEST])

    sim = simulate_lead(
        BASE[Seat.WEST],
        "3NT",
        "S",
        n=240,
        seed=4,
        fixed={s.char: h for s, h in fixed.items() if s != Seat.WEST},
        threads=2,
    )
    assert sim.leader == Seat.WEST and len(sim.deals) == 240
    dealt = [exact[d.to_pbn()] for d in sim.deals]
    assert len({d.to_pbn() for d in sim.deals}) == 6
    assert sorted(tuple(r.cards) for r in sim.rows) == sorted(groups)
    for row in sim.rows:
        card = row.cards[0]
        # equal cards really are equal on every layout
        assert all(len({v[c] for c in row.cards}) == 1 for v in exact.values())
        observed = np.array([v[card] for v in dealt])
        assert row.mean_tricks == pytest.approx(observed.mean())
        assert row.tricks_interval == pytest.approx(mean_interval(observed))
        sets = int((observed >= 5).sum())  # 3NT: five defence tricks set it
        assert row.set_rate == pytest.approx(sets / 240)
        assert row.set_interval == pytest.approx(wilson_interval(sets, 240))
        exact_mean = np.mean([v[card] for v in exact.values()])
        lo, hi = row.tricks_interval
        assert lo - 1e-9 <= exact_mean <= hi + 1e-9
    means = [r.mean_tricks for r in sim.rows]
    assert means == sorted(means, reverse=True)
    best = max(sim.rows, key=lambda r: r.mean_score)
    assert best.imps_vs_best == 0 and all(r.imps_vs_best <= 0 for r in sim.rows)


def test_lead_simulation_in_process_matches_the_payload_solver() -> None:
    # the default path hands the dealt masks to the kernel; a solver gets PBN payloads
    args = ("KJ84.Q93.T72.A65", "4Sx", "E")
    kwargs = {"n": 12, "seed": 3, "vulnerable": True}
    direct = simulate_lead(*args, threads=2, **kwargs)
    through = simulate_lead(*args, solver=local_solver(1), **kwargs)
    assert direct.to_dict() == through.to_dict()
    assert all((a.tricks == b.tricks).all() for a, b in zip(direct.rows, through.rows))


def test_contract_statistics_match_the_exact_layouts() -> None:
    free = ["SQ", "D2", "SJ", "C8"]  # two from E and two from W: C(4, 2) = 6 layouts
    east, west = _without(BASE[Seat.EAST], "SQ", "D2"), _without(BASE[Seat.WEST], "SJ", "C8")
    layouts = {}
    for pair in itertools.combinations(free, 2):
        rest = [c for c in free if c not in pair]
        d = Deal(
            [
                BASE[Seat.NORTH],
                Hand.from_cards([*east, *map(Card.from_str, pair)]),
                BASE[Seat.SOUTH],
                Hand.from_cards([*west, *map(Card.from_str, rest)]),
            ]
        )
        layouts[d.to_pbn()] = dd_table(d, strains="NT")["NT"]
    assert len(layouts) == 6

    sim = simulate_contracts(
        BASE[Seat.NORTH],
        BASE[Seat.SOUTH],
        n=300,
        seed=9,
        strains="NT",
        fixed={"E": east, "W": west},
        vulnerability="NS",
        threads=2,
    )
    dealt = [layouts[d.to_pbn()] for d in sim.deals]
    for seat in (Seat.NORTH, Seat.SOUTH):
        observed = np.array([row[seat] for row in dealt])
        assert sim.tricks[(seat, sim.rows[0].contract.strain)].tolist() == observed.tolist()
    by_name = {str(r.contract): r for r in sim.rows}
    assert len(by_name) == 14  # 7 levels x 2 declarers, NT only
    for level in range(1, 8):
        for seat in (Seat.NORTH, Seat.SOUTH):
            row = by_name[f"{level}NT{seat.char}"]
            observed = np.array([t[seat] for t in dealt])
            makes = int((observed >= level + 6).sum())
            assert row.make_rate == pytest.approx(makes / 300)
            exact = np.mean([t[seat] >= level + 6 for t in layouts.values()])
            lo, hi = row.make_interval
            assert lo - 1e-9 <= exact <= hi + 1e-9
    scores = [r.mean_score for r in sim.rows]
    assert scores == sorted(scores, reverse=True)
    assert sim.rows[0].imps_vs_best == 0 and sim.imps.shape == (14, 14)
    assert np.allclose(sim.imps, -sim.imps.T)


def test_bad_simulation_input_is_named() -> None:
    with pytest.raises(BridgeInputError, match="13 cards"):
        simulate_lead("AK...", "3NT", "S", n=1)
    with pytest.raises(BridgeInputError, match="declarer"):
        simulate_lead(BASE[Seat.WEST], "3NT", n=1)
    with pytest.raises(BridgeInputError, match="declarers must be"):
        simulate_contracts(BASE[Seat.NORTH], BASE[Seat.SOUTH], n=1, declarers="E")


def test_intervals() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(30, 100)
    assert lo < 0.3 < hi and (lo, hi) == pytest.approx((0.2189, 0.3958), abs=1e-4)
    assert mean_interval(np.array([5])) == (5.0, 5.0)
