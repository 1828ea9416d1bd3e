"""Bad input gives a clear InputError at the engine boundary; fuzzing finds nothing else."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.shengji as sj_package
import engines.shengji.arrays as sj_batch
from engines.errors import InputError
from engines.shengji.cards import CARD_NAMES, CardError, ShengjiInputError, parse_cards
from engines.shengji.rules import (
    IllegalPlayError,
    TrumpContext,
    check_throw,
    decompose,
    is_legal_follow,
    is_tractor,
    legal_follows,
    resolve_bids,
    score_round,
    trick_winner,
    validate_follow,
)

CTX = TrumpContext("10", "H")


def test_unknown_card_names_the_token():
    with pytest.raises(CardError, match="XQ"):
        is_tractor("HK HK XQ", CTX)
    with pytest.raises(CardError, match="hand"):
        is_legal_follow("S4 S1", "S9", "S4", CTX)
    assert issubclass(CardError, InputError)


def test_third_copy():
    with pytest.raises(ShengjiInputError, match="third copy of SA"):
        parse_cards("SA SA SA")
    with pytest.raises(ShengjiInputError, match="copies of S9"):
        is_legal_follow("S9 S9 S4", "S9", "S4", CTX)  # hand + lead hold three S9


def test_play_not_in_hand_and_wrong_count():
    assert not is_legal_follow("S4 S5", "S9", "S6", CTX)
    with pytest.raises(IllegalPlayError, match="S6 is not in the hand"):
        validate_follow("S4 S5", "S9", "S6", CTX)
    with pytest.raises(IllegalPlayError, match="2 cards, the lead has 1"):
        validate_follow("S4 S5", "S9", "S4 S5", CTX)
    with pytest.raises(IllegalPlayError, match="all 3 cards of suit S"):
        validate_follow("S4 S5 S5 D5 C6 C6", "S9 S9 S8 S8", "S4 S5 S5 D5 C6 C6"[:0] + "S4 D5 C6 C6",
                        CTX)
    validate_follow("S4 S5 S5 D5", "S9 S9", "S5 S5", CTX)  # legal: no error


def test_lead_must_be_one_suit():
    with pytest.raises(ShengjiInputError, match="several effective suits"):
        legal_follows("S4", "S9 C9", CTX)
    with pytest.raises(ShengjiInputError, match="no cards"):
        decompose("", CTX)
    with pytest.raises(ShengjiInputError, match="lead"):
        trick_winner(["S9 H9", "S4 S5", "S6 S7", "S8 S10"], CTX)


def test_context_and_other_fields():
    with pytest.raises(ShengjiInputError, match="bad level"):
        TrumpContext("1", "H")
    with pytest.raises(ShengjiInputError, match="bad trump"):
        TrumpContext("10", "X")
    with pytest.raises(ShengjiInputError, match="3 other hands"):
        check_throw("SA SK", ["S2"], CTX)
    with pytest.raises(ShengjiInputError, match="declarer"):
        score_round(7, 0, "S2", "S3", "declarers", {"declarers": "2", "defenders": "2"}, CTX)
    with pytest.raises(ShengjiInputError, match="multiple of 5"):
        score_round(0, 3, "S2", "S3", "declarers", {"declarers": "2", "defenders": "2"}, CTX)
    with pytest.raises(ShengjiInputError, match="count must be 1 or 2"):
        resolve_bids([(0, "H5", 3)], "5", True)
    with pytest.raises(ShengjiInputError, match="current_declarer"):
        resolve_bids([], "5", False)


def test_count_vectors_are_checked():
    bad = np.zeros(54, dtype=np.int8)
    bad[3] = 3
    with pytest.raises(ShengjiInputError, match="3 copies of S5"):
        is_tractor(bad, CTX)
    with pytest.raises(ShengjiInputError, match="54 entries"):
        is_tractor(np.zeros(10, dtype=np.int8), CTX)
    with pytest.raises(ShengjiInputError, match="leads row 0"):
        sj_batch.are_legal_follows(np.zeros((2, 54), np.int8), np.ones((2, 54), np.int8) * 3,
                                   np.zeros((2, 54), np.int8), CTX)


tokens = st.one_of(st.sampled_from(CARD_NAMES), st.text(max_size=4))
card_lists = st.lists(tokens, max_size=8)


@settings(max_examples=300, deadline=None)
@given(card_lists, card_lists, card_lists, st.sampled_from(["2", "10", "A", "X"]),
       st.sampled_from(["S", "NT", "Q"]))
def test_fuzz_public_entry_points(a, b, c, level, trump):
    """Arbitrary tokens: every entry point answers or raises an InputError, nothing else."""
    calls = [
        lambda ctx: is_tractor(a, ctx),
        lambda ctx: decompose(a, ctx),
        lambda ctx: is_legal_follow(a, b, c, ctx),
        lambda ctx: legal_follows(a, b, ctx).count(),
        lambda ctx: check_throw(a, [b, c, []], ctx),
        lambda ctx: trick_winner([a, b, c, c], ctx),
        lambda ctx: score_round(0, 40, a, b, "defenders", {"declarers": "2",
                                                           "defenders": level}, ctx),
        lambda ctx: resolve_bids([(0, t, 1) for t in a], level, True),
        lambda ctx: sj_batch.are_legal_follows([a], [b], [c], ctx),
        lambda ctx: sj_batch.trick_winners([[a, b, c, c]], ctx),
    ]
    for call in calls:
        try:
            ctx = TrumpContext(level, trump)
            call(ctx)
        except InputError:
            pass


def test_package_exports_and_warmup():
    sj_package.warmup()
    for name in sj_package.__all__:
        assert getattr(sj_package, name) is not None
    with pytest.raises(AttributeError):
        sj_package.no_such_name  # noqa: B018
