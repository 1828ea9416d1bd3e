from solvers._batch_columns import Strings

Piece = tuple[object, int, int, bytes | bytearray | None]

def gather_fixed(pieces: list[tuple[bytes, int, int, bytes | bytearray | None]],
                 width: int) -> bytes: ...
def gather_strings(pieces: list[tuple[Strings, int, int, bytes | bytearray | None]]) -> Strings: ...
