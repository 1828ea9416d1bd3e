"""Play: replay and PBN Play sections; DD play analysis against a brute-force solver."""

import pytest

from engines.bridge.cards import Card, Deal, Hand
from engines.bridge.contract import Contract
from engines.bridge.play import (
    PlayError,
    analyse_play,
    optimal_line,
    parse_pbn_play,
    play_to_pbn_rows,
    replay,
    trick_winner,
)
from engines.bridge.seats import Seat, Strain


def brute_force(position: Deal, trump: Strain) -> dict[Card, int]:
    """Naive minimax: tricks the side to move takes after each legal card (small positions)."""

    def value(hands: list[list[int]], leader: int, trick: list[Card]) -> int:
        seat = (leader + len(trick)) % 4
        if not any(hands[seat]):
            return 0
        best = -1
        for card, rest in legal(hands, seat, trick):
            best = max(best, after(rest, leader, [*trick, card], seat))
        return best

    def after(hands: list[list[int]], leader: int, trick: list[Card], seat: int) -> int:
        # tricks for ``seat``'s side from the position after ``seat`` played the last card
        if len(trick) == 4:
            winner = (leader + trick_winner(trick, trump)) % 4
            won = 1 if winner % 2 == seat % 2 else 0
            rest = value(hands, winner, [])
            return won + (rest if winner % 2 == seat % 2 else remaining(hands) - rest)
        nxt = (leader + len(trick)) % 4
        rest = value(hands, leader, trick)
        # the players still to play hold the current trick's card: max size = tricks left
        return rest if nxt % 2 == seat % 2 else remaining(hands) - rest

    def remaining(hands: list[list[int]]) -> int:
        return max(sum(m.bit_count() for m in h) for h in hands)

    def legal(hands: list[list[int]], seat: int, trick: list[Card]):
        masks = hands[seat]
        suits = [trick[0].suit] if trick and masks[trick[0].suit] else range(4)
        for suit in suits:
            for r in range(13):
                if masks[suit] >> r & 1:
                    rest = [list(h) for h in hands]
                    rest[seat][suit] &= ~(1 << r)
                    yield Card(suit, r + 2), rest

    hands = [list(h.masks) for h in position.hands]
    leader = int(position.leader)
    trick = list(position.trick)
    seat = (leader + len(trick)) % 4
    return {
        card: after(rest, leader, [*trick, card], seat) for card, rest in legal(hands, seat, trick)
    }


# A 3-card ending: N AKQ of spades? Make it interesting: NT, E on lead.
END = Deal.from_pbn("N:AQ2... K43... J65... T87...")  # spades only, 3 tricks


def test_trick_winner_rules() -> None:
    cards = [Card.from_str(c) for c in ("HK", "HA", "S2", "H3")]
    assert trick_winner(cards, Strain.NOTRUMP) == 1
    assert trick_winner(cards, Strain.SPADES) == 2
    assert trick_winner(cards, Strain.CLUBS) == 1


def test_replay_counts_tricks_and_checks_cards() -> None:
    state = replay(END, Strain.NOTRUMP, Seat.EAST, ["SK", "SJ", "ST", "SA"])
    assert (state.tricks_ns, state.tricks_ew) == (1, 0) and state.position.leader == Seat.NORTH
    with pytest.raises(PlayError, match="trick 1: S plays SA, not in hand"):
        replay(END, Strain.NOTRUMP, Seat.EAST, ["SK", "SA"])
    mixed = Deal.from_pbn("N:A.2.. K.3.. Q.4.. J.5..")
    with pytest.raises(PlayError, match="must follow S"):
        replay(mixed, Strain.NOTRUMP, Seat.NORTH, ["SA", "H3"])


def test_pbn_play_rows_round_trip() -> None:
    cards = ["SK", "SJ", "ST", "SA", "S2", "S3", "S5", "S8"]
    rows = play_to_pbn_rows(Seat.EAST, cards, Strain.NOTRUMP)
    assert rows[0] == "SK SJ ST SA"  # columns E S W N
    assert parse_pbn_play("E", [*rows, "*"], Strain.NOTRUMP) == [Card.from_str(c) for c in cards]


def test_brute_force_reference_itself() -> None:
    # N AQ2 over E K43 in NT with E to lead: E leads low, N finesses: NS take 2 with best defence
    values = brute_force(
        Deal.from_pbn("N:AQ2... K43... J65... T87...", leader=Seat.EAST), Strain.NOTRUMP
    )
    assert values[Card.from_str("SK")] == 0 and values[Card.from_str("S3")] == 1


def test_analyse_play_marks_costly_cards() -> None:
    contract = Contract.from_str("1NTN")  # E leads
    steps = analyse_play(END, contract, ["SK", "SJ", "ST", "SA"], solver=brute_force)
    assert [str(s.card) for s in steps] == ["SK", "SJ", "ST", "SA"]
    # E's SK lead gives N all three tricks (AQ over K): it costs E one trick.
    first = steps[0]
    assert first.seat == Seat.EAST and first.before == 2 and first.after == 3 and first.cost == 1
    assert Card.from_str("SK") not in first.best
    # S then drops the SJ under the K: W's ST becomes a winner, a trick back to E-W.
    second = steps[1]
    assert second.seat == Seat.SOUTH and (second.before, second.after, second.cost) == (3, 2, 1)
    assert [s.cost for s in steps[2:]] == [0, 0]
    assert steps[0].to_dict()["card"] == "SK"


def test_analyse_play_rejects_bad_cards_and_contracts() -> None:
    with pytest.raises(PlayError):
        analyse_play(END, Contract.from_str("1NTN"), ["SA"], solver=brute_force)
    with pytest.raises(Exception, match="needs a contract"):
        analyse_play(END, Contract.passed_out(), [], solver=brute_force)


def test_optimal_line_keeps_the_value() -> None:
    line = optimal_line(END, Strain.NOTRUMP, Seat.EAST, solver=brute_force)
    assert len(line) == 12
    seat, _card, tricks = line[0]
    assert seat == Seat.EAST and tricks == 1
    state = replay(END, Strain.NOTRUMP, Seat.EAST, [c for _, c, _ in line])
    assert state.tricks_ns == 2 and state.tricks_ew == 1
    # from a given point
    rest = optimal_line(END, Strain.NOTRUMP, Seat.EAST, ["SK"], solver=brute_force)
    assert len(rest) == 11 and rest[0][0] == Seat.SOUTH


def test_hand_helper() -> None:
    assert len(Hand.from_pbn("AQ2...")) == 3
