"""The training set of setup.py's profile-guided build (``solvers.bridge._pgo_training``)."""

from __future__ import annotations

import numpy as np

from solvers.bridge import _ab_search, _pgo_training


def test_every_training_deal_is_a_whole_deal_of_thirteen_cards_a_seat() -> None:
    full_suit = (1 << 13) - 1
    for deal in _pgo_training.DEALS:
        assert len(deal) == 52 and sorted(set(deal)) == ["0", "1", "2", "3"]
        hands = _pgo_training.deal_masks(deal)
        assert [sum(int(m).bit_count() for m in hand) for hand in hands] == [13] * 4
        assert np.bitwise_or.reduce(hands, axis=0).tolist() == [full_suit] * 4
    assert len(set(_pgo_training.DEALS)) == len(_pgo_training.DEALS)
    assert len(_pgo_training.DEALS) >= _pgo_training.TABLES


def test_the_training_deals_have_answers_the_kernel_agrees_on() -> None:
    # the training calls the kernel as the simulation does; its leads must be real answers
    hands = _pgo_training.deal_masks(_pgo_training.DEALS[0])
    values = _ab_search.lead_values(hands[None], 4, 0, 1)[0]
    table = _ab_search.dd_table(hands)
    held = values >= 0
    assert held.sum() == 13
    # North leads against West's NT: the best lead takes 13 - West's tricks for North-South
    assert values[held].max() == 13 - table[4, 3]
