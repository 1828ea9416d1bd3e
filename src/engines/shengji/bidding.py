"""Bidding (亮主 / 反主, rules section 12): who declares, and in which trump."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.arguments import as_list
from engines.shengji.cards import parse_card, parse_level
from engines.shengji.errors import ShengjiInputError

__all__ = ["BidResult", "bid_strength", "resolve_bids"]


@dataclass(frozen=True)
class BidResult:
    """Outcome of the bids of a deal (section 12)."""

    accepted: list[bool]
    trump: str | None  # 'S' 'H' 'C' 'D', 'NT', or None when nobody bid
    declarer: int | None


def bid_strength(card: str | int, count: int, level: str | int) -> int:
    """Strength of a bid (1 single level card, 2 level pair, 3 LJ pair, 4 BJ pair); 0 = not a bid.

    Example:
        >>> bid_strength("H5", 1, "5"), bid_strength("LJ", 1, "5"), bid_strength("BJ", 2, "5")
        (1, 0, 4)
    """
    cid = parse_card(card) if isinstance(card, str) else int(card)
    lv = parse_level(level)
    if count not in (1, 2):
        return 0
    if cid == 52:
        return 3 if count == 2 else 0
    if cid == 53:
        return 4 if count == 2 else 0
    if cid % 13 != lv:
        return 0
    return count


def resolve_bids(
    bids: Sequence[Sequence[Any]],
    level: str | int,
    first_round: bool,
    current_declarer: int | None = None,
) -> BidResult:
    """Section 12: which bids are accepted, the trump, and the declarer.

    ``bids`` is a time-ordered list of ``(seat, card, count)``.

    Example:
        >>> resolve_bids([(0, "H5", 1), (1, "S5", 2), (2, "LJ", 2)], "5", True)
        BidResult(accepted=[True, True, True], trump='NT', declarer=0)
    """
    bids = as_list(bids, "bids", ShengjiInputError)
    if not isinstance(first_round, bool):
        raise ShengjiInputError(f"first_round must be True or False, got {first_round!r}"[:300])
    if current_declarer is not None and (
        isinstance(current_declarer, bool)
        or not isinstance(current_declarer, int)
        or not 0 <= current_declarer <= 3
    ):
        raise ShengjiInputError(f"current_declarer must be a seat 0..3, got {current_declarer!r}")
    accepted: list[bool] = []
    standing: tuple[int, int, int] | None = None  # (seat, card, strength)
    first_seat: int | None = None
    for i, bid in enumerate(bids):
        try:
            seat, card, count = bid
        except (TypeError, ValueError):
            raise ShengjiInputError(f"bid {i}: expected [seat, card, count], got {bid!r}") from None
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat <= 3:
            raise ShengjiInputError(f"bid {i}: seat must be 0–3, got {seat!r}")
        if not isinstance(count, int) or isinstance(count, bool) or count not in (1, 2):
            raise ShengjiInputError(f"bid {i}: count must be 1 or 2, got {count!r}")
        cid = parse_card(card)
        strength = bid_strength(cid, count, level)
        ok = strength > 0
        if ok and standing is not None:
            s_seat, s_card, s_strength = standing
            ok = strength > s_strength and (seat != s_seat or cid == s_card)
        accepted.append(ok)
        if ok:
            standing = (seat, cid, strength)
            if first_seat is None:
                first_seat = seat
    if standing is None:
        trump = None if first_round else "NT"
    else:
        trump = "NT" if standing[1] >= 52 else "SHCD"[standing[1] // 13]
    if first_round:
        declarer = first_seat
    else:
        if current_declarer is None:
            raise ShengjiInputError("current_declarer: required after the first round")
        declarer = current_declarer
    return BidResult(accepted, trump, declarer)
