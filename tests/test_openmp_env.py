"""The ``qipai`` command bounds OpenMP's idle spinning before libgomp loads, unless the
environment says otherwise."""

from __future__ import annotations

import os
import subprocess
import sys

from engines.openmp_env import SPIN_COUNT

_PROBE = "import engines.cli, os; print(os.environ['GOMP_SPINCOUNT'])"


def _spin_count(extra: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if k != "GOMP_SPINCOUNT"} | extra
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return out.stdout.strip()


def test_the_command_sets_the_spin_count_and_the_environment_wins() -> None:
    assert _spin_count({}) == SPIN_COUNT == "0"
    assert _spin_count({"GOMP_SPINCOUNT": "300000"}) == "300000"


def test_it_is_set_before_any_solver_module_loads() -> None:
    # -X importtime lists modules as their imports finish: a module that imports another
    # finishes after it, so compare where each first appears
    probe = "import engines.cli; engines.cli.build_parser()"
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", probe], capture_output=True,
                         text=True, check=True)  # fmt: skip
    names = [line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()]
    solvers = [i for i, name in enumerate(names) if name.startswith("solvers")]
    assert solvers and names.index("engines.openmp_env") < min(solvers)
