"""House-rule policies: the defaults are the rules document; the options change what they say."""

from __future__ import annotations

from engines.cli import main
from engines.shengji.rules import (
    DEFAULT_POLICIES,
    BottomPolicy,
    ThrowPenalty,
    ThrowWinnerPolicy,
    TrumpContext,
    bottom_multiplier,
    score_round,
    trick_winner,
)

W21 = ["SA SA SK", "D3 D3 D8", "D4 D4 D6", "S9 S10 SJ"]


def test_defaults_are_the_rules():
    assert DEFAULT_POLICIES.throw_winner is ThrowWinnerPolicy.LEADING_COMPONENT
    assert DEFAULT_POLICIES.bottom is BottomPolicy.POWER_OF_TWO
    assert DEFAULT_POLICIES.throw_penalty is ThrowPenalty.NONE


def test_throw_winner_policy():
    ctx = TrumpContext("2", "D")
    assert trick_winner(W21, ctx) == 2  # the pair decides (rules)
    assert trick_winner(W21, ctx, ThrowWinnerPolicy.HIGHEST_CARD) == 1  # D8 is the top card
    # single-component leads do not depend on the policy
    plays = ["S7 S7", "H3 H5", "S9 SJ", "SK SK"]
    ctx = TrumpContext("10", "H")
    assert trick_winner(plays, ctx) == trick_winner(plays, ctx, ThrowWinnerPolicy.HIGHEST_CARD)


def test_bottom_policy():
    ctx = TrumpContext("10", "H")
    cases = {"C3": (2, 2), "C3 C3": (4, 4), "C3 C3 C4 C4": (8, 8),
             "C3 C3 C4 C4 C5 C5": (16, 12), "C3 C3 C4 C4 C5 C5 C6 C6": (32, 16)}
    for lead, (seed, anchor) in cases.items():
        assert bottom_multiplier(lead, ctx) == seed
        assert bottom_multiplier(lead, ctx, BottomPolicy.TWICE_UNIT_CARDS) == anchor


def test_penalty_points_count_for_the_defenders():
    ctx = TrumpContext("10", "H")
    levels = {"declarers": "10", "defenders": "4"}
    plain = score_round(0, 70, "S2", "C3", "declarers", levels, ctx)
    fined = score_round(0, 70, "S2", "C3", "declarers", levels, ctx, penalty_points=10)
    assert plain.declarers_keep and not fined.declarers_keep
    assert fined.defender_points == 80


def test_play_command_accepts_policies(capsys):
    args = ["shengji", "play", "--seed", "4", "-p", "random", "--throw-winner", "highest-card",
            "--bottom", "twice-unit-cards", "--throw-penalty", "ten-points"]
    assert main(args) == 0
    assert "next declarer seat" in capsys.readouterr().out
