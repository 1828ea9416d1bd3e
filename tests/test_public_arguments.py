"""Public constructors and functions refuse arguments of the wrong type or range with a named
InputError subclass (the fuzz suite, tests/fuzz, throws junk at every one of them)."""

from __future__ import annotations

import numpy as np
import pytest

from engines.bridge import (
    Auction,
    AuctionError,
    BridgeInputError,
    Call,
    Contract,
    DDTable,
    DealView,
    Seat,
    Strain,
    dd_score,
    is_vulnerable,
    lin,
    pbn,
    read_pbn,
)
from engines.bridge.errors import SeatError, StrainError


@pytest.mark.parametrize(
    ("args", "error", "needle"),
    [
        ((None, Strain.SPADES), BridgeInputError, "contract level: expected an integer"),
        ((4.0, Strain.SPADES), BridgeInputError, "contract level: expected an integer"),
        ((True, Strain.SPADES), BridgeInputError, "contract level: expected an integer"),
        ((4, 3), StrainError, "contract strain"),
        ((4, "Z"), StrainError, "unknown strain"),
        ((4, "S", 4), SeatError, "unknown seat 4"),
        ((4, "S", "N", 1.0), BridgeInputError, "contract penalty"),
        ((4, "S", "N", 0, 0.0), BridgeInputError, "contract result"),
        ((8, "S", "N"), BridgeInputError, "not 1..7"),
    ],
)
def test_contract_fields_are_checked(args: tuple, error: type, needle: str) -> None:
    with pytest.raises(error, match=needle):
        Contract(*args)


def test_contract_text_fields_become_enums_and_score_checks_its_arguments() -> None:
    assert Contract(4, "S", "n") == Contract(4, Strain.SPADES, Seat.NORTH)
    with pytest.raises(BridgeInputError, match="vulnerable must be True or False"):
        Contract(4, "S", "N").score("yes", 10)  # type: ignore[arg-type]
    with pytest.raises(BridgeInputError, match="tricks: expected an integer"):
        Contract(4, "S", "N").score(False, 10.0)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda: Auction(None), "unknown seat None"),  # type: ignore[arg-type]
        (lambda: Auction("N", 5), "calls: expected a list"),  # type: ignore[arg-type]
        (lambda: Auction("N", [3]), "must be a Call or text"),
        (lambda: Auction.from_calls(7, []), "unknown seat 7"),
        (lambda: Auction("N", [Call("bid", 1.0, Strain.SPADES)]), "bad call"),  # type: ignore[arg-type]
        (lambda: Auction("N", [Call("pass", 1)]), "bad call"),
        (lambda: Call.from_str(None), "must be text"),  # type: ignore[arg-type]
        (lambda: Auction("N").is_legal(5), "must be a Call or text"),  # type: ignore[arg-type]
    ],
)
def test_auctions_refuse_bad_dealers_and_calls(make, needle: str) -> None:
    with pytest.raises((AuctionError, SeatError), match=needle):
        make()


def test_enum_lookups_raise_the_game_error() -> None:
    with pytest.raises(SeatError, match="unknown seat 7"):
        Seat(7)
    with pytest.raises(StrainError, match="unknown strain None"):
        Strain(None)  # type: ignore[arg-type]


def test_dd_tables_views_and_scores_check_their_inputs() -> None:
    with pytest.raises(BridgeInputError, match="5 strains"):
        DDTable(None)
    with pytest.raises(BridgeInputError, match=r"integers 0\.\.13"):
        DDTable(np.full((5, 4), 14))
    with pytest.raises(BridgeInputError, match=r"integers 0\.\.13"):
        DDTable(np.full((5, 4), np.nan))
    table = DDTable(np.full((5, 4), 7))
    with pytest.raises(BridgeInputError, match="DealView needs"):
        DealView(np.zeros((2, 3)))
    with pytest.raises(BridgeInputError, match="DealView needs"):
        DealView(np.full((1, 4, 4), 9000, dtype=np.uint16))
    with pytest.raises(BridgeInputError, match="contract must be a Contract"):
        dd_score(table, None)  # type: ignore[arg-type]
    with pytest.raises(SeatError):
        is_vulnerable("All", None)  # type: ignore[arg-type]
    with pytest.raises(BridgeInputError, match="unknown vulnerability"):
        is_vulnerable(None, Seat.NORTH)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "read",
    [
        lambda: read_pbn(None),
        lambda: read_pbn([None]),
        lambda: pbn.loads(b"[Board]"),
        lambda: pbn.read_deal_file(None),
        lambda: lin.loads(None),
        lambda: lin.read_lin(7),
        lambda: lin.load(None),
    ],
)
def test_readers_refuse_what_is_not_a_path_text_or_file(read) -> None:
    with pytest.raises(BridgeInputError, match="expected"):
        read()


def test_event_records_are_checked_against_their_fields() -> None:
    from engines.events import EventInputError, Pair, Standing, TableResult

    with pytest.raises(EventInputError, match=r"Pair\.players: expected tuple\[str, str\]"):
        Pair(1, ("Ann", 7))  # type: ignore[arg-type]
    with pytest.raises(EventInputError, match=r"TableResult\.score: expected int"):
        TableResult("a", "b", "c", "d", 420.5)  # type: ignore[arg-type]
    with pytest.raises(EventInputError, match=r"Standing\.boards"):
        Standing(1, 3, None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call",
    [
        "board_values(np.zeros((2, 3)), 'mp')",
        "board_values([1, 2], ['mp'])",
        "datum(None)",
        "choose_bye([None])",
        "standing_order('zz')",
        "pair_round([], [(1,)])",
        "event_standings(None)",
        "swiss_ranking(None)",
        "pairs_event(None)",
        "next_round(None)",
        "ladder(['a'], [None])",
        "team_match(True)",
        "tiedian_result(0, 0, 0)",
        "tiedian_session('zz')",
        "rate_week(None, [])",
        "rate_weeks({'a': 1}, [])",
        "record_mismatches(None)",
        "register(None)",
        "run_event(4, 'mp', 'zz')",
        "masterpoints(2**40)",
        "verify_file(None)",
    ],
)
def test_event_functions_refuse_junk(call: str) -> None:
    import engines.events as events
    from engines.errors import InputError

    with pytest.raises(InputError):
        eval(call, {"np": np, **{name: getattr(events, name) for name in events.__all__}})


@pytest.mark.parametrize(
    "call",
    [
        "sk.play_round([None] * 4, random.Random(1))",
        "sk.play_round([sk.RandomPlayer()] * 3, random.Random(1))",
        "sk.play_round([sk.RandomPlayer()] * 4, 7)",
        "sk.play_round([sk.RandomPlayer()] * 4, random.Random(1), leader=4)",
        "sk.play_round([sk.RandomPlayer()] * 4, random.Random(1), policy='bomb')",
        "sk.play_match([sk.RandomPlayer()] * 4, 1.5, random.Random(1))",
        "sk.solve_endgame(sk.Round.deal(random.Random(1)), tt_bits=20.0)",
        "sk.solve_endgame(sk.Round.deal(random.Random(1)), node_limit=0)",
        "sk.solve_endgame(sk.Round.deal(random.Random(1)), line='yes')",
        "sk.Round(['S3', '', 'H4', ''], 0, finished=None)",
        "sk.Round(['S3', '', 'H4', ''], True, finished=[1, 3])",
        "sk.classify('S3', policy=None)",
        "sk.round_result(None)",
        "sk.card_names(np.zeros((2, 3)))",
        "sk.trick_next_many([1.5], [0], [0])",
        "sj.play_match([None] * 4, random.Random(1))",
        "sj.play_match([sj.RandomPlayer()] * 4, None)",
        "sj.play_match([sj.RandomPlayer()] * 4, random.Random(1), max_rounds=0.5)",
        "sj.play_match([sj.RandomPlayer()] * 4, random.Random(1), observer=3)",
        "sj.Round([sj.RandomPlayer()] * 4, random.Random(1), levels=None)",
        "sj.Round([sj.RandomPlayer()] * 4, random.Random(1), levels=[2.0, 2.0])",
        "sj.Round([sj.RandomPlayer()] * 4, random.Random(1), declarer=7)",
        "sj.Round([sj.RandomPlayer()] * 4, random.Random(1), policies='x')",
        "rk.Position(None, ())",
        "rk.Position((), [rk.Tile('R', 14)])",
        "rk.best_moves([None])",
        "rk.check_meld([rk.Tile('R', 5)])",
        "rk.check_move(None, None)",
        "rk.format_meld(None)",
        "rk.validate_set(None)",
    ],
)
def test_game_entry_points_refuse_junk(call: str) -> None:
    import random

    import engines.rummikub as rk
    import engines.shengji as sj
    import engines.shuangkou as sk
    from engines.errors import InputError

    with pytest.raises(InputError):
        eval(call, {"np": np, "random": random, "rk": rk, "sj": sj, "sk": sk})


def test_positions_hold_checked_tuples_of_tiles() -> None:
    from engines.rummikub import Position, Tile

    position = Position([["R5", "R6", "R7"]], ["R8"])  # type: ignore[list-item]
    assert position.table == ((Tile("R", 5), Tile("R", 6), Tile("R", 7)),)
    assert position.rack == (Tile("R", 8),)


@pytest.mark.parametrize(
    "call",
    [
        "ResultStore(None)",
        "ResultStore(str(tmp / 'r.sqlite'), readonly='no')",
        "get_task(['bridge-par'])",
        "register_task(None)",
        "run_batch('inputs.jsonl', 'bridge-par', str(tmp / 'r.sqlite'))",
        "run_batch(['inputs.jsonl'], 'bridge-par', None)",
        "run_batch(['inputs.jsonl'], 'bridge-par', str(tmp / 'r.sqlite'), jobs=1.5)",
        "run_batch(['inputs.jsonl'], 'bridge-par', str(tmp / 'r.sqlite'), chunk_size=0)",
        "run_batch(['inputs.jsonl'], 'bridge-par', str(tmp / 'r.sqlite'), strict='yes')",
        "run_batch(['inputs.jsonl'], 'bridge-par', str(tmp / 'r.sqlite'), on_bad_input=3)",
    ],
)
def test_batch_entry_points_refuse_junk_and_create_nothing(call: str, tmp_path) -> None:
    from engines.batch import ResultStore, get_task, register_task, run_batch
    from engines.errors import InputError

    names = {"ResultStore": ResultStore, "get_task": get_task, "register_task": register_task}
    with pytest.raises(InputError):
        eval(call, {**names, "run_batch": run_batch, "tmp": tmp_path})
    assert list(tmp_path.iterdir()) == []
