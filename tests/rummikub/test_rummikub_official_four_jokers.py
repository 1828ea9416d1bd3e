"""Official joker retrieval with a fourth joker (``Rules(jokers=4, joker_retrieval="official")``).

The rules integer holds a fourth table joker's place (bits 52-61, ``_layout.place_of``),
and with four table jokers at one number the DP's cover of that number records 15
subsets: the 3 of the first two jokers at key bits 55-57 (``_layout.COVER_AT``), the 12
holding the third or the fourth in the second key word, which a fourth joker's passes
always carry (bits 46-57, ``_layout.COVER_PAIRED_AT``).  Random positions on random tile
sets (3-4 colours, 5-13 numbers, 1-3 copies, sets of 3), jokers on the table and the rack,
melded or not, both objectives, least disturbance on and off, and tables built with three
or four jokers at one number (run jokers of four colours, two run jokers of each of two
tiles, group jokers beside run jokers, a group of three jokers, three run jokers of one
tile beside a group joker): the optimum (tiles, value, jokers played; with least
disturbance the sets kept) is the integer programme's, and the DP's table is valid under
the rules.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
import rummikub_random_sets as sets

from engines.rummikub import Rules, best_move
from engines.rummikub.errors import RuleError
from engines.rummikub.retrieval import joker_places
from engines.rummikub.tiles import ALL_COLOURS, JOKER, Tile, parse_tiles
from solvers.rummikub import _exact, _layout, _official, rules_mode

OFFICIAL4 = Rules(jokers=4, joker_retrieval="official", least_disturbance=False)
_draw = sets.official_rules(4, 3)


@pytest.mark.parametrize("seed", range(70))
def test_random_positions_match_the_oracle(seed):
    # seeds 0-49 least disturbance off (every tenth few real tiles; the batch path too),
    # 50-69 on
    if seed < 50:
        sets.oracle_and_batch(*sets.random_case(_draw, seed + 7100, few=seed % 5 == 1))
    else:
        sets.same_as_the_oracle(*sets.random_case(_draw, seed - 50 + 7300, least=True))


def _shapes(v: int, colours: str, rng: random.Random, rules: Rules) -> list[list[Tile]]:
    """Table sets whose jokers (three or four) all stand at number ``v`` (2..numbers-1),
    valid under ``rules`` (two or three copies)."""
    a, b, c = rng.sample(colours, 3)
    d = next((x for x in colours if x not in (a, b, c)), a)  # (three colours: a again)
    run = lambda colour: [Tile(colour, v - 1), JOKER, Tile(colour, v + 1)]  # noqa: E731
    kind = rng.randrange(7 if rules.copies > 2 else 6)
    if kind == 0:  # four run jokers (four colours, or two of one tile)
        return [run(a), run(b), run(c), run(d)]
    if kind == 1:  # two run jokers of each of two tiles
        return [run(a), run(a), run(b), run(b)]
    if kind == 2:  # two group jokers and two run jokers
        return [[Tile(a, v), JOKER, JOKER], run(b), run(c)]
    if kind == 3:  # two groups of a joker each, two run jokers
        return [[Tile(a, v), Tile(b, v), JOKER], [Tile(a, v), Tile(c, v), JOKER], run(b), run(c)]
    if kind == 4:  # two groups of two jokers each
        return [[Tile(a, v), JOKER, JOKER], [Tile(b, v), JOKER, JOKER]]
    if kind == 5:  # a group of three jokers (four colours) and a run joker; else three at v
        return ([[Tile(a, v), JOKER, JOKER, JOKER], run(b)] if len(colours) == 4
                else [run(a), run(b), [Tile(a, v), Tile(c, v), JOKER]])
    return [run(a), run(a), run(a), [Tile(b, v), Tile(c, v), JOKER]]  # (three copies)


def _jokers_at_one_number(seed: int, least: bool):
    rng = random.Random(seed)
    rules = Rules(jokers=4, joker_retrieval="official", least_disturbance=least,
                  colours=rng.randint(3, 4), numbers=rng.randint(6, 13),
                  copies=rng.randint(2, 3), meld_threshold=rng.choice((0, 10, 30)))
    colours = ALL_COLOURS[: rules.colours]
    v = rng.randint(2, rules.numbers - 1)
    table = _shapes(v, colours, rng, rules)
    pool = Counter({Tile(c, n): rules.copies for c in colours for n in range(1, rules.numbers + 1)})
    pool -= Counter(t for s in table for t in s if not t.is_joker)
    jokers = rules.jokers - sum(t.is_joker for s in table for t in s)
    for _ in range(rng.randint(0, 4)):
        extra = sets.random_set(rng, rules, pool, jokers)
        if extra is not None:
            table.append(extra)
            pool -= Counter(t for t in extra if not t.is_joker)
            jokers -= sum(t.is_joker for t in extra)
    near = [t for t, k in pool.items() for _ in range(k) if abs(t.number - v) <= 2]
    rest = [t for t, k in pool.items() for _ in range(k) if abs(t.number - v) > 2]
    rack = rng.sample(near, rng.randint(1, min(7, len(near))))
    rack += rng.sample(rest, rng.randint(0, min(4, len(rest))))
    rack += [JOKER] * jokers
    return rules, table, rack, rng.random() < 0.85


@pytest.mark.parametrize("seed", range(60))
def test_table_jokers_at_one_number(seed):
    sets.same_as_the_oracle(*_jokers_at_one_number(seed + 7500, least=seed % 3 == 0))


RUNS = [parse_tiles(f"{c}4 J {c}6") for c in "RKOB"]  # four run jokers at 5, one a colour


def test_four_table_jokers_by_hand():
    # each run joker freed only by its own tile; the four must all be accounted for
    assert best_move(RUNS, "B1 B2", rules=OFFICIAL4).tiles == 0
    free = Rules(jokers=4, least_disturbance=False)
    assert best_move(RUNS, "B1 B2", rules=free).tiles == 2  # (free: groups at 4 and 6)
    assert best_move(RUNS, "R5 B1 B2", rules=OFFICIAL4).tiles == 3
    # R5 K5 O5 free three jokers, B4 J B6's stays: B1 B2 take one of them
    assert best_move(RUNS, "R5 K5 O5 B1 B2", rules=OFFICIAL4).tiles == 5
    assert best_move(RUNS, "R5 K5 O5 B5 B1 B2", rules=OFFICIAL4).tiles == 6
    # two group jokers of 7 (R7 J J: lacking K O B) and two run jokers at 7
    table = [parse_tiles("R7 J J"), parse_tiles("K6 J K8"), parse_tiles("O6 J O8")]
    assert best_move(table, "B7 B1 B2", rules=OFFICIAL4).tiles == 3  # B7 frees a group joker
    assert best_move(table, "B1 B2", rules=OFFICIAL4).tiles == 0
    # the fourth place read apart from the third: B8 frees B7 J B9's joker only
    table = [*RUNS[:3], parse_tiles("B7 J B9")]
    assert best_move(table, "B8 B1 B2", rules=OFFICIAL4).tiles == 3
    assert best_move(table, "B5 B1 B2", rules=OFFICIAL4).tiles == 0


def test_the_fourth_place_and_its_number():
    places = joker_places(RUNS)
    assert len(places) == 4
    mode = rules_mode(True, joker_places=places)
    assert [int(_layout.place_of(mode, k)) for k in range(4)] == list(places)
    assert mode >> 52 & 1023 == places[3] and mode >> 62 == 0
    tile, run, group, full = _official.official_tables(mode)
    assert full[4] == 0b1111 and [int(run[4, c]) for c in range(4)] == [2, 1, 4, 8]  # K R O B
    assert not group.any() and (tile == run).all() and not full[:4].any()
    apart = (*places[:3], _layout.joker_place(8, 3))
    tile, run, group, full = _official.official_tables(rules_mode(True, joker_places=apart))
    assert full[4] == 0b111 and full[7] == 0b1 and run[7, 3] == 1


def test_the_fourth_place_read_backwards():
    # (the reversed search, _exact.solve_either: each place at its number read backwards)
    table = [*RUNS[:3], parse_tiles("B7 J B9")]
    back = [[t if t.is_joker else Tile(t.colour, 14 - t.number) for t in reversed(s)]
            for s in table]
    mode = np.int64(OFFICIAL4.search_mode(True, table))
    assert _exact.turned_rules(mode, 13) == OFFICIAL4.search_mode(True, back)


def test_the_cover_of_four_table_jokers():
    # four jokers: 15 subsets; each joker's resource adds it to the subsets lacking it
    assert _official.cover(0, 0b1111, 4) == (1 << 15) - 1
    assert _official.cover(0, 0b1000, 4) == 1 << 7  # (the fourth alone: subset 8)
    assert _official.cover(_official.cover(0, 0b0111, 3), 0b1000, 1) == (1 << 15) - 1
    # the family's 3 low bits in word A, its 12 others (with the third or fourth) in word B
    second = np.zeros(1, np.int64)
    fam = 0b101100111010110
    key, key2 = _official.cover_key(fam, second), _official.cover_key2(fam)
    paired_at = _layout.COVER_PAIRED_AT
    assert key == np.int64(0b110) << _layout.COVER_AT and key2 >> paired_at == fam >> 3
    assert paired_at + _layout.COVER_PAIRED_BITS <= 63 and paired_at > _layout.RISKY_AT + 10
    assert _official.cover_of(key, key2, 0b1111, second) == fam
    # read only as far as the number's jokers go: three jokers, 7 subsets
    assert _official.cover_of(key, key2, 0b111, second) == fam & 127
    assert _official.cover_of(key, key2, 0b11, second) == 0b110


def test_official_with_a_fourth_joker_is_solved_and_its_limits_kept():
    for copies in (1, 2, 3):
        assert Rules(jokers=4, joker_retrieval="official", copies=copies).unsupported() == []
    assert Rules(jokers=4, joker_retrieval="official", meld_threshold=0,
                 meld_joker="zero").unsupported() == []
    assert Rules(jokers=4, joker_retrieval="official", min_real_tiles=2).unsupported() == []
    for options, message in ((["copies=4"], "jokers=4 with copies=4"),
                             (["meld_continue=on"], "jokers=4 with meld_continue=true"),
                             (["min_set_length=4"], "jokers=4 with min_set_length=4")):
        rules = Rules.parse(["jokers=4", "joker_retrieval=official", *options])
        with pytest.raises(RuleError, match=f"rule {message} is not supported"):
            best_move([], "J J J J R5", rules=rules)
