"""Rummikub ``fewest_tiles_moved``: the fewest-tiles-moved pass alone, per bench band.

For each position of the bench bands (``bench_rummikub.band_positions``, melded, objective
tiles), least disturbance's move is found first (default rules, not timed), then
``engines.rummikub.heirs.fewest_moved_move`` is timed on it (thread CPU, after a warm-up that
runs the pass, garbage collection off while timing):
median and maximum ms a position, the most ms spent building its tables (the released
groups' stays), its states (the passes' layers, summed) median and maximum, the tiles
moved by least disturbance's move -> by the pass's (summed), and the positions over 50 ms.

    .venv/bin/python benches/bench_rummikub_fewest.py -n 5 --seeds 1 --bands 20,20J,40,40J
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from bench_rummikub import BANDS, band_positions
from engines.rummikub import Rules, best_move, least, warmup
from engines.rummikub import heirs as H
from engines.rummikub.position import Position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-n", type=int, default=5, help="positions per band and seed")
    parser.add_argument("--seeds", default="1", help="comma-separated seeds")
    parser.add_argument("--bands", default=None, help="e.g. 20,20J,40 (default: all)")
    args = parser.parse_args()
    fewest = Rules(fewest_tiles_moved=True)
    tables = [0.0]
    build = H._tables

    def timed(*a: object) -> dict:
        t = time.thread_time()
        out = build(*a)
        tables[0] += time.thread_time() - t
        return out

    H._tables = timed
    _warm_up(fewest)
    wanted = args.bands.split(",") if args.bands else None
    print("band  positions | ms median / max | tables ms max | states median / max | "
          "moved: least disturbance -> fewest | > 50 ms")
    for size in BANDS:
        for jokers in (False, True):
            name = f"{size}{'J' if jokers else ''}"
            if wanted and name not in wanted:
                continue
            rows = []
            for seed in map(int, args.seeds.split(",")):
                for p in band_positions(size, jokers, n=args.n, seed=seed):
                    pos = Position.from_strings(p["table"], p["rack"])
                    first = best_move(p["table"], p["rack"], True, "tiles")
                    tables[0] = 0.0
                    work = least.WORK.copy()
                    gc.collect()
                    gc.disable()  # a collection inside one timed pass costs it 30-40 ms
                    t = time.thread_time()
                    move = H.fewest_moved_move(pos, "tiles", fewest, first) if pos.table \
                        else first
                    ms = 1e3 * (time.thread_time() - t)
                    gc.enable()
                    rows.append((ms, 1e3 * tables[0], int((least.WORK - work)[1]),
                                 first.tiles_moved, move.tiles_moved))
            ms = [r[0] for r in rows]
            states = [r[2] for r in rows]
            print(f"{name:<5} {len(rows):>9} | {statistics.median(ms):7.1f} / {max(ms):7.1f} | "
                  f"{max(r[1] for r in rows):13.1f} | {statistics.median(states):8.0f} / "
                  f"{max(states):8} | {sum(r[3] for r in rows):5} -> {sum(r[4] for r in rows):4}"
                  f" | {sum(m > 50 for m in ms):7}", flush=True)


def _warm_up(fewest: Rules) -> None:
    """Run the pass itself once, untimed: its first call loads it from Numba's cache (~60 ms).

    A move that needs no pass would leave the first timed position to pay for the load, so
    positions are tried until one runs the pass (its states counter moves).  The engine's
    kernels load first (:func:`engines.rummikub.warmup`): the bound on the rack's gain
    (``heirs_gain``) runs the move DP's serial kernel, which the pass alone does not load.
    """
    warmup()
    for p in band_positions(20, False, n=5, seed=1):
        pos = Position.from_strings(p["table"], p["rack"])
        if not pos.table:
            continue
        work = least.WORK.copy()
        H.fewest_moved_move(pos, "tiles", fewest, best_move(p["table"], p["rack"], True, "tiles"))
        if (least.WORK - work)[1]:
            return
    raise RuntimeError("no warm-up position ran the fewest-tiles-moved pass")


if __name__ == "__main__":
    main()
