"""Properties of the event rules on random inputs (hypothesis)."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.bridge.compare import imps
from engines.events import awards, rate, scoring, teams, tiedian

scores = st.integers(-800, 800).map(lambda v: 10 * v)
boards = st.lists(scores, min_size=1, max_size=40)


def exact_datum(values):
    values = sorted(values)
    k = math.ceil(len(values) / 10) if len(values) >= 3 else 0
    kept = values[k : len(values) - k]
    mean = Fraction(sum(kept), len(kept))
    units = int(abs(mean) / 10 + Fraction(1, 2))
    return 10 * units if mean >= 0 else -10 * units


@given(boards)
def test_datum_matches_exact_arithmetic(values):
    assert scoring.datum(values) == exact_datum(values)


@given(boards)
def test_board_values_are_zero_sum(values):
    assert sum(scoring.cross_sums(values)) == 0
    percentages = scoring.mp_percentages(values)
    assert all(0 <= p <= 100 for p in percentages)
    assert sum(percentages) == 50 * len(values)  # N-S and E-W shares of the tops


@given(boards, st.integers(1, 8), st.integers(0, 40))
def test_stream_scoring_structure(values, min_results, extra):
    max_results = min_results + extra
    board = scoring.stream_board(values, min_results, max_results)
    taken = values[:max_results]
    assert board.imps[len(taken) :] == [None] * (len(values) - len(taken))
    if len(taken) < min_results:
        assert board.imps[: len(taken)] == [0] * len(taken)
    else:
        _, first = scoring.datum_imps(taken[:min_results])
        assert board.imps[:min_results] == first
        for n in range(min_results, len(taken)):
            assert board.datums[n] == scoring.datum(taken[: n + 1])


@given(st.lists(st.tuples(scores, scores), min_size=1, max_size=20))
def test_vps_sum_to_20_and_follow_the_margin(pairs):
    result = teams.team_match(pairs)
    assert round(result.vp_a + result.vp_b, 2) == 20.0
    assert result.imps_a - result.imps_b == result.margin == sum(result.board_imps)
    assert (result.vp_a > 10) == (result.margin > 0) and (result.vp_a == 10) == (result.margin == 0)
    flipped = teams.team_match([(b, a) for a, b in pairs])
    assert (flipped.vp_a, flipped.vp_b) == (result.vp_b, result.vp_a)


@given(st.integers(0, 80))
def test_masterpoints_rule_for_every_field_size(n):
    got = awards.masterpoints(n)
    last = 10 if n >= 20 else n // 2  # the last rank that scores (rank 1 always does)
    expected = [
        3 if r == 1 else 2 if r <= min(4, last) else 1 if r <= last else 0 for r in range(1, n + 1)
    ]
    assert got == expected
    assert sum(got) == (0 if n == 0 else 3 + 2 * max(0, min(4, last) - 1) + max(0, last - 4))


@given(st.fractions(0, 3000))
def test_grades_never_go_down(points):
    level, _ = awards.grade(points)
    assert 1 <= level <= 12
    assert awards.grade(points + 1)[0] >= level
    assert points >= awards.GRADE_THRESHOLDS[level - 1]


@given(st.lists(st.integers(-2000, 2000), min_size=21, max_size=21), scores, st.integers(0, 40))
def test_tiedian_side_is_immaterial_with_an_antisymmetric_table(upper, score, hcp):
    table = [-v for v in reversed(upper[1:])] + [0] + upper[1:]
    ns = tiedian.tiedian_result(score, hcp, table, "NS")
    assert tiedian.tiedian_result(score, hcp, table, "EW") == -ns
    # computed from E-W's side with its own HCP, the answer is the same
    assert -(imps(-score) - imps(table[40 - hcp])) == ns or score == 0


players = st.sampled_from("abcdefghijkl")


@st.composite
def weeks(draw):
    week = []
    for _ in range(draw(st.integers(1, 4))):
        names = draw(st.permutations("abcdefghijklmnop"))
        tables = draw(st.integers(1, 4))
        week.append([
            rate.TableResult(*names[4 * t : 4 * t + 4], draw(scores),
                             frozenset(draw(st.sets(st.sampled_from("NESW"), max_size=1))))
            for t in range(tables)
        ])  # fmt: skip
    return week


@settings(max_examples=60, deadline=None)
@given(weeks(), st.dictionaries(players, st.tuples(st.fractions(0, 100), st.integers(0, 900))))
def test_rates_stay_within_0_and_100(week, start):
    state = {p: rate.PlayerState(r, t) for p, (r, t) in start.items()}
    figures = rate.rate_week(state, week)
    for name, f in figures.items():
        assert 0 <= f.rate <= 100
        assert all(0 <= b <= 100 for b in f.board_rates)
        assert f.boards == len(f.board_rates)
        assert f.total_boards == state.get(name, rate.PlayerState(50, 0)).total_boards + f.boards
        if f.boards == 0:
            assert f.rate == state[name].rate and f.week_rate is None and f.avg is None


@given(st.lists(st.sampled_from([-620, -100, 0, 110, 140, 420, 450, 620, 1430]), min_size=1,
                max_size=60))  # fmt: skip
def test_grouped_board_scoring_equals_the_bridge_definitions(values):
    from engines.bridge.compare import cross_imps, matchpoints

    expected_cross = [0] if len(values) == 1 else list(cross_imps(values))
    assert scoring.cross_sums(values) == expected_cross
    top = 2 * (len(values) - 1)
    expected_mp = (
        [Fraction(50)] if top == 0 else [Fraction(100 * m, top) for m in matchpoints(values)]
    )
    assert scoring.mp_percentages(values) == expected_mp
