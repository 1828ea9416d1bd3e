"""PBN: lenient import (comments, "?", 10, inheritance, sections, errors), strict export."""

import io
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines.bridge.cards import Deal
from engines.bridge.dealer_par import par
from engines.bridge.pbn import (
    PbnBoard,
    PbnSyntaxError,
    dump,
    dumps,
    load,
    loads,
    read_deal_file,
    read_pbn,
    set_analysis,
)
from engines.bridge.seats import Seat

DEAL = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"

SAMPLE = f"""% PBN 2.1
; a comment-only line
{{ a comment
   over two lines }}
[Event "Club night"]
[Board "1"]   ; trailing comment
[Dealer "E"]
[Vulnerable "All"]
[Deal "{DEAL}"]
[Auction "E"]
1NT Pass 3NT Pass
Pass Pass
[Play "S"]
S2 HA S5 S4

[Event "#"]
[Board "2"]
[Dealer "?"]
[Vulnerable "?"]
[Deal "E:T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87 AKQJ.T98.765.432"]
"""


def test_lenient_import() -> None:
    first, second = loads(SAMPLE)
    assert first.errors == [] and second.errors == []
    assert first.board_number == 1 and first.dealer == Seat.EAST
    assert first.vulnerability == "Both" and first.line == 5
    assert first.deal == Deal.from_pbn(DEAL)
    assert first.sections == {
        "Auction": ["1NT Pass 3NT Pass", "Pass Pass"],
        "Play": ["S2 HA S5 S4"],
    }
    assert list(first.tags)[:4] == ["Event", "Board", "Dealer", "Vulnerable"]
    assert "a comment-only line" in first.comments
    assert second.tags["Event"] == "Club night"  # "#" inherits the previous board's value
    assert second.dealer is None and second.vulnerability is None
    assert second.deal == first.deal  # written from East, same cards


def test_ten_as_10_and_one_missing_hand() -> None:
    text = '[Deal "N:AKQJ.1098.765.432 T987.AKQ.432.J65 65432.J76.AKQ.109 -"]\n'
    (board,) = loads(text)
    assert board.errors == [] and board.deal == Deal.from_pbn(DEAL)


@pytest.mark.parametrize(
    ("deal", "needle"),
    [
        ("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9", "truncated"),
        ("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8", "12 cards"),
        ("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8A", "CA twice"),
        (
            "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ72",
            "duplicated card C2 (held by N and W)",
        ),
        ("N:AKQJ.T98.765.43Z T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87", "bad rank"),
        ("N:AK.Q.. T9.8.. 65.4.. 32.J7..", "hand W has 4 cards (expected 3)"),
    ],
)
def test_malformed_deals_name_board_line_and_defect(deal: str, needle: str) -> None:
    text = f'[Board "9"]\n[Dealer "N"]\n\n[Board "10"]\n[Dealer "W"]\n[Deal "{deal}"]\n'
    good, bad = loads(text)
    assert [(e.line, e.board, e.message) for e in good.errors] == [
        (1, "board 9", "no Deal tag: the game has no cards")
    ]
    (error,) = bad.errors
    assert error.line == 6 and error.board == "board 10" and needle in error.message
    assert bad.deal is None
    assert str(error).startswith("line 6: board 10: ")


def test_unknown_tag_values() -> None:
    (board,) = loads(f'[Board "x3"]\n[Dealer "Q"]\n[Vulnerable "Sometimes"]\n[Deal "{DEAL}"]\n')
    messages = [(e.line, e.message) for e in board.errors]
    assert (1, "Board 'x3' is not a board number") in messages
    assert any(line == 2 and "unknown Dealer value 'Q'" in m for line, m in messages)
    assert any(line == 3 and "unknown Vulnerable value 'Sometimes'" in m for line, m in messages)
    assert board.deal is not None  # the other tags still work


def test_structure_errors_are_collected() -> None:
    text = 'stray text\n[Board "1"] junk\n[Dealer "N"\n{ never closed\n'
    boards = loads(text)
    messages = " | ".join(str(e) for b in boards for e in b.errors)
    assert "line 1" in messages and "text outside any tag" in messages
    assert "malformed tag line" in messages and "unterminated { comment" in messages


def test_missing_blank_line_between_boards() -> None:
    text = f'[Board "1"]\n[Deal "{DEAL}"]\n[Board "2"]\n[Deal "{DEAL}"]\n'
    boards = loads(text)
    assert [b.board_number for b in boards] == [1, 2] and all(not b.errors for b in boards)


def test_inheritance_without_predecessor_is_an_error() -> None:
    (board,) = loads('[Event "#"]\n')
    assert "no earlier board" in board.errors[0].message


def test_strict_export_and_round_trip() -> None:
    boards = loads(SAMPLE)
    text = dumps(boards)
    lines = text.splitlines()
    assert lines[:2] == ["% PBN 2.1", "% EXPORT"]
    assert '[Deal "E:T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87 AKQJ.T98.765.432"]' in lines
    assert '[Vulnerable "All"]' in lines
    tags = [line.split()[0][1:] for line in lines[3:18]]
    assert tags[:4] == ["Event", "Site", "Date", "Board"]
    again = loads(text)
    assert dumps(again) == text
    assert [b.deal for b in again] == [b.deal for b in boards]


def test_export_replaces_unreadable_values() -> None:
    (board,) = loads('[Board "3"]\n[Dealer "Q"]\n[Deal "N:AKQ... AKQ... - -"]\n')
    text = dumps([board])
    assert '[Dealer "?"]' in text and '[Deal "?"]' in text and "{error: line 2" in text
    assert dumps(loads(text)) == text


def test_analysis_tags_round_trip() -> None:
    board = PbnBoard.from_deal(Deal.from_pbn(DEAL), board=4, dealer="W", vulnerability="Both")
    table = {s: {p: 6 + (i + j) % 3 for j, p in enumerate("NESW")} for i, s in
             enumerate(("C", "D", "H", "S", "NT"))}  # fmt: skip
    result = par(table, "W", "Both")
    set_analysis(board, table, result)
    text = dumps([board])
    (back,) = loads(text)
    assert back.optimum_table() == table
    assert back.tags["OptimumScore"] == result.side_text()
    assert back.tags["ParContract"] == board.tags["ParContract"]
    assert len(back.sections["OptimumResultTable"]) == 20
    assert dumps([back]) == text


def test_load_dump_streams_and_paths(tmp_path: Path) -> None:
    boards = loads(SAMPLE)
    buffer = io.StringIO()
    dump(boards, buffer)
    buffer.seek(0)
    assert [b.deal for b in load(buffer)] == [b.deal for b in boards]
    path = tmp_path / "x.pbn"
    path.write_text(SAMPLE)
    assert len(read_pbn(path)) == 2 and len(read_pbn(str(path))) == 2
    with path.open() as fp:
        assert len(read_pbn(fp)) == 2


def test_read_deal_file_plain_lines(tmp_path: Path) -> None:
    path = tmp_path / "deals.txt"
    path.write_text(f"# header\n\n{DEAL}\nN:AK.. - - -\n{DEAL}\n")
    boards = read_deal_file(path)
    assert [b.line for b in boards] == [3, 4, 5]
    assert boards[0].deal == Deal.from_pbn(DEAL) and boards[1].deal is None
    assert boards[1].errors[0].line == 4
    pbn_path = tmp_path / "deals.pbn"
    pbn_path.write_text(SAMPLE)
    assert len(read_deal_file(pbn_path)) == 2


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    from engines.bridge.seats import BridgeInputError

    with pytest.raises(BridgeInputError, match="cannot open"):
        read_pbn(tmp_path / "nope.pbn")


def test_syntax_error_lists_errors() -> None:
    (board,) = loads('[Dealer "Q"]\n')
    exc = PbnSyntaxError(board.errors, "f.pbn")
    assert "f.pbn: line 1" in str(exc) and exc.errors == board.errors


PBN_ALPHABET = st.sampled_from(
    ['[', ']', '"', "{", "}", ";", "%", "#", "?", "\n", "\n\n", " ", "Deal", "Board", "Dealer",
     "N:", "AKQJ", ".", "T98", "10", "x", '[Deal "', '[Board "1"]', DEAL, "Vulnerable", "All"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(PBN_ALPHABET, max_size=40).map("".join))
@example('[Board "1"]{\n}%')  # a "%" after a comment: a section row, not an escape line
def test_fuzz_reader_never_crashes(text: str) -> None:
    boards = loads(text)
    out = dumps(boards)
    assert dumps(loads(out)) == out  # export is stable


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_reader_arbitrary_text(text: str) -> None:
    for board in loads(text):
        assert all(e.line >= 1 for e in board.errors)


def test_hands_with_suit_letters_or_symbols() -> None:
    letters = "N:SAKQJ.HT98.D765.C432 ST987HAKQD432CJ65 ♠65432♥J76♦AKQ♣T9 S.H5432.DJT98.CAKQ87"
    (board,) = loads(f'[Deal "{letters}"]\n')
    assert board.errors == [] and board.deal == Deal.from_pbn(DEAL)


def test_missing_hand_with_suit_letters() -> None:
    text = "N:SAKQJ.HT98.D765.C432 ST987HAKQD432CJ65 ♠65432♥J76♦AKQ♣T9 -"
    (board,) = loads(f'[Deal "{text}"]\n')
    assert board.errors == [] and board.deal == Deal.from_pbn(DEAL)
