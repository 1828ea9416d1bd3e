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

import random
import runpy
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
SUBSET = 1500  # positions the oracle is timed on; the kernels are timed on the same ones
TILE = 50  # kernel batches repeat them so one batch lasts long enough to time and to split


@cache
def _oracle():
    return runpy.run_path(str(ROOT / "tests/conftest.py"))["load_helper"]("shengji", "oracle")


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
def oracle_inputs(limit: int = SUBSET):
    ctxs, hands, leads, plays, _, _ = positions()
    return [
        (_names(hands[i]), _names(leads[i]), _names(plays[i]), ctxs[i].level_name,
         ctxs[i].trump_name)
        for i in range(min(limit, len(ctxs)))
    ]


@cache
def tiled():
    _, hands, leads, plays, idx, _ = positions()
    s = slice(0, SUBSET)
    return (np.tile(hands[s], (TILE, 1)), np.tile(leads[s], (TILE, 1)),
            np.tile(plays[s], (TILE, 1)), np.tile(idx[s], TILE))


def kernel_legal(threads: int):
    _, _, _, _, _, (es, ps, _, _, ms) = positions()
    hands, leads, plays, idx = tiled()
    numba.set_num_threads(threads)
    if threads == 1:
        return K.follow_legal_batch_serial(hands, leads, plays, idx, es, ps, ms)[0]
    return K.follow_legal_batch(hands, leads, plays, idx, es, ps, ms, threads, 0)[0]


def oracle_legal():
    o = _oracle()
    return [o.follow_legal(*args) for args in oracle_inputs()]


@cache
def small_enum_rows(max_filler: int = 3):
    """Positions whose plain filtering stays affordable in Python (short leads)."""
    leads = positions()[2]
    keep = [i for i in range(len(leads)) if leads[i].sum() <= max_filler]
    return np.array(keep[:600], dtype=np.int64)


ENUM_TILE = 10


def kernel_enumerate(rows=None, tile: int = 1):
    _, hands, leads, _, idx, (es, ps, sc, ns, _) = positions()
    if rows is not None:
        rows = np.tile(rows, tile)
        hands, leads, idx = hands[rows], leads[rows], idx[rows]
    return K.enumerate_follows_batch(hands, leads, idx, es, ps, sc, ns)


def kernel_count(threads: int):
    _, hands, leads, _, idx, (es, ps, sc, ns, ms) = positions()
    numba.set_num_threads(threads)
    return K.count_follows_batch(hands, leads, idx, es, ps, sc, ns, ms, threads, 0)[0]


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
    benchmark.pedantic(kernel_enumerate, args=(rows, ENUM_TILE), rounds=5, warmup_rounds=1)
    _per_second(benchmark, len(rows) * ENUM_TILE)


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


def _best(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _side_by_side(pairs: dict[str, tuple], repeat: int = 3) -> dict[str, float]:
    """Best-of-``repeat`` rates (items/s), the timings of all entries interleaved per repeat."""
    best = dict.fromkeys(pairs, float("inf"))
    for _ in range(repeat):
        for name, (fn, _count) in pairs.items():
            best[name] = min(best[name], _best(fn))
    return {name: pairs[name][1] / best[name] for name in pairs}


def main() -> None:
    t0 = time.perf_counter()
    warmup()
    n = len(positions()[0])
    print(f"setup + warm-up {time.perf_counter() - t0:.1f} s; {n} positions from 120 random "
          f"rounds; legality timed on the first {SUBSET} (kernels: {TILE} copies per batch)")
    rows = small_enum_rows()
    nt = SUBSET * TILE
    r = _side_by_side({
        "legal1": (lambda: kernel_legal(1), nt),
        "legal2": (lambda: kernel_legal(2), nt),
        "legal_o": (oracle_legal, SUBSET),
        "count1": (lambda: kernel_count(1), n),
        "count2": (lambda: kernel_count(2), n),
        "enum_all": (kernel_enumerate, n),
        "enum_k": (lambda: kernel_enumerate(rows, ENUM_TILE), len(rows) * ENUM_TILE),
        "enum_o": (lambda: oracle_enumerate(rows), len(rows)),
        "rounds": (lambda: random_rounds(30), 30),
    })
    print(f"follow legality, batched kernel, 1 core : {r['legal1']:12,.0f} positions/s")
    print(f"follow legality, batched kernel, 2 cores: {r['legal2']:12,.0f} positions/s")
    print(f"follow legality, pure-Python oracle     : {r['legal_o']:12,.0f} positions/s")
    print(f"  kernel / oracle: {r['legal1'] / r['legal_o']:,.0f}x (1 core), "
          f"{r['legal2'] / r['legal_o']:,.0f}x (2 cores)")
    print(f"legal-follow count, kernel, 1 core      : {r['count1']:12,.0f} positions/s")
    print(f"legal-follow count, kernel, 2 cores     : {r['count2']:12,.0f} positions/s")
    print(f"enumeration, kernel, all positions      : {r['enum_all']:12,.0f} positions/s")
    print(f"enumeration, kernel, short leads (≤3)   : {r['enum_k']:12,.0f} positions/s "
          f"({len(rows)} positions)")
    print(f"enumeration, oracle filter, short leads : {r['enum_o']:12,.0f} positions/s")
    print(f"  kernel / oracle: {r['enum_k'] / r['enum_o']:,.0f}x")
    print(f"random rounds, 1 core                   : {r['rounds']:12,.1f} rounds/s "
          f"= {r['rounds'] * 60:,.0f} rounds/min")


if __name__ == "__main__":
    main()
