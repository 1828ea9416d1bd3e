"""A complete 升级 round and match: deal with bidding, bottom and burying, 25 tricks, scoring.

The round is a step-by-step state machine so that callers (tests, the CLI,
search code) can look at it between any two plays: :meth:`Round.deal`,
:meth:`Round.bury`, then :meth:`Round.next_play` until :attr:`Round.finished`
(or :meth:`Round.play_trick` / :meth:`Round.play_out`).  Players are objects
with ``bid``, ``bury``, ``lead`` and ``follow`` methods (see
:mod:`engines.shengji.players`); every decision is checked against the rules
and an illegal one raises :class:`~engines.shengji.rules.IllegalPlayError`.

Example:
    >>> import random
    >>> from engines.shengji.players import RandomPlayer
    >>> rng = random.Random(1)
    >>> rnd = Round([RandomPlayer(random.Random(s)) for s in range(4)], rng)
    >>> result = rnd.play_out()
    >>> len(result.tricks) <= 25, result.cards_in_play()
    (True, 108)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import solvers.shengji as K
from engines.arguments import as_list, integer, players_of, random_source
from engines.shengji.cards import RANKS, ShengjiInputError, card_name, cards_to_names
from engines.shengji.rules import (
    DEFAULT_POLICIES,
    IllegalPlayError,
    Policies,
    RoundScore,
    TrumpContext,
    bid_strength,
    score_round,
    validate_follow,
)

HAND_SIZE = 25
BOTTOM_SIZE = 8
MAX_REDEALS = 1000


def team_of(seat: int) -> int:
    """Team 0 = seats {0, 2}, team 1 = seats {1, 3}."""
    return seat % 2


@dataclass
class BidState:
    """The standing bid while cards are dealt (section 12), applied one bid at a time."""

    level: int
    log: list[tuple[int, int, int, bool]] = field(default_factory=list)  # seat, card, count, ok
    standing: tuple[int, int, int] | None = None  # seat, card, strength
    first_seat: int | None = None

    def offer(self, seat: int, card: int, count: int) -> bool:
        """Record a bid; returns whether it is accepted."""
        strength = bid_strength(card, count, self.level)
        ok = strength > 0
        if ok and self.standing is not None:
            s_seat, s_card, s_strength = self.standing
            ok = strength > s_strength and (seat != s_seat or card == s_card)
        self.log.append((seat, card, count, ok))
        if ok:
            self.standing = (seat, card, strength)
            if self.first_seat is None:
                self.first_seat = seat
        return ok

    def can_beat(self, seat: int, card: int, count: int) -> bool:
        """Would this bid be accepted now (without recording it)?"""
        strength = bid_strength(card, count, self.level)
        if strength == 0:
            return False
        if self.standing is None:
            return True
        s_seat, s_card, s_strength = self.standing
        return strength > s_strength and (seat != s_seat or card == s_card)

    @property
    def trump(self) -> int | None:
        if self.standing is None:
            return None
        card = self.standing[1]
        return 4 if card >= 52 else card // 13


@dataclass
class Trick:
    """One finished trick; ``plays[i]`` is the count vector played by ``seats[i]``."""

    leader: int
    seats: list[int]
    plays: list[np.ndarray]
    winner: int
    points: int
    attempted: np.ndarray | None = None  # the thrown cards when a throw failed


@dataclass
class View:
    """What a player sees when asked to lead or follow."""

    seat: int
    hand: np.ndarray
    ctx: TrumpContext
    declarer: int
    trick_seats: list[int]
    trick_plays: list[np.ndarray]
    played: np.ndarray  # every card already played in earlier tricks (count vector)
    trick_number: int
    policies: Policies

    @property
    def lead(self) -> np.ndarray | None:
        return self.trick_plays[0] if self.trick_plays else None


@dataclass
class RoundResult:
    """Everything that happened in a round."""

    level: str
    trump: str
    declarer: int
    bids: list[tuple[int, int, int, bool]]
    bottom: np.ndarray
    buried: np.ndarray
    tricks: list[Trick]
    defender_trick_points: int
    penalty_points: int
    score: RoundScore
    redeals: int = 0

    def cards_in_play(self) -> int:
        """Cards accounted for: every trick plus the buried bottom (108 for a whole round)."""
        return int(sum(int(p.sum()) for t in self.tricks for p in t.plays) + self.buried.sum())

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready record of the round."""
        return {
            "level": self.level,
            "trump": self.trump,
            "declarer": self.declarer,
            "bids": [[s, card_name(c), n, ok] for s, c, n, ok in self.bids],
            "bottom": cards_to_names(self.bottom),
            "buried": cards_to_names(self.buried),
            "tricks": [
                {
                    "leader": t.leader,
                    "plays": [[s, cards_to_names(p)] for s, p in zip(t.seats, t.plays)],
                    "failed_throw": None if t.attempted is None else cards_to_names(t.attempted),
                    "winner": t.winner,
                    "points": t.points,
                }
                for t in self.tricks
            ],
            "defender_trick_points": self.defender_trick_points,
            "penalty_points": self.penalty_points,
            "score": self.score.as_dict(),
            "redeals": self.redeals,
        }


_PLAYER_METHODS = ("bid", "bury", "lead", "follow")


def _rank_index(level: object) -> int:
    """The index of a level rank (``"2"`` .. ``"A"``, or an integer 2..10); -1 if it is none."""
    if isinstance(level, bool) or not isinstance(level, str | int):
        return -1
    return RANKS.index(str(level)) if str(level) in RANKS else -1


class Round:
    """One round of 升级 for four players.

    ``levels`` gives each team's level rank (team 0 = seats 0 and 2);
    ``declarer`` is the declarer's seat, or None in the first round, where
    the first accepted bid during the deal decides it (a deal without any bid
    is redealt).
    """

    def __init__(
        self,
        players: Sequence[Any],
        rng: random.Random,
        levels: Sequence[str] = ("2", "2"),
        declarer: int | None = None,
        policies: Policies = DEFAULT_POLICIES,
    ) -> None:
        self.players = players_of(players, _PLAYER_METHODS, ShengjiInputError)
        self.rng = random_source(rng, ShengjiInputError)
        if not isinstance(policies, Policies):
            raise ShengjiInputError(f"policies must be a Policies, got {policies!r}"[:300])
        if declarer is not None and (
            integer(declarer, "declarer", ShengjiInputError) not in range(4)
        ):
            raise ShengjiInputError(f"declarer must be a seat 0..3 or None, got {declarer!r}")
        levels = as_list(levels, "levels", ShengjiInputError)
        self.levels = [_rank_index(lv) for lv in levels]
        if -1 in self.levels or len(self.levels) != 2:
            raise ShengjiInputError(f"levels: expected two ranks, got {list(levels)!r}")
        if declarer is None and self.levels[0] != self.levels[1]:
            raise ShengjiInputError("a first round (no declarer yet) needs both teams on one level")
        self.declarer = declarer
        self.policies = policies
        self.hands = np.zeros((4, 54), dtype=np.int8)
        self.bottom = np.zeros(54, dtype=np.int8)
        self.buried = np.zeros(54, dtype=np.int8)
        self.played = np.zeros(54, dtype=np.int8)
        self.tricks: list[Trick] = []
        self.trick_seats: list[int] = []
        self.trick_plays: list[np.ndarray] = []
        self.attempted: np.ndarray | None = None
        self.leader = -1
        self.defender_points = 0
        self.penalty_points = 0
        self.ctx: TrumpContext | None = None
        self.bids = BidState(self.levels[0] if declarer is None else self.levels[declarer % 2])
        self.redeals = 0
        self.phase = "deal"
        self.result: RoundResult | None = None

    # ------------------------------------------------------------ deal, bids, bottom

    def deal(self) -> None:
        """Shuffle and deal 25 cards each, one at a time, offering bids after every card."""
        if self.phase != "deal":
            raise ShengjiInputError(f"cannot deal in phase {self.phase!r}")
        while True:
            deck = [c for c in range(54) for _ in range(2)]
            self.rng.shuffle(deck)
            self.hands[:] = 0
            self.bids = BidState(self.bids.level)
            first = 0 if self.declarer is None else self.declarer
            for i in range(4 * HAND_SIZE):
                seat = (first + i) % 4
                self.hands[seat, deck[i]] += 1
                self._offer_bid(seat)
            for seat in range(4):  # one last chance once all cards are in hand
                self._offer_bid((first + seat) % 4)
            self.bottom = np.zeros(54, dtype=np.int8)
            for c in deck[4 * HAND_SIZE :]:
                self.bottom[c] += 1
            if self.declarer is not None or self.bids.first_seat is not None:
                break
            self.redeals += 1  # first round without a bid: redeal (section 12)
            if self.redeals >= MAX_REDEALS:
                raise ShengjiInputError(f"nobody bid in {MAX_REDEALS} deals; do the players bid?")
        if self.declarer is None:
            self.declarer = self.bids.first_seat
        trump = self.bids.trump
        level = self.levels[self.declarer % 2]
        self.ctx = TrumpContext(level, 4 if trump is None else trump)
        self.phase = "bury"

    def _offer_bid(self, seat: int) -> None:
        choice = self.players[seat].bid(seat, self.hands[seat].copy(), self.bids)
        if choice is None:
            return
        card, count = choice
        if not 0 <= card < 54 or self.hands[seat, card] < count:
            raise IllegalPlayError(f"seat {seat} bid {count} × card {card} without holding it")
        self.bids.offer(seat, card, count)

    def bury(self) -> None:
        """The declarer takes the bottom and buries 8 cards."""
        if self.phase != "bury":
            raise ShengjiInputError(f"cannot bury in phase {self.phase!r}")
        d = self.declarer
        self.hands[d] += self.bottom
        buried = np.asarray(self.players[d].bury(d, self.hands[d].copy(), self.ctx), dtype=np.int8)
        if buried.shape != (54,) or (buried < 0).any() or (buried > self.hands[d]).any():
            raise IllegalPlayError(f"seat {d} buried cards it does not hold")
        if int(buried.sum()) != BOTTOM_SIZE:
            raise IllegalPlayError(f"seat {d} buried {int(buried.sum())} cards, must bury 8")
        self.hands[d] -= buried
        self.buried = buried
        self.leader = d
        self.phase = "play"

    # ------------------------------------------------------------ tricks

    @property
    def finished(self) -> bool:
        return self.phase == "done"

    def view(self, seat: int) -> View:
        return View(
            seat,
            self.hands[seat].copy(),
            self.ctx,
            self.declarer,
            list(self.trick_seats),
            [p.copy() for p in self.trick_plays],
            self.played.copy(),
            len(self.tricks),
            self.policies,
        )

    def next_play(self) -> None:
        """Make the next single play (a lead or a follow); finishes the trick after the 4th."""
        if self.phase != "play":
            raise ShengjiInputError(f"cannot play in phase {self.phase!r}")
        t = self.ctx.tables
        if not self.trick_plays:
            seat = self.leader
            lead = np.asarray(self.players[seat].lead(self.view(seat)), dtype=np.int8)
            self._check_lead(seat, lead)
            others = np.stack([self.hands[(seat + k) % 4] for k in (1, 2, 3)])
            forced = np.zeros(54, dtype=np.int64)
            self.attempted = None
            if not K.check_throw(lead, others, t.esuit, t.pos, forced):
                self.attempted = lead
                lead = forced.astype(np.int8)
                if self.policies.throw_penalty:
                    # house rule: a failed throw hands points to the other side
                    self.penalty_points += int(self.policies.throw_penalty) * (
                        1 if team_of(seat) == team_of(self.declarer) else -1
                    )
            self.hands[seat] -= lead
            self.trick_seats.append(seat)
            self.trick_plays.append(lead)
            return
        seat = (self.trick_seats[-1] + 1) % 4
        play = np.asarray(self.players[seat].follow(self.view(seat)), dtype=np.int8)
        hand = self.hands[seat]
        lead = self.trick_plays[0]
        if play.shape != (54,) or (play < 0).any() or (play > hand).any():
            raise IllegalPlayError(f"seat {seat} played cards it does not hold")
        if not K.follow_legal(hand, lead, play, t.esuit, t.pos):
            try:
                validate_follow(hand, lead, play, self.ctx)
            except IllegalPlayError as exc:
                raise IllegalPlayError(f"seat {seat}: {exc}") from None
        self.hands[seat] -= play
        self.trick_seats.append(seat)
        self.trick_plays.append(play)
        if len(self.trick_plays) == 4:
            self._finish_trick()

    def _check_lead(self, seat: int, lead: np.ndarray) -> None:
        if lead.shape != (54,) or (lead < 0).any() or (lead > self.hands[seat]).any():
            raise IllegalPlayError(f"seat {seat} led cards it does not hold")
        if not K.is_one_suit(lead, self.ctx.esuit):
            raise IllegalPlayError(f"seat {seat} led nothing or several suits")

    def _finish_trick(self) -> None:
        t = self.ctx.tables
        plays = np.stack(self.trick_plays)
        idx = int(K.trick_winner(plays, t.esuit, t.pos, int(self.policies.throw_winner)))
        winner = self.trick_seats[idx]
        pts = int((plays.astype(np.int64).sum(axis=0) * t.points).sum())
        if team_of(winner) != team_of(self.declarer):
            self.defender_points += pts
        for p in self.trick_plays:
            self.played += p
        self.tricks.append(
            Trick(
                self.leader,
                list(self.trick_seats),
                list(self.trick_plays),
                winner,
                pts,
                self.attempted,
            )
        )
        self.trick_seats = []
        self.trick_plays = []
        self.leader = winner
        if not self.hands.any():  # 25 cards each: at most 25 tricks, fewer with multi-card leads
            self._score()

    def play_trick(self) -> Trick:
        """Play one whole trick and return it."""
        self.next_play()
        while self.trick_plays:
            self.next_play()
        return self.tricks[-1]

    def _score(self) -> None:
        last = self.tricks[-1]
        dteam = team_of(self.declarer)
        levels = {
            "declarers": RANKS[self.levels[dteam]],
            "defenders": RANKS[self.levels[1 - dteam]],
        }
        won_by = "declarers" if team_of(last.winner) == dteam else "defenders"
        # a negative house-rule penalty (defenders threw and failed) may not push D below 0
        penalty = max(self.penalty_points, -self.defender_points)
        score = score_round(
            self.declarer,
            self.defender_points,
            cards_to_names(self.buried),
            cards_to_names(last.plays[0]),
            won_by,
            levels,
            self.ctx,
            self.policies.bottom,
            penalty,
        )
        self.result = RoundResult(
            self.ctx.level_name,
            self.ctx.trump_name,
            self.declarer,
            list(self.bids.log),
            self.bottom.copy(),
            self.buried.copy(),
            self.tricks,
            self.defender_points,
            penalty,
            score,
            self.redeals,
        )
        self.phase = "done"

    def play_out(self) -> RoundResult:
        """Deal, bury and play every remaining trick; returns the result."""
        if self.phase == "deal":
            self.deal()
        if self.phase == "bury":
            self.bury()
        while self.phase == "play":
            self.play_trick()
        assert self.result is not None
        return self.result

    # ------------------------------------------------------------ invariants

    def card_total(self) -> np.ndarray:
        """Per-card count over hands, bottom/buried, finished tricks and the current trick."""
        total = self.hands.astype(np.int64).sum(axis=0) + self.played
        total = total + (self.bottom if self.phase in ("deal", "bury") else self.buried)
        for p in self.trick_plays:
            total = total + p
        return total


@dataclass
class MatchResult:
    """A match: rounds until one team passes A."""

    rounds: list[RoundResult]
    winner: int | None  # team 0 or 1; None when stopped by ``max_rounds``
    levels: list[str]


def play_match(
    players: Sequence[Any],
    rng: random.Random,
    policies: Policies = DEFAULT_POLICIES,
    max_rounds: int = 500,
    observer: Callable[[Round], None] | None = None,
) -> MatchResult:
    """Play rounds until a team passes A (section 11); stops after ``max_rounds`` rounds.

    ``observer``, when given, is called with the round after the deal, after
    burying and after every single play (tests use it to check invariants).
    """
    players_of(players, _PLAYER_METHODS, ShengjiInputError)
    random_source(rng, ShengjiInputError)
    max_rounds = integer(max_rounds, "max_rounds", ShengjiInputError)
    if max_rounds < 1:
        raise ShengjiInputError(f"max_rounds must be at least 1, got {max_rounds}")
    if observer is not None and not callable(observer):
        raise ShengjiInputError(f"observer must be a function of the round, got {observer!r}")
    levels = ["2", "2"]
    declarer: int | None = None
    rounds: list[RoundResult] = []
    for _ in range(max_rounds):
        rnd = Round(players, rng, levels, declarer, policies)
        if observer is None:
            res = rnd.play_out()
        else:
            rnd.deal()
            observer(rnd)
            rnd.bury()
            observer(rnd)
            while not rnd.finished:
                rnd.next_play()
                observer(rnd)
            res = rnd.result
        rounds.append(res)
        dteam = team_of(res.declarer)
        levels[dteam] = res.score.new_levels["declarers"]
        levels[1 - dteam] = res.score.new_levels["defenders"]
        if res.score.match_won:
            winner = dteam if res.score.declarers_keep else 1 - dteam
            return MatchResult(rounds, winner, levels)
        declarer = res.score.next_declarer
    return MatchResult(rounds, None, levels)
