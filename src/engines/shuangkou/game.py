"""Rounds and matches of 双扣: deal, turns, passes, 接风, finishing order, result.

:class:`Round` holds one round's state and applies actions (a play or a
pass), raising :class:`IllegalPlayError` naming what is wrong;
:func:`play_round` and :func:`play_match` drive rounds with players (see
:mod:`engines.shuangkou.players`).

Example:
    >>> from engines.shuangkou.game import Round
    >>> r = Round([["S3", "S4"], ["H9"], ["SQ"], ["S8"]], leader=0)
    >>> r.play("S3"); r.play("pass"); r.play("pass"); r.play("pass")
    >>> r.to_move, r.leading
    (0, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from engines.arguments import as_list, integer, players_of, random_source
from engines.shuangkou.cards import (
    CardsLike,
    card_names,
    deck_list,
    parse_cards,
    parse_hands,
)
from engines.shuangkou.errors import IllegalPlayError, ShuangkouInputError
from engines.shuangkou.rules import (
    DEFAULT_POLICY,
    LegalPlays,
    Policy,
    RoundResult,
    check_policy,
    round_result,
    seat_index,
)


def _kernels():
    import solvers.shuangkou as kernels

    return kernels


def _is_pass(action: object) -> bool:
    return action is None or (isinstance(action, str) and action.strip().lower() == "pass")


class Round:
    """One round from the start of a trick led by ``leader``.

    ``hands``: four hands (the seats in ``finished`` hold none, the others some);
    ``finished``: the seats already out, in order.  Attributes: ``hands``
    (``(4, 15, 4)`` counts), ``finished``, ``to_move``, ``leading``, ``last_play``
    (count array or None), ``last_player``, ``passes`` (since the last play),
    ``history`` (``(seat, cards or None)`` per action).
    """

    def __init__(
        self,
        hands: Sequence[CardsLike],
        leader: int,
        finished: Sequence[int] = (),
        policy: Policy = DEFAULT_POLICY,
    ) -> None:
        self.policy = check_policy(policy)
        self.hands = parse_hands(hands)
        finished = as_list(finished, "finished", ShuangkouInputError)
        self.finished = [seat_index(s, "finished") for s in finished]
        for seat in range(4):
            empty = not self.hands[seat].any()
            if empty != (seat in self.finished):
                state = "holds no cards" if empty else "holds cards"
                listed = "is" if seat in self.finished else "is not"
                raise ShuangkouInputError(f"seat {seat} {state} but {listed} listed as finished")
        if len(set(self.finished)) != len(self.finished):
            raise ShuangkouInputError(f"finished {self.finished}: a seat is listed twice")
        if self.is_over:
            raise ShuangkouInputError("a side has already finished: the round is over")
        if not self.hands[seat_index(leader, "leader")].any():
            raise ShuangkouInputError(f"leader {leader!r}: expected a seat that holds cards")
        self.to_move = int(leader)
        self.leading = True
        self.last_play: np.ndarray | None = None
        self.last_code = 0
        self.last_player = -1
        self.passes = 0
        self.history: list[tuple[int, np.ndarray | None]] = []

    @classmethod
    def deal(
        cls, rng: random.Random, leader: int | None = None, policy: Policy = DEFAULT_POLICY
    ) -> Round:
        """A fresh round: 27 random cards each; ``leader`` None picks one at random."""
        random_source(rng, ShuangkouInputError)
        if leader is not None:
            seat_index(leader, "leader")
        deck = deck_list()
        rng.shuffle(deck)
        hands = [deck[i * 27 : (i + 1) * 27] for i in range(4)]
        return cls(hands, rng.randrange(4) if leader is None else leader, policy=policy)

    @property
    def holding(self) -> int:
        """Bit mask of the seats holding cards."""
        return sum(1 << s for s in range(4) if self.hands[s].any())

    @property
    def is_over(self) -> bool:
        return bool(_kernels().round_over(self.holding))

    def result(self) -> RoundResult | None:
        """The round result once a side has finished, else None."""
        return round_result(self.finished, self.policy) if self.is_over else None

    def legal_plays(self) -> LegalPlays:
        """The plays the seat on turn may make (pass not included)."""
        view = LegalPlays(self.hands[self.to_move], None, self.policy)
        view.previous_code = 0 if self.leading else self.last_code
        return view

    def play(self, action: CardsLike | None) -> None:
        """Apply the next action: ``"pass"``/None or the cards played by the seat on turn."""
        seat = self.to_move
        if self.is_over:
            raise IllegalPlayError("the round is over: no more actions", "round_over")
        k = _kernels()
        if _is_pass(action):
            if self.leading:
                raise IllegalPlayError(f"seat {seat} leads and may not pass", "pass_on_lead")
            self.passes += 1
            self.history.append((seat, None))
            nxt, lead, _ = k.trick_next(self.holding, self.last_player, self.passes)
            self.to_move, self.leading = int(nxt), bool(lead)
            if lead:
                self.passes = 0
            return
        cards = parse_cards(action, "play")  # type: ignore[arg-type]
        shown = " ".join(card_names(cards)) or "(no cards)"
        if not cards.any() or (cards > self.hands[seat]).any():
            raise IllegalPlayError(f"seat {seat} does not hold {shown}", "not_held")
        code = int(k.classify(cards, self.policy.sf_bomb))
        if code == 0:
            raise IllegalPlayError(f"{shown} is not a combination", "not_a_combination")
        if not self.leading and not k.code_beats(code, self.last_code):
            last = " ".join(card_names(self.last_play))
            raise IllegalPlayError(f"{shown} does not beat {last}", "does_not_beat")
        self.hands[seat] -= cards
        self.history.append((seat, cards))
        if not self.hands[seat].any():
            self.finished.append(seat)
        self.last_play, self.last_code, self.last_player, self.passes = cards, code, seat, 0
        if self.is_over:
            self.to_move, self.leading = -1, False
            return
        nxt, lead, _ = k.trick_next(self.holding, seat, 0)
        self.to_move, self.leading = int(nxt), bool(lead)

    def replay(self, actions: Sequence[Any]) -> dict[str, Any]:
        """Apply ``actions`` until the first illegal one; the section 12 replay answer."""
        actors: list[int] = []
        illegal_at = None
        for i, action in enumerate(actions):
            seat = self.to_move
            try:
                self.play(action)
            except IllegalPlayError:
                illegal_at = i
                break
            actors.append(seat)
        over = self.is_over
        result = self.result()
        return {
            "legal": illegal_at is None,
            "illegal_at": illegal_at,
            "actors": actors,
            "finished": list(self.finished),
            "round_over": over,
            "next": None if over else self.to_move,
            "lead": None if over else self.leading,
            "result": None if result is None else result.as_dict(),
        }


class Player(Protocol):
    """Chooses an action for the seat on turn: a count array, or None to pass."""

    def choose(self, round_: Round) -> np.ndarray | None: ...


@dataclass
class RoundRecord:
    """A finished round: the deal, every action, the finishing order and the result."""

    hands: np.ndarray
    leader: int
    actions: list[tuple[int, np.ndarray | None]]
    result: RoundResult
    remaining: np.ndarray = field(repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "hands": [card_names(h) for h in self.hands],
            "leader": self.leader,
            "actions": [
                [seat, "pass" if cards is None else card_names(cards)]
                for seat, cards in self.actions
            ],
            "result": {"order": list(self.result.order), **self.result.as_dict()},
        }


def play_round(
    players: Sequence[Player],
    rng: random.Random,
    leader: int | None = None,
    policy: Policy = DEFAULT_POLICY,
) -> RoundRecord:
    """Deal and play one round to its end with ``players`` (one per seat)."""
    players = players_of(players, ("choose",), ShuangkouInputError)
    game = Round.deal(rng, leader, policy)
    dealt = game.hands.copy()
    first_leader = game.to_move
    limit = 4 * 108  # every trick sheds a card, so a round takes at most this many actions
    while not game.is_over:
        if len(game.history) > limit:
            raise RuntimeError("round did not end: a player keeps acting without shedding cards")
        game.play(players[game.to_move].choose(game))
    result = game.result()
    assert result is not None
    return RoundRecord(dealt, first_leader, game.history, result, game.hands.copy())


@dataclass
class MatchRecord:
    """Rounds of a match and the running points of each side."""

    rounds: list[RoundRecord]
    points: tuple[int, int]


def play_match(
    players: Sequence[Player],
    rounds: int,
    rng: random.Random,
    policy: Policy = DEFAULT_POLICY,
) -> MatchRecord:
    """Play ``rounds`` rounds; the first leader is random in the first round and after
    a double win, otherwise the previous round's first finisher (section 8.3)."""
    players = players_of(players, ("choose",), ShuangkouInputError)
    random_source(rng, ShuangkouInputError)
    check_policy(policy)
    rounds = integer(rounds, "rounds", ShuangkouInputError)
    if rounds < 1:
        raise ShuangkouInputError(f"rounds: expected at least 1, got {rounds}")
    records: list[RoundRecord] = []
    total = [0, 0]
    leader: int | None = None
    for _ in range(rounds):
        record = play_round(players, rng, leader, policy)
        records.append(record)
        total[0] += record.result.points[0]
        total[1] += record.result.points[1]
        leader = record.result.next_leader
    return MatchRecord(records, (total[0], total[1]))
