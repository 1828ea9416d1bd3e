"""The fewest-tiles-moved pass's table of twin table sets, from a number on.

Two table sets that are the same from number v+1 on (the same group; or two runs of a
colour with the same end and the same tiles, real or joker, from v+1 on) are the same for the
rest of the pass, so the pass (:mod:`engines.rummikub.heirs`) holds out or lets adopt the later
one only with the earlier one: the other choices repeat these with the two named the other
way round.
"""

from __future__ import annotations

import numpy as np

from engines.rummikub.heirs_later import NNUM

__all__ = ["twins_of"]


def twins_of(sets: list, slot_number: np.ndarray, set_start: np.ndarray, slot_of: np.ndarray,
           run_type: np.ndarray) -> np.ndarray:
    """``[v, slot]``: the slot of an earlier table set that is the same as the set in that
    slot from number v+1 on (-1: none): for a group the same group; for a run one of its
    colour covering v+1 with the same end and the same tiles (real or joker) from v+1 on,
    so the two are the same for the rest of the pass (:func:`solvers.rummikub._heirs_step.
    _adopt`, :func:`~solvers.rummikub._heirs_prune.twin_alone`)."""
    from solvers.rummikub._layout import HOLD_BITS

    twin = np.full((NNUM, HOLD_BITS), -1, np.int64)
    spans = [slot_number[set_start[i]: set_start[i + 1]].tolist() for i in range(len(sets))]
    for i, numbers in enumerate(spans):
        group = len(set(numbers)) == 1
        for j in range(i):
            if group or len(set(spans[j])) == 1:
                if sets[j] == sets[i]:
                    twin[numbers[0] - 1, slot_of[i]] = slot_of[j]
                continue
            colour = {t.colour for t in sets[i] if not t.is_joker}
            if colour != {t.colour for t in sets[j] if not t.is_joker}:
                continue
            end = max(numbers)
            if max(spans[j]) != end:
                continue
            for v in range(max(min(numbers), min(spans[j])) - 1, end):
                if (run_type[i, v:end] == run_type[j, v:end]).all():
                    twin[v, slot_of[i]] = slot_of[j]
    return twin
