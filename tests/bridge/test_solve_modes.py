"""DDS SolveBoard modes (target, optimal, one) and the strain filter, checked against endplay."""

from __future__ import annotations

import random

import pytest

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.dd import DDTable, dd_table, dd_tables, solve_position
from engines.bridge.dealer import deal
from engines.bridge.seats import BridgeInputError, Seat, Strain

dds = pytest.importorskip("endplay.dds")
endplay_types = pytest.importorskip("endplay.types")
solve_mode = pytest.importorskip("endplay.dds.solve").SolveMode


def _endplay_deal(d: Deal, trump: Strain, leader: Seat):
    other = endplay_types.Deal(d.to_pbn())
    other.first = endplay_types.Player(int(leader))
    other.trump = endplay_types.Denom(trump.suit_index)
    return other


def _endplay_solve(d: Deal, trump: Strain, leader: Seat, mode, target=None) -> dict[Card, int]:
    solved = dds.solve_board(_endplay_deal(d, trump, leader), mode, target)
    return {Card(int(c.suit), int(c.rank).bit_length() - 1): t for c, t in solved}


def _cases() -> list[tuple[Deal, Strain, Seat]]:
    sample = deal(3, seed=21)
    return [(d, strain, Seat(i % 4)) for i, (d, strain) in enumerate(zip(sample, (4, 0, 2)))]


@pytest.fixture(scope="module")
def cases() -> list[tuple[Deal, Strain, Seat, dict[Card, int]]]:
    out = []
    for d, strain, leader in _cases():
        trump = Strain(strain)
        out.append((d, trump, leader, solve_position(d, trump, leader)))
    return out


def test_all_cards_match_solveboard(cases) -> None:
    for d, trump, leader, values in cases:
        assert values == _endplay_solve(d, trump, leader, solve_mode.Default)
        assert len(values) == 13


def test_optimal_one_and_target_modes_match_solveboard(cases) -> None:
    for d, trump, leader, values in cases:
        best = max(values.values())
        optimal = solve_position(d, trump, leader, cards="optimal")
        assert optimal == _endplay_solve(d, trump, leader, solve_mode.OptimalAll)
        assert set(optimal.values()) == {best}
        (one,) = solve_position(d, trump, leader, cards="one").items()
        assert one in optimal.items()
        (theirs,) = _endplay_solve(d, trump, leader, solve_mode.OptimalOne).items()
        assert theirs[1] == one[1]
        for target in (best, best - 1):
            if target < 1:
                continue
            ours = solve_position(d, trump, leader, target=target)
            # one null-window question per card: the cards reaching the target, valued at it
            assert ours == {c: target for c, v in values.items() if v >= target}
            assert ours == _endplay_solve(d, trump, leader, solve_mode.TargetAll, target)
            assert solve_position(d, trump, leader, target=target, cards="optimal") == ours
            (card, value) = solve_position(d, trump, leader, target=target, cards="one").popitem()
            assert value == target and values[card] >= target
        assert solve_position(d, trump, leader, target=best + 1) == {}
        reached = solve_position(d, trump, leader, target=best, cards="one")
        assert len(reached) == 1 and next(iter(reached.values())) == best


def test_end_positions_match_solveboard() -> None:
    rng = random.Random(3)
    for _ in range(25):
        cards = [Card(s, r) for s in range(4) for r in range(2, 15)]
        rng.shuffle(cards)
        position = Deal([Hand.from_cards(cards[4 * k : 4 * k + 4]) for k in range(4)])
        ours = solve_position(position, "NT", "N")
        assert ours == _endplay_solve(position, Strain.NOTRUMP, Seat.NORTH, solve_mode.Default)


def test_bad_modes_are_named() -> None:
    position = "N:AK... Q2... JT... 43..."
    with pytest.raises(BridgeInputError, match="cards must be"):
        solve_position(position, "NT", "N", cards="best")
    with pytest.raises(BridgeInputError, match="target must be"):
        solve_position(position, "NT", "N", target=14)
    with pytest.raises(BridgeInputError, match="unknown strain"):
        dd_table(position, strains="Z")


def test_strain_filter_matches_endplay() -> None:
    sample = list(deal(2, seed=8))
    tables = dd_tables(sample, threads=2, strains="NT,S")
    single = dd_table(sample[0], strains=[Strain.HEARTS])
    theirs = dds.calc_all_tables(
        [endplay_types.Deal(d.to_pbn()) for d in sample],
        exclude=[endplay_types.Denom.clubs, endplay_types.Denom.diamonds],
    )
    for table, other in zip(tables, theirs):
        assert list(table) == ["S", "NT"] and table.strains == (Strain.SPADES, Strain.NOTRUMP)
        for strain, denom in (("S", endplay_types.Denom.spades), ("NT", endplay_types.Denom.nt)):
            for seat in Seat:
                assert table[strain][seat] == other[denom, endplay_types.Player(int(seat))]
        with pytest.raises(KeyError, match="strain C was not solved"):
            table["C"]
    for seat in Seat:
        assert (
            single["H"][seat]
            == theirs[0][endplay_types.Denom.hearts, endplay_types.Player(int(seat))]
        )
    assert "  -" in str(single) and DDTable.from_dict(single.to_dict()) == single


def test_cli_flags(tmp_path, capsys) -> None:
    import json

    from engines.cli import main

    position = "N:5.82.4. .J.52.A Q8..Q8. K.6.9.J"
    assert (
        main(["bridge", "solve", position, "-t", "NT", "-l", "N", "--cards", "optimal", "--json"])
        == 0
    )
    assert json.loads(capsys.readouterr().out) == {"H8": 2, "H2": 2, "D4": 2}
    assert main(["bridge", "solve", position, "-t", "NT", "-l", "N", "--target", "3"]) == 1
    assert "no card takes 3 tricks" in capsys.readouterr().out
    path = tmp_path / "deals.txt"
    path.write_text("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87\n")
    assert main(["bridge", "table", str(path), "--json", "--strains", "NT"]) == 0
    assert json.loads(capsys.readouterr().out)["dd"] == {"NT": {"N": 4, "E": 5, "S": 4, "W": 5}}


def test_batch_of_leads_matches_solve_position(cases) -> None:
    import numpy as np

    from solvers.bridge import lead_values

    # one thread and two, each batch taking the context kept by the call before it
    for trump, leader, threads in (
        (Strain.NOTRUMP, Seat.WEST, 2),
        (Strain.HEARTS, Seat.NORTH, 1),
        (Strain.NOTRUMP, Seat.EAST, 1),
    ):
        deals = [d for d, *_ in cases]
        hands = np.array([d.masks() for d in deals], dtype=np.uint16)
        values = lead_values(hands, trump.suit_index, int(leader), threads)
        for d, cards in zip(deals, values):
            expected = solve_position(d, trump, leader)
            got = {Card(s, r + 2): int(cards[s, r]) for s in range(4) for r in range(13)}
            assert {c: v for c, v in got.items() if v >= 0} == expected
            assert all(v == -1 for c, v in got.items() if c not in expected)
