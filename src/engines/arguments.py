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

import dataclasses
import fractions
import functools
import math
import numbers
import random
import types
import typing
from collections.abc import Iterable
from typing import Any

from engines.errors import InputError

__all__ = [
    "as_list",
    "check_fields",
    "finite_number",
    "instance_of",
    "integer",
    "list_of",
    "players_of",
    "random_source",
]


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


def check_fields(record: Any, error: type[InputError] = InputError) -> None:
    """Every field of the dataclass ``record`` holds a value of its annotated type.

    Records a caller builds by hand (a board result, a pair, a round) are
    checked once, when made, against their own annotations: ``int`` is a true
    integer, ``float`` and ``Fraction`` finite numbers, ``X | None``,
    ``tuple[X, ...]``, ``list[X]``, ``dict[K, V]`` and ``frozenset[X]`` are
    checked item by item; any other class by ``isinstance``.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class Seat:
    ...     table: int
    ...     players: tuple[str, str]
    ...     def __post_init__(self) -> None:
    ...         check_fields(self)
    >>> Seat(3, ("Ann", "Bo")).table
    3
    >>> Seat(3, ("Ann", 7))
    Traceback (most recent call last):
    ...
    engines.errors.InputError: Seat.players: expected tuple[str, str], got ('Ann', 7)
    """
    for name, hint in _field_hints(type(record)).items():
        value = getattr(record, name)
        if not _matches(value, hint):
            raise error(
                f"{type(record).__name__}.{name}: expected {_hint_text(hint)}, got {value!r}"[:300]
            )


@functools.cache
def _field_hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _matches(value: Any, hint: Any) -> bool:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_matches(value, arg) for arg in args)
    if hint is type(None):
        return value is None
    if origin is typing.Literal:
        return value in args
    if hint is int:
        return isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if hint is bool:
        return isinstance(value, bool)
    if hint is float or hint is fractions.Fraction:
        return (
            isinstance(value, numbers.Rational if hint is fractions.Fraction else numbers.Real)
            and not isinstance(value, bool)
            and math.isfinite(value)
        )
    if origin is None:
        return isinstance(value, hint) if isinstance(hint, type) else True
    if not isinstance(value, origin):
        return False
    if origin is tuple and args and args[-1] is not Ellipsis:
        return len(value) == len(args) and all(map(_matches, value, args))
    if origin in (tuple, list, frozenset, set) and args:
        return all(_matches(item, args[0]) for item in value)
    if origin is dict and len(args) == 2:
        return all(_matches(k, args[0]) and _matches(v, args[1]) for k, v in value.items())
    return True


def _hint_text(hint: Any) -> str:
    if isinstance(hint, type) and typing.get_origin(hint) is None:
        return hint.__name__
    return str(hint).replace("typing.", "").replace("fractions.", "")


def list_of(
    value: Any, kind: type | tuple[type, ...], what: str, error: type[InputError] = InputError
) -> list[Any]:
    """The items of list-like ``value``, each an instance of ``kind`` (else ``error``).

    >>> list_of([1, "2"], int, "pairs")
    Traceback (most recent call last):
    ...
    engines.errors.InputError: pairs: item 2 is '2', expected int
    """
    items = as_list(value, what, error)
    for i, item in enumerate(items, start=1):
        if not isinstance(item, kind) or (kind is int and isinstance(item, bool)):
            names = " or ".join(k.__name__ for k in (kind if isinstance(kind, tuple) else (kind,)))
            raise error(f"{what}: item {i} is {item!r}, expected {names}"[:300])
    return items


def instance_of(value: Any, kind: type, what: str, error: type[InputError] = InputError) -> Any:
    """``value`` if it is a ``kind`` (else ``error`` naming ``what``)."""
    if not isinstance(value, kind):
        raise error(f"{what} must be a {kind.__name__}, got {value!r}"[:300])
    return value


def players_of(
    value: Any, methods: tuple[str, ...], error: type[InputError] = InputError, count: int = 4
) -> list[Any]:
    """``count`` player objects, each with the callable ``methods`` a game asks of it."""
    items = as_list(value, "players", error)
    if len(items) != count:
        raise error(f"players: expected {count} players, got {len(items)}")
    for seat, player in enumerate(items):
        # a NumPy number or array has a method of any common name (choose, ...)
        numeric = (
            isinstance(player, numbers.Number | str | bytes) or type(player).__module__ == "numpy"
        )
        missing = [m for m in methods if numeric or not callable(getattr(player, m, None))]
        if missing:
            raise error(
                f"players: player {seat} ({player!r}) has no {', '.join(missing)} method"[:300]
            )
    return items


def random_source(rng: Any, error: type[InputError] = InputError) -> random.Random:
    """``rng`` if it is a :class:`random.Random` (seed one: ``random.Random(7)``)."""
    if not isinstance(rng, random.Random):
        raise error(f"rng must be a random.Random (e.g. random.Random(7)), got {rng!r}"[:300])
    return rng
