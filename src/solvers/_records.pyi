from typing import Any

OK: int
REFER: int
BLANK: int
KEY_NAME: int
KEY_CARDS: int
KEY_CARD_LISTS: int
KEY_ID: int
KEY_NULL_ONLY: int
ITEM_NAME: int
ITEM_CARDS: int
ITEM_NULLABLE_CARDS: int
ITEM_CARD_LISTS: int
ITEM_CONST: int

class RecordSpec:
    def __init__(
        self,
        keys: list[tuple[str, int, tuple[str, ...]]],
        cards: list[str],
        kinds: list[list[tuple[int, str, int]] | None],
    ) -> None: ...

def scan(
    spec: RecordSpec, lines: list[Any]
) -> tuple[bytearray, list[str | None], list[str | None], list[bytes | None]]: ...
def scan_text(
    spec: RecordSpec, text: str, digests: bool = False
) -> tuple[Any, ...]: ...
def scan_columns(spec: RecordSpec, text: str | bytes | bytearray) -> tuple[Any, ...]: ...
def unpacked_texts(
    spec: RecordSpec, packs: bytes, ends: bytes, texts: bool = True
) -> tuple[bytearray, tuple[bytes, bytes], bytes]: ...
def whole_frames(data: bytes | bytearray) -> tuple[int, int]: ...
def packed_records(
    spec: RecordSpec, data: bytes | bytearray | memoryview, first: int = 0, texts: bool = False,
    packs: bool = True, hashed: bool = True, compact: bool = True,
) -> tuple[
    bytearray, tuple[bytes, bytes], tuple[bytes, bytes] | None, tuple[bytes, bytes], bytes, bytes
]: ...
def xxh64(data: bytes | bytearray | memoryview, seed: int = 0) -> int: ...
