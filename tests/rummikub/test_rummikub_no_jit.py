"""Without the JIT (``NUMBA_DISABLE_JIT=1``) the kernels' Python functions answer as the
compiled kernels do.

Debugging and some checks run the kernels as Python, where numpy's booleans add as ``or``
(``(a > 0) + (b > 0)`` is a bool; compiled it is the count), a numpy int32 stays int32 when
shifted (compiled it is widened to int64 first) and a njit function has no ``py_func``
(``njit`` returns the function itself).  Checked here: the Python function of
``_layers._slots`` against the compiled one on every list of three slots, and, in a child
process without the JIT, positions of the house rules whose code paths differ (official
retrieval with one to four table jokers, two real tiles per set with three copies or
three or four jokers, four jokers, meld then continue, least disturbance, eight colours)
against the compiled answers, arrangement and all.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import numpy as np

from engines.rummikub import best_move
from engines.rummikub.rules import Rules
from solvers.rummikub._layers import _slots


def _python(kernel):
    """A kernel's Python function (the function itself when the JIT is off)."""
    return getattr(kernel, "py_func", kernel)


def test_the_python_slots_count_the_filled_slots():
    fields = np.arange(1 << 15, dtype=np.int64)
    python = [int(_python(_slots)(f)) for f in fields]
    assert python == [int(_slots(f)) for f in fields]
    assert python[1 | 1 << 5] == 2 and python[1 | 1 << 5 | 1 << 10] == 3


_OFFICIAL = {"joker_retrieval": "official"}
_RUNS = [["R4", "J", "R6"], ["K4", "J", "K6"], ["O4", "J", "O6"], ["B4", "J", "B6"]]
# (rules, table, rack, melded, objective)
CASES = [
    (_OFFICIAL, _RUNS[:1], "R5 R7 K7 O7", True, "tiles"),
    ({**_OFFICIAL, "jokers": 3}, _RUNS[:3], "R5 K5 O5 B5 R7", True, "tiles"),
    ({**_OFFICIAL, "jokers": 4}, _RUNS, "R5 K5 O5 B7 B8", True, "value"),
    ({**_OFFICIAL, "jokers": 4, "min_real_tiles": 2}, _RUNS[:2], "R5 J J R9 R10", True, "tiles"),
    ({"copies": 3, "min_real_tiles": 2}, [], "R5 R5 R5 K5 O5 B5 K5 O5 B5 R6 J R8 K8 J K10",
     True, "tiles"),
    ({"copies": 3, "jokers": 3, "min_real_tiles": 2}, [], "R1 R1 R1 J J J R3 R3 R3", True,
     "value"),
    ({"jokers": 3, "min_real_tiles": 2}, [], "K1 J K3 R1 J R3 O1 J O3", True, "tiles"),
    ({"jokers": 4, "min_real_tiles": 2, "colours": 2}, [],
     "K1 J K3 K1 J K3 R1 J R3 R1 J R3", True, "tiles"),
    ({"jokers": 4}, [["K1", "K2", "K3"]], "R5 R10 J J J J B13", True, "value"),
    ({"meld_continue": True, "meld_threshold": 0}, [["R1", "R2", "R3"]],
     "R10 R11 R12 R4 K4 O4", False, "tiles"),
    ({"least_disturbance": True}, [["R1", "R2", "R3"], ["K5", "O5", "B5"], ["R7", "J", "R9"]],
     "R4 K6 O6 B6 R8", True, "tiles"),
    # eight colours (the wide DP: colour codes shifted past bit 31; its int32 tables read
    # as int32 without the JIT lost them and placed four jokers of two)
    ({"colours": 8, "numbers": 8, "copies": 1, "meld_threshold": 60},
     [["J", "B5", "R5", "K5", "G5", "Y5"], ["O2", "Y2", "G2", "R2", "W2", "P2", "K2"],
      ["G1", "K1", "W1", "J", "R1"], ["W5", "W6", "W7"]], "K6 Y8 O4 B3 P7 K3 B1 P4 Y6 K4",
     True, "tiles"),
]

SOLVE = """
import json, sys
from engines.rummikub import best_move
from engines.rummikub.rules import Rules

def answer(move):
    return [move.tiles, move.value, move.sets_kept,
            [[str(s.tile) for s in m] for m in move.table]]

print(json.dumps([answer(best_move(table, rack, melded, objective, Rules(**rules)))
                  for rules, table, rack, melded, objective in json.load(sys.stdin)]))
"""


def _answer(move) -> list:
    return [move.tiles, move.value, move.sets_kept,
            [[str(s.tile) for s in m] for m in move.table]]


def test_positions_without_the_jit_get_the_compiled_answers():
    cases = [({**dataclasses.asdict(Rules(least_disturbance=False)), **rules}, *rest)
             for rules, *rest in CASES]
    compiled = [_answer(best_move(table, rack, melded, objective, Rules(**rules)))
                for rules, table, rack, melded, objective in cases]
    out = subprocess.run([sys.executable, "-c", SOLVE], input=json.dumps(cases),
                         capture_output=True, text=True,
                         env={**os.environ, "NUMBA_DISABLE_JIT": "1"})
    assert out.returncode == 0, out.stderr[-3000:]
    python = json.loads(out.stdout)
    assert python == compiled
    assert any(a[0] > 0 for a in compiled[:4])  # (the table jokers' positions play tiles)
