"""Random valid table sets and positions for the oracle tests of house-rule tile sets, and
the comparison of the search's answer with the oracle's."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from rummikub_ip_reference import reference_move, validate_variant_set

from engines.rummikub import best_move, best_moves
from engines.rummikub.position import Position, check_move
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile


def random_set(rng: random.Random, rules: Rules, pool: Counter, jokers: int, *,
               run_when_few_colours: bool = False):
    """A random valid set drawn from ``pool`` (None if this draw does not fit).

    A run 60 % of the time, else a group; with fewer than three colours (or fewer than
    ``rules.min_set_length``) no group exists, so the draw is either a run
    (``run_when_few_colours``) or None.  Runs are 3..5 tiles long (L..L+2 for sets of L).
    Jokers stand in for tiles of the shape (more often under official retrieval, where table
    jokers matter most).
    """
    letters = ALL_COLOURS[: rules.colours]
    shortest = rules.min_set_length  # (3: the draws of the rules document's sets)
    if rng.random() < 0.6 or (run_when_few_colours and rules.colours < 3):
        if shortest > rules.numbers:
            return None
        length = rng.randint(shortest, min(shortest + 2, rules.numbers))
        colour = rng.choice(letters)
        start = rng.randint(1, rules.numbers - length + 1)
        shape = [Tile(colour, n) for n in range(start, start + length)]
    else:
        if rules.colours < max(3, shortest):
            return None
        number = rng.randint(1, rules.numbers)
        colours = rng.sample(letters, rng.randint(max(3, shortest), rules.colours))
        shape = [Tile(c, number) for c in colours]
    use = [rng.random() < (0.35 if rules.joker_retrieval == "official" else 0.2)
           for _ in shape]
    real = [t for t, u in zip(shape, use) if not u]
    if sum(use) > jokers or len(real) < rules.min_real_tiles or Counter(real) - pool:
        return None
    return [JOKER if u else t for t, u in zip(shape, use)]


def official_rules(jokers: int, most_copies: int):
    """A ``draw_rules`` for :func:`random_case`: official retrieval with ``jokers`` jokers,
    3-4 colours, 5-13 numbers, 1 to ``most_copies`` copies, a random initial meld."""
    def draw(rng: random.Random, least: bool) -> Rules:
        return Rules(jokers=jokers, joker_retrieval="official", least_disturbance=least,
                     colours=rng.randint(3, 4), numbers=rng.randint(5, 13),
                     copies=rng.randint(1, most_copies), meld_threshold=rng.choice((0, 10, 30)),
                     meld_joker=rng.choice(("stands-for", "zero")))
    return draw


def random_table_and_rack(rng: random.Random, rules: Rules, most_sets: int, most_rack: int,
                          rack_jokers: float) -> tuple[list, list]:
    """Up to ``most_sets`` random table sets of the rules' tile set, then a rack of 1 to
    ``most_rack`` of the tiles left, each joker left going to it with ``rack_jokers``
    probability."""
    letters = ALL_COLOURS[: rules.colours]
    pool = Counter({Tile(c, n): rules.copies for c in letters
                    for n in range(1, rules.numbers + 1)})
    jokers = rules.jokers
    table = []
    for _ in range(rng.randint(0, most_sets)):
        s = random_set(rng, rules, pool, jokers)
        if s is None:
            continue
        table.append(s)
        pool -= Counter(t for t in s if not t.is_joker)
        jokers -= sum(t.is_joker for t in s)
    left = [t for t, k in pool.items() for _ in range(k)]
    rack = rng.sample(left, min(len(left), rng.randint(1, most_rack)))
    rack += [JOKER] * sum(rng.random() < rack_jokers for _ in range(jokers))
    return table, rack


def random_case(draw_rules, seed: int, least: bool = False, few: bool = False,
                few_most: int = 5, most_rack: int = 12, rack_jokers: float = 0.8,
                small_rack: int = 5):
    """A random position under ``draw_rules(rng, least)``: up to 3 or 10 table sets and a
    rack of up to ``small_rack`` or ``most_rack`` tiles (each joker not on the table on it with
    ``rack_jokers`` probability), melded with 3 in 4; ``few``: every joker not on the table
    on the rack, beside one to ``few_most`` real tiles (where the runs short of real tiles
    are two real tiles per set's only threat)."""
    rng = random.Random(seed)
    rules = draw_rules(rng, least)
    if few:
        table, rack = random_table_and_rack(rng, rules, 2, rng.randint(1, few_most), 1.0)
    else:
        small = rng.random() < 0.5
        table, rack = random_table_and_rack(rng, rules, 3 if small else 10,
                                            small_rack if small else most_rack, rack_jokers)
    return rules, table, rack, rng.random() < 0.75


def oracle_tests(draw_rules, match: tuple[int, int], few: tuple[int, int],
                 least: tuple[int, int], *, least_few: bool = True, **case):
    """The three parametrised oracle tests of a house rule's random positions, for a test
    module to bind to its test names: ``(seeds, first seed)`` each of random positions
    (:func:`oracle_and_batch`), positions with few real tiles (``few``, likewise) and least
    disturbance on (:func:`same_as_the_oracle`; with ``least_few`` every other seed with few
    real tiles).  ``case``: :func:`random_case`'s draw options."""
    @pytest.mark.parametrize("seed", range(match[0]))
    def random_positions(seed):
        oracle_and_batch(*random_case(draw_rules, seed + match[1], **case))

    @pytest.mark.parametrize("seed", range(few[0]))
    def few_real_tiles(seed):
        oracle_and_batch(*random_case(draw_rules, seed + few[1], few=True, **case))

    @pytest.mark.parametrize("seed", range(least[0]))
    def least_disturbance(seed):
        same_as_the_oracle(*random_case(draw_rules, seed + least[1], least=True,
                                        few=least_few and seed % 2 == 1, **case))

    return random_positions, few_real_tiles, least_disturbance


def check_answer(rules: Rules, table, rack, melded: bool, move) -> None:
    """``move`` plays rack tiles, keeps every table tile (melded), and its sets and the move
    are valid under ``rules`` (the oracle's set reader, ``check_move``)."""
    before = Counter(t for s in table for t in s) + Counter(move.played)
    assert not Counter(move.played) - Counter(rack)
    if melded:
        assert Counter(s.tile for m in move.table for s in m) == before
    for i, m in enumerate(move.table):
        validate_variant_set([s.tile for s in m], rules, f"set {i}")
    pos = Position(table, rack, melded, **rules.position_limits())
    assert check_move(pos, move, rules) == [], (table, rack, move)


def same_as_the_oracle(rules: Rules, table, rack, melded: bool) -> None:
    """The search's optimum is the oracle's for both objectives (tiles, value, jokers played
    and, with least disturbance, the sets kept), and its answer is valid."""
    for objective in ("tiles", "value"):
        dp = best_move(table, rack, melded, objective, rules)
        ip = reference_move(table, rack, melded, objective, rules)[0]
        got, want = [(m.tiles, m.value, sum(t.is_joker for t in m.played),
                      m.sets_kept if rules.least_disturbance else 0) for m in (dp, ip)]
        assert got == want, (rules, table, rack, melded, objective)
        check_answer(rules, table, rack, melded, dp)


def brute_force_rack(rng: random.Random, spec, table, most_real: int) -> list:
    """A small rack for the brute force (``rummikub_variant_naive.Spec``): up to
    ``most_real`` of the real tiles that ``table`` (sets of ``(is_joker, colour, number)``)
    leaves, and two or more of the jokers it leaves."""
    used = Counter((c, k) for s in table for j, c, k in s if not j)
    pool = [(c, k) for c in spec.letters for k in range(1, spec.numbers + 1)
            for _ in range(spec.copies - used[(c, k)])]
    left_j = spec.jokers - sum(j for s in table for j, _, _ in s)
    return rng.sample(pool, rng.randint(0, most_real)) + ["J"] * rng.randint(2, left_j)


def same_as_brute_force(naive, spec, table, rack, melded: bool, objective: str,
                        rules: Rules) -> None:
    """The search's optimum under ``rules`` (threshold 0) is the brute force's (``naive``:
    ``rummikub_variant_naive.py``, on its ``spec``; with least disturbance the sets kept
    too), and each of its sets holds a real tile and ``spec.min_len`` tiles at least.
    ``table``: sets of ``(is_joker, colour, number)``; ``rack``: ``(colour, number)`` or
    ``"J"``."""
    text = [[f"{c}{n}" if not j else "J" for j, c, n in s] for s in table]
    move = best_move(text, ["J" if t == "J" else f"{t[0]}{t[1]}" for t in rack], melded,
                     objective, rules)
    best, kept, _moved = naive.brute(spec, table, [], Counter(rack), objective,
                                     melded=melded, threshold=0)
    played = Counter("J" if t.is_joker else (t.colour, t.number) for t in move.played)
    assert naive.score(played, objective) == best, (spec.__dict__, table, rack)
    assert not rules.least_disturbance or move.sets_kept == kept, (spec.__dict__, table, rack)
    for m in move.table:
        assert any(not s.tile.is_joker for s in m) and len(m) >= spec.min_len


def oracle_and_batch(rules: Rules, table, rack, melded: bool) -> None:
    """:func:`same_as_the_oracle`, and the same tiles through ``best_moves``."""
    same_as_the_oracle(rules, table, rack, melded)
    position = Position(table, rack, melded, **rules.position_limits())
    batch = best_moves([position], "tiles", rules=rules)[0]
    assert batch.tiles == best_move(table, rack, melded, "tiles", rules).tiles
