"""Fewest tiles moved: the move of the pass's choices, following the heirs it chose.

Split from :mod:`engines.rummikub.heirs`: the pass (:mod:`solvers.rummikub._heirs`) writes
each sub-step's choice (tiles placed, the open runs' actions, the adoptions, the group
jokers) and the sets held out before each number; :func:`rebuild` replays them in the
pass's order of runs and adoptions and turns them into the table sets kept and new melds.
"""

from __future__ import annotations

import numpy as np

from engines.rummikub.heirs_later import NCOL
from engines.rummikub.position import _meld

__all__ = ["rebuild"]


class _Run:
    """An open run of the rebuild: length class, owner (as the pass's descriptors: 0 free,
    1 spent, 2 + slot), first number, joker places."""

    __slots__ = ("cls", "jokers", "owner", "start")

    def __init__(self, start: int, joker: bool) -> None:
        self.cls, self.owner, self.start, self.jokers = 1, 0, start, [joker]

    @property
    def desc(self) -> int:
        return self.owner << 2 | self.cls

    def code(self, colour: int) -> int:
        mask = sum(1 << i for i, j in enumerate(self.jokers) if j)
        return colour << 32 | self.start << 24 | len(self.jokers) << 16 | mask


def _group_code(number: int, mask: int, jokers: int, colours: int) -> int:
    missing = [c for c in range(colours) if not mask >> c & 1][:jokers]
    jok = sum(1 << c for c in missing)
    return (1 << 40 | number << 32 | number << 24 | (mask.bit_count() + jokers) << 16
            | jok << 4 | mask)


def rebuild(sets: list, tables: dict, steps: np.ndarray, held_out: np.ndarray,
             tile_set: tuple[int, int]) -> tuple[set[int], list]:
    """The table sets kept (indices) and the new sets (melds) of the pass's choices,
    following the heirs it chose (the same order of runs and adoptions as the pass)."""
    from engines.rummikub.heirs import group_heirs  # (its tables' module imports this one)

    hold, which = tables["hold"], tables["which"]
    runs: list[list[_Run]] = [[] for _ in range(NCOL)]
    kept: set[int] = set()
    codes: list[int] = []
    field = done = 0
    colours, numbers = tile_set
    for v in range(numbers):
        for k in range(which.shape[1]):
            if which[v, k] >= 0 and held_out[v] >> k & 1:
                kept.add(int(which[v, k]))
                field |= 1 << int(hold[3][v, k])
        profile = [0] * NCOL
        jg = 0
        for c in range(NCOL):
            ch = int(steps[v, c])
            u, ug, jr = ch & 3, ch >> 2 & 3, ch >> 4 & 3
            avec, code = ch >> 6 & 127, ch >> 13 & 1023
            jg = ch >> 23 & 3
            profile[c] = ug
            current = sorted(runs[c], key=lambda run: -run.desc)
            waiting = _waiting_runs(tables, current, field, done, v, c)
            post: list[_Run] = []
            for run in current:
                action, avec = avec % 3, avec // 3
                if action == 0:
                    codes.append(run.code(c))
                    if run.owner >= 2:
                        done |= 1 << (run.owner - 2)
                    continue
                run.cls = min(3, run.cls + 1)
                run.jokers.append(action == 2)
                post.append(run)
            jokers = sum(run.jokers[-1] for run in post)
            reals = len(post) - jokers
            post += [_Run(v + 1, False) for _ in range(u - ug - reals)]
            post += [_Run(v + 1, True) for _ in range(jr - jokers)]
            for slot in waiting:
                pick, code = code % (len(post) + 1), code // (len(post) + 1)
                if pick:
                    post[pick - 1].owner = 2 + slot
            _settle(post, int(tables["adopters"][v, c]), field | done)
            runs[c] = post
        groups = tuple(g for k, g in enumerate(tables["groups"][v])
                       if not field >> int(np.flatnonzero(tables["group_of"][v] == k)[0]) & 1)
        _value, kinds = group_heirs(groups, tuple(profile), jg, colours)
        codes += [_group_code(v + 1, mask, j, colours) for mask, j in kinds or ()]
        going = int(hold[1][v])
        for c in range(NCOL):
            for run in runs[c]:
                if run.owner >= 2 and not going >> (run.owner - 2) & 1:
                    run.owner = 1
        field &= going
        done &= going
    codes += [run.code(c) for c in range(NCOL) for run in runs[c]]
    return kept, [_meld(code) for code in codes]


def _settle(runs: list[_Run], adopters: int, out: int) -> None:
    """The pass's :func:`solvers.rummikub._heirs_step._settled` on the rebuild's ``runs`` of a
    colour: free runs become spent when none of the colour's table runs ``adopters`` may
    adopt one any more (``out``: those held out or done)."""
    linked = sum(1 << (run.owner - 2) for run in runs if run.owner >= 2)
    if adopters >= 0 and not adopters & ~(out | linked):
        for run in runs:
            run.owner = run.owner or 1


def _waiting_runs(tables: dict, current: list[_Run], field: int, done: int, v: int,
                  c: int) -> list[int]:
    """The slots of colour c's released table runs at number v+1 without a heir yet (the
    pass's order: :func:`solvers.rummikub._heirs._waiting`)."""
    owners = {run.owner for run in current}
    out = []
    for i in tables["runs_at"][v, c]:
        if i < 0:
            break
        slot = int(tables["slot_of"][i])
        if not field >> slot & 1 and 2 + slot not in owners and not done >> slot & 1:
            out.append(slot)
    return out
