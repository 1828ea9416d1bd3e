"""The packed store's integer columns narrowed natively (:mod:`solvers._batch_narrow`) are
byte for byte :func:`engines.batch.store_packed.narrow`'s form of the same values: sizes and
lines as differences (NumPy's wrapping int64 arithmetic included), codes as uint32, the
repeated form of schema 7; and a block's result codes are taken as they are exactly when
NumPy's running maximum says so."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engines.batch import store_packed
from solvers._batch_narrow import codes_met_in_order, narrow_codes, narrow_steps

_INT64 = np.iinfo(np.int64)
# (each width's edges, on both sides: where narrow's choice of code changes)
_EDGES = [0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
          65536, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32 - 1, 2**32, _INT64.max,
          _INT64.min]  # fmt: skip


def _values(rng: random.Random) -> np.ndarray:
    count = rng.choice([0, 1, 2, 3, 17, 300])
    kind = rng.randrange(4)
    if kind == 0:  # (one value repeated: schema 7's 9 bytes)
        return np.full(count, rng.choice(_EDGES), dtype=np.int64)
    if kind == 1:  # (increasing, as ends and lines mostly are)
        steps = [rng.choice([0, 1, 2, 47, 48, 300, 70_000]) for _ in range(count)]
        return np.cumsum(np.array(steps, dtype=np.int64)) + rng.randint(-5, 5)
    scale = rng.choice([100, 200, 40_000, 70_000, 2**31, 2**33, 2**62])
    values = [rng.randint(-scale, scale) if rng.random() < 0.9 else rng.choice(_EDGES)
              for _ in range(count)]  # fmt: skip
    return np.array(values, dtype=np.int64)


def test_narrow_steps_and_codes_equal_numpys_narrow():
    rng = random.Random(11)
    for _ in range(3000):
        values = _values(rng)
        first = rng.choice([0, rng.randint(-1000, 1000), rng.choice(_EDGES)])
        repeated = rng.random() < 0.5
        with np.errstate(over="ignore"):  # (differences past int64 wrap, in both)
            expected = store_packed.narrow(np.diff(values, prepend=np.int64(first)), repeated)
        assert narrow_steps(values.tobytes(), first, repeated) == expected
        codes = (values & 0xFFFFFFFF).astype(np.uint32)
        assert narrow_codes(codes.tobytes(), repeated) == store_packed.narrow(codes, repeated)
    assert narrow_steps(b"", 5, True) == narrow_codes(b"", True) == bytes([0])


def _met_in_order(codes: bytes, count: int) -> bool:
    """The test before: NumPy's running maximum of the codes."""
    index = np.frombuffer(codes, dtype=np.uint32)
    met = np.maximum.accumulate(index) if len(index) else index
    return bool(len(index) and index[0] == 0 and int(met[-1]) + 1 == count and
                (len(index) == 1 or int(np.diff(met).max()) <= 1))  # fmt: skip


def test_codes_met_in_order_is_the_running_maximums_answer():
    rng = random.Random(12)
    for _ in range(3000):
        distinct = rng.randint(1, 6)
        count = rng.randint(0, 30)
        codes = [rng.randrange(distinct) for _ in range(count)]
        if rng.random() < 0.5 and codes:  # (first met in order, as a whole commit's block)
            seen: dict[int, int] = {}
            codes = [seen.setdefault(c, len(seen)) for c in codes]
        blob = np.array(codes, dtype=np.uint32).tobytes()
        for texts in (distinct, len(set(codes)), len(set(codes)) + 1):
            assert codes_met_in_order(blob, texts) == _met_in_order(blob, texts)
    assert codes_met_in_order(np.array([0, 2**32 - 1], np.uint32).tobytes(), 2**32) is False


def test_columns_of_another_length_are_refused():
    with pytest.raises(ValueError, match="another length"):
        narrow_steps(b"\0" * 9, 0, False)
    with pytest.raises(ValueError, match="another length"):
        narrow_codes(b"\0" * 6, False)
    with pytest.raises(ValueError, match="another length"):
        codes_met_in_order(b"\0" * 5, 1)
    with pytest.raises(TypeError):
        narrow_steps(None, 0, False)  # type: ignore[arg-type]
