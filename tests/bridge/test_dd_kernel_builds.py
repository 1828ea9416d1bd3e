"""The two builds of the double-dummy search and the import-time choice between them.

``_ab_kernel`` runs on any CPU; ``_ab_kernel_bmi`` is the same source compiled with LZCNT,
BMI1 and BMI2 (setup.py) and may only run where the CPU has them: without LZCNT that
instruction runs as BSR and answers wrong.  ``_ab_search`` picks one by a CPUID check.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest

from solvers.bridge import _ab_kernel, _ab_search

X86_64 = platform.machine().lower() in ("x86_64", "amd64")
CPUINFO = Path("/proc/cpuinfo")


def _bmi_kernel():
    try:
        from solvers.bridge import _ab_kernel_bmi
    except ImportError:
        return None
    return _ab_kernel_bmi


def _random_hands(rng: np.random.Generator, size: int = 13) -> np.ndarray:
    """``size`` random cards a seat as ``uint16[4, 4]`` suit masks (bit rank - 2)."""
    cards = rng.permutation(52)[: 4 * size]
    hands = np.zeros((4, 4), dtype=np.uint16)
    for i, card in enumerate(cards):
        hands[i % 4, card // 13] |= 1 << (card % 13)
    return hands


@pytest.mark.skipif(not (X86_64 and CPUINFO.exists()), reason="needs Linux on x86-64")
def test_the_cpu_check_agrees_with_the_kernels_cpu_flags() -> None:
    flags: set[str] = set()
    for line in CPUINFO.read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    assert _ab_search.cpu_has_bit_instructions() == ({"abm", "bmi1", "bmi2"} <= flags)


@pytest.mark.skipif(not X86_64, reason="the bit-instruction build exists on x86-64 only")
def test_the_second_build_has_the_bit_instructions_and_the_first_not() -> None:
    bmi = _bmi_kernel()
    assert bmi is not None and bmi.BIT_INSTRUCTIONS
    assert not _ab_kernel.BIT_INSTRUCTIONS or os.environ.get("QIPAI_NATIVE_ARCH") == "1"


def test_the_fastest_build_the_cpu_can_run_is_chosen() -> None:
    bmi = _bmi_kernel()
    can_run = bmi is not None and bmi.BIT_INSTRUCTIONS and _ab_search.cpu_has_bit_instructions()
    forced = os.environ.get("QIPAI_BRIDGE_KERNEL", "").strip().lower() == "generic"
    expected = bmi if can_run and not forced else _ab_kernel
    assert _ab_search.kernel is expected
    name = "bmi" if expected is bmi else "generic"
    assert name == _ab_search.KERNEL_BUILD
    from solvers import bridge

    assert bridge.dd_table is _ab_search.dd_table is expected.dd_table
    assert _ab_search.leader_tricks is expected.leader_tricks


def test_the_environment_can_force_the_generic_build() -> None:
    code = "from solvers.bridge import _ab_search as s; print(s.KERNEL_BUILD, s.kernel.__name__)"
    env = {**os.environ, "QIPAI_BRIDGE_KERNEL": "generic"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["generic", "solvers.bridge._ab_kernel"]


@pytest.mark.skipif(
    not (_ab_search.cpu_has_bit_instructions() and _bmi_kernel() is not None),
    reason="this CPU cannot run the LZCNT/BMI build",
)
def test_both_builds_give_the_same_answers_and_search_counts() -> None:
    bmi = _bmi_kernel()
    rng = np.random.default_rng(17)
    empty = np.zeros((0, 2), dtype=np.int32)
    for size in (13, 13, 13, 7, 5):
        hands = _random_hands(rng, size)
        runs = []
        for kernel in (_ab_kernel, bmi):
            table_stats: dict = {}
            lead_stats: dict = {}
            table = kernel.dd_table(hands, table_stats).tolist()
            lead = [a.tolist() for a in kernel.solve_position(hands, 4, 3, empty, lead_stats)]
            values = kernel.lead_values(hands[None], 1, 0, 1).tolist()
            runs.append((table, table_stats, lead, lead_stats, values))
        assert runs[0] == runs[1]


def _preprocess(source: Path, *defines: str) -> subprocess.CompletedProcess:
    """The C preprocessor alone on the kernel's generated C (enough to reach an #error)."""
    includes = [f"-I{sysconfig.get_paths()['include']}", f"-I{np.get_include()}"]
    return subprocess.run(
        ["gcc", "-E", *defines, *includes, str(source), "-o", os.devnull],
        capture_output=True,
        text=True,
    )


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
def test_a_big_endian_build_is_refused() -> None:
    # the search writes its win ranks and moves as whole little-endian words
    source = Path(_ab_kernel.__file__).with_name("_ab_kernel.c")
    if not source.exists():
        pytest.skip("the kernel's generated C is not kept next to it")
    assert _preprocess(source).returncode == 0
    big = _preprocess(source, "-U__BYTE_ORDER__", "-D__BYTE_ORDER__=__ORDER_BIG_ENDIAN__")
    assert big.returncode != 0
    assert "assumes a little-endian CPU" in big.stderr
