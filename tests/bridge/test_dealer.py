"""Constrained dealing: validity, uniformity on exactly countable cases, constraints, errors."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from engines.bridge.cards import Deal
from engines.bridge.constraints import ConstraintError, DealView, compile_constraints
from engines.bridge.dealer import (
    ImpossibleConstraintsError,
    RareConstraintsError,
    deal,
)
from engines.bridge.evaluation import hcp, is_balanced, suit_lengths
from engines.bridge.seats import BridgeInputError, Seat

FULL = "N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87"


def test_every_deal_is_a_full_valid_deal_and_seeds_reproduce() -> None:
    sample = deal(2000, seed=11)
    assert sample.masks.shape == (2000, 4, 4) and sample.acceptance_rate == 1.0
    bits = np.unpackbits(sample.masks.view(np.uint8)).reshape(2000, 4, 4, 16)
    assert (bits.sum(axis=(2, 3)) == 13).all()
    assert (np.bitwise_or.reduce(sample.masks, axis=1) == 8191).all()
    assert all(d.is_valid() for d in list(sample)[:50])
    assert np.array_equal(deal(2000, seed=11).masks, sample.masks)
    assert not np.array_equal(deal(2000, seed=12).masks, sample.masks)
    # the first deals do not depend on how many are asked for
    assert np.array_equal(deal(5, seed=11).masks, sample.masks[:5])


def test_two_free_cards_fall_every_way_equally_often() -> None:
    # North holds 13 fixed cards, the other hands all but three cards: the
    # three free cards (one to each of E, S, W) can lie 3! = 6 ways.
    full = Deal.from_pbn(FULL)
    fixed = {
        "N": full[Seat.NORTH],
        "E": "T987.AKQ.432.J6",
        "S": "65432.J76.AKQ.T",
        "W": ".5432.JT98.AKQ8",
    }
    sample = deal(6000, fixed=fixed, seed=3)
    layouts = Counter(
        (d[Seat.EAST].to_pbn(), d[Seat.SOUTH].to_pbn(), d[Seat.WEST].to_pbn()) for d in sample
    )
    assert len(layouts) == 6
    counts = np.array(list(layouts.values()))
    chi2 = ((counts - 1000) ** 2 / 1000).sum()
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001
    assert all(d[Seat.NORTH] == full[Seat.NORTH] for d in sample)


def test_constraints_hold_on_every_accepted_deal() -> None:
    sample = deal(
        300,
        fixed={"S": "AKQ2.KQ3.A54.K32"},
        constraints="15 <= hcp(N) <= 17 && balanced(N) && hearts(EW) >= 7 || spades(W) == 0",
        seed=5,
    )
    for d in sample:
        north = d[Seat.NORTH]
        lengths = suit_lengths(d)
        first = 15 <= hcp(north) <= 17 and is_balanced(north) and lengths[1, 1] + lengths[3, 1] >= 7
        assert first or lengths[3, 0] == 0
    assert 0 < sample.acceptance_rate < 0.1
    assert sample.tried >= 300 / sample.acceptance_rate * 0.99


def test_python_callable_and_expression_agree() -> None:
    by_text = deal(200, constraints="hcp(N) >= 12 and opens_1major(S)", seed=2)
    by_function = deal(200, constraints=lambda v: (v.hcp("N") >= 12) & v.opens_1major("S"), seed=2)
    assert np.array_equal(by_text.masks, by_function.masks)
    with pytest.raises(BridgeInputError, match="one bool per deal"):
        deal(1, constraints=lambda v: True)


def test_impossible_and_too_rare_constraints_fail_clearly() -> None:
    with pytest.raises(ImpossibleConstraintsError, match="no deal out of"):
        deal(1, constraints="hcp(NS) > 40 and hcp(EW) > 40", max_tries=200_000)
    with pytest.raises(RareConstraintsError, match=r"1 in [\d,]+.*would need about"):
        deal(1000, constraints="hcp(N) >= 26", max_tries=2_000_000)
    with pytest.raises(BridgeInputError, match="fixed in two hands"):
        deal(1, fixed={"N": "A...", "E": "A..."})
    with pytest.raises(BridgeInputError, match="at most 13"):
        deal(1, fixed={"N": "AKQJT98765432.A.."})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hcp(X) > 3", "column 5: unknown seat 'X'"),
        ("balanced(NS)", "expected N, E, S or W"),
        ("hcp(N) >= 12 and", "invalid syntax"),
        ("hcp(N)", "must be a condition"),
        ("hcp(N) and balanced(S)", "is not a condition"),
        ("zar(N) > 3", "unknown function 'zar'"),
        ("length(N, Z) > 3", "unknown suit 'Z'"),
        ("shape(N, '4x3')", "bad shape pattern"),
        ("shape(N, '5555')", "matches no 13-card hand"),
        ("has(N, 'SZ')", "bad card"),
        ("hcp(N) ** 2 > 3", "unsupported syntax"),
        ("N > 3", "unknown name 'N'"),
    ],
)
def test_constraint_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ConstraintError, match=message):
        compile_constraints(text)


def test_expression_functions_on_a_known_deal() -> None:
    view = DealView(np.array([Deal.from_pbn(FULL).masks()], dtype=np.uint16))

    def check(text: str) -> bool:
        predicate = compile_constraints(text)
        assert predicate is not None
        return bool(predicate(view)[0])

    assert check("hcp(N) == 10 and controls(N) == 3 and hcp(NS) == 20")
    assert check("spades(S) == 5 and length(W, hearts) == 4 and clubs(W) == 5")
    assert check("shape(W, '0-4-4-5') and shape(W, 'any 5440') and not shape(W, 'x4x4')")
    assert check("has(N, 'SA') and !has(N, 'HA') and losers(N) == 9")
    assert check("balanced(S) and not semi_balanced(S) and !opens_1nt(N)")
    assert check("quick_tricks(E) == 2 and nltc(E) == 9 and cccc(N) == 9.8")



@pytest.mark.parametrize(
    "fixed", [{}, {"N": "AKQJT98765432..."}, {"E": "..AKQJT98765432.", "W": "2.3..5"}]
)
def test_sample_pbn_texts_are_the_deals_own(fixed):
    """``DealSample.to_pbn`` writes from the masks what each dealt ``Deal`` writes."""
    sample = deal(300, fixed=fixed, seed=7)
    assert sample.to_pbn() == [d.to_pbn() for d in sample]
