"""When the exact passes try a floor halfway to the target first (:func:`halfway_first`)."""

from __future__ import annotations

from numba import njit

from solvers.rummikub._layout import copies

# Where four copies and three or more jokers are in play, the beam pass's score is often one
# to three tiles below the optimum, and the exact pass from it stores far more states than one
# from a floor nearer the optimum: an exact pass from halfway between the beam's score and the
# target (the whole rack, or the cap) comes first; it finds the optimum wherever that reaches
# halfway (any floor at or below the optimum does), else the pass from the beam's score follows.
# The relaxation's solves of copies=4 + jokers=3 + two real tiles (least disturbance), seeds
# 11 and 1-3, bands 40J-80J, 10 a band, replayed (best of 2): the last passes 375.4 -> 313.6 ms
# summed, objective value 442.3 -> 409.6; the slowest, seed 2 60J #9, 22.4 -> 7.0 ms, the
# dearest miss 5.8 -> 11.4 (seed 11 40J #6).  Not with three copies and four jokers (the beam
# is often further below the optimum, which lies below halfway: 294.9 -> 281.9 ms, value
# 378.2 -> 378.6).  Nor on tables of fewer than 50 tiles, where the optimum is more often
# below halfway and the passes cheap: built, copies=4 + jokers=3 + two real tiles, seeds 11
# and 1-3, 10 a band, best of 3 a position summed, 20J 121.4 -> 140.9 ms, 40J 277.8 -> 281.8,
# 60J 414.2 -> 340.9, 80J 204.4 -> 200.4 with every table (benches/README, rkc4j3).
HALFWAY_COPIES = 4
HALFWAY_JOKERS = 3
HALFWAY_TABLE = 50


@njit(cache=True, inline="always")
def halfway_first(meld, jokers, table_tiles):
    """Whether :func:`solvers.rummikub._exact._passes` runs the exact pass from halfway to
    the target before the one from the beam pass's score (the rules ``meld``, ``jokers`` in
    play, ``table_tiles`` on the table)."""
    return (copies(meld) >= HALFWAY_COPIES and jokers >= HALFWAY_JOKERS
            and table_tiles >= HALFWAY_TABLE)
