"""Card play: replaying tricks, PBN ``Play`` sections, and double-dummy play analysis.

The mechanics (:func:`replay`, :func:`trick_winner`, :func:`parse_pbn_play`)
need no solver.  :func:`analyse_play` and :func:`optimal_line` call the
double-dummy solver's ``solve_position`` after each card: every card gets the
number of tricks declarer's side can still take, and a card that lowers it
(for the player's own side) is marked as costing tricks.

PBN's ``Play`` section writes one trick per line in *seat* columns starting
from the opening leader (the tag value), not in play order; ``-`` marks a
card not played (a claim) and ``*`` ends the play.

>>> deal = Deal.from_pbn("N:AK... QJ... 32... T9...")
>>> final = replay(deal, Strain.NOTRUMP, Seat.EAST, ["SQ", "S2", "ST", "SA"])
>>> final.tricks_ns, final.tricks_ew, final.position.leader
(1, 0, <Seat.NORTH: 0>)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.contract import Contract
from engines.bridge.errors import BridgeInputError, PlayError
from engines.bridge.seats import Seat, Strain

__all__ = [
    "PlayError",
    "PlayState",
    "PlayStep",
    "analyse_play",
    "optimal_line",
    "parse_pbn_play",
    "play_to_pbn_rows",
    "replay",
    "trick_winner",
]


def trick_winner(cards: Sequence[Card], trump: Strain) -> int:
    """Index (0..3) in ``cards`` (play order) of the card winning the trick.

    >>> trick_winner([Card.from_str(c) for c in ("S2", "SA", "H3", "SK")], Strain.HEARTS)
    2
    """
    trump_suit = trump.suit_index if trump != Strain.NOTRUMP else -1
    best = 0
    for i, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit:
            if card.rank > top.rank:
                best = i
        elif card.suit == trump_suit:  # the winning card is always of the led suit or a trump
            best = i
    return best


@dataclass
class PlayState:
    """Where a play record stands: the remaining position and the tricks taken so far."""

    position: Deal
    tricks_ns: int = 0
    tricks_ew: int = 0
    history: list[tuple[Seat, Card]] = field(default_factory=list)


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.from_str(card)


def replay(
    deal: Deal,
    trump: Strain,
    leader: Seat,
    cards: Sequence[Card | str],
    *,
    on_card: Callable[[PlayState, Seat, Card], None] | None = None,
) -> PlayState:
    """Play ``cards`` (in play order) from ``deal``, checking every card.

    Raises :class:`PlayError` naming the trick and card when a card is not in
    the player's hand or breaks the follow-suit rule.  ``on_card(state, seat,
    card)`` is called *before* each card with the position it is played from.
    """
    hands = [list(h.masks) for h in deal.hands]
    trick: list[Card] = []
    state = PlayState(Deal([Hand(m) for m in hands], leader=leader))
    trick_leader = leader
    for number, raw in enumerate(cards):
        card = _card(raw)
        seat = Seat((trick_leader + len(trick)) % 4)
        trick_no = len(state.history) // 4 + 1
        if on_card is not None:
            on_card(state, seat, card)
        if not hands[seat][card.suit] & card.bit:
            raise PlayError(
                f"trick {trick_no}: {seat.char} plays {card}, not in hand (card {number + 1})"
            )
        if trick and card.suit != trick[0].suit and hands[seat][trick[0].suit]:
            suit = "SHDC"[trick[0].suit]
            raise PlayError(f"trick {trick_no}: {seat.char} plays {card} but must follow {suit}")
        hands[seat][card.suit] &= ~card.bit
        trick.append(card)
        state.history.append((seat, card))
        if len(trick) == 4:
            winner = Seat((trick_leader + trick_winner(trick, trump)) % 4)
            if winner.side == "NS":
                state.tricks_ns += 1
            else:
                state.tricks_ew += 1
            trick_leader, trick = winner, []
        state.position = Deal([Hand(m) for m in hands], leader=trick_leader, trick=trick)
    return state


def parse_pbn_play(leader: Seat | str, lines: Sequence[str], trump: Strain) -> list[Card]:
    """Cards in play order from a PBN ``Play`` section (seat columns from the opening leader).

    >>> [str(c) for c in parse_pbn_play("E", ["SQ S2 ST SA", "- - - SK", "*"], Strain.NOTRUMP)]
    ['SQ', 'S2', 'ST', 'SA', 'SK']
    """
    first = Seat.coerce(leader)
    order: list[Card] = []
    trick_leader = first
    for row_no, line in enumerate(lines, start=1):
        tokens = [t for t in line.split() if not t.startswith("=") and not t.startswith("$")]
        if not tokens:
            continue
        if tokens[0] == "*":
            break
        if len(tokens) < 4 and "*" not in tokens:
            tokens += ["-"] * (4 - len(tokens))
        by_seat: dict[Seat, Card] = {}
        for column, token in enumerate(tokens[:4]):
            if token in ("-", "*"):
                continue
            try:
                by_seat[Seat((first + column) % 4)] = Card.from_str(token.rstrip("!?"))
            except BridgeInputError as exc:
                raise PlayError(f"Play line {row_no}: {exc}") from None
        trick = []
        for offset in range(4):
            seat = Seat((trick_leader + offset) % 4)
            if seat not in by_seat:
                break
            trick.append(by_seat[seat])
        order.extend(trick)
        if len(trick) < 4:
            break
        trick_leader = Seat((trick_leader + trick_winner(trick, trump)) % 4)
    return order


def play_to_pbn_rows(leader: Seat, cards: Sequence[Card | str], trump: Strain) -> list[str]:
    """The PBN ``Play`` section rows (seat columns from ``leader``) for cards in play order."""
    rows = []
    trick_leader = leader
    played = [_card(c) for c in cards]
    for start in range(0, len(played), 4):
        trick = played[start : start + 4]
        by_seat = {Seat((trick_leader + i) % 4): card for i, card in enumerate(trick)}
        rows.append(" ".join(str(by_seat.get(Seat((leader + i) % 4), "-")) for i in range(4)))
        if len(trick) == 4:
            trick_leader = Seat((trick_leader + trick_winner(trick, trump)) % 4)
    return rows


# -- double-dummy analysis --------------------------------------------------------------------


@dataclass(frozen=True)
class PlayStep:
    """One card of an analysed play.

    ``before`` / ``after`` are the tricks declarer's side takes in total
    (already won + double dummy from here) before and after the card; ``cost``
    is the tricks the card gave away for the player's own side (0 = optimal);
    ``best`` lists the optimal cards in that position.
    """

    trick: int
    seat: Seat
    card: Card
    before: int
    after: int
    cost: int
    best: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "trick": self.trick,
            "seat": self.seat.char,
            "card": str(self.card),
            "declarer_tricks_before": self.before,
            "declarer_tricks_after": self.after,
            "cost": self.cost,
            "best": [str(c) for c in self.best],
        }


def _solver() -> Callable[..., dict[Any, int]]:
    from engines.bridge.dd import solve_position

    return solve_position


def _solve(solver: Callable[..., dict[Any, int]], position: Deal, trump: Strain) -> dict[Card, int]:
    result = solver(position, trump)
    return {_card(card): int(tricks) for card, tricks in result.items()}


def analyse_play(
    deal: Deal,
    contract: Contract,
    cards: Sequence[Card | str],
    *,
    solver: Callable[..., dict[Any, int]] | None = None,
) -> list[PlayStep]:
    """Double-dummy verdict on every card of ``cards`` (play order, from the opening lead).

    For each card the solver scores every legal card of the player to move;
    the step records declarer's total before and after and the cost.
    """
    if contract.is_passout or contract.declarer is None or contract.strain is None:
        raise BridgeInputError("play analysis needs a contract with a strain and a declarer")
    solve = solver or _solver()
    trump, declarer = contract.strain, contract.declarer
    leader = declarer.next
    steps: list[PlayStep] = []

    def visit(state: PlayState, seat: Seat, card: Card) -> None:
        values = _solve(solve, state.position, trump)
        if card not in values:
            return  # replay() raises the precise error right after
        best_value = max(values.values())
        own = "NS" if seat.side == "NS" else "EW"
        won = state.tricks_ns if own == "NS" else state.tricks_ew
        tricks_left = state.position.tricks_left
        mine_best, mine_card = won + best_value, won + values[card]
        declarer_side = declarer.side
        if own == declarer_side:
            before, after = mine_best, mine_card
        else:
            other_won = state.tricks_ew if own == "NS" else state.tricks_ns
            total_left = tricks_left + other_won + won
            before = total_left - mine_best
            after = total_left - mine_card
        steps.append(
            PlayStep(
                trick=len(state.history) // 4 + 1,
                seat=seat,
                card=card,
                before=before,
                after=after,
                cost=best_value - values[card],
                best=tuple(c for c, v in values.items() if v == best_value),
            )
        )

    replay(deal, trump, leader, cards, on_card=visit)
    return steps


def optimal_line(
    deal: Deal,
    trump: Strain,
    leader: Seat,
    played: Sequence[Card | str] = (),
    *,
    solver: Callable[..., dict[Any, int]] | None = None,
) -> list[tuple[Seat, Card, int]]:
    """A double-dummy-optimal continuation from the position after ``played``.

    Returns ``(seat, card, tricks)`` for every remaining card, where
    ``tricks`` is what the player's side takes from there on; among equally
    good cards the highest is chosen (spades first) so the line is
    deterministic.
    """
    solve = solver or _solver()
    cards = [_card(c) for c in played]
    state = replay(deal, trump, leader, cards)
    line: list[tuple[Seat, Card, int]] = []
    while state.position.tricks_left > 0 and any(len(h) for h in state.position.hands):
        values = _solve(solve, state.position, trump)
        best_value = max(values.values())
        card = min(
            (c for c, v in values.items() if v == best_value), key=lambda c: (c.suit, -c.rank)
        )
        seat = state.position.to_move
        assert seat is not None
        line.append((seat, card, best_value))
        cards.append(card)
        state = replay(deal, trump, leader, cards)
    return line
