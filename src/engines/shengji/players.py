"""Computer players for :mod:`engines.shengji.game`: uniformly random legal play and a heuristic.

A player implements four decisions, all on count vectors:

* ``bid(seat, hand, bids) -> (card, count) | None`` while cards are dealt;
* ``bury(seat, hand, ctx) -> counts`` (8 cards) as declarer;
* ``lead(view) -> counts`` and ``follow(view) -> counts`` in tricks.

Example:
    >>> import random
    >>> from engines.shengji.game import Round
    >>> players = [HeuristicPlayer(), RandomPlayer(random.Random(2))] * 2
    >>> Round(players, random.Random(7)).play_out().score.next_declarer in range(4)
    True
"""

from __future__ import annotations

import random

import numpy as np

import solvers.shengji as K
from engines.shengji.cards import ShengjiInputError
from engines.shengji.game import BidState, View
from engines.shengji.rules import TrumpContext, bid_strength


def _suit_cards(hand: np.ndarray, ctx: TrumpContext, suit: int) -> np.ndarray:
    mask = ctx.esuit == suit
    out = np.zeros(54, dtype=np.int8)
    out[mask] = hand[mask]
    return out


def _components(cards: np.ndarray, ctx: TrumpContext) -> list[np.ndarray]:
    """Canonical components of a one-suit set, smallest first."""
    cc = np.zeros((54, 54), dtype=np.int64)
    size = np.zeros(54, dtype=np.int64)
    top = np.zeros(54, dtype=np.int64)
    ps = np.zeros(54, dtype=np.int64)
    n = K.decompose(cards, ctx.esuit, ctx.pos, cc, size, top, ps)
    return [cc[i].astype(np.int8) for i in range(n)]


def _instances(cards: np.ndarray) -> list[int]:
    return [c for c in range(54) for _ in range(int(cards[c]))]


def _level_bid(seat: int, hand: np.ndarray, bids: BidState, want_suit: int | None) -> tuple | None:
    """The strongest acceptable bid from ``hand`` (optionally only in ``want_suit``)."""
    options = []
    for card in (53, 52):
        if hand[card] == 2:
            options.append((card, 2))
    for suit in range(4):
        if want_suit is not None and suit != want_suit:
            continue
        card = suit * 13 + bids.level
        if hand[card] >= 1:
            options.append((card, int(hand[card])))
    for card, count in sorted(options, key=lambda o: -bid_strength(o[0], o[1], bids.level)):
        if bids.can_beat(seat, card, count):
            return card, count
    return None


class RandomPlayer:
    """Chooses uniformly among simple options: random bids, random burial, random legal plays.

    Leads are a random single, pair, tractor or (sometimes) a throw of a random
    suit; follows are drawn from the legal follows (enumerated when the suit
    decides, sampled card by card when the follower is short in the suit).
    """

    def __init__(self, rng: random.Random | None = None, bid_chance: float = 0.3) -> None:
        self.rng = rng or random.Random()
        self.bid_chance = bid_chance

    def bid(self, seat: int, hand: np.ndarray, bids: BidState) -> tuple[int, int] | None:
        if self.rng.random() >= self.bid_chance:
            return None
        return _level_bid(seat, hand, bids, None)

    def bury(self, seat: int, hand: np.ndarray, ctx: TrumpContext) -> np.ndarray:
        out = np.zeros(54, dtype=np.int8)
        for c in self.rng.sample(_instances(hand), 8):
            out[c] += 1
        return out

    def lead(self, view: View) -> np.ndarray:
        ctx = view.ctx
        suits = sorted({int(ctx.esuit[c]) for c in np.nonzero(view.hand)[0]})
        suit = self.rng.choice(suits)
        held = _suit_cards(view.hand, ctx, suit)
        r = self.rng.random()
        comps = _components(held, ctx)
        if r < 0.1 and len(comps) > 1:
            # a throw: a random handful of the suit's components
            k = self.rng.randint(2, min(4, len(comps)))
            return np.sum(self.rng.sample(comps, k), axis=0).astype(np.int8)
        structured = [c for c in comps if c.sum() >= 2]
        if r < 0.5 and structured:
            return self.rng.choice(structured)
        out = np.zeros(54, dtype=np.int8)
        out[self.rng.choice(_instances(held))] = 1
        return out

    def follow(self, view: View) -> np.ndarray:
        return random_follow(view.hand, view.lead, view.ctx, self.rng)


def random_follow(hand: np.ndarray, lead: np.ndarray, ctx: TrumpContext,
                  rng: random.Random) -> np.ndarray:
    """A random legal follow (uniform over distinct plays when the suit decides)."""
    t = ctx.tables
    n = int(lead.sum())
    suit_mask = ctx.esuit == K._structure.lead_suit(lead, ctx.esuit)
    hs = int(hand[suit_mask].sum())
    if hs <= n:
        play = np.zeros(54, dtype=np.int8)
        play[suit_mask] = hand[suit_mask]
        rest = hand.copy()
        rest[suit_mask] = 0
        for c in rng.sample(_instances(rest), n - hs):
            play[c] += 1
        return play
    rows = K.enumerate_follows(hand, lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards)
    return rows[rng.randrange(rows.shape[0])].copy()


class HeuristicPlayer:
    """A simple rule-of-thumb player.

    * bids its longest suit's level card (or a joker pair) when it holds ≥ 6 cards there;
    * buries its lowest non-trump, non-point cards;
    * leads tractors, then high pairs, then side aces, else a low card of its longest side suit;
    * follows: gives points when its partner is winning, wins as cheaply as it can otherwise,
      else discards its cheapest cards.
    """

    MAX_CANDIDATES = 400

    def bid(self, seat: int, hand: np.ndarray, bids: BidState) -> tuple[int, int] | None:
        counts = [int(hand[s * 13 : s * 13 + 13].sum()) for s in range(4)]
        best = int(np.argmax(counts))
        if counts[best] < 6 and hand[52] < 2 and hand[53] < 2:
            return None
        return _level_bid(seat, hand, bids, best)

    @staticmethod
    def _cost(cards: np.ndarray, ctx: TrumpContext) -> np.ndarray:
        """Per-card value of keeping a card: trumps and high cards cost more to give away."""
        return ctx.pos + 20 * (ctx.esuit == 4)

    def bury(self, seat: int, hand: np.ndarray, ctx: TrumpContext) -> np.ndarray:
        value = self._cost(hand, ctx) + 30 * (ctx.tables.points > 0)
        out = np.zeros(54, dtype=np.int8)
        for c in sorted(_instances(hand), key=lambda c: (value[c], c))[:8]:
            out[c] += 1
        return out

    def lead(self, view: View) -> np.ndarray:
        ctx = view.ctx
        hand = view.hand
        best: tuple | None = None
        for suit in range(5):
            held = _suit_cards(hand, ctx, suit)
            if not held.any():
                continue
            for comp in _components(held, ctx):
                size = int(comp.sum())
                top = int(ctx.pos[np.nonzero(comp)[0]].max())
                side = suit != 4
                if size >= 4:
                    score = 300 + size * 10 + top
                elif size == 2 and top >= 9:
                    score = 200 + top + 20 * side
                elif size == 1 and side and top == 11:
                    score = 150
                else:
                    score = -1
                if best is None or score > best[0]:
                    best = (score, comp)
        if best is not None and best[0] >= 0:
            return best[1]
        # a low single of the longest side suit (trump only when nothing else is left)
        lengths = [int(_suit_cards(hand, ctx, s).sum()) for s in range(4)]
        suit = int(np.argmax(lengths)) if max(lengths) > 0 else 4
        held = _suit_cards(hand, ctx, suit)
        low = min(np.nonzero(held)[0], key=lambda c: (ctx.pos[c], c))
        out = np.zeros(54, dtype=np.int8)
        out[low] = 1
        return out

    def follow(self, view: View) -> np.ndarray:
        ctx = view.ctx
        t = ctx.tables
        hand, lead = view.hand, view.lead
        count = K.count_follows(hand, lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards)
        if count <= self.MAX_CANDIDATES:
            cands = K.enumerate_follows(hand, lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards)
        else:
            cands = np.stack(self._constructed(hand, lead, ctx))
        cost = self._cost(hand, ctx)
        cand_cost = cands.astype(np.int64) @ cost
        cand_pts = cands.astype(np.int64) @ t.points
        k = len(view.trick_plays)
        plays = np.zeros((cands.shape[0], 4, 54), dtype=np.int8)
        for i, p in enumerate(view.trick_plays):
            plays[:, i] = p
        current = int(K.trick_winner(plays[0, :k].copy(), t.esuit, t.pos,
                                     int(view.policies.throw_winner)))
        partner_winning = (view.trick_seats[current] - view.seat) % 2 == 0
        if partner_winning:
            order = np.lexsort((cand_cost, -cand_pts))
            return cands[order[0]].copy()
        plays[:, k] = cands
        ctx_idx = np.zeros(cands.shape[0], dtype=np.uint8)  # (the arrays API's type: one compile)
        winners, _ = K.trick_winner_batch_serial(
            plays[:, : k + 1].copy(), ctx_idx, t.esuit[None], t.pos[None], t.suit_mask[None],
            int(view.policies.throw_winner),
        )
        wins = winners == k
        if wins.any():
            idx = np.nonzero(wins)[0]
            return cands[idx[np.argmin(cand_cost[idx])]].copy()
        order = np.lexsort((cand_cost, cand_pts))
        return cands[order[0]].copy()

    def _constructed(self, hand: np.ndarray, lead: np.ndarray,
                     ctx: TrumpContext) -> list[np.ndarray]:
        """A few legal candidates when there are too many to list: suit + cheap or rich fill."""
        t = ctx.tables
        n = int(lead.sum())
        suit_mask = ctx.esuit == K._structure.lead_suit(lead, ctx.esuit)
        hs = int(hand[suit_mask].sum())
        cost = self._cost(hand, ctx)
        out = []
        if hs <= n:
            base = np.zeros(54, dtype=np.int8)
            base[suit_mask] = hand[suit_mask]
            rest = hand.copy()
            rest[suit_mask] = 0
            inst = _instances(rest)
            for key in (lambda c: (cost[c], c), lambda c: (-t.points[c], cost[c], c)):
                play = base.copy()
                for c in sorted(inst, key=key)[: n - hs]:
                    play[c] += 1
                out.append(play)
            return out
        rows = K.enumerate_follows(hand, lead, t.esuit, t.pos, t.suit_cards, t.n_suit_cards)
        return [rows[i] for i in range(min(rows.shape[0], self.MAX_CANDIDATES))]


PLAYER_TYPES = {"random": RandomPlayer, "heuristic": HeuristicPlayer}


def make_player(name: str, rng: random.Random):
    """A player by name (``random`` or ``heuristic``)."""
    if name == "random":
        return RandomPlayer(rng)
    if name == "heuristic":
        return HeuristicPlayer()
    raise ShengjiInputError(f"unknown player {name!r} (choose from random, heuristic)")
