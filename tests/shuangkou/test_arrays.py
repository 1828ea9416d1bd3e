"""The batch forms equal the one-position API, on any thread count."""

from __future__ import annotations

import random

import numpy as np
import pytest
from shuangkou_strategies import random_counter, to_array

from engines.shuangkou import Policy, classify, legal_plays
from engines.shuangkou.arrays import (
    beats_many,
    classify_many,
    count_plays_many,
    enumerate_plays_many,
    trick_next_many,
)
from engines.shuangkou.errors import ShuangkouInputError
from engines.shuangkou.rules import trick_next


def _sets(seed, n, lo, hi):
    rng = random.Random(seed)
    return np.stack([to_array(random_counter(rng, rng.randint(lo, hi), rng.random() < 0.7))
                     for _ in range(n)])


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_equals_single(threads):
    policy = Policy("bomb")
    sets = _sets(1, 300, 1, 8)
    codes = classify_many(sets, policy, threads=threads)
    for arr, code in zip(sets, codes):
        combo = classify(arr, policy)
        assert (0 if combo is None else combo.code) == code
    valid = sets[codes != 0]
    plays, prev = valid[1:], valid[:-1]
    flags = beats_many(plays, prev, policy, threads=threads)
    from engines.shuangkou import beats

    assert flags.tolist() == [beats(a, b, policy) for a, b in zip(plays, prev)]
    hands = _sets(2, 40, 10, 27)
    previous = [None if i % 5 == 0 else valid[i] for i in range(40)]
    counts = count_plays_many(hands, previous, policy, threads=threads)
    out, offsets = enumerate_plays_many(hands, previous, policy, threads=threads)
    for i, (hand, p) in enumerate(zip(hands, previous)):
        view = legal_plays(hand, p, policy)
        assert counts[i] == view.count() == offsets[i + 1] - offsets[i]
        assert {a.tobytes() for a in out[offsets[i] : offsets[i + 1]]} == {
            a.tobytes() for a in view.arrays()
        }


def test_trick_next_many_equals_single():
    rng = random.Random(5)
    rows = []
    while len(rows) < 200:
        hold = rng.randrange(16)
        if not hold & 5 or not hold & 10:
            continue
        last = rng.randrange(4)
        others = [(last + i) % 4 for i in (1, 2, 3) if hold >> ((last + i) % 4) & 1]
        rows.append((hold, last, rng.randint(0, len(others)), others))
    seat, lead, jf = trick_next_many(*(np.array([r[i] for r in rows]) for i in range(3)))
    for i, (hold, last, k, others) in enumerate(rows):
        turn = trick_next([s for s in range(4) if hold >> s & 1], last, others[:k])
        assert (turn.seat, turn.lead, turn.jiefeng) == (seat[i], lead[i], jf[i])


def test_batch_input_errors():
    with pytest.raises(ShuangkouInputError):
        classify_many(np.zeros((2, 15, 3), dtype=np.uint8))
    bad = np.zeros((1, 15, 4), dtype=np.uint8)
    bad[0, 3, 1] = 3
    with pytest.raises(ShuangkouInputError, match="row 0"):
        classify_many(bad)
    with pytest.raises(ShuangkouInputError):
        count_plays_many(["S3 S4"], ["S3 H4"])
    with pytest.raises(ShuangkouInputError):
        trick_next_many(np.array([5]), np.array([0]), np.array([0]))
