"""Work shared out on threads of Python, each taking the next piece as it finishes: how the
engines' batches (:mod:`engines.rummikub.arrays`) and :func:`~solvers.rummikub._exact.
solve_batch` run their kernels, which release the GIL."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

# The helper threads of run_ranges, how many, and the process that started them (a forked
# child has none of them, and starts its own).
_POOL: list = [None, 0, 0]


def run_ranges(work: Callable[[int], None], starts: range, threads: int) -> None:
    """``work(start)`` for every start, on this thread and ``threads - 1`` pool threads, each
    taking the next start as it finishes; the first exception is raised once all stop."""
    if _POOL[1] < threads - 1 or _POOL[2] != os.getpid():
        if _POOL[0] is not None and _POOL[2] == os.getpid():
            _POOL[0].shutdown(wait=False)
        _POOL[:] = [ThreadPoolExecutor(threads - 1, thread_name_prefix="qipai-rummikub"),
                    threads - 1, os.getpid()]  # fmt: skip
    taken = iter(starts)  # one iterator: each start is taken once (its next() holds the GIL)
    failed: list[BaseException] = []

    def loop() -> None:
        for start in taken:
            if failed:
                return
            try:
                work(start)
            except BaseException as exc:
                failed.append(exc)
                return

    helpers = [_POOL[0].submit(loop) for _ in range(threads - 1)]
    loop()
    for helper in helpers:
        helper.result()
    if failed:
        raise failed[0]
