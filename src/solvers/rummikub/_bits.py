"""Bit helpers the kernels share that Numba gives as intrinsics (no Python function)."""

from __future__ import annotations

from numba import config

if config.DISABLE_JIT:
    def trailing_zeros(x):
        """The index of the lowest set bit of ``x`` (> 0): Python's form of Numba's
        intrinsic, which cannot run without the JIT."""
        x = int(x)
        return (x & -x).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: F401
