"""Bridge files shaped as real software writes them (tests/data/real), read and written back.

The files: ``realbridge_notes.pbn`` (RealBridge export: several ``Note`` tags
per board, alerts ``=k=`` in the auction, play, ``Score``), the same deals as
a BBO hand record ``bbo_handrecord.lin`` (``pn`` first on every line, ``an``
explanations, ``mc`` claims), ``bridgecomposer_latin1.pbn`` (BridgeComposer:
Latin-1, a tag value continued on the next line, ``#`` inheritance, a
multi-line ``{}`` comment) and ``problems.pbn`` (an end position, a
single-hand problem with ``-`` hands, suit-letter hands, a game without a
``Deal`` tag).  endplay (the bench extra) reads what we write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines.bridge import lin
from engines.bridge.auction import parse_pbn_auction
from engines.bridge.cards import Deal
from engines.bridge.contract import Contract
from engines.bridge.pbn import dumps, loads, read_pbn, write_pbn
from engines.bridge.play import parse_pbn_play
from engines.cli import main

REAL = Path(__file__).parent.parent / "data" / "real"
BOARD_1 = "N:AT76.K.AJ842.KJ6 .987.T7.AQ975432 K8.AJT653.KQ653. QJ95432.Q42.9.T8"


def _calls(board) -> list[str]:
    auction = parse_pbn_auction(board.tags["Auction"], board.sections["Auction"])
    return [str(call) for call in auction.calls]


def _plays(board) -> list[str]:
    contract = Contract.from_str(board.tags["Contract"], declarer=board.tags["Declarer"])
    return [
        str(c) for c in parse_pbn_play(board.tags["Play"], board.sections["Play"], contract.strain)
    ]


def test_repeated_note_tags_stay_with_their_board_in_order() -> None:
    boards = read_pbn(REAL / "realbridge_notes.pbn")
    assert [b.board_number for b in boards] == [1, 2, 3]
    assert all(b.errors == [] and b.deal is not None for b in boards)
    first, second, third = boards
    assert first.tags.get_all("Note") == ["1:fourth suit, game forcing", "2:natural, 5+ diamonds"]
    assert second.tags.get_all("Note") == ["1:15-17", "2:Stayman", "3:no 4-card major"]
    assert third.tags.get_all("Note") == []
    assert [b.tags["Score"] for b in boards] == ["NS 400", "EW 630", "EW 100"]
    assert len(_plays(first)) == 16 and first.tags["West"] == "Zoë Ng"
    names = [n for n, _ in second.tags.pairs()]
    assert names.index("Note") < names.index("Play") < names.index("Score")


def test_strict_pbn_export_keeps_notes_in_order_and_reads_back_the_same() -> None:
    boards = read_pbn(REAL / "realbridge_notes.pbn")
    text = dumps(boards)
    assert text.count("[Note ") == 5
    again = loads(text)
    for before, after in zip(boards, again, strict=True):
        assert after.errors == []
        assert after.deal == before.deal
        assert after.tags.pairs()[15:] == before.tags.pairs()[15:] or (
            after.tags.get_all("Note") == before.tags.get_all("Note")
        )
        assert _calls(after) == _calls(before) and _plays(after) == _plays(before)
    assert dumps(again) == text


def test_latin1_file_is_detected_and_written_back_in_latin1(tmp_path: Path) -> None:
    boards = read_pbn(REAL / "bridgecomposer_latin1.pbn")
    assert [b.encoding for b in boards] == ["latin-1", "latin-1"]
    assert [b.errors for b in boards] == [[], []]
    first, second = boards
    assert first.tags["North"] == "José Müller" and first.tags["South"] == "Jürgen Weiß"
    # the Event value goes on on the next line; the second board inherits it with "#"
    assert first.tags["Event"] == "Championnat régional de Lévis" == second.tags["Event"]
    assert any("la coupe à pique" in c for c in first.comments)
    out = tmp_path / "out.pbn"
    assert write_pbn(out, boards) == "latin-1"
    data = out.read_bytes()
    assert "José Müller".encode("latin-1") in data and "\ufffd".encode() not in data
    assert [b.tags["North"] for b in read_pbn(out)] == ["José Müller"] * 2


def test_analyse_writes_each_file_back_in_its_encoding(tmp_path: Path) -> None:
    out = tmp_path / "analysed.pbn"
    assert main(["bridge", "analyse", str(REAL / "bridgecomposer_latin1.pbn"), "-o", str(out)]) == 0
    analysed = read_pbn(out)
    assert [b.encoding for b in analysed] == ["latin-1", "latin-1"]
    assert analysed[0].tags["West"] == "Françoise Déscamps" and analysed[0].optimum_table()
    utf8_out = tmp_path / "rb.pbn"
    assert main(["bridge", "analyse", str(REAL / "realbridge_notes.pbn"), "-o", str(utf8_out)]) == 0
    text = utf8_out.read_bytes().decode("utf-8")  # strict: UTF-8 in, UTF-8 out
    assert "Piotr Łukasz" in text and text.count("[Note ") == 5
    assert [len(b.tags.get_all("Note")) for b in read_pbn(utf8_out)] == [2, 3, 0]


def test_end_position_partial_deal_suit_letters_and_missing_deal() -> None:
    end, single, letters, no_deal = read_pbn(REAL / "problems.pbn")
    assert end.errors == [] and end.deal is not None and end.deal.tricks_left == 3
    assert single.errors == [] and single.deal is None and single.is_partial
    assert str(single.hands[2]) == "AK2.QJ3.T98.7654"
    assert "partial deal (hands N E W unknown)" in single.unusable_reason()
    assert letters.errors == [] and letters.deal == Deal.from_pbn(BOARD_1)
    assert [str(e) for e in no_deal.errors] == [
        "line 25: board 4: no Deal tag: the game has no cards"
    ]
    text = dumps([end, single, letters])
    assert '[Deal "N:AK.Q.. QJ.K.. T9.J.. 87.T.."]' in text
    assert '[Deal "N:- - AK2.QJ3.T98.7654 -"]' in text


def test_table_solves_end_positions_and_reports_each_unusable_game(
    capsys: pytest.CaptureFixture,
) -> None:
    path = REAL / "problems.pbn"
    assert main(["bridge", "table", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    solved = captured.out.splitlines()
    assert len(solved) == 2 and '"board": 1' in solved[0] and '"board": 3' in solved[1]
    assert '"NT": {"N": 2' in solved[0]  # East cashes HK, North the two top spades
    assert captured.err.splitlines() == [
        f"{path}: line 16: board 2: skipped: partial deal (hands N E W unknown): nothing to solve",
        f"{path}: line 25: board 4: no Deal tag: the game has no cards",
    ]


def test_analyse_refuses_end_positions_with_a_reason(capsys: pytest.CaptureFixture) -> None:
    path = REAL / "problems.pbn"
    assert main(["bridge", "analyse", str(path), "--json"]) == 1
    err = capsys.readouterr().err
    assert f"{path}: line 9: board 1: skipped: end position of 3 tricks" in err
    assert f"{path}: line 25: board 4: no Deal tag" in err


def test_bbo_lin_reads_names_alerts_and_play() -> None:
    boards = lin.read_lin(REAL / "bbo_handrecord.lin")
    pbn_boards = read_pbn(REAL / "realbridge_notes.pbn")[:2]
    for board, same in zip(boards, pbn_boards, strict=True):
        assert board.errors == [] and board.deal == same.deal
        assert _calls(board) == _calls(same) and _plays(board) == _plays(same)
        assert board.tags["East"] == "Piotr Łukasz"
    assert boards[1].tags.get_all("Note") == ["1:15-17"]


@pytest.mark.parametrize("fmt", ["pbn", "lin"])
def test_endplay_reads_back_the_same_deals_auctions_and_plays(fmt: str) -> None:
    endplay_format = pytest.importorskip(f"endplay.parsers.{fmt}")
    boards = read_pbn(REAL / "realbridge_notes.pbn") + lin.read_lin(REAL / "bbo_handrecord.lin")
    theirs = endplay_format.loads(dumps(boards) if fmt == "pbn" else lin.dumps(boards))
    assert len(theirs) == len(boards) == 5
    symbols = str.maketrans({"♠": "S", "♥": "H", "♦": "D", "♣": "C"})
    for ours, other in zip(boards, theirs, strict=True):
        assert other.board_num == ours.board_number
        assert Deal.from_pbn(other.deal.to_pbn()) == ours.deal
        their_calls = [str(b).translate(symbols).rstrip("!*") for b in other.auction]
        ours_calls = [c.replace("Pass", "P") for c in _calls(ours)]
        assert their_calls == ours_calls
        assert [str(c).translate(symbols) for c in other.play] == _plays(ours)
    if fmt == "lin":
        assert theirs[0].info["West"] == "Zoë Ng"
