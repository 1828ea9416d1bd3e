"""Arrays as the compiled kernels take them: one type per kernel argument.

Numba compiles a kernel once for each set of argument types it meets, and a read-only
array is a type of its own: a read-only count array (a row group of a batch block read
from bytes, an ``np.frombuffer`` view) would be a second compile of a kernel that the
game's ``warmup()`` already compiled for writable ones, seconds to a minute in the middle
of a run.  So the engines hand every kernel writable C-order arrays of one dtype, copying
only an input that is not one already.

>>> import numpy as np
>>> rows = np.frombuffer(bytes(54), np.int8).reshape(1, 54)
>>> rows.flags.writeable, kernel_rows(rows, np.int8).flags.writeable
(False, True)
>>> mine = np.zeros((2, 54), np.int8)
>>> kernel_rows(mine, np.int8) is mine
True
"""

from __future__ import annotations

from typing import Any

import numpy as np


def kernel_rows(rows: Any, dtype: Any) -> np.ndarray:
    """``rows`` as ``dtype``, C-contiguous and writable (no copy where it is already)."""
    return np.require(rows, dtype, ("C_CONTIGUOUS", "WRITEABLE", "ENSUREARRAY"))
