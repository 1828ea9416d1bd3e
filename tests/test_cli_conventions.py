"""One set of CLI conventions: a flag means one thing in every command; old spellings still work."""

from __future__ import annotations

import argparse
import json

import pytest

from engines.cli import build_parser, main
from engines.cliargs import _DeprecatedFlag
from engines.errors import InputError

# Flags with one meaning everywhere (docs/architecture.md, "Command-line conventions").
CONVENTIONAL = {
    "--json": "json",
    "-j": "threads",
    "--threads": "threads",
    "--seed": "seed",
    "-o": "output",
    "-p": "players",
    "--players": "players",
    "-t": "trump",
    "--trump": "trump",
}


def _leaf_parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        yield path, parser
        return
    for name, child in subs[0].choices.items():
        if child is not parser:
            yield from _leaf_parsers(child, (*path, name))


def test_every_flag_means_one_thing_everywhere():
    seen: dict[str, set[str]] = {}
    for path, parser in _leaf_parsers(build_parser()):
        for action in parser._actions:
            if isinstance(action, _DeprecatedFlag):
                assert "deprecated: use" in (action.help or "")
                continue
            for flag in action.option_strings:
                seen.setdefault(flag, set()).add(action.dest)
                if flag == "-n":  # how many: its long spellings include --count
                    assert "--count" in action.option_strings, (path, action.option_strings)
                elif flag in CONVENTIONAL:
                    assert action.dest == CONVENTIONAL[flag], (path, flag, action.dest)
    how_many = ("-n", "--count")
    clashes = {f: d for f, d in seen.items() if len(d) > 1 and f not in how_many}
    assert not clashes, clashes


def test_batch_task_short_flag_is_deprecated_but_works(tmp_path, capsys):
    cases = tmp_path / "cases.jsonl"
    assert main(["gen", "shengji", "-n", "4", "--seed", "3", "-o", str(cases)]) == 0
    db = tmp_path / "r.sqlite"
    assert main(["batch", str(cases), "-t", "shengji-legal", "--db", str(db), "-j", "1"]) == 0
    assert "-t is deprecated; use --task" in capsys.readouterr().err
    assert main(["batch", str(cases), "--task", "shengji-legal", "--db", str(db)]) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert main(["batch", str(cases), "--db", str(db)]) == 2
    assert "--task is required" in capsys.readouterr().err


def test_shengji_play_json_flag_equals_the_old_format_flag(capsys):
    assert main(["shengji", "play", "--seed", "3", "-p", "random", "--json"]) == 0
    new = capsys.readouterr().out
    assert main(["shengji", "play", "--seed", "3", "-p", "random", "-f", "json"]) == 0
    captured = capsys.readouterr()
    assert captured.out == new and json.loads(new)["level"]
    assert "-f is deprecated; use --json" in captured.err


def test_rummikub_players_is_a_list_of_kinds(capsys):
    assert main(["rummikub", "play", "--players", "solver,random", "--seed", "4"]) == 0
    new = capsys.readouterr().out
    assert main(["rummikub", "play", "--players", "2", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert captured.out == new
    assert "--players N is deprecated" in captured.err
    assert main(["rummikub", "play", "--players", "solver"]) == 2
    assert main(["rummikub", "play", "--players", "solver,robot"]) == 2


def test_shengji_follows_level_long_flag(capsys):
    args = ["shengji", "follows", "-t", "H", "--hand", "D2 D2 D3 C4", "--lead", "D9"]
    assert main([*args, "--level", "10"]) == 0
    new = capsys.readouterr().out
    assert main([*args, "-l", "10"]) == 0
    assert capsys.readouterr().out == new
    assert main(args) == 2


@pytest.mark.parametrize("flag", ["--leader", "-l"])
def test_bridge_solve_leader(flag, capsys):
    assert main(["bridge", "solve", "N:A.K.2. K.A.3. Q.Q.4. J.J.5.", "-t", "NT", flag, "N"]) == 0
    assert "A" in capsys.readouterr().out


@pytest.mark.parametrize("game", ["shengji", "shuangkou"])
def test_every_conformance_kind_is_evaluated(game):
    """Each kind that ``check --help`` names reaches its own branch of ``evaluate``:
    a record with no other field fails on a missing field, not as an unknown kind."""
    import importlib

    kinds = importlib.import_module(f"engines.{game}.kinds").CONFORMANCE_KINDS
    evaluate = importlib.import_module(f"engines.{game}.verify").evaluate
    for kind in kinds:
        with pytest.raises(InputError) as caught:
            evaluate({"kind": kind})
        assert "unknown" not in str(caught.value), kind
    with pytest.raises(InputError, match="unknown"):
        evaluate({"kind": "no_such_kind"})
