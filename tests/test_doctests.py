"""The one doctest runner: every example in every module under ``src/engines`` and
``src/solvers`` runs.

A new module's examples are tested without registering it anywhere
(``docs/architecture.md``, "Documentation and tests").
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engines
import solvers


def _modules() -> list[str]:
    names = []
    for package in (engines, solvers):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=package.__name__ + "."):
            if not info.name.endswith(".__main__"):  # running it would start the CLI
                names.append(info.name)
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_module_examples(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE | doctest.IGNORE_EXCEPTION_DETAIL
    result = doctest.testmod(module, optionflags=flags, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
