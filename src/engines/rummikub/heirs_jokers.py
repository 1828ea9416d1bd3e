"""Fewest tiles moved: what the numbers from one on must lose once every joker is placed.

The pass's bound on the tiles still able to stay (:func:`solvers.rummikub._heirs_step.
reaches`) counts every later table tile, whatever jokers are left.  Yet a table can need a
joker high up to keep its sets (a run whose joker stands for a tile nobody holds, a group
short of a colour): a state that placed all its jokers low loses those tiles later, and
sees it only there.  The pass in the other order of numbers, allowed no joker at all
(``_Pass.joker_cap``; cheap: no joker to branch on), keeps at each layer every start of an
arrangement reaching its floor that places no joker at those numbers, so its best tiles
staying there bound what such an arrangement keeps from that number on.  A state with no
joker left then loses at least the rest (:func:`solvers.rummikub._heirs_step.suffix_lost`;
the same floor or a higher one; none where a set held out holds a joker: both orders count
its jokers).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from engines.rummikub.heirs_later import NCOL, NNUM

__all__ = ["JOKER_LOSSES", "joker_losses", "with_joker_losses"]

# Whether the passes read the no-joker pass's bound (False: an A/B)
JOKER_LOSSES = True
_FIELD_AT, _FIELD_MASK, _NEG = 50, (1 << 12) - 1, -(2**62)  # (solvers.rummikub._heirs_state's)
ALL_LOST = 255  # (no start of an arrangement without a joker reaches the floor there)


def joker_losses(capped: object, tables: dict, turned_tables: dict, sets: list,
                 numbers: int, complete: bool = True) -> np.ndarray:
    """Per number w (0-based, in ``tables``' order): the table tiles the numbers from w on
    lose at least with no joker left (bits 0-7), and the hold slots at number w whose set
    holds a joker (bit 32 on), for :func:`solvers.rummikub._heirs_step.suffix_lost`.
    ``capped``: the finished pass (``heirs._Pass``) in the other order of numbers with
    ``joker_cap`` 0, ``turned_tables`` its tables; ``sets``: the pass's table sets;
    ``complete``: False where it stopped on its budget (its layers not reached bound nothing)."""
    out = np.zeros(NNUM + 1, np.int64)
    places = tables["places"]
    layers, st, scale2 = capped.carry[3], capped.st, capped.args[-1]
    for turned in range(numbers):
        w = numbers - 1 - turned  # (the capped pass has placed numbers w.. in this order)
        start, end = layers[turned * (NCOL + 1) + NCOL + 1]
        if start < 0 and not complete:
            break
        rows = st[start:end] if start >= 0 else st[:0]
        rows = rows[rows[:, 3] != _NEG]
        lost = ALL_LOST
        if len(rows):
            field = (rows[:, 0] >> _FIELD_AT) & _FIELD_MASK
            held_below = np.zeros(len(rows), np.int64)  # (held sets' tiles before w: counted)
            for slot in range(12):
                held_below += ((field >> slot) & 1) * turned_tables["rest"][turned, NCOL - 1, slot]
            staying = rows[:, 3] % scale2 - held_below
            lost = min(ALL_LOST, max(0, int(places[w:].sum()) - int(staying.max())))
        out[w] = lost
    for i, tiles in enumerate(sets):
        if any(t.is_joker for t in tiles):
            slot = int(tables["slot_of"][i])
            for v in range(NNUM):
                if tables["rest"][v, NCOL, slot] > 0:
                    out[v] |= np.int64(1) << (32 + slot)
    return out


def with_joker_losses(made: Callable[[int, int], Any], built: dict[int, dict], direction: int,
                      sets: list, numbers: int, above: int, budget: int) -> None:
    """``built[direction]["joker_losses"]`` (once): :func:`joker_losses` from the pass in the
    other order of numbers (``made(1 - direction, above)``: a ``heirs._Pass`` at the full
    pass's floor, so that the bound holds for every pass) with no joker, up to ``budget``
    states (about: it stops after a layer; 0: to the end); none when :data:`JOKER_LOSSES` is off.
    ``sets``: the pass's table sets in ``direction``'s order."""
    if direction not in built:
        made(direction, above)  # (its tables)
    if "joker_losses" in built[direction]:
        return
    if not JOKER_LOSSES:
        built[direction]["joker_losses"] = np.zeros(NNUM + 1, np.int64)
        return
    capped = made(1 - direction, above)  # (and the other direction's tables)
    capped.joker_cap = 0
    complete = capped.run(budget) is not None
    built[direction]["joker_losses"] = joker_losses(capped, built[direction],
                                                    built[1 - direction], sets, numbers, complete)
