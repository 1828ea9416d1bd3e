# cython: language_level=3
"""The trick start where a probe of :mod:`_search` stops (``_probe_cut``).

A probe searches the moves of a node down to the next trick start only.  There
it asks the transposition table alone: the cuts a probe finds are
transpositions (with quick and later tricks too, the probes cost more than they
save: benches/README, "Early-node probes").  An undecided trick start counts as
the probing mover's failure.
"""

from libc.stdint cimport uint16_t

from solvers.bridge._node_steps cimport _cards, _settled, _threshold
from solvers.bridge._trans_table cimport tt_lookup
from solvers.bridge._types cimport FEATURE_TT, Ctx, TTVisit


cdef inline bint horizon_answer(Ctx* c, int seat, int target, uint16_t* wm) noexcept nogil:
    """The answer at a probe's last trick start: exact when it favours the probing
    mover (``not c.probe_fail``), else ``c.probe_fail``."""
    cdef int n = _cards(c, seat), move, answer = _settled(c, n, target, wm)
    cdef bint leader_max = (seat & 1) == c.max_side
    cdef TTVisit visit  # no store follows here
    if answer >= 0:
        return answer
    if c.features & FEATURE_TT:
        answer = tt_lookup(&c.tt, c.lens, seat, c.pat, _threshold(c, n, target, leader_max),
                           c, wm, &move, &visit)
        if answer >= 0:
            return answer == leader_max
    # a stand-in answer depends on every card: no small-card pruning may rest on it
    wm[0] = 0x1FFF
    wm[1] = 0x1FFF
    wm[2] = 0x1FFF
    wm[3] = 0x1FFF
    return c.probe_fail
