"""The ``qipai`` command keeps freed memory for reuse (glibc's malloc thresholds), unless
the environment sets them."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

_PROBE = "import engines.cli, engines.malloc_env as m; print(m.KEPT)"

glibc = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")


# (Dask's distributed sets MALLOC_TRIM_THRESHOLD_ in the environment of the tests' process)
_NAMES = ("GLIBC_TUNABLES", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")


def _kept(extra: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if k not in _NAMES} | extra
    out = subprocess.run([sys.executable, "-c", _PROBE], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    return out.stdout.strip()


@glibc
def test_the_command_sets_the_thresholds_and_the_environment_wins() -> None:
    assert _kept({}) == "True"
    assert _kept({"MALLOC_TRIM_THRESHOLD_": "131072"}) == "False"
    assert _kept({"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=131072"}) == "False"


_FAULTS = """
import resource, engines.cli
blocks = []
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(200):  # a few hundred KiB made and freed, as a batch run's blocks
    blocks.append(bytearray(300_000 + 4096 * (i % 7)))
    if len(blocks) > 2:
        blocks.pop(0)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@glibc
def test_blocks_made_and_freed_reuse_their_pages() -> None:
    env = {k: v for k, v in os.environ.items() if k not in _NAMES}
    out = subprocess.run([sys.executable, "-c", _FAULTS], env=env, capture_output=True,
                         text=True, check=True)  # fmt: skip
    # 74 pages a block: ~300 faults with the thresholds, ~3,900 with glibc's own (the
    # pages of most blocks given back and faulted in again)
    assert int(out.stdout) < 1500
