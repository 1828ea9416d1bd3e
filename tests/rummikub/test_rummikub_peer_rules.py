"""House rules other Rummikub solvers play, each expressed through our options.

Each case is a position of its own where the option changes the answer: the DP's number
of tiles played under the option and under the rules document's, both worked out by hand
and both checked against the reference oracle (the integer programme), and the DP's move
passes ``check_move`` under the option.  The meld options' peer cases are in
``test_rummikub_rules.py`` (``PEER_CASES``).
"""

from __future__ import annotations

import pytest
from rummikub_ip_reference import reference_move

from engines.rummikub import Position, Rules, best_move, check_move

OFFICIAL = Rules(joker_retrieval="official")
TWO_REAL = Rules(min_real_tiles=2)
CONTINUE = Rules(meld_continue=True)

# (what the peer does, table, rack, melded, rules, tiles under the rules, tiles by default)
PEER_POSITIONS = [
    # official retrieval: a run joker (as R6) leaves only for R6 from the rack
    ("official, run joker kept", [["R3", "R4", "R5", "J"]], "K11 K12", True, OFFICIAL, 0, 2),
    ("official, run joker freed by R6", [["R3", "R4", "R5", "J"]], "K11 K12 R6", True,
     OFFICIAL, 3, 3),
    # a group joker (as B5) leaves only for the colour its group lacks
    ("official, group joker kept", [["K5", "R5", "O5", "J"]], "K11 K12", True, OFFICIAL, 0,
     2),
    ("official, group joker freed by B5", [["K5", "R5", "O5", "J"]], "K11 K12 B5", True,
     OFFICIAL, 3, 3),
    # a joker that stays in its set needs nothing: R10 extends the run before it (as R11)
    ("official, joker stays", [["J", "R12", "R13"]], "R10", True, OFFICIAL, 1, 1),
    # two real tiles per set: no J J R5, no K9 J J, but a joker may join a set of two
    ("two real tiles, J J R5", [], "R5 J J", True, TWO_REAL, 0, 3),
    ("two real tiles, jokers split over two runs", [["R5", "R6", "R7"]], "J J K2 K3", True,
     TWO_REAL, 4, 4),
    ("two real tiles, K9 J J onto a table", [["K5", "K6", "K7"]], "K9 J J", True, TWO_REAL,
     3, 3),
    # B9 J J is no set; the jokers may still extend the table's run (O4 O5)
    ("two real tiles, one real tile and jokers only", [["O1", "O2", "O3"]], "B9 J J", True,
     TWO_REAL, 2, 3),
    # meld then continue: meld K10 R10 B10 (30), then O11 onto the table's run
    ("meld then continue", [["O8", "O9", "O10"]], "K10 R10 B10 O11", False, CONTINUE, 4, 3),
    # the meld must come from the rack alone: O11 O12 with the table's run is no meld
    ("meld then continue, the table makes no meld", [["O8", "O9", "O10"]], "O11 O12 K1",
     False, CONTINUE, 0, 0),
    # threshold 10: R3 R4 R5 melds (12), then K4 and B5 go onto the table's run and group
    ("meld then continue, threshold 10", [["K5", "R5", "O5"], ["K1", "K2", "K3"]],
     "R3 R4 R5 K4 B5", False, Rules(meld_continue=True, meld_threshold=10), 5, 3),
    # both: after the meld the table's joker (as R6) stays unless R6 comes from the rack
    # (meld then continue alone plays 5: the joker leaves for R10 B10)
    ("meld then continue, official retrieval", [["R3", "R4", "R5", "J"]],
     "K10 R10 B10 K11 K12", False, Rules(meld_continue=True, joker_retrieval="official"), 3,
     3),
    ("meld then continue, official, joker freed by R6", [["R3", "R4", "R5", "J"]],
     "K10 R10 B10 K11 K12 R6", False,
     Rules(meld_continue=True, joker_retrieval="official"), 6, 3),
    # and with two real tiles per set: J J R12 is no meld any more; R11 R12 J is (36)
    ("meld then continue, two real tiles, no meld", [["O8", "O9", "O10"]], "R12 J J O11",
     False, Rules(meld_continue=True, min_real_tiles=2), 0, 3),
    ("meld then continue, two real tiles", [["O8", "O9", "O10"]], "R11 R12 J J O7", False,
     Rules(meld_continue=True, min_real_tiles=2), 5, 4),
]


@pytest.mark.parametrize(("name", "table", "rack", "melded", "rules", "tiles", "default"),
                         PEER_POSITIONS, ids=[c[0] for c in PEER_POSITIONS])
def test_peer_behaviour(name, table, rack, melded, rules, tiles, default) -> None:
    move = best_move(table, rack, melded, rules=rules)
    plain = best_move(table, rack, melded,
                      rules=Rules(meld_threshold=rules.meld_threshold))
    assert (move.tiles, plain.tiles) == (tiles, default), name
    assert reference_move(table, rack, melded, "tiles", rules)[0].tiles == tiles
    pos = Position.from_strings(table, rack, melded)
    assert check_move(pos, move, rules) == []
