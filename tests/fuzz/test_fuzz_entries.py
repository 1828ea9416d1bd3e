"""Fuzz every public entry point in a child process: no crash, only InputError for bad input.

Inputs are drawn with Hypothesis in this process, then run in one child
process per entry (``worker.py``) so that a crash in native code fails the
test with the input that caused it instead of killing pytest.  The number of
inputs per entry is ``QIPAI_FUZZ_EXAMPLES`` (CI default below); the campaign
(``python tests/fuzz/campaign.py``) runs many more with fresh seeds.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(Path(__file__).parent))

from entries import ENTRIES

#: Inputs per entry in CI; the campaign sets QIPAI_FUZZ_EXAMPLES and QIPAI_FUZZ_SEED.
CI_EXAMPLES = 50
EXAMPLES = int(os.environ.get("QIPAI_FUZZ_EXAMPLES", CI_EXAMPLES))
SEED = int(os.environ.get("QIPAI_FUZZ_SEED", "15"))
WORKER = Path(__file__).parent / "worker.py"


def draw_inputs(name: str, count: int, at_seed: int) -> list[tuple]:
    """``count`` argument tuples for entry ``name`` (reproducible from ``at_seed``)."""
    drawn: list[tuple] = []

    @seed(at_seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(ENTRIES[name].args)
    def collect(args: tuple) -> None:
        drawn.append(args)

    collect()
    return drawn


def run_in_child(name: str, inputs: list[tuple], tmp: Path) -> dict:
    """Run ``inputs`` against entry ``name`` in a child process; fail on a crash."""
    data, progress = tmp / f"{name}.pickle", tmp / f"{name}.progress"
    data.write_bytes(pickle.dumps(inputs))
    # in an empty folder of its own: a junk path that an entry accepts writes there
    workdir = tmp / "cwd"
    workdir.mkdir()
    done = subprocess.run(
        [sys.executable, str(WORKER), name, str(data), str(progress)],
        cwd=workdir,
        capture_output=True,
        text=True,
        # a guard against hangs, not a time limit: the child's warm-up may compile a
        # game's Numba kernels cold while other test workers compile theirs (CI under
        # pytest-xdist on 2 cores took over 300 s there)
        timeout=max(1800, EXAMPLES),
    )
    if done.returncode != 0:
        lines = progress.read_text().split() if progress.exists() else []
        index = int(lines[-1]) if lines else -1
        culprit = repr(inputs[index])[:600] if index >= 0 else "(before the first call)"
        pytest.fail(
            f"{name}: the child process died (exit {done.returncode}) on input {index}: "
            f"{culprit}\n{done.stderr[-2000:]}"
        )
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_entry_point_survives_hostile_input(name: str, tmp_path: Path) -> None:
    inputs = draw_inputs(name, EXAMPLES * ENTRIES[name].weight, SEED)
    report = run_in_child(name, inputs, tmp_path)
    counts = report["counts"]
    assert sum(counts.values()) + len(report["failures"]) == len(inputs)
    failures = report["failures"]
    findings = "\n".join(
        f"  input {f['index']}: {f['input']}\n    -> {f['error']} at {f['where']}"
        for f in failures[:10]
    )
    assert not failures, f"{name}: not an InputError:\n{findings}"
