"""Every worked example E01–E101 of the rules (docs/rules/shuangkou.md, section 10)."""

from __future__ import annotations

import pytest

from engines.shuangkou import (
    Policy,
    Round,
    beats,
    classify,
    legal_responses_count,
    round_result,
    trick_next,
)

CLASSIFY = [
    ("E01", "HA", "bomb", ("single", "A", 1)),
    ("E02", "BJ", "bomb", ("single", "BJ", 1)),
    ("E03", "S7 D7", "bomb", ("pair", "7", 2)),
    ("E04", "LJ LJ", "bomb", ("pair", "LJ", 2)),
    ("E05", "LJ BJ", "bomb", None),
    ("E06", "S2 H2 C2", "bomb", ("triple", "2", 3)),
    ("E07", "S3 H3 C3 S3", "bomb", ("bomb", "3", 4)),
    ("E08", "S9 S9 H9 H9 D9 D9 C9 C9", "bomb", ("bomb", "9", 8)),
    ("E09", "LJ LJ BJ BJ", "bomb", ("king_bomb", "BJ", 4)),
    ("E10", "LJ BJ BJ", "bomb", None),
    ("E11", "S3 H3 S4 D4 C5 C5", "bomb", ("consecutive_pairs", "5", 6)),
    ("E12", "SQ SQ HK DK SA CA", "bomb", ("consecutive_pairs", "A", 6)),
    ("E13", "SK HK SA HA S2 H2", "bomb", None),
    ("E14", "S3 S3 S4 S4", "bomb", None),
    ("E15", "S3 S3 H3 H3 S4 S4 H4 H4", "bomb", None),
    ("E16", "S3 H3 D3 S4 H4 D4 S5 H5 D5", "bomb", ("consecutive_triples", "5", 9)),
    ("E17", "S3 H3 D3 S4 H4 D4", "bomb", None),
    ("E18", "S3 H3 D3 S4 H4", "bomb", None),
    ("E19", "S3 H4 D5 C6 S7", "bomb", ("straight", "7", 5)),
    ("E20", "S10 HJ DQ CK SA", "bomb", ("straight", "A", 5)),
    ("E21", "HJ HQ HK HA H2", "bomb", None),
    ("E22", "SA S2 S3 S4 S5", "bomb", None),
    ("E23", "S3 H4 D5 C6", "bomb", None),
    ("E24", "S3 H4 D5 C6 S7 H7", "bomb", None),
    ("E25", "S3 H4 D5 C6 S8", "bomb", None),
    ("E26", "H5 H6 H7 H8 H9", "bomb", ("straight_flush", "9", 5)),
    ("E27", "H5 H6 H7 H8 H9", "straight", ("straight", "9", 5)),
    ("E28", "H5 H6 H7 H8 H9 S10", "bomb", ("straight", "10", 6)),
    ("E29", "H5 H5 H6 H6 H7 H7", "bomb", ("consecutive_pairs", "7", 6)),
    ("E30", "S3 S4 S5 S6 S7 S8 S9 S10 SJ SQ SK SA", "bomb", ("straight_flush", "A", 12)),
    ("E31", "S4 S4 H4 H4 D4", "bomb", ("bomb", "4", 5)),
    ("E32", "S3 H3 D3 C3 S4", "bomb", None),
    ("E33", "S3 H3 S4 H4 S5 H5 D5", "bomb", None),
    ("E34", "S2 S2 H2 H2", "bomb", ("bomb", "2", 4)),
    ("E35", "S3 H3 S4 H4 S6 H6", "bomb", None),
    ("E36", "", "bomb", None),
    ("E37", "SQ HQ DQ SK HK DK SA HA DA", "bomb", ("consecutive_triples", "A", 9)),
    ("E38", "S3 H3 D3 C3 S4 H4 D4 C4 S5 H5 D5 C5", "bomb", None),
    ("E39", "LJ LJ BJ BJ S3", "bomb", None),
]

BEATS = [
    ("E40", "S4", "H3", "bomb", True),
    ("E41", "S3", "H3", "bomb", False),
    ("E42", "LJ", "S2", "bomb", True),
    ("E43", "BJ", "LJ", "bomb", True),
    ("E44", "S2 H2", "SA HA", "bomb", True),
    ("E45", "SA HA", "LJ LJ", "bomb", False),
    ("E46", "S3 S3 H3", "S2 S2", "bomb", False),
    ("E47", "S4 H4 D4 C4", "BJ", "bomb", True),
    ("E48", "S4 H4 S5 H5 S6 H6", "S3 H3 S4 H4 S5 H5", "bomb", True),
    ("E49", "S4 H4 S5 H5 S6 H6 S7 H7", "S3 H3 S4 H4 S5 H5", "bomb", False),
    ("E50", "S4 H5 D6 C7 S8", "S3 H4 D5 C6 S7", "bomb", True),
    ("E51", "S4 H5 D6 C7 S8 H9", "S3 H4 D5 C6 S7", "bomb", False),
    ("E52", "C3 H3 D3 S3 S3", "S2 H2 D2 C2", "bomb", True),
    ("E53", "S2 H2 D2 C2", "SA HA DA CA", "bomb", True),
    ("E54", "D3 D4 D5 D6 D7", "S2 S2 H2 H2 D2", "bomb", True),
    ("E55", "S3 S3 H3 H3 D3 D3", "C3 C4 C5 C6 C7 C8 C9 C10 CJ CQ CK CA", "bomb", True),
    ("E56", "H3 H4 H5 H6 H7 H8", "S10 SJ SQ SK SA", "bomb", True),
    ("E57", "H10 HJ HQ HK HA", "S10 SJ SQ SK SA", "bomb", False),
    ("E58", "H3 H4 H5 H6 H7", "S9 H10 DJ CQ SK", "bomb", True),
    ("E59", "S9 H10 DJ CQ SK", "H3 H4 H5 H6 H7", "bomb", False),
    ("E60", "LJ LJ BJ BJ", "S2 S2 H2 H2 D2 D2 C2 C2", "bomb", True),
    ("E61", "S2 S2 H2 H2 D2 D2 C2 C2", "LJ LJ BJ BJ", "bomb", False),
    ("E62", "H4 H5 H6 H7 H8", "S3 H4 D5 C6 S7", "straight", True),
    ("E63", "H3 H4 H5 H6 H7", "S4 H5 D6 C7 S8", "straight", False),
    ("E64", "S4 H4 D4 C4", "H3 H4 H5 H6 H7", "straight", True),
    ("E65", "S4 H4 D4 S5 H5 D5 S6 H6 D6", "S3 H3 D3 S4 H4 D4 S5 H5 D5", "bomb", True),
    ("E66", "S5 H5 D5 S6", "S3 S3 H3", "bomb", False),
    ("E67", "S7 S7 H7 H7", "D7 D7 C7 C7", "bomb", False),
    ("E68", "SA HA DA CA", "H3 H4 H5 H6 H7", "bomb", False),
]

RESPONSES = [
    ("E70", "S3 H3 D3 S4 S5 S6 S7 HA", "C10", "bomb", 3),
    ("E71", "S3 H3 D3 S4 S5 S6 S7 HA", None, "bomb", 15),
    ("E72", "S3 H3 D3 S4 S5 S6 S7 HA", "C4 D5 H6 S7 C8", "bomb", 2),
    ("E73", "S3 H3 D3 S4 S5 S6 S7 HA", "C4 D5 H6 S7 C8", "straight", 1),
    ("E74", "S5 S5 H5 D5 C9", "S4 H4", "bomb", 6),
    ("E75", "S5 S5 H5 D5 C9", None, "bomb", 12),
    ("E76", "S7 S7 H7 H7 D7 D7 C7 C7", None, "bomb", 80),
    ("E77", "S7 S7 H7 H7 D7 D7 C7 C7", "SA SA HA DA CA", "bomb", 16),
    ("E78", "LJ LJ BJ BJ S3", "S2 S2 H2 H2 D2 D2 C2 C2", "bomb", 2),
    ("E79", "S3 S3 H3 S4 S5 S6 S7 D8", "D3 C4 D5 C6 D7", "bomb", 3),
    ("E80", "S3 S3 H3 S4 S5 S6 S7 D8", "D3 C4 D5 C6 D7", "straight", 2),
    ("E81", "S4 H4 S5 H5 D5 S6 D6", "C3 C3 D4 D4 C5 C5", "bomb", 4),
    ("E82", "LJ LJ BJ", "S2", "bomb", 3),
]

TRICKS = [
    ("E85", [0, 1, 2, 3], 0, [1, 2], 3, False, False),
    ("E86", [0, 1, 2, 3], 0, [1, 2, 3], 0, True, False),
    ("E87", [0, 1, 3], 2, [3, 0], 1, False, False),
    ("E88", [0, 1, 3], 2, [3, 0, 1], 0, True, True),
    ("E89", [1, 2, 3], 1, [], 2, False, False),
    ("E90", [2, 3], 3, [2], 3, True, False),
    ("E91", [1, 2], 0, [1], 2, False, False),
    ("E92", [1, 2], 0, [1, 2], 2, True, True),
]

RESULTS = [
    ("E95", [0, 2], True, (0, 2), 2, (3, -3), None),
    ("E96", [1, 0, 3], False, (1, 3), 3, (-2, 2), 1),
    ("E97", [3, 0, 2], False, (1, 3), 4, (-1, 1), 3),
    ("E98", [2, 1, 0, 3], False, (0, 2), 3, (2, -2), 2),
    ("E99", [3, 1, 0, 2], True, (1, 3), 2, (-3, 3), None),
]

def _policy(name: str) -> Policy:
    return Policy(straight_flush=name)


@pytest.mark.parametrize(("eid", "cards", "policy", "expected"), CLASSIFY)
def test_classify(eid, cards, policy, expected):
    got = classify(cards, _policy(policy))
    assert (None if got is None else (got.type, got.rank, got.length)) == expected, eid


@pytest.mark.parametrize(("eid", "play", "previous", "policy", "expected"), BEATS)
def test_beats(eid, play, previous, policy, expected):
    assert beats(play, previous, _policy(policy)) is expected, eid


@pytest.mark.parametrize(("eid", "hand", "previous", "policy", "expected"), RESPONSES)
def test_legal_responses(eid, hand, previous, policy, expected):
    assert legal_responses_count(hand, previous, _policy(policy)) == expected, eid


@pytest.mark.parametrize(("eid", "holding", "last", "passes", "seat", "lead", "jiefeng"), TRICKS)
def test_trick_next(eid, holding, last, passes, seat, lead, jiefeng):
    turn = trick_next(holding, last, passes)
    assert (turn.seat, turn.lead, turn.jiefeng) == (seat, lead, jiefeng), eid


@pytest.mark.parametrize(
    ("eid", "order", "double_win", "side", "place", "points", "next_leader"), RESULTS
)
def test_round_result(eid, order, double_win, side, place, points, next_leader):
    res = round_result(order)
    assert (res.double_win, res.winning_side, res.partner_place, res.points, res.next_leader) == (
        double_win,
        side,
        place,
        points,
        next_leader,
    ), eid


E100_HANDS = ["S3 S4 H5 D6 C7 S10 SK", "H9 H9 D2", "SQ HQ C8 CA", "S8 S8 DA"]
E100_ACTIONS = [
    "S3 S4 H5 D6 C7", "pass", "pass", "pass", "S10", "pass", "CA", "pass", "pass", "D2",
    "pass", "pass", "pass", "H9 H9", "pass", "pass", "pass", "DA", "pass", "pass", "S8 S8",
]


def test_e100_replayed_endgame():
    got = Round(E100_HANDS, leader=0).replay(E100_ACTIONS)
    assert got["legal"] and got["illegal_at"] is None
    assert got["actors"] == [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 3, 0, 2, 3]
    assert got["finished"] == [1, 3] and got["round_over"]
    assert got["result"]["points"] == [-3, 3] and got["result"]["next_leader"] is None


def test_e101_pair_cannot_answer_a_single():
    actions = [*E100_ACTIONS[:9], "H9 H9", *E100_ACTIONS[10:]]
    game = Round(E100_HANDS, leader=0)
    got = game.replay(actions)
    assert not got["legal"] and got["illegal_at"] == 9
    assert got["next"] == 1 and got["lead"] is False and not got["round_over"]
