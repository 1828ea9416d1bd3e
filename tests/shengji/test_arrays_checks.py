"""The batch kernels check every row as they read it: each fault is reported with its row,
in the order separate whole-batch checks would report it, on one thread and on several."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engines.shengji import arrays
from engines.shengji.cards import ShengjiInputError, parse_card, parse_cards
from engines.shengji.rules import TrumpContext
from engines.verify import read_jsonl

CASES = Path(__file__).resolve().parents[1] / "data" / "shengji" / "cases.jsonl"
RECORDS = [r for _, r in read_jsonl(CASES)]
FOLLOW = [r for r in RECORDS if r["kind"] == "follow_legal"]
REPS = 2  # 340 rows: enough for the parallel kernels


def _follow_rows():
    h = np.stack([parse_cards(r["hand"]) for r in FOLLOW] * REPS)
    ld = np.stack([parse_cards(r["lead"]) for r in FOLLOW] * REPS)
    p = np.stack([parse_cards(r["play"]) for r in FOLLOW] * REPS)
    ctxs = [TrumpContext(r["level"], r["trump"]) for r in FOLLOW] * REPS
    expected = np.array([r["expected"] for r in FOLLOW] * REPS)
    return h, ld, p, ctxs, expected


def _free_card(*rows):
    """A card none of ``rows`` holds."""
    return int(np.nonzero(sum(r.astype(np.int64) for r in rows) == 0)[0][0])


@pytest.mark.parametrize("threads", [1, 2])
def test_clean_rows_answer_like_the_corpus(threads):
    h, ld, p, ctxs, expected = _follow_rows()
    assert np.array_equal(arrays.are_legal_follows(h, ld, p, ctxs, threads=threads), expected)
    # one context object for all rows, and int64 input, take the same kernels
    same = [r for r in FOLLOW if (r["level"], r["trump"]) == (FOLLOW[0]["level"],
                                                              FOLLOW[0]["trump"])]
    ctx = TrumpContext(same[0]["level"], same[0]["trump"])
    got = arrays.are_legal_follows(
        np.stack([parse_cards(r["hand"]) for r in same]).astype(np.int64),
        [r["lead"] for r in same], [r["play"] for r in same], ctx, threads=threads)
    assert got.tolist() == [r["expected"] for r in same]


def _faults(h, ld, p, r):
    """(name, mutate, expected message) for each kind of fault at row ``r``."""
    lead_card = int(np.nonzero(ld[r])[0][0])
    free = _free_card(h[r], ld[r], p[r])

    def set_(arr, c, v):
        def f():
            arr[r, c] = v
        return f

    def empty():
        ld[r] = 0

    def mixed():
        ld[r, free] = 1

    return [
        ("hand count", set_(h, free, 3), f"hands row {r}: 3 copies"),
        ("lead count", set_(ld, free, -1), f"leads row {r}: -1 copies"),
        ("play count", set_(p, free, 7), f"plays row {r}: 7 copies"),
        ("empty lead", empty, f"leads row {r}: no cards"),
        ("deck", set_(h, lead_card, 2), f"hands and leads row {r}: "),
        ("mixed", mixed, None),
    ]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("row", [0, 77, 339])
def test_each_fault_names_its_row(threads, row):
    h0, ld0, p0, ctxs, _ = _follow_rows()
    for fault in range(len(_faults(h0, ld0, p0, row))):
        h, ld, p = h0.copy(), ld0.copy(), p0.copy()
        name, mutate, message = _faults(h, ld, p, row)[fault]
        mutate()
        ctx = ctxs[row]
        if name == "mixed" and len({ctx.esuit[c] for c in np.nonzero(ld[row])[0]}) == 1:
            continue  # the free card happened to be of the lead's suit
        with pytest.raises(ShengjiInputError) as info:
            arrays.are_legal_follows(h, ld, p, ctxs, threads=threads)
        text = str(info.value)
        assert text.startswith(message or f"leads row {row}: cards of several"), (name, text)


@pytest.mark.parametrize("threads", [1, 2])
def test_first_reported_is_the_first_kind_then_the_first_row(threads):
    h, ld, p, ctxs, _ = _follow_rows()
    ld[5] = 0  # an empty lead early on
    h[300, _free_card(h[300], ld[300], p[300])] = 3  # a bad hand count later
    with pytest.raises(ShengjiInputError, match="hands row 300: 3 copies"):
        arrays.are_legal_follows(h, ld, p, ctxs, threads=threads)
    h[300] = np.stack([parse_cards(r["hand"]) for r in FOLLOW] * REPS)[300]
    ld[9] = 0
    with pytest.raises(ShengjiInputError, match="leads row 5: no cards"):
        arrays.are_legal_follows(h, ld, p, ctxs, threads=threads)


def test_counts_tricks_and_throws_check_their_rows():
    recs = [r for r in RECORDS if r["kind"] == "legal_follows_count"]
    ctxs = [TrumpContext(r["level"], r["trump"]) for r in recs]
    h = np.stack([parse_cards(r["hand"]) for r in recs])
    ld = np.stack([parse_cards(r["lead"]) for r in recs])
    h[3, int(np.nonzero(ld[3])[0][0])] = 2
    with pytest.raises(ShengjiInputError, match="hands and leads row 3: "):
        arrays.count_legal_follows(h, ld, ctxs)

    tricks = [r for r in RECORDS if r["kind"] == "trick_winner"]
    ctxs = [TrumpContext(r["level"], r["trump"]) for r in tricks]
    plays = np.stack([np.stack([parse_cards(x) for x in r["plays"]]) for r in tricks])
    winners = arrays.trick_winners(plays, ctxs)
    assert winners.tolist() == [r["expected"] for r in tricks]
    bad = plays.copy()
    bad[2, 3, 0] = 9
    with pytest.raises(ShengjiInputError, match=r"plays\[:, 3\] row 2: 9 copies of S2"):
        arrays.trick_winners(bad, ctxs)
    bad = plays.copy()
    card = int(np.nonzero(bad[4, 0])[0][0])
    bad[4, 1, card] = 2  # with the lead's copy: three or more
    with pytest.raises(ShengjiInputError, match="plays row 4: "):
        arrays.trick_winners(bad, ctxs)

    throws = [r for r in RECORDS if r["kind"] == "throw_valid"]
    ctxs = [TrumpContext(r["level"], r["trump"]) for r in throws]
    leads = np.stack([parse_cards(r["lead"]) for r in throws])
    others = np.stack([np.stack([parse_cards(x) for x in r["others"]]) for r in throws])
    valid, _ = arrays.check_throws(leads, others, ctxs)
    assert valid.tolist() == [r["expected"]["valid"] for r in throws]
    others[1, 2, parse_card("BJ")] = -2
    with pytest.raises(ShengjiInputError, match=r"others\[:, 2\] row 1: -2 copies of BJ"):
        arrays.check_throws(leads, others, ctxs)


def test_contexts_are_checked():
    h, ld, p, ctxs, _ = _follow_rows()
    ctxs[12] = "10/S"
    with pytest.raises(ShengjiInputError, match="contexts row 12: expected a TrumpContext"):
        arrays.are_legal_follows(h, ld, p, ctxs)
    with pytest.raises(ShengjiInputError, match="contexts: 3 given"):
        arrays.are_legal_follows(h, ld, p, ctxs[:3])
