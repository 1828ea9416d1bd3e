"""The quick check of a position at the start of a trick (``Deal.status``'s common case).

A valid deal is recognised in a few integer operations instead of the full
accounting of defects; every defective one must still raise the full
validation's error, word for word, and never reach the kernel.
"""

from __future__ import annotations

import random

import pytest

from engines.bridge.cards import Deal, Hand, InvalidDealError
from engines.bridge.dd import solve_position

DEFECTIVE = [
    "N:AK... Q2... JT... 43...",  # fine, below: variants of it
    "N:AK... A2... JT... 43...",  # duplicate card
    "N:AK... Q2... JT... 4...",  # wrong hand size
    "N:AKQ... 2... JT... 43...",  # wrong hand size, sizes 3 1 2 2
    "N:AK... AK... AK... AK...",  # duplicates, sizes equal
    "N:... ... ... ...",  # empty
]


def _validation_error(deal: Deal) -> str | None:
    try:
        Deal(deal.hands).validate()
    except InvalidDealError as error:
        return str(error)
    return None


@pytest.mark.parametrize("pbn", DEFECTIVE)
def test_a_defective_position_raises_the_full_validation_error(pbn: str) -> None:
    deal = Deal.from_pbn(pbn)
    assert deal.status() == deal._defects()
    expected = _validation_error(deal)
    if expected is None:
        assert solve_position(deal, "NT", "N")
        return
    with pytest.raises(InvalidDealError) as raised:
        solve_position(deal, "NT", "N")
    assert str(raised.value) == expected


def test_random_positions_are_refused_exactly_when_the_full_validation_refuses() -> None:
    rng = random.Random(5)
    checked = refused = 0
    for _ in range(300):
        size = rng.randint(0, 3)
        hands = []
        for _seat in range(4):
            masks = [0, 0, 0, 0]
            for _card in range(size + rng.choice((0, 0, 0, 1))):
                masks[rng.randrange(4)] |= 1 << rng.randrange(5)
            hands.append(Hand(masks))
        deal = Deal(hands)
        assert deal.status() == deal._defects()
        expected = _validation_error(deal)
        if expected is None:
            solve_position(deal, "S", "E")
        else:
            refused += 1
            with pytest.raises(InvalidDealError) as raised:
                solve_position(deal, "S", "E")
            assert str(raised.value) == expected
        checked += 1
    assert checked == 300 and 0 < refused < 300
