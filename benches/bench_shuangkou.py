"""双扣 benchmarks: batched classification and comparison, legal-response
enumeration from 27-card hands (next to the pure-Python oracle of
``tests/shuangkou/oracle.py``, same positions, same run), the exact end-game
solver by size, and whole random rounds.

Times are CPU seconds of this process (``time.process_time``) on one thread: the
shared development machine runs at a load of about ten on two cores, where
wall-clock time would measure the run queue.  Ratios compare the kernel and the
oracle on the same positions in the same run.

Inputs are fresh random positions from several seeds: 27-card hands dealt from
the double deck, combinations drawn uniformly from the leads of other dealt
hands, and random sub-multisets (mostly not combinations).

    .venv/bin/python benches/bench_shuangkou.py            # summary with ratios
    .venv/bin/python benches/bench_shuangkou.py --quick    # smaller sizes
    ./run bench benches/bench_shuangkou.py                 # pytest-benchmark
"""

from __future__ import annotations

import argparse
import itertools
import random
import runpy
import statistics
import time
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np

import solvers.shuangkou as K
from engines.shuangkou import warmup
from engines.shuangkou.arrays import beats_many, classify_many, count_plays_many
from engines.shuangkou.cards import deck_list
from engines.shuangkou.endgame import solve_endgame
from engines.shuangkou.game import Round, play_round
from engines.shuangkou.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[1]
SEEDS = (11, 22, 33)


@cache
def _oracle():
    return runpy.run_path(str(ROOT / "tests/conftest.py"))["load_helper"]("shuangkou", "oracle")


def _counts(cards) -> np.ndarray:
    arr = np.zeros((15, 4), dtype=np.uint8)
    for c in cards:
        arr[c.rank, c.suit] += 1
    return arr


def _deal(rng: random.Random) -> list[np.ndarray]:
    deck = deck_list()
    rng.shuffle(deck)
    return [_counts(deck[i * 27 : (i + 1) * 27]) for i in range(4)]


def _counter(arr: np.ndarray) -> Counter:
    return Counter({(r, s): int(arr[r, s]) for r in range(15) for s in range(4) if arr[r, s]})


@cache
def card_sets(seed: int, n: int) -> np.ndarray:
    """n card sets: half combinations drawn from dealt hands' leads, half random subsets."""
    rng = random.Random(seed)
    out = np.zeros((n, 15, 4), dtype=np.uint8)
    i = 0
    while i < n:
        hands = _deal(rng)
        for hand in hands:
            plays = np.zeros((K.count_plays(hand, 0, True), 15, 4), dtype=np.uint8)
            K.enumerate_plays(hand, 0, True, plays)
            take = min(len(plays), 64, n - i)
            picks = rng.sample(range(len(plays)), take)
            out[i : i + take] = plays[picks]
            i += take
            cards = [(r, s) for r in range(15) for s in range(4) for _ in range(hand[r, s])]
            for _ in range(min(64, n - i)):
                sub = rng.sample(cards, rng.randint(1, 8))
                for r, s in sub:
                    out[i, r, s] += 1
                i += 1
            if i >= n:
                break
    return out


def _best_rate(fn, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def bench_classify_beats(n: int) -> None:
    oracle = _oracle()
    for seed in SEEDS:
        sets = card_sets(seed, n)
        prev = np.roll(sets, 1, axis=0)
        t_cls = _best_rate(lambda sets=sets: classify_many(sets, threads=1))
        t_beats = _best_rate(lambda sets=sets, prev=prev: beats_many(sets, prev, threads=1))
        codes = classify_many(sets)
        valid = sets[codes != 0]
        valid_prev = np.roll(valid, 1, axis=0)
        t_valid = _best_rate(lambda v=valid, p=valid_prev: beats_many(v, p, threads=1))
        out = np.zeros(n, dtype=np.bool_)
        rolled = np.roll(codes, 1)
        K.code_beats_batch(codes, rolled, out)
        t_codes = _best_rate(lambda c=codes, r=rolled, o=out: K.code_beats_batch(c, r, o))
        sub = [_counter(a) for a in sets[:20000]]
        t = time.process_time()
        oc = [oracle.classify(c) for c in sub]
        t_ocls = (time.process_time() - t) / len(sub)
        t = time.process_time()
        for first, second in itertools.pairwise(oc):
            oracle.beats(first, second)
        t_obeats = (time.process_time() - t) / (len(sub) - 1)
        print(
            f"seed {seed}: classify {n / t_cls / 1e6:.1f} M/s, beats from card sets "
            f"{n / t_beats / 1e6:.1f} M/s (plays that are combinations only: "
            f"{len(valid) / t_valid / 1e6:.1f} M/s), beats on codes {n / t_codes / 1e6:.0f} M/s "
            f"(1 thread); "
            f"oracle classify {1 / t_ocls / 1e3:.0f} k/s, beats on classified "
            f"{1 / t_obeats / 1e3:.0f} k/s; ratio classify {t_ocls * n / t_cls:.0f}x"
        )


def enumeration_positions(seed: int, n: int):
    """n (hand, previous code) pairs: dealt 27-card hands answering a combination drawn
    from another hand's leads, or leading (one in five)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands = _deal(rng)
        if rng.random() < 0.2:
            out.append((hands[0], 0))
            continue
        plays = np.zeros((K.count_plays(hands[1], 0, True), 15, 4), dtype=np.uint8)
        K.enumerate_plays(hands[1], 0, True, plays)
        out.append((hands[0], int(K.classify(plays[rng.randrange(len(plays))], True))))
    return out


def bench_enumeration(n: int) -> None:
    oracle = _oracle()
    for seed in SEEDS:
        pos = enumeration_positions(seed, n)
        hands = np.stack([h for h, _ in pos])
        prev = np.array([p for _, p in pos], dtype=np.int64)
        counts = count_plays_many(hands, prev, threads=1)
        bufs = [np.zeros((int(c), 15, 4), dtype=np.uint8) for c in counts]

        def kernel(pos=pos, bufs=bufs):
            for (h, p), buf in zip(pos, bufs):
                K.enumerate_plays(h, p, True, buf)

        t_k = _best_rate(kernel)
        t_count = _best_rate(lambda h=hands, p=prev: count_plays_many(h, p, threads=1))
        t = time.process_time()
        total = 0
        for h, p in pos:
            previous = None
            if p:
                previous = (K.TYPE_NAMES[p >> 16], p & 255, (p >> 8) & 255)
            total += len(oracle.plays(_counter(h), previous))
        t_o = time.process_time() - t
        assert total == int(counts.sum())
        print(
            f"seed {seed}: {n} 27-card hands, {int(counts.sum())} plays: enumerate "
            f"{t_k / n * 1e6:.1f} us/hand, count {t_count / n * 1e6:.2f} us/hand, oracle "
            f"{t_o / n * 1e3:.1f} ms/hand; ratio {t_o / t_k:.0f}x (enumerate), "
            f"{t_o / t_count:.0f}x (count)"
        )


def bench_endgame(sizes, per_size: int) -> None:
    for size in sizes:
        times, nodes = [], []
        for seed in range(per_size):
            rng = random.Random(1000 * size + seed)
            deck = deck_list()
            rng.shuffle(deck)
            hands = [deck[i * size : (i + 1) * size] for i in range(4)]
            game = Round(hands, leader=rng.randrange(4))
            t = time.process_time()
            res = solve_endgame(game, line=False)
            times.append(time.process_time() - t)
            nodes.append(res.nodes)
        print(
            f"end-game {size} cards/hand ({4 * size} cards): median {statistics.median(times):.3f}"
            f" s, max {max(times):.3f} s, median nodes {int(statistics.median(nodes))} "
            f"({per_size} random deals, seat chosen at random leads)"
        )


def bench_rounds(n: int) -> None:
    rng = random.Random(5)
    players = [RandomPlayer(random.Random(i)) for i in range(4)]
    t = time.process_time()
    actions = 0
    for _ in range(n):
        actions += len(play_round(players, rng).actions)
    dt = time.process_time() - t
    print(f"random rounds: {n / dt:.1f} rounds/s, {actions / dt:.0f} actions/s")


def test_classify_batch(benchmark):
    warmup()
    sets = card_sets(SEEDS[0], 200_000)
    benchmark(classify_many, sets, threads=1)


def test_enumerate_27_card_hands(benchmark):
    warmup()
    pos = enumeration_positions(SEEDS[0], 200)
    counts = count_plays_many(np.stack([h for h, _ in pos]), np.array([p for _, p in pos]))
    bufs = [np.zeros((int(c), 15, 4), dtype=np.uint8) for c in counts]

    def run():
        for (h, p), buf in zip(pos, bufs):
            K.enumerate_plays(h, p, True, buf)

    benchmark(run)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller inputs")
    args = parser.parse_args()
    warmup()
    n_sets = 200_000 if args.quick else 1_000_000
    bench_classify_beats(n_sets)
    bench_enumeration(100 if args.quick else 300)
    bench_endgame((2, 3, 4) if args.quick else (2, 3, 4, 5), 3 if args.quick else 5)
    bench_rounds(10 if args.quick else 40)


if __name__ == "__main__":
    main()
