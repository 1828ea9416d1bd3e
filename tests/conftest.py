"""Make each game directory's test helpers importable under unique names.

pytest runs in importlib mode, so a directory's ``oracle.py`` (the pure-Python
reference of the rules) and ``strategies.py`` (Hypothesis strategies) are not on
``sys.path``.  They are loaded here as ``<game>_oracle`` and ``<game>_strategies``
(``import shengji_oracle``), names that can never clash between games, as are Rummikub's
reference integer programme ``ip_model.py`` and ``ip_reference.py`` (``rummikub_ip_model``,
``rummikub_ip_reference``: the reference depends on the model, loaded first), its random
table sets ``random_sets.py`` (``rummikub_random_sets``) and its brute-force check of least
disturbance ``least_brute.py`` (``rummikub_least_brute``); the
benchmarks load the oracles through :func:`load_helper` too
(``runpy.run_path("tests/conftest.py")["load_helper"]("shengji", "oracle")``).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
HELPERS = ("oracle", "strategies", "ip_model", "ip_reference", "random_sets", "least_brute")


def load_helper(game: str, helper: str) -> ModuleType:
    """Import ``tests/<game>/<helper>.py`` as module ``<game>_<helper>`` (once)."""
    name = f"{game}_{helper}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, HERE / game / f"{helper}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


for _path in sorted(HERE.glob("*/*.py")):
    if _path.stem in HELPERS:
        load_helper(_path.parent.name, _path.stem)


@functools.cache
def _mentions_rummikub(path: Path) -> bool:
    return "rummikub" in path.read_text(encoding="utf-8", errors="replace").lower()


def pytest_collection_modifyitems(items: list) -> None:
    """Mark ``rummikub`` every test that may run Rummikub's kernels: its id names Rummikub
    (a parametrized entry, a module's doctests) or its file mentions Rummikub at all.
    ``./run test`` runs the others (``-m "not rummikub"``) in one process beside Rummikub's
    warm-up, which compiles its kernels cold on one core for minutes; a test that ran them
    there before the warm-up wrote its cache would compile them a second time."""
    for item in items:
        path = Path(str(item.fspath))
        if "rummikub" in item.nodeid.lower() or (path.suffix == ".py"
                                                 and _mentions_rummikub(path)):
            item.add_marker("rummikub")


def _log_compiles(path: str) -> None:
    """Append each test's Numba compiles to ``path`` (``QIPAI_COMPILE_LOG``: what a test
    worker compiles that the warm-up did not; one line a kernel: worker, test, kernel,
    thread CPU seconds exclusive and inclusive of nested compiles), timed by
    ``benches/bench_cold_compile.py``'s listener."""
    from numba.core import event

    spec = importlib.util.spec_from_file_location(
        "bench_cold_compile", HERE.parent / "benches" / "bench_cold_compile.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")

    class LoggedCompileTimes(bench.CompileTimes):
        def on_end(self, ev: event.Event) -> None:
            super().on_end(ev)
            done = self.done.pop()
            with open(path, "a", encoding="utf-8") as log:
                log.write(f"{worker}\t{_running['test']}\t{done['kernel']}"
                          f"\t{done['own_cpu']:.2f}\t{done['cpu']:.2f}\n")

    event.register("numba:compile", LoggedCompileTimes())


_running = {"test": "(collection)"}


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    _running["test"] = nodeid


if os.environ.get("QIPAI_COMPILE_LOG"):
    _log_compiles(os.environ["QIPAI_COMPILE_LOG"])
