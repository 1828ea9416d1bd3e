"""Bounded idle spinning of OpenMP worker threads for the ``qipai`` command.

GNU OpenMP (libgomp, which the compiled solvers and Numba's ``omp`` threading layer use)
reads its settings once, when it is loaded.  A worker thread that has finished its part of
a parallel kernel spins ``GOMP_SPINCOUNT`` times before it sleeps: 300,000 by default,
milliseconds of a core.  ``qipai batch`` calls a kernel every few milliseconds while its
main thread reads and stores, so the idle workers spun through every gap: on 2 cores
``shuangkou-legal`` took 12.4 µs of CPU a position instead of 7.3, and the spinning
threads took the core the reading thread needed (``benches/README.md``).  10,000 spins
keep back-to-back kernel calls quick and bound what an idle worker burns to a fraction of
a millisecond.  The ``qipai`` command imports this module before anything loads libgomp;
a value set in the environment wins, and Python programs that import the library choose
for themselves.
"""

from __future__ import annotations

import os

#: Spins of an idle libgomp worker before it sleeps (unless ``GOMP_SPINCOUNT`` is set).
SPIN_COUNT = "10000"

os.environ.setdefault("GOMP_SPINCOUNT", SPIN_COUNT)
