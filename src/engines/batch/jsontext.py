"""JSON text for the batch runner: orjson where installed, the same text as the standard library.

A batch reads one JSON object per position and writes two (the canonical input
and the result).  The standard library's encoder and decoder take several
microseconds per position, which for the fast games costs more than the kernels
do.  orjson (a dependency of qipai) does the same work several times faster.
When orjson is missing, or refuses a value, the standard library does the
work.  The results are the same either way:

* :func:`loads` gives the standard library's value. When orjson fails (invalid
  JSON, ``NaN``, lone surrogates), :func:`json.loads` decides, so errors carry
  its messages; text with a run of 19 digits or more goes straight to it (orjson
  reads integers beyond 64 bits as floats).
* :func:`canonical` is exactly
  ``json.dumps(value, sort_keys=True, separators=(",", ":"))`` (ASCII only).
  The input hashes of stores written before stay valid. The fast encoder runs
  only for ``plain`` values: str, int, bool, None, lists, tuples and dicts with
  str keys, and no floats (the two libraries spell some floats differently:
  ``1e+16`` against ``1e16``).  Text that would not be ASCII goes to the
  standard library too, which escapes it, and so does text with DEL (``\\x7f``),
  which only the standard library escapes.

>>> canonical({"b": [1, "x"], "a": None}, plain=True)
'{"a":null,"b":[1,"x"]}'
>>> canonical({"é": 1.5}, plain=False)
'{"\\\\u00e9":1.5}'
>>> loads('{"x": NaN}')["x"]
nan
"""

from __future__ import annotations

import json
from typing import Any

from solvers._batch_rows import split_array

try:
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency; this keeps odd installs working
    orjson = None

__all__ = ["canonical", "canonical_items", "loads"]

# Every byte to "." but the ASCII digits, to "d": a run of 19 digits is then one search
# for _LONG_RUN in C (a regular expression took several times longer than that on
# number-heavy lines).
_DIGIT_RUNS = bytes(ord("d") if 0x30 <= i <= 0x39 else ord(".") for i in range(256))
_LONG_RUN = b"d" * 19


def loads(text: str) -> Any:
    """:func:`json.loads`, faster; raises :class:`json.JSONDecodeError` with its message."""
    if orjson is not None:
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate: the standard library decides
            return json.loads(text)
        if _LONG_RUN not in data.translate(_DIGIT_RUNS):
            try:
                return orjson.loads(data)
            except orjson.JSONDecodeError:
                pass  # the standard library decides (it reads NaN) and words the errors
    return json.loads(text)


def canonical(value: Any, *, plain: bool) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"))``; ``plain``: see the module."""
    if plain and orjson is not None:
        try:
            data = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
        except TypeError:  # orjson.JSONEncodeError: a value it will not encode
            pass
        else:
            # The standard library escapes DEL (0x7f), which orjson writes as is.
            if data.isascii() and b"\x7f" not in data:
                return data.decode("ascii")
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def canonical_items(values: list[Any]) -> list[str] | None:
    """``[canonical(v, plain=True) for v in values]`` in one orjson call (the items' text in
    the array's text is the text of each item alone), or ``None`` when that cannot be used:
    no orjson, a value it refuses, text the standard library would write otherwise."""
    if orjson is None:
        return None
    try:
        data = orjson.dumps(values, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None
    if not data.isascii() or b"\x7f" in data:
        return None
    texts = split_array(data)
    return texts if texts is not None and len(texts) == len(values) else None
