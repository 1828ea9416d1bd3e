"""Progress bars that appear on a terminal and stay silent otherwise."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


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
    yield from tqdm(
        items,
        total=total,
        desc=desc,
        unit=unit,
        disable=not enabled,
        dynamic_ncols=True,
        file=sys.stderr,
    )


def progress_bar(
    *, total: int | None, desc: str = "", unit: str = "it", enabled: bool | None = None
) -> tqdm:
    """A manually updated bar (``bar.update(n)``), silent when not on a terminal."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return tqdm(
        total=total, desc=desc, unit=unit, disable=not enabled, dynamic_ncols=True, file=sys.stderr
    )


def add_progress_flags(parser: argparse.ArgumentParser) -> None:
    """Add ``--progress`` / ``--no-progress``; ``args.progress`` stays None (bar on a TTY)."""
    flags = parser.add_mutually_exclusive_group()
    flags.add_argument(
        "--progress", dest="progress", action="store_true", default=None, help="always show a bar"
    )
    flags.add_argument(
        "--no-progress", dest="progress", action="store_false", help="never show a bar"
    )
