"""Compile the Rummikub kernels that only the tests and benches call (``./run test``).

``python tests/warm_kernels.py [tests] [wide]`` (both if none given).  ``./run test`` runs
``tests`` on the first part's core once that part is done, while the engines' warm-up
(``qipai warmup rummikub``) compiles the house rules' forms on the other core (it compiled
every default rules' form first), and ``wide`` on that core after the warm-up (it ends
first since meld then continue compiles fewer forms): the test workers then load these
kernels from the cache instead of compiling them in a test (on two cores, a kernel
compiled in a worker holds up half the run):

- :func:`solvers.rummikub.warmup`: the held-out pass of the probes; the rest of it (the
  default rules' ``solve_serial``, ``solve_position``, ``meld_codes_batch``) the engines'
  warm-up compiled in its first minutes: loaded here.  Not its house rules' forms
  (``house_rules=False``): the warm-up may still be compiling them, and calling them here
  before they are cached would compile them twice;
- :func:`engines.rummikub.wide.warmup`: the wide DP of the larger tile sets.
"""

from __future__ import annotations

import sys
import time


def main() -> None:
    import engines.rummikub.wide
    import solvers.rummikub

    def tests_kernels() -> None:
        solvers.rummikub.warmup(house_rules=False)

    parts = {"tests": ("rummikub kernels of the tests", tests_kernels),
             "wide": ("rummikub wide DP", engines.rummikub.wide.warmup)}
    for part in sys.argv[1:] or list(parts):
        name, warm = parts[part]
        start = time.perf_counter()
        warm()
        print(f"{name}: {time.perf_counter() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
