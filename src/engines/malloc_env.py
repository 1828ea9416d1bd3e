"""Freed memory kept for reuse in the ``qipai`` command (glibc's ``malloc``).

glibc hands a freed block above its mmap threshold (128 KiB at first, raised as big blocks
are freed) back to the system, and trims its heap's free top past twice that, so the next
allocation of that size faults in fresh zeroed pages.  ``qipai batch`` makes and frees
blocks of a few hundred KiB for each block of input and each chunk of results (the
file's text, the rows' block text, their buffers): 0.2 page faults a 升级 position, at
1.7 µs of CPU a fault on the shared machine (0.33 µs a position, about 5 % of the run).
Fixed thresholds keep those pages: 0.00–0.02 faults a position.  The ``qipai`` command
imports this module; memory stays bounded by what the program uses at its peak (freed
memory is reused, not returned).  Settings in the environment (``GLIBC_TUNABLES``'s
``glibc.malloc`` ones, ``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``) win, and
Python programs that import the library choose for themselves.
"""

from __future__ import annotations

import ctypes
import os
import platform

#: Blocks up to this size come from the heap, not from their own mapping.
MMAP_THRESHOLD = 32 << 20
#: The heap's free top is returned to the system only past this size.
TRIM_THRESHOLD = 64 << 20

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3


def keep_freed_memory() -> bool:
    """Set glibc's thresholds (unless the environment sets them); whether they were set."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    if "glibc.malloc" in os.environ.get("GLIBC_TUNABLES", "") or any(
        name in os.environ for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")
    ):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )


#: Whether the thresholds were set when this module was imported.
KEPT = keep_freed_memory()
