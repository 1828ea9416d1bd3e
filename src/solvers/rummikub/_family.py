"""Which passes a batch's rules can need: the entry kernels' compile-time ``variants``.

The rules reach the kernels as an int64 (:mod:`solvers.rummikub._layout`), and Numba
compiles both sides of a branch on its bits: the default rules' kernels held meld then
continue's two-arrangement pass and the DP's two-word and length-class passes, about half
of a cold compile that a default-rules user never runs (benches/README.md, "Cold compile").
So the entry kernels take ``variants``: None where no position of the call needs any of
them (Numba prunes a branch on ``variants is None`` at compile time, and the kernels have
a second, smaller compiled form), True otherwise.  The engines ask :func:`variants_for`.

A position needs them when its rules integer has meld then continue
(:data:`~solvers.rummikub._layout.CONTINUE_AT`), two key words a state
(:func:`~solvers.rummikub._layout.second_word`), or two real tiles per set over length
classes (:func:`~solvers.rummikub._lengths.length_tables` not empty).  Every pass a search
runs has rules with no more of these than the position's (the initial meld's check and meld
then continue's melded pass drop bits, least disturbance's pass on the rest of a table drops
table jokers and their places) and as many jokers or fewer, and each condition only grows
with the jokers: so the position's own answer covers every pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub._layout import (
    CONTINUE_AT,
    REAL2_BIT,
    copies,
    min_set_length,
    second_word,
)
from solvers.rummikub._lengths import length_tables


@njit(cache=True)
def needs_variants(meld, jokers):
    """Whether a pass under rules ``meld`` with ``jokers`` jokers in play (table and rack)
    can take one of the wider passes.

    >>> from solvers.rummikub._layout import rules_mode
    >>> needs_variants(0, 2), needs_variants(0, 4)
    (False, True)
    >>> needs_variants(rules_mode(False, meld_continue=True), 0)
    True
    """
    if (meld >> CONTINUE_AT) & 1 or second_word(meld, jokers):
        return True
    if (meld >> REAL2_BIT) & 1:
        return length_tables(min_set_length(meld), copies(meld) + max(2, jokers))[0].shape[0] > 0
    return False


def variants_for(modes: np.ndarray, jokers: np.ndarray) -> bool | None:
    """The ``variants`` argument of an entry kernel called on positions of rules integers
    ``modes`` with ``jokers`` jokers in play each (arrays of one length, or scalars): None
    when none needs the wider passes, else True.

    >>> variants_for(np.zeros(3, np.int64), np.array([0, 1, 2])) is None
    True
    >>> variants_for(np.zeros(2, np.int64), np.array([0, 4]))
    True
    """
    modes, jokers = np.broadcast_arrays(modes, jokers)
    pairs = set(zip(np.ravel(modes).tolist(), np.ravel(jokers).tolist(), strict=True))
    return True if any(needs_variants(m, j) for m, j in pairs) else None
