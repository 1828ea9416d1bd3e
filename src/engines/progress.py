"""Progress bars that appear on a terminal and stay silent otherwise."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from tqdm import tqdm

T = TypeVar("T")


class _SilentBar:
    """A disabled bar without tqdm (its import costs ~20 ms of a short command's start).

    >>> bar = _SilentBar(total=3); bar.update(2); bar.refresh(); bar.close(); (bar.n, bar.total)
    (0, 3)
    """

    def __init__(self, total: int | None = None) -> None:
        self.total = total
        self.n = 0  # as tqdm's disabled bar: updates are not counted

    def update(self, n: float = 1) -> None:
        pass

    def refresh(self) -> None:
        pass

    def close(self) -> None:
        pass


def progress(
    items: Iterable[T],
    *,
    total: int | None = None,
    desc: str = "",
    unit: str = "it",
    enabled: bool | None = None,
) -> Iterator[T]:
    """Iterate over ``items`` with a tqdm bar on standard error.

    ``enabled=None`` shows the bar only when standard error is a terminal, so
    pipes, CI logs and redirected runs get no control characters.
    """
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(
        items,
        total=total,
        desc=desc,
        unit=unit,
        dynamic_ncols=True,
        file=sys.stderr,
    )


def progress_bar(
    *, total: int | None, desc: str = "", unit: str = "it", enabled: bool | None = None
) -> tqdm | Any:
    """A manually updated bar (``bar.update(n)``), silent when not on a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return _SilentBar(total)
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, unit=unit, dynamic_ncols=True, file=sys.stderr)


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``--progress`` / ``--no-progress``; ``args.progress`` stays None (bar on a TTY)."""
    flags = parser.add_mutually_exclusive_group()
    flags.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show a bar"
    )
    flags.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show a bar"
    )
