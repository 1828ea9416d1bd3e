"""Exact Rummikub best-move search: a Numba dynamic programme over the numbers 1..13.

Kernels take integer arrays only; the engine in :mod:`engines.rummikub` parses tiles,
validates input, and turns the kernel's packed sets (:func:`meld_codes`) into tiles.  One
position is checked, solved and unpacked in one call by :func:`solve_position`.

Modules, one job each: ``_layout`` (board sizes, state-key bits), ``_layers`` (the state
store and its pruning), ``_dp`` (one pass of the DP), ``_exact`` (the passes that find the
optimum; batches), ``_melds`` (choice -> packed sets), ``_position`` (one position in one
call), ``_groups`` (group feasibility tables), ``_family`` (which compiled form of the entry
kernels a call needs).  The kernels call each other across these
files with ``cache=True``; :mod:`solvers._numba_cache` makes a change to one of them
recompile its kernels and those of every module that imports it, directly or not (Numba
alone would keep stale callers).
"""

from solvers._numba_cache import register_kernel_package

register_kernel_package(__file__)

from solvers.rummikub._exact import (  # noqa: E402
    solve_arrays,
    solve_batch,
    solve_serial,
)
from solvers.rummikub._family import variants_for  # noqa: E402
from solvers.rummikub._groups import GROUP_OK, group_tables, partition_groups  # noqa: E402
from solvers.rummikub._layout import (  # noqa: E402
    MELD_TARGET,
    NCOL,
    NNUM,
    joker_place,
    meld_mode,
    rules_mode,
)
from solvers.rummikub._melds import MAX_SETS, meld_codes, meld_codes_batch  # noqa: E402
from solvers.rummikub._pooled import solve_range  # noqa: E402
from solvers.rummikub._position import new_outputs, solve_position, warmup  # noqa: E402

__all__ = [
    "GROUP_OK",
    "MAX_SETS",
    "MELD_TARGET",
    "NCOL",
    "NNUM",
    "group_tables",
    "joker_place",
    "meld_codes",
    "meld_codes_batch",
    "meld_mode",
    "new_outputs",
    "partition_groups",
    "rules_mode",
    "solve_arrays",
    "solve_batch",
    "solve_position",
    "solve_range",
    "solve_serial",
    "variants_for",
    "warmup",
]
