"""Table sets with the same future (runs of one colour going on to the same end): the hold
layer holds out the lowest bits of their class, so states that differ only in which of them
they hold merge (``solvers.rummikub._hold.twin_classes``, ``canonical_key``).  Checked on a
hand table, and least disturbance on small tables of such runs against brute force (the
optimum and the most table sets kept)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from rummikub_least_brute import check_least_against_brute, naive, runs_table

from engines.rummikub import Position, least
from engines.rummikub.rules import Rules
from solvers.rummikub._hold import canonical_key, twin_classes
from solvers.rummikub._layout import hold_field, hold_key


def _bit_of(tables, first: int) -> int:
    """The field bit of the table set starting at number ``first`` (one there)."""
    return int(tables[3][first - 1, 0])


def test_runs_ending_together_are_one_class_from_their_common_numbers() -> None:
    # R1-R5 and R3-R5 both go on into 4 and 5 with the same tiles; R2-R4 ends earlier
    # and B6-B8 is alone
    rules = Rules(copies=3)
    pos = Position.from_strings(["R1 R2 R3 R4 R5", "R2 R3 R4", "R3 R4 R5", "B6 B7 B8"], "",
                                **rules.position_limits())
    tables = least.hold_tables(list(pos.table), rules)
    twins = twin_classes(*tables[:3])
    pair = 1 << _bit_of(tables, 1) | 1 << _bit_of(tables, 3)
    assert _bit_of(tables, 1) != _bit_of(tables, 3)
    assert twins[3].tolist() == [pair, 0, 0, 0, 0, 0]  # the hold layer of number 4
    assert twins[4].tolist() == [pair, 0, 0, 0, 0, 0]  # of number 5
    for v in (0, 1, 2, 5, 6, 7, 12):  # R3-R5 not yet going on, or both ended
        assert not twins[v].any()


def test_the_canonical_key_holds_the_lowest_bits_of_a_class() -> None:
    twins = np.array([0b1010_0000, 0b0000_0111, 0, 0, 0, 0], np.int64)
    base = np.int64(12345)  # (other key bits, below the field's)
    for field, canonical in ((0b1000_0000, 0b0010_0000), (0b0010_0000, 0b0010_0000),
                             (0b1010_0000, 0b1010_0000), (0b0000_0110, 0b0000_0011),
                             (0b1000_0100, 0b0010_0001), (0b1_0000_0000, 0b1_0000_0000)):
        key = canonical_key(base | hold_key(field), twins)
        assert hold_field(key) == canonical
        assert key & 0xFFFF == base
    assert canonical_key(base | hold_key(0b10), np.zeros(6, np.int64)) == base | hold_key(0b10)


# (copies, jokers): two copies and the rules document's jokers, and the house rules' more
TILE_SETS = ((2, 2), (3, 2), (4, 2), (3, 3), (4, 3), (2, 4))


def _runs_ending_together(seed: int):
    """Runs of one colour of 3-5 tiles, several ending at the same number, two copies of
    each at most beside the others, a few rack tiles and jokers."""
    rng = random.Random(seed)
    copies, jokers = TILE_SETS[seed % len(TILE_SETS)]
    spec = naive.Spec(2, 6, copies, jokers, 3, 1)
    end = rng.randint(4, spec.numbers)

    def run():
        colour = spec.letters[0] if rng.random() < 0.8 else spec.letters[1]
        last = end if rng.random() < 0.7 else rng.randint(3, spec.numbers)
        first = max(1, last - rng.randint(2, 4))
        return [(colour, n) for n in range(first, last + 1)]

    runs = (r for r in (run() for _ in range(rng.randint(3, 4))) if len(r) >= 3)
    table, rack = runs_table(rng, spec, runs, (1, 3), (0, min(jokers, 2)))
    return spec, table, rack


@pytest.mark.parametrize("seed", range(60))
def test_least_disturbance_with_runs_ending_together_matches_brute_force(seed):
    spec, table, rack = _runs_ending_together(seed + 3100)
    check_least_against_brute(spec, table, rack, ("tiles", "value")[seed % 2])
