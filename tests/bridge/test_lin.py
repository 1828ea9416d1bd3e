"""LIN import (md with dealer digit, S W N E order, optional fourth hand) and export."""

import io
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bridge.cards import Deal
from engines.bridge.lin import dump, dumps, load, loads, read_lin
from engines.bridge.seats import Seat

DEAL = Deal.from_pbn("N:65432.J76.AKQ.T9 .5432.JT98.AKQ87 AKQJ.T98.765.432 T987.AKQ.432.J65")
# md order S, W, N, E; dealer digit 1 = South
MD = "md|1SAKQJHT98D765C432,ST987HAKQD432CJ65,S65432HJ76DAKQCT9,|"
RECORD = (
    "qx|o2|pn|Sam,Wes,Nat,Eve|" + MD + "sv|n|ah|Board 2|"
    "mb|1N!|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|C5|pc|C9|pc|CA|pc|C2|pc|H2|"
)


def test_md_order_dealer_and_missing_fourth_hand() -> None:
    (board,) = loads(RECORD)
    assert board.errors == []
    assert board.deal == DEAL
    assert board.dealer == Seat.SOUTH and board.vulnerability == "NS" and board.board_number == 2
    assert board.tags["North"] == "Nat" and board.tags["West"] == "Wes"
    assert board.tags["Room"] == "Open"


def test_auction_and_play_become_pbn_sections() -> None:
    (board,) = loads(RECORD)
    assert board.tags["Auction"] == "S"
    assert board.sections["Auction"] == ["1NT Pass 3NT Pass Pass Pass"]
    assert board.tags["Contract"] == "3NT" and board.tags["Declarer"] == "S"
    # W leads C5, N C9, E CA, S C2: E wins and leads H2; rows are seat columns W N E S
    assert board.tags["Play"] == "W"
    assert board.sections["Play"] == ["C5 C9 CA C2", "- - H2 -"]


def test_several_boards_and_line_numbers() -> None:
    text = RECORD + "\n" + MD.replace("|1S", "|3S") + "sv|b|ah|Board 3|\nmd|9S,S,S,S|ah|Board 4|"
    boards = loads(text)
    assert [b.board_number for b in boards] == [2, 3, 4]
    assert boards[1].dealer == Seat.NORTH and boards[1].vulnerability == "Both"
    messages = [str(e) for e in boards[2].errors]
    assert any(m.startswith("line 3: board 4: md: dealer digit 9") for m in messages)


def test_defects_are_collected() -> None:
    bad = "md|1SAKQJHT98D765C43,ST987HAKQD432CJ65,S65432HJ76DAKQCT9,|sv|z|mb|1C|mb|1C|"
    (board,) = loads(bad)
    text = " | ".join(e.message for e in board.errors)
    assert "unknown vulnerability 'z'" in text
    assert "insufficient" in text
    assert "cards" in text  # S holds 12, so E gets 14 -> hand sizes reported
    assert board.deal is None
    (board,) = loads("md|1SAKQXJ,,,|")
    assert "bad character 'X'" in board.errors[0].message


def test_illegal_play_is_reported() -> None:
    (board,) = loads(RECORD.replace("pc|C9|", "pc|SA|"))
    assert any("pc: trick 1: N plays SA, not in hand" in e.message for e in board.errors)


def test_export_round_trip(tmp_path: Path) -> None:
    boards = loads(RECORD)
    text = dumps(boards)
    assert text.startswith(
        "pn|Sam,Wes,Nat,Eve|md|1SAKQJHT98D765C432,ST987HAKQD432CJ65,S65432HJ76DAKQCT9,"
    )
    (again,) = loads(text)
    assert again.deal == DEAL and again.dealer == Seat.SOUTH and again.vulnerability == "NS"
    assert again.sections["Auction"] == boards[0].sections["Auction"]
    path = tmp_path / "x.lin"
    with path.open("w") as fp:
        dump(boards, fp)
    assert read_lin(path)[0].deal == DEAL
    assert load(io.StringIO(text))[0].deal == DEAL


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["md", "|", "1", "3", "S", "H", "AKQ", "T9", "10", ",", "sv", "b", "mb",
                         "p", "1N", "pc", "SA", "ah", "Board 7", "qx", "\n", "x"]),
        max_size=50,
    ).map("".join)
)  # fmt: skip
def test_fuzz_lin_parser_never_crashes(text: str) -> None:
    for board in loads(text):
        assert all(e.line >= 1 for e in board.errors)
    dumps(loads(text))
