"""Batch 升级 APIs: many positions in, NumPy arrays out (for the batch-analysis runner).

Each function takes N positions either as (N, 54) integer count arrays or as
lists of card lists (``["S10", "HA"]`` or ``"S10 HA"``), plus one
:class:`~engines.shengji.rules.TrumpContext` for all rows or a sequence of N
contexts (rows may mix levels and trumps).  The work is one call of a Numba
kernel, which for legality, counting, trick winners and throws also checks each
row as it reads it; bad input raises
:class:`~engines.shengji.cards.ShengjiInputError` naming the first bad row, as a
check of the whole batch before the call would.  ``threads`` limits the kernel's
thread count for the parallel kernels (None or 0: Numba's setting).

Example:
    >>> ctx = TrumpContext("10", "H")
    >>> are_legal_follows(["S4 S5 S5 D5", "S4 S5 S5 D5"], ["S9 S9", "S9 S9"],
    ...                   ["S5 S5", "S4 D5"], ctx).tolist()
    [True, False]
    >>> trick_winners([[["H10"], ["D10"], ["S9"], ["C10"]]], TrumpContext("10", "S")).tolist()
    [0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

import solvers.shengji as K
from engines.arguments import as_list
from engines.kernel_inputs import kernel_rows
from engines.shengji.cards import CARD_NAMES, ShengjiInputError, check_counts, parse_cards
from engines.shengji.rules import (
    BottomPolicy,
    ThrowWinnerPolicy,
    TrumpContext,
    check_trick_sizes,
)
from engines.threads import numba_threads
from solvers.shengji import _context_codes
from solvers.shengji._checks import BAD_COUNT_0, CARD_BITS, EMPTY_LEAD, MIXED_LEAD, TOO_MANY

Batch = np.ndarray | Sequence


def _rows(cards: Batch, what: str, n: int | None = None, *, checked: bool = False) -> np.ndarray:
    """(N, 54) int8 count rows.  ``checked``: the kernel checks the 0–2 range of each row
    itself, so clean int8 arrays pass through without a separate NumPy pass."""
    if isinstance(cards, np.ndarray):
        if cards.ndim != 2 or cards.shape[1] != 54:
            raise ShengjiInputError(f"{what}: expected an (N, 54) count array, got {cards.shape}")
        if cards.dtype.kind not in "iub":
            raise ShengjiInputError(f"{what}: count arrays must hold integers")
        if not (checked and cards.dtype == np.int8):
            _check_range(cards, what)
        arr = kernel_rows(cards, np.int8)
    else:
        arr = np.zeros((len(cards), 54), dtype=np.int8)
        for i, row in enumerate(cards):
            arr[i] = (check_counts(row, f"{what} row {i}") if isinstance(row, np.ndarray)
                      else parse_cards(row, f"{what} row {i}"))
    if n is not None and arr.shape[0] != n:
        raise ShengjiInputError(f"{what}: {arr.shape[0]} rows, expected {n}")
    return arr


def _check_range(cards: np.ndarray, what: str) -> None:
    bad = np.argwhere((cards < 0) | (cards > 2))
    if bad.size:
        r, c = bad[0]
        raise ShengjiInputError(
            f"{what} row {r}: {int(cards[r, c])} copies of {CARD_NAMES[c]} (allowed 0–2)"
        )


def _contexts(ctx: TrumpContext | Sequence[TrumpContext], n: int):
    """(context code per row, esuit_t, pos_t, suit_cards_t, n_suit_cards_t, suit_mask_t).

    The tables are those of all 65 contexts, indexed by :attr:`TrumpContext.code`, so a
    list of contexts costs one native pass (:mod:`solvers.shengji._context_codes`: types
    and codes, about 6 ns a row) and no lookup; a row it cannot read (not a TrumpContext,
    or a subclass) sends the list through the checks in Python, which name the row.
    """
    tables = K.all_tables()
    if isinstance(ctx, TrumpContext):
        return (np.full(n, ctx.code, dtype=np.uint8), *tables)
    ctxs = ctx if isinstance(ctx, list | tuple) else as_list(ctx, "contexts", ShengjiInputError)
    if len(ctxs) != n:
        raise ShengjiInputError(f"contexts: {len(ctxs)} given for {n} rows")
    codes = np.empty(n, dtype=np.uint8)
    rows = ctxs if type(ctxs) is list else list(ctxs)
    if _context_codes.context_codes(rows, TrumpContext, codes) < 0:  # one C pass
        return (codes, *tables)
    # a row that is not a TrumpContext (or is one of a subclass): checked and named here
    if not all(issubclass(t, TrumpContext) for t in set(map(type, ctxs))):
        i, c = next((i, c) for i, c in enumerate(ctxs) if not isinstance(c, TrumpContext))
        raise ShengjiInputError(f"contexts row {i}: expected a TrumpContext, got {c!r}")
    return (np.array([c.code for c in ctxs], dtype=np.uint8), *tables)


def _raise_first(err: np.ndarray, arrays: Sequence[tuple[str, np.ndarray]], lead: str,
                 deck: str) -> None:
    """Raise the error of the kernel's row codes that the checks report first.

    ``arrays`` names the (N, 54) count arrays in the kernel's order (``BAD_COUNT_0``
    …), ``lead`` the lead checks, ``deck`` the check of two decks across all of them.
    The first error is the smallest kind, then the first row: the order of separate
    checks of the whole batch.
    """
    bad = np.flatnonzero(err)
    if not bad.size:
        return
    codes = err[bad]
    r = int(bad[np.lexsort((bad, codes // CARD_BITS))[0]])
    kind, c = divmod(int(err[r]), CARD_BITS)
    if kind == EMPTY_LEAD:
        raise ShengjiInputError(f"{lead} row {r}: no cards")
    if kind == MIXED_LEAD:
        raise ShengjiInputError(f"{lead} row {r}: cards of several effective suits")
    rows = [(name, a[r]) for name, a in arrays]
    if kind == TOO_MANY:
        total = sum(int(a[c]) for _, a in rows)
        raise ShengjiInputError(
            f"{deck} row {r}: {total} copies of {CARD_NAMES[c]} (two decks hold two)"
        )
    name, value = rows[kind - BAD_COUNT_0]
    raise ShengjiInputError(
        f"{name} row {r}: {int(value[c])} copies of {CARD_NAMES[c]} (allowed 0–2)"
    )


def _check_leads(leads: np.ndarray, idx: np.ndarray, esuit_t: np.ndarray, what: str) -> None:
    suits = esuit_t[idx]  # (N, 54)
    held = leads > 0
    empty = ~held.any(axis=1)
    if empty.any():
        raise ShengjiInputError(f"{what} row {int(np.nonzero(empty)[0][0])}: no cards")
    lo = np.where(held, suits, 9).min(axis=1)
    hi = np.where(held, suits, -1).max(axis=1)
    mixed = np.nonzero(lo != hi)[0]
    if mixed.size:
        raise ShengjiInputError(f"{what} row {int(mixed[0])}: cards of several effective suits")


def _check_decks(what: str, *arrays: np.ndarray) -> None:
    total = sum(a.astype(np.int16).sum(axis=1) if a.ndim == 3 else a.astype(np.int16)
                for a in arrays)
    bad = np.argwhere(total > 2)
    if bad.size:
        r, c = bad[0]
        raise ShengjiInputError(
            f"{what} row {r}: {int(total[r, c])} copies of {CARD_NAMES[c]} (two decks hold two)"
        )


def _threads(threads: int | None):
    return numba_threads(threads, ShengjiInputError)


def are_tractors(cards: Batch, ctx: TrumpContext | Sequence[TrumpContext]) -> np.ndarray:
    """Section 3 for N card sets: bool array."""
    arr = _rows(cards, "cards")
    idx, es, ps, _, _, _ = _contexts(ctx, arr.shape[0])
    return K.is_tractor_batch(arr, idx, es, ps)


def decompose_many(
    cards: Batch, ctx: TrumpContext | Sequence[TrumpContext]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Section 4 for N one-suit sets: ``(offsets, component rows, sizes, top positions)``.

    Set i's components (canonical order) are rows ``offsets[i]:offsets[i + 1]``.
    """
    arr = _rows(cards, "cards")
    idx, es, ps, _, _, _ = _contexts(ctx, arr.shape[0])
    if arr.shape[0]:
        _check_leads(arr, idx, es, "cards")
    return K.decompose_batch(arr, idx, es, ps)


def realise_shapes(
    cards: Batch,
    suits: Sequence[str],
    shapes: Sequence[Sequence[int]],
    ctx: TrumpContext | Sequence[TrumpContext],
) -> np.ndarray:
    """Section 5 for N sets: does the given effective suit ('S' 'H' 'C' 'D' or 'T') of set i
    hold disjoint chains of the lengths ``shapes[i]``?"""
    arr = _rows(cards, "cards")
    n = arr.shape[0]
    if len(suits) != n or len(shapes) != n:
        raise ShengjiInputError(f"suits/shapes: expected {n} of each")
    suit_idx = np.zeros(n, dtype=np.int64)
    parts = np.zeros((n, K._structure.MAX_PARTS), dtype=np.int64)
    nparts = np.zeros(n, dtype=np.int64)
    for i, (s, shp) in enumerate(zip(suits, shapes)):
        if s not in ("S", "H", "C", "D", "T"):
            raise ShengjiInputError(f"suits row {i}: expected S, H, C, D or T, got {s!r}")
        suit_idx[i] = "SHCDT".index(s)
        shp = sorted((int(x) for x in shp), reverse=True)
        if any(x < 1 for x in shp) or len(shp) > parts.shape[1]:
            raise ShengjiInputError(f"shapes row {i}: expected positive chain lengths")
        parts[i, : len(shp)] = shp
        nparts[i] = len(shp)
    idx, es, ps, _, _, _ = _contexts(ctx, n)
    return K.realises_batch(arr, suit_idx, parts, nparts, idx, es, ps)


def are_legal_follows(
    hands: Batch,
    leads: Batch,
    plays: Batch,
    ctx: TrumpContext | Sequence[TrumpContext],
    threads: int | None = None,
) -> np.ndarray:
    """Section 6.1 for N positions: bool array (hands contain their plays).

    The kernel checks each row as it reads it (counts, the lead, two decks).
    """
    h = _rows(hands, "hands", checked=True)
    n = h.shape[0]
    ld = _rows(leads, "leads", n, checked=True)
    p = _rows(plays, "plays", n, checked=True)
    idx, es, ps, _, _, ms = _contexts(ctx, n)
    with _threads(threads):
        if threads == 1 or n < 256:
            legal, err = K.follow_legal_batch_serial(h, ld, p, idx, es, ps, ms)
        else:
            legal, err = K.follow_legal_batch(h, ld, p, idx, es, ps, ms, numba.get_num_threads(),
                                               0)
    _raise_first(err, [("hands", h), ("leads", ld), ("plays", p)], "leads", "hands and leads")
    return legal


def count_legal_follows(
    hands: Batch,
    leads: Batch,
    ctx: TrumpContext | Sequence[TrumpContext],
    threads: int | None = None,
) -> np.ndarray:
    """Number of distinct legal follows (section 6.3) of each position: int64 array."""
    h = _rows(hands, "hands", checked=True)
    n = h.shape[0]
    ld = _rows(leads, "leads", n, checked=True)
    idx, es, ps, sc, ns, ms = _contexts(ctx, n)
    with _threads(threads):
        counts, err = K.count_follows_batch(h, ld, idx, es, ps, sc, ns, ms,
                                            numba.get_num_threads(), 0)
    _raise_first(err, [("hands", h), ("leads", ld)], "leads", "hands and leads")
    return counts


def legal_follows_batch(
    hands: Batch, leads: Batch, ctx: TrumpContext | Sequence[TrumpContext]
) -> tuple[np.ndarray, np.ndarray]:
    """Every legal follow of each position: ``(offsets, rows)``.

    Position i's follows are the count rows ``rows[offsets[i]:offsets[i + 1]]``.
    """
    h = _rows(hands, "hands")
    n = h.shape[0]
    ld = _rows(leads, "leads", n)
    idx, es, ps, sc, ns, _ = _contexts(ctx, n)
    _check_leads(ld, idx, es, "leads")
    _check_decks("hands and leads", h, ld)
    return K.enumerate_follows_batch(h, ld, idx, es, ps, sc, ns)


def trick_winners(
    plays: np.ndarray | Sequence[Sequence],
    ctx: TrumpContext | Sequence[TrumpContext],
    policy: ThrowWinnerPolicy = ThrowWinnerPolicy.LEADING_COMPONENT,
    threads: int | None = None,
) -> np.ndarray:
    """Section 8 for N tricks: ``plays`` is (N, 4, 54) or N lists of 4 plays; int64 indices."""
    if isinstance(plays, np.ndarray):
        if plays.ndim != 3 or plays.shape[1:] != (4, 54):
            raise ShengjiInputError(f"plays: expected an (N, 4, 54) array, got {plays.shape}")
        names = [f"plays[:, {k}]" for k in range(4)]
        if plays.dtype != np.int8:
            for k in range(4):
                _rows(plays[:, k], names[k])
        arr = kernel_rows(plays, np.int8)
    else:
        plays = as_list(plays, "plays", ShengjiInputError)
        for i, trick in enumerate(plays):
            if isinstance(trick, str) or not hasattr(trick, "__len__") or len(trick) != 4:
                raise ShengjiInputError(f"plays row {i}: expected 4 plays, got {trick!r}"[:300])
        names = [f"plays[{k}]" for k in range(4)]
        arr = np.stack(
            [_rows([trick[k] for trick in plays], names[k]) for k in range(4)], axis=1
        ) if len(plays) else np.zeros((0, 4, 54), dtype=np.int8)
    n = arr.shape[0]
    idx, es, ps, _, _, ms = _contexts(ctx, n)
    with _threads(threads):
        if threads == 1 or n < 256:
            winners, err = K.trick_winner_batch_serial(arr, idx, es, ps, ms, int(policy))
        else:
            winners, err = K.trick_winner_batch(arr, idx, es, ps, ms, int(policy),
                                                numba.get_num_threads(), 0)
    if err.any() and int(err[err != 0].min()) // CARD_BITS == EMPTY_LEAD:
        # an empty lead or a play of another size, and no bad count anywhere
        check_trick_sizes(arr.sum(axis=2, dtype=np.int64), "plays")
    _raise_first(err, [(names[k], arr[:, k]) for k in range(4)], "leads", "plays")
    return winners


def check_throws(
    leads: Batch,
    others: np.ndarray | Sequence[Sequence],
    ctx: TrumpContext | Sequence[TrumpContext],
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Section 7 for N leads against the 3 other hands each: ``(valid, forced rows)``."""
    ld = _rows(leads, "leads", checked=True)
    n = ld.shape[0]
    if isinstance(others, np.ndarray):
        if others.shape != (n, 3, 54):
            raise ShengjiInputError(f"others: expected an ({n}, 3, 54) array, got {others.shape}")
        names = [f"others[:, {k}]" for k in range(3)]
        if others.dtype != np.int8:
            for k in range(3):
                _rows(others[:, k], names[k])
        oth = kernel_rows(others, np.int8)
    else:
        if len(others) != n or any(len(o) != 3 for o in others):
            raise ShengjiInputError("others: expected 3 hands per lead")
        names = [f"others[{k}]" for k in range(3)]
        oth = np.stack([_rows([o[k] for o in others], names[k]) for k in range(3)], axis=1)
    idx, es, ps, _, _, ms = _contexts(ctx, n)
    with _threads(threads):
        valid, forced, err = K.check_throw_batch(ld, oth, idx, es, ps, ms,
                                                 numba.get_num_threads(), 0)
    _raise_first(err, [("leads", ld)] + [(names[k], oth[:, k]) for k in range(3)], "leads",
                 "leads and others")
    return valid, forced


def bottom_multipliers(
    last_leads: Batch,
    ctx: TrumpContext | Sequence[TrumpContext],
    policy: BottomPolicy = BottomPolicy.POWER_OF_TWO,
) -> np.ndarray:
    """Section 10 multiplier for N last-trick leads: int64 array."""
    ld = _rows(last_leads, "last leads")
    idx, es, ps, _, _, _ = _contexts(ctx, ld.shape[0])
    _check_leads(ld, idx, es, "last leads")
    return K.bottom_multiplier_batch(ld, idx, es, ps, int(policy))


def trick_points_batch(cards: Batch) -> np.ndarray:
    """Section 9 points of N card sets: int64 array."""
    arr = _rows(cards, "cards")
    return K.trick_points_batch(arr, K.context_tables(0, 0).points)
