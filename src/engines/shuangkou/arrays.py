"""Array-in, array-out forms of the 双扣 rules over N positions.

Inputs are ``(N, 15, 4)`` count arrays (or lists of card texts, parsed
first); outputs are numpy arrays.  Each call validates its input once, then
runs one Numba kernel; ``threads`` caps the kernel's threads for that call
(None or 0: Numba's setting).

Example:
    >>> from engines.shuangkou.arrays import classify_many, beats_many
    >>> classify_many(["S3 H3", "S3 H4"]).tolist()
    [131584, 0]
    >>> beats_many(["S4", "S3"], ["H3", "H3"]).tolist()
    [True, False]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engines.arguments import as_list
from engines.kernel_inputs import kernel_rows
from engines.shuangkou.cards import CardsLike, parse_cards
from engines.shuangkou.errors import ShuangkouInputError
from engines.shuangkou.rules import DEFAULT_POLICY, Policy, check_policy
from engines.threads import numba_threads

Batch = np.ndarray | Sequence[CardsLike]


def _kernels():
    import solvers.shuangkou as kernels

    return kernels


def as_rows(cards: Batch, what: str = "cards") -> np.ndarray:
    """An ``(N, 15, 4)`` uint8 array from an array (checked) or a list of card sets (parsed)."""
    if isinstance(cards, np.ndarray):
        if cards.ndim != 3 or cards.shape[1:] != (15, 4):
            raise ShuangkouInputError(f"{what}: expected shape (N, 15, 4), got {cards.shape}")
        if cards.dtype.kind not in "iu":
            raise ShuangkouInputError(f"{what}: expected integer counts, got {cards.dtype}")
        if cards.dtype != np.uint8 and cards.size and (cards.min() < 0 or cards.max() > 2):
            row = int(np.argwhere((cards < 0) | (cards > 2))[0][0])
            raise ShuangkouInputError(f"{what} row {row}: counts must be 0, 1 or 2")
        rows = kernel_rows(cards, np.uint8)
        row = int(_kernels().first_invalid_row(words(rows)))
        if row >= 0:
            raise ShuangkouInputError(
                f"{what} row {row}: counts must be 0, 1 or 2, jokers only in column 0"
            )
        return rows
    items = as_list(cards, what, ShuangkouInputError)
    rows = [parse_cards(c, f"{what}[{i}]") for i, c in enumerate(items)]
    if not rows:
        return np.zeros((0, 15, 4), dtype=np.uint8)
    return np.stack(rows)


def words(rows: np.ndarray) -> np.ndarray:
    """An ``(N, 15, 4)`` uint8 stack viewed as ``(N, 15)`` uint32 words (no copy): the
    input of the batch classification kernels."""
    return rows.view(np.uint32).reshape(rows.shape[0], 15)


def classify_many(
    cards: Batch, policy: Policy = DEFAULT_POLICY, threads: int | None = None
) -> np.ndarray:
    """Codes of N card sets (``int64``; 0 = not a combination; see
    :class:`engines.shuangkou.rules.Combination.from_code`)."""
    policy = check_policy(policy)
    arr = as_rows(cards)
    out = np.zeros(arr.shape[0], dtype=np.int64)
    with numba_threads(threads):
        _kernels().classify_batch(words(arr), policy.sf_bomb, out)
    return out


def beats_many(
    plays: Batch, previous: Batch, policy: Policy = DEFAULT_POLICY, threads: int | None = None
) -> np.ndarray:
    """``beats(plays[i], previous[i])`` for N pairs (bool).  A previous set that is no
    combination is beaten by nothing."""
    policy = check_policy(policy)
    p = as_rows(plays, "plays")
    q = as_rows(previous, "previous")
    if p.shape[0] != q.shape[0]:
        raise ShuangkouInputError(f"plays: {p.shape[0]} rows but previous: {q.shape[0]}")
    out = np.zeros(p.shape[0], dtype=np.bool_)
    with numba_threads(threads):
        _kernels().beats_batch(words(p), words(q), policy.sf_bomb, out)
    return out


def _previous_codes(previous: Batch | None, n: int, policy: Policy) -> np.ndarray:
    if previous is None:
        return np.zeros(n, dtype=np.int64)
    if isinstance(previous, np.ndarray) and previous.ndim == 1:
        codes = previous.astype(np.int64)
    else:
        rows = as_rows(
            [() if p is None else p for p in previous]
            if not isinstance(previous, np.ndarray)
            else previous,
            "previous",
        )
        codes = classify_many(rows, policy)
        empty = ~rows.reshape(rows.shape[0], -1).any(axis=1)
        bad = (codes == 0) & ~empty
        if bad.any():
            raise ShuangkouInputError(f"previous row {int(np.argmax(bad))}: not a combination")
    if codes.shape[0] != n:
        raise ShuangkouInputError(f"previous: {codes.shape[0]} rows for {n} hands")
    return codes


def count_plays_many(
    hands: Batch,
    previous: Batch | None = None,
    policy: Policy = DEFAULT_POLICY,
    threads: int | None = None,
) -> np.ndarray:
    """The number of distinct plays of each hand beating its previous play (pass not
    counted; a None or empty previous, or ``previous=None`` for all rows, means leading).
    ``previous`` may also be a 1-D array of codes."""
    policy = check_policy(policy)
    h = as_rows(hands, "hands")
    codes = _previous_codes(previous, h.shape[0], policy)
    out = np.zeros(h.shape[0], dtype=np.int64)
    with numba_threads(threads):
        _kernels().count_plays_batch(h, codes, policy.sf_bomb, out)
    return out


def enumerate_plays_many(
    hands: Batch,
    previous: Batch | None = None,
    policy: Policy = DEFAULT_POLICY,
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every play of every hand: ``(plays, offsets)`` with the plays of hand i in
    ``plays[offsets[i]:offsets[i + 1]]`` (``(total, 15, 4)`` counts)."""
    policy = check_policy(policy)
    h = as_rows(hands, "hands")
    codes = _previous_codes(previous, h.shape[0], policy)
    counts = np.zeros(h.shape[0], dtype=np.int64)
    k = _kernels()
    with numba_threads(threads):
        k.count_plays_batch(h, codes, policy.sf_bomb, counts)
        offsets = np.zeros(h.shape[0] + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        out = np.zeros((int(offsets[-1]), 15, 4), dtype=np.uint8)
        k.enumerate_plays_batch(h, codes, policy.sf_bomb, offsets, out)
    return out, offsets


def _int_array(values: object, what: str) -> np.ndarray:
    """``values`` as int64 when they are integers (never floats, NaN or text)."""
    array = np.asarray(values) if isinstance(values, np.ndarray | list | tuple) else None
    if array is None or (array.size and array.dtype.kind not in "iu"):
        raise ShuangkouInputError(f"{what}: expected a 1-D array of integers, got {values!r}"[:300])
    return array.astype(np.int64)


def trick_next_many(
    holding: np.ndarray, last_player: np.ndarray, passes: np.ndarray, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Section 7.4 over N trick states given as arrays: holder bit masks, last players
    and pass counts.  Returns ``(seat, lead, jiefeng)`` arrays."""
    hold, last, npass = (
        _int_array(holding, "holding"),
        _int_array(last_player, "last_player"),
        _int_array(passes, "passes"),
    )
    if not hold.shape == last.shape == npass.shape or hold.ndim != 1:
        raise ShuangkouInputError("holding, last_player and passes: expected equal 1-D shapes")
    if ((hold < 0) | (hold > 15)).any() or ((last < 0) | (last > 3)).any():
        raise ShuangkouInputError("holding: masks 0–15; last_player: seats 0–3")
    k = _kernels()
    others = np.array([bin(m & ~(1 << s)).count("1") for m, s in zip(hold, last)], dtype=np.int64)
    if ((npass < 0) | (npass > others)).any():
        row = int(np.argmax((npass < 0) | (npass > others)))
        raise ShuangkouInputError(f"passes row {row}: more passes than other holders")
    if (((hold & 5) == 0) | ((hold & 10) == 0)).any():
        row = int(np.argmax(((hold & 5) == 0) | ((hold & 10) == 0)))
        raise ShuangkouInputError(f"holding row {row}: a side has finished, the round is over")
    seat = np.zeros(hold.shape[0], dtype=np.int64)
    lead = np.zeros(hold.shape[0], dtype=np.bool_)
    jiefeng = np.zeros(hold.shape[0], dtype=np.bool_)
    with numba_threads(threads):
        k.trick_next_batch(hold, last, npass, seat, lead, jiefeng)
    return seat, lead, jiefeng


def warmup() -> None:
    """Compile (or load) the batch kernels."""
    hands = ["S3 H3 D3 S4 S5 S6 S7 HA"] * 2
    classify_many(hands)
    beats_many(hands, ["C10", "C10"])
    count_plays_many(hands, ["C10", None])
    enumerate_plays_many(hands, ["C10", None])
    trick_next_many(np.array([15]), np.array([0]), np.array([1]))
