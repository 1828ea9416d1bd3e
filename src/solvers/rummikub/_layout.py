"""The board and the DP's state key: sizes, bit positions, and the score sentinels.

A state between number v-1 and v records, per colour, how many open runs end at v-1 with
length 1, 2 and >= 3 (``a1, a2, a3``, up to four runs per colour with jokers) as the code
``a1 + 5*a2 + 25*a3``.  Key bits: colour c's code at ``7*c`` (28 bits), jokers placed so
far (``ju``) at 28, inside a number the colours that gave one / two tiles to groups
(``n1``, ``n2``) at 30 and 33, the initial-meld value so far (capped) at 36, and inside a
number the jokers that the short runs of the colours done so far will need at number+1,
at 42.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NCOL = 4
NNUM = 13
MELD_TARGET = 30

COLOUR_BITS = 7
JOKERS_AT = 28
N1_AT = 30
N2_AT = 33
MELD_AT = 36
NEED_AT = 42

NEG = np.int64(-(2**62))  # the score of "no arrangement"
NO_BEAM = np.int64(0)
# States per layer kept by the heuristic beam pass (50..1000 measured alike on the slow
# corpus positions; small enough that the pass costs little next to the exact one).  The
# search for an arrangement that reaches the whole-rack target keeps BEAM // 4 = 32
# (16..64 measured alike on the bench bands and the corpus).
BEAM = 128


@njit(cache=True, inline="always")
def colour_code(key, c):
    """Colour ``c``'s open-run code ``a1 + 5*a2 + 25*a3`` in state ``key``."""
    return (key >> (COLOUR_BITS * c)) & 127
