"""The width-generic instantiation of the best-move DP: tile sets of up to eight colours
and numbers up to 26 (house rules beyond the fast kernels' 4 x 13 key).

Its own kernel package (own Numba cache stamp): the default kernels of
:mod:`solvers.rummikub` neither call nor depend on it, so it costs the standard tile set
nothing.  One job a module: ``_store`` (layers of two-word keys and their hash table),
``_steps`` (a number's sub-steps), ``_pass`` (one pass of the DP and its replay), ``_exact``
(the passes that find the optimum).
"""

from solvers._numba_cache import register_kernel_package

register_kernel_package(__file__)

from solvers.rummikub.wide._exact import solve_wide  # noqa: E402
from solvers.rummikub.wide._pass import (  # noqa: E402
    HOLD_SLOTS,
    MAX_COLOURS,
    MAX_NUMBERS,
    group_tables,
    solve_pass,
)

__all__ = ["HOLD_SLOTS", "MAX_COLOURS", "MAX_NUMBERS", "group_tables", "solve_pass", "solve_wide"]
