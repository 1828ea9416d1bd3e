"""Event, week and match files: every validity rule is enforced with a message naming it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engines.errors import InputError
from engines.events.errors import EventInputError
from engines.events.files import load_json, parse_event, parse_match, parse_week

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "engines" / "data" / "events" / "examples"


def example(name):
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def test_examples_parse():
    swiss = parse_event(example("swiss.json"), "swiss.json")
    assert swiss.type == "swiss" and len(swiss.rounds) == 2 and swiss.rounds[0].bye == 5
    pairs = parse_event(example("pairs.json"), "pairs.json")
    assert pairs.winners == 2 and pairs.pairs[3].direction == "EW"
    week = parse_week(example("week.json"), "week.json")
    assert len(week.boards[0]) == 7 and week.boards[0][2].disconnect == frozenset("E")
    assert parse_match(example("match.json"), "match.json")[1] == (420, -50)


def broken(name, change):
    data = copy.deepcopy(example(name))
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/1"), r"e\.json: format: is 'other/1'"),
        (
            lambda d: d["pairs"][1].update(id=7),
            r"pairs\[1\]: id 7, expected 2 \(rule: pair ids are 1..P",
        ),
        (
            lambda d: d["pairs"][0].update(players=["x", "x"]),
            r"pairs\[0\]: 'x' twice \(rule: the two players",
        ),
        (
            lambda d: d["pairs"][2].update(players=["p1a", "q"]),
            r"pairs\[2\]: 'p1a' is already in pair 1",
        ),
        (lambda d: d["results"][3].update(ew=9), r"results\[3\]: pair 9 does not exist"),
        (lambda d: d["results"][3].update(ew=1, ns=1), r"results\[3\]: pair 1 plays itself"),
        (
            lambda d: d["results"][0].update(ns_score=420.5),
            r"results\[0\]: ns_score 420.5 \(rule: ns_score is an integer",
        ),
        (
            lambda d: d["results"].append(dict(d["results"][0])),
            r"results\[10\]: pair 1 has a second result on board 1",
        ),
        (
            lambda d: d["rounds"][1]["boards"].append(1),
            r"rounds\[1\]: board 1 is already a board of round 1",
        ),
        (
            lambda d: d["rounds"][0].update(bye=1),
            r"rounds\[0\]: table 1: pair 1 is seated twice or has the bye",
        ),
        (
            lambda d: d["results"][0].update(ns=2, ew=1),
            r"results\[0\]: 2-1 is not a table of round 1",
        ),
        (lambda d: d.update(method="imp"), r"method: is 'imp'"),
        (lambda d: d.update(completion=1.5), r"completion: 1.5 is outside"),
    ],
)
def test_swiss_event_rules(change, message):
    with pytest.raises(EventInputError, match=message):
        parse_event(broken("swiss.json", change), "e.json")


def test_two_winner_directions():
    data = broken("pairs.json", lambda d: d["results"][0].update(ns=4, ew=1))
    with pytest.raises(
        EventInputError, match=r"results\[0\]: .*rule: with two winners the ns pair"
    ):
        parse_event(data, "p.json")
    data = broken("pairs.json", lambda d: d["pairs"][0].pop("direction"))
    with pytest.raises(EventInputError, match=r"pairs\[0\]: direction None"):
        parse_event(data, "p.json")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            lambda d: d["boards"][0]["results"][0].update(E="t1N"),
            r"boards\[0\]\.results\[0\]: a player sits twice",
        ),
        (
            lambda d: d["boards"][0]["results"][1].update(N="t1N"),
            r"results\[1\]: 't1N' plays the board twice",
        ),
        (
            lambda d: d["boards"][0]["results"][0].update(score="420"),
            r"score '420' must be an integer",
        ),
        (lambda d: d["boards"][0]["results"][0].update(disconnect=["X"]), r"disconnect \['X'\]"),
        (
            lambda d: d.update(params={"min_results": 3, "max_results": 5}),
            r"boards\[0\]: 7 results \(rule: a board has at most max_results = 5",
        ),
        (lambda d: d.update(params={"scale": "big"}), r"params\.scale must be a number"),
        (lambda d: d.update(params={"speed": 1}), r"unknown parameter 'speed'"),
        (
            lambda d: d.update(players={"a": {"rate": 120, "total_boards": 1}}),
            r"players\['a'\]: rate 120",
        ),
    ],
)
def test_week_rules(change, message):
    with pytest.raises(EventInputError, match=message):
        parse_week(broken("week.json", change), "w.json")


def test_unreadable_files(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        load_json(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json:1: not valid JSON"):
        load_json(bad)
    with pytest.raises(EventInputError, match=r"m\.json: boards\[0\]: missing field 'closed'"):
        parse_match({"format": "qipai-bridge-match/1", "boards": [{"open": 1}]}, "m.json")
