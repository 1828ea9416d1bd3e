"""The parallel 升级 kernels hand rows out in claimed chunks: every chunk size and thread
count gives the answers of one row at a time, bad rows included, and a row costs no
allocation."""

from __future__ import annotations

from pathlib import Path

import numba
import numpy as np
import pytest
from numba.core.runtime import _nrt_python as nrt
from numba.core.runtime import rtsys

import solvers.shengji as K
from engines.shengji import arrays
from engines.shengji.cards import parse_cards
from engines.shengji.rules import TrumpContext
from engines.verify import read_jsonl
from solvers.shengji._structure import MAX_PARTS

CASES = Path(__file__).resolve().parents[1] / "data" / "shengji" / "cases.jsonl"
RECORDS = [r for _, r in read_jsonl(CASES)]
CHUNKS = [1, 7, 64, 10**6, 0]
THREADS = [1, 2, 3]


def _kind(kind):
    recs = [r for r in RECORDS if r["kind"] == kind]
    idx, es, ps, sc, ns, ms = arrays._contexts([TrumpContext(r["level"], r["trump"])
                                                for r in recs], len(recs))
    return recs, idx, es, ps, sc, ns, ms


def _stack(recs, field):
    return np.stack([parse_cards(r[field]) for r in recs])


def _stack3(recs, field):
    return np.stack([np.stack([parse_cards(x) for x in r[field]]) for r in recs])


def _spoil(arr, rows):
    """A copy of ``arr`` with a count of 3 in each of ``rows`` (a bad row for the checks)."""
    out = arr.copy()
    out.reshape(out.shape[0], -1)[rows, 5] = 3
    return out


BAD = [0, 3, 10]


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("threads", THREADS)
def test_legality_in_any_chunks(chunk, threads):
    recs, idx, es, ps, _, _, ms = _kind("follow_legal")
    h, ld, p = _spoil(_stack(recs, "hand"), BAD), _stack(recs, "lead"), _stack(recs, "play")
    want = K.follow_legal_batch_serial(h, ld, p, idx, es, ps, ms)
    got = K.follow_legal_batch(h, ld, p, idx, es, ps, ms, threads, chunk)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
    assert (want[1][BAD] != 0).all()


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("threads", THREADS)
def test_trick_winners_in_any_chunks(chunk, threads):
    recs, idx, es, ps, _, _, ms = _kind("trick_winner")
    plays = _spoil(_stack3(recs, "plays"), BAD)
    for policy in (K.WIN_LEADING_COMPONENT, K.WIN_HIGHEST_CARD):
        want = K.trick_winner_batch_serial(plays, idx, es, ps, ms, policy)
        got = K.trick_winner_batch(plays, idx, es, ps, ms, policy, threads, chunk)
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])
        assert (want[1][BAD] != 0).all() and (got[0][BAD] == 0).all()


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("threads", THREADS)
def test_throws_in_any_chunks(chunk, threads):
    recs, idx, es, ps, _, _, ms = _kind("throw_valid")
    leads, others = _stack(recs, "lead"), _spoil(_stack3(recs, "others"), BAD)
    valid, forced, err = K.check_throw_batch(leads, others, idx, es, ps, ms, threads, chunk)
    assert (err[BAD] != 0).all() and not valid[BAD].any() and not forced[BAD].any()
    for i in range(len(recs)):
        if i in BAD:
            continue
        one = np.zeros(54, dtype=np.int64)
        k = idx[i]
        assert valid[i] == K.check_throw(leads[i], others[i], es[k], ps[k], one), i
        assert np.array_equal(forced[i], one), i


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize("threads", THREADS)
def test_counts_in_any_chunks(chunk, threads):
    recs, idx, es, ps, sc, ns, ms = _kind("legal_follows_count")
    h, ld = _spoil(_stack(recs, "hand"), BAD), _stack(recs, "lead")
    counts, err = K.count_follows_batch(h, ld, idx, es, ps, sc, ns, ms, threads, chunk)
    assert (err[BAD] != 0).all() and not counts[BAD].any()
    for i in range(len(recs)):
        if i not in BAD:
            k = idx[i]
            assert counts[i] == K.count_follows(h[i], ld[i], es[k], ps[k], sc[k], ns[k]), i
            assert counts[i] == recs[i]["expected"], i


def _allocations(call):
    call()  # compiled or loaded outside the count
    was = nrt.memsys_stats_enabled()
    nrt.memsys_enable_stats()
    try:
        before = rtsys.get_allocation_stats().alloc
        call()
        return rtsys.get_allocation_stats().alloc - before
    finally:
        if not was:
            nrt.memsys_disable_stats()


def _row_allocations(kernel, *rows_then_rest, nrows):
    """Allocations a row adds to a call (the same rows once and three times)."""
    def tiled(reps):
        return [np.concatenate([a] * reps) for a in rows_then_rest[:nrows]]
    once = _allocations(lambda: kernel(*tiled(1), *rows_then_rest[nrows:]))
    thrice = _allocations(lambda: kernel(*tiled(3), *rows_then_rest[nrows:]))
    return thrice - once


def _asks_for_chains(hand, lead, esuit, pos):
    lam = np.zeros(MAX_PARTS, dtype=np.int64)
    nl, held, size = K.required_shape(hand, lead, esuit, pos, lam)
    return held > size and nl > 0 and lam[0] > 1


def test_a_row_costs_no_allocation():
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    recs, idx, es, ps, _, _, ms = _kind("trick_winner")
    plays = _stack3(recs, "plays")
    assert _row_allocations(K.trick_winner_batch, plays, idx, es, ps, ms, 0, 2, 64, nrows=2) == 0
    assert _row_allocations(K.trick_winner_batch_serial, plays, idx, es, ps, ms, 0, nrows=2) == 0
    recs, idx, es, ps, _, _, ms = _kind("throw_valid")
    leads, others = _stack(recs, "lead"), _stack3(recs, "others")
    assert _row_allocations(K.check_throw_batch, leads, others, idx, es, ps, ms, 2, 64,
                            nrows=3) == 0
    recs, idx, es, ps, _, _, ms = _kind("follow_legal")
    h, ld, p = _stack(recs, "hand"), _stack(recs, "lead"), _stack(recs, "play")
    assert _row_allocations(K.follow_legal_batch, h, ld, p, idx, es, ps, ms, 2, 64, nrows=4) == 0
    # counting, chain leads included (counted by their sets of pairs, not enumerated)
    recs, idx, es, ps, sc, ns, ms = _kind("legal_follows_count")
    h, ld = _stack(recs, "hand"), _stack(recs, "lead")
    assert sum(_asks_for_chains(h[i], ld[i], es[idx[i]], ps[idx[i]]) for i in range(len(recs))) >= 5
    # (chunks of 16 rows: two workers, each with its buffers, in both calls)
    assert _row_allocations(K.count_follows_batch, h, ld, idx, es, ps, sc, ns, ms, 2, 16,
                            nrows=3) == 0
