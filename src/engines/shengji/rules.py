"""The public 升级 rules API: structure, following, throws, trick winners, scoring, bidding.

Every function takes cards as token lists / strings (``"S10 S10 HA"``) or as
count vectors, and a :class:`TrumpContext`; input is validated here (errors
are :class:`~engines.shengji.cards.ShengjiInputError`) and the work is done by
the Numba kernels of :mod:`solvers.shengji`.  The rules are those of
``docs/rules/shengji.md``; where other implementations differ, a policy
enum selects the variant and its default is the rules document.

Example:
    >>> ctx = TrumpContext("10", "S")
    >>> is_tractor("S10 S10 H10 H10", ctx)
    True
    >>> is_legal_follow("S4 S5 S5 D5 C6 C6", "S9 S9", "S5 S5", TrumpContext("10", "H"))
    True
    >>> trick_winner(["H10", "D10", "S9", "C10"], ctx)
    0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

import solvers.shengji as K
from engines.shengji.bidding import BidResult as BidResult  # re-export
from engines.shengji.bidding import bid_strength as bid_strength  # re-export
from engines.shengji.bidding import resolve_bids as resolve_bids  # re-export
from engines.shengji.cards import (
    CARD_NAMES,
    N_CARDS,
    RANKS,
    ShengjiInputError,
    cards_to_names,
    parse_card,
    parse_cards,
    parse_level,
    parse_trump,
    trump_name,
)
from engines.shengji.errors import IllegalPlayError, TrickError
from engines.shengji.policies import DEFAULT_POLICIES as DEFAULT_POLICIES  # re-export
from engines.shengji.policies import BottomPolicy as BottomPolicy  # re-export
from engines.shengji.policies import Policies as Policies  # re-export
from engines.shengji.policies import ThrowPenalty as ThrowPenalty  # re-export
from engines.shengji.policies import ThrowWinnerPolicy as ThrowWinnerPolicy  # re-export

Cards = str | Sequence[str] | np.ndarray


class TrumpContext:
    """The level rank and trump setting of a round, with the kernels' lookup tables.

    Example:
        >>> ctx = TrumpContext("10", "S")
        >>> ctx.suit_of("H10"), ctx.position("H10"), ctx.position("S10")
        ('T', 12, 13)
        >>> str(ctx)
        '10/S'

    There is one object per setting (``TrumpContext("10", "S") is TrumpContext(10, 0)``):
    a batch of a context per row then reads a few objects that stay in cache.
    """

    _interned: dict[tuple[type, int, int], TrumpContext] = {}  # noqa: RUF012 (a cache)
    level: int
    trump: int
    code: int  # row of the stacked tables of all contexts, which batches index by it

    def __new__(cls, level: str | int, trump: str | int) -> TrumpContext:
        lv, tr = parse_level(level), parse_trump(trump)
        self = TrumpContext._interned.get((cls, lv, tr))
        if self is None:
            self = super().__new__(cls)
            self.level, self.trump, self.code = lv, tr, K.context_code(lv, tr)
            TrumpContext._interned[(cls, lv, tr)] = self
        return self

    @cached_property
    def tables(self) -> K.ContextTables:
        return K.context_tables(self.level, self.trump)

    @property
    def esuit(self) -> np.ndarray:
        return self.tables.esuit

    @property
    def pos(self) -> np.ndarray:
        return self.tables.pos

    @property
    def level_name(self) -> str:
        return RANKS[self.level]

    @property
    def trump_name(self) -> str:
        return trump_name(self.trump)

    def suit_of(self, card: str | int) -> str:
        """Effective suit of a card: ``'S' 'H' 'C' 'D'`` or ``'T'`` for trump."""
        cid = parse_card(card) if isinstance(card, str) else card
        return "SHCDT"[int(self.esuit[cid])]

    def position(self, card: str | int) -> int:
        """Position 0–15 of a card inside its effective suit (section 2)."""
        cid = parse_card(card) if isinstance(card, str) else card
        return int(self.pos[cid])

    def sort_key(self, card: int) -> tuple[int, int, int]:
        """Display order: suits S H C D, then trump; low to high inside each."""
        return (int(self.esuit[card]), int(self.pos[card]), card)

    def sorted_names(self, counts: np.ndarray) -> list[str]:
        """Tokens of a count vector sorted by :meth:`sort_key`."""
        order = sorted(np.nonzero(counts)[0], key=self.sort_key)
        return [CARD_NAMES[c] for c in order for _ in range(int(counts[c]))]

    def __str__(self) -> str:
        return f"{self.level_name}/{self.trump_name}"

    def __repr__(self) -> str:
        return f"TrumpContext({self.level_name!r}, {self.trump_name!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TrumpContext) and (self.level, self.trump) == (
            other.level,
            other.trump,
        )

    def __hash__(self) -> int:
        return hash((self.level, self.trump))

    def __reduce__(self):
        return (TrumpContext, (self.level, self.trump))


def _counts(cards: Cards, what: str) -> np.ndarray:
    return parse_cards(cards, what)


def _one_suit(counts: np.ndarray, ctx: TrumpContext, what: str) -> int:
    if counts.sum() == 0:
        raise ShengjiInputError(f"{what}: no cards")
    suits = {int(ctx.esuit[c]) for c in np.nonzero(counts)[0]}
    if len(suits) != 1:
        names = ", ".join(sorted("SHCDT"[s] for s in suits))
        raise ShengjiInputError(
            f"{what}: cards of several effective suits ({names}) in {ctx}; a lead is one suit"
        )
    return suits.pop()


def _within_decks(what: str, *vectors: np.ndarray) -> None:
    total = np.sum(vectors, axis=0)
    over = np.nonzero(total > 2)[0]
    if over.size:
        raise ShengjiInputError(
            f"{what}: {int(total[over[0]])} copies of {CARD_NAMES[over[0]]} in play "
            "(two decks hold two)"
        )


# ---------------------------------------------------------------- structure


def is_tractor(cards: Cards, ctx: TrumpContext) -> bool:
    """Section 3: k ≥ 2 pairs of one effective suit at consecutive positions.

    Example:
        >>> is_tractor("CJ CJ C9 C9", TrumpContext("10", "H"))
        True
        >>> is_tractor("SA SA H10 H10 D10 D10", TrumpContext("10", "S"))
        False
    """
    check_context(ctx)
    counts = _counts(cards, "cards")
    return bool(K.is_tractor(counts, ctx.esuit, ctx.pos))


@dataclass(frozen=True)
class Component:
    """One unit of a canonical decomposition: a single, a pair or a tractor."""

    cards: tuple[str, ...]
    size: int
    top: int  # position of the highest card

    @property
    def kind(self) -> str:
        return "single" if self.size == 1 else "pair" if self.size == 2 else "tractor"

    @property
    def pairs(self) -> int:
        return self.size // 2


def _decompose_counts(counts: np.ndarray, ctx: TrumpContext) -> list[tuple[np.ndarray, int, int]]:
    cc = np.zeros((54, 54), dtype=np.int64)
    size = np.zeros(54, dtype=np.int64)
    top = np.zeros(54, dtype=np.int64)
    psuit = np.zeros(54, dtype=np.int64)
    n = K.decompose(counts, ctx.esuit, ctx.pos, cc, size, top, psuit)
    return [(cc[i], int(size[i]), int(top[i])) for i in range(n)]


def decompose(cards: Cards, ctx: TrumpContext) -> list[Component]:
    """Canonical decomposition (section 4), ordered by (size, top, printed suit).

    Example:
        >>> [c.cards for c in decompose("SA SK S5 S5 S4 S4", TrumpContext("10", "H"))]
        [('SK',), ('SA',), ('S4', 'S4', 'S5', 'S5')]
    """
    check_context(ctx)
    counts = _counts(cards, "cards")
    _one_suit(counts, ctx, "cards")
    return [
        Component(tuple(ctx.sorted_names(cc)), size, top)
        for cc, size, top in _decompose_counts(counts, ctx)
    ]


def shape(cards: Cards, ctx: TrumpContext) -> tuple[int, ...]:
    """Shape (section 4): chain lengths of the pair-bearing components, descending.

    Example:
        >>> shape("SA SA S5 S5 S4 S4", TrumpContext("10", "H"))
        (2, 1)
    """
    check_context(ctx)
    counts = _counts(cards, "cards")
    s = _one_suit(counts, ctx, "cards")
    pc = np.zeros(16, dtype=np.int64)
    cnt = np.zeros(16, dtype=np.int64)
    K.suit_profile(counts, s, ctx.esuit, ctx.pos, pc, cnt)
    parts = np.zeros(K._structure.MAX_PARTS, dtype=np.int64)
    n = K.shape_of(pc, parts)
    return tuple(int(x) for x in parts[:n])


# ---------------------------------------------------------------- following


def _follow_inputs(hand: Cards, lead: Cards, ctx: TrumpContext) -> tuple[np.ndarray, np.ndarray]:
    h = _counts(hand, "hand")
    ld = _counts(lead, "lead")
    _one_suit(ld, ctx, "lead")
    _within_decks("hand and lead together", h, ld)
    return h, ld


def is_legal_follow(hand: Cards, lead: Cards, play: Cards, ctx: TrumpContext) -> bool:
    """Section 6.1: may a player holding ``hand`` (which contains ``play``) follow with it?

    A play that is not part of the hand or has the wrong number of cards is
    simply not legal (False); use :func:`validate_follow` for an error naming why.

    Example:
        >>> ctx = TrumpContext("10", "H")
        >>> is_legal_follow("DA DA D8 D7 D7 D6 C2", "D3 D3 D4 D4", "D8 D7 D7 D6", ctx)
        False
        >>> is_legal_follow("DA DA D8 D7 D7 D6 C2", "D3 D3 D4 D4", "DA DA D7 D7", ctx)
        True
    """
    check_context(ctx)
    h, ld = _follow_inputs(hand, lead, ctx)
    p = _counts(play, "play")
    return bool(K.follow_legal(h, ld, p, ctx.esuit, ctx.pos))


def validate_follow(hand: Cards, lead: Cards, play: Cards, ctx: TrumpContext) -> None:
    """Raise :class:`IllegalPlayError` saying why ``play`` is not a legal follow."""
    check_context(ctx)
    h, ld = _follow_inputs(hand, lead, ctx)
    p = _counts(play, "play")
    missing = np.nonzero(p > h)[0]
    if missing.size:
        raise IllegalPlayError(f"play: {CARD_NAMES[missing[0]]} is not in the hand")
    if p.sum() != ld.sum():
        raise IllegalPlayError(f"play: {int(p.sum())} cards, the lead has {int(ld.sum())}")
    if not K.follow_legal(h, ld, p, ctx.esuit, ctx.pos):
        s = "SHCDT"[K._structure.lead_suit(ld, ctx.esuit)]
        lam = np.zeros(K._structure.MAX_PARTS, dtype=np.int64)
        nl, hs, n = K.required_shape(h, ld, ctx.esuit, ctx.pos, lam)
        if hs <= n:
            why = f"all {hs} cards of suit {s} must be played"
        elif nl == 0:
            why = f"all {n} cards must be of suit {s}"
        else:
            why = f"the play must be of suit {s} and contain chains {tuple(lam[:nl].tolist())}"
        raise IllegalPlayError(f"play {' '.join(cards_to_names(p))} is not legal: {why}")


class LegalFollows:
    """Every distinct legal follow of a position (section 6.3), as a lazy view.

    Supports ``len``, iteration (token lists), ``in`` (tokens or counts) and
    :meth:`count`; :attr:`array` gives the (M, 54) int8 count rows.
    """

    def __init__(self, hand: np.ndarray, lead: np.ndarray, ctx: TrumpContext) -> None:
        self._hand = hand
        self._lead = lead
        self._ctx = ctx
        self._rows: np.ndarray | None = None

    @property
    def array(self) -> np.ndarray:
        if self._rows is None:
            t = self._ctx.tables
            self._rows = K.enumerate_follows(
                self._hand, self._lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards
            )
        return self._rows

    def count(self) -> int:
        """Number of legal follows, counted without listing them (unless already listed)."""
        if self._rows is not None:
            return int(self._rows.shape[0])
        t = self._ctx.tables
        return int(
            K.count_follows(self._hand, self._lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards)
        )

    def __len__(self) -> int:
        return self.count()

    def __iter__(self) -> Iterator[list[str]]:
        for row in self.array:
            yield self._ctx.sorted_names(row)

    def __contains__(self, play: object) -> bool:
        try:
            p = _counts(play, "play")  # type: ignore[arg-type]
        except ShengjiInputError:
            return False
        return bool(K.follow_legal(self._hand, self._lead, p, self._ctx.esuit, self._ctx.pos))


def legal_follows(hand: Cards, lead: Cards, ctx: TrumpContext) -> LegalFollows:
    """All distinct legal follows of ``hand`` to ``lead`` (section 6.3).

    Example:
        >>> ctx = TrumpContext("10", "H")
        >>> sorted(legal_follows("D2 D2 D3 C4", "D9", ctx))
        [['D2'], ['D3']]
        >>> legal_follows("S4 D5 C6 C6", "S9 S9", ctx).count()  # S4 plus D5 or C6
        2
    """
    check_context(ctx)
    h, ld = _follow_inputs(hand, lead, ctx)
    return LegalFollows(h, ld, ctx)


# ---------------------------------------------------------------- throws and tricks


@dataclass(frozen=True)
class ThrowResult:
    """Outcome of a throw check: ``forced`` is None when the throw stands."""

    valid: bool
    forced: list[str] | None


def check_throw(lead: Cards, other_hands: Sequence[Cards], ctx: TrumpContext) -> ThrowResult:
    """Section 7: is the lead (a throw) unbeatable by all three other hands?

    Example:
        >>> ctx = TrumpContext("10", "H")
        >>> check_throw("C9 C8 C8 C4 C4", ["CJ C2", "S3 S4", "D5 D6"], ctx)
        ThrowResult(valid=False, forced=['C9'])
    """
    check_context(ctx)
    ld = _counts(lead, "lead")
    _one_suit(ld, ctx, "lead")
    if len(other_hands) != 3:
        raise ShengjiInputError(f"others: expected the 3 other hands, got {len(other_hands)}")
    others = np.stack([_counts(o, f"other hand {i + 1}") for i, o in enumerate(other_hands)])
    _within_decks("lead and other hands together", ld, *others)
    forced = np.zeros(N_CARDS, dtype=np.int64)
    valid = bool(K.check_throw(ld, others, ctx.esuit, ctx.pos, forced))
    return ThrowResult(valid, None if valid else ctx.sorted_names(forced))


def check_context(ctx: object) -> None:
    """Raise :class:`ShengjiInputError` unless ``ctx`` is a :class:`TrumpContext`."""
    if not isinstance(ctx, TrumpContext):
        raise ShengjiInputError(f"ctx: expected a TrumpContext, got {ctx!r}"[:300])


def _plays_array(plays: Sequence[Cards], ctx: TrumpContext) -> np.ndarray:
    if isinstance(plays, str) or not isinstance(plays, Sequence | np.ndarray):
        raise TrickError(f"plays: expected a list of 1 to 4 plays, got {plays!r}")
    if not 1 <= len(plays) <= 4:
        raise TrickError(f"plays: a trick has 1 to 4 plays, got {len(plays)}")
    arr = np.stack([_counts(p, f"play {i}") for i, p in enumerate(plays)])
    check_trick_sizes(arr.sum(axis=1)[None, :], "plays")
    _one_suit(arr[0], ctx, "lead (play 0)")
    _within_decks("plays together", *arr)
    return arr


def check_trick_sizes(sizes: np.ndarray, where: str) -> None:
    """Raise :class:`TrickError` for the first trick (row of card counts per play) with an
    empty lead or a play of another size than the lead."""
    bad = (sizes[:, 0] == 0) | (sizes != sizes[:, :1]).any(axis=1)
    if not bad.any():
        return
    row = int(np.argmax(bad))
    counts = sizes[row].tolist()
    prefix = f"{where} row {row}" if sizes.shape[0] > 1 or where != "plays" else where
    if counts[0] == 0:
        raise TrickError(f"{prefix}: the lead has no cards")
    other = next(i for i, n in enumerate(counts) if n != counts[0])
    raise TrickError(
        f"{prefix}: play {other} has {counts[other]} cards, the lead {counts[0]}; every "
        "play of a trick has as many cards as the lead"
    )


def trick_winner(
    plays: Sequence[Cards],
    ctx: TrumpContext,
    policy: ThrowWinnerPolicy = ThrowWinnerPolicy.LEADING_COMPONENT,
) -> int:
    """Section 8: index of the winning play (0 = the lead).

    Example:
        >>> trick_winner(["S5 S4 S4", "H9 H7 H7", "H8 H8 H4", "C2 C3 C4"], TrumpContext("10", "H"))
        2
    """
    check_context(ctx)
    arr = _plays_array(plays, ctx)
    return int(K.trick_winner(arr, ctx.esuit, ctx.pos, int(policy)))


_POINTS = K.context_tables(0, 0).points


def trick_points(cards: Cards) -> int:
    """Section 9: 5s score 5, 10s and Ks score 10.

    Example:
        >>> trick_points("S5 H10 DK LJ")
        25
    """
    return int((_counts(cards, "cards").astype(np.int64) * _POINTS).sum())


def bottom_multiplier(
    last_lead: Cards, ctx: TrumpContext, policy: BottomPolicy = BottomPolicy.POWER_OF_TWO
) -> int:
    """Section 10: multiplier of the bottom for the last trick's lead (as played).

    Example:
        >>> bottom_multiplier("C3 C3 C4 C4 C5 C5", TrumpContext("10", "H"))
        16
    """
    check_context(ctx)
    ld = _counts(last_lead, "last lead")
    _one_suit(ld, ctx, "last lead")
    return int(K.bottom_multiplier(ld, ctx.esuit, ctx.pos, int(policy)))


# ---------------------------------------------------------------- scoring and levels


@dataclass(frozen=True)
class RoundScore:
    """Result of a round (sections 9–11); field names follow the conformance format."""

    bottom_points: int
    multiplier: int
    defender_points: int
    declarers_keep: bool
    declarer_delta: int
    defender_delta: int
    next_declarer: int
    new_levels: dict[str, str]
    match_won: bool

    def as_dict(self) -> dict[str, Any]:
        return {
            "bottom_points": self.bottom_points,
            "multiplier": self.multiplier,
            "defender_points": self.defender_points,
            "declarers_keep": self.declarers_keep,
            "declarer_delta": self.declarer_delta,
            "defender_delta": self.defender_delta,
            "next_declarer": self.next_declarer,
            "new_levels": dict(self.new_levels),
            "match_won": self.match_won,
        }


def level_change(defender_points: int) -> tuple[bool, int]:
    """Section 11 table: (declarers keep the deal, levels gained by the team named).

    Example:
        >>> level_change(0), level_change(35), level_change(75), level_change(80), level_change(200)
        ((True, 3), (True, 2), (True, 1), (False, 0), (False, 3))
    """
    d = defender_points
    if d <= 0:
        return True, 3
    if d < 40:
        return True, 2
    if d < 80:
        return True, 1
    return False, (d - 80) // 40


def advance_level(level: str | int, delta: int) -> tuple[str, bool]:
    """Move a level up by ``delta``; past A the team has won the match (reported as A)."""
    idx = parse_level(level) + delta
    if idx > 12:
        return "A", True
    return RANKS[idx], False


def score_round(
    declarer: int,
    defender_trick_points: int,
    bottom: Cards,
    last_lead: Cards,
    last_trick_won_by: str,
    levels: dict[str, str],
    ctx: TrumpContext,
    policy: BottomPolicy = BottomPolicy.POWER_OF_TWO,
    penalty_points: int = 0,
) -> RoundScore:
    """Score a finished round: bottom capture, level change, next declarer (sections 9–11).

    ``last_trick_won_by`` is ``"defenders"`` or ``"declarers"``; ``levels``
    maps ``"declarers"``/``"defenders"`` to their current level ranks.
    ``penalty_points`` (failed-throw house rule) is added to the defenders' total.

    Example:
        >>> s = score_round(1, 60, "S5 SK", "HQ HQ HJ HJ", "defenders",
        ...                 {"declarers": "10", "defenders": "7"}, TrumpContext("10", "S"))
        >>> s.multiplier, s.defender_points, s.defender_delta, s.next_declarer
        (8, 180, 2, 2)
    """
    check_context(ctx)
    if not isinstance(declarer, int) or isinstance(declarer, bool) or not 0 <= declarer <= 3:
        raise ShengjiInputError(f"declarer: expected a seat 0–3, got {declarer!r}")
    if (
        not isinstance(defender_trick_points, int)
        or defender_trick_points < 0
        or defender_trick_points % 5
    ):
        raise ShengjiInputError(
            f"defender_trick_points: expected a non-negative multiple of 5, "
            f"got {defender_trick_points!r}"
        )
    if last_trick_won_by not in ("defenders", "declarers"):
        raise ShengjiInputError(
            f"last_trick_won_by: expected 'defenders' or 'declarers', got {last_trick_won_by!r}"
        )
    try:
        lv_decl, lv_def = levels["declarers"], levels["defenders"]
    except (KeyError, TypeError):
        raise ShengjiInputError("levels: expected {'declarers': rank, 'defenders': rank}") from None
    parse_level(lv_decl)
    parse_level(lv_def)
    bottom_pts = trick_points(bottom)
    mult = bottom_multiplier(last_lead, ctx, policy)
    d = defender_trick_points + penalty_points
    if last_trick_won_by == "defenders":
        d += bottom_pts * mult
    keep, delta = level_change(d)
    if keep:
        new_decl, won = advance_level(lv_decl, delta)
        new_levels = {"declarers": new_decl, "defenders": RANKS[parse_level(lv_def)]}
        decl_delta, def_delta = delta, 0
        nxt = (declarer + 2) % 4
    else:
        new_def, won = advance_level(lv_def, delta)
        new_levels = {"declarers": RANKS[parse_level(lv_decl)], "defenders": new_def}
        decl_delta, def_delta = 0, delta
        nxt = (declarer + 1) % 4
    return RoundScore(bottom_pts, mult, d, keep, decl_delta, def_delta, nxt, new_levels, won)
