"""``qipai bench``'s timer reads the clock it is given (wall by default, CPU on request)."""

from __future__ import annotations

import itertools

from engines.batch.bench import Solver, time_alternating


def test_time_alternating_reads_the_given_clock() -> None:
    ticks = itertools.count()
    ours = Solver("ours", lambda obj: obj["n"], lambda n: n * 2)
    reference = Solver("reference", lambda obj: obj["n"], lambda n: n + n)
    positions = [{"n": 1}, {"n": 2}, {"n": 3}]
    ours_times, ref_times, agree = time_alternating(
        ours, reference, positions, 3, clock=lambda: float(next(ticks))
    )
    # each timed run reads the clock twice in a row: one tick a run, whatever the machine does
    assert ours_times == [1.0, 1.0, 1.0] and ref_times == [1.0, 1.0, 1.0]
    assert agree == 3
