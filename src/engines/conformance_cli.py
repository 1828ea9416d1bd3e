"""The ``check`` and ``verify`` commands of the games whose rules files define a
conformance case format (升级 and 双扣): one parser spelling and one output format.

``qipai <game> check POSITION.json`` answers one question of the format and,
when the object has an ``expected`` field, says whether the answer agrees
(exit 1 if not); ``qipai <game> verify FILE.jsonl`` checks every record of a file
through the game's ``verify_file`` (``docs/architecture.md``, "Verify").

>>> import io, json, tempfile
>>> with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
...     _ = f.write(json.dumps({"kind": "twice", "n": 2, "expected": 4}))
>>> out = io.StringIO()
>>> run_check(f.name, lambda r: r["n"] * 2, lambda r, got: [], out)
0
>>> print(out.getvalue(), end="")
{"kind": "twice", "answer": 4}
agrees with expected
>>> import os; os.unlink(f.name)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from engines.errors import InputError
from engines.verify import Mismatch

Command = Callable[..., int]  # (args, out=None) -> exit status


def add_conformance_commands(
    subparsers: argparse._SubParsersAction, kinds: Sequence[str], check: Command, verify: Command
) -> None:
    """Add ``check POSITION`` and ``verify FILE`` to a game's command group."""
    c = subparsers.add_parser(
        "check",
        help="answer one position question (conformance case format)",
        description=(
            f"Read one JSON object in the conformance format (kind {', '.join(kinds[:-1])} "
            f"or {kinds[-1]}) and print the answer; when it has an 'expected' field, say "
            "whether they agree (exit 1 if not)."
        ),
    )
    c.add_argument("position", help="JSON file ('-' for stdin)")
    c.set_defaults(func=check)

    v = subparsers.add_parser(
        "verify",
        help="check every record of a conformance JSON Lines file",
        description="Recompute every record and print each mismatch and a summary line.",
    )
    v.add_argument("file", help="JSON Lines file in the conformance format")
    v.set_defaults(func=verify)


def read_json_object(path: str) -> dict[str, Any]:
    """The one JSON object of a file (``-``: standard input); :class:`InputError` otherwise."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"{path}: cannot open: {exc.strerror}") from exc
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON: {exc.msg} (line {exc.lineno})") from exc
    if not isinstance(obj, dict):
        raise InputError(f"{path}: expected a JSON object, got {type(obj).__name__}")
    return obj


def run_check(
    path: str,
    answer: Callable[[dict[str, Any]], Any],
    mismatches: Callable[[dict[str, Any], Any], list[Mismatch]],
    out: TextIO | None = None,
) -> int:
    """The ``check`` command: print the answer to the question in ``path`` and, when
    it has an ``expected`` field, each mismatch and whether they agree.

    Returns the exit status: 1 when the answer differs from ``expected``, else 0.
    A malformed question raises :class:`InputError` naming the file.
    """
    out = out or sys.stdout
    record = read_json_object(path)
    try:
        got = answer(record)
        diffs = mismatches(record, got) if "expected" in record else []
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    print(json.dumps({"kind": record.get("kind"), "answer": got}, ensure_ascii=False), file=out)
    if "expected" not in record:
        return 0
    for diff in diffs:
        print(diff, file=out)
    print("agrees with expected" if not diffs else "differs from expected", file=out)
    return 1 if diffs else 0
