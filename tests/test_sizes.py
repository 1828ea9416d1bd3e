"""Small rooms: no module over 600 lines and no function over 100 lines in ``src/``,
unless the file says why (``docs/architecture.md``, "Rules every module follows").

A file says why with the words "longer than the project's 100 lines" (a function: in
its docstring or the comment above it) or "longer than the project's 600 lines" (a
module), followed by the reason.  Run this file alone to list every room over the
limits: ``python -m pytest tests/test_sizes.py -q``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MODULE_LINES = 600
FUNCTION_LINES = 100
WHY_FUNCTION = "longer than the project's 100 lines"
WHY_MODULE = "longer than the project's 600 lines"

# Files another piece of work is changing as this is written; each entry names why
# it is over and who splits it.  Remove an entry once the file is back under the limits.
KNOWN: dict[str, str] = {
}

_CYTHON_DEF = re.compile(r"\s*(?:cdef|cpdef|def)\s[^=]*\(")


def _sources() -> list[Path]:
    return sorted(p for p in SRC.rglob("*") if p.suffix in (".py", ".pyx", ".pxd"))


def _python_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every function, docstring and comment above included."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((node.name, first, node.end_lineno - node.lineno + 1))
    return out


def _cython_functions(text: str) -> list[tuple[str, int, int]]:
    """The same for Cython, by indentation: a body is every deeper or blank line."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        if not _CYTHON_DEF.match(line):
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (
            not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent
            or lines[j].lstrip().startswith(")")
        ):
            j += 1
        while j > i + 1 and not lines[j - 1].strip():
            j -= 1
        out.append((line.split("(")[0].split()[-1], i + 1, j - i))
    return out


def _says_why(lines: list[str], first: int, length: int) -> bool:
    """The function's text, or the five lines above it, give the reason."""
    around = "\n".join(lines[max(0, first - 6) : first - 1 + length])
    return WHY_FUNCTION in " ".join(around.replace("#", " ").split())


def oversized() -> list[str]:
    """Every module and function over the limits whose file does not say why."""
    found = []
    for path in _sources():
        name = path.relative_to(SRC).as_posix()
        if name in KNOWN:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        if len(lines) > MODULE_LINES and WHY_MODULE not in " ".join(text.split()):
            found.append(f"{name}: {len(lines)} lines")
        functions = _python_functions(text) if path.suffix == ".py" else _cython_functions(text)
        for function, first, length in functions:
            if length > FUNCTION_LINES and not _says_why(lines, first, length):
                found.append(f"{name}:{first} {function}: {length} lines")
    return found


def test_no_oversized_module_or_function_without_a_reason():
    assert oversized() == []


def test_known_exceptions_still_exist_and_are_still_over():
    for name in KNOWN:
        path = SRC / name
        assert path.exists(), f"{name} is gone: drop it from KNOWN"
        text = path.read_text(encoding="utf-8")
        functions = _python_functions(text) if path.suffix == ".py" else _cython_functions(text)
        over = len(text.splitlines()) > MODULE_LINES or any(
            length > FUNCTION_LINES for _, _, length in functions
        )
        assert over, f"{name} is back under the limits: drop it from KNOWN"


def test_the_checker_finds_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES + 1))
    assert _python_functions(f"def f():\n{body}\n")[0][2] == FUNCTION_LINES + 2
    cython = f"cdef int f(int a) nogil:\n{body}\n    return 0\n\ndef g():\n    pass\n"
    assert [(n, length) for n, _, length in _cython_functions(cython)] == [
        ("f", FUNCTION_LINES + 3),
        ("g", 2),
    ]
