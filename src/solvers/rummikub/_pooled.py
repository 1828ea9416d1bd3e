"""A few positions of a batch at a time, without the GIL: the kernel of dynamic scheduling.

:func:`~solvers.rummikub._exact.solve_batch` hands each thread one contiguous block of
the positions before it starts (Numba's OpenMP layer schedules ``prange`` statically, and
ignores ``numba.parallel_chunksize``), and it holds the caller's GIL while it runs.  The
positions of a batch differ in cost by two orders of magnitude (a median of about 0.2 ms,
a slowest of several ms on generated tables of 10-80 tiles), so on many threads the blocks
finish far apart, and nothing else of the process runs meanwhile.  :func:`solve_range`
solves the positions ``order[lo:hi]`` with the GIL released: the engine's threads each
take the next few positions as they finish (``engines.rummikub.arrays``), and the batch
runner reads and stores beside them.  The answers are those of ``solve_batch``.
"""

from numba import njit

from solvers.rummikub._exact import solve_exact


@njit(cache=True, nogil=True)
def solve_range(
    order, lo, hi, must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status,
    best, choice, group_jokers, stats, beam,
):
    """``solve_batch`` for the positions ``order[lo:hi]`` of the batch arrays (same shapes),
    writing only their rows of the outputs."""
    for k in range(lo, hi):
        p = order[k]
        st, sc = solve_exact(must[p], opt[p], must_j[p], opt_j[p], weight[p], joker_weight[p],
                             meld[p], group_ok, choice[p], group_jokers[p], stats[p], beam)
        status[p] = st
        best[p] = sc
