"""Native kernels of qipai: Cython extensions and Numba functions.

Kernels take clean integer arrays and bitmasks and never parse text or raise
for user input; the ``engines`` package validates input before calling them.
"""

from solvers._cpu import check_cpu

check_cpu()  # before any module built for instructions this CPU may lack runs

from solvers._parallel import max_threads, openmp_available  # noqa: E402

__all__ = ["max_threads", "openmp_available"]
