"""A pass of the wide DP given up at a budget of states, kept so that it can go on later.

The engine searches a position both ways round (numbers as they are and reversed) in
rounds under a growing budget (``engines.rummikub.wide``); a kernel call whose pass passes
the budget returns -1 and writes into the caller's ``save`` array what the same call needs
to go on from there when it is made again with a larger budget: the results of the call's
passes finished before it (a pass is the same function of its inputs whatever the budget,
so they are not run again) and the given-up pass's layers (its last layer's states, every
layer's parents and choices for the replay), from which it goes on instead of starting
over.  An empty ``save``: nothing is kept (the pass bound is the memory bound).

The layout: a header (:data:`BUDGET` ..), :data:`MEMO` passes' ``(status, score,
truncated)``, the layers' bookkeeping, then the last layer's rows, the parents and the
choices.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from solvers.rummikub.wide._store import new_layer

# The header: the budget (a pass capped at it or above gives up resumably); the passes
# begun in this call so far; the call's first passes that finished (their results kept);
# whether the pass after them is kept; whether a pass gave up at the budget in this call;
# then where the kept pass stopped: its number and step, its last layer's states, its
# states in all (parents kept), its layers and whether it dropped states (narrow)
BUDGET, PASSES, DONE, SAVED, GAVE_UP, AT_V, AT_STEP, ROWS, USED, COUNT, TRUNCATED = range(11)
MEMO = 16  # the most passes before the given-up one whose results are kept
MEMO_AT = 16
# the layers' bookkeeping: at most 26 numbers of two layers a colour, eight colours
LAYERS = 26 * 2 * 8
LAYERS_AT = MEMO_AT + 3 * MEMO
DATA_AT = LAYERS_AT + 3 * (LAYERS + 1)
ROW_WORDS = 5
# the budget below which a ``save`` array has the same room (a small budget's last layer
# may hold many times its states)
LEAST_ROOM = 32_768


def save_size(budget: int) -> int:
    """The length of a ``save`` array for a pass given up at ``budget`` states (its last
    layer's rows and every state's parent and choice, when they fit in ``8 * budget``
    words, at least :data:`LEAST_ROOM`: nearly always; a pass that does not fit starts
    over)."""
    return DATA_AT + 8 * max(budget, LEAST_ROOM)


def fresh_save(save: np.ndarray, budget: int) -> np.ndarray:
    """``save`` (or a larger array) made ready for a new call under ``budget`` states:
    nothing kept yet."""
    if save.shape[0] < save_size(budget):
        save = np.empty(save_size(budget), np.int64)
    save[:MEMO_AT] = 0
    save[BUDGET] = budget
    return save


def raised_save(save: np.ndarray, budget: int, room: int) -> np.ndarray:
    """``save`` (or a larger copy, room for a pass given up at ``room`` states) for the
    same call made again under a larger ``budget``: the passes it keeps (finished, or
    given up) kept."""
    if save.shape[0] < save_size(room):
        kept = DATA_AT + (ROW_WORDS * save[ROWS] + 2 * save[USED] if save[SAVED] else 0)
        larger = np.empty(save_size(room), np.int64)
        larger[:kept] = save[:kept]
        save = larger
    save[PASSES] = save[GAVE_UP] = 0
    save[BUDGET] = budget
    return save


def stopped(save: np.ndarray) -> bool:
    """Whether the last call through ``save`` gave a pass up at its budget (the same call
    made again under a larger one goes on)."""
    return bool(save[GAVE_UP])


@njit(cache=True)
def pass_begun(save):
    """The call's next pass: its index among the call's passes, counted in ``save``."""
    ordinal = save[PASSES]
    save[PASSES] += 1
    return ordinal


@njit(cache=True)
def kept_result(save, ordinal):
    """``(kept, status, score, truncated)``: the result of the call's pass ``ordinal`` if
    it finished before the call gave up (``kept``: else nothing known)."""
    if save.shape[0] == 0 or ordinal >= save[DONE]:
        return False, 0, 0, 0
    at = MEMO_AT + 3 * ordinal
    return True, save[at], save[at + 1], save[at + 2]


@njit(cache=True)
def keep_result(save, ordinal, status, score, truncated):
    """Keep the result of pass ``ordinal`` if every pass before it in the call finished
    and none gave up (the passes after a given-up one may differ once it goes on)."""
    if save.shape[0] == 0 or ordinal != save[DONE] or ordinal >= MEMO or save[GAVE_UP]:
        return
    at = MEMO_AT + 3 * ordinal
    save[at], save[at + 1], save[at + 2] = status, score, truncated
    save[DONE] = ordinal + 1


@njit(cache=True)
def gives_up(save, max_states):
    """Whether a pass past ``max_states`` gives up at the budget (it may go on later)
    rather than at its own bound (a pass's result like any other)."""
    return save.shape[0] > 0 and max_states >= save[BUDGET]


@njit(cache=True)
def save_pass(save, v, step, rows, n, used, count, truncated, layer_base, layer_kind,
              layer_at, parents, choices):
    """Write the pass given up after layer ``count - 1`` (number v+1, step ``step``) into
    ``save`` if it is the call's first pass not finished and it fits."""
    save[GAVE_UP] = 1
    ordinal = save[PASSES] - 1
    need = DATA_AT + ROW_WORDS * n + 2 * used
    if ordinal != save[DONE] or count > LAYERS or need > save.shape[0]:
        return
    save[AT_V], save[AT_STEP], save[ROWS], save[USED] = v, step, n, used
    save[COUNT], save[TRUNCATED] = count, truncated
    save[LAYERS_AT:LAYERS_AT + count + 1] = layer_base[:count + 1]
    save[LAYERS_AT + LAYERS + 1:LAYERS_AT + LAYERS + 1 + count] = layer_kind[:count]
    save[LAYERS_AT + 2 * LAYERS + 2:LAYERS_AT + 2 * LAYERS + 2 + count] = layer_at[:count]
    at = DATA_AT
    save[at:at + ROW_WORDS * n] = rows[:n].ravel()
    at += ROW_WORDS * n
    save[at:at + used] = parents[:used]
    save[at + used:at + 2 * used] = choices[:used]
    save[SAVED] = 1


@njit(cache=True)
def pass_start(save, layers):
    """``(v, step, rows, n, used, count, truncated, layer_base, layer_kind, layer_at,
    parents, choices)``: where a pass of ``layers`` layers at most begins, the kept one's
    next layer when this is the pass that the call gave up (``save``), else the first."""
    resumed = (save.shape[0] > 0 and save[SAVED] == 1 and save[PASSES] - 1 == save[DONE])
    n, used = (save[ROWS], save[USED]) if resumed else (1, 1)
    count = save[COUNT] if resumed else 0
    layer_base = np.zeros(layers + 1, np.int64)
    layer_kind = np.zeros(layers, np.int64)
    layer_at = np.zeros(layers, np.int64)
    parents = np.zeros(max(1024, 2 * used), np.int64)
    choices = np.zeros(max(1024, 2 * used), np.int64)
    rows, _ = new_layer(max(1, n))
    if not resumed:
        rows[0, 0] = rows[0, 1] = rows[0, 2] = 0
        parents[0] = -1
        return 0, -1, rows, n, used, count, 0, layer_base, layer_kind, layer_at, parents, \
            choices
    save[SAVED] = 0  # (the working arrays hold it now; given up again, it is written again)
    layer_base[:count + 1] = save[LAYERS_AT:LAYERS_AT + count + 1]
    layer_kind[:count] = save[LAYERS_AT + LAYERS + 1:LAYERS_AT + LAYERS + 1 + count]
    layer_at[:count] = save[LAYERS_AT + 2 * LAYERS + 2:LAYERS_AT + 2 * LAYERS + 2 + count]
    at = DATA_AT
    rows[:n] = save[at:at + ROW_WORDS * n].reshape((n, ROW_WORDS))
    at += ROW_WORDS * n
    parents[:used] = save[at:at + used]
    choices[:used] = save[at + used:at + 2 * used]
    return save[AT_V], save[AT_STEP], rows, n, used, count, save[TRUNCATED], layer_base, \
        layer_kind, layer_at, parents, choices
