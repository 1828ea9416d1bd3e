"""Type stubs of the compiled random dealer (see ``_dealer.pyx``)."""

import numpy as np
import numpy.typing as npt

def seed_state(seed: int) -> npt.NDArray[np.uint64]: ...
def deal_batch(
    fixed: npt.NDArray[np.uint16],
    need: npt.NDArray[np.int32],
    state: npt.NDArray[np.uint64],
    out: npt.NDArray[np.uint16],
) -> npt.NDArray[np.uint16]: ...
