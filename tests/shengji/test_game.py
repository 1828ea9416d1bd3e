"""The game engine: whole rounds and matches keep 108 cards and 200 points in play."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.cli import main
from engines.shengji.cards import ShengjiInputError
from engines.shengji.game import BidState, Round, play_match, team_of
from engines.shengji.players import HeuristicPlayer, RandomPlayer
from engines.shengji.rules import (
    IllegalPlayError,
    Policies,
    ThrowPenalty,
    resolve_bids,
)

POINTS = np.zeros(54, dtype=np.int64)
for _s in range(4):
    POINTS[_s * 13 + 3] = 5
    POINTS[_s * 13 + 8] = 10
    POINTS[_s * 13 + 11] = 10


def check_invariants(rnd: Round) -> None:
    total = rnd.card_total()
    assert total.sum() == 108
    assert np.all(total == 2)
    assert int((total * POINTS).sum()) == 200


def players(seed: int, kinds: str = "rhrh"):
    return [
        RandomPlayer(random.Random(seed * 10 + i)) if k == "r" else HeuristicPlayer()
        for i, k in enumerate(kinds)
    ]


@pytest.mark.parametrize("seed", range(6))
def test_round_keeps_cards_and_points_after_every_play(seed):
    rnd = Round(players(seed, "rhrh" if seed % 2 else "rrrr"), random.Random(seed))
    rnd.deal()
    check_invariants(rnd)
    assert [int(h.sum()) for h in rnd.hands] == [25, 25, 25, 25]
    assert rnd.bottom.sum() == 8
    rnd.bury()
    check_invariants(rnd)
    while not rnd.finished:
        rnd.next_play()
        check_invariants(rnd)
    res = rnd.result
    assert res.cards_in_play() == 108
    # points: the defenders' trick points are exactly the points of the tricks they won
    dteam = team_of(res.declarer)
    won = sum(t.points for t in res.tricks if team_of(t.winner) != dteam)
    assert res.defender_trick_points == won
    assert sum(t.points for t in res.tricks) + int((res.buried * POINTS).sum()) == 200
    # every trick's plays have the size of the lead as actually played
    for t in res.tricks:
        sizes = {int(p.sum()) for p in t.plays}
        assert len(sizes) == 1


def test_bids_during_the_deal_agree_with_resolve_bids():
    rnd = Round(players(3, "rrrr"), random.Random(3))
    rnd.deal()
    log = rnd.bids.log
    res = resolve_bids([(s, _name(c), n) for s, c, n, _ in log], "2", first_round=True)
    assert res.accepted == [ok for *_, ok in log]
    assert res.declarer == rnd.declarer
    assert res.trump == rnd.ctx.trump_name


def _name(card: int) -> str:
    from engines.shengji.cards import card_name

    return card_name(card)


def test_match_runs_until_a_team_passes_a():
    observed = []

    def observe(rnd: Round) -> None:
        check_invariants(rnd)  # 108 cards and 200 points at every step of every round
        observed.append(1)

    match = play_match(players(1, "hrhr"), random.Random(5), observer=observe)
    assert len(observed) == sum(2 + 4 * len(r.tricks) for r in match.rounds)
    assert match.winner in (0, 1)
    last = match.rounds[-1].score
    assert last.match_won
    assert match.levels[match.winner] == "A"
    for prev, nxt in zip(match.rounds, match.rounds[1:]):
        assert nxt.declarer == prev.score.next_declarer


def test_failed_throws_are_replaced_by_the_forced_component():
    seen = 0
    for seed in range(12):
        res = Round(players(seed, "rrrr"), random.Random(seed)).play_out()
        for t in res.tricks:
            if t.attempted is not None:
                seen += 1
                lead = t.plays[0]
                assert np.all(lead <= t.attempted) and lead.sum() < t.attempted.sum()
    assert seen > 0


def test_throw_penalty_policy_moves_points():
    pol = Policies(throw_penalty=ThrowPenalty.TEN_POINTS)
    total = 0
    for seed in range(8):
        res = Round(players(seed, "rrrr"), random.Random(seed), policies=pol).play_out()
        failed = sum(t.attempted is not None for t in res.tricks)
        assert (res.penalty_points != 0) <= (failed > 0)
        total += abs(res.penalty_points)
    assert total > 0


class _Cheat(RandomPlayer):
    def follow(self, view):
        return view.hand.copy()  # every card at once: wrong count


def test_illegal_follow_is_rejected():
    rnd = Round([_Cheat(random.Random(i)) for i in range(4)], random.Random(2))
    with pytest.raises(IllegalPlayError, match=r"seat \d: play: \d+ cards, the lead has"):
        rnd.play_out()


class _Silent(RandomPlayer):
    def bid(self, seat, hand, bids):
        return None


def test_first_round_without_bids_is_redealt_then_gives_up(monkeypatch):
    import engines.shengji.game as game

    monkeypatch.setattr(game, "MAX_REDEALS", 3)
    rnd = Round([_Silent(random.Random(i)) for i in range(4)], random.Random(2))
    with pytest.raises(ShengjiInputError, match="nobody bid in 3 deals"):
        rnd.deal()
    assert rnd.redeals == 3
    later = Round([_Silent(random.Random(i)) for i in range(4)], random.Random(2), declarer=1)
    later.deal()  # later rounds: no bid means no trump
    assert later.ctx.trump_name == "NT" and later.declarer == 1


def test_round_arguments_are_checked():
    with pytest.raises(ShengjiInputError):
        Round(players(0)[:3], random.Random(0))
    with pytest.raises(ShengjiInputError):
        Round(players(0), random.Random(0), levels=("2", "Z"))
    with pytest.raises(ShengjiInputError):
        Round(players(0), random.Random(0), levels=("2", "5"))  # first round, unequal levels


def test_bid_state_refuses_own_override():
    b = BidState(level=3)  # level '5'
    assert b.offer(0, 1 * 13 + 3, 1)  # H5
    assert not b.offer(0, 0 * 13 + 3, 2)  # own S5 pair: refused
    assert b.offer(0, 1 * 13 + 3, 2)  # reinforce H5: accepted
    assert b.trump == 1


def test_play_command_prints_a_round(capsys):
    assert main(["shengji", "play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "trick  1:" in out and "next declarer seat" in out


def test_play_command_json_and_match(capsys):
    assert main(["shengji", "play", "--seed", "2", "-p", "random", "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    played = sum(len(p[1]) for t in data["tricks"] for p in t["plays"])
    assert played + len(data["buried"]) == 108
    assert main(["shengji", "play", "--seed", "2", "--match", "-p", "heuristic"]) == 0
    assert "match won by team" in capsys.readouterr().out


def test_play_command_rejects_unknown_player(capsys):
    assert main(["shengji", "play", "-p", "genius"]) == 2
    assert "genius" in capsys.readouterr().err


def test_play_command_many_rounds_to_a_file(tmp_path):
    path = tmp_path / "rounds.jsonl"
    assert main(["shengji", "play", "-n", "3", "-f", "json", "-p", "random", "-o", str(path)]) == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 3
    assert all(json.loads(line)["score"]["next_declarer"] in range(4) for line in lines)
    assert main(["shengji", "play", "-n", "0"]) == 2


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["rrrr", "hhhh", "rhhr"]),
       st.sampled_from(list(ThrowPenalty)), st.booleans())
def test_any_seed_keeps_the_invariants(seed, kinds, penalty, later_round):
    pol = Policies(throw_penalty=penalty)
    declarer = seed % 4 if later_round else None
    levels = ("5", "J") if later_round else ("2", "2")
    rnd = Round(players(seed, kinds), random.Random(seed), levels, declarer, pol)
    rnd.deal()
    check_invariants(rnd)
    rnd.bury()
    while not rnd.finished:
        rnd.next_play()
        check_invariants(rnd)
    s = rnd.result.score
    assert s.defender_points >= 0 and s.defender_points % 5 == 0
    assert s.next_declarer == (rnd.declarer + (2 if s.declarers_keep else 1)) % 4
