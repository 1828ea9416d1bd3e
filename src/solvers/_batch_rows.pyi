from solvers._batch_columns import Strings

def split_array(data: bytes) -> list[str] | None: ...
def block_json(
    ids: list[str],
    lines: list[int],
    inputs: list[str],
    results: list[str | None],
    errors: list[str | None],
    seconds: list[float],
) -> str | None: ...
def block_json_columns(
    ids: Strings,
    lines: bytes,
    inputs: Strings,
    results: list[str | None],
    errors: list[str | None],
    seconds: list[float],
) -> str | None: ...
def block_json_parts(
    parts: list[tuple[Strings, bytes, Strings]],
    lo: int,
    hi: int,
    results: list[str | None],
    errors: list[str | None],
    seconds: list[float],
) -> str | None: ...
