"""The plain DP's passes where the whole rack is out of reach under official retrieval
(``solvers.rummikub._exact._passes``, ``solve_either``).

Checked on bench positions of official retrieval with three copies and four jokers.  Seed 2
60J #0 (a table joker stands for R7 in ``R4 R5 R6 J R8`` and the rack has no R7: 18 of the
19 rack tiles at most): the reversed position's narrow pass proves the whole-rack target out
of reach (``share[OUT_OF_REACH]``), and the position as it is, told so, runs no pass at that
target.  Seed 7 60J #1 (17 of 19 at most): the beam pass of the position as it is finds an
arrangement, its states keeping the jokers that the later table jokers' places owe
(``solvers.rummikub._official.jokers_owed_ahead``); reversed, it finds nothing, and the
descending passes below the target (:data:`~solvers.rummikub._aims.DESCENT_STEPS`) give
the exact pass its floor; a descending pass cut at its budget goes on to the same answer.
All answers are the exact optimum (the plain exact pass, ``beam=0``), both objectives.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from engines.rummikub import Rules
from solvers.rummikub import _exact
from solvers.rummikub._dp import solve_pass
from solvers.rummikub._exact import (
    DESCENT_STEPS,
    LAST_PASS,
    OUT_OF_REACH,
    WIDER_FLEXIBLE,
    _passes,
    turned,
    turned_rules,
)
from solvers.rummikub._layout import BEAM, NEG, NO_CAP
from solvers.rummikub._official import jokers_owed_ahead, official_tables
from solvers.rummikub._resume import CUT, FLOOR, no_kept

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_rummikub_turned import _arrays as _position_arrays
from test_rummikub_turned import _outputs, _position

OFFICIAL_4_3 = Rules(joker_retrieval="official", jokers=4, copies=3, least_disturbance=False)
WHERE = (2, 60, 0)
# (before the DP dropped the states short of the jokers the later places owe, the beam pass
# found nothing here both ways: its width held states that had spent them)
OWED_AT = (7, 60, 1)
# (three copies and four jokers: the wider passes run, so the descending passes' indices
# in share[2] come after theirs, the exact pass at the target's and the beam pass's)
DESCENT = len(WIDER_FLEXIBLE) + 4


def _arrays(objective: str = "tiles", reversed_: bool = False, where: tuple = WHERE) -> tuple:
    _p, pos = _position(*where, OFFICIAL_4_3)
    must, rack, must_j, rack_j, weight, joker_weight, meld = _position_arrays(
        pos, objective, OFFICIAL_4_3)
    if reversed_:
        must, rack, weight = (turned(a, np.int64(13)) for a in (must, rack, weight))
        meld = turned_rules(meld, np.int64(13))
    return (must, rack, must_j, rack_j, weight, joker_weight, meld,
            OFFICIAL_4_3.group_tables()[0])


def _exact_optimum(args: tuple) -> tuple:
    return _passes(*args, *_outputs(), np.int64(0), NO_CAP, _exact._unbounded(), no_kept(),
                   True)[:2]


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_a_target_proved_out_of_reach_one_way_is_not_searched_the_other(objective: str) -> None:
    back, ahead = _arrays(objective, True), _arrays(objective)
    share = _exact._unbounded()
    found = _passes(*back, *_outputs(), np.int64(BEAM), NO_CAP, share, no_kept(), True)
    assert found[:2] == _exact_optimum(back)
    proved = share[OUT_OF_REACH]
    assert found[1] + back[2] * back[5] < proved < NO_CAP  # (raw: the table jokers' gain too)
    # (the position as it is, a budget that cuts its first pass: told, that is the beam
    # pass (from NEG); not told, the narrow pass at the target)
    for known, first_floor in ((proved, NEG), (NO_CAP, proved)):
        share = np.array([64, NEG, 0, 0, known], np.int64)
        status, _score, kept = _passes(*ahead, *_outputs(), np.int64(BEAM), NO_CAP, share,
                                       no_kept(), True)
        assert status == -1 and kept[0][CUT] == 1 and kept[0][FLOOR] == first_floor
    share = np.array([0, NEG, 0, 0, proved], np.int64)
    told = _passes(*ahead, *_outputs(), np.int64(BEAM), NO_CAP, share, no_kept(), True)
    assert told[:2] == found[:2]


def test_the_descent_gives_the_floor_and_a_cut_descending_pass_goes_on() -> None:
    back = _arrays(reversed_=True, where=OWED_AT)
    whole_out = _outputs()
    share = _exact._unbounded()
    whole = _passes(*back, *whole_out, np.int64(BEAM), NO_CAP, share, no_kept(), True)
    assert whole[:2] == _exact_optimum(back) and share[2] == LAST_PASS
    assert share[1] > NEG  # (a descending pass found the floor: the beam pass found nothing)
    # (called again, twice the budget each time, until the passes finish: share[2] where cut)
    share, kept, status, cuts = np.array([64, NEG, 0, 0, NO_CAP], np.int64), no_kept(), -1, []
    while status < 0:
        out = _outputs()
        status, score, kept = _passes(*back, *out, np.int64(BEAM), NO_CAP, share, kept, True)
        cuts += [int(share[2])] * int(kept[0][CUT])
        share[0] *= 2
    assert (status, score) == whole[:2] and kept[0][CUT] == 0
    assert [a.tolist() for a in out[:2]] == [a.tolist() for a in whole_out[:2]]
    assert set(cuts) & set(range(DESCENT, DESCENT + DESCENT_STEPS))  # (a descending pass, cut)


def test_the_beam_pass_keeps_the_jokers_the_later_places_owe() -> None:
    args = _arrays(where=OWED_AT)
    owed = jokers_owed_ahead(*official_tables(args[6])[:3], args[1])
    assert owed[0] > 0 and owed[-1] == 0 and (np.diff(owed) <= 0).all()
    status, score, truncated = solve_pass(*args, *_outputs(), NEG, np.int64(BEAM), None, 0)
    optimum = _exact_optimum(args)
    assert status == 1 and truncated and NEG < score <= optimum[1]
