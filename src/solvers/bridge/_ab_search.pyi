"""Type stubs of the compiled double-dummy search (see ``_ab_search.pyx``)."""

from typing import Any

import numpy as np
import numpy.typing as npt

def dd_table(
    hands: npt.NDArray[np.uint16], stats: dict[str, Any] | None = None
) -> npt.NDArray[np.int32]: ...
def dd_tables(hands: npt.NDArray[np.uint16], threads: int = 0) -> npt.NDArray[np.int32]: ...
def solve_position(
    hands: npt.NDArray[np.uint16],
    trump: int,
    leader: int,
    trick: npt.NDArray[np.int32],
    stats: dict[str, Any] | None = None,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
def leader_tricks(
    hands: npt.NDArray[np.uint16], trump: int, leader: int, stats: dict[str, Any] | None = None
) -> int: ...
def _set_features(features: int) -> None: ...
