"""Contract notation: every accepted form, the writer, and fuzzing of the parser."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.bridge.contract import Contract, parse_contracts
from engines.bridge.seats import BridgeInputError, Seat, Strain


@pytest.mark.parametrize(
    ("text", "level", "strain", "declarer", "penalty", "result"),
    [
        ("4SN", 4, Strain.SPADES, Seat.NORTH, 0, None),
        ("4S N", 4, Strain.SPADES, Seat.NORTH, 0, None),
        ("4HN=", 4, Strain.HEARTS, Seat.NORTH, 0, 0),
        ("5CEx-2", 5, Strain.CLUBS, Seat.EAST, 1, -2),
        ("3NTWxx+1", 3, Strain.NOTRUMP, Seat.WEST, 2, 1),
        ("3NTXW", 3, Strain.NOTRUMP, Seat.WEST, 1, None),
        ("3NX W", 3, Strain.NOTRUMP, Seat.WEST, 1, None),
        ("3N*S-1", 3, Strain.NOTRUMP, Seat.SOUTH, 1, -1),
        ("4S*-E-1", 4, Strain.SPADES, Seat.EAST, 1, -1),
        ("4N-W+1", 4, Strain.NOTRUMP, Seat.WEST, 0, 1),
        ("3NT", 3, Strain.NOTRUMP, None, 0, None),
        ("♠4"[1] + "♠", 4, Strain.SPADES, None, 0, None),
        ("7nts=", 7, Strain.NOTRUMP, Seat.SOUTH, 0, 0),
        ("2dxxe-3", 2, Strain.DIAMONDS, Seat.EAST, 2, -3),
    ],
)
def test_accepted_forms(text, level, strain, declarer, penalty, result) -> None:
    c = Contract.from_str(text)
    assert (c.level, c.strain, c.declarer, c.penalty, c.result) == (
        level, strain, declarer, penalty, result,
    )  # fmt: skip


def test_multi_seat_dds_forms() -> None:
    assert [str(c) for c in parse_contracts("4S*-EW-1")] == ["4SEx-1", "4SWx-1"]
    assert [str(c) for c in parse_contracts("3N-NS")] == ["3NTN", "3NTS"]
    with pytest.raises(BridgeInputError, match="2 declarers"):
        Contract.from_str("3N-NS")


def test_pbn_tag_form_with_separate_declarer() -> None:
    c = Contract.from_str("3NTX", declarer="S")
    assert str(c) == "3NTSx" and c.pbn_contract() == "3NTX"
    with pytest.raises(BridgeInputError, match="declarer"):
        Contract.from_str("3NTXN", declarer="S")


@pytest.mark.parametrize("text", ["Pass", "pass", "P", "AP", "passed out"])
def test_passout(text: str) -> None:
    c = Contract.from_str(text)
    assert c.is_passout and str(c) == "Pass" and c.score(True) == 0 and c.bid_index == -1


@pytest.mark.parametrize(
    "text", ["", "8S", "0S", "4Z", "4SQ", "4SN+8", "1CN-8", "4SXXXN", "4SXNX", "4S-", "S4"]
)
def test_rejected(text: str) -> None:
    with pytest.raises(BridgeInputError):
        Contract.from_str(text)


def test_writer_round_trip_of_every_contract() -> None:
    for level in range(1, 8):
        for strain in Strain:
            for seat in Seat:
                for penalty in range(3):
                    for tricks in range(14):
                        c = Contract(level, strain, seat, penalty, tricks - level - 6)
                        assert Contract.from_str(str(c)) == c


def test_properties() -> None:
    c = Contract.from_str("4HS").with_tricks(11)
    assert str(c) == "4HS+1" and c.tricks == 11 and c.tricks_needed == 10
    assert Contract.from_str("1C").bid_index == 0 and Contract.from_str("7NT").bid_index == 34
    assert Contract.from_str("4SEx-2").score_ns("EW") == 500
    assert Contract.from_str("4SN=").score_ns("Both") == 620


@given(st.text(max_size=20))
def test_parser_fuzz_never_crashes(text: str) -> None:
    try:
        contracts = parse_contracts(text)
    except BridgeInputError:
        return
    for c in contracts:
        assert Contract.from_str(str(c)) == c


@given(st.text(alphabet="1234567890CDHSNTXxEW*-+=p ", max_size=12))
def test_parser_fuzz_contract_alphabet(text: str) -> None:
    try:
        contracts = parse_contracts(text)
    except BridgeInputError:
        return
    assert contracts
