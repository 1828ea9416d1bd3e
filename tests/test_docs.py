"""The repository's own map: the rules copies and the links of its Markdown pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
         ROOT / "benches" / "README.md", ROOT / "tests" / "README.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _shared_rules() -> Path | None:
    """The project's workspace copy of the rules (``shared/rules`` beside a parent), if any."""
    for parent in ROOT.parents:
        candidate = parent / "shared" / "rules"
        if candidate.is_dir():
            return candidate
    return None


@pytest.mark.parametrize("page", [p for p in PAGES if p.exists()], ids=lambda p: p.name)
def test_relative_links_resolve(page):
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        if not (page.parent / target.split("#")[0]).exists():
            broken.append(target)
    assert broken == []


def test_rules_copies_are_byte_identical_where_the_workspace_is_at_hand():
    shared = _shared_rules()
    if shared is None:
        pytest.skip("no shared/rules beside this checkout (a plain clone): nothing to compare")
    ours = {p.name: p.read_bytes() for p in (ROOT / "docs" / "rules").glob("*.md")}
    theirs = {p.name: p.read_bytes() for p in shared.glob("*.md")}
    assert sorted(ours) == sorted(theirs)
    assert [name for name in theirs if ours[name] != theirs[name]] == []
