"""Type checks for public arguments, shared by every engine.

Each helper returns the value in its plain Python form or raises the
:class:`~engines.errors.InputError` subclass the caller names, with a message
that says which argument and what was expected: a public function never lets
a wrong type through to a ``TypeError`` deep inside, nor coerces it silently
(``1.5`` threads, ``"8191"`` as a mask, ``"false"`` as true).

>>> as_list((1, 2), "scores")
[1, 2]
>>> as_list(7, "scores")
Traceback (most recent call last):
...
engines.errors.InputError: scores: expected a list, got 7
>>> finite_number(float("nan"), "margin")
Traceback (most recent call last):
...
engines.errors.InputError: margin: expected a finite number, got nan
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

from engines.errors import InputError

__all__ = ["as_list", "finite_number", "integer"]


def as_list(value: Any, what: str, error: type[InputError] = InputError) -> list[Any]:
    """The items of a list-like ``value`` (not text, not a scalar) as a list."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise error(f"{what}: expected a list, got {value!r}"[:300])
    try:
        return list(value)
    except TypeError:  # a 0-d NumPy array claims to be iterable
        raise error(f"{what}: expected a list, got {value!r}"[:300]) from None


def integer(value: Any, what: str, error: type[InputError] = InputError) -> int:
    """``value`` if it is a true integer (Python or NumPy; never a bool, float or text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise error(f"{what}: expected an integer, got {value!r}"[:300])
    return int(value)


def finite_number(value: Any, what: str, error: type[InputError] = InputError) -> float | int:
    """``value`` if it is a finite real number (never a bool, NaN, infinity or text)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise error(f"{what}: expected a finite number, got {value!r}"[:300])
    if isinstance(value, numbers.Integral):
        return int(value)
    if not math.isfinite(value):
        raise error(f"{what}: expected a finite number, got {value!r}"[:300])
    return float(value)
