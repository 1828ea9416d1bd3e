"""Duplicate scoring: every "Checks" line of rules/bridge.md, plus the tables behind them."""

import pytest

from engines.bridge.contract import Contract
from engines.bridge.scoring import contract_score, doubled_undertricks, score
from engines.bridge.seats import BridgeInputError, Strain

# (contract, tricks relative to contract, vulnerable, expected) — the rules' Checks line.
CHECKS = [
    ("1C", 0, False, 70),
    ("4H", 0, True, 620),
    ("3NT", 1, True, 630),
    ("6C", 0, False, 920),
    ("7H", 0, True, 2210),
    ("2CX", 0, False, 180),
    ("2NTX", 0, False, 490),
    ("4HX", 2, True, 1190),
    ("7HXX", 0, True, 2940),
    ("3DXX", 3, False, 1240),
    ("3NTX", -1, False, -100),
    ("3NTX", -4, False, -800),
    ("3NTX", -3, True, -800),
    ("4SXX", -2, True, -1000),
    ("1C", -1, False, -50),
]


@pytest.mark.parametrize(("text", "result", "vul", "expected"), CHECKS)
def test_rules_checks(text: str, result: int, vul: bool, expected: int) -> None:
    contract = Contract.from_str(text, declarer="N").with_result(result)
    assert contract.score(vul) == expected
    assert score(contract, vulnerable=vul) == expected
    assert score(contract, contract.tricks, vul) == expected


def test_seed_004_erratum_diamonds_are_20_a_trick() -> None:
    # 3D XX +3 NV: 240 trick score + 100 redouble bonus + 300 game + 3 x 200 overtricks.
    assert contract_score(3, Strain.DIAMONDS, 2, 12, False) == 240 + 100 + 300 + 600


def test_doubled_undertrick_tables() -> None:
    assert [doubled_undertricks(d, False) for d in range(7)] == [0, 100, 300, 500, 800, 1100, 1400]
    assert [doubled_undertricks(d, True) for d in range(5)] == [0, 200, 500, 800, 1100]


def test_redoubled_undertricks_are_twice_doubled() -> None:
    for vul in (False, True):
        for down in range(1, 8):
            x = contract_score(7, Strain.SPADES, 1, 13 - down, vul)
            xx = contract_score(7, Strain.SPADES, 2, 13 - down, vul)
            assert xx == 2 * x


def test_partscore_game_and_slam_bonuses() -> None:
    assert contract_score(2, Strain.SPADES, 0, 8, False) == 110
    assert contract_score(3, Strain.NOTRUMP, 0, 9, False) == 400
    assert contract_score(5, Strain.CLUBS, 0, 11, True) == 600
    assert contract_score(4, Strain.CLUBS, 0, 10, True) == 130  # 80 is no game
    assert contract_score(6, Strain.NOTRUMP, 0, 12, True) == 1440
    assert contract_score(7, Strain.NOTRUMP, 0, 13, False) == 1520
    assert contract_score(1, Strain.NOTRUMP, 1, 7, False) == 180  # 80 is no game: 80+50+50


def test_undoubled_undertricks() -> None:
    assert contract_score(4, Strain.SPADES, 0, 7, False) == -150
    assert contract_score(4, Strain.SPADES, 0, 7, True) == -300


def test_passed_out_scores_zero() -> None:
    assert Contract.passed_out().score(True) == 0
    assert score(Contract.passed_out()) == 0


@pytest.mark.parametrize(
    ("level", "penalty", "tricks"), [(0 + 8, 0, 7), (3, 3, 9), (3, 0, 14), (3, 0, -1)]
)
def test_bad_arguments_raise(level: int, penalty: int, tricks: int) -> None:
    with pytest.raises(BridgeInputError):
        contract_score(level, Strain.SPADES, penalty, tricks, False)


def test_score_needs_a_result() -> None:
    with pytest.raises(BridgeInputError, match="no result"):
        score(Contract.from_str("4SN"))
