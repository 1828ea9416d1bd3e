"""Type stubs of the double-dummy search chosen for this CPU (see ``_ab_search.pyx``)."""

from types import ModuleType

from solvers.bridge._ab_kernel import DEFAULT_TABLE_BITS as DEFAULT_TABLE_BITS
from solvers.bridge._ab_kernel import TABLE_BITS_RANGE as TABLE_BITS_RANGE
from solvers.bridge._ab_kernel import dd_table as dd_table
from solvers.bridge._ab_kernel import dd_tables as dd_tables
from solvers.bridge._ab_kernel import drop_kept_table as drop_kept_table
from solvers.bridge._ab_kernel import lead_values as lead_values
from solvers.bridge._ab_kernel import leader_tricks as leader_tricks
from solvers.bridge._ab_kernel import solve_position as solve_position
from solvers.bridge._ab_kernel import table_bytes as table_bytes

kernel: ModuleType
KERNEL_BUILD: str

def cpu_has_bit_instructions() -> bool: ...
