"""Type stubs of the compiled double-dummy search (see ``_ab_kernel.pyx``)."""

from typing import Any

import numpy as np
import numpy.typing as npt

DEFAULT_TABLE_BITS: int
TABLE_BITS_RANGE: tuple[int, int]
BIT_INSTRUCTIONS: bool

def table_bytes(tt_bits: int = ...) -> int: ...
def drop_kept_table() -> None: ...
def batch_contexts(count: int) -> list[tuple[int, int]]: ...
def dd_table(
    hands: npt.NDArray[np.uint16],
    stats: dict[str, Any] | None = None,
    *,
    features: int = ...,
    tt_bits: int = ...,
) -> npt.NDArray[np.int32]: ...
def dd_tables(
    hands: npt.NDArray[np.uint16], threads: int = 0, *, tt_bits: int = ...
) -> npt.NDArray[np.int32]: ...
def solve_position(
    hands: npt.NDArray[np.uint16],
    trump: int,
    leader: int,
    trick: npt.NDArray[np.int32],
    stats: dict[str, Any] | None = None,
    *,
    target: int = ...,
    first_only: bool = ...,
    optimal_only: bool = ...,
    features: int = ...,
    tt_bits: int = ...,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def lead_values(
    hands: npt.NDArray[np.uint16], trump: int, leader: int, threads: int = 0, *, tt_bits: int = ...
) -> npt.NDArray[np.int32]: ...
def leader_tricks(
    hands: npt.NDArray[np.uint16],
    trump: int,
    leader: int,
    stats: dict[str, Any] | None = None,
    *,
    features: int = ...,
    tt_bits: int = ...,
) -> int: ...
