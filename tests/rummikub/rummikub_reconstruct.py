"""Turn the kernel's per-number choices into explicit sets.

Runs are replayed colour by colour: at each number the open runs of length
1-2 take tiles first, then runs of length >= 3, then new runs start (the same
rules the kernel uses).  Groups come from a witness partition of the colour
counts and jokers (:func:`solvers.rummikub._groups.partition_groups`).

A set is returned as a list of ``(colour, number, is_joker)`` with colour 0..3
and the number the tile stands for.

The readable model of the unpacking, kept for the tests: the engine uses the compiled replay
:func:`solvers.rummikub.meld_codes`, which the tests hold to this one.
"""

from __future__ import annotations

import numpy as np

from solvers.rummikub._groups import partition_groups

NCOL = 4
NNUM = 13

Placed = tuple[int, int, bool]


def build_sets(choice: np.ndarray, group_jokers: np.ndarray) -> list[list[Placed]]:
    """``choice[c, v-1] = (run tiles, group tiles, run jokers, ...)``, ``group_jokers[v-1]``
    (the fourth entry, the joker placements under two real tiles per set, is not read)."""
    sets: list[list[Placed]] = []
    ch = choice[:, :, :3].tolist()
    in_runs = (choice[:, :, 0] + choice[:, :, 2]).any(axis=1).tolist()
    for c in range(NCOL):
        if not in_runs[c]:
            continue
        open_runs: list[list[Placed]] = []
        for v, (ur, _, jr) in enumerate(ch[c]):
            if not open_runs and ur + jr == 0:
                continue
            number = v + 1
            items = [(c, number, False)] * ur + [(c, number, True)] * jr
            short = [r for r in open_runs if len(r) < 3]
            if len(items) < len(short):
                raise AssertionError("kernel choice leaves a run of length < 3 open")
            ordered = short + [r for r in open_runs if len(r) >= 3]
            k = min(len(items), len(ordered))
            for run, item in zip(ordered[:k], items[:k]):
                run.append(item)
            sets.extend(ordered[k:])  # runs not continued end here
            open_runs = ordered[:k] + [[item] for item in items[k:]]
        for run in open_runs:
            if len(run) < 3:
                raise AssertionError("kernel choice leaves a run of length < 3 at 13")
            sets.append(run)
    jg_list = group_jokers.tolist()
    busy = (choice[:, :, 1].any(axis=0) | (group_jokers > 0)).nonzero()[0].tolist()
    for v in busy:
        ug = [ch[c][v][1] for c in range(NCOL)]
        jg = jg_list[v]
        parts = partition_groups(ug, jg)
        if parts is None:
            raise AssertionError("kernel chose an infeasible group profile")
        for colours, jokers in parts:
            group: list[Placed] = [(c, v + 1, False) for c in colours]
            spare = [c for c in range(NCOL) if c not in colours]
            group += [(spare[k], v + 1, True) for k in range(jokers)]
            sets.append(group)
    return sets

