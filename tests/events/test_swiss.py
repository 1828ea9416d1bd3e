"""Swiss pairing against a brute-force search over every seating, plus registration and byes."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines.events.errors import EventInputError
from engines.events.matching import MatchingOracle
from engines.events.swiss import Standing, choose_bye, pair_round, register, seat, standing_order


def brute_force_seating(ids, met):
    """The (rematches, record list) minimum over every seating of ``ids`` (rank order)."""
    best = None

    def walk(rest, record, tables):
        nonlocal best
        if not rest:
            key = (sum(f for f, _ in record), record)
            if best is None or key < best[0]:
                best = (key, list(tables))
            return
        top, others = rest[0], rest[1:]
        for index, other in enumerate(others):
            f = 1 if frozenset((top, other)) in met else 0
            walk(
                others[:index] + others[index + 1 :],
                [*record, (f, ids.index(other))],
                [*tables, (top, other)],
            )

    walk(list(ids), [], [])
    return best[1], best[0][0]


def brute_force_matching(n, met, alive):
    """ν of the not-met graph on ``alive`` by exhaustive search."""
    if len(alive) < 2:
        return 0
    first, rest = alive[0], alive[1:]
    best = brute_force_matching(n, met, rest)
    for index, other in enumerate(rest):
        if other not in met[first]:
            best = max(best, 1 + brute_force_matching(n, met, rest[:index] + rest[index + 1 :]))
    return best


@st.composite
def fields(draw, max_pairs=10):
    n = 2 * draw(st.integers(1, max_pairs // 2))
    edges = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    density = draw(st.sampled_from([0.1, 0.3, 0.6, 0.8]))
    rng = random.Random(draw(st.integers(0, 10**6)))
    history = [[a, b] if rng.random() < 0.5 else [b, a] for a, b in edges if rng.random() < density]
    order = list(range(1, n + 1))
    rng.shuffle(order)
    return order, history


@settings(max_examples=150, deadline=None)
@given(fields())
def test_seating_is_the_brute_force_optimum(field):
    ids, history = field
    met = {frozenset(t) for t in history}
    tables, rematches = seat(ids, history)
    expected_tables, expected_rematches = brute_force_seating(ids, met)
    assert (tables, rematches) == (expected_tables, expected_rematches)


@settings(max_examples=100, deadline=None)
@given(fields(max_pairs=12))
def test_no_rematch_when_a_rematch_free_seating_exists(field):
    ids, history = field
    n = len(ids)
    met_sets = [set() for _ in range(n)]
    rank = {p: i for i, p in enumerate(ids)}
    for a, b in history:
        met_sets[rank[a]].add(rank[b])
        met_sets[rank[b]].add(rank[a])
    perfect = brute_force_matching(n, met_sets, list(range(n))) == n // 2
    tables, rematches = seat(ids, history)
    met = {frozenset(t) for t in history}
    assert rematches == sum(frozenset(t) in met for t in tables)
    assert (rematches == 0) == perfect
    assert sorted(p for t in tables for p in t) == sorted(ids)
    assert all(rank[ns] < rank[ew] for ns, ew in tables)  # higher-ranked pair sits N-S


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 11), st.floats(0.0, 0.9), st.integers(0, 10**6))
@example(8, 0.6875, 6808)  # the first path joins the two widowed mates; another path opens
def test_matching_oracle_against_exhaustive_search(n, density, seed):
    rng = random.Random(seed)
    met = [set() for _ in range(n)]
    for a in range(n):
        for b in range(a + 1, n):
            if rng.random() < density:
                met[a].add(b)
                met[b].add(a)
    oracle = MatchingOracle(n, met)
    assert oracle.size == brute_force_matching(n, met, list(range(n)))
    if n >= 4:
        a, b = rng.sample(range(n), 2)
        rest = [v for v in range(n) if v not in (a, b)]
        assert oracle.size_without(a, b) == brute_force_matching(n, met, rest)
        assert oracle.size == brute_force_matching(n, met, list(range(n)))  # unchanged
        assert oracle.remove_pair(a, b) == brute_force_matching(n, met, rest)


def test_ex29_backtracking():
    scores = {1: (0, 8), 2: (9, 8), 3: (-21, 8), 4: (12, 8), 5: (0, 8), 6: (9, 6)}
    standings = [Standing(p, s, b) for p, (s, b) in scores.items()]
    history = [[1, 2], [3, 4], [5, 6], [3, 5], [1, 4], [2, 6]]
    pairing = pair_round(standings, history)
    assert pairing.order == [4, 2, 6, 1, 5, 3]
    assert pairing.tables == [(4, 2), (6, 3), (1, 5)] and pairing.rematches == 0


def test_ex30_forced_rematch_goes_down():
    standings = [Standing(p, 0, 0) for p in range(1, 7)]
    history = [[1, 2], [3, 5], [4, 6], [1, 5], [3, 6], [4, 2], [1, 6], [3, 2], [4, 5]]
    pairing = pair_round(standings, history)
    assert pairing.tables == [(1, 3), (2, 5), (4, 6)] and pairing.rematches == 1


def test_exact_scores_decide_the_order():
    # 100/3 + 200/3 = 100 exactly; as floats the two sums differ in the last bit
    tied = [Standing(1, Fraction(100, 3) + Fraction(200, 3), 2), Standing(2, Fraction(100), 2)]
    assert [s.pair for s in standing_order(reversed(tied))] == [1, 2]


def test_bye_goes_to_the_lowest_pair_with_fewest_byes():
    ordered = standing_order(
        [
            Standing(1, 55, 6),
            Standing(2, 48, 6),
            Standing(3, 47, 3, 1),
            Standing(4, 51, 6),
            Standing(5, 40, 3, 1),
        ]
    )
    assert choose_bye(ordered) == 2
    assert choose_bye(ordered[:4]) is None


def test_registration_refusals():
    result = register(
        [
            ("ann", "bob"),
            ("cat", "dan"),
            ("bob", "ann"),
            ("eve", "ann"),
            ("fay", "fay"),
            ("gus", "hal"),
        ]
    )
    assert result.accepted == [True, True, False, False, False, True]
    assert [p.players for p in result.pairs] == [("ann", "bob"), ("cat", "dan"), ("gus", "hal")]


def test_bad_pairing_input():
    with pytest.raises(EventInputError, match="twice"):
        pair_round([Standing(1, 0, 0), Standing(1, 0, 0)], [])
    with pytest.raises(EventInputError, match="history\\[0\\]"):
        pair_round([Standing(1, 0, 0), Standing(2, 0, 0)], [[1, 2, 3]])


@pytest.mark.parametrize("seed", range(12))
def test_dense_fields_match_the_rules_own_procedure(seed):
    from engines.events.swiss_reference import reference_seat

    rng = random.Random(seed)
    n = 14 + 2 * (seed % 2)
    density = (0.7, 0.85, 0.93)[seed % 3]
    history = [
        [a, b] for a in range(1, n + 1) for b in range(a + 1, n + 1) if rng.random() < density
    ]
    ids = list(range(1, n + 1))
    rng.shuffle(ids)
    assert seat(ids, history) == reference_seat(ids, history)
