"""What every events module shares: exact numbers and field checks.

Numbers that the rules compare (averages, percentages, Rates) are kept as
:class:`fractions.Fraction`; a JSON decimal such as ``2.5`` or ``48.25`` is read
through its shortest text form, so it means exactly what was written.

>>> exact(2.5), exact(7), exact("0.8")
(Fraction(5, 2), Fraction(7, 1), Fraction(4, 5))
>>> as_json_number(Fraction(1, 3)), as_json_number(Fraction(6, 1))
(0.333333, 6)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engines.events.errors import EventInputError

__all__ = ["as_json_number", "exact", "need_int", "where"]


def where(source: str | None, record: str | None = None) -> str:
    """The ``file: record`` prefix of an error message (either part may be absent)."""
    parts = [part for part in (source, record) if part]
    return ": ".join(parts) + ": " if parts else ""


def exact(value: Any, what: str = "number") -> Fraction:
    """A JSON number (int, float, decimal text) as the exact decimal it was written as."""
    if isinstance(value, bool):
        raise EventInputError(f"{what} must be a number, got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise EventInputError(f"{what} must be a finite number, got {value!r}")
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise EventInputError(f"{what} must be a number, got {value!r}")


def need_int(value: Any, what: str) -> int:
    """``value`` if it is a JSON integer (``3.0`` is accepted as 3), else an error naming it."""
    if isinstance(value, bool):
        raise EventInputError(f"{what} must be an integer, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise EventInputError(f"{what} must be an integer, got {value!r}")


def as_json_number(value: Fraction | int, places: int = 6) -> int | float:
    """Section 15.2 output: integers stay integers, other values rounded to ``places`` decimals."""
    if isinstance(value, int) or value.denominator == 1:
        return int(value)
    return round(float(value), places)
