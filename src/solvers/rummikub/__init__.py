"""Exact Rummikub best-move search: a Numba dynamic programme over the numbers 1..13.

Kernels take integer arrays only (see :mod:`solvers.rummikub._dp` for the
layout); the engine in :mod:`engines.rummikub` parses tiles, validates input,
and turns the kernel's packed sets (:func:`meld_codes`) into tiles.  One position
is checked, solved and unpacked in one call by :func:`solve_position`;
:func:`build_sets` is the Python model of the unpacking.
"""

from solvers.rummikub._dp import (
    MELD_TARGET,
    NCOL,
    NNUM,
    meld_codes,
    meld_codes_batch,
    new_outputs,
    solve_arrays,
    solve_batch,
    solve_position,
    warmup,
)
from solvers.rummikub._groups import GROUP_OK, partition_groups
from solvers.rummikub._reconstruct import build_sets

__all__ = [
    "GROUP_OK",
    "MELD_TARGET",
    "NCOL",
    "NNUM",
    "build_sets",
    "meld_codes",
    "meld_codes_batch",
    "new_outputs",
    "partition_groups",
    "solve_arrays",
    "solve_batch",
    "solve_position",
    "warmup",
]
