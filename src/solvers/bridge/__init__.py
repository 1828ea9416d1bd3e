"""Native double-dummy solver (Cython): DD tables, end positions, batches on all cores.

Kernels only: inputs are ``uint16`` suit masks ``hands[seat][suit]`` (seats
N E S W, suits S H D C, bit ``rank - 2``) and small integer arrays; nothing
here parses text or validates a deal — :mod:`engines.bridge` does.
"""

from solvers.bridge._ab_search import dd_table, dd_tables, lead_values, solve_position

__all__ = ["dd_table", "dd_tables", "lead_values", "solve_position"]
