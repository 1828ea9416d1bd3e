"""One board reader: every bridge command and the batch runner accept PBN, LIN and deal-per-line
files alike, and read the same deals from each."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from engines.batch.inputs import BadInput, count_positions, read_inputs
from engines.bridge import lin, pbn
from engines.bridge.board_files import board_file_format, read_boards
from engines.cli import main


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    folder = resources.files("engines.data").joinpath("bridge")
    text = folder.joinpath("sample.pbn").read_text("utf-8")
    boards = pbn.loads(text)[:3]
    out = {"pbn": tmp_path / "boards.pbn", "lin": tmp_path / "boards.lin"}
    out["pbn"].write_text(pbn.dumps(boards))
    out["lin"].write_text(lin.dumps(boards))
    out["deals"] = tmp_path / "boards.txt"
    out["deals"].write_text("".join(b.deal.to_pbn() + "\n" for b in boards))
    out["lin-unnamed"] = tmp_path / "lin-without-suffix"
    out["lin-unnamed"].write_text(out["lin"].read_text())
    return out


def _deals(path: Path) -> list[str]:
    return [board.deal.to_pbn() for board in read_boards(path)]


def test_each_format_gives_the_same_deals(files):
    expected = _deals(files["pbn"])
    assert len(expected) == 3
    for name in ("lin", "deals", "lin-unnamed"):
        assert _deals(files[name]) == expected, name
    assert board_file_format(files["lin-unnamed"]) == "lin"
    assert board_file_format(files["deals"]) == "deals"


def test_table_analyse_and_batch_read_every_format(files, tmp_path, capsys):
    tables = {}
    for name, path in files.items():
        assert main(["bridge", "table", str(path), "--json", "-j", "1", "--no-progress"]) == 0
        tables[name] = [json.loads(line)["dd"] for line in capsys.readouterr().out.splitlines()]
        assert main(["bridge", "analyse", str(path), "--json", "-j", "1", "--no-progress"]) == 0
        assert len(capsys.readouterr().out.splitlines()) == 3
        items = list(read_inputs([str(path)]))
        assert not [i for i in items if isinstance(i, BadInput)], name
        assert [i.obj["pbn"] for i in items] == _deals(files["pbn"])
        assert count_positions([str(path)]) == 3
    assert all(t == tables["pbn"] for t in tables.values())
