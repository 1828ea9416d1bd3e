"""The kernel package's cache: a change in any of its files reaches every cached caller.

Numba alone keys a cached kernel on its own file, so a caller compiled against an older
callee in another file would keep the old code; :mod:`solvers._numba_cache` stamps the
kernels of a registered package with all its files.  Checked on a throw-away package of
two files, in fresh interpreters (the cache only matters across processes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import solvers

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
