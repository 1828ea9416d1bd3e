"""Batch APIs agree with the single-position API on every corpus position."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from engines.shengji import arrays
from engines.shengji.cards import parse_cards
from engines.shengji.rules import (
    TrumpContext,
    bottom_multiplier,
    check_throw,
    is_legal_follow,
    legal_follows,
    trick_winner,
)
from engines.verify import read_jsonl

CASES = Path(__file__).resolve().parents[1] / "data" / "shengji" / "cases.jsonl"
RECORDS = [r for _, r in read_jsonl(CASES)]


def _ctx(r):
    return TrumpContext(r["level"], r["trump"])


def test_are_legal_follows_mixed_contexts_serial_and_parallel():
    recs = [r for r in RECORDS if r["kind"] == "follow_legal"]
    ctxs = [_ctx(r) for r in recs]
    hands = [r["hand"] for r in recs]
    leads = [r["lead"] for r in recs]
    plays = [r["play"] for r in recs]
    expected = np.array([r["expected"] for r in recs])
    single = np.array([is_legal_follow(h, ld, p, c) for h, ld, p, c in
                       zip(hands, leads, plays, ctxs)])
    assert np.array_equal(single, expected)
    assert np.array_equal(arrays.are_legal_follows(hands, leads, plays, ctxs, threads=1), expected)
    # a batch large enough for the parallel kernel, given as arrays
    reps = 3
    h = np.stack([parse_cards(x) for x in hands] * reps)
    ld = np.stack([parse_cards(x) for x in leads] * reps)
    p = np.stack([parse_cards(x) for x in plays] * reps)
    got = arrays.are_legal_follows(h, ld, p, ctxs * reps, threads=2)
    assert np.array_equal(got, np.tile(expected, reps))


def test_counts_and_enumeration_batch():
    recs = [r for r in RECORDS if r["kind"] == "legal_follows_count"]
    ctxs = [_ctx(r) for r in recs]
    hands = [r["hand"] for r in recs]
    leads = [r["lead"] for r in recs]
    counts = arrays.count_legal_follows(hands, leads, ctxs)
    assert counts.tolist() == [r["expected"] for r in recs]
    offsets, rows = arrays.legal_follows_batch(hands, leads, ctxs)
    assert np.diff(offsets).tolist() == counts.tolist()
    for i in (0, len(recs) // 2, len(recs) - 1):
        one = legal_follows(hands[i], leads[i], ctxs[i]).array
        assert np.array_equal(rows[offsets[i]:offsets[i + 1]], one)


def test_trick_winners_and_throws_batch():
    recs = [r for r in RECORDS if r["kind"] == "trick_winner"]
    got = arrays.trick_winners([r["plays"] for r in recs], [_ctx(r) for r in recs])
    assert got.tolist() == [r["expected"] for r in recs]
    assert got.tolist() == [trick_winner(r["plays"], _ctx(r)) for r in recs]
    recs = [r for r in RECORDS if r["kind"] == "throw_valid"]
    valid, forced = arrays.check_throws([r["lead"] for r in recs], [r["others"] for r in recs],
                                       [_ctx(r) for r in recs])
    for r, v, f in zip(recs, valid, forced):
        single = check_throw(r["lead"], r["others"], _ctx(r))
        assert bool(v) is single.valid is r["expected"]["valid"]
        if not v:
            assert np.array_equal(f, parse_cards(r["expected"]["forced"]))


def test_points_and_multipliers_batch():
    recs = [r for r in RECORDS if r["kind"] == "score"]
    mult = arrays.bottom_multipliers([r["last_lead"] for r in recs], [_ctx(r) for r in recs])
    assert mult.tolist() == [r["expected"]["multiplier"] for r in recs]
    assert mult.tolist() == [bottom_multiplier(r["last_lead"], _ctx(r)) for r in recs]
    pts = arrays.trick_points_batch([r["bottom"] for r in recs])
    assert pts.tolist() == [r["expected"]["bottom_points"] for r in recs]


def test_empty_batches():
    ctx = TrumpContext("2", "S")
    empty = np.zeros((0, 54), dtype=np.int8)
    assert arrays.are_legal_follows(empty, empty, empty, ctx).shape == (0,)
    assert arrays.trick_winners([], ctx).shape == (0,)


def test_structure_batches():
    from engines.shengji.rules import decompose, is_tractor, shape

    recs = [r for r in RECORDS if r["kind"] == "is_tractor"]
    got = arrays.are_tractors([r["cards"] for r in recs], [_ctx(r) for r in recs])
    assert got.tolist() == [r["expected"] for r in recs]
    assert got.tolist() == [is_tractor(r["cards"], _ctx(r)) for r in recs]
    leads = [r["lead"] for r in RECORDS if r["kind"] == "throw_valid"]
    ctxs = [_ctx(r) for r in RECORDS if r["kind"] == "throw_valid"]
    offsets, rows, sizes, _ = arrays.decompose_many(leads, ctxs)
    for i, (lead, ctx) in enumerate(zip(leads, ctxs)):
        comps = decompose(lead, ctx)
        assert [c.size for c in comps] == sizes[offsets[i]:offsets[i + 1]].tolist()
        assert rows[offsets[i]:offsets[i + 1]].sum(axis=0).tolist() == parse_cards(lead).tolist()
    suits = [ctx.suit_of(lead[0]) for lead, ctx in zip(leads, ctxs)]
    own = arrays.realise_shapes(leads, suits, [shape(lead, c) for lead, c in zip(leads, ctxs)],
                               ctxs)
    assert own.all()  # every set realises its own shape
    bigger = arrays.realise_shapes(leads, suits,
                                  [(*shape(lead, c), 1) for lead, c in zip(leads, ctxs)], ctxs)
    assert not bigger.any()  # and never one with a pair more


def test_public_objects_pickle():
    import pickle

    ctx = TrumpContext("10", "S")
    _ = ctx.tables  # a cached table must not break pickling
    assert pickle.loads(pickle.dumps(ctx)) == ctx
    follows = legal_follows("S2 S2 S3 S3 S4 H5", "S7 S7 S8 S8", ctx)
    again = pickle.loads(pickle.dumps(follows))
    assert again.count() == follows.count() == 1
    res = check_throw("SA SK SK", ["SQ SQ", "S2", "S3"], ctx)
    assert pickle.loads(pickle.dumps(res)) == res
