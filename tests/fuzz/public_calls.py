"""Valid calls of the public constructors and functions that take a caller's objects.

The fuzz entries ``public.<package>`` (``entries.py``) start from one of these
calls and replace one argument, or every argument, with junk: each call must
then succeed or raise an :class:`~engines.errors.InputError`.  The valid
arguments keep every call small (few deals, one round, tiny end positions), so
that a junk argument the engine wrongly accepts still finishes quickly.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

import engines.batch as batch
import engines.bridge as bridge
import engines.events as events
import engines.rummikub as rummikub
import engines.shengji as shengji
import engines.shuangkou as shuangkou

DEAL = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"
HAND = "AKQJ.T98.765.432"
SK_END = ["S3 S3", "H4", "", ""]  # a 双扣 end position: seats 2 and 3 are out


def _sk_round() -> shuangkou.Round:
    return shuangkou.Round(SK_END, 0, finished=[2, 3])


def _standing(pair: int) -> events.Standing:
    return events.Standing(pair, 3, 2)


def _event() -> events.Event:
    pairs = tuple(events.Pair(i, (f"n{i}", f"s{i}")) for i in (1, 2, 3, 4))
    results = (events.EventResult(1, 1, 2, 420), events.EventResult(1, 3, 4, 400))
    return events.Event("pairs", "mp", pairs, results)


def _table_results() -> list[list[events.TableResult]]:
    return [
        [events.TableResult("a", "b", "c", "d", 420), events.TableResult("e", "f", "g", "h", 400)]
    ]


# name -> (callable, valid keyword arguments); each value is built fresh per call
CALLS: dict[str, tuple[Callable[..., Any], Callable[[], dict[str, Any]]]] = {
    # bridge
    "bridge.Contract": (bridge.Contract, lambda: {"level": 4, "strain": "S", "declarer": "N"}),
    "bridge.Auction": (bridge.Auction, lambda: {"dealer": "N", "calls": ["1S", "Pass"]}),
    "bridge.Auction.from_calls": (
        bridge.Auction.from_calls,
        lambda: {"dealer": "E", "calls": ["1NT", "X", "AP"]},
    ),
    "bridge.Call.from_str": (bridge.Call.from_str, lambda: {"text": "3NT"}),
    "bridge.DDTable": (bridge.DDTable, lambda: {"cells": np.full((5, 4), 6)}),
    "bridge.DealView": (bridge.DealView, lambda: {"masks": np.zeros((1, 4, 4), np.uint16)}),
    "bridge.Seat.coerce": (bridge.Seat.coerce, lambda: {"value": "W"}),
    "bridge.Card": (bridge.Card, lambda: {"suit": 0, "rank": 12}),
    "bridge.dd_score": (
        bridge.dd_score,
        lambda: {"table": np.full((5, 4), 7).tolist(), "contract": "4SN", "vulnerability": "NS"},
    ),
    "bridge.is_vulnerable": (bridge.is_vulnerable, lambda: {"vulnerability": "EW", "seat": "E"}),
    "bridge.parse_vulnerability": (bridge.parse_vulnerability, lambda: {"text": "All"}),
    "bridge.board_dealer": (bridge.board_dealer, lambda: {"board": 7}),
    "bridge.board_vulnerability": (bridge.board_vulnerability, lambda: {"board": 7}),
    "bridge.analyse": (
        bridge.analyse,
        lambda: {"deal": DEAL, "dealer": "N", "vulnerability": "NS"},
    ),
    "bridge.sides_par": (bridge.sides_par, lambda: {"deal_or_table": DEAL, "vulnerability": "NS"}),
    "bridge.matchpoint_percentages": (
        bridge.matchpoint_percentages,
        lambda: {"scores": [420, 400, -50]},
    ),
    "bridge.read_pbn": (bridge.read_pbn, lambda: {"source": f'[Board "1"]\n[Deal "{DEAL}"]\n'}),
    "bridge.simulate_lead": (
        bridge.simulate_lead,
        lambda: {"hand": HAND, "contract": "3NT", "declarer": "E", "n": 2, "seed": 1, "threads": 1},
    ),
    "bridge.simulate_contracts": (
        bridge.simulate_contracts,
        lambda: {"north": HAND, "n": 2, "strains": "NT", "declarers": "N", "seed": 1, "threads": 1},
    ),
    # events
    "events.Pair": (events.Pair, lambda: {"id": 1, "players": ("a", "b")}),
    "events.EventResult": (
        events.EventResult,
        lambda: {"board": 1, "ns": 1, "ew": 2, "ns_score": 420},
    ),
    "events.TableResult": (
        events.TableResult,
        lambda: {"north": "a", "east": "b", "south": "c", "west": "d", "score": 420},
    ),
    "events.Standing": (events.Standing, lambda: {"pair": 1, "score": Fraction(3, 2), "boards": 2}),
    "events.Challenge": (
        events.Challenge,
        lambda: {"challenger": "a", "challenged": "b", "boards": 8, "margin": 5},
    ),
    "events.TiedianBoard": (events.TiedianBoard, lambda: {"ns_score": 420, "ns_hcp": 24}),
    "events.PlayerState": (events.PlayerState, lambda: {"rate": Fraction(50), "total_boards": 3}),
    "events.board_values": (events.board_values, lambda: {"scores": [420, 400], "method": "mp"}),
    "events.datum_imps": (events.datum_imps, lambda: {"scores": [420, 400, 450]}),
    "events.stream_board": (
        events.stream_board,
        lambda: {"scores": [420, 400, 450], "min_results": 2, "max_results": 3},
    ),
    "events.team_match": (events.team_match, lambda: {"boards": [(420, -50), (100, 100)]}),
    "events.ladder": (
        events.ladder,
        lambda: {"teams": ["a", "b"], "ops": [events.Challenge("b", "a", 8, 5)], "reach": 2},
    ),
    "events.pair_round": (
        events.pair_round,
        lambda: {"standings": [_standing(p) for p in (1, 2, 3)], "history": [(1, 2)]},
    ),
    "events.choose_bye": (events.choose_bye, lambda: {"ordered": [_standing(1), _standing(2)]}),
    "events.pairs_event": (events.pairs_event, lambda: {"event": _event()}),
    "events.event_standings": (events.event_standings, lambda: {"event": _event()}),
    "events.run_event": (
        events.run_event,
        lambda: {"pairs": 4, "method": "mp", "rounds": [events.SwissRound(1, [[420], [400]])]},
    ),
    "events.rate_week": (
        events.rate_week,
        lambda: {"players": {"a": events.PlayerState(Fraction(50))}, "boards": _table_results()},
    ),
    "events.tiedian_session": (
        events.tiedian_session,
        lambda: {"boards": [events.TiedianBoard(420, 24)]},
    ),
    "events.masterpoints": (events.masterpoints, lambda: {"completed": 7}),
    "events.grade": (events.grade, lambda: {"points": 5}),
    "events.register": (events.register, lambda: {"attempts": [("a", "b"), ("c", "d")]}),
    # rummikub
    "rummikub.Tile": (rummikub.Tile, lambda: {"colour": "R", "number": 5}),
    "rummikub.Position": (
        rummikub.Position,
        lambda: {"table": [["R5", "R6", "R7"]], "rack": ["R8", "K2"]},
    ),
    "rummikub.best_moves": (
        rummikub.best_moves,
        lambda: {"positions": [rummikub.Position((), ("R1", "R2", "R3"))], "threads": 1},
    ),
    "rummikub.validate_set": (rummikub.validate_set, lambda: {"tiles": ["R5", "R6", "J"]}),
    "rummikub.check_meld": (
        rummikub.check_meld,
        lambda: {"meld": rummikub.validate_set(["K5", "R5", "B5"])},
    ),
    "rummikub.format_meld": (
        rummikub.format_meld,
        lambda: {"meld": rummikub.validate_set(["K5", "R5", "J"])},
    ),
    "rummikub.check_move": (
        rummikub.check_move,
        lambda: {
            "pos": rummikub.Position((), ("R1", "R2", "R3")),
            "move": rummikub.best_move([], "R1 R2 R3"),
        },
    ),
    # shengji
    "shengji.Round": (
        shengji.Round,
        lambda: {"players": [shengji.RandomPlayer()] * 4, "rng": random.Random(1)},
    ),
    "shengji.play_match": (
        shengji.play_match,
        lambda: {
            "players": [shengji.HeuristicPlayer()] * 4,
            "rng": random.Random(1),
            "max_rounds": 1,
        },
    ),
    "shengji.resolve_bids": (
        shengji.resolve_bids,
        lambda: {"bids": [(0, "H5", 1), (1, "S5", 2)], "level": "5", "first_round": True},
    ),
    "shengji.parse_cards": (shengji.parse_cards, lambda: {"cards": "S2 H10 BJ"}),
    # shuangkou
    "shuangkou.Round": (
        shuangkou.Round,
        lambda: {"hands": SK_END, "leader": 0, "finished": [2, 3]},
    ),
    "shuangkou.play_round": (
        shuangkou.play_round,
        lambda: {
            "players": [shuangkou.RandomPlayer(random.Random(2))] * 4,
            "rng": random.Random(1),
        },
    ),
    "shuangkou.play_match": (
        shuangkou.play_match,
        lambda: {
            "players": [shuangkou.RandomPlayer(random.Random(2))] * 4,
            "rounds": 1,
            "rng": random.Random(1),
        },
    ),
    "shuangkou.solve_endgame": (
        shuangkou.solve_endgame,
        lambda: {"game": _sk_round(), "tt_bits": 12, "node_limit": 10_000},
    ),
    "shuangkou.legal_plays": (
        shuangkou.legal_plays,
        lambda: {"hand": "S3 S3 H4", "previous": "D3"},
    ),
    "shuangkou.round_result": (shuangkou.round_result, lambda: {"order": [1, 0, 3]}),
    "shuangkou.card_names": (
        shuangkou.card_names,
        lambda: {"counts": shuangkou.parse_cards("S3 H4")},
    ),
    "shuangkou.trick_next_many": (
        shuangkou.trick_next_many,
        lambda: {"holding": np.array([7]), "last_player": np.array([0]), "passes": np.array([0])},
    ),
    # batch (the worker runs in an empty temporary folder: stray files land there)
    "batch.get_task": (batch.get_task, lambda: {"name": "bridge-par"}),
    "batch.ResultStore": (batch.ResultStore, lambda: {"path": ":memory:"}),
    "batch.run_batch": (
        batch.run_batch,
        lambda: {
            "paths": [],
            "task": "bridge-par",
            "store": ":memory:",
            "jobs": 1,
            "progress": False,
        },
    ),
}


def call(name: str, replace: dict[str, Any]) -> Any:
    """Call ``name`` with its valid arguments, ``replace`` overriding some of them."""
    function, valid = CALLS[name]
    return function(**{**valid(), **replace})


def parameters(name: str) -> list[str]:
    """The argument names of the valid call of ``name``."""
    return sorted(CALLS[name][1]())
