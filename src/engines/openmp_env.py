"""Bounded idle spinning of OpenMP worker threads for the ``qipai`` command.

GNU OpenMP (libgomp, which the compiled solvers and Numba's ``omp`` threading layer use)
reads its settings once, when it is loaded.  A worker thread that has finished its part of
a parallel kernel spins ``GOMP_SPINCOUNT`` times before it sleeps: 300,000 by default,
milliseconds of a core.  ``qipai batch`` calls a kernel every few milliseconds while its
main thread reads and stores, so the idle workers spun through every gap: on 2 cores
``shuangkou-legal`` took 12.4 µs of CPU a position instead of 7.3, and the spinning
threads took the core the reading thread needed (``benches/README.md``).  10,000 spins
still cost more than the work itself at ``-j 2`` (a kernel call is a parallel region of a
few milliseconds, the gaps between them longer than any spin: 升级's engine call took 7.0
µs of CPU a position on two threads against 2.6-3.0 with no spinning, on one thread 3.0;
``qipai batch -j 2`` 10.8-12.2 against 6.3-7.3 µs), so idle workers sleep at once: waking
them costs microseconds a call, a kernel call milliseconds.  The ``qipai`` command
imports this module before anything loads libgomp;
a value set in the environment wins, and Python programs that import the library choose
for themselves.
"""

from __future__ import annotations

import os

#: Spins of an idle libgomp worker before it sleeps (unless ``GOMP_SPINCOUNT`` is set).
SPIN_COUNT = "0"

os.environ.setdefault("GOMP_SPINCOUNT", SPIN_COUNT)
