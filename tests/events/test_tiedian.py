"""The 贴点 expected-score table: the shipped one, its construction, user tables."""

from __future__ import annotations

import json

import pytest

from engines.cli import main
from engines.events.errors import EventInputError
from engines.events.expected import build_table, from_samples
from engines.events.tiedian import TiedianBoard, check_table, default_table, tiedian_session


def test_shipped_table_is_antisymmetric_and_documented():
    from importlib import resources

    table = default_table()
    assert len(table) == 41 and table[20] == 0
    assert all(table[40 - h] == -table[h] for h in range(41))
    assert table[30] > table[25] > 0 > table[15]  # more HCP, more expected
    text = resources.files("engines.data").joinpath("events/tiedian_table.json").read_text("utf-8")
    data = json.loads(text)
    assert data["table"] == table and data["deals"] == sum(data["samples"]) // 2
    assert data["command"].startswith("qipai events tiedian-table -n ")


def test_table_from_samples_pools_thin_entries():
    samples = {19: [-40, -60], 20: [0, 0], 21: [40, 60], 30: [400]}
    table = from_samples(samples, min_samples=2)
    assert table[20] == 0 and table[21] == 50 and table[19] == -50
    assert table[30] == 167  # alone it has too few: widened to 21..39, mean of 400, 40, 60
    with pytest.raises(EventInputError, match="fewer than min_samples"):
        from_samples({20: [0]}, min_samples=5)


def test_build_table_solves_deals_with_our_dd_solver():
    data = build_table(1, seed=7, threads=1, hcp_range=(20, 21))
    assert data["deals"] == 2 and sum(data["samples"]) == 4
    assert all(data["table"][40 - h] == -data["table"][h] for h in range(41))


def test_user_table_and_default_table():
    flat = [0] * 41
    boards = [TiedianBoard(420, 23, "NS"), TiedianBoard(-100, 25, "EW", disconnect=True)]
    assert tiedian_session(boards, flat) == ([9, 3], 9 + 3 - 20)
    results, total = tiedian_session(boards)  # our table
    assert len(results) == 2 and total == sum(results) - 20
    with pytest.raises(EventInputError, match=r"table\[3\] must be an integer"):
        check_table([0, 0, 0, 1.5] + [0] * 37)
    with pytest.raises(EventInputError, match="41 integers"):
        check_table([0] * 40)


def test_tiedian_command_with_a_table_file(tmp_path, capsys):
    session = tmp_path / "session.json"
    session.write_text(json.dumps({"boards": [{"ns_score": 420, "ns_hcp": 23, "side": "NS"}]}))
    table = tmp_path / "table.json"
    table.write_text(json.dumps([0] * 41))
    assert main(["events", "tiedian", "--json", "--table", str(table), str(session)]) == 0
    assert json.loads(capsys.readouterr().out) == {"results": [9], "total": 9}
