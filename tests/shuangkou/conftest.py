"""Make this directory's helpers importable under unique names (pytest uses importlib mode).

``oracle.py`` (the pure-Python reference) and ``strategies.py`` are loaded as
``shuangkou_oracle`` and ``shuangkou_strategies`` so they can never clash with another
game's test helpers; the benchmark loads the oracle the same way.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def load(name: str, filename: str):
    """Import ``filename`` from this directory as module ``name`` (once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / filename)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


load("shuangkou_oracle", "oracle.py")
load("shuangkou_strategies", "strategies.py")
