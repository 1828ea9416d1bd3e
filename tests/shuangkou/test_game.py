"""Rounds and matches: card conservation, every round ends, results and named errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engines.shuangkou import (
    CardTextError,
    DealError,
    FifthJokerError,
    HeuristicPlayer,
    IllegalPlayError,
    NotACombinationError,
    RandomPlayer,
    Round,
    ShuangkouInputError,
    ThirdCopyError,
    beats,
    legal_plays,
    parse_cards,
    play_match,
    play_round,
    trick_next,
)
from engines.shuangkou.cards import full_deck


@pytest.mark.parametrize("seed", range(12))
def test_simulated_rounds_conserve_cards_and_end(seed):
    rng = random.Random(seed)
    kinds = [RandomPlayer(random.Random(seed * 4 + i)) if (seed + i) % 3 else HeuristicPlayer()
             for i in range(4)]
    rec = play_round(kinds, rng)
    assert rec.hands.sum(axis=(1, 2)).tolist() == [27, 27, 27, 27]
    assert (rec.hands.sum(axis=0) == full_deck()).all()
    played = np.zeros((15, 4), dtype=np.int64)
    for _seat, cards in rec.actions:
        if cards is not None:
            played += cards
    assert (played + rec.remaining.sum(axis=0) == full_deck()).all()
    order = list(rec.result.order)
    assert all(not rec.remaining[s].any() for s in order)
    assert all(rec.remaining[s].any() for s in range(4) if s not in order)
    side = {order[0] % 2}
    assert ({0, 2} <= set(order)) != ({1, 3} <= set(order))
    assert rec.result.points[0] == -rec.result.points[1]
    assert rec.result.winning_side[0] in side


def test_replayed_rounds_follow_the_trick_procedure():
    rec = play_round([RandomPlayer(random.Random(i)) for i in range(4)], random.Random(99))
    game = Round(rec.hands, rec.leader)
    for seat, cards in rec.actions:
        assert game.to_move == seat
        game.play(cards)
    assert game.is_over and game.result() == rec.result


def test_match_leaders_and_points():
    match = play_match([HeuristicPlayer()] * 4, 4, random.Random(2))
    assert sum(r.result.points[0] for r in match.rounds) == match.points[0]
    for prev, nxt in zip(match.rounds, match.rounds[1:]):
        if not prev.result.double_win:
            assert nxt.leader == prev.result.order[0]


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("S3 X9", CardTextError),
        ("ST", CardTextError),
        ("S3 S3 S3", ThirdCopyError),
        ("LJ LJ BJ BJ BJ", FifthJokerError),
        ("LJ LJ LJ", ThirdCopyError),
    ],
)
def test_card_errors_are_named(text, error):
    with pytest.raises(error) as info:
        parse_cards(text)
    assert isinstance(info.value, ShuangkouInputError)


def test_other_named_errors():
    with pytest.raises(NotACombinationError):
        beats("S4", "S3 H4")
    with pytest.raises(NotACombinationError):
        legal_plays("S3 S4", previous="S3 H3 D3 S4 H4")
    with pytest.raises(DealError):
        Round(["S3 S3", "S3", "S4", "S5"], leader=0)
    with pytest.raises(ShuangkouInputError):
        trick_next([0, 1, 2, 3], 0, [2])  # not a prefix of the other holders
    with pytest.raises(ShuangkouInputError):
        Round([[], ["S3"], ["S4"], ["S5"]], leader=0)  # seat 0 out but not listed
    game = Round(["S3 S4", "H9", "SQ", "S8 S8"], leader=0)
    with pytest.raises(IllegalPlayError) as info:
        game.play("pass")
    assert info.value.reason == "pass_on_lead"
    with pytest.raises(IllegalPlayError) as info:
        game.play("S3 S4")
    assert info.value.reason == "not_a_combination"
    with pytest.raises(IllegalPlayError) as info:
        game.play("H9")
    assert info.value.reason == "not_held"


def test_many_random_rounds_end_and_conserve_cards():
    rng = random.Random(2026)
    players = [RandomPlayer(random.Random(i)) for i in range(4)]
    policies = [None, "straight"]
    from engines.shuangkou import Policy

    for i in range(60):
        name = policies[i % 2]
        policy = Policy() if name is None else Policy(straight_flush=name, points=(4, 2, 1))
        rec = play_round(players, rng, policy=policy)
        played = sum((c for _, c in rec.actions if c is not None), np.zeros((15, 4), np.int64))
        assert (played + rec.remaining.sum(axis=0) == full_deck()).all()
        assert len(rec.actions) <= 4 * 108
        assert abs(rec.result.points[0]) == policy.points[rec.result.partner_place - 2]
