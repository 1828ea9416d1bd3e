"""Rummikub house rules: best-move time per position for every rule combination.

The positions are those of the bench bands (``bench_rummikub.band_positions``: tables of
about 0-80 tiles, with and without jokers, 14-tile racks), once as they are (melded: the
meld rules do not apply, the default's figure is the reference) and once with the player
still to make the initial meld (the table stays, the rack must open with new sets worth
the threshold).  Every combination of ``meld_threshold`` (0, 1, 30, 60, 127) and
``meld_joker`` (stands-for, zero) is timed on the same positions through the public
``best_move``, after warm-up (compilation is excluded).

    .venv/bin/python benches/bench_rummikub_rules.py -n 10
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

from bench_rummikub import BANDS, band_positions
from engines.rummikub import Rules, best_move, warmup

THRESHOLDS = (0, 1, 30, 60, 127)
JOKERS = ("stands-for", "zero")


def _time(positions: list[dict], melded: bool, rules: Rules) -> list[float]:
    times = []
    for pos in positions:
        t = time.perf_counter()
        best_move(pos["table"], pos["rack"], initial_meld_done=melded, rules=rules)
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10, help="positions per band and joker variant")
    args = parser.parse_args()
    warmup()
    positions = [p for size in BANDS for jokers in (False, True)
                 for p in band_positions(size, jokers, n=args.n)]
    rows = [("melded (rules do not apply)", _time(positions, True, Rules()))]
    for threshold, joker in itertools.product(THRESHOLDS, JOKERS):
        rules = Rules(meld_threshold=threshold, meld_joker=joker)
        rows.append((f"initial meld, threshold {threshold}, joker {joker}",
                     _time(positions, False, rules)))
    print(f"{len(positions)} positions (bands {BANDS}, with and without jokers)")
    print(f"{'rules':<48} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for name, times in rows:
        ms = sorted(1e3 * t for t in times)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(f"{name:<48} {statistics.median(ms):>10.2f} {p95:>8.2f} {ms[-1]:>8.2f}")


if __name__ == "__main__":
    main()
