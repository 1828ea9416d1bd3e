"""Rummikub house rules: best-move time per position for every rule combination.

The positions are those of the bench bands (``bench_rummikub.band_positions``: tables of
about 0-80 tiles, with and without jokers, 14-tile racks), once as they are (melded: the
meld rules do not apply, the default's figure is the reference) and once with the player
still to make the initial meld (the table stays, the rack must open with new sets worth
the threshold).  Every combination of ``meld_threshold`` (0, 1, 30, 60, 127) and
``meld_joker`` (stands-for, zero) is timed on the same positions through the public
``best_move``, after warm-up (compilation is excluded).  So are the other options the DP
solves: official joker retrieval, two real tiles per set, smaller tile sets (the
positions restricted to them: table sets and rack tiles outside the tile set, or beyond its
copies and jokers, dropped; a tile set of three or four jokers: the positions with jokers get
the others in the rack; of three or four copies: the rack gets the third (and fourth) copy of up
to three tiles the position holds twice), sets of at least 2 or 4-13 tiles (shorter table
sets dropped) and meld then continue (the player still to meld, thresholds 10-127).  Median,
90th percentile and maximum per row.

``--integer-programme`` times instead the tests' reference oracle, the integer programme of
``tests/rummikub/ip_model.py`` (HiGHS; a reference like ``rummikub-solver``, not the
product, which solves some of these options with the DP and refuses the others), on the options
it solves: official joker retrieval, two real tiles per set, least disturbance, all three,
and meld then continue, next to the DP on the same positions (first row), with the worst
time per band.  Every position goes to the programme, even where an option cannot change
the answer.

``--least`` times ``least_disturbance`` through the public ``best_move`` (the DP holding out
table sets itself, :mod:`engines.rummikub.least`) per band, alone and with the DP's other
options (meld then continue: the player still to meld, threshold 30), with the held-out
passes and their states per position and the sets kept against the plain DP answer's; its
last row adds ``fewest_tiles_moved`` (one more pass, :mod:`engines.rummikub.heirs`, counted
with the passes) and shows the tiles moved instead (least disturbance's -> the fewest).
``--combos`` prints the same table for two or three of those options together
(``COMBO_ROWS``: the combinations the search solves; it refuses the others; those with sets
of 2 or 4+ and more copies or jokers are the width-generic DP's, its states in the table).
``--seeds`` runs them on several seeds' bands in turn, and ``--over 50`` ends with the bands
whose slowest position took more than 50 ms (issue 18's bar) and each seed's maxima summed.

``--wide`` times the wide tile sets (more than 4 colours or numbers past 13: the
width-generic DP of ``solvers/rummikub/wide``) on bench-like bands drawn from each tile set
(:func:`wide_position`: tables of about 0-80 tiles of runs of 3-5 and groups of 3 to all
colours, with and without jokers, 14-tile racks), melded with least disturbance off and on
(the default) and still to meld (threshold 30), then with the wide DP's other tile-set
options (copies 3-4, three or four jokers, sets of 2, 4 or 5 tiles at least: ``WIDE_ROWS``, the
positions restricted to them), with the states stored per position.

    .venv/bin/python benches/bench_rummikub_rules.py -n 10
    .venv/bin/python benches/bench_rummikub_rules.py -n 3 --integer-programme
    .venv/bin/python benches/bench_rummikub_rules.py -n 10 --least
    .venv/bin/python benches/bench_rummikub_rules.py -n 10 --combos --seed 2
    .venv/bin/python benches/bench_rummikub_rules.py -n 10 --rows copies=4  # those rows only
    .venv/bin/python benches/bench_rummikub_rules.py -n 20 --least --rows copies=4 --seed 2
    .venv/bin/python benches/bench_rummikub_rules.py -n 10 --combos --seeds 1-15 --over 50
    .venv/bin/python benches/bench_rummikub_rules.py -n 5 --wide
"""

from __future__ import annotations

import argparse
import gc
import itertools
import random
import runpy
import statistics
import time
from dataclasses import replace
from pathlib import Path

from bench_rummikub import BANDS, band_positions, make_position
from engines.rummikub import Rules, best_move, warmup
from engines.rummikub.tiles import ALL_COLOURS

ROOT = Path(__file__).resolve().parents[1]
THRESHOLDS = (0, 1, 30, 60, 127)
JOKERS = ("stands-for", "zero")


# The DP's other options: (row name, melded, rules)
DP_ROWS = (
    ("min_real_tiles=2, melded", True, Rules(min_real_tiles=2)),
    ("min_real_tiles=2, initial meld 30", False, Rules(min_real_tiles=2)),
    ("colours=3 numbers=10, melded", True, Rules(colours=3, numbers=10)),
    ("colours=3 numbers=10 copies=1 jokers=1 min_real=2", True,
     Rules(colours=3, numbers=10, copies=1, jokers=1, min_real_tiles=2)),
    ("numbers=7, initial meld 30", False, Rules(numbers=7)),
    ("joker_retrieval=official, melded", True, Rules(joker_retrieval="official")),
    ("official + min_real_tiles=2, melded", True,
     Rules(joker_retrieval="official", min_real_tiles=2)),
    ("min_set_length=4, melded", True, Rules(min_set_length=4)),
    ("min_set_length=5, melded", True, Rules(min_set_length=5)),
    ("min_set_length=4, initial meld 30", False, Rules(min_set_length=4)),
    ("min_set_length=5, initial meld 30", False, Rules(min_set_length=5)),
    ("min_set_length=4 + joker_retrieval=official, melded", True,
     Rules(min_set_length=4, joker_retrieval="official")),
    ("jokers=3, melded", True, Rules(jokers=3, least_disturbance=False)),
    ("jokers=3, initial meld 30", False, Rules(jokers=3, least_disturbance=False)),
    ("jokers=3 colours=3 numbers=10, melded", True, Rules(jokers=3, colours=3, numbers=10,
                                                     least_disturbance=False)),
    ("jokers=3 + joker_retrieval=official, melded", True,
     Rules(jokers=3, joker_retrieval="official", least_disturbance=False)),
    ("copies=3, melded", True, Rules(copies=3, least_disturbance=False)),
    ("copies=3, initial meld 30", False, Rules(copies=3, least_disturbance=False)),
    ("copies=3 + joker_retrieval=official, melded", True,
     Rules(copies=3, joker_retrieval="official", least_disturbance=False)),
    ("copies=4, melded", True, Rules(copies=4, least_disturbance=False)),
    ("copies=4, initial meld 30", False, Rules(copies=4, least_disturbance=False)),
    ("copies=4 + joker_retrieval=official, melded", True,
     Rules(copies=4, joker_retrieval="official", least_disturbance=False)),
    ("jokers=4, melded", True, Rules(jokers=4, least_disturbance=False)),
    ("jokers=4, initial meld 30", False, Rules(jokers=4, least_disturbance=False)),
    ("copies=3 jokers=4, melded", True, Rules(copies=3, jokers=4, least_disturbance=False)),
    ("copies=3 jokers=3, melded", True, Rules(copies=3, jokers=3, least_disturbance=False)),
    ("copies=4 jokers=3, melded", True, Rules(copies=4, jokers=3, least_disturbance=False)),
    ("copies=4 jokers=3, initial meld 30", False,
     Rules(copies=4, jokers=3, least_disturbance=False)),
    ("min_set_length=2, melded", True, Rules(min_set_length=2)),
    ("min_set_length=2, initial meld 30", False, Rules(min_set_length=2)),
    ("min_set_length=2 + joker_retrieval=official, melded", True,
     Rules(min_set_length=2, joker_retrieval="official")),
    ("min_set_length=6, melded", True, Rules(min_set_length=6)),
    ("min_set_length=8, melded", True, Rules(min_set_length=8)),
    ("min_set_length=12, melded", True, Rules(min_set_length=12)),
    ("min_set_length=13, melded", True, Rules(min_set_length=13)),
    ("min_set_length=6, initial meld 30", False, Rules(min_set_length=6)),
    ("min_set_length=6 + joker_retrieval=official, melded", True,
     Rules(min_set_length=6, joker_retrieval="official")),
    ("min_set_length=2 + min_real_tiles=2, melded", True,
     Rules(min_set_length=2, min_real_tiles=2)),
    ("min_set_length=4 + min_real_tiles=2, melded", True,
     Rules(min_set_length=4, min_real_tiles=2)),
    ("min_set_length=5 + min_real_tiles=2, melded", True,
     Rules(min_set_length=5, min_real_tiles=2)),
    ("min_set_length=4 + min_real_tiles=2, initial meld 30", False,
     Rules(min_set_length=4, min_real_tiles=2)),
    *((f"min_set_length={n} + min_real_tiles=2, melded", True,
       Rules(min_set_length=n, min_real_tiles=2)) for n in (6, 9, 13)),
    ("min_set_length=2 + official + min_real_tiles=2, melded", True,
     Rules(min_set_length=2, joker_retrieval="official", min_real_tiles=2)),
    ("meld_continue, initial meld 30", False, Rules(meld_continue=True)),
    ("meld_continue, initial meld 30, joker zero", False,
     Rules(meld_continue=True, meld_joker="zero")),
    ("meld_continue, initial meld 60", False, Rules(meld_continue=True, meld_threshold=60)),
    ("meld_continue, initial meld 127", False, Rules(meld_continue=True, meld_threshold=127)),
    ("meld_continue, initial meld 10, colours=3 numbers=10", False,
     Rules(meld_continue=True, meld_threshold=10, colours=3, numbers=10)),
    ("meld_continue + joker_retrieval=official, initial meld 30", False,
     Rules(meld_continue=True, joker_retrieval="official")),
    ("meld_continue + min_set_length=4, initial meld 30", False,
     Rules(meld_continue=True, min_set_length=4)),
    ("meld_continue + min_real_tiles=2, initial meld 30", False,
     Rules(meld_continue=True, min_real_tiles=2)),
    ("meld_continue + official + min_real_tiles=2, initial meld 30", False,
     Rules(meld_continue=True, joker_retrieval="official", min_real_tiles=2)),
)


def restrict(pos: dict, rules: Rules) -> dict:
    """``pos`` without the table sets and rack tiles that ``rules``' tile set lacks (a
    tile set of more than two jokers: a position with jokers gets the others in its rack)."""
    letters = ALL_COLOURS[: rules.colours]
    used: dict[str, int] = {}

    def fits(tiles: list[str]) -> bool:
        count = dict(used)
        for t in tiles:
            if t != "J" and (t[0] not in letters or int(t[1:]) > rules.numbers):
                return False
            count[t] = count.get(t, 0) + 1
            if count[t] > (rules.jokers if t == "J" else rules.copies):
                return False
        used.update(count)
        return True

    table = [s for s in pos["table"] if sum(t != "J" for t in s) >= rules.min_real_tiles
             and len(s) >= rules.min_set_length and fits(s)]
    rack = [t for t in pos["rack"] if fits([t])]
    if rules.jokers > 2 and used.get("J"):
        rack += ["J"] * (rules.jokers - used["J"])
    if rules.copies > 2:  # the third (and fourth) copies of up to three tiles
        rack += [t for t, k in sorted(used.items()) if k == 2 and t != "J"
                 for _ in range(rules.copies - 2)][:3 * (rules.copies - 2)]
    return dict(pos, table=table, rack=rack)


def _time(positions: list[dict], melded: bool, rules: Rules, solve=None,
          clock=time.perf_counter) -> list[float]:
    """Seconds per position of ``solve(table, rack, melded, objective, rules)`` (default:
    the public ``best_move``)."""
    solve = solve or best_move
    times = []
    for pos in positions:
        t = clock()
        solve(pos["table"], pos["rack"], melded, "tiles", rules)
        times.append(clock() - t)
    return times


IP_ROWS = (
    ("rules document (the DP, best_move)", True, None),
    ("rules document (programme)", True, Rules()),
    ("joker_retrieval=official", True, Rules(joker_retrieval="official")),
    ("min_real_tiles=2", True, Rules(min_real_tiles=2)),
    ("least_disturbance", True, Rules(least_disturbance=True)),
    ("least_disturbance + fewest_tiles_moved", True,
     Rules(least_disturbance=True, fewest_tiles_moved=True)),
    ("official + min_real 2 + least_disturbance", True,
     Rules(joker_retrieval="official", min_real_tiles=2, least_disturbance=True)),
    ("initial meld, meld_continue", False, Rules(meld_continue=True)),
)


def _integer_programme(n: int) -> None:
    bands = [(size, jokers) for size in BANDS for jokers in (False, True)]
    positions = {b: band_positions(b[0], b[1], n=n) for b in bands}
    reference = runpy.run_path(str(ROOT / "tests/conftest.py"))["load_helper"](
        "rummikub", "ip_reference").reference_move
    reference([], "R1 R2 R3", True, "tiles", Rules())  # HiGHS loaded
    print(f"{n} positions per band and joker variant; max ms per band (table tiles, J: jokers)")
    head = " ".join(f"{s}{'J' if j else ''}".rjust(6) for s, j in bands)
    print(f"{'rules':<46} {'median':>7} {'p95':>7} {head}")
    for name, melded, rules in IP_ROWS:
        if rules is None:
            per = {b: _time(positions[b], melded, Rules()) for b in bands}
        else:
            per = {b: _time(positions[b], melded, rules, reference) for b in bands}
        ms = sorted(1e3 * t for ts in per.values() for t in ts)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        worst = " ".join(f"{1e3 * max(per[b]):>6.0f}" for b in bands)
        print(f"{name:<46} {statistics.median(ms):>7.1f} {p95:>7.1f} {worst}")


# (row name, rules, melded): the last row, the player still to meld (threshold 30), then
# continuing onto the table
LEAST_ROWS = (
    ("least_disturbance", Rules(least_disturbance=True), True),
    ("+ joker_retrieval=official", Rules(least_disturbance=True, joker_retrieval="official"),
     True),
    ("+ min_real_tiles=2", Rules(least_disturbance=True, min_real_tiles=2), True),
    ("+ official + min_real_tiles=2",
     Rules(least_disturbance=True, joker_retrieval="official", min_real_tiles=2), True),
    ("+ min_set_length=4", Rules(least_disturbance=True, min_set_length=4), True),
    ("+ min_set_length=2", Rules(least_disturbance=True, min_set_length=2), True),
    ("+ min_set_length=6", Rules(least_disturbance=True, min_set_length=6), True),
    ("+ min_set_length=13", Rules(least_disturbance=True, min_set_length=13), True),
    ("+ min_set_length=6 + min_real_tiles=2",
     Rules(least_disturbance=True, min_set_length=6, min_real_tiles=2), True),
    ("+ min_set_length=4 + min_real_tiles=2",
     Rules(least_disturbance=True, min_set_length=4, min_real_tiles=2), True),
    ("+ jokers=3", Rules(least_disturbance=True, jokers=3), True),
    ("+ jokers=4", Rules(least_disturbance=True, jokers=4), True),
    ("+ copies=3", Rules(least_disturbance=True, copies=3), True),
    ("+ copies=4", Rules(least_disturbance=True, copies=4), True),
    ("+ meld_continue, initial meld 30", Rules(least_disturbance=True, meld_continue=True),
     False),
    ("+ fewest_tiles_moved", Rules(fewest_tiles_moved=True), True),
)
# The crossings at 4 x 13 that the width-generic DP solves and the fast kernels do not
WIDE_CROSSINGS = (
    *((f"copies={c} + min_set_length={k}", dict(copies=c, min_set_length=k))
      for c in (3, 4) for k in (4, 2)),
    *((f"jokers=3 + min_set_length={k}", dict(jokers=3, min_set_length=k)) for k in (4, 5)),
    *((f"copies=4 + jokers=3 + min_set_length={k}", dict(copies=4, jokers=3, min_set_length=k))
      for k in (4, 12)),
    *((f"jokers=4 + min_set_length={k}", dict(jokers=4, min_set_length=k)) for k in (4, 5, 6)),
    ("copies=4 + jokers=4 + min_set_length=4", dict(copies=4, jokers=4, min_set_length=4)),
)
# ``--combos``: least disturbance with two or three of the options above that the search
# solves together (the other crossings are refused: tile sets of more copies or jokers go
# with official retrieval or each other only, fewest_tiles_moved with none); with sets of
# 2 or 4+ they are the width-generic DP's (Rules.wide_search: its states in the table)
COMBO_ROWS = (
    *((f"+ joker_retrieval=official + copies={c}",
       Rules(least_disturbance=True, joker_retrieval="official", copies=c), True) for c in (3, 4)),
    ("+ joker_retrieval=official + jokers=3",
     Rules(least_disturbance=True, joker_retrieval="official", jokers=3), True),
    *((f"+ official + jokers=3 + {name}",
       Rules(least_disturbance=True, joker_retrieval="official", jokers=3, **options), melded)
      for name, options, melded in (
          ("min_real_tiles=2", dict(min_real_tiles=2), True),
          ("min_real_tiles=2, initial meld 30", dict(min_real_tiles=2), False),
          ("copies=3", dict(copies=3), True),
          ("copies=4", dict(copies=4), True),
          ("min_real_tiles=2 + copies=4", dict(min_real_tiles=2, copies=4), True),
      )),
    *((f"+ official + jokers=4{name}",
       Rules(least_disturbance=True, joker_retrieval="official", jokers=4, **options), melded)
      for name, options, melded in (
          ("", {}, True),
          (", initial meld 30", {}, False),
          (" + copies=3", dict(copies=3), True),
      )),
    *((f"+ copies={c} + jokers={j}", Rules(least_disturbance=True, copies=c, jokers=j), True)
      for c, j in ((3, 3), (3, 4), (4, 3))),
    ("+ official + min_set_length=4",
     Rules(least_disturbance=True, joker_retrieval="official", min_set_length=4), True),
    ("+ official + min_set_length=2",
     Rules(least_disturbance=True, joker_retrieval="official", min_set_length=2), True),
    ("+ min_real_tiles=2 + min_set_length=2",
     Rules(least_disturbance=True, min_real_tiles=2, min_set_length=2), True),
    *((f"+ min_real_tiles=2 + jokers=3{name}",
       Rules(least_disturbance=True, min_real_tiles=2, jokers=3), melded)
      for name, melded in (("", True), (", initial meld 30", False))),
    *((f"+ min_real_tiles=2 + copies=3{name}",
       Rules(least_disturbance=True, min_real_tiles=2, copies=3), melded)
      for name, melded in (("", True), (", initial meld 30", False))),
    ("+ official + min_real_tiles=2 + copies=3",
     Rules(least_disturbance=True, joker_retrieval="official", min_real_tiles=2, copies=3),
     True),
    *((f"+ min_real_tiles=2 + copies=3 + jokers=3{name}",
       Rules(least_disturbance=True, min_real_tiles=2, copies=3, jokers=3), melded)
      for name, melded in (("", True), (", initial meld 30", False))),
    ("+ min_real_tiles=2 + copies=4", Rules(least_disturbance=True, min_real_tiles=2, copies=4),
     True),
    ("+ min_real_tiles=2 + copies=4 + jokers=3",
     Rules(least_disturbance=True, min_real_tiles=2, copies=4, jokers=3), True),
    *((f"+ min_real_tiles=2 + jokers=4{name}",
       Rules(least_disturbance=True, min_real_tiles=2, jokers=4, **options), melded)
      for name, options, melded in (
          ("", {}, True),
          (", initial meld 30", {}, False),
          (" + copies=3", dict(copies=3), True),
          (" + official", dict(joker_retrieval="official"), True),
      )),
    *((f"+ official + min_real_tiles=2 + min_set_length={k}",
       Rules(least_disturbance=True, joker_retrieval="official", min_real_tiles=2,
             min_set_length=k), True) for k in (4, 2)),
    *((f"+ meld_continue (initial meld 30) + {name}",
       Rules(least_disturbance=True, meld_continue=True, **options), False)
      for name, options in (
          ("official", dict(joker_retrieval="official")),
          ("min_real_tiles=2", dict(min_real_tiles=2)),
          ("min_set_length=4", dict(min_set_length=4)),
          ("min_set_length=2", dict(min_set_length=2)),
          ("official + min_real_tiles=2", dict(joker_retrieval="official", min_real_tiles=2)),
          ("official + min_set_length=4", dict(joker_retrieval="official", min_set_length=4)),
          ("official + min_set_length=2", dict(joker_retrieval="official", min_set_length=2)),
          ("min_set_length=6", dict(min_set_length=6)),
          ("min_set_length=13", dict(min_set_length=13)),
          ("official + min_set_length=6", dict(joker_retrieval="official", min_set_length=6)),
          ("copies=3", dict(copies=3)),
          ("official + copies=3", dict(joker_retrieval="official", copies=3)),
          ("jokers=3", dict(jokers=3)),
          ("official + jokers=3", dict(joker_retrieval="official", jokers=3)),
          ("copies=3 + jokers=3", dict(copies=3, jokers=3)),
          ("official + copies=3 + jokers=3",
           dict(joker_retrieval="official", copies=3, jokers=3)),
          ("copies=4", dict(copies=4)),
          ("official + copies=4", dict(joker_retrieval="official", copies=4)),
      )),
    *((f"+ {name} (wide DP)", Rules(least_disturbance=True, **options), True)
      for name, options in WIDE_CROSSINGS),
    ("+ copies=4 + min_set_length=4 (wide DP), initial meld 30",
     Rules(least_disturbance=True, copies=4, min_set_length=4), False),
)


def _warm_least(rules: Rules, melded: bool, n: int, seed: int) -> None:
    """Solve the first ``n`` positions of every band untimed, so that the held-out passes'
    specialisations for ``rules`` compile before the timed loop (a band's first positions are
    the timed ones' first: ``band_positions`` draws them in order)."""
    for size in BANDS:
        for jokers in (False, True):
            for pos in band_positions(size, jokers, n=n, seed=seed):
                pos = restrict(pos, rules)
                best_move(pos["table"], pos["rack"], melded, "tiles", rules)


def _least(n: int, rows: str | None = None, seed: int = 11,
           table: tuple = LEAST_ROWS) -> list[tuple[str, str, float]]:
    """Print the table of ``table``'s rows (those named with ``rows``) on ``seed``'s bands;
    return each band's slowest position as (row, band, ms)."""
    from engines.rummikub import least, wide

    slowest: list[tuple[str, str, float]] = []
    passes: list[list[int]] = []
    print(f"{n} positions per band; CPU ms per position through best_move (the plain DP's "
          "median first); held-out DP passes and their states per position (median / max); "
          "sets kept (plain DP answer -> least disturbance, summed over the band)")
    for name, rules, melded in table:
        if rows is not None and rows not in name:
            continue
        print(f"{name}\n{'band':<6} {'DP ms':>6} {'median':>7} {'p90':>7} {'max':>7} "
              f"{'passes':>9} {'states':>15} {'kept':>12}")
        if rules.wide_search:  # (the relaxation's kernels, first called from the engine:
            wide.warmup()  # their loads, 15-100 ms once, would land on a timed position)
        _warm_least(rules, melded, min(n, 2), seed)
        for size in BANDS:
            for jokers in (False, True):
                positions = [restrict(p, rules)
                             for p in band_positions(size, jokers, n=n, seed=seed)]
                off = replace(rules, least_disturbance=False, fewest_tiles_moved=False)
                plain = _time(positions, melded, off, clock=time.thread_time)
                times, kept_plain, kept = [], 0, 0
                for pos in positions:
                    work = least.WORK.copy()  # (the held-out passes and their states)
                    stored = int(wide.STATS[0])  # (or the width-generic DP's states)
                    t = time.thread_time()
                    move = best_move(pos["table"], pos["rack"], melded, "tiles", rules)
                    times.append(1e3 * (time.thread_time() - t))
                    passes.append((least.WORK - work).tolist())
                    passes[-1][1] += int(wide.STATS[0]) - stored
                    if rules.fewest_moved:  # tiles moved: least disturbance's -> fewest
                        kept += move.tiles_moved
                        kept_plain += best_move(pos["table"], pos["rack"], melded, "tiles",
                                                replace(rules, fewest_tiles_moved=False)
                                                ).tiles_moved
                        continue
                    kept += move.sets_kept
                    kept_plain += best_move(pos["table"], pos["rack"], melded, "tiles",
                                            off).sets_kept
                times.sort()
                p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
                slowest.append((name, f"{size}{'J' if jokers else ''}", times[-1]))
                count = [p[0] for p in passes[-n:]]
                states = [p[1] for p in passes[-n:]]
                print(f"{size}{'J' if jokers else '':<{6 - len(str(size))}} "
                      f"{1e3 * statistics.median(plain):>6.2f} {statistics.median(times):>7.1f} "
                      f"{p90:>7.1f} {times[-1]:>7.1f} {statistics.median(count):>4.0f}/"
                      f"{max(count):>4} {statistics.median(states):>7.0f}/{max(states):>7} "
                      f"{kept_plain:>5} -> {kept:>4}", flush=True)
    return slowest


def seed_list(text: str) -> list[int]:
    """Seeds written as ``1-15`` or ``8,9,12-14``."""
    seeds: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        seeds += range(int(first), int(last or first) + 1)
    return seeds


def _over(limit: float, slowest: list[tuple[int, str, str, float]]) -> None:
    """The bands whose slowest position took more than ``limit`` ms (issue 18's bar: every
    option combination under 50 ms a position), then each seed's band maxima summed."""
    over = [s for s in slowest if s[3] > limit]
    print(f"\n{len(over)} of {len(slowest)} bands over {limit:g} ms (slowest position):")
    for seed, name, band, ms in sorted(over, key=lambda s: -s[3]):
        print(f"  seed {seed:<3} {band:<4} {ms:>7.1f}  {name}")
    for seed in dict.fromkeys(s[0] for s in slowest):
        total = sum(s[3] for s in slowest if s[0] == seed)
        count = sum(1 for s in over if s[0] == seed)
        print(f"  seed {seed:<3} band maxima summed {total:>9.1f} ms, {count} over")


WIDE_SETS = ((4, 26), (8, 13), (6, 20), (8, 26))  # (colours, numbers)


def wide_position(rng: random.Random, colours: int, numbers: int, table_size: int,
                  jokers: bool) -> dict:
    """A melded position of about ``table_size`` table tiles and a 14-tile rack drawn from
    the tile set of ``colours`` and ``numbers`` (``bench_rummikub.make_position`` with its
    runs of 3-5 and groups of 3 to ``colours`` tiles: a table joker inside a run, the other
    joker on the rack)."""
    letters = ALL_COLOURS[:colours]
    sets = [[f"{c}{n}" for n in range(s, s + length)] for c in letters
            for s in range(1, numbers + 1) for length in (3, 4, 5) if s + length - 1 <= numbers]
    sets += [[f"{c}{n}" for c in letters if c in chosen] for n in range(1, numbers + 1)
             for size in range(3, colours + 1) for chosen in
             (set(rng.sample(letters, size)), set(rng.sample(letters, size)))]
    tiles = [f"{c}{n}" for c in letters for n in range(1, numbers + 1)]
    return make_position(rng, table_size, jokers, sets, tiles)


# The wide DP's other tile-set options, on each wide tile set: (row name, rules options,
# melded); the positions restricted to them (``restrict``)
WIDE_ROWS = (
    ("melded, least_disturbance off", {"least_disturbance": False}, True),
    ("melded (least disturbance on)", {}, True),
    ("initial meld 30", {"least_disturbance": False}, False),
    ("copies=3", {"copies": 3}, True),
    ("copies=4", {"copies": 4}, True),
    ("copies=4, least_disturbance off", {"copies": 4, "least_disturbance": False}, True),
    ("copies=4, initial meld 30", {"copies": 4, "least_disturbance": False}, False),
    ("jokers=3", {"jokers": 3}, True),
    ("jokers=3, initial meld 30", {"jokers": 3, "least_disturbance": False}, False),
    ("min_set_length=4", {"min_set_length": 4}, True),
    ("min_set_length=4 jokers=3", {"min_set_length": 4, "jokers": 3}, True),
    ("min_set_length=5 jokers=3", {"min_set_length": 5, "jokers": 3}, True),
    ("min_set_length=4 jokers=4", {"min_set_length": 4, "jokers": 4}, True),
    ("min_set_length=2 jokers=1", {"min_set_length": 2, "jokers": 1}, True),
)


def _wide(n: int, rows: str | None = None, seed: int = 11) -> None:
    from engines.rummikub import wide
    from engines.rummikub.errors import PositionError

    wide.warmup()  # (the relaxation's kernels, first called from the engine: ~30 ms)
    print(f"{n} positions per band {BANDS} and joker variant; ms per position, states stored")
    print(f"{'tile set / rules':<52} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} "
          f"{'max states':>11}")
    for colours, numbers in WIDE_SETS:
        for name, options, melded in WIDE_ROWS:
            if rows is not None and rows not in name:
                continue
            rules = Rules(colours=colours, numbers=numbers, **options)
            best_move([], "K1 K2 K3 K4 K5", rules=rules)  # compiled
            times, states, refused = [], [], 0
            for size, jokers in itertools.product(BANDS, (False, True)):
                # (seed 11: the deals of the figures before seeds were taken)
                rng = random.Random(size * 10 + jokers if seed == 11 else
                                    f"{seed}-{size}-{jokers}")
                for _ in range(n):
                    pos = restrict(wide_position(rng, colours, numbers, size, jokers), rules)
                    wide.STATS[:] = 0
                    try:
                        times += _time([pos], melded, rules, clock=time.process_time)
                    except PositionError:  # past the DP's memory bound (wide.MAX_STATES)
                        refused += 1
                    states.append(int(wide.STATS[0]))
            ms = sorted(1e3 * t for t in times)
            p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
            print(f"{f'{colours}x{numbers} {name}':<52} {statistics.median(ms):>10.2f} "
                  f"{p90:>8.2f} {ms[-1]:>8.2f} {max(states):>11}"
                  + (f"  ({refused} refused: memory bound)" if refused else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10, help="positions per band and joker variant")
    parser.add_argument("--integer-programme", action="store_true",
                        help="time the tests' reference integer programme on the options it solves")
    parser.add_argument("--least", action="store_true",
                        help="time least_disturbance (the exact search) per band")
    parser.add_argument("--combos", action="store_true",
                        help="as --least, on the options' combinations (COMBO_ROWS)")
    parser.add_argument("--rows", default=None,
                        help="only the rows whose name holds this text (default: every row)")
    parser.add_argument("--seed", type=int, default=11,
                        help="the bands' deal seed (default 11: the figures in benches/README; "
                             "tune on seeds 1-7, seeds 8 and up are the fresh-deal checks)")
    parser.add_argument("--seeds", type=seed_list, default=None,
                        help="--least/--combos on each of these seeds in turn (1-15 or 8,9,12-14), "
                             "instead of --seed")
    parser.add_argument("--over", type=float, default=None, metavar="MS",
                        help="--least/--combos: list at the end the bands whose slowest position "
                             "took more than MS ms, and each seed's band maxima summed")
    parser.add_argument("--wide", action="store_true",
                        help="time the wide tile sets (5-8 colours, numbers past 13)")
    args = parser.parse_args()
    warmup()
    # The objects of the imports and warm-up (Numba's, NumPy's: ~120 K) left out of later
    # collections, as `qipai batch` does: a full collection walking them costs 40-60 ms,
    # which would land on whichever timed call it interrupts (benches/README "Least
    # disturbance").
    gc.collect()
    gc.freeze()
    if args.wide:
        _wide(args.n, args.rows, args.seed)
        return
    if args.least or args.combos:
        slowest = []
        for seed in args.seeds or [args.seed]:
            if args.seeds:
                print(f"seed {seed}", flush=True)
            slowest += [(seed, *band) for band in
                        _least(args.n, args.rows, seed, COMBO_ROWS if args.combos else LEAST_ROWS)]
        if args.over is not None:
            _over(args.over, slowest)
        return
    if args.integer_programme:
        _integer_programme(args.n)
        return
    positions = [p for size in BANDS for jokers in (False, True)
                 for p in band_positions(size, jokers, n=args.n, seed=args.seed)]
    wanted = args.rows
    rows = [] if wanted else [("melded (rules do not apply)", _time(positions, True, Rules()))]
    for threshold, joker in itertools.product(THRESHOLDS, JOKERS):
        if wanted:
            break
        rules = Rules(meld_threshold=threshold, meld_joker=joker)
        rows.append((f"initial meld, threshold {threshold}, joker {joker}",
                     _time(positions, False, rules)))
    for name, melded, rules in DP_ROWS:
        if wanted and wanted not in name:
            continue
        _time([restrict(positions[0], rules)], melded, rules)  # the group tables built
        rows.append((name, _time([restrict(p, rules) for p in positions], melded, rules)))
    print(f"{len(positions)} positions (bands {BANDS}, with and without jokers)")
    print(f"{'rules':<52} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
    for name, times in rows:
        ms = sorted(1e3 * t for t in times)
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        print(f"{name:<52} {statistics.median(ms):>10.2f} {p90:>8.2f} {ms[-1]:>8.2f}")


if __name__ == "__main__":
    main()
