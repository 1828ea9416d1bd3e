"""Constrained random dealing: fixed cards or hands, constraints, reproducible by seed.

:func:`deal` draws deals uniformly at random among those that hold the fixed
cards and satisfy the constraints, by rejection: the native dealer
(``solvers.bridge._dealer``) deals batches of 65,536 deals as suit masks (a
seeded xoshiro256** shuffle of the free cards, several million deals a
second on one core), the constraint is evaluated on the whole batch (see
:mod:`engines.bridge.constraints`), and the accepted deals are kept in order
until ``n`` are found.  The same arguments and seed give the same deals.

When the constraints accept nothing in ``max_tries`` deals,
:class:`ImpossibleConstraintsError` says so; when they accept so rarely that
``n`` deals would need more than ``max_tries`` (estimated as soon as a
million deals have been tried), :class:`RareConstraintsError` gives the
measured acceptance rate and the number of deals it would take.

>>> sample = deal(3, fixed={"S": "AKQ2.KQ3.A54.K32"}, constraints="opens_1nt(N)", seed=7)
>>> len(sample), all(d[Seat.SOUTH].to_pbn() == "AKQ2.KQ3.A54.K32" for d in sample)
(3, True)
>>> 0 < sample.acceptance_rate < 0.2
True
>>> deal(1, constraints="hcp(N) > 37")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engines.bridge.dealer.ImpossibleConstraintsError: no deal out of 10,027,008 satisfied ...
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from engines.bridge.cards import RANK_CHARS, Card, Deal, Hand
from engines.bridge.constraints import DealView, Predicate, compile_constraints
from engines.bridge.errors import (
    BridgeInputError,
    ImpossibleConstraintsError,
    RareConstraintsError,
)
from engines.bridge.seats import Seat

__all__ = [
    "BATCH",
    "DealSample",
    "ImpossibleConstraintsError",
    "RareConstraintsError",
    "deal",
    "fixed_masks",
]

BATCH = 1 << 16  # deals per native call; fixed, so a seed gives the same deals for any n
DEFAULT_MAX_TRIES = 10_000_000
_ESTIMATE_AFTER = 1 << 20  # deals tried before a too-rare verdict is trusted


@dataclass
class DealSample:
    """Deals from :func:`deal`: ``masks[i, seat, suit]`` plus how many deals were tried.

    Iterating gives :class:`~engines.bridge.cards.Deal` objects.
    """

    masks: np.ndarray
    tried: int
    seed: int

    @property
    def accepted(self) -> int:
        return int(self.masks.shape[0])

    @property
    def acceptance_rate(self) -> float:
        """Accepted / tried (1.0 without constraints)."""
        return self.accepted / self.tried if self.tried else 0.0

    def __len__(self) -> int:
        return self.accepted

    def __getitem__(self, index: int) -> Deal:
        return Deal([Hand(row) for row in self.masks[index].tolist()])

    def __iter__(self) -> Iterator[Deal]:
        for index in range(self.accepted):
            yield self[index]

    def to_pbn(self) -> list[str]:
        """Every deal's PBN text from North, as ``Deal.to_pbn()`` writes it, straight from
        the masks (no :class:`~engines.bridge.cards.Deal` built: ~0.3 ms a deal)."""
        return [
            "N:" + " ".join(".".join(_HIGH[m >> 6] + _LOW[m & 63] for m in hand) for hand in deal)
            for deal in self.masks.tolist()
        ]


def _ranks_text(mask: int, lowest: int, count: int) -> str:
    return "".join(RANK_CHARS[lowest + r] for r in range(count - 1, -1, -1) if mask >> r & 1)


# A suit's text: its ranks 8 to A (mask bits 6-12), then 2 to 7 (bits 0-5), high to low.
_HIGH = [_ranks_text(m, 6, 7) for m in range(1 << 7)]
_LOW = [_ranks_text(m, 0, 6) for m in range(1 << 6)]


def fixed_masks(fixed: Mapping[Seat | str, Hand | str] | None) -> tuple[np.ndarray, np.ndarray]:
    """``(uint16[4, 4] fixed masks, int32[4] cards still needed)``; raises on conflicts.

    A fixed hand with fewer than 13 cards means "these cards, plus random ones".

    >>> masks, need = fixed_masks({"N": "AK...", Seat.EAST: "Q..."})
    >>> need.tolist()
    [11, 12, 13, 13]
    >>> fixed_masks({"N": "A...", "S": "A..."})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engines.bridge.seats.BridgeInputError: card SA is fixed in two hands (N and S)
    """
    masks = np.zeros((4, 4), dtype=np.uint16)
    owner: dict[Card, Seat] = {}
    for key, value in (fixed or {}).items():
        seat = key if isinstance(key, Seat) else Seat.from_char(str(key))
        hand = value if isinstance(value, Hand) else Hand.from_pbn(str(value))
        if len(hand) > 13:
            raise BridgeInputError(f"fixed hand of {seat.char} has {len(hand)} cards (at most 13)")
        for card in hand:
            if card in owner and owner[card] != seat:
                raise BridgeInputError(
                    f"card {card} is fixed in two hands ({owner[card].char} and {seat.char})"
                )
            owner[card] = seat
        masks[seat] |= np.array(hand.masks, dtype=np.uint16)
    need = np.array([13 - int(sum(int(m).bit_count() for m in row)) for row in masks], np.int32)
    return masks, need


def deal(
    n: int,
    *,
    fixed: Mapping[Seat | str, Hand | str] | None = None,
    constraints: str | Predicate | None = None,
    seed: int = 0,
    max_tries: int = DEFAULT_MAX_TRIES,
) -> DealSample:
    """``n`` random deals holding the ``fixed`` cards and satisfying ``constraints``.

    ``constraints`` is an expression of :mod:`engines.bridge.constraints` or a
    callable ``DealView -> bool[batch]``.  ``max_tries`` bounds the deals
    tried (in whole batches of :data:`BATCH`).
    """
    from solvers.bridge._dealer import deal_batch, seed_state

    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise BridgeInputError(f"number of deals must be a non-negative integer, got {n!r}")
    if not isinstance(seed, int) or not 0 <= seed < 1 << 64:
        raise BridgeInputError(f"seed must be an integer in 0 .. 2**64-1, got {seed!r}")
    if max_tries < 1:
        raise BridgeInputError(f"max_tries must be at least 1, got {max_tries}")
    predicate = compile_constraints(constraints)
    masks, need = fixed_masks(fixed)
    state = seed_state(seed)
    batch = np.empty((BATCH, 4, 4), dtype=np.uint16)
    kept: list[np.ndarray] = []
    found = tried = 0
    while found < n:
        if tried >= max_tries:
            _give_up(found, tried, n, max_tries)
        deal_batch(masks, need, state, batch)
        accepted = _accept(predicate, batch)
        take = accepted[: n - found]
        if found + len(accepted) >= n:
            # count tries only up to the deal that completed the sample
            tried += int(take[-1]) + 1 if len(take) else BATCH
        else:
            tried += BATCH
        kept.append(batch[take].copy())
        found += len(take)
        if found < n and tried >= _ESTIMATE_AFTER and found:
            needed = tried * n / found
            if needed > max_tries:
                _give_up(found, tried, n, max_tries)
    out = np.concatenate(kept) if kept else np.empty((0, 4, 4), dtype=np.uint16)
    return DealSample(out, tried, seed)


def _accept(predicate: Predicate | None, batch: np.ndarray) -> np.ndarray:
    """Indices of the deals in ``batch`` that ``predicate`` accepts."""
    if predicate is None:
        return np.arange(len(batch))
    result = np.asarray(predicate(DealView(batch)))
    if result.shape != (len(batch),) or result.dtype != bool:
        raise BridgeInputError(
            f"a constraint callable must return one bool per deal (shape ({len(batch)},)), "
            f"got dtype {result.dtype} shape {result.shape}"
        )
    return np.flatnonzero(result)


def _give_up(found: int, tried: int, n: int, max_tries: int) -> None:
    if not found:
        raise ImpossibleConstraintsError(
            f"no deal out of {tried:,} satisfied the constraints: they are impossible, or "
            f"rarer than 1 in {tried:,} (raise max_tries / --max-tries to search longer)"
        )
    rate = found / tried
    raise RareConstraintsError(
        f"constraints too rare: {found:,} of {tried:,} deals accepted (1 in {1 / rate:,.0f}); "
        f"{n:,} deals would need about {n / rate:,.0f} tries, over the limit of {max_tries:,} "
        "(raise max_tries / --max-tries, ask for fewer deals, or loosen the constraints)"
    )


def describe_fixed(masks: np.ndarray) -> str:
    """The fixed cards per seat, e.g. ``'S: AKQ2.KQ3.A54.K32'`` (for messages and reports)."""
    parts = []
    for seat in Seat:
        hand = Hand(masks[seat].tolist())
        if len(hand):
            parts.append(f"{seat.char}: {hand.to_pbn()}")
    return ", ".join(parts) or "none"
