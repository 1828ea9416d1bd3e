"""Meld then continue's exact cuts of a layer (:mod:`solvers.rummikub._continue_beam`) by hand:
the bound on what the rack tiles still to come can add to a meld, and the states whose meld
can no longer reach the threshold.  The DP's answers with them are checked against the
oracle in ``test_rummikub_meld_continue.py``."""

from __future__ import annotations

import numpy as np

from solvers.rummikub._continue_beam import drop_dead_melds, meld_reach
from solvers.rummikub._layout import JOKERS_AT, MELD_AT, NCOL, NNUM, SHORT_AT

# The rack's tiles a meld may hold: K4 K5 (colour 0) and O10 O11 (colour 2), one joker
_MOPT = np.zeros((NCOL, NNUM), np.int64)
_MOPT[0, 3] = _MOPT[0, 4] = 1
_MOPT[2, 9] = _MOPT[2, 10] = 1


def test_meld_reach_counts_only_tiles_a_set_of_them_could_hold():
    reach = meld_reach(_MOPT, 1, NNUM, 3, 1)
    assert reach.shape == (NNUM + 1, 2, NCOL + 1)
    # from 6 up: O10 O11 make a set with the joker only, which counts at 13
    assert reach[5, 0].tolist() == [0, 0, 0, 0, 0]
    assert reach[5, 1].tolist() == [0, 0, 21, 0, 13]
    # from 1 up: K4 K5 too, with the joker
    assert reach[0, 1].tolist() == [9, 0, 21, 0, 13]
    assert reach[NNUM].sum() == 0
    # sets of 2: K4 K5 and O10 O11 alone; jokers not counted where they count zero
    assert meld_reach(_MOPT, 1, NNUM, 2, 0)[0, 0].tolist() == [9, 0, 21, 0, 0]


def _meld_key(value: int, jokers: int = 0, code0: int = 0) -> int:
    return value << MELD_AT | jokers << JOKERS_AT | code0


def test_drop_dead_melds_drops_only_melds_that_cannot_reach_the_threshold():
    reach = meld_reach(_MOPT, 1, NNUM, 3, 1)
    no_lengths = np.zeros((0, 1), np.int64)
    k2s = np.array([
        _meld_key(15, jokers=1),  # K4 K5 and the joker closed: nothing left makes a set
        _meld_key(0),  # nothing yet, the joker left: O10 O11 and it (34) may still do
        _meld_key(9, code0=5),  # K4 K5 open: it owes the joker at K6, then 22 at most
        _meld_key(30),  # made
        _meld_key(15, jokers=1) | 1 << SHORT_AT,  # another field set: kept as it is
        _meld_key(15, jokers=1),  # already dropped
    ], np.int64)
    k1s = np.array([7, 7, 7, 7, 7, -1], np.int64)
    # the layer closing number 5 (0-based 4): numbers 6 and up to come
    dropped = drop_dead_melds(k1s, k2s, 0, len(k1s), reach, _MOPT, no_lengths, 4, True, 1,
                              30)
    assert dropped == 2
    assert k1s.tolist() == [-1, 7, -1, 7, 7, -1]
    # with a threshold of 20 the open run may still make it (K4 K5 J 15 is not enough alone)
    k1s[:] = 7
    assert drop_dead_melds(k1s, k2s, 0, 3, reach, _MOPT, no_lengths, 4, True, 1, 20) == 1
    assert k1s[:3].tolist() == [-1, 7, 7]
