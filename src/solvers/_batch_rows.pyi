def split_array(data: bytes) -> list[str] | None: ...
def block_json(
    ids: list[str],
    lines: list[int],
    inputs: list[str],
    results: list[str | None],
    errors: list[str | None],
    seconds: list[float],
) -> str | None: ...
