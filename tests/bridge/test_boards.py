"""Board numbering: dealer and vulnerability for any board number."""

import pytest

from engines.bridge.boards import board_dealer, board_info, board_vulnerability
from engines.bridge.seats import BridgeInputError, Seat

RULES_CYCLE = {
    1: "None", 2: "NS", 3: "EW", 4: "Both", 5: "NS", 6: "EW", 7: "Both", 8: "None",
    9: "EW", 10: "Both", 11: "None", 12: "NS", 13: "Both", 14: "None", 15: "NS", 16: "EW",
}  # fmt: skip


def test_vulnerability_cycle_from_the_rules() -> None:
    for board, vul in RULES_CYCLE.items():
        assert board_vulnerability(board) == vul
        assert board_vulnerability(board + 16) == vul
        assert board_vulnerability(board + 160) == vul


def test_dealer_rotation() -> None:
    assert [board_dealer(b).char for b in range(1, 9)] == list("NESWNESW")
    assert board_dealer(100) == Seat.WEST  # 100 mod 4 == 0


def test_board_info() -> None:
    assert board_info(7) == (Seat.SOUTH, "Both")


@pytest.mark.parametrize("bad", [0, -3, True, "5", 2.0])
def test_bad_board_numbers(bad: object) -> None:
    with pytest.raises(BridgeInputError):
        board_dealer(bad)  # type: ignore[arg-type]
