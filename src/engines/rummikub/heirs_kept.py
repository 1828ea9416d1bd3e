"""The table sets every move the fewest-tiles-moved pass looks for keeps, left out of its pass.

The pass (:mod:`engines.rummikub.heirs`) looks among the moves that reach the objective's
optimum and keep ``K`` table sets (least disturbance's most).  A set that every one of them
keeps is its own heir in each (all its tiles stay), so the pass on the other sets, asking
for ``K`` less those kept, finds the same fewest tiles moved, and the answer is its move
with those sets added back unchanged.  A smaller table is a cheaper pass: no state can
release those sets any more (benches/README.md "Fewest tiles moved").

A set is left out only when proven kept by every such move: the linear relaxation's bound
on the sets kept by a move that releases it is below ``K`` (:func:`solvers.rummikub._kept.
kept_always`, a few ms for the whole table), then again on the table less the sets proven
(the others' bounds may tighten) until a round proves none.  Least disturbance's held-out
pass with a set made unholdable decides the sets the relaxation leaves, but cost more than
it saved (docs/CHANGELOG.md, rkfew7).
"""

from __future__ import annotations

import numpy as np

from engines.rummikub.heirs_later import relaxation_inputs
from engines.rummikub.move import Move, kept_sets
from engines.rummikub.position import _counts
from engines.rummikub.rules import Rules

__all__ = ["KEPT_ALWAYS", "kept_always"]

# Whether the pass leaves out the sets the relaxation proves kept (False: an A/B)
KEPT_ALWAYS = True


def kept_always(sets: list, rack_tiles: tuple, rules: Rules,
                weights: tuple[np.ndarray, int, int], move: Move) -> set[int]:
    """The indices of the table ``sets`` every move as good as ``move`` (least disturbance's,
    ``move.sets_kept`` sets kept) for the objective keeps, as far as the relaxation proves
    (``weights``: the objective's weights over the rules' numbers, the joker's, and
    ``move``'s gain)."""
    if not KEPT_ALWAYS:
        return set()
    from solvers.rummikub._kept import kept_always as relaxed_kept

    weight, joker_weight, optimum = weights
    rack, rack_j = _counts(rack_tiles)
    held = kept_sets(sets, move.table)  # (a set the move releases is not kept by every move)
    proven: set[int] = set()
    while True:  # (the sets proven leave the programme: the others' bounds may tighten)
        rest = [i for i in range(len(sets)) if i not in proven]
        table = [sets[i] for i in rest]
        kept = np.array([0 if i in held else -1 for i in rest], np.int64)
        relaxed_kept(*relaxation_inputs(table, (rack, weight), (rack_j, joker_weight, optimum),
                                        rules), move.sets_kept - len(proven), kept)
        if not (kept == 1).any():
            return proven
        proven |= {rest[k] for k in np.flatnonzero(kept == 1).tolist()}
