"""Auctions: legality, final contract and declarer, pass-outs, PBN Auction sections."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.bridge.auction import (
    Auction,
    AuctionError,
    Call,
    final_contract,
    parse_pbn_auction,
)
from engines.bridge.pbn import loads
from engines.bridge.seats import Seat, Strain


def test_simple_auction() -> None:
    a = Auction.from_calls("N", ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"])
    assert a.is_complete and not a.is_passed_out
    assert str(a.contract) == "3NTN" and a.declarer == Seat.NORTH


def test_declarer_is_first_of_side_to_name_the_strain() -> None:
    # N opens 1H, S raises to 4H: N is declarer, even though S bid last.
    a = Auction.from_calls(
        "N", ["1H", "Pass", "2C", "Pass", "2H", "Pass", "4H", "Pass", "Pass", "Pass"]
    )
    assert str(a.contract) == "4HN"
    # S names spades first, N bids the final 4S: declarer S
    b = Auction.from_calls(
        "N", ["1D", "Pass", "1S", "Pass", "2S", "Pass", "4S", "Pass", "Pass", "Pass"]
    )
    assert b.declarer == Seat.SOUTH
    # the opponents' earlier spade bid does not count
    c = Auction.from_calls(
        "E", ["1S", "2H", "2S", "4H", "Pass", "Pass", "4S", "Pass", "Pass", "Pass"]
    )
    assert c.declarer == Seat.EAST and c.contract.strain == Strain.SPADES


def test_doubles_and_redoubles() -> None:
    a = Auction.from_calls("W", ["1S", "X", "XX", "Pass", "Pass", "Pass"])
    assert str(a.contract) == "1SWxx"
    b = Auction.from_calls("N", ["1C", "X", "1H", "Pass", "Pass", "Pass"])
    assert b.contract.penalty == 0  # a new bid cancels the double
    c = Auction.from_calls("S", ["4H", "Pass", "Pass", "X", "Pass", "Pass", "Pass"])
    assert str(c.contract) == "4HSx"  # balancing double from W (pass, pass before)


def test_passed_out() -> None:
    a = Auction.from_calls("E", ["Pass"] * 4)
    assert a.is_passed_out and a.contract is not None and a.contract.is_passout
    assert final_contract("N", ["AP"]).is_passout
    assert Auction.from_calls("N", ["Pass", "Pass", "Pass"]).contract is None


@pytest.mark.parametrize(
    ("dealer", "calls", "reason"),
    [
        ("N", ["1S", "1H"], "insufficient"),
        ("N", ["1NT", "1NT"], "insufficient"),
        ("N", ["1H", "Pass", "X"], "partner's bid"),
        ("N", ["X"], "no bid"),
        ("N", ["1H", "X", "X"], "already doubled"),
        ("N", ["1H", "XX"], "without an opponent's double"),
        ("N", ["1H", "X", "Pass", "XX"], "partner's double"),
        ("N", ["Pass"] * 4 + ["1C"], "after the auction has ended"),
        ("N", ["1C", "Pass", "Pass", "Pass", "Pass"], "after the auction has ended"),
    ],
)
def test_illegal_calls(dealer: str, calls: list[str], reason: str) -> None:
    with pytest.raises(AuctionError, match=reason):
        Auction.from_calls(dealer, calls)


def test_error_names_the_call_and_seat() -> None:
    with pytest.raises(AuctionError, match=r"call 2 \(E\)"):
        Auction.from_calls("N", ["2S", "2H"])


def test_legal_calls() -> None:
    a = Auction.from_calls("N", ["7NT"])
    assert [str(c) for c in a.legal_calls()] == ["Pass", "X"]
    assert len(Auction(Seat.NORTH).legal_calls()) == 36
    assert Auction.from_calls("N", ["AP"]).legal_calls() == []


def test_unfinished_auction_has_no_contract() -> None:
    with pytest.raises(AuctionError, match="has not ended"):
        final_contract("N", ["1C", "Pass"])


def test_call_parsing() -> None:
    assert str(Call.from_str("1n")) == "1NT" and Call.from_str("dbl") == Call("double")
    assert str(Call.from_str("Rdbl")) == "XX" and Call.from_str("7♠").strain == Strain.SPADES
    with pytest.raises(AuctionError, match="unknown call"):
        Call.from_str("8C")


def test_pbn_auction_section() -> None:
    text = """[Dealer "E"]
[Deal "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"]
[Auction "E"]
1D =1= Pass 1S! $3 Pass
2S Pass 4S AP
[Note "1:could be short"]
"""
    (board,) = loads(text)
    auction = parse_pbn_auction(board.tags["Auction"], board.sections["Auction"])
    assert str(auction.contract) == "4SW" and auction.is_complete


@given(st.lists(st.sampled_from(["Pass", "X", "XX", "1C", "1NT", "2H", "3S", "7NT", "AP"])))
def test_fuzz_auctions_are_checked(calls: list[str]) -> None:
    try:
        auction = Auction.from_calls("S", calls)
    except AuctionError:
        return
    contract = auction.contract
    if contract is not None and not contract.is_passout:
        assert contract.declarer is not None
