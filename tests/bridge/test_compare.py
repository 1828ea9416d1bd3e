"""IMPs, matchpoints, Butler, cross-IMPs and VPs, with hand-worked figures."""

import math

import pytest

from engines.bridge.compare import (
    butler_datum,
    butler_imps,
    cross_imps,
    imps,
    matchpoint_percentages,
    matchpoints,
    victory_points,
)
from engines.bridge.seats import BridgeInputError

# Every band of the rules' IMP scale, both ends.
BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23), (4000, 7600, 24),
]  # fmt: skip


@pytest.mark.parametrize(("low", "high", "value"), BANDS)
def test_imp_scale(low: int, high: int, value: int) -> None:
    for diff in range(low, high + 1, 10):
        assert imps(diff) == value
        assert imps(-diff) == -value


def test_imp_examples() -> None:
    # 4S= V (620) at one table against 4S-1 V (-100) at the other: 720 -> 12 IMPs
    assert imps(620 - (-100)) == 12
    # 3NT+1 NV (430) against 4S= NV (420): 10 -> 0; 1NT= (90) vs 2S= (110): -20 -> -1
    assert imps(430 - 420) == 0 and imps(90 - 110) == -1
    assert imps(15) == 0 and imps(45) == 1  # between bands: the band it has reached


def test_matchpoints_hand_worked() -> None:
    # Five tables: 620 beats 3 and ties 1 -> 7; 170 beats -100 only -> 2; top is 8.
    scores = [620, 170, 620, 650, -100]
    assert matchpoints(scores) == [5, 2, 5, 8, 0]
    assert matchpoint_percentages(scores) == [62.5, 25.0, 62.5, 100.0, 0.0]
    assert matchpoints([50]) == [0] and matchpoint_percentages([50]) == [50.0]
    assert matchpoints([-50, -50]) == [1, 1]


def test_butler_hand_worked() -> None:
    scores = [620, 170, 620, 650, -100]
    # n = 5 -> k = 1: drop 650 and -100, mean of 170, 620, 620 = 470
    assert butler_datum(scores) == 470
    # 150 -> 4, -300 -> -7, 180 -> 5, -570 -> -11
    assert butler_imps(scores) == [4, -7, 4, 5, -11]


def test_butler_trimming_and_rounding() -> None:
    # 11 results -> k = 2: the kept 7 (400 x3, 450 x3, 475) average 432.1 -> 430
    scores = [5000, 4000, 400, 400, 400, 450, 450, 450, 475, -3000, -2000]
    assert butler_datum(scores) == 430
    assert butler_datum([-20, -30, -30, -100, 0]) == -30  # mean of -20,-30,-30 = -26.7
    assert butler_datum([-15, -25, -35]) == -30  # -25 is a half: away from zero
    assert butler_datum([15, 25, 35]) == 30
    # 40 results: k = 4 of each dropped
    scores40 = list(range(0, 400, 10))
    assert butler_datum(scores40) == 200  # mean of 40..350 = 195 -> 200
    with pytest.raises(BridgeInputError, match="at least 3"):
        butler_datum([100, 200])
    with pytest.raises(BridgeInputError, match="at least 6"):
        butler_imps([1, 2, 3, 4, 5], min_results=6)


def test_cross_imps_hand_worked() -> None:
    # 420 vs 170: +250 -> 6; 420 vs -50: +470 -> 10
    assert cross_imps([420, 170, -50]) == [16, 0, -16]
    assert cross_imps([420, 170, -50], average=True) == [8.0, 0.0, -8.0]
    assert sum(cross_imps([100, 200, 650, -800, 0])) == 0
    with pytest.raises(BridgeInputError):
        cross_imps([100])


def test_victory_points_hand_worked() -> None:
    # 16 boards: B = 60; M = 10 -> tau^(0.5) = 0.78615; (1 - 0.78615) / (1 - 0.23607) = 0.27993
    assert victory_points(10, 16) == (12.8, 7.2)
    assert victory_points(-10, 16) == (7.2, 12.8)
    assert victory_points(0, 12) == (10.0, 10.0)
    # the blowout: at 60 IMPs over 16 boards tau^3 -> 20 exactly
    assert victory_points(60, 16) == (20.0, 0.0)
    assert victory_points(1000, 16) == (20.0, 0.0)
    tau = (math.sqrt(5) - 1) / 2
    b = 15 * math.sqrt(12)
    expected = round(10 + 10 * (1 - tau ** (3 * 25 / b)) / (1 - tau**3), 2)
    assert victory_points(25, 12) == (expected, round(20 - expected, 2)) == (16.55, 3.45)


def test_victory_points_monotone_and_sums_to_20() -> None:
    previous = 10.0
    for margin in range(0, 80):
        won, lost = victory_points(margin, 14)
        assert won >= previous and math.isclose(won + lost, 20.0)
        previous = won


@pytest.mark.parametrize("boards", [0, -1, 2.5, True])
def test_victory_points_bad_boards(boards: object) -> None:
    with pytest.raises(BridgeInputError):
        victory_points(5, boards)  # type: ignore[arg-type]


def test_bad_scores() -> None:
    with pytest.raises(BridgeInputError):
        matchpoints([1, "x"])  # type: ignore[list-item]
    with pytest.raises(BridgeInputError):
        matchpoints([])
