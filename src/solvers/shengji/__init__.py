"""Numba kernels for 升级 (Shengji / Tractor): count vectors in, arrays out.

Cards are integers 0–53 (:mod:`solvers.shengji.tables`); hands, leads and
plays are count vectors of length 54.  Kernels never parse or raise: the engine
(:mod:`engines.shengji`) checks input, except that the batch kernels behind
:mod:`engines.shengji.arrays` check each row's counts, lead and decks as they read it
and return a code per row (:mod:`solvers.shengji._checks`) for the engine to raise.  Every
kernel is ``njit(cache=True)``; batch forms take stacked context tables and a
per-row context index.  "Section N" in these modules is a section of the
rules, ``docs/rules/shengji.md``.

The kernels call each other across these files with ``cache=True``; registering the
package with :mod:`solvers._numba_cache` makes a change to a file recompile the kernels of
every module that imports it, directly or not (Numba alone would keep callers compiled
against an older callee).
"""

from solvers._numba_cache import register_kernel_package

register_kernel_package(__file__)

from solvers.shengji._count import (  # noqa: E402 (after the cache registration)
    count_follows,
    count_follows_batch,
)
from solvers.shengji._follow import (  # noqa: E402 (after the cache registration)
    enumerate_follows,
    enumerate_follows_batch,
    follow_legal,
    follow_legal_batch,
    follow_legal_batch_serial,
    required_shape,
)
from solvers.shengji._structure import (  # noqa: E402 (after the cache registration)
    decompose,
    decompose_batch,
    derivable,
    is_one_suit,
    is_tractor,
    is_tractor_batch,
    lambda_star,
    longest_chain,
    realises,
    realises_batch,
    shape_of,
    suit_profile,
)
from solvers.shengji._trick import (  # noqa: E402 (after the cache registration)
    BOTTOM_POWER_OF_TWO,
    BOTTOM_TWICE_UNIT_CARDS,
    WIN_HIGHEST_CARD,
    WIN_LEADING_COMPONENT,
    bottom_multiplier,
    bottom_multiplier_batch,
    check_throw,
    check_throw_batch,
    trick_points_batch,
    trick_winner,
    trick_winner_batch,
    trick_winner_batch_serial,
)
from solvers.shengji.tables import (  # noqa: E402 (after the cache registration)
    ContextTables,
    all_tables,
    context_code,
    context_tables,
    stack_tables,
)

__all__ = [
    "BOTTOM_POWER_OF_TWO",
    "BOTTOM_TWICE_UNIT_CARDS",
    "WIN_HIGHEST_CARD",
    "WIN_LEADING_COMPONENT",
    "ContextTables",
    "all_tables",
    "bottom_multiplier",
    "bottom_multiplier_batch",
    "check_throw",
    "check_throw_batch",
    "context_code",
    "context_tables",
    "count_follows",
    "count_follows_batch",
    "decompose",
    "decompose_batch",
    "derivable",
    "enumerate_follows",
    "enumerate_follows_batch",
    "follow_legal",
    "follow_legal_batch",
    "follow_legal_batch_serial",
    "is_one_suit",
    "is_tractor",
    "is_tractor_batch",
    "lambda_star",
    "longest_chain",
    "realises",
    "realises_batch",
    "required_shape",
    "shape_of",
    "stack_tables",
    "suit_profile",
    "trick_points_batch",
    "trick_winner",
    "trick_winner_batch",
    "trick_winner_batch_serial",
]
