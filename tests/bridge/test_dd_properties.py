"""Property tests: the solver against a brute-force minimax, metamorphic checks, fuzzing."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.bridge import (
    BridgeInputError,
    Card,
    DDTable,
    Deal,
    Hand,
    Seat,
    Strain,
    dd_table,
    dd_tables,
    solve_position,
)

DATA = Path(__file__).parent.parent / "data" / "bridge"


def _load_naive():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "naive_dd", Path(__file__).with_name("naive_dd.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.solve


naive_solve = _load_naive()
DEALS = [json.loads(line) for line in (DATA / "deals.jsonl").read_text().splitlines()]

SUIT_STRAINS = (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


def _random_hands(rng: random.Random, size: int) -> list[Hand]:
    """Four hands of ``size`` distinct random cards."""
    cards = rng.sample(range(52), 4 * size)
    return [
        Hand.from_cards(Card.from_index(i) for i in cards[k * size : (k + 1) * size])
        for k in range(4)
    ]


def random_position(
    seed: int, size: int, on_table: int | None = None
) -> tuple[Deal, Strain, Seat]:
    """Four hands of ``size`` cards dealt at random, then 0-3 legal cards of a trick."""
    rng = random.Random(seed)
    cards = rng.sample(range(52), 4 * size)
    hands = [set(Card.from_index(i) for i in cards[k * size : (k + 1) * size]) for k in range(4)]
    leader = Seat(rng.randrange(4))
    trick: list[Card] = []
    if on_table is None:
        on_table = rng.randrange(4) if size > 0 else 0
    for offset in range(on_table):
        hand = hands[(leader + offset) % 4]
        follow = sorted(c for c in hand if trick and c.suit == trick[0].suit)
        card = rng.choice(follow or sorted(hand))
        hand.remove(card)
        trick.append(card)
    deal = Deal([Hand.from_cards(h) for h in hands], leader=leader, trick=trick)
    return deal, Strain(rng.randrange(5)), leader


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**31), st.integers(1, 5))
def test_end_positions_agree_with_brute_force(seed: int, size: int) -> None:
    deal, strain, leader = random_position(seed, size)
    got = solve_position(deal, strain)
    hands = tuple(frozenset((c.suit, c.rank) for c in hand) for hand in deal.hands)
    trump = strain.suit_index if strain != Strain.NOTRUMP else 4
    expected = naive_solve(hands, trump, int(leader), tuple((c.suit, c.rank) for c in deal.trick))
    assert {(c.suit, c.rank): v for c, v in got.items()} == expected


@pytest.mark.parametrize("on_table", [1, 3])
def test_every_card_in_a_trick_agrees_with_brute_force(on_table: int) -> None:
    """Many positions with cards on the table: the root shares a score between cards of
    a suit only when its searches prove it (not when the card completes the trick, whose
    winner the search below never sees); these caught a root that did."""
    for seed in range(150):
        deal, strain, leader = random_position(seed, 2 + seed % 3, on_table)
        got = {(c.suit, c.rank): v for c, v in solve_position(deal, strain).items()}
        hands = tuple(frozenset((c.suit, c.rank) for c in hand) for hand in deal.hands)
        trump = strain.suit_index if strain != Strain.NOTRUMP else 4
        trick = tuple((c.suit, c.rank) for c in deal.trick)
        assert got == naive_solve(hands, trump, int(leader), trick), (seed, deal.to_pbn())


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31), st.integers(2, 4))
def test_table_of_end_positions_agrees_with_brute_force(seed: int, size: int) -> None:
    hands = _random_hands(random.Random(seed), size)
    table = dd_table(Deal(hands))
    frozen = tuple(frozenset((c.suit, c.rank) for c in hand) for hand in hands)
    for strain in Strain:
        trump = strain.suit_index if strain != Strain.NOTRUMP else 4
        for declarer in Seat:
            leader = declarer.next
            best = max(naive_solve(frozen, trump, int(leader), ()).values())
            assert table[strain][declarer] == size - best


def _rotate(deal: Deal, by: int) -> Deal:
    """Every hand moves ``by`` seats clockwise."""
    return Deal([deal.hands[(seat - by) % 4] for seat in range(4)])


def _swap_suits(deal: Deal, a: int, b: int) -> Deal:
    hands = []
    for hand in deal.hands:
        masks = list(hand.masks)
        masks[a], masks[b] = masks[b], masks[a]
        hands.append(Hand(masks))
    return Deal(hands)


# fast deals of the corpus (well under a second a table) keep the metamorphic checks cheap
FAST_DEALS = [DEALS[1]["pbn"], DEALS[151]["pbn"]]


@pytest.mark.parametrize("pbn", FAST_DEALS)
def test_rotating_seats_rotates_the_table(pbn: str) -> None:
    deal = Deal.from_pbn(pbn)
    table = dd_table(deal)
    rotated = dd_table(_rotate(deal, 1))
    for strain in Strain:
        for seat in Seat:
            assert rotated[strain][seat.next] == table[strain][seat]


@pytest.mark.parametrize("pbn", FAST_DEALS)
def test_swapping_suits_swaps_columns(pbn: str) -> None:
    deal = Deal.from_pbn(pbn)
    table = dd_table(deal)
    swapped = dd_table(_swap_suits(deal, 0, 3))  # spades <-> clubs
    assert swapped["NT"] == table["NT"]
    assert swapped["S"] == table["C"] and swapped["C"] == table["S"]
    assert swapped["H"] == table["H"] and swapped["D"] == table["D"]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31), st.integers(4, 7))
def test_metamorphic_on_random_partial_deals(seed: int, size: int) -> None:
    rng = random.Random(seed)
    deal = Deal(_random_hands(rng, size))
    a, b = rng.sample(range(4), 2)
    by = rng.randrange(1, 4)
    table, rotated, swapped = dd_tables([deal, _rotate(deal, by), _swap_suits(deal, a, b)], 2)
    strain_of = {s.suit_index: s for s in SUIT_STRAINS}
    for strain in Strain:
        for seat in Seat:
            assert rotated[strain][Seat((seat + by) % 4)] == table[strain][seat]
            other = strain
            if strain != Strain.NOTRUMP and strain.suit_index in (a, b):
                other = strain_of[b if strain.suit_index == a else a]
            assert swapped[other][seat] == table[strain][seat]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31), st.integers(4, 7))
def test_best_card_equals_position_value(seed: int, size: int) -> None:
    """The best opening lead's value is the table entry of declarer on the leader's right."""
    rng = random.Random(seed)
    deal = Deal(_random_hands(rng, size))
    table = dd_table(deal)
    strain = Strain(rng.randrange(5))
    leader = Seat(rng.randrange(4))
    values = solve_position(deal, strain, leader)
    declarer = Seat((leader + 3) % 4)
    assert max(values.values()) == size - table[strain][declarer]
    # and after the best card, the next player's best reply gives the same value back
    card = max(values, key=values.get)
    rest = list(deal.hands)
    rest[leader] = Hand.from_cards(c for c in deal.hands[leader] if c != card)
    replies = solve_position(Deal(rest), strain, leader, [card])
    assert size - max(replies.values()) == values[card]


def test_batch_equals_one_by_one_and_sizes() -> None:
    rng = random.Random(7)
    deals = []
    for _ in range(9):
        deals.append(Deal(_random_hands(rng, 5)))
    one = [dd_table(d) for d in deals]
    assert dd_tables(deals, threads=2) == one
    assert dd_tables(deals, threads=1, chunk=4) == one
    assert dd_tables([]) == []
    with pytest.raises(BridgeInputError):
        dd_tables(deals, threads=0)


# --- bad input never reaches the native code -------------------------------------------------


@pytest.mark.parametrize(
    ("pbn", "match"),
    [
        ("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ8", "hand size"),
        ("N:AKQJ.T98.765.432 AKQJ.T98.765.432 65432.J76.AKQ.T9 .5432.JT98.AKQ87", "duplicate"),
        ("N:... ... ... ...", "no cards"),
        ("N:AKQJ.T98.765.43", "four hands"),
    ],
)
def test_dd_table_rejects_bad_deals(pbn: str, match: str) -> None:
    with pytest.raises(BridgeInputError, match=match):
        dd_table(pbn)


def test_solve_position_rejects_bad_tricks() -> None:
    with pytest.raises(BridgeInputError, match="bad current trick"):
        solve_position("N:A... K... Q2... J3...", "NT", "N", ["S5", "H4"])
    with pytest.raises(BridgeInputError, match="leader"):
        solve_position("N:A... K... Q... J...", "NT")
    with pytest.raises(BridgeInputError, match="strain"):
        solve_position("N:A... K... Q... J...", "X", "N")
    with pytest.raises(BridgeInputError, match="trick"):
        dd_table(Deal.from_pbn("N:A... K... Q2... J3...", leader=Seat.NORTH, trick=["S5", "S4"]))


def test_kernel_checks_shapes() -> None:
    from solvers.bridge import dd_table as kernel

    with pytest.raises(ValueError):
        kernel(np.zeros((3, 4), dtype=np.uint16))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=70),
        st.sampled_from(["N:AK... Q2... JT... 43...", "N:A.K.. Q.2.. J.3.. T.4..", "S:A... - - -"]),
    ),
    st.text(max_size=3),
    st.text(max_size=2),
    st.lists(st.text(max_size=3), max_size=5),
)
def test_fuzz_public_entry_points(pbn: str, trump: str, leader: str, trick: list[str]) -> None:
    with contextlib.suppress(BridgeInputError):
        solve_position(pbn, trump, leader, trick)
    with contextlib.suppress(BridgeInputError):
        dd_table(pbn)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=16), st.integers(0, 3))
def test_fuzz_card_lists(indexes: list[int], leader: int) -> None:
    cards = [Card.from_index(i) for i in indexes]
    hands = [Hand.from_cards(cards[k::4]) for k in range(4)]
    deal = Deal(hands)
    try:
        table = dd_table(deal)
    except BridgeInputError:
        return
    assert all(0 <= v <= len(hands[0]) for row in table.values() for v in row.values())


@pytest.mark.parametrize("features", [0, 1, 3, 7, 15])
def test_each_search_feature_is_exact(features: int) -> None:
    """TT, quick tricks, later tricks, small-card pruning switched on one by one."""
    from solvers.bridge import _ab_search

    for seed in range(25):
        deal, strain, leader = random_position(1000 + seed, 4)
        trick = np.array([[c.suit, c.rank - 2] for c in deal.trick], dtype=np.int32)
        suits, ranks, values = _ab_search.solve_position(
            np.array(Deal(deal.hands).masks(), dtype=np.uint16),
            strain.suit_index,
            int(leader),
            trick.reshape(-1, 2),
            features=features,
        )
        got = {(int(s), int(r) + 2): int(v) for s, r, v in zip(suits, ranks, values)}
        hands = tuple(frozenset((c.suit, c.rank) for c in hand) for hand in deal.hands)
        trump = strain.suit_index if strain != Strain.NOTRUMP else 4
        played = tuple((c.suit, c.rank) for c in deal.trick)
        expected = naive_solve(hands, trump, int(leader), played)
        assert got == expected


def test_table_size_is_configurable_and_answers_stay_exact() -> None:
    from solvers.bridge import _ab_search

    record = DEALS[1]
    masks = np.array(Deal.from_pbn(record["pbn"]).masks(), dtype=np.uint16)
    small = _ab_search.dd_table(masks, tt_bits=10)
    assert DDTable(small).to_dict() == record["dd"]
    assert _ab_search.table_bytes(10) < _ab_search.table_bytes(20) / 500
    with pytest.raises(ValueError, match="tt_bits"):
        _ab_search.dd_table(masks, tt_bits=40)


def test_the_kept_context_starts_every_call_empty() -> None:
    """A call reuses the previous call's context: same answers and counts as a fresh one,
    whatever the previous call searched (features, another deal, another table size)."""
    from solvers.bridge import _ab_search

    masks = [np.array(Deal.from_pbn(DEALS[i]["pbn"]).masks(), dtype=np.uint16) for i in (1, 151)]
    empty = np.zeros((0, 2), dtype=np.int32)

    def lead(hands: np.ndarray) -> tuple[list[int], int, int]:
        stats: dict = {}
        values = _ab_search.solve_position(hands, 4, 3, empty, stats)[2].tolist()
        return values, stats["nodes"], stats["tt_stores"]

    _ab_search.drop_kept_table()
    fresh = lead(masks[0])
    _ab_search.dd_table(masks[1], features=5)
    assert lead(masks[0]) == fresh
    _ab_search.leader_tricks(masks[1], 0, 2, tt_bits=12)
    assert lead(masks[0]) == lead(masks[0]) == fresh


def test_the_threads_contexts_share_no_cache_line() -> None:
    """A batch's threads each write their own search context at every card: contexts
    taken one after the other must not share a cache line (plain ``malloc`` put one's
    counters on the line of the next one's hands: 2 threads took ~15 % more CPU)."""
    from solvers.bridge import _ab_search

    for count in (2, 3, 4):
        contexts = _ab_search.kernel.batch_contexts(count)
        assert len(contexts) == count
        lines = set()
        for address, size in contexts:
            assert address % 64 == 0
            mine = set(range(address // 64, (address + size + 63) // 64))
            assert not lines & mine
            lines |= mine


def test_threads_above_the_cores_are_capped_and_memory_stays_bounded() -> None:
    """Each thread owns one table: asking for 10**6 threads must neither allocate 10**6
    tables nor overflow; the answers stay exact."""
    import resource
    import subprocess
    import sys

    script = (
        "import resource, json, sys\n"
        "from engines.bridge import dd_tables\n"
        "deals = [json.loads(l)['pbn'] for l in open(sys.argv[1]).read().splitlines()[:2]]\n"
        "for threads in (10**6, 2**31):\n"
        "    tables = dd_tables(deals, threads=threads, table_mb=8)\n"
        "    print(json.dumps([t.to_dict() for t in tables]))\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    limit = 3 * 2**30  # address space: far below what one table per requested thread needs

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    out = subprocess.run(
        [sys.executable, "-c", script, str(DATA / "deals.jsonl")],
        capture_output=True,
        text=True,
        preexec_fn=cap,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    expected = [DEALS[0]["dd"], DEALS[1]["dd"]]
    assert [json.loads(line) for line in lines[:2]] == [expected, expected]


@pytest.mark.parametrize("bad", [1.5, True, "2", 0, -3])
def test_bad_thread_counts_are_refused(bad: object) -> None:
    with pytest.raises(BridgeInputError, match="threads"):
        dd_tables([DEALS[0]["pbn"]], threads=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0.001, "big", float("nan"), -1])
def test_bad_table_sizes_are_refused(bad: object) -> None:
    with pytest.raises(BridgeInputError, match="table_mb"):
        dd_tables([DEALS[0]["pbn"]], table_mb=bad)  # type: ignore[arg-type]


def _short_suit_ending(rng: random.Random, size: int) -> Deal:
    """Four hands of ``size`` cards from two suits: long suits with guarded
    second-best cards, where the later-tricks count of a guarded suit decides often."""
    suits = rng.sample(range(4), 2)
    cards = rng.sample([Card(s, r) for s in suits for r in range(2, 15)], 4 * size)
    return Deal([Hand.from_cards(cards[k * size : (k + 1) * size]) for k in range(4)])


def test_notrump_endings_in_two_suits_agree_with_brute_force() -> None:
    """Notrump endings where the leader's side often needs every trick and a suit it tops
    is guarded by an opponent (_later_tricks._guarded_suit): exact against the minimax."""
    rng = random.Random(17)
    for k in range(150):
        deal = _short_suit_ending(rng, 3 + k % 2)
        leader = Seat(rng.randrange(4))
        got = {(c.suit, c.rank): v for c, v in solve_position(deal, Strain.NOTRUMP, leader).items()}
        hands = tuple(frozenset((c.suit, c.rank) for c in hand) for hand in deal.hands)
        assert got == naive_solve(hands, 4, int(leader), ()), (k, deal.to_pbn())
