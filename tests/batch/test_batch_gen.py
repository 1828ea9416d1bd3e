"""``qipai gen``: seeded, reproducible, and every position valid under the game's rules."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engines.bridge.generate import bridge_deals
from engines.cli import main
from engines.errors import InputError
from engines.rummikub.generate import rummikub_positions
from engines.shengji.generate import shengji_cases


def test_bridge_deals_follow_the_corpus_dealing_and_rotation():
    # The corpus README: Random(seed), shuffle 0..51, N gets d[0:13], E d[13:26]...
    import random

    rng = random.Random(7)
    cards = list(range(52))
    rng.shuffle(cards)
    north = sorted(cards[:13])
    first = next(bridge_deals(1, seed=7))
    spades = "".join("AKQJT98765432"[k] for k in north if k < 13)
    assert first["pbn"].split()[0] == "N:" + spades + "." + first["pbn"].split()[0].split(".", 1)[1]
    deals = list(bridge_deals(20, seed=3, rotate=True))
    assert [d["dealer"] for d in deals[:5]] == ["N", "E", "S", "W", "N"]
    assert [d["vulnerability"] for d in deals[:17]] == [
        "None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW", "None",
    ]  # fmt: skip
    for d in deals:
        hands = d["pbn"][2:].split()
        assert [sum(len(s) for s in h.split(".")) for h in hands] == [13] * 4
        seen = Counter((suit, c) for h in hands for suit, s in enumerate(h.split(".")) for c in s)
        assert len(seen) == 52 and set(seen.values()) == {1}
    assert list(bridge_deals(3, seed=3)) == list(bridge_deals(3, seed=3))
    assert all(d["dealer"] == "N" and d["vulnerability"] == "None" for d in bridge_deals(5))


def _is_valid_rummikub_set(tiles):
    jokers = tiles.count("J")
    real = [(t[0], int(t[1:])) for t in tiles if t != "J"]
    if len(tiles) < 3:
        return False
    numbers = {n for _, n in real}
    colours = [c for c, _ in real]
    if len(numbers) == 1 and len(tiles) <= 4 and len(set(colours)) == len(colours):
        return True
    if len(set(colours)) != 1:
        return False
    # A run written in order, the joker at the place of the tile it replaced.
    start = None
    for i, t in enumerate(tiles):
        if t != "J":
            start = int(t[1:]) - i
            break
    expected = [start + i for i in range(len(tiles))]
    return (
        expected[0] >= 1
        and expected[-1] <= 13
        and all(t == "J" or int(t[1:]) == e for t, e in zip(tiles, expected))
        and jokers <= 2
    )


def test_rummikub_positions_use_valid_sets_and_at_most_two_copies():
    positions = list(rummikub_positions(200, seed=11, table_tiles=(0, 40), joker_rate=0.6))
    assert positions == list(rummikub_positions(200, seed=11, table_tiles=(0, 40), joker_rate=0.6))
    jokers_on_table = jokers_in_rack = 0
    for p in positions:
        assert all(_is_valid_rummikub_set(s) for s in p["table"]), p
        everything = Counter([t for s in p["table"] for t in s] + p["rack"])
        assert max(everything.values()) <= 2
        assert p["gen"]["T"] == sum(len(s) for s in p["table"])
        assert 5 <= len(p["rack"]) <= 14
        jokers_on_table += p["gen"]["table_jokers"]
        jokers_in_rack += p["gen"]["rack_jokers"]
        assert p["rack"].count("J") == p["gen"]["rack_jokers"]
    assert jokers_on_table > 20 and jokers_in_rack > 20
    assert 0.1 < sum(not p["initial_meld_done"] for p in positions) / 200 < 0.35
    none = list(rummikub_positions(50, seed=1, joker_rate=0.0))
    assert not any("J" in p["rack"] or any("J" in s for s in p["table"]) for p in none)
    with pytest.raises(InputError, match="table tiles range"):
        list(rummikub_positions(1, table_tiles=(5, 2)))


def test_rummikub_positions_load_in_the_engine():
    import engines.rummikub as rummikub

    for p in rummikub_positions(100, seed=5, joker_rate=0.5):
        rummikub.Position.from_json(p)


def test_shengji_positions_and_card_suits():
    from engines.shengji.rules import TrumpContext

    cases = list(shengji_cases(400, seed=2))
    assert cases == list(shengji_cases(400, seed=2))
    assert Counter(c["kind"] for c in cases) == {
        "follow_legal": 100, "legal_follows_count": 100, "trick_winner": 100, "throw_valid": 100,
    }  # fmt: skip
    for c in cases:
        lead = c["plays"][0] if c["kind"] == "trick_winner" else c["lead"]
        ctx = TrumpContext(c["level"], c["trump"])
        suits = {ctx.suit_of(x) for x in lead}
        assert len(suits) == 1, c
        cards = list(lead)
        if c["kind"] == "trick_winner":
            assert all(len(p) == len(lead) for p in c["plays"])
            cards += [x for p in c["plays"][1:] for x in p]
        elif c["kind"] == "throw_valid":
            assert len(c["others"]) == 3
            cards += [x for h in c["others"] for x in h]
        else:
            assert len(c["hand"]) >= len(lead)
            cards += c["hand"]
            if c["kind"] == "follow_legal":
                assert len(c["play"]) == len(lead)
                assert not Counter(c["play"]) - Counter(c["hand"])
        assert max(Counter(cards).values()) <= 2, c
        assert "expected" not in c


def test_gen_cli_writes_files(tmp_path, capsys):
    pbn = tmp_path / "d.pbn"
    assert main(["gen", "bridge", "-n", "3", "--seed", "4", "--rotate", "-o", str(pbn)]) == 0
    text = pbn.read_text()
    assert text.startswith("% PBN 2.1") and text.count("[Deal ") == 3
    assert '[Vulnerable "EW"]' in text
    assert main(["gen", "bridge", "-n", "2", "-f", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(x)["board"] for x in lines] == [1, 2]
    assert main(["gen", "rummikub", "-n", "4", "--table-tiles", "10-12", "--jokers", "0"]) == 0
    for line in capsys.readouterr().out.splitlines():
        assert 10 <= json.loads(line)["gen"]["T"] <= 16
    assert main(["gen", "shengji", "-n", "3", "--kinds", "trick_winner"]) == 0
    assert {json.loads(x)["kind"] for x in capsys.readouterr().out.splitlines()} == {"trick_winner"}
    assert main(["gen", "shengji", "-n", "1", "--kinds", "bogus"]) == 2
    assert "unknown shengji case kind 'bogus'" in capsys.readouterr().err
    assert main(["gen", "rummikub", "--table-tiles", "x"]) == 2


def test_pbn_output_reads_back_through_the_bridge_reader(tmp_path):
    from engines.batch.inputs import Record, read_inputs

    path = tmp_path / "d.pbn"
    main(["gen", "bridge", "-n", "6", "--seed", "9", "--rotate", "-o", str(path)])
    records = list(read_inputs([str(path)]))
    assert all(isinstance(r, Record) for r in records)
    expected = list(bridge_deals(6, seed=9, rotate=True))
    assert [r.obj["pbn"] for r in records] == [d["pbn"] for d in expected]
    assert [r.obj["dealer"] for r in records] == [d["dealer"] for d in expected]
    vul = {"All": "Both"}
    assert [r.obj["vulnerability"] for r in records] == [
        vul.get(d["vulnerability"], d["vulnerability"]) for d in expected
    ]
    assert [r.position_id for r in records] == ["1", "2", "3", "4", "5", "6"]


def test_bridge_endings_have_equal_hands_and_need_json_lines(tmp_path, capsys):
    for deal in bridge_deals(30, seed=6, cards=7):
        hands = deal["pbn"][2:].split()
        assert [sum(len(s) for s in h.split(".")) for h in hands] == [7] * 4
    full = next(bridge_deals(1, seed=6))["pbn"]
    assert next(bridge_deals(1, seed=6, cards=13))["pbn"] == full
    assert main(["gen", "bridge", "-n", "2", "--cards", "5"]) == 2
    assert "add -f jsonl" in capsys.readouterr().err
    assert main(["gen", "bridge", "-n", "1", "--cards", "14", "-f", "jsonl"]) == 2


def test_bridge_deals_carry_the_lead_fields_bridge_lead_reads(tmp_path, capsys):
    from engines.batch.tasks import get_task

    assert main(["gen", "bridge", "-n", "2", "--seed", "3", "-f", "jsonl", "--trump", "nt",
                 "--leader", "w"]) == 0
    records = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["trump"], r["leader"]) for r in records] == [("NT", "W")] * 2
    assert [r["pbn"] for r in records] == [d["pbn"] for d in bridge_deals(2, seed=3)]
    get_task("bridge-lead").prepare(records[0])  # a bridge-lead position as written
    assert main(["gen", "bridge", "-n", "1", "--trump", "S"]) == 2
    assert "add -f jsonl" in capsys.readouterr().err
    assert main(["gen", "bridge", "-n", "1", "-f", "jsonl", "--leader", "Q"]) == 2
    assert "--leader: unknown seat 'Q'" in capsys.readouterr().err
