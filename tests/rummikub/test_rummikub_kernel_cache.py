"""The kernel package's cache: a change in a file reaches every cached caller of it.

Numba alone keys a cached kernel on its own file, so a caller compiled against an older
callee in another file would keep the old code; :mod:`solvers._numba_cache` stamps the
kernels of a registered package with their module and the package modules it imports,
transitively.  Checked on throw-away packages of two and three files, in fresh
interpreters (the cache only matters across processes), and on the import forms read.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import solvers
from solvers._numba_cache import module_imports, module_stamp, package_stamp

SRC = Path(solvers.__file__).resolve().parents[1]

CALLEE = "from numba import njit\n\n@njit(cache=True)\ndef step():\n    return {}\n"
CALLER = textwrap.dedent("""
    from numba import njit
    from kernels.callee import step

    @njit(cache=True)
    def total(x):
        return x + step()
""")
INIT = "from solvers._numba_cache import register_kernel_package\n{}\n"


def _run(root: Path) -> int:
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{SRC}"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", "from kernels.caller import total; print(total(10))"],
        capture_output=True, text=True, env=env, check=True,
    )
    return int(out.stdout.split()[-1])


def _package(root: Path, register: bool, value: int) -> None:
    pkg = root / "kernels"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text(
        INIT.format("register_kernel_package(__file__)" if register else ""))
    (pkg / "caller.py").write_text(CALLER)
    (pkg / "callee.py").write_text(CALLEE.format(value))


def test_registered_package_recompiles_callers(tmp_path: Path) -> None:
    _package(tmp_path, register=True, value=1)
    assert _run(tmp_path) == 11
    (tmp_path / "kernels" / "callee.py").write_text(CALLEE.format(2))
    assert _run(tmp_path) == 12


def test_numba_alone_keeps_a_stale_caller(tmp_path: Path) -> None:
    """Why the registration exists: without it the cached caller still returns the old sum."""
    _package(tmp_path, register=False, value=1)
    assert _run(tmp_path) == 11
    (tmp_path / "kernels" / "callee.py").write_text(CALLEE.format(2))
    assert _run(tmp_path) == 11


OTHER = "from numba import njit\n\n@njit(cache=True)\ndef alone(x):\n    return x * {}\n"
REPORT = textwrap.dedent("""
    from kernels.caller import total
    from kernels.callee import step
    from kernels.other import alone

    def cached(kernel):
        stats = kernel.stats
        return "hit" if stats.cache_hits else "miss" if stats.cache_misses else "-"

    values = [total(10), step(), alone(10)]
    print(*values, *(cached(kernel) for kernel in (total, step, alone)))
""")


def _report(root: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{SRC}"}
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", REPORT], capture_output=True, text=True,
                         env=env, check=True)
    return out.stdout.split()


def test_an_edit_recompiles_its_module_and_its_importers_only(tmp_path: Path) -> None:
    """caller imports callee; other stands alone: each edit recompiles what depends on it."""
    _package(tmp_path, register=True, value=1)
    pkg = tmp_path / "kernels"
    (pkg / "other.py").write_text(OTHER.format(3))
    assert _report(tmp_path) == ["11", "1", "30", "miss", "miss", "miss"]
    assert _report(tmp_path) == ["11", "1", "30", "hit", "hit", "hit"]
    (pkg / "other.py").write_text(OTHER.format(4))
    assert _report(tmp_path) == ["11", "1", "40", "hit", "hit", "miss"]
    (pkg / "callee.py").write_text(CALLEE.format(2))  # the stale-caller case
    assert _report(tmp_path) == ["12", "2", "40", "miss", "miss", "hit"]
    (pkg / "caller.py").write_text(CALLER + "# edited\n")
    assert _report(tmp_path) == ["12", "2", "40", "miss", "hit", "hit"]


FORMS = {
    "relative.py": "from ._a import f\nfrom . import _b\n",
    "absolute.py": "from kernels._a import f\nimport kernels._b as b\n",
    "nested.py": "def g():\n    from kernels import _a\n    import kernels._b as b\n",
    "outside.py": "import numpy\nfrom solvers._numba_cache import package_stamp\n",
    "init_name.py": "from . import NAME\n",
    "plain.py": "import kernels._a\n",
    "dynamic.py": "import importlib\nmod = importlib.import_module('kernels._a')\n",
    "upward.py": "from .. import something\n",
    "subpackage.py": "from .sub import f\n",
}


def test_import_forms(tmp_path: Path) -> None:
    pkg = tmp_path / "kernels"
    (pkg / "sub").mkdir(parents=True)
    for name, text in {**FORMS, "__init__.py": "NAME = 1\n", "_a.py": "", "_b.py": ""}.items():
        (pkg / name).write_text(text)

    def imports(name: str) -> list[str] | None:
        found = module_imports(str(pkg / name), "kernels")
        return None if found is None else sorted(found)

    for name in ("relative.py", "absolute.py", "nested.py"):
        assert imports(name) == ["_a.py", "_b.py"], name
    assert imports("outside.py") == []
    assert imports("init_name.py") == ["__init__.py"]
    for name in ("plain.py", "dynamic.py", "upward.py", "subpackage.py"):
        assert imports(name) is None, name


def test_stamps_follow_imports_or_the_whole_package(tmp_path: Path) -> None:
    pkg = tmp_path / "kernels"
    pkg.mkdir()
    files = {"_a.py": "A = 1\n", "_b.py": "from ._a import A\n", "_c.py": "C = 1\n",
             "dynamic.py": "__import__('kernels._c')\n"}
    for name, text in files.items():
        (pkg / name).write_text(text)

    def stamps() -> dict[str, bytes]:
        return {name: module_stamp(str(pkg / name), "kernels") for name in files}

    before = stamps()
    assert before["dynamic.py"] == package_stamp(str(pkg))
    (pkg / "_c.py").write_text("C = 2\n")
    after = stamps()
    assert [name for name in files if after[name] != before[name]] == ["_c.py", "dynamic.py"]
    (pkg / "_a.py").write_text("A = 2\n")
    last = stamps()
    assert [name for name in files if last[name] != after[name]] == ["_a.py", "_b.py", "dynamic.py"]
