"""The import-time CPU check (``solvers._cpu``): the only module compiled without ``-mpopcnt``,
so that a CPU without POPCNT gets a clear ImportError instead of a crash by SIGILL."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path

import pytest

from solvers import _cpu

X86_64 = platform.machine().lower() in ("x86_64", "amd64")
CPUINFO = Path("/proc/cpuinfo")


def _cpu_flags() -> set[str]:
    for line in CPUINFO.read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def _popcnt_instructions(module) -> int:
    listing = subprocess.run(["objdump", "-d", module.__file__], capture_output=True,
                             text=True, check=True).stdout
    # "  addr:\tbytes\tmnemonic operands": the mnemonic, not a symbol name such as cpu_has_popcnt
    return sum(line.split("\t")[2].startswith("popcnt") for line in listing.splitlines()
               if line.count("\t") >= 2)


@pytest.mark.skipif(not (X86_64 and CPUINFO.exists()), reason="needs Linux on x86-64")
def test_the_cpuid_check_agrees_with_the_kernels_cpu_flags() -> None:
    assert _cpu.cpu_has_popcnt() == ("popcnt" in _cpu_flags())


@pytest.mark.skipif(not X86_64 or os.environ.get("QIPAI_NATIVE_ARCH") == "1",
                    reason="-mpopcnt is added on x86-64 unless built for the native CPU")
def test_the_check_knows_the_other_modules_use_popcnt() -> None:
    assert _cpu.BUILT_WITH_POPCNT


def test_a_build_with_popcnt_is_refused_only_by_a_cpu_without_it() -> None:
    assert _cpu.missing_instructions(True, False) == ["POPCNT"]
    assert _cpu.missing_instructions(True, True) == []
    assert _cpu.missing_instructions(False, False) == []
    _cpu.check_cpu()  # this machine runs the tests: its CPU runs the build


@pytest.mark.skipif(not X86_64 or shutil.which("objdump") is None, reason="needs objdump, x86")
def test_only_the_check_is_compiled_without_popcnt() -> None:
    assert _popcnt_instructions(_cpu) == 0
    from solvers.bridge import _ab_kernel

    assert _popcnt_instructions(_ab_kernel) > 0 or not _cpu.BUILT_WITH_POPCNT
