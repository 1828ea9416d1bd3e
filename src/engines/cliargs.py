"""The flags every ``qipai`` command shares, spelled and checked in one place.

``docs/architecture.md`` ("Command-line conventions") is the rule book; this
module is how commands follow it.  A flag means one thing everywhere:

==================  ==========================================================
``--json``          machine-readable output: one JSON object, or JSON Lines
``-j, --threads``   solver threads or worker processes (default: all cores)
``--seed``          random seed
``-n, --count``     how many positions / rounds / cases
``-o, --output``    output file (``-`` or absent: standard output)
``-p, --players``   comma-separated player kinds, one per seat
``-t, --trump``     the trump suit / strain
``--progress``      progress bar on or off (default: on a terminal)
==================  ==========================================================

Old spellings that users may have in scripts stay accepted through
:func:`add_deprecated_flag`: ``--help`` lists them as deprecated and using one
prints a one-line warning on standard error.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="demo")
>>> add_json_flag(parser)
>>> add_threads_flag(parser)
>>> add_deprecated_flag(parser, "-f", "--format", dest="legacy_format",
...                     replacement="--json", choices=("text", "json"))
>>> args = parser.parse_args(["-j", "2", "--json"])
>>> args.json, args.threads
(True, 2)
>>> parser.parse_args(["-j", "0"])  # doctest: +SKIP
demo: error: argument -j/--threads: expected an integer >= 1, got '0'
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from engines.errors import InputError
from engines.progress import add_progress_flags

__all__ = [
    "add_count_flag",
    "add_deprecated_flag",
    "add_json_flag",
    "add_output_flag",
    "add_players_flag",
    "add_progress_flags",
    "add_seed_flag",
    "add_threads_flag",
    "add_trump_flag",
    "non_negative_int",
    "open_output",
    "positive_int",
    "split_list",
]


def positive_int(text: str) -> int:
    """argparse type: an integer >= 1."""
    return _bounded_int(text, 1)


def non_negative_int(text: str) -> int:
    """argparse type: an integer >= 0."""
    return _bounded_int(text, 0)


def _bounded_int(text: str, low: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"expected an integer >= {low}, got {text!r}")
    return value


def add_json_flag(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``--json``: machine-readable output (``args.json``)."""
    parser.add_argument(
        "--json",
        action="store_true",
        help=help or "print JSON (JSON Lines, one object a line, when there are several)",
    )


def add_threads_flag(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``-j/--threads N`` (``args.threads``, None = all cores)."""
    parser.add_argument(
        "-j",
        "--threads",
        type=positive_int,
        default=None,
        metavar="N",
        help=help or "solver threads (default: all cores)",
    )


def add_seed_flag(
    parser: argparse.ArgumentParser, default: int | None = 0, help: str | None = None
) -> None:
    """``--seed N`` (``args.seed``)."""
    shown = "random" if default is None else str(default)
    parser.add_argument(
        "--seed", type=int, default=default, metavar="N", help=help or f"random seed ({shown})"
    )


def add_count_flag(
    parser: argparse.ArgumentParser, default: int, what: str = "positions", dest: str = "count"
) -> None:
    """``-n/--count N`` (``args.count``): how many ``what`` to make or take.

    A ``dest`` other than ``count`` adds ``--<dest>`` as a second long spelling
    (``-n/--count/--rounds``, stored in ``args.rounds``).
    """
    extra = () if dest == "count" else (f"--{dest}",)
    parser.add_argument(
        "-n",
        "--count",
        *extra,
        dest=dest,
        type=non_negative_int,
        default=default,
        metavar="N",
        help=f"number of {what} ({default})",
    )


def add_output_flag(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """``-o/--output FILE`` (``args.output``; ``-`` = standard output, the default)."""
    parser.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="FILE",
        help=help or "output file (default: standard output)",
    )


def add_players_flag(
    parser: argparse.ArgumentParser, default: str, kinds: Sequence[str], help: str = ""
) -> None:
    """``-p/--players KIND,KIND,…``: one player kind per seat (``args.players``, a string)."""
    parser.add_argument(
        "-p",
        "--players",
        default=default,
        metavar="KINDS",
        help=(help + " " if help else "")
        + f"comma-separated player kinds, one per seat ({', '.join(kinds)}; {default})",
    )


def add_trump_flag(
    parser: argparse.ArgumentParser, choices_text: str, required: bool = True
) -> None:
    """``-t/--trump`` (``args.trump``): the trump suit or strain."""
    parser.add_argument("-t", "--trump", required=required, help=choices_text)


def split_list(text: str) -> list[str]:
    """``"a, b,,c"`` → ``["a", "b", "c"]``: the items of a comma-separated flag value."""
    return [item.strip() for item in text.split(",") if item.strip()]


def seat_kinds(players: str, seats: int = 4) -> list[str]:
    """The player kind of every seat from ``-p/--players``: one kind per seat, or one for all.

    >>> seat_kinds("heuristic")
    ['heuristic', 'heuristic', 'heuristic', 'heuristic']
    >>> seat_kinds("a,b")
    Traceback (most recent call last):
    engines.errors.InputError: --players: expected 1 or 4 names, got 2
    """
    names = split_list(players)
    if len(names) == 1:
        names *= seats
    if len(names) != seats:
        raise InputError(f"--players: expected 1 or {seats} names, got {len(names)}")
    return names


class _DeprecatedFlag(argparse.Action):
    """Stores like the flag it stands for, and warns on standard error when used."""

    def __init__(self, option_strings: list[str], dest: str, replacement: str, **kwargs: Any):
        self.replacement = replacement
        self.const_value = kwargs.pop("const", None)
        if self.const_value is not None:
            kwargs["nargs"] = 0
        super().__init__(option_strings, dest, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        print(
            f"qipai: warning: {option_string} is deprecated; use {self.replacement}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, self.const_value if self.const_value is not None else values)


def add_deprecated_flag(
    parser: argparse.ArgumentParser,
    *flags: str,
    dest: str,
    replacement: str,
    const: Any = None,
    **kwargs: Any,
) -> None:
    """Keep an old spelling working: it stores into ``dest`` (``const`` for a switch).

    ``--help`` shows it with "deprecated: use REPLACEMENT"; using it prints a warning.
    """
    kwargs.setdefault("default", argparse.SUPPRESS)
    parser.add_argument(
        *flags,
        dest=dest,
        action=_DeprecatedFlag,
        replacement=replacement,
        const=const,
        help=f"deprecated: use {replacement}",
        **kwargs,
    )


@contextmanager
def open_output(path: str | None) -> Iterator[TextIO]:
    """Standard output for ``None`` or ``-``, else ``path`` opened for writing (UTF-8).

    A file that cannot be created raises :class:`InputError` naming it.
    """
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
    except OSError as exc:
        raise InputError(f"{path}: cannot write: {exc.strerror}") from exc
    with handle:
        yield handle
