"""Property tests: kernels against the pure-Python oracle (``oracle.py``) and brute force."""

from __future__ import annotations

import numpy as np
import shengji_oracle as oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from shengji_strategies import follow_positions, level_heavy_positions, names, tricks

from engines.shengji.rules import (
    check_throw,
    decompose,
    is_legal_follow,
    legal_follows,
    trick_winner,
)


@settings(max_examples=200, deadline=None)
@given(follow_positions())
def test_enumeration_equals_brute_force(position):
    """Every enumerated follow is legal, and every legal follow is enumerated."""
    ctx, hand, lead = position
    lvl, tr = ctx.level_name, ctx.trump_name
    follows = legal_follows(hand, lead, ctx)
    got = {tuple(sorted(names(row))) for row in follows.array}
    assert len(got) == follows.array.shape[0]  # no duplicates
    expected = oracle.legal_follows(names(hand), names(lead), lvl, tr)
    assert got == expected
    assert follows.count() == len(expected)
    # a fresh view counts without enumerating (closed forms, the pair DP, sets of pairs)
    assert legal_follows(hand, lead, ctx).count() == len(expected)


@settings(max_examples=150, deadline=None)
@given(level_heavy_positions())
def test_enumeration_with_several_pairs_at_one_position(position):
    """Chains through the level position may take any of its pairs; plays are still distinct."""
    ctx, hand, lead = position
    follows = legal_follows(hand, lead, ctx)
    got = {tuple(sorted(names(row))) for row in follows.array}
    assert len(got) == follows.array.shape[0]
    expected = oracle.legal_follows(names(hand), names(lead), ctx.level_name, ctx.trump_name)
    assert got == expected
    assert legal_follows(hand, lead, ctx).count() == len(expected)


@settings(max_examples=300, deadline=None)
@given(follow_positions(), st.randoms(use_true_random=False))
def test_follow_legality_matches_oracle(position, rnd):
    ctx, hand, lead = position
    cards = names(hand)
    n = int(lead.sum())
    k = min(n, len(cards)) if rnd.random() < 0.9 else max(0, min(n - 1, len(cards)))
    play = rnd.sample(cards, k)
    expected = oracle.follow_legal(cards, names(lead), play, ctx.level_name, ctx.trump_name)
    assert is_legal_follow(hand, lead, play, ctx) is expected


@settings(max_examples=300, deadline=None)
@given(tricks())
def test_trick_winner_matches_oracle(trick):
    ctx, plays = trick
    expected = oracle.trick_winner([names(p) for p in plays], ctx.level_name, ctx.trump_name)
    assert trick_winner(plays, ctx) == expected


@settings(max_examples=300, deadline=None)
@given(tricks())
def test_throw_check_matches_oracle(trick):
    """The other three plays serve as the other hands; the forced unit is one component."""
    ctx, plays = trick
    lead = plays[0]
    res = check_throw(lead, plays[1:], ctx)
    valid, forced = oracle.throw_check(names(lead), [names(p) for p in plays[1:]],
                                       ctx.level_name, ctx.trump_name)
    assert res.valid is valid
    assert (sorted(res.forced) if res.forced else None) == forced
    comps = decompose(lead, ctx)
    assert sorted(tuple(sorted(c.cards)) for c in comps) == sorted(
        tuple(sorted(c[3])) for c in oracle.components(names(lead), ctx.level_name,
                                                       ctx.trump_name))
    if len(comps) == 1:
        assert res.valid
    if not res.valid:
        assert tuple(res.forced) in {c.cards for c in comps}


def test_oracle_requirement_order_matches_rules_examples():
    assert oracle.requirement_order((3,)) == [(3,), (2, 1), (1, 1, 1), (2,), (1, 1), (1,), ()]
    assert oracle.requirement_order((2, 2)) == [
        (2, 2), (2, 1, 1), (1, 1, 1, 1), (2, 1), (1, 1, 1), (2,), (1, 1), (1,), ()]
    assert oracle.requirement_order((1, 1)) == [(1, 1), (1,), ()]


def test_enumeration_when_short_in_suit_counts_fillers():
    from engines.shengji.rules import TrumpContext

    ctx = TrumpContext("10", "H")
    # one spade held, lead of 2: the spade plus any one of C6 (×2), D5, H2 (×2) → 3 plays
    follows = legal_follows("S4 D5 C6 C6 H2 H2", "S9 S9", ctx)
    assert follows.count() == 3 == len(list(follows))
    assert all("S4" in play for play in follows)
    assert np.all(follows.array.sum(axis=1) == 2)


def test_pair_masks_and_chain_shifts():
    from solvers.shengji._structure import chain_mask, longest_run, pair_mask

    pc = np.zeros(16, dtype=np.int64)
    pc[[2, 3, 4, 7, 8, 12]] = 1
    pc[12] = 3  # several pairs at the multi-card level position still set one bit
    mask = pair_mask(pc)
    assert mask == (1 << 2) | (1 << 3) | (1 << 4) | (1 << 7) | (1 << 8) | (1 << 12)
    assert chain_mask(mask, 1) == mask
    assert chain_mask(mask, 2) == (1 << 2) | (1 << 3) | (1 << 7)  # starts of 2-chains
    assert chain_mask(mask, 3) == 1 << 2
    assert chain_mask(mask, 4) == 0
    assert longest_run(mask) == 3 and longest_run(0) == 0
