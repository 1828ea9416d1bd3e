"""Official joker retrieval with a third joker (``Rules(jokers=3, joker_retrieval="official")``).

The rules integer holds a third table joker's place (bits 42-51, ``_layout.place_of``), and
with three table jokers at one number the DP's cover of that number records 7 subsets, the
4 holding the third at key bits 49-52 (``_layout.COVER_HIGH_AT``, ``_official.cover``).
Random positions on random tile sets (3-4 colours, 5-13 numbers, 1-4 copies, one or two
real tiles per set, sets of 3), jokers on the table and the rack, melded or not, both
objectives, least disturbance on and off, and tables built with three jokers at one number
(run jokers of three colours, two group jokers and a run joker, two run jokers of one tile
beside a group joker, a group of three jokers; under two real tiles per set groups of two
real tiles and a joker; with three or four copies three run jokers of one tile): the
optimum (tiles, value, jokers played; with least disturbance the sets kept) is the integer
programme's, and the DP's table is valid under the rules.  Where a pass carries the second
key word (two real tiles per set, or three or four copies with the three at one number),
the cover's subsets holding the third joker are there (``_layout.COVER_PAIRED_AT``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest
from rummikub_random_sets import (
    check_answer,
    official_rules,
    oracle_and_batch,
    random_case,
    random_set,
    same_as_the_oracle,
)

from engines.rummikub import best_move, least
from engines.rummikub.retrieval import joker_places
from engines.rummikub.rules import Rules
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile, parse_tiles
from solvers.rummikub import _exact, rules_mode
from solvers.rummikub._layout import (
    COVER_AT,
    COVER_HIGH_AT,
    COVER_PAIRED_AT,
    SHORT_AT,
    SHORT_HIGH_AT,
    joker_place,
    second_word,
)
from solvers.rummikub._official import (
    cover_key,
    cover_key2,
    cover_of,
    held_places_proven,
    official_tables,
)

OFFICIAL3 = Rules(jokers=3, joker_retrieval="official", least_disturbance=False)
_rules = official_rules(3, 2)


@pytest.mark.parametrize("seed", range(60))
def test_official_three_jokers_match_the_oracle(seed):
    oracle_and_batch(*random_case(_rules, seed + 5100))


def _crossed_rules(rng: random.Random, least: bool) -> Rules:
    return Rules(jokers=3, joker_retrieval="official", least_disturbance=least,
                 colours=rng.randint(3, 4), numbers=rng.randint(5, 13),
                 copies=rng.randint(1, 4), min_real_tiles=rng.randint(1, 2),
                 meld_threshold=rng.choice((0, 10, 30)),
                 meld_joker=rng.choice(("stands-for", "zero")))


@pytest.mark.parametrize("seed", range(40))
def test_official_three_jokers_with_two_real_tiles_or_more_copies(seed):
    # (two real tiles per set, three or four copies: the cover's third-joker bits in word B)
    rules, table, rack, melded = random_case(_crossed_rules, seed + 5900, least=seed % 2 == 0,
                                             few=seed % 4 == 1)
    if seed % 2:
        oracle_and_batch(rules, table, rack, melded)
    else:
        same_as_the_oracle(rules, table, rack, melded)


@pytest.mark.parametrize("seed", range(30))
def test_official_three_jokers_with_least_disturbance(seed):
    same_as_the_oracle(*random_case(_rules, seed + 5300, least=True))


def _shapes(v: int, colours: str, rng: random.Random, rules: Rules) -> list[list[Tile]]:
    """Table sets holding three jokers that all stand at number ``v`` (2..12), valid under
    ``rules`` (two real tiles per set; three copies)."""
    a, b, c = rng.sample(colours, 3)
    run = lambda colour: [Tile(colour, v - 1), JOKER, Tile(colour, v + 1)]  # noqa: E731
    if rules.min_real_tiles == 2 or rules.copies > 2:
        kind = rng.choice((0, 1, 2, 3) if rules.copies > 2 else (0, 1, 2))
        if kind == 1:  # two groups of two real tiles and a joker, and a run joker
            return [[Tile(a, v), Tile(b, v), JOKER], [Tile(a, v), Tile(c, v), JOKER], run(b)]
        if kind == 3:  # three run jokers of one tile (three copies)
            return [run(a), run(a), run(a)]
        return [run(a), run(b), run(c)] if kind == 0 else [
            run(a), run(a), [Tile(b, v), Tile(c, v), JOKER]]
    kind = rng.randrange(4)
    if kind == 0:  # three run jokers, three colours
        return [run(a), run(b), run(c)]
    if kind == 1:  # two group jokers and a run joker of a colour the group lacks
        return [[Tile(a, v), JOKER, JOKER], run(b)]
    if kind == 2:  # two run jokers of one tile (two copies) and a group joker
        return [run(a), run(a), [Tile(b, v), Tile(c, v), JOKER]]
    return [[Tile(a, v), JOKER, JOKER, JOKER]] if len(colours) == 4 else [
        [Tile(a, v), JOKER, JOKER], run(b)]


def _three_at_one_number(seed: int, least: bool, min_real: int = 1, copies: int = 2):
    rng = random.Random(seed)
    rules = Rules(jokers=3, joker_retrieval="official", least_disturbance=least,
                  colours=rng.randint(3, 4), numbers=rng.randint(6, 13), copies=copies,
                  min_real_tiles=min_real)
    colours = ALL_COLOURS[: rules.colours]
    v = rng.randint(2, rules.numbers - 1)
    table = _shapes(v, colours, rng, rules)
    pool = Counter({Tile(c, n): copies for c in colours for n in range(1, rules.numbers + 1)})
    pool -= Counter(t for s in table for t in s if not t.is_joker)
    for _ in range(rng.randint(0, 4)):
        extra = random_set(rng, rules, pool, 0)
        if extra is not None:
            table.append(extra)
            pool -= Counter(extra)
    near = [t for t, k in pool.items() for _ in range(k) if abs(t.number - v) <= 2]
    rest = [t for t, k in pool.items() for _ in range(k) if abs(t.number - v) > 2]
    rack = rng.sample(near, rng.randint(1, min(7, len(near))))
    rack += rng.sample(rest, rng.randint(0, min(4, len(rest))))
    return rules, table, rack, rng.random() < 0.85


@pytest.mark.parametrize("seed", range(60))
def test_three_table_jokers_at_one_number(seed):
    same_as_the_oracle(*_three_at_one_number(seed + 5500, least=seed % 3 == 0))


@pytest.mark.parametrize("seed", range(60))
def test_three_table_jokers_at_one_number_two_real_tiles_or_more_copies(seed):
    # (two real tiles per set with two, three or four copies; one with three or four)
    min_real, copies = ((2, 2), (2, 3), (2, 4), (1, 3), (1, 4))[seed % 5]
    same_as_the_oracle(*_three_at_one_number(seed + 6100, seed % 3 == 0, min_real, copies))


def test_three_table_jokers_by_hand():
    # R5 J J and K4 J K6: three jokers at 5; K5 plays (into the run or the group)
    table = [parse_tiles("R5 J J"), parse_tiles("K4 J K6")]
    assert best_move(table, "K5", rules=OFFICIAL3).tiles == 1
    # R4 J R6, K4 J K6, O4 J O6: each run joker freed by its own tile only
    runs = [parse_tiles(f"{c}4 J {c}6") for c in "RKO"]
    assert best_move(runs, "B1 B2", rules=OFFICIAL3).tiles == 0
    free = best_move(runs, "B1 B2", rules=Rules(jokers=3, least_disturbance=False))
    assert free.tiles == 2  # (free retrieval: a joker completes B1 B2)
    assert best_move(runs, "R5 B1 B2", rules=OFFICIAL3).tiles == 3
    # the places: the third at bits 42-51, its number read like the first two
    places = joker_places(runs)
    mode = rules_mode(True, joker_places=places)
    tile, run, group, full = official_tables(mode)
    assert full[4] == 0b111 and [int(run[4, c]) for c in range(3)] == [2, 1, 4]  # (K R O)
    assert not group.any() and (tile == run).all()


@pytest.mark.parametrize(("min_real", "copies"), [(2, 2), (2, 4), (1, 3)])
def test_three_table_jokers_by_hand_two_real_tiles_or_more_copies(min_real, copies):
    rules = Rules(jokers=3, joker_retrieval="official", least_disturbance=False,
                  min_real_tiles=min_real, copies=copies)
    runs = [parse_tiles(f"{c}4 J {c}6") for c in "RKO"]
    assert best_move(runs, "B1 B2", rules=rules).tiles == 0
    assert best_move(runs, "B1 B2", rules=replace(rules, joker_retrieval="free")).tiles == 2
    assert best_move(runs, "R5 B1 B2", rules=rules).tiles == 3
    if copies > 2:  # R4 J R6 three times: each joker freed by an R5; B1 and all three
        three = [parse_tiles("R4 J R6")] * 3
        assert best_move(three, "R5 R5 R5 B1", rules=rules).tiles == (4 if min_real == 1 else 3)


@pytest.mark.parametrize("seed", range(20))
def test_three_places_read_backwards(seed):
    # (the reversed search, _exact.solve_either: each place at its number read backwards)
    rules, table, _rack, _melded = _three_at_one_number(seed + 5700, False)
    n = rules.numbers
    back = [[t if t.is_joker else Tile(t.colour, n + 1 - t.number) for t in reversed(s)]
            for s in table]
    mode = np.int64(rules.search_mode(True, table))
    assert _exact.turned_rules(mode, n) == rules.search_mode(True, back)
    assert len(joker_places(table)) == 3 and mode >> 42 & 1023


def test_the_cover_reads_the_third_jokers_bits_only_where_it_stands():
    # bits 49-52 hold the runs of jokers alone of sets of 2, or two real tiles' list,
    # at a number with at most two table jokers: not the cover's there
    key = np.int64(0b101) << COVER_AT | np.int64(0b1111) << COVER_HIGH_AT
    assert COVER_HIGH_AT >= SHORT_AT
    assert cover_of(key, 0, 0b11) == 0b101 and cover_of(key, 0, 0b111) == 0b1111101
    assert cover_key(0b1111101) == key and (cover_key(0b101) >> COVER_HIGH_AT) & 15 == 0


def test_the_cover_of_a_two_word_pass_keeps_the_third_jokers_bits_in_word_b():
    # word A's bits 45-54 hold the list of runs short of real tiles or n3, n4 there; word B
    # holds the list at 31-45, the cover's high bits past it
    second = np.zeros(1, np.int64)
    fam = 0b1011010
    key, key2 = cover_key(fam, second), cover_key2(fam)
    assert key == np.int64(0b010) << COVER_AT and key2 == np.int64(0b1011) << COVER_PAIRED_AT
    assert cover_of(key, key2, 0b111, second) == fam and cover_of(key, key2, 0b11, second) == 2
    assert COVER_PAIRED_AT >= SHORT_HIGH_AT + 15
    # the pass carries word B with three or four copies only where three places share a
    # number (two real tiles per set and three jokers: always)
    three = [joker_place(5, c) for c in range(3)]
    apart = [*three[:2], joker_place(6, 0)]
    assert second_word(rules_mode(True, joker_places=three, copies=3), 3)
    assert not second_word(rules_mode(True, joker_places=apart, copies=4), 3)
    assert not second_word(rules_mode(True, joker_places=three), 3)
    assert second_word(rules_mode(True, joker_places=apart, min_real=2), 3)


def test_held_places_proven_with_three_table_jokers():
    # two group jokers of 5 whose group lacks K O B (R5 J J) and one lacking B (K5 O5 R5 J):
    # held out the first set, the released joker may not take its tiles (K, O): not
    # proven; held out the second, the released ones may take B: proven
    table = [parse_tiles("R5 J J"), parse_tiles("K5 O5 R5 J")]
    mode = rules_mode(True, joker_places=joker_places(table))
    slot_colour = np.array([1, -1, -1, 0, 2, 1, -1], np.int64)
    set_start = np.array([0, 3, 7], np.int64)
    held = lambda *chosen: held_places_proven(  # noqa: E731
        mode, np.array(chosen, np.int64), slot_colour, set_start, 0, 2)
    assert not held(1, 0) and held(0, 1) and held(1, 1) and held(0, 0)


def test_no_refused_crossings_of_official_retrieval_with_a_third_joker():
    for copies in (2, 3, 4):
        for min_real in (1, 2):
            assert Rules(jokers=3, joker_retrieval="official", copies=copies,
                         min_real_tiles=min_real).unsupported() == []


def test_the_narrow_check_of_chosen_sets_numbers_their_jokers_as_the_whole_table(monkeypatch):
    # (_least._keeps_chosen's narrow pass, taken when the policy lacks KEPT_EXACT: its hold
    # tables over the chosen sets numbered their jokers from 0 at each number, the official
    # cover over the whole table; here the held-out B4 B5 J took the group joker's bit at
    # 6, and the group joker went to B5 J B7)
    monkeypatch.setattr(least, "KEPT_EXACT", 0)
    table = [parse_tiles(s) for s in ("K6 R6 B6 J", "K2 K3 J K5", "B4 K4 R4", "B4 B5 J",
                                      "O1 O2 O3 O4 O5", "K11 O11 R11")]
    rack = parse_tiles("B5 B7 B12 B11 B10 K9")
    rules = Rules(jokers=3, joker_retrieval="official", numbers=12, meld_threshold=0)
    move = best_move(table, rack, True, "tiles", rules)
    assert (move.tiles, move.sets_kept) == (5, 5)
    check_answer(rules, table, rack, True, move)
