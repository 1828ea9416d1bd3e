"""One way to load a package's public names lazily: on first use, from their modules.

A game package lists its public names and the submodule defining each, and
gets a module ``__getattr__`` and ``__dir__`` (PEP 562) from
:func:`lazy_exports`.  Importing the package then costs nothing: Numba
kernels, compiled solvers and numpy-heavy modules load when a name that needs
them is first read (``qipai --help`` and the batch registry stay fast).  A
loaded name is stored on the package, so later reads are plain attribute reads.

A package must not have a submodule with the same name as one of its exports:
importing the submodule would put the module where the name should be.

>>> import engines.shengji as sj
>>> "TrumpContext" in dir(sj)
True
>>> sj.no_such_name
Traceback (most recent call last):
...
AttributeError: module 'engines.shengji' has no attribute 'no_such_name'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package`` whose name ``n`` lives in ``exports[n]``.

    ``exports`` maps each public name to the submodule (relative to
    ``package``) that defines it.  Use at the end of the package's
    ``__init__``::

        __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
