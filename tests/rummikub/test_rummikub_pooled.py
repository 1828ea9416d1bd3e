"""The kernel run by the engine's own threads (dynamic scheduling) answers as ``solve_arrays``."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import solvers.rummikub as S
from engines.rummikub import Position
from engines.rummikub.arrays import _solve_pooled, position_arrays, run_ranges
from engines.rummikub.generate import rummikub_positions
from engines.rummikub.position import objective_weights
from engines.rummikub.rules import DEFAULT_RULES
from engines.threads import numba_threads


@pytest.mark.parametrize(("threads", "objective"), [(1, "tiles"), (3, "value")])
def test_pooled_solve_equals_solve_arrays(threads, objective):
    positions = [Position.from_json(p) for p in rummikub_positions(
        70, 6, table_tiles=(0, 50), joker_rate=0.6, initial_meld_rate=0.3)]
    table, rack, modes, _melded = position_arrays(positions)
    n = len(positions)
    weight, joker_weight = objective_weights(objective)
    weights = np.broadcast_to(weight, (n, 4, 13))
    status, _best, choice, group_jokers, _stats = S.solve_arrays(
        table[:, :52].reshape(n, 4, 13), rack[:, :52].reshape(n, 4, 13), table[:, 52],
        rack[:, 52], weights, np.full(n, joker_weight, np.int64), modes)
    with numba_threads(threads):
        pooled = _solve_pooled(table, rack, weights, joker_weight, modes)
    codes, counts = S.meld_codes_batch(status, choice, group_jokers,
                                       *DEFAULT_RULES.group_tables()[1:],
                                       DEFAULT_RULES.min_set_length)  # fmt: skip
    played = np.zeros((n, 53), np.int64)
    played[:, :52] = (choice[..., 0] + choice[..., 1]).reshape(n, 52)
    played[:, 52] = choice[..., 2].sum(axis=(1, 2)) + group_jokers.sum(axis=1)
    played -= table
    played[status != 1] = 0
    assert (status == 1).sum() > n // 2
    assert all(np.array_equal(a, b) for a, b in zip(pooled, (status, codes, counts, played)))


@pytest.mark.parametrize("threads", [1, 2])
def test_solve_batch_on_threads_answers_as_the_calling_threads_kernel(threads):
    """``solve_arrays``' batches (blocks of positions taken in turn by ``threads`` threads)
    give every output of ``solve_serial``, for batches longer and shorter than the
    threads' blocks."""
    positions = [Position.from_json(p) for p in rummikub_positions(
        90, 8, table_tiles=(0, 60), joker_rate=0.5, initial_meld_rate=0.3)]
    table, rack, modes, _melded = position_arrays(positions)
    n = len(positions)
    weight, joker_weight = objective_weights("value")
    arrays = (table[:, :52].reshape(n, 4, 13), rack[:, :52].reshape(n, 4, 13), table[:, 52],
              rack[:, 52], np.broadcast_to(weight, (n, 4, 13)),
              np.full(n, joker_weight, np.int64), modes)
    serial = S.solve_arrays(*arrays, parallel=False)
    assert (serial[0] == 1).sum() > n // 2
    for count in (n, 3, 1):
        with numba_threads(threads):
            batch = S.solve_arrays(*(a[:count] for a in arrays), parallel=True)
        assert all(np.array_equal(a[:count], b) for a, b in zip(serial, batch)), count


def test_run_ranges_does_each_start_once_and_raises_the_first_fault():
    seen: list[tuple[int, str]] = []
    run_ranges(lambda s: seen.append((s, threading.current_thread().name)), range(0, 400, 4), 3)
    assert sorted(s for s, _ in seen) == list(range(0, 400, 4))

    def fail(start: int) -> None:
        if start == 40:
            raise ValueError("start 40")
        time.sleep(0.001)  # (releases the GIL: the failing thread goes on)
        seen.append((start, ""))

    seen.clear()
    with pytest.raises(ValueError, match="start 40"):
        run_ranges(fail, range(0, 4000, 4), 3)
    assert len(seen) < 300  # the others stop once one fails (1,000 starts)
