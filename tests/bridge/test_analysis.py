"""Board analysis and ``qipai bridge analyse`` / ``play``.

The CLI plumbing is tested with the solver replaced by the corpus tables (a stand-in
``engines.bridge.dd`` module), so these tests check our code, not the solver's; the
tests at the end run the real solver on the shipped 100-board file.
"""

import importlib
import json
import sys
import types
from pathlib import Path

import pytest

from engines.bridge import analysis
from engines.bridge.analysis import analyse, dd_score, format_text
from engines.bridge.cards import Deal
from engines.bridge.pbn import PbnBoard, dumps, read_pbn
from engines.bridge.seats import BridgeInputError, Seat
from engines.cli import main

DATA = Path(__file__).parent.parent / "data" / "bridge"
RECORDS = [json.loads(line) for line in (DATA / "deals.jsonl").read_text().splitlines() if line]
BY_PBN = {Deal.from_pbn(r["pbn"]).to_pbn(): r for r in RECORDS}


def test_analyse_with_a_known_table() -> None:
    record = RECORDS[0]
    result = analyse(record["pbn"], "N", "NS", table=record["dd"], board=3)
    assert result.par.to_dict()["score"] == record["par_by_dealer"]["N"]["NS"]["score"]
    assert len(result.contracts) == 20
    cell = next(c for c in result.contracts if c.strain == "NT" and c.declarer == "N")
    assert (cell.contract, cell.tricks, cell.score_ns, cell.imps_vs_par) == ("5NTN=", 11, 660, 0)
    record_dict = result.to_dict()
    assert record_dict["dd"] == record["dd"] and record_dict["board"] == 3
    assert json.loads(json.dumps(record_dict))["par"]["contracts"] == ["3NTN+2", "3NTS+2"]


def test_defaults_from_board_number() -> None:
    record = RECORDS[1]
    result = analyse(record["pbn"], table=record["dd"], board=7)
    assert result.dealer == Seat.SOUTH and result.vulnerability == "Both"
    plain = analyse(record["pbn"], table=record["dd"])
    assert plain.dealer == Seat.NORTH and plain.vulnerability == "None"
    assert format_text(plain).startswith("Deal   Dealer N   Vulnerable None")


def test_dd_score() -> None:
    dd = RECORDS[0]["dd"]  # N-S take 11 tricks in notrump
    assert dd_score(dd, "3NTN", "None") == 460
    assert dd_score(dd, "6NTS", "Both") == -100
    assert dd_score(dd, "4SEx", "None") == 2000  # E-W take 2 tricks: 8 down doubled, NV
    assert dd_score(dd, "Pass") == 0
    with pytest.raises(BridgeInputError, match="declarer"):
        dd_score(dd, "3NT")


# -- CLI with the solver replaced by the corpus tables ---------------------------------------


@pytest.fixture
def corpus_solver(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Install a stand-in ``engines.bridge.dd`` serving corpus tables; records batch sizes."""
    calls: list[int] = []
    fake = types.ModuleType("engines.bridge.dd")

    def dd_table(deal: Deal) -> dict:
        return BY_PBN[deal.to_pbn()]["dd"]

    def dd_tables(deals: list[Deal], threads: int | None = None) -> list[dict]:
        calls.append(len(deals))
        return [dd_table(d) for d in deals]

    fake.dd_table = dd_table  # type: ignore[attr-defined]
    fake.dd_tables = dd_tables  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engines.bridge.dd", fake)
    return calls


def _corpus_pbn(path: Path, count: int, extra: str = "") -> None:
    boards = []
    for i, record in enumerate(RECORDS[:count]):
        board = PbnBoard.from_deal(Deal.from_pbn(record["pbn"]), board=i + 1)
        board.tags["Dealer"] = record["dealer"]
        board.tags["Vulnerable"] = ["None", "NS", "EW", "All"][i % 4]
        boards.append(board)
    path.write_text(dumps(boards) + extra)


def test_cli_analyse_text_json_and_pbn(
    tmp_path: Path, corpus_solver: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "in.pbn"
    _corpus_pbn(src, 20)
    out_pbn = tmp_path / "out.pbn"
    assert main(["bridge", "analyse", str(src), "-o", str(out_pbn), "-j", "2"]) == 0
    text = capsys.readouterr().out
    assert text.count("Par ") == 20 and "Board 1   Dealer N   Vulnerable None" in text
    assert corpus_solver == [16, 4]  # chunks of 8 deals per thread, at least 16
    # the PBN written back carries the DD table and par, and round-trips
    boards = read_pbn(out_pbn)
    assert all(not b.errors for b in boards)
    for i, board in enumerate(boards):
        record = RECORDS[i]
        assert board.optimum_table() == record["dd"]
        vul = ["None", "NS", "EW", "Both"][i % 4]
        score = record["par_by_dealer"][record["dealer"]][vul]["score"]
        assert board.tags["OptimumScore"] == (f"NS {score}" if score >= 0 else f"EW {-score}")
    assert dumps(read_pbn(out_pbn)) == out_pbn.read_text()

    assert main(["bridge", "analyse", str(src), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 20
    first = json.loads(lines[0])
    assert first["dd"] == RECORDS[0]["dd"] and first["board"] == 1
    assert first["par"]["score"] == RECORDS[0]["par_by_dealer"]["N"]["None"]["score"]

    assert main(["bridge", "analyse", str(src), "-f", "pbn"]) == 0
    assert capsys.readouterr().out.count("[OptimumScore") == 20


def test_cli_reports_malformed_boards_and_continues(
    tmp_path: Path, corpus_solver: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "bad.pbn"
    bad = (
        '\n[Board "21"]\n[Dealer "Q"]\n'
        '[Deal "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8"]\n'
        '\n[Board "22"]\n[Deal "N:AKQJ.T98.765.432 T987.AKQ.432.J65"]\n'
    )
    _corpus_pbn(src, 3, bad)
    assert main(["bridge", "analyse", str(src)]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("Par ") == 3
    assert f"{src}: line" in captured.err and "board 21: unknown Dealer value 'Q'" in captured.err
    assert "board 21: deal: hand W has 12 cards" in captured.err
    assert "board 22: deal: expected four hands, found 2" in captured.err


def test_cli_plain_deal_file_and_lin(
    tmp_path: Path, corpus_solver: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    plain = tmp_path / "deals.txt"
    plain.write_text("# two deals\n" + "\n".join(r["pbn"] for r in RECORDS[:2]) + "\n")
    assert main(["bridge", "analyse", str(plain), "--json"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2
    from engines.bridge import lin

    lin_path = tmp_path / "x.lin"
    board = PbnBoard.from_deal(
        Deal.from_pbn(RECORDS[5]["pbn"]), board=6, dealer="E", vulnerability="EW"
    )
    lin_path.write_text(lin.dumps([board]))
    assert main(["bridge", "analyse", str(lin_path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["board"] == 6 and record["dealer"] == "E" and record["vulnerability"] == "EW"


def test_cli_errors(
    tmp_path: Path, corpus_solver: list[int], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bridge", "analyse", str(tmp_path / "missing.pbn")]) == 2
    assert "cannot open" in capsys.readouterr().err
    empty = tmp_path / "empty.pbn"
    empty.write_text("")
    assert main(["bridge", "analyse", str(empty)]) == 1
    with pytest.raises(SystemExit) as exit_info:
        main(["bridge", "analyse", str(empty), "-j", "0"])
    assert exit_info.value.code == 2
    assert "expected an integer >= 1" in capsys.readouterr().err


def test_analysis_module_exports() -> None:
    assert set(analysis.__all__) >= {"analyse", "analyse_boards", "dd_score", "format_text"}


# -- the real solver ----------------------------------------------------------------------------


def _solver_available() -> bool:
    try:
        importlib.import_module("engines.bridge.dd")
    except ModuleNotFoundError:
        return False
    return True


needs_solver = pytest.mark.skipif(not _solver_available(), reason="solver not built")


BOARDS100_DD = [
    json.loads(line) for line in (DATA / "boards100.dd.jsonl").read_text().splitlines() if line
]


def test_boards100_analyse_round_trip_against_dds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The shipped 100-board file through ``analyse -j 2 -o``: par equals DDS, PBN round-trips.

    The solver is replaced by DDS's own tables (``boards100.dd.jsonl``) so this checks the
    analysis layer alone; ``test_real_solver_on_boards100`` runs our solver on the same boards.
    """
    by_pbn = {r["pbn"]: r for r in BOARDS100_DD}
    fake = types.ModuleType("engines.bridge.dd")
    fake.dd_tables = lambda deals, threads=None: [by_pbn[d.to_pbn()]["dd"] for d in deals]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engines.bridge.dd", fake)
    out = tmp_path / "boards100-analysed.pbn"
    src = DATA / "boards100.pbn"
    assert main(["bridge", "analyse", str(src), "-j", "2", "-o", str(out), "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(records) == 100
    for record, reference in zip(records, BOARDS100_DD):
        assert record["board"] == reference["board"] and record["dealer"] == reference["dealer"]
        assert record["vulnerability"] == reference["vulnerability"]
        assert record["par"]["score"] == reference["par"]["score"]
        assert sorted(record["par"]["contracts"]) == sorted(reference["par"]["contracts"])
    boards = read_pbn(out)
    assert len(boards) == 100 and all(not b.errors for b in boards)
    assert [b.optimum_table() for b in boards] == [r["dd"] for r in BOARDS100_DD]
    assert dumps(read_pbn(out)) == out.read_text()  # strict export reads back identically


@needs_solver
@pytest.mark.slow
def test_real_solver_on_boards100(capsys: pytest.CaptureFixture[str]) -> None:
    """All 100 boards through ``analyse -j 2`` with our solver: tables and par equal DDS's
    (about half a minute on 2 cores)."""
    assert main(["bridge", "analyse", str(DATA / "boards100.pbn"), "-j", "2", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for record, reference in zip(records, BOARDS100_DD, strict=True):
        assert record["dd"] == reference["dd"]
        assert record["par"]["score"] == reference["par"]["score"]


@needs_solver
@pytest.mark.slow
def test_real_solver_matches_corpus_tables_via_analyse() -> None:
    for record in RECORDS[1:2]:
        result = analyse(record["pbn"], record["dealer"], "Both")
        assert result.table == record["dd"]
        assert result.par.score == record["par"]["Both"]["score"]


# -- play CLI, with DDS (through endplay) standing in for the solver -------------------------


@pytest.fixture
def endplay_solver(monkeypatch: pytest.MonkeyPatch):
    """A stand-in ``engines.bridge.dd.solve_position`` answering with DDS through endplay."""
    pytest.importorskip("endplay")
    from endplay.dds import solve_board
    from endplay.types import Card as ECard
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    from engines.bridge.cards import Card, Hand

    def solve_position(position: Deal, trump) -> dict:
        hands = [list(h.masks) for h in position.hands]
        leader = int(position.leader)
        for i, card in enumerate(position.trick):
            hands[(leader + i) % 4][card.suit] |= card.bit
        deal = EDeal(Deal([Hand(m) for m in hands]).to_pbn())
        deal.trump = Denom(trump.suit_index)
        deal.first = Player(leader)
        for card in position.trick:
            deal.play(ECard(str(card)))
        return {Card(c.suit.value, c.rank.value.bit_length() - 1): t for c, t in solve_board(deal)}

    fake = types.ModuleType("engines.bridge.dd")
    fake.solve_position = solve_position  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "engines.bridge.dd", fake)
    return solve_position


def test_cli_play_marks_costly_cards(
    tmp_path: Path, endplay_solver, capsys: pytest.CaptureFixture[str]
) -> None:
    from engines.bridge.seats import Strain

    record = RECORDS[0]  # N-S take 11 tricks in notrump
    deal = Deal.from_pbn(record["pbn"])
    opening = Deal(deal.hands, leader=Seat.EAST)
    values = endplay_solver(opening, Strain.NOTRUMP)
    worst = min(values, key=lambda c: values[c])
    best_value = max(values.values())
    board = PbnBoard.from_deal(deal, board=1, dealer="N", vulnerability="None")
    board.tags.update({"Contract": "3NT", "Declarer": "N"})
    path = tmp_path / "play.pbn"
    path.write_text(dumps([board]))
    assert main(["bridge", "play", str(path), "--cards", str(worst), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    (step,) = result["steps"]
    assert result["contract"] == "3NTN"
    assert step["declarer_tricks_before"] == record["dd"]["NT"]["N"]
    assert step["cost"] == best_value - values[worst]
    assert len(result["optimal"]) == 51
    # text output marks the card when it costs
    assert main(["bridge", "play", str(path), "--cards", str(worst), "-b", "1"]) == 0
    text = capsys.readouterr().out
    assert "3NTN" in text and "optimal continuation" in text
    if step["cost"]:
        assert "costs" in text


def test_cli_play_from_pbn_play_section_and_errors(
    tmp_path: Path, endplay_solver, capsys: pytest.CaptureFixture[str]
) -> None:
    record = RECORDS[0]
    deal = Deal.from_pbn(record["pbn"])
    from engines.bridge.play import optimal_line, play_to_pbn_rows
    from engines.bridge.seats import Strain

    line = optimal_line(deal, Strain.NOTRUMP, Seat.EAST, solver=endplay_solver)
    cards = [c for _, c, _ in line[:6]]
    board = PbnBoard.from_deal(deal, board=2, dealer="E", vulnerability="NS")
    board.tags.update({"Contract": "3NT", "Declarer": "N", "Play": "E"})
    board.sections["Play"] = play_to_pbn_rows(Seat.EAST, cards, Strain.NOTRUMP)
    nocontract = PbnBoard.from_deal(deal, board=3)
    path = tmp_path / "play.pbn"
    path.write_text(dumps([board, nocontract]))
    assert main(["bridge", "play", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    result = json.loads(captured.out.splitlines()[0])
    assert [s["card"] for s in result["steps"]] == [str(c) for c in cards]
    assert all(s["cost"] == 0 for s in result["steps"])
    assert "board 3: no contract" in captured.err
    assert main(["bridge", "play", str(path), "-b", "9"]) == 2


@needs_solver
def test_demo_shows_par_of_the_sample_board() -> None:
    import io

    from engines.bridge.demo import demo, sample_deals

    out = io.StringIO()
    demo(out)
    board, deal = sample_deals()[0]
    expected = analyse(deal, board=int(board), table=BY_PBN[deal.to_pbn()]["dd"])
    assert f"vulnerable {expected.vulnerability}: {expected.par}" in out.getvalue()
    assert "IMPs against par" in out.getvalue()
