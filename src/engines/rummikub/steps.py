"""A move as physical steps a person can follow at a table.

The solver returns the whole table after the move; :func:`move_steps` turns the table
before and after into actions on real sets: take tiles from a set (into the hand), pick up
a whole set, add tiles (from the rack and the hand) to a set, lay down a new set (from the
rack and the hand).  The hand holds tiles taken from the table until they are placed again;
after the last step it is empty and every set on the table is valid.

**Fewest steps.**  For the arrangement chosen, no sequence of these four actions is
shorter.  Proof: follow each set through any sequence.  A set at the end either is an old
set that was never emptied (changed by takes and adds) or began with a lay-down, and each
old set continues into at most one final set: that is a matching between old and new sets.
A matched pair needs a take if the old set has a tile the new one lacks and an add if the
new set has a tile the old one lacks; an old set with no partner needs a pick-up or take,
a new set with no partner a lay-down; every action acts on one set, so no action counts
twice.  So any sequence has at least ``old + new - sum(w)`` steps for its matching, where
``w`` is 2 for an identical pair, 1 for a pair where one set holds the other, 0 otherwise;
and :func:`move_steps` takes exactly that many for a matching that maximises ``sum(w)``.
That matching: identical sets paired first (an exchange argument shows some optimal
matching pairs them), then a maximum matching of the pairs where one set holds the other
(augmenting paths).  Sets left over are paired by most shared tiles, which moves fewer
tiles and costs the same number of steps (take + add = pick up + lay down).  Other actions
a player may think of (split a run in place, join two sets, swap a joker) are not steps of
this model: a split is a take and a lay-down here.

>>> from engines.rummikub import best_move
>>> move = best_move([["R6", "R7", "R8"], ["K9", "O9", "B9"]], "R5 R9")
>>> for step in move.steps():
...     print(step)
add R5 R9 (from the rack) to set 1 [R6 R7 R8] -> R5 R6 R7 R8 R9
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from engines.rummikub.sets import Meld, format_meld, meld_tiles
from engines.rummikub.tiles import Tile, format_tiles, sort_tiles

Action = Literal["take", "pick up", "add", "lay down"]


@dataclass(frozen=True)
class Step:
    """One physical action.

    ``action``: ``"take"`` (tiles from a table set into the hand), ``"pick up"`` (a whole
    set into the hand), ``"add"`` (tiles from the rack and the hand to a set), ``"lay down"``
    (a new set from the rack and the hand).  ``set_index`` numbers the table's sets before
    the move from 1 (0 for a new set); ``from_rack``/``from_hand`` are the tiles each source
    gives; ``before``/``after`` the set's tiles before and after the step.
    """

    action: Action
    set_index: int
    tiles: tuple[Tile, ...]
    from_rack: tuple[Tile, ...] = ()
    from_hand: tuple[Tile, ...] = ()
    before: tuple[Tile, ...] = ()
    after: str = ""

    def __str__(self) -> str:
        where = f"set {self.set_index} [{format_tiles(self.before)}]"
        if self.action in ("take", "pick up"):
            what = "" if self.action == "pick up" else f" {format_tiles(self.tiles)} from"
            return f"{self.action}{what} {where} into the hand"
        sources = []
        if self.from_rack:
            sources.append("from the rack" if not self.from_hand
                           else f"{format_tiles(self.from_rack)} from the rack")
        if self.from_hand:
            sources.append("from the hand" if not self.from_rack
                           else f"{format_tiles(self.from_hand)} from the hand")
        source = " and ".join(sources)
        if self.action == "add":
            return f"add {format_tiles(self.tiles)} ({source}) to {where} -> {self.after}"
        return f"lay down {self.after} ({source})"


def _match(old: Sequence[Counter], new: Sequence[Counter]) -> dict[int, int]:
    """New set index -> old set index, a matching with the fewest steps (module docstring):
    identical sets, then most pairs where one set holds the other, then most tiles shared."""
    match: dict[int, int] = {}
    used_old: set[int] = set()
    for j, n in enumerate(new):
        for i, o in enumerate(old):
            if i not in used_old and o == n:
                match[j] = i
                used_old.add(i)
                break
    holds = {j: [i for i, o in enumerate(old) if i not in used_old and (o <= n or n <= o)]
             for j, n in enumerate(new) if j not in match}
    one_step: dict[int, int] = {}  # old -> new, grown by augmenting paths (Kuhn)

    def augment(j: int, seen: set[int]) -> bool:
        for i in holds[j]:
            if i not in seen:
                seen.add(i)
                if i not in one_step or augment(one_step[i], seen):
                    one_step[i] = j
                    return True
        return False

    for j in holds:
        augment(j, set())
    for i, j in one_step.items():
        match[j] = i
        used_old.add(i)
    pairs = sorted(
        (-sum((o & n).values()), j, i) for j, n in enumerate(new) for i, o in enumerate(old)
        if j not in match and i not in used_old and o & n
    )
    for _, j, i in pairs:
        if j not in match and i not in used_old:
            match[j] = i
            used_old.add(i)
    return match


def move_steps(old_table: Sequence[Sequence[Tile]], new_table: Sequence[Meld],
               played: Sequence[Tile]) -> list[Step]:
    """The steps that turn ``old_table`` into ``new_table`` playing ``played`` from the rack."""
    old = [Counter(s) for s in old_table]
    new = [Counter(meld_tiles(m)) for m in new_table]
    match = _match(old, new)
    target = {i: j for j, i in match.items()}
    steps: list[Step] = []
    left = [list(s) for s in old_table]  # each old set as it lies once tiles are taken
    for i, before in enumerate(old_table):  # first, what leaves a set goes into the hand
        if i not in target:
            steps.append(Step("pick up", i + 1, tuple(before), before=tuple(before)))
            continue
        taken = old[i] - new[target[i]]
        if taken:
            steps.append(Step("take", i + 1, tuple(sort_tiles(taken.elements())),
                              before=tuple(before)))
            for tile in taken.elements():
                left[i].remove(tile)
    rack = Counter(played)
    for j, meld in enumerate(new_table):  # then the sets are completed or laid down
        i = match.get(j)
        added = new[j] - old[i] if i is not None else new[j]
        if not added:
            continue
        from_rack = rack & added
        rack -= from_rack
        from_hand = added - from_rack
        steps.append(Step(
            "add" if i is not None else "lay down", 0 if i is None else i + 1,
            tuple(sort_tiles(added.elements())), tuple(sort_tiles(from_rack.elements())),
            tuple(sort_tiles(from_hand.elements())), () if i is None else tuple(left[i]),
            format_meld(meld)))
    return steps
