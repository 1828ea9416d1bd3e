"""Rows handed out to a parallel kernel's threads in chunks, claimed one at a time.

Numba's ``prange`` gives each thread an equal share of the rows up front, so the call
lasts as long as the slowest share: a thread that is woken late, or that shares its core
with another for a while, holds the others up.  On 16 cores the bare ``are_legal_follows``
kernel took 7.7 ms on 68,000 rows with 6.4 cores busy on average, where equal shares would
take 2.6 ms (``benches/README.md``).  Here each thread runs one worker that claims
the next chunk of rows from a shared counter until none is left, so a slow thread just
takes fewer chunks; every row is still computed once, by the same code, so results do
not depend on the schedule.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

#: Chunks per thread when the caller does not fix the chunk size: enough that the
#: last chunk of a call is a small part of each thread's work.
CHUNKS_PER_THREAD = 16
#: Smallest automatic chunk: the claim (an atomic add on a shared line) stays rare.
MIN_CHUNK_ROWS = 32


@intrinsic
def _fetch_add(typingctx, counter, amount):
    """Atomically add ``amount`` to ``counter[0]`` (1-D int64); return its old value."""
    if not (isinstance(counter, types.Array) and counter.ndim == 1
            and counter.dtype == types.int64 and isinstance(amount, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        array = context.make_array(array_type)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, array_type, array,
                                           [context.get_constant(types.intp, 0)])
        step = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.atomic_rmw("add", pointer, step, "monotonic")

    return types.int64(counter, amount), codegen


@njit(cache=True, nogil=True)
def chunk_plan(n, nthreads, chunk):
    """``(rows per chunk, workers, claim counter)`` for ``n`` rows on ``nthreads`` threads
    in chunks of ``chunk`` rows (0: :func:`chunk_rows` chooses): one worker a thread, no
    more workers than chunks."""
    size = chunk_rows(n, nthreads, chunk)
    return size, min(max(nthreads, 1), (n + size - 1) // size), new_counter()


@njit(cache=True, nogil=True, inline="always")
def claim_rows(counter, size, n):
    """The rows ``(lo, hi)`` of the next unclaimed chunk; ``lo == hi`` once every chunk is
    taken (``counter``: the claim counter of :func:`chunk_plan`, shared by the workers)."""
    lo = min(n, _fetch_add(counter, 1) * size)
    return lo, min(n, lo + size)


@njit(cache=True, nogil=True, inline="always")
def new_counter():
    """A claim counter at 0.  (Not ``np.zeros``: in a ``parallel=True`` kernel that is a
    parallel loop of its own, one more wake-up of every thread per call.)"""
    counter = np.empty(1, dtype=np.int64)
    counter[0] = 0
    return counter


@njit(cache=True, nogil=True)
def chunk_rows(n, nthreads, rows):
    """Rows per chunk for ``n`` rows on ``nthreads`` threads: ``rows`` when positive,
    otherwise about ``CHUNKS_PER_THREAD`` chunks a thread, at least ``MIN_CHUNK_ROWS``."""
    if rows > 0:
        return rows
    return max(MIN_CHUNK_ROWS, n // (CHUNKS_PER_THREAD * max(nthreads, 1)))
