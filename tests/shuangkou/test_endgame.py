"""The exact end-game solver against plain minimax (no pruning, no table) on tiny positions."""

from __future__ import annotations

import copy
import random

import pytest
import shuangkou_oracle as oracle
from shuangkou_strategies import random_counter, to_array, to_counter

from engines.shuangkou.cards import card_names
from engines.shuangkou.endgame import SearchLimitError, solve_endgame
from engines.shuangkou.game import Round
from engines.shuangkou.rules import Policy


def minimax(game: Round) -> int:
    """Side 0's points under best play, by exhaustive search with oracle move lists."""
    if game.is_over:
        return game.result().points[0]
    hand = to_counter(game.hands[game.to_move])
    previous = None
    if not game.leading:
        previous = oracle.classify(to_counter(game.last_play), game.policy.sf_bomb)
    actions = [card_names(to_array(p)) for p in oracle.brute_force_plays(
        hand, previous, game.policy.sf_bomb)]
    if not game.leading:
        actions.append("pass")
    values = []
    for action in actions:
        child = copy.deepcopy(game)
        child.play(action)
        values.append(minimax(child))
    return max(values) if game.to_move % 2 == 0 else min(values)


def tiny_position(rng: random.Random, policy: Policy) -> Round:
    pool = random_counter(rng, rng.randint(5, 8), packed=True)
    cards = [card for card, n in pool.items() for _ in range(n)]
    rng.shuffle(cards)
    hands = [[] for _ in range(4)]
    for i, card in enumerate(cards):
        hands[i % 4 if i < 4 else rng.randrange(4)].append(card)
    arrays = [card_names(to_array(to_counter_list(h))) for h in hands]
    game = Round(arrays, leader=rng.randrange(4), policy=policy)
    if rng.random() < 0.5:  # start mid-trick: the leader has made a random lead
        lead = rng.choice(list(game.legal_plays()))
        game.play(lead)
    return game


def to_counter_list(cards):
    from collections import Counter

    return Counter(cards)


@pytest.mark.parametrize("seed", range(24))
def test_solver_equals_minimax(seed):
    rng = random.Random(seed)
    policy = Policy(rng.choice(["bomb", "straight"]), rng.choice([(3, 2, 1), (5, 3, 1)]))
    game = tiny_position(rng, policy)
    if game.is_over:
        return
    expected = minimax(game)
    result = solve_endgame(game, tt_bits=12)
    assert result.points == expected
    values = dict((str(a), v) for a, v in result.action_values)
    for action, value in result.action_values:
        child = copy.deepcopy(game)
        child.play(action)
        assert minimax(child) == value
    assert values[str(result.best_play)] == expected
    replay = copy.deepcopy(game)
    for seat, action in result.line:
        assert replay.to_move == seat
        replay.play(action)
    assert replay.is_over and replay.result().points[0] == expected
    assert result.finishing_order == replay.finished


def test_node_limit_is_reported():
    rng = random.Random(3)
    hands = [[str(c) for c in h] for h in _deal(rng, 8)]
    with pytest.raises(SearchLimitError):
        solve_endgame(Round(hands, leader=0), node_limit=50)


def _deal(rng, size):
    from engines.shuangkou.cards import deck_list

    deck = deck_list()
    rng.shuffle(deck)
    return [deck[i * size : (i + 1) * size] for i in range(4)]


def test_double_win_flag():
    # Seat 0 holds a king bomb and seat 2 one card: 0 leads the bomb, nobody can beat
    # it, 0 is out, 2 leads by 接风 and is out too: a forced double win.
    game = Round([["LJ", "LJ", "BJ", "BJ"], ["S3", "S4"], ["H5"], ["S6", "S7"]], leader=0)
    result = solve_endgame(game)
    assert result.points == 3 and result.double_win and result.winning_side == (0, 2)
    assert result.finishing_order == [0, 2]
