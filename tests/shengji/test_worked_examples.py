"""Every worked example W01–W62 of the rules (docs/rules/shengji.md, section 13)."""

from __future__ import annotations

import pytest

from engines.shengji.rules import (
    TrumpContext,
    bottom_multiplier,
    check_throw,
    is_legal_follow,
    is_tractor,
    resolve_bids,
    score_round,
    trick_winner,
)

TRACTORS = [
    ("W01", "10", "H", "HK HK HQ HQ", True),
    ("W02", "10", "H", "CJ CJ C9 C9", True),
    ("W03", "10", "H", "D5 D5 D4 D4 D3 D3", True),
    ("W04", "10", "H", "D5 D5 D4", False),
    ("W05", "10", "H", "D5 D4 D4", False),
    ("W06", "10", "H", "D5 D5 D3 D3", False),
    ("W07", "10", "S", "H10 H10 D10 D10", False),
    ("W08", "10", "H", "SA SA S2 S2", False),
    ("W09", "10", "S", "LJ LJ S10 S10", True),
    ("W10", "10", "S", "S10 S10 H10 H10", True),
    ("W11", "10", "S", "H10 H10 SA SA", True),
    ("W12", "10", "S", "S10 S10 D10 D10 SA SA", True),
    ("W13", "10", "S", "BJ BJ LJ LJ", True),
    ("W14", "10", "NT", "C10 C10 LJ LJ", True),
    ("W15", "A", "S", "SK SK HA HA", True),
    ("W16", "10", "S", "SA SA H10 H10 D10 D10", False),
]


@pytest.mark.parametrize(("wid", "level", "trump", "cards", "expected"), TRACTORS)
def test_tractors(wid, level, trump, cards, expected):
    assert is_tractor(cards, TrumpContext(level, trump)) is expected, wid


WINNERS = [
    ("W17", "10", "H",
     ["SA SK S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2", "S3 S6 S7 S8 S9 SJ", "C3 C4 C5 C6 C7 C8"], 1),
    ("W18", "10", "H",
     ["SA SA S5 S5 S4 S4", "H9 H9 H8 H8 H7 H2", "S3 S6 S7 S8 S9 SJ", "C3 C4 C5 C6 C7 C8"], 0),
    ("W19", "10", "H", ["S5 S4 S4", "H9 H7 H7", "H8 H8 H4", "C2 C3 C4"], 2),
    ("W20", "10", "H", ["S6 S7 S8", "LJ HK H8", "BJ H3 H4", "C2 C3 C4"], 2),
    ("W21", "2", "D", ["SA SA SK", "D3 D3 D8", "D4 D4 D6", "S9 S10 SJ"], 2),
    ("W22", "2", "C", ["D8 D8 DJ DQ", "C5 C5 CA S2", "S3 S3 C7 C8", "C6 C6 C2 C2"], 3),
    ("W23", "10", "S", ["H10", "D10", "S9", "C10"], 0),
    ("W24", "10", "H", ["S7 S7", "H3 H5", "S9 SJ", "SK SK"], 3),
]


@pytest.mark.parametrize(("wid", "level", "trump", "plays", "expected"), WINNERS)
def test_trick_winners(wid, level, trump, plays, expected):
    assert trick_winner(plays, TrumpContext(level, trump)) == expected, wid


W25_HAND = "DA DA D8 D7 D7 D6 C2"
W28_HAND = "D9 D9 DJ DJ D2 D2 D5"
W30_HAND = "S4 S10 SA HK DK CK SK SK C4"
W32_LEAD = "S9 S9"
W36_HAND = "H10 H10 D10 D10 S2 S2 S5"
W37_HAND = "H10 H10 SA SA D10 D10 S2"
W39_HAND = "C7 C7 C8 C8 C9 C9 CQ CQ CK CK CA"
W41_HAND = "C7 C7 C8 C8 C9 CQ CQ CK CK CA"
W43_HAND = "C7 C7 C8 C8 C2 C3"
FOLLOWS = [
    ("W25", "10", "H", "D3 D3 D4 D4", W25_HAND, "D8 D7 D7 D6", False),
    ("W26", "10", "H", "D3 D3 D4 D4", W25_HAND, "DA DA D7 D7", True),
    ("W27", "10", "H", "D3 D3 D4 D4", W25_HAND, "DA DA D8 D6", False),
    ("W28", "10", "H", "D3 D3 D4 D4", W28_HAND, "D2 D2 D9 D9", False),
    ("W29", "10", "H", "D3 D3 D4 D4", W28_HAND, "D9 D9 DJ DJ", True),
    ("W30", "K", "S", "S7 S7 S8 S8 S9 S9", W30_HAND, "S4 S10 SA HK DK CK", False),
    ("W31", "K", "S", "S7 S7 S8 S8 S9 S9", W30_HAND, "S4 S10 SA HK SK SK", True),
    ("W32", "10", "H", W32_LEAD, "S4 S5 S5 D5 C6 C6", "S4 D5", False),
    ("W33", "10", "H", W32_LEAD, "S4 S3 D5 C6 C6", "S4 S3", True),
    ("W34", "10", "H", W32_LEAD, "S4 D5 C6 C6", "S4 C6", True),
    ("W35", "10", "H", W32_LEAD, "S4 D5 C6 C6 H2 H2", "S4 D5", True),
    ("W36", "10", "S", "S3 S3 S4 S4", W36_HAND, "H10 H10 D10 D10", True),
    ("W37", "10", "S", "S3 S3 S4 S4", W37_HAND, "SA SA D10 D10", True),
    ("W38", "10", "S", "S3 S3 S4 S4", W37_HAND, "H10 H10 D10 D10", False),
    ("W39", "10", "H", "C3 C3 C4 C4 C5 C5", W39_HAND, "C7 C7 C8 C8 CK CK", False),
    ("W40", "10", "H", "C3 C3 C4 C4 C5 C5", W39_HAND, "C8 C8 C9 C9 CA CQ", False),
    ("W41", "10", "H", "C3 C3 C4 C4 C5 C5", W41_HAND, "C7 C7 C8 C8 CA C9", False),
    ("W42", "10", "H", "C3 C3 C4 C4 C5 C5", W41_HAND, "C7 C7 C8 C8 CK CK", True),
    ("W43", "10", "H", "CA CA CQ CQ", W43_HAND, "C7 C7 C2 C3", False),
    ("W44", "10", "H", "CA CA CQ CQ", W43_HAND, "C7 C7 C8 C8", True),
    ("W45", "10", "H", "CA CA CQ CQ", "C7 C7 C5 C5 C2 C3", "C7 C7 C5 C5", True),
    ("W61", "10", "S", "S3 S3 S4 S4 S5 S5 S8 S8 S9 S9",
     "S2 S2 S6 S6 SJ SJ SK SK LJ LJ SA C3", "S2 S2 S6 S6 SJ SJ SK SK SA LJ", False),
]


@pytest.mark.parametrize(("wid", "level", "trump", "lead", "hand", "play", "expected"), FOLLOWS)
def test_follows(wid, level, trump, lead, hand, play, expected):
    assert is_legal_follow(hand, lead, play, TrumpContext(level, trump)) is expected, wid


W46_THROW = "C9 C8 C8 C4 C4"
THROWS = [
    ("W46", "10", "H", W46_THROW, ["CJ C2", "S3 S4", "D5 D6"], ["C9"]),
    ("W47", "10", "H", W46_THROW, ["C6 C6 C2", "S3 S4 S5", "D5 D6 D7"], ["C4", "C4"]),
    ("W48", "10", "H", W46_THROW, ["C7 C7 C2", "S3 CA", "D5 D6"], ["C9"]),
    ("W49", "10", "H", W46_THROW, ["C7 C6 C2", "S3 S4", "D5 D6"], None),
    ("W50", "10", "H", "SA SA SK", ["SQ SQ", "SK", "S2"], None),
    ("W51", "10", "H", "SA SQ SQ", ["SK SK", "S3", "S2"], ["SQ", "SQ"]),
    ("W52", "10", "H", "SK SK SQ SQ SA", ["SA SJ", "S9 S9 S8", "S2"], None),
    ("W53", "10", "H", "SJ SJ S9 S9 SA", ["SQ SQ SK SK S3", "S2", "S4"],
     ["S9", "S9", "SJ", "SJ"]),
    ("W62", "8", "D", "CJ C7 C7 C6 C6",
     ["S6 S5 H2 C10 C10 C9 C9 C4", "S10 HJ CA C5", "S2 H2 DK"], ["CJ"]),
]


@pytest.mark.parametrize(("wid", "level", "trump", "lead", "others", "forced"), THROWS)
def test_throws(wid, level, trump, lead, others, forced):
    res = check_throw(lead, others, TrumpContext(level, trump))
    assert res.valid is (forced is None), wid
    assert (sorted(res.forced) if res.forced else None) == (sorted(forced) if forced else None)


LEVELS = {"declarers": "10", "defenders": "5"}
SCORES = [
    # wid, declarer, trick points, bottom, last lead, won by, keep, delta, next, multiplier
    ("W54", 0, 0, "S2 S3 S4 S6 S7 S8 S9 SJ", "HA", "declarers", True, 3, 2, 2, 0),
    ("W55", 1, 60, "S5 SK S2 S3 S4 S6 S7 S8", "HQ HQ HJ HJ", "defenders", False, 2, 2, 8, 180),
    ("W56", 3, 75, "S5 S2 S3 S4 S6 S7 S8 S9", "H7 H7", "defenders", False, 0, 0, 4, 95),
    ("W57", 0, 35, "S2 S3 S4 S6 S7 S8 S9 SJ", "H7", "defenders", True, 2, 2, 2, 35),
    ("W58", 0, 40, "S10 S2 S3 S4 S6 S7 S8 S9", "C3 C3 C4 C4 C5 C5", "declarers", True, 1, 2,
     16, 40),
]


@pytest.mark.parametrize(
    ("wid", "d", "pts", "bottom", "last", "won_by", "keep", "delta", "nxt", "mult", "total"),
    SCORES,
)
def test_scores(wid, d, pts, bottom, last, won_by, keep, delta, nxt, mult, total):
    ctx = TrumpContext("10", "S")
    s = score_round(d, pts, bottom, last, won_by, LEVELS, ctx)
    assert s.declarers_keep is keep, wid
    assert (s.declarer_delta if keep else s.defender_delta) == delta
    assert s.next_declarer == nxt
    assert s.multiplier == mult == bottom_multiplier(last, ctx)
    assert s.defender_points == total


def test_w59_first_round_bids():
    res = resolve_bids([(0, "H5", 1), (1, "S5", 2), (2, "LJ", 2)], "5", first_round=True)
    assert res.accepted == [True, True, True]
    assert res.trump == "NT"
    assert res.declarer == 0


def test_w60_later_round_bids():
    bids = [(0, "H5", 1), (0, "S5", 2), (1, "C5", 2), (2, "C5", 1)]
    res = resolve_bids(bids, "5", first_round=False, current_declarer=3)
    assert res.accepted == [True, False, True, False]
    assert res.trump == "C"
    assert res.declarer == 3
