# cython: language_level=3
"""The double-dummy search for this CPU: one of two builds of ``_ab_kernel.pyx``, chosen at import.

``_ab_kernel_bmi`` (compiled with LZCNT, BMI1 and BMI2) when the CPU reports all three
(CPUID) and that build exists with them; ``_ab_kernel`` (any CPU) otherwise, or when the
environment variable ``QIPAI_BRIDGE_KERNEL`` is ``generic``.  Both give the same answers
and node counts.  ``KERNEL_BUILD`` names the one in use; everything public of it is here.
"""

import os

from solvers._cpu import cpu_has_bit_instructions


def _chosen_kernel():
    if os.environ.get("QIPAI_BRIDGE_KERNEL", "").strip().lower() != "generic":
        if cpu_has_bit_instructions():
            try:
                from solvers.bridge import _ab_kernel_bmi
            except ImportError:  # built without it (compiler lacking the flags)
                pass
            else:
                if _ab_kernel_bmi.BIT_INSTRUCTIONS:
                    return _ab_kernel_bmi
    from solvers.bridge import _ab_kernel
    return _ab_kernel


kernel = _chosen_kernel()
KERNEL_BUILD = "bmi" if kernel.__name__.endswith("_bmi") else "generic"

DEFAULT_TABLE_BITS = kernel.DEFAULT_TABLE_BITS
TABLE_BITS_RANGE = kernel.TABLE_BITS_RANGE
table_bytes = kernel.table_bytes
drop_kept_table = kernel.drop_kept_table
dd_table = kernel.dd_table
dd_tables = kernel.dd_tables
lead_values = kernel.lead_values
solve_position = kernel.solve_position
leader_tricks = kernel.leader_tricks
