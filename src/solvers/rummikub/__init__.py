"""Exact Rummikub best-move search: a Numba dynamic programme over the numbers 1..13.

Kernels take integer arrays only (see :mod:`solvers.rummikub._dp` for the
layout); the engine in :mod:`engines.rummikub` parses tiles, validates input,
and turns the kernel's choices into sets with :func:`build_sets`.
"""

from solvers.rummikub._dp import MELD_TARGET, NCOL, NNUM, solve_arrays, solve_batch, warmup
from solvers.rummikub._groups import GROUP_OK, partition_groups
from solvers.rummikub._reconstruct import build_sets

__all__ = [
    "GROUP_OK",
    "MELD_TARGET",
    "NCOL",
    "NNUM",
    "build_sets",
    "partition_groups",
    "solve_arrays",
    "solve_batch",
    "warmup",
]
