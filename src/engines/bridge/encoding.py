"""Decode bridge files the way real software writes them: UTF-8 or Latin-1.

PBN 2.1 files are ISO 8859-1 (Latin-1) by the standard, and BridgeComposer
and older scorers write them so; BBO, RealBridge and most newer tools write
UTF-8, some with a byte-order mark.  A file that decodes as UTF-8 is UTF-8
(pure ASCII reads the same either way); anything else is Latin-1, which
decodes every byte.  The encoding found is kept so a file can be written back
in the encoding it came in.

>>> decode_bytes("Jos\\u00e9".encode("latin-1"))
('José', 'latin-1')
>>> decode_bytes("Jos\\u00e9".encode("utf-8"))
('José', 'utf-8')
>>> decode_bytes(b"\\xef\\xbb\\xbf[Event \\"x\\"]")
('[Event "x"]', 'utf-8-sig')
"""

from __future__ import annotations

import os
from pathlib import Path

from engines.bridge.seats import BridgeInputError

__all__ = ["decode_bytes", "encode_text", "read_text"]

_BOM = b"\xef\xbb\xbf"


def decode_bytes(data: bytes) -> tuple[str, str]:
    """``(text, encoding)``: UTF-8 (``utf-8-sig`` with a byte-order mark) or Latin-1."""
    if data.startswith(_BOM):
        return data[len(_BOM) :].decode("utf-8", errors="replace"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def read_text(path: str | Path) -> tuple[str, str]:
    """The text of ``path`` and its encoding; an unreadable file is a :class:`BridgeInputError`."""
    if not isinstance(path, str | os.PathLike):
        raise BridgeInputError(f"expected a file path, got {path!r}"[:300])
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BridgeInputError(f"{path}: cannot open: {exc.strerror}") from exc
    return decode_bytes(data)


def encode_text(text: str, encoding: str) -> tuple[bytes, str]:
    """``(data, encoding used)``: Latin-1 text with a character Latin-1 lacks becomes UTF-8."""
    try:
        return text.encode(encoding), encoding
    except UnicodeEncodeError:
        return text.encode("utf-8"), "utf-8"
