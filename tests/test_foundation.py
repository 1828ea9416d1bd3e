"""The foundation: package metadata, compiled core, CLI registry and shared helpers."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

import engines
import solvers
from engines.cli import build_parser, main
from engines.errors import InputError
from engines.games import GAMES
from engines.verify import Mismatch, VerifyReport, read_jsonl


def test_version_is_the_installed_distribution_version():
    from importlib.metadata import version

    assert engines.__version__ == version("qipai")


def test_version_read_from_the_first_metadata_folder_on_the_path(tmp_path, monkeypatch):
    """``engines._installed_version`` reads what importlib.metadata would find, and leaves
    what it cannot read plainly to importlib.metadata."""
    from importlib.metadata import version

    first, second, empty = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    (first / "Qipai-9.1.dist-info").mkdir(parents=True)
    (first / "Qipai-9.1.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: qipai\nVersion: 9.1\n\nVersion: 0\n"
    )
    (second / "qipai.egg-info").mkdir(parents=True)
    (second / "qipai.egg-info" / "PKG-INFO").write_text("Name: qipai\nVersion: 8.2\n")
    empty.mkdir()
    for path, expected in (([empty, first, second], "9.1"), ([second, first], "8.2")):
        monkeypatch.setattr(sys, "path", [str(p) for p in path])
        assert engines._installed_version() == expected == version("qipai")
    monkeypatch.setattr(sys, "path", [str(empty)])
    assert engines._installed_version() == "0.0.0+source"


@pytest.mark.parametrize("backport", [False, True], ids=["stdlib", "importlib_metadata"])
def test_version_of_metadata_without_a_version_header(tmp_path, monkeypatch, backport):
    """No ``Version`` header before the blank line: importlib.metadata decides and finds
    none (the stdlib gives None; the importlib_metadata backport, once imported, as dask
    does, installs its finder and raises KeyError): "0.0.0+unknown" either way."""
    if backport:
        pytest.importorskip("importlib_metadata")
    (tmp_path / "qipai-7.dist-info").mkdir()
    (tmp_path / "qipai-7.dist-info" / "METADATA").write_text("Name: qipai\n\nVersion: 7\n")
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert engines._installed_version() == "0.0.0+unknown"


def test_compiled_core_reports_its_threading():
    assert isinstance(solvers.openmp_available(), bool)
    threads = solvers.max_threads()
    assert threads >= 1
    if not solvers.openmp_available():
        assert threads == 1


def test_help_lists_every_game(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    for game in GAMES:
        assert game.key in text
    assert "demo" in text


def test_version_flag(capsys):
    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"qipai {engines.__version__}"


@pytest.mark.parametrize("group", [game.key for game in GAMES])
def test_every_game_group_has_help_and_commands(group, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([group, "--help"])
    assert exit_info.value.code == 0
    text = capsys.readouterr().out
    assert f"{group} commands" in text
    # A group without a single registered command would be a placeholder.
    subparsers = _group_commands(group)
    assert subparsers, f"qipai {group} has no commands"
    for command in subparsers:
        with pytest.raises(SystemExit) as exit_info:
            main([group, command, "--help"])
        assert exit_info.value.code == 0


def _group_commands(group: str) -> list[str]:
    import argparse

    parser = build_parser()
    top = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    group_parser = top.choices[group]
    actions = [a for a in group_parser._actions if isinstance(a, argparse._SubParsersAction)]
    return list(actions[0].choices) if actions else []


def test_group_without_command_prints_its_help(capsys):
    assert main(["bridge"]) == 0
    assert "bridge commands" in capsys.readouterr().out


def test_demo_rejects_unknown_game(capsys):
    assert main(["demo", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err


def test_a_game_command_parses_alike_with_its_group_alone():
    argv = ["bridge", "lead", "KJ84.Q93.T72.A65", "--contract", "3NT", "--by", "S", "-n", "5"]
    alone, full = build_parser(only="bridge").parse_args(argv), build_parser().parse_args(argv)
    assert vars(alone).keys() == vars(full).keys()
    assert all(getattr(alone, k) == getattr(full, k) for k in vars(full) if k != "func")
    assert alone.func.__qualname__ == full.func.__qualname__


def test_console_script_runs_as_module():
    result = subprocess.run(
        [sys.executable, "-m", "engines", "--version"], capture_output=True, text=True, check=True
    )
    assert result.stdout.startswith("qipai ")


def test_input_error_is_a_value_error():
    assert issubclass(InputError, ValueError)


def test_verify_report_counts_and_exit_status():
    out = io.StringIO()
    report = VerifyReport(out=out)
    report.add("a", [])
    report.add("b", [Mismatch("b", "dd.S.N", 9, 8)])
    report.add("c", [])
    assert report.finish() == 1
    lines = out.getvalue().splitlines()
    assert lines[0] == "MISMATCH b dd.S.N: expected 9, got 8"
    assert lines[-1] == "verified 3 records: 2 match, 1 differ"

    clean = VerifyReport(out=io.StringIO())
    clean.add("x", [])
    assert clean.finish() == 0


def test_read_jsonl_names_file_and_line(tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps({"id": 1}) + "\n\n" + "{broken\n")
    reader = read_jsonl(path)
    assert next(reader) == (1, {"id": 1})
    with pytest.raises(InputError, match=r"cases.jsonl:3: not valid JSON"):
        next(reader)


def test_read_jsonl_rejects_non_objects(tmp_path):
    path = tmp_path / "list.jsonl"
    path.write_text("[1, 2]\n")
    with pytest.raises(InputError, match="expected a JSON object, got list"):
        list(read_jsonl(path))


def test_read_jsonl_missing_file(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        list(read_jsonl(tmp_path / "absent.jsonl"))


def test_progress_is_silent_off_a_terminal(capsys):
    from engines.progress import progress

    assert list(progress(range(5), desc="x", enabled=False)) == [0, 1, 2, 3, 4]
    assert capsys.readouterr().err == ""
