"""The rules of 双扣 as functions: classification, comparison, legal plays,
the trick procedure and the round result.

Every function takes cards as text, token lists or count arrays (see
:func:`engines.shuangkou.cards.parse_cards`) and a :class:`Policy`
(straight-flush policy and points table).  The work is done by the Numba
kernels of :mod:`solvers.shuangkou`.

Example:
    >>> from engines.shuangkou import classify, beats, legal_plays
    >>> classify("H5 H6 H7 H8 H9")
    Combination(type='straight_flush', rank='9', length=5)
    >>> beats("S4 H4 D4 C4", "BJ")
    True
    >>> plays = legal_plays("S3 H3 D3 S4 S5 S6 S7 HA", previous="C10")
    >>> plays.count(), plays.responses_count()
    (2, 3)
    >>> [" ".join(p) for p in plays]
    ['S3 S4 S5 S6 S7', 'HA']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from engines.arguments import as_list
from engines.shuangkou.cards import RANKS, CardsLike, card_names, parse_cards
from engines.shuangkou.errors import NotACombinationError, ShuangkouInputError


class StraightFlushPolicy(enum.Enum):
    """How a one-suit straight counts: a bomb (the rules' default) or a plain straight."""

    BOMB = "bomb"
    STRAIGHT = "straight"


@dataclass(frozen=True)
class Policy:
    """Rule policies: ``straight_flush`` and ``points`` = (P2, P3, P4), the winning
    side's points when the first finisher's partner finishes 2nd, 3rd or 4th."""

    straight_flush: StraightFlushPolicy = StraightFlushPolicy.BOMB
    points: tuple[int, int, int] = (3, 2, 1)

    def __post_init__(self) -> None:
        if not isinstance(self.straight_flush, StraightFlushPolicy):
            try:
                object.__setattr__(self, "straight_flush", StraightFlushPolicy(self.straight_flush))
            except ValueError:
                raise ShuangkouInputError(
                    f"straight_flush policy: expected 'bomb' or 'straight', "
                    f"got {self.straight_flush!r}"
                ) from None
        pts = tuple(self.points)
        if len(pts) != 3 or not all(isinstance(p, int) and not isinstance(p, bool) for p in pts):
            raise ShuangkouInputError(f"points: expected three integers, got {self.points!r}")
        object.__setattr__(self, "points", pts)

    @property
    def sf_bomb(self) -> bool:
        return self.straight_flush is StraightFlushPolicy.BOMB

    @classmethod
    def from_json(cls, obj: dict | None) -> Policy:
        """The policy of a conformance record's ``policy`` object (absent keys: defaults)."""
        if not obj:
            return cls()
        if not isinstance(obj, dict):
            raise ShuangkouInputError(f"policy: expected an object, got {obj!r}")
        unknown = set(obj) - {"straight_flush", "points"}
        if unknown:
            raise ShuangkouInputError(f"policy: unknown key {sorted(unknown)[0]!r}")
        return cls(obj.get("straight_flush", "bomb"), tuple(obj.get("points", (3, 2, 1))))


DEFAULT_POLICY = Policy()


def _kernels():
    import solvers.shuangkou as kernels

    return kernels


@dataclass(frozen=True)
class Combination:
    """A classified play: its type name, rank (``"3"`` … ``"2"``, ``"LJ"``, ``"BJ"``)
    and length (number of cards)."""

    type: str
    rank: str
    length: int

    @classmethod
    def from_code(cls, code: int) -> Combination | None:
        if code == 0:
            return None
        k = _kernels()
        return cls(k.TYPE_NAMES[code >> 16], RANKS[code & 255], (code >> 8) & 255)

    @property
    def code(self) -> int:
        """The kernels' integer code of this category."""
        k = _kernels()
        return k.make_code(k.TYPE_NAMES.index(self.type), self.length, RANKS.index(self.rank))

    @property
    def is_bomb(self) -> bool:
        """Bomb class: bomb, straight flush or king bomb."""
        return self.type in ("bomb", "straight_flush", "king_bomb")

    def as_dict(self) -> dict:
        return {"type": self.type, "rank": self.rank, "length": self.length}


def check_policy(policy: object) -> Policy:
    """``policy`` if it is a :class:`Policy`; anything else is a :class:`ShuangkouInputError`."""
    if not isinstance(policy, Policy):
        raise ShuangkouInputError(
            f"policy must be a Policy (e.g. Policy(points=(3, 2, 1))), got {policy!r}"[:300]
        )
    return policy


def classify_code(cards: CardsLike, policy: Policy = DEFAULT_POLICY) -> int:
    """The kernel code of ``cards`` (0: not a combination)."""
    policy = check_policy(policy)
    return int(_kernels().classify(parse_cards(cards), policy.sf_bomb))


def classify(cards: CardsLike, policy: Policy = DEFAULT_POLICY) -> Combination | None:
    """The combination ``cards`` form, or None when they form none.

    >>> classify("S3 H3 D3 S4 H4") is None   # 三带二 is not a combination
    True
    >>> classify("LJ LJ BJ BJ")
    Combination(type='king_bomb', rank='BJ', length=4)
    """
    policy = check_policy(policy)
    return Combination.from_code(classify_code(cards, policy))


def _previous_code(previous: CardsLike, policy: Policy) -> int:
    policy = check_policy(policy)
    code = classify_code(previous, policy)
    if code == 0:
        raise NotACombinationError(
            f"previous play {' '.join(card_names(parse_cards(previous))) or '(empty)'!r} "
            "is not a combination"
        )
    return code


def beats(play: CardsLike, previous: CardsLike, policy: Policy = DEFAULT_POLICY) -> bool:
    """Whether ``play`` beats the last play ``previous`` (which must be a combination;
    :class:`NotACombinationError` otherwise).  A play that is no combination beats nothing.

    >>> beats("S4 H5 D6 C7 S8 H9", "S3 H4 D5 C6 S7")   # 6 cards cannot answer 5
    False
    """
    policy = check_policy(policy)
    k = _kernels()
    return bool(k.code_beats(classify_code(play, policy), _previous_code(previous, policy)))


class LegalPlays:
    """The distinct plays of a hand that may be played now (section 6.3): all its
    combinations when leading, those beating ``previous`` otherwise.  Pass is not
    one of the plays; :meth:`responses_count` adds it when responding.

    A lazy view in the manner of python-chess's ``legal_moves``: counting uses the
    census of the hand (no enumeration), iteration enumerates once and yields the
    plays as token lists in display order, sorted; ``in`` tests one play directly.
    """

    def __init__(self, hand: CardsLike, previous: CardsLike | None, policy: Policy) -> None:
        policy = check_policy(policy)
        self.hand = parse_cards(hand, "hand")
        self.policy = policy
        self.previous_code = 0 if previous is None else _previous_code(previous, policy)

    @property
    def leading(self) -> bool:
        return self.previous_code == 0

    def count(self) -> int:
        """The number of distinct plays (pass excluded)."""
        k = _kernels()
        return int(k.count_plays(self.hand, self.previous_code, self.policy.sf_bomb))

    def responses_count(self) -> int:
        """The legal responses count of section 6.3: plays, plus 1 for pass when responding."""
        return self.count() + (0 if self.leading else 1)

    def by_type(self) -> dict[str, int]:
        """Plays per type name (types with none are left out)."""
        k = _kernels()
        codes = np.empty(k.CENSUS_CAPACITY, dtype=np.int64)
        counts = np.empty(k.CENSUS_CAPACITY, dtype=np.int64)
        n = k.census(self.hand, self.policy.sf_bomb, codes, counts)
        out: dict[str, int] = {}
        for code, count in zip(codes[:n], counts[:n]):
            if self.leading or k.code_beats(int(code), self.previous_code):
                name = k.TYPE_NAMES[int(code) >> 16]
                out[name] = out.get(name, 0) + int(count)
        return out

    def arrays(self) -> np.ndarray:
        """Every play as a ``(count, 15, 4)`` array, in the kernel's order."""
        k = _kernels()
        out = np.zeros((self.count(), 15, 4), dtype=np.uint8)
        n = k.enumerate_plays(self.hand, self.previous_code, self.policy.sf_bomb, out)
        return out[:n]

    @cached_property
    def _sorted(self) -> list[list[str]]:
        plays = [card_names(a) for a in self.arrays()]
        order = {name: i for i, name in enumerate(card_names(np.full((15, 4), 1, np.uint8)))}
        plays.sort(key=lambda p: [order[c] for c in p])
        return plays

    def __iter__(self) -> Iterator[list[str]]:
        return iter(self._sorted)

    def __len__(self) -> int:
        return self.count()

    def __contains__(self, play: object) -> bool:
        try:
            cards = parse_cards(play)  # type: ignore[arg-type]
        except ShuangkouInputError:
            return False
        k = _kernels()
        if (cards > self.hand).any():
            return False
        code = int(k.classify(cards, self.policy.sf_bomb))
        return code != 0 and (self.leading or bool(k.code_beats(code, self.previous_code)))


def legal_plays(
    hand: CardsLike, previous: CardsLike | None = None, policy: Policy = DEFAULT_POLICY
) -> LegalPlays:
    """The :class:`LegalPlays` of ``hand`` answering ``previous`` (None: leading)."""
    return LegalPlays(hand, previous, policy)


def legal_responses_count(
    hand: CardsLike, previous: CardsLike | None = None, policy: Policy = DEFAULT_POLICY
) -> int:
    """Section 6.3's count: distinct legal plays, plus 1 for pass when responding.

    >>> legal_responses_count("S7 S7 H7 H7 D7 D7 C7 C7")
    80
    """
    return LegalPlays(hand, previous, policy).responses_count()


@dataclass(frozen=True)
class Turn:
    """Who acts next in a trick: ``seat``; ``lead`` when it starts a new trick;
    ``jiefeng`` when it leads as the partner of a last player who went out (接风)."""

    seat: int
    lead: bool
    jiefeng: bool

    def as_dict(self) -> dict:
        return {"next": self.seat, "lead": self.lead, "jiefeng": self.jiefeng}


def seat_index(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value <= 3:
        raise ShuangkouInputError(f"{what}: expected a seat 0–3, got {value!r}")
    return int(value)


def other_holders(holding: Iterable[int], last_player: int) -> list[int]:
    """The holders other than ``last_player`` in play order starting after it (O of 7.4)."""
    held = {seat_index(s, "holding") for s in as_list(holding, "holding", ShuangkouInputError)}
    return [(last_player + i) % 4 for i in (1, 2, 3) if (last_player + i) % 4 in held]


def trick_next(holding: Iterable[int], last_player: int, passes: Sequence[int] = ()) -> Turn:
    """Section 7.4: the seat on turn after ``passes`` (seats, in order) since
    ``last_player``'s play, with ``holding`` the seats holding cards after it.

    >>> trick_next([0, 1, 3], 2, [3, 0, 1])     # 2 went out, all passed: 接风
    Turn(seat=0, lead=True, jiefeng=True)
    """
    holding = as_list(holding, "holding", ShuangkouInputError)
    last = seat_index(last_player, "last_player")
    seats = sorted({seat_index(s, "holding") for s in holding})
    if len(seats) != len(holding):
        raise ShuangkouInputError(f"holding: a seat is listed twice in {holding!r}")
    if not any(s % 2 == 0 for s in seats) or not any(s % 2 == 1 for s in seats):
        raise ShuangkouInputError(f"holding {seats}: a side has finished, the round is over")
    order = other_holders(seats, last)
    passes = [seat_index(s, "passes") for s in as_list(passes, "passes", ShuangkouInputError)]
    if passes != order[: len(passes)]:
        raise ShuangkouInputError(
            f"passes {passes}: expected a prefix of the other holders in order {order}"
        )
    mask = sum(1 << s for s in seats)
    seat, lead, jiefeng = _kernels().trick_next(mask, last, len(passes))
    return Turn(int(seat), bool(lead), bool(jiefeng))


@dataclass(frozen=True)
class RoundResult:
    """Section 8: the finishing order that decided the round and what it gives."""

    order: tuple[int, ...]
    double_win: bool
    winning_side: tuple[int, int]
    partner_place: int
    points: tuple[int, int]
    next_leader: int | None

    def as_dict(self) -> dict:
        return {
            "double_win": self.double_win,
            "winning_side": list(self.winning_side),
            "partner_place": self.partner_place,
            "points": list(self.points),
            "next_leader": self.next_leader,
        }


def round_result(order: Sequence[int], policy: Policy = DEFAULT_POLICY) -> RoundResult:
    """The result of a round whose finishing order is ``order`` (at round end, or a
    full order of four seats, of which the prefix up to the end counts).

    >>> round_result([1, 0, 3]).points
    (-2, 2)
    """
    policy = check_policy(policy)
    seats = [seat_index(s, "order") for s in as_list(order, "order", ShuangkouInputError)]
    if len(set(seats)) != len(seats):
        raise ShuangkouInputError(f"order {seats}: a seat finishes twice")
    done: list[int] = []
    for s in seats:
        done.append(s)
        if {0, 2} <= set(done) or {1, 3} <= set(done):
            break
    else:
        raise ShuangkouInputError(f"order {seats}: no side has finished yet")
    first = done[0]
    partner = (first + 2) % 4
    place = done.index(partner) + 1 if partner in done else 4
    value = policy.points[place - 2]
    side0 = value if first % 2 == 0 else -value
    return RoundResult(
        order=tuple(done),
        double_win=place == 2,
        winning_side=(first % 2, first % 2 + 2),
        partner_place=place,
        points=(side0, -side0),
        next_leader=None if place == 2 else first,
    )
