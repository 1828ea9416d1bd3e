"""The bounded primal simplex of :mod:`solvers.rummikub._bound`'s linear relaxation, on
sparse columns (a column: its rows ``idx[j, :nnz[j]]`` and values ``val[j]``), with an
explicit basis inverse updated a pivot at a time.  Its duals need not be exact: the bound
is their Lagrangian value (:func:`solvers.rummikub._bound._dual_bound`), valid for any
duals, so rounding only loosens it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

TOL = 1e-9


@njit(cache=True, inline="always")
def entry(idx, val, nnz, j, r, v):
    """Add ``v`` at row ``r`` to the sparse column ``j``."""
    for e in range(nnz[j]):
        if idx[j, e] == r:
            val[j, e] += v
            return
    idx[j, nnz[j]] = r
    val[j, nnz[j]] = v
    nnz[j] += 1


@njit(cache=True, inline="always")
def reduced(y, cost, idx, val, nnz, j):
    """Column ``j``'s reduced price under the duals ``y``."""
    d = cost[j]
    for e in range(nnz[j]):
        d -= y[idx[j, e]] * val[j, e]
    return d


@njit(cache=True, error_model="numpy")
def simplex(idx, val, nnz, cost, upper, ncols, basis, status, xb, binv, pivots):
    """Maximise ``cost . x`` over ``A x = b``, ``0 <= x <= upper`` (column j of A: the rows
    ``idx[j, :nnz[j]]``, values ``val[j]``) from the basis ``basis`` (its inverse ``binv``,
    values ``xb``; ``status``: 0 at the lower bound, 1 at the upper, 2 basic), updated in
    place.  Returns the duals ``y`` and the pivots left."""
    m = binv.shape[0]
    y = np.zeros(m)
    alpha = np.zeros(m)
    pivot_row = np.empty(m)
    while True:
        y[:] = 0.0
        for i in range(m):
            c = cost[basis[i]]
            if c != 0.0:
                for k in range(m):
                    y[k] += c * binv[i, k]
        if pivots <= 0:
            return y, pivots
        best, q = TOL, -1
        for j in range(ncols):
            if status[j] == 2:
                continue
            d = reduced(y, cost, idx, val, nnz, j)
            gain = d if status[j] == 0 else -d
            if gain > best:
                best, q = gain, j
        if q < 0:
            return y, pivots
        pivots -= 1
        alpha[:] = 0.0
        for e in range(nnz[q]):
            r, v = idx[q, e], val[q, e]
            for i in range(m):
                alpha[i] += binv[i, r] * v
        sign = 1.0 if status[q] == 0 else -1.0
        step, leave, leave_to = upper[q], -1, 0
        for i in range(m):
            delta = -sign * alpha[i]
            if delta < -TOL:
                t = xb[i] / -delta
                if t < step - TOL or (t < step + TOL and leave >= 0
                                      and abs(alpha[i]) > abs(alpha[leave])):
                    step, leave, leave_to = max(t, 0.0), i, 0
            elif delta > TOL and upper[basis[i]] < np.inf:
                t = (upper[basis[i]] - xb[i]) / delta
                if t < step - TOL or (t < step + TOL and leave >= 0
                                      and abs(alpha[i]) > abs(alpha[leave])):
                    step, leave, leave_to = max(t, 0.0), i, 1
        if step == np.inf:  # unbounded: cannot happen (every set is bounded by its tiles)
            return y, 0
        for i in range(m):
            xb[i] -= sign * alpha[i] * step
        if leave < 0:  # the entering column reaches its other bound
            status[q] = 1 - status[q]
            continue
        entering = (0.0 if status[q] == 0 else upper[q]) + sign * step
        status[basis[leave]] = leave_to
        basis[leave] = q
        status[q] = 2
        xb[leave] = entering
        pivot = alpha[leave]
        for k in range(m):
            binv[leave, k] /= pivot
            pivot_row[k] = binv[leave, k]
        for i in range(m):
            if i != leave and alpha[i] != 0.0:
                f = alpha[i]
                for k in range(m):
                    binv[i, k] -= f * pivot_row[k]
