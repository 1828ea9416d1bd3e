"""The 升级 batch API on the issue's rows: whole call against its kernel, side by side.

Rows: every corpus case of a kind tiled (``follow_legal``: 170 cases × 200 = 34,000
rows of count vectors), one :class:`TrumpContext` per row.  For each entry point the
whole call (:mod:`engines.shengji.arrays`: context codes, row checks, kernel, error
scan) and the bare kernel on the same prepared arrays are timed alternately, best of
``--repeat``; the share of the call outside the kernel is what validation and context
handling cost.  Wall time and the calling thread's CPU time are both given: on a
loaded machine the CPU time is the figure for "one core".

    .venv/bin/python benches/bench_shengji_arrays.py [--repeat 7] [--tile 200]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numba
import numpy as np

import solvers.shengji as K
from engines.shengji import arrays
from engines.shengji.cards import parse_cards
from engines.shengji.rules import TrumpContext
from engines.verify import read_jsonl

CASES = Path(__file__).resolve().parents[1] / "tests" / "data" / "shengji" / "cases.jsonl"


def _rows(kind: str, tile: int):
    """The cases of ``kind`` (each parsed once: ``_stack`` tiles the arrays) and one context
    per row, in the order of the cases repeated ``tile`` times."""
    recs = [r for _, r in read_jsonl(CASES) if r["kind"] == kind]
    return recs, [TrumpContext(r["level"], r["trump"]) for r in recs] * tile


def _tiled(rows: np.ndarray, tile: int) -> np.ndarray:
    return np.tile(rows, (tile, *([1] * (rows.ndim - 1))))


def _stack(recs, field, tile):
    return _tiled(np.stack([parse_cards(r[field]) for r in recs]), tile)


def cases(tile: int, threads: int, chunk: int = 0):
    """name -> (rows, whole call, kernel call on the same arrays); ``chunk``: rows per chunk
    of the parallel kernels (0: theirs; the whole calls always use theirs)."""
    out = {}
    recs, ctxs = _rows("follow_legal", tile)
    h, ld, p = (_stack(recs, f, tile) for f in ("hand", "lead", "play"))
    idx, es, ps, sc, ns, ms = arrays._contexts(ctxs, len(ctxs))
    if threads == 1:
        kernel = lambda: K.follow_legal_batch_serial(h, ld, p, idx, es, ps, ms)  # noqa: E731
    else:
        kernel = lambda: K.follow_legal_batch(h, ld, p, idx, es, ps, ms, threads,  # noqa: E731
                                              chunk)
    out["are_legal_follows"] = (
        len(ctxs), lambda: arrays.are_legal_follows(h, ld, p, ctxs, threads=threads), kernel)

    tile2 = max(1, tile // 10)
    recs, ctxs2 = _rows("legal_follows_count", tile2)
    h2, ld2 = _stack(recs, "hand", tile2), _stack(recs, "lead", tile2)
    idx2 = arrays._contexts(ctxs2, len(ctxs2))[0]
    out["count_legal_follows"] = (
        len(ctxs2), lambda: arrays.count_legal_follows(h2, ld2, ctxs2, threads=threads),
        lambda: K.count_follows_batch(h2, ld2, idx2, es, ps, sc, ns, ms, threads, chunk))

    recs, ctxs3 = _rows("trick_winner", tile)
    plays = _tiled(np.stack([np.stack([parse_cards(x) for x in r["plays"]]) for r in recs]), tile)
    idx3 = arrays._contexts(ctxs3, len(ctxs3))[0]
    out["trick_winners"] = (
        len(ctxs3), lambda: arrays.trick_winners(plays, ctxs3, threads=threads),
        (lambda: K.trick_winner_batch_serial(plays, idx3, es, ps, ms, 0)) if threads == 1
        else (lambda: K.trick_winner_batch(plays, idx3, es, ps, ms, 0, threads, chunk)))

    recs, ctxs4 = _rows("throw_valid", tile)
    leads = _stack(recs, "lead", tile)
    others = _tiled(np.stack([np.stack([parse_cards(x) for x in r["others"]]) for r in recs]),
                    tile)  # fmt: skip
    idx4 = arrays._contexts(ctxs4, len(ctxs4))[0]
    out["check_throws"] = (
        len(ctxs4), lambda: arrays.check_throws(leads, others, ctxs4, threads=threads),
        lambda: K.check_throw_batch(leads, others, idx4, es, ps, ms, threads, chunk))
    return out


def _best(fn, clock, repeat):
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--tile", type=int, default=200)
    args = parser.parse_args()
    for threads in (1, 2):
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        for name, (n, whole, kernel) in cases(args.tile, threads).items():
            whole(), kernel()  # compile or load outside the timing
            clocks = [time.perf_counter] + ([time.thread_time] if threads == 1 else [])
            for clock in clocks:
                w = k = float("inf")
                for _ in range(args.repeat):  # alternate whole call and kernel
                    w = min(w, _best(whole, clock, 1))
                    k = min(k, _best(kernel, clock, 1))
                label = "wall" if clock is time.perf_counter else "cpu "
                print(f"{threads} thread(s) {label} {name:20s} {n:6d} rows  whole "
                      f"{n / w:12,.0f} rows/s  kernel {n / k:12,.0f} rows/s  outside the "
                      f"kernel {1 - k / w:6.1%}", flush=True)


if __name__ == "__main__":
    main()
