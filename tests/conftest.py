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

import importlib.util
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
