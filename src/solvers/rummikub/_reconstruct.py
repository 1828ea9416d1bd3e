"""Turn the kernel's per-number choices into explicit sets.

Runs are replayed colour by colour: at each number the open runs of length
1-2 take tiles first, then runs of length >= 3, then new runs start (the same
rules the kernel uses).  Groups come from a witness partition of the colour
counts and jokers (:func:`solvers.rummikub._groups.partition_groups`).

A set is returned as a list of ``(colour, number, is_joker)`` with colour 0..3
and the number the tile stands for.
"""

from __future__ import annotations

import numpy as np

from solvers.rummikub._groups import partition_groups

NCOL = 4
NNUM = 13

Placed = tuple[int, int, bool]


def build_sets(choice: np.ndarray, group_jokers: np.ndarray) -> list[list[Placed]]:
    """``choice[c, v-1] = (run tiles, group tiles, run jokers)``, ``group_jokers[v-1]``."""
    sets: list[list[Placed]] = []
    for c in range(NCOL):
        open_runs: list[list[Placed]] = []
        for v in range(NNUM):
            number = v + 1
            items = [(c, number, False)] * int(choice[c, v, 0]) + [(c, number, True)] * int(
                choice[c, v, 2]
            )
            short = [r for r in open_runs if len(r) < 3]
            long = [r for r in open_runs if len(r) >= 3]
            if len(items) < len(short):
                raise AssertionError("kernel choice leaves a run of length < 3 open")
            continued = []
            for run in short + long:
                if not items:
                    break
                run.append(items.pop(0))
                continued.append(run)
            for run in open_runs:
                if run not in continued:
                    sets.append(run)
            open_runs = continued + [[item] for item in items]
        for run in open_runs:
            if len(run) < 3:
                raise AssertionError("kernel choice leaves a run of length < 3 at 13")
            sets.append(run)
    for v in range(NNUM):
        ug = [int(choice[c, v, 1]) for c in range(NCOL)]
        jg = int(group_jokers[v])
        if sum(ug) == 0 and jg == 0:
            continue
        parts = partition_groups(ug, jg)
        if parts is None:
            raise AssertionError("kernel chose an infeasible group profile")
        for colours, jokers in parts:
            group: list[Placed] = [(c, v + 1, False) for c in colours]
            spare = [c for c in range(NCOL) if c not in colours]
            group += [(spare[k], v + 1, True) for k in range(jokers)]
            sets.append(group)
    return sets
