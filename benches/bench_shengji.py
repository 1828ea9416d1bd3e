"""升级 benchmarks: batched follow legality, legal-follow enumeration, full random rounds.

Positions are "corpus-like": every follow decision of simulated random rounds
(the hand, the lead as played, and either the follow actually made — legal —
or a random same-size part of the hand — usually illegal).  Every kernel
figure is measured next to the pure-Python oracle of ``tests/shengji/oracle.py``
on the same positions in the same run.

    ./run bench benches/bench_shengji.py      # pytest-benchmark
    .venv/bin/python benches/bench_shengji.py  # side-by-side summary with ratios
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from functools import cache
from pathlib import Path

import numba
import numpy as np
import pytest

import solvers.shengji as K
from engines.shengji.game import Round
from engines.shengji.players import RandomPlayer
from engines.shengji.rules import TrumpContext

ROOT = Path(__file__).resolve().parents[1]


def _oracle():
    name = "shengji_oracle"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "tests/shengji/oracle.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


class _Recorder(RandomPlayer):
    def __init__(self, rng, log):
        super().__init__(rng)
        self.log = log

    def follow(self, view):
        play = super().follow(view)
        self.log.append((view.ctx, view.hand.copy(), view.lead.copy(), play.copy()))
        return play


@cache
def positions(n_rounds: int = 120, seed: int = 7):
    """(contexts, hands, leads, plays, ctx_index, stacked tables) from simulated rounds."""
    rng = random.Random(seed)
    log: list = []
    for r in range(n_rounds):
        players = [_Recorder(random.Random(seed * 1000 + r * 4 + i), log) for i in range(4)]
        Round(players, random.Random(rng.random())).play_out()
    ctxs, hands, leads, plays = [], [], [], []
    for ctx, hand, lead, play in log:
        ctxs.append(ctx)
        hands.append(hand)
        leads.append(lead)
        if rng.random() < 0.5:
            plays.append(play)
        else:  # a random same-size part of the hand: mostly illegal
            inst = [c for c in range(54) for _ in range(int(hand[c]))]
            alt = np.zeros(54, dtype=np.int8)
            for c in rng.sample(inst, int(lead.sum())):
                alt[c] += 1
            plays.append(alt)
    keys = sorted({(c.level, c.trump) for c in ctxs})
    index = {k: i for i, k in enumerate(keys)}
    idx = np.array([index[(c.level, c.trump)] for c in ctxs], dtype=np.int64)
    tables = K.stack_tables([K.context_tables(*k) for k in keys])
    return ctxs, np.stack(hands), np.stack(leads), np.stack(plays), idx, tables


def _names(counts):
    from engines.shengji.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in range(54) for _ in range(int(counts[c]))]


@cache
def oracle_inputs(limit: int = 1500):
    ctxs, hands, leads, plays, _, _ = positions()
    return [
        (_names(hands[i]), _names(leads[i]), _names(plays[i]), ctxs[i].level_name,
         ctxs[i].trump_name)
        for i in range(min(limit, len(ctxs)))
    ]


TILE = 10  # legality batches repeat the positions so a batch lasts long enough to split


@cache
def tiled():
    _, hands, leads, plays, idx, _ = positions()
    return (np.tile(hands, (TILE, 1)), np.tile(leads, (TILE, 1)), np.tile(plays, (TILE, 1)),
            np.tile(idx, TILE))


def kernel_legal(threads: int):
    _, _, _, _, _, (es, ps, _, _) = positions()
    hands, leads, plays, idx = tiled()
    numba.set_num_threads(threads)
    if threads == 1:
        return K.follow_legal_batch_serial(hands, leads, plays, idx, es, ps)
    return K.follow_legal_batch(hands, leads, plays, idx, es, ps, threads)


def oracle_legal():
    o = _oracle()
    return [o.follow_legal(*args) for args in oracle_inputs()]


@cache
def small_enum_rows(max_filler: int = 3):
    """Positions whose plain filtering stays affordable in Python (short leads)."""
    leads = positions()[2]
    keep = [i for i in range(len(leads)) if leads[i].sum() <= max_filler]
    return np.array(keep[:600], dtype=np.int64)


def kernel_enumerate(rows=None):
    _, hands, leads, _, idx, (es, ps, sc, ns) = positions()
    if rows is not None:
        hands, leads, idx = hands[rows], leads[rows], idx[rows]
    return K.enumerate_follows_batch(hands, leads, idx, es, ps, sc, ns)


def kernel_count(threads: int):
    _, hands, leads, _, idx, (es, ps, sc, ns) = positions()
    numba.set_num_threads(threads)
    return K.count_follows_batch(hands, leads, idx, es, ps, sc, ns, threads)


def oracle_enumerate(rows):
    o = _oracle()
    ctxs, hands, leads, _, _, _ = positions()
    return [
        len(o.legal_follows_filtered(_names(hands[i]), _names(leads[i]), ctxs[i].level_name,
                                     ctxs[i].trump_name))
        for i in rows
    ]


def random_rounds(n: int, seed: int = 0) -> int:
    numba.set_num_threads(1)
    for r in range(n):
        players = [RandomPlayer(random.Random(seed + r * 4 + i)) for i in range(4)]
        Round(players, random.Random(seed + r)).play_out()
    return n


def warmup() -> None:
    """Compile every kernel outside the timed regions."""
    kernel_legal(1)
    kernel_legal(min(2, numba.config.NUMBA_NUM_THREADS))
    kernel_count(1)
    kernel_enumerate(small_enum_rows())
    random_rounds(1)
    TrumpContext("2", "S")


# ------------------------------------------------------------------ pytest-benchmark


@pytest.fixture(scope="module", autouse=True)
def _warm():
    warmup()
    yield
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def _per_second(benchmark, count: int) -> None:
    benchmark.extra_info["items"] = count
    benchmark.extra_info["per_second"] = count / benchmark.stats.stats.mean


def test_legal_kernel_one_core(benchmark):
    out = benchmark.pedantic(kernel_legal, args=(1,), rounds=5, warmup_rounds=1)
    _per_second(benchmark, len(out))


def test_legal_kernel_two_cores(benchmark):
    out = benchmark.pedantic(kernel_legal, args=(2,), rounds=5, warmup_rounds=1)
    _per_second(benchmark, len(out))


def test_legal_oracle(benchmark):
    out = benchmark.pedantic(oracle_legal, rounds=2, warmup_rounds=0)
    _per_second(benchmark, len(out))
    # the kernel agrees with the oracle on the positions timed (the first tile)
    assert out == kernel_legal(1)[: len(out)].tolist()


def test_count_kernel_one_core(benchmark):
    out = benchmark.pedantic(kernel_count, args=(1,), rounds=3, warmup_rounds=1)
    _per_second(benchmark, len(out))


def test_count_kernel_two_cores(benchmark):
    out = benchmark.pedantic(kernel_count, args=(2,), rounds=3, warmup_rounds=1)
    _per_second(benchmark, len(out))


def test_enumerate_kernel_small(benchmark):
    rows = small_enum_rows()
    benchmark.pedantic(kernel_enumerate, args=(rows,), rounds=5, warmup_rounds=1)
    _per_second(benchmark, len(rows))


def test_enumerate_oracle_small(benchmark):
    rows = small_enum_rows()
    counts = benchmark.pedantic(oracle_enumerate, args=(rows,), rounds=1, warmup_rounds=0)
    _per_second(benchmark, len(rows))
    offsets, _ = kernel_enumerate(rows)
    assert counts == np.diff(offsets).tolist()


def test_random_rounds_one_core(benchmark):
    n = benchmark.pedantic(random_rounds, args=(30,), rounds=3, warmup_rounds=0)
    _per_second(benchmark, n)


# ------------------------------------------------------------------ side-by-side summary


def _rate(fn, count, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return count / best


def main() -> None:
    t0 = time.perf_counter()
    warmup()
    print(f"setup + warm-up {time.perf_counter() - t0:.1f} s; "
          f"{len(positions()[0])} positions from 120 random rounds")
    n = len(positions()[0])
    nt = n * TILE
    m = len(oracle_inputs())
    rows = small_enum_rows()
    legal1 = _rate(lambda: kernel_legal(1), nt)
    legal2 = _rate(lambda: kernel_legal(2), nt)
    legal_o = _rate(oracle_legal, m, repeat=1)
    count1 = _rate(lambda: kernel_count(1), n)
    count2 = _rate(lambda: kernel_count(2), n)
    enum_k = _rate(lambda: kernel_enumerate(rows), len(rows))
    enum_all = _rate(lambda: kernel_enumerate(), n)
    enum_o = _rate(lambda: oracle_enumerate(rows), len(rows), repeat=1)
    rounds = _rate(lambda: random_rounds(30), 30, repeat=2)
    print(f"follow legality, batched kernel, 1 core : {legal1:12,.0f} positions/s")
    print(f"follow legality, batched kernel, 2 cores: {legal2:12,.0f} positions/s")
    print(f"follow legality, pure-Python oracle     : {legal_o:12,.0f} positions/s")
    print(f"  kernel / oracle: {legal1 / legal_o:,.0f}x (1 core), {legal2 / legal_o:,.0f}x (2)")
    print(f"legal-follow count, kernel, 1 core      : {count1:12,.0f} positions/s")
    print(f"legal-follow count, kernel, 2 cores     : {count2:12,.0f} positions/s")
    print(f"enumeration, kernel, all positions      : {enum_all:12,.0f} positions/s")
    print(f"enumeration, kernel, short leads (≤3)   : {enum_k:12,.0f} positions/s")
    print(f"enumeration, oracle filter, short leads : {enum_o:12,.0f} positions/s")
    print(f"  kernel / oracle: {enum_k / enum_o:,.0f}x")
    print(f"random rounds, 1 core                   : {rounds:12,.1f} rounds/s "
          f"= {rounds * 60:,.0f} rounds/min")


if __name__ == "__main__":
    main()
