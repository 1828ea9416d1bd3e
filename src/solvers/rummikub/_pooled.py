"""A few positions of a batch at a time, without the GIL: the kernel of dynamic scheduling.

The positions of a batch differ in cost by two orders of magnitude (a median of about
0.2 ms, a slowest of several ms on generated tables of 10-80 tiles), so a thread that
takes a fixed share of them finishes far from the others (Numba's OpenMP layer schedules
``prange`` statically, and ignores ``numba.parallel_chunksize``).  :func:`solve_range`
solves the positions ``order[lo:hi]`` with the GIL released: the engine's threads each
take the next few positions as they finish (``engines.rummikub.arrays``), and the batch
runner reads and stores beside them.  The answers are those of
:func:`~solvers.rummikub._exact.solve_batch` (the plain kernel's threads); each
position's sets (:func:`~solvers.rummikub._melds.meld_codes`) and the tiles it plays are
found in the same call, on the same thread, so that no per-position work is left for the
caller's single thread.
"""

from numba import njit

from solvers.rummikub._exact import solve_either
from solvers.rummikub._layout import NCOL, NNUM, highest_number
from solvers.rummikub._melds import meld_codes, turned_codes

JOKER_KIND = NCOL * NNUM  # the joker's column of ``played``


@njit(cache=True, nogil=True)
def solve_range(
    order, lo, hi, must, opt, must_j, opt_j, weight, joker_weight, meld, group_ok, status,
    best, choice, group_jokers, stats, beam, part_count, part_masks, min_len, codes, counts,
    played, turn, cap, variants=True,
):
    """``solve_batch`` for the positions ``order[lo:hi]`` of the batch arrays (same shapes),
    writing only their rows of the outputs, and then, for each solved position (status 1),
    ``meld_codes_batch``'s ``codes[p]``/``counts[p]`` (of the rules' ``part_count``,
    ``part_masks`` and ``min_len``) and ``played[p]``: the counts of the rack tiles the move
    plays, in kind order (13 * colour + number - 1, the joker last).  Positions that
    :func:`~solvers.rummikub._exact.solve_either` searched with their numbers reversed get
    their choice and sets turned back.  An unsolved position
    keeps ``counts[p]`` and ``played[p]`` as they were (the caller's -2 and zeros).
    ``turn[p]``: given 1, the search takes the reversed position first (``solve_either``'s
    ``first_way``); set to 1 where the choice is the reversed position's, else 0.
    ``best[p]`` on entry: ``solve_either``'s ``above`` (NEG: none; status 0 where no
    arrangement scores more); ``cap[p]``: its ``cap`` (NO_CAP: none).
    ``variants``: :mod:`solvers.rummikub._family` (the engine's
    :func:`~solvers.rummikub._family.variants_for` of the whole batch)."""
    for k in range(lo, hi):
        p = order[k]
        st, sc, back = solve_either(must[p], opt[p], must_j[p], opt_j[p], weight[p],
                                    joker_weight[p], meld[p], group_ok, choice[p],
                                    group_jokers[p], stats[p], beam, variants, turn[p],
                                    best[p], cap[p])
        turn[p] = back
        status[p] = st
        best[p] = sc
        if st != 1:
            continue
        counts[p] = meld_codes(choice[p], group_jokers[p], part_count, part_masks, codes[p],
                               min_len)
        if back:  # (the choice of the position with its numbers reversed)
            _turn_back(choice[p], group_jokers[p], codes[p], counts[p], highest_number(meld[p]))
        jokers = -must_j[p]
        for c in range(NCOL):
            for v in range(NNUM):
                played[p, c * NNUM + v] = (choice[p, c, v, 0] + choice[p, c, v, 1]
                                           - must[p, c, v])
                jokers += choice[p, c, v, 2]
        for v in range(NNUM):
            jokers += group_jokers[p, v]
        played[p, JOKER_KIND] = jokers


@njit(cache=True, nogil=True)
def _turn_back(choice, group_jokers, codes, count, nnum):
    """A choice and its ``count`` sets (-1: none) found with the numbers reversed, as the
    position's own."""
    for v in range(nnum // 2):
        w = nnum - 1 - v
        for c in range(NCOL):
            for k in range(choice.shape[2]):
                choice[c, v, k], choice[c, w, k] = choice[c, w, k], choice[c, v, k]
        group_jokers[v], group_jokers[w] = group_jokers[w], group_jokers[v]
    if count > 0:
        turned_codes(codes, count, nnum)
