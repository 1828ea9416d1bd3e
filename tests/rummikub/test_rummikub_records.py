"""The native reader of Rummikub records (``solvers._rummikub_records``) gives what ``prepare``
gives: canonical text, ids, counts; whatever it does not read goes to ``prepare`` unchanged."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.batch.jsontext import loads
from engines.batch.runner import run_batch
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from engines.rummikub import tasks
from engines.rummikub.arrays import tile_counts
from engines.rummikub.generate import rummikub_positions

TASK = get_task("rummikub-best")
OK, REFER, BLANK = 0, 1, 2


def _positions() -> list[dict]:
    return [p for seed in (3, 5) for p in rummikub_positions(
        40, seed, table_tiles=(0, 60), rack_size=(1, 14), joker_rate=0.6, initial_meld_rate=0.4)]


def _lines(p: dict) -> list[str]:
    """A position written in many ways: plain, spaced, odd fields and faults."""
    table, rack = p["table"], p["rack"]
    core = {k: v for k, v in p.items() if k != "gen"}
    return [
        json.dumps(p),
        json.dumps(core, separators=(",", ":")),
        json.dumps(core, indent=None).replace(", ", " ,\t ").replace(": ", " :  "),
        json.dumps({**core, "id": None}),
        json.dumps({**core, "id": 7}),
        json.dumps({**core, "id": "a\\b\u00e9"}),
        json.dumps({"rack": rack, "table": table}),
        json.dumps({**core, "note": [1, -2.5e3, {"x": [True, False, None]}], "z": "q"}),
        json.dumps(core)[:-1] + ', "x": NaN}',
        json.dumps(core)[:-1] + ', "x": 01}',
        json.dumps(core)[:-1] + ', "table": []}',
        json.dumps(core) + " x",
        json.dumps({**core, "rules": {}}),
        json.dumps({**core, "table": [[t.lower() for t in s] for s in table]}),
        json.dumps({**core, "table": [list(reversed(s)) for s in table]}),
        json.dumps({**core, "table": [*table, list(table[0])] if table else table}),
        json.dumps({**core, "table": [s[:2] for s in table]}),
        json.dumps({**core, "table": [[*s, *s] for s in table[:1]]}),
        json.dumps({**core, "rack": [*rack, "J", "J", "J"]}),
        json.dumps({**core, "rack": [*rack, "R01", "R14", "X3"]}),
        json.dumps({**core, "rack": [f" {t}" for t in reversed(rack)]}),
        json.dumps({**core, "rack": None}),
        json.dumps({k: v for k, v in core.items() if k != "rack"}),
        json.dumps({**core, "initial_meld_done": "yes"}),
        json.dumps({**core, "initial_meld_done": False}),
        json.dumps({**core, "rack": []}),
        json.dumps({**core, "table": [[7, *s] for s in table]}),
        "   \n",
        "[1]\n",
        "{not json}\n",
    ]


def _expected(line: str):
    """What the plain path makes of a line: ``None`` (blank or not a position), else
    ``(canonical text, id)``."""
    if not line.strip():
        return None
    try:
        obj = loads(line)
        payload = TASK.prepare(obj)
    except (ValueError, TypeError, KeyError):
        return None
    return TASK.json_text(payload), obj.get("id")


def test_native_reader_reads_what_prepare_reads_and_refers_the_rest():
    lines = [line for p in _positions() for line in _lines(p)]
    status, texts, ids, packs = TASK.records().scan(lines)
    read = 0
    for line, state, text, pid, pack in zip(lines, status, texts, ids, packs):
        if state == BLANK:
            assert not line.strip()
        elif state == OK:
            read += 1
            assert _expected(line) == (text, pid)
            payload = json.loads(text)
            counts = np.frombuffer(pack[:107], np.uint8)
            assert counts[0] == payload["initial_meld_done"]
            on_table = [t for s in payload["table"] for t in s]
            assert counts[1:54].tolist() == tile_counts([on_table], 1)[0].tolist()
            assert counts[54:].tolist() == tile_counts([payload["rack"]], 1)[0].tolist()
            assert json.loads(f"[{pack[107:].decode()}]") == payload["table"]
            assert tasks._unpacked(pack) == payload
        else:
            assert state == REFER
    assert read > 6 * len(_positions())  # the usual spellings are read natively


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["K", "R", "O", "B", "J"]), min_size=1, max_size=14),
       st.lists(st.integers(1, 13), min_size=14, max_size=14))
def test_any_set_is_read_as_the_engine_reads_it(colours, numbers):
    tiles = ["J" if c == "J" else f"{c}{n}" for c, n in zip(colours, numbers)]
    line = json.dumps({"table": [tiles], "rack": ["R1"]})
    status, texts, ids, _packs = TASK.records().scan([line])
    expected = _expected(line)
    assert (status[0] == OK) == (expected is not None)
    if expected is not None:
        assert (texts[0], ids[0]) == expected


def _rows(path, task, db) -> tuple:
    """What a run stores: rows (input hash, id, line, input, result, error), bad lines, counts."""
    with ResultStore(db) as store:
        summary = run_batch([str(path)], task, store, jobs=2, progress=False, on_bad_input=None)
        rows = [(r["input_hash"], r["position_id"], r["line"], r["input"], r["result"],
                 r["error"]) for r in store.rows(task.name)]  # fmt: skip
    bad = [(b.line, b.reason) for b in summary.bad_inputs]
    return rows, bad, (summary.positions, summary.computed, summary.duplicates, summary.rejected)


def test_batch_rows_are_those_of_the_plain_path(tmp_path):
    positions = _positions()
    lines = [line for p in positions[:12] for line in _lines(p)]
    lines += [json.dumps(p) + "\n" for p in positions]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(line if line.endswith("\n") else line + "\n" for line in lines))
    plain = dataclasses.replace(TASK, records=None)
    native = _rows(path, TASK, tmp_path / "native.sqlite")
    assert native == _rows(path, plain, tmp_path / "plain.sqlite")
    assert native[2][1] > len(positions) // 2 and native[1]  # solved rows and bad lines


def test_packed_payloads_go_through_moves_when_the_default_rules_need_the_table(monkeypatch):
    lines = [json.dumps(p) for p in _positions()[:40]]
    _status, _texts, _ids, packs = TASK.records().scan(lines)
    names = tasks._solve_packed(packs, "tiles", 2)
    monkeypatch.setattr(tasks, "_names_path", lambda: False)  # as least disturbance does
    calls = []
    monkeypatch.setattr(tasks, "_solve_moves", lambda *a: calls.append(a) or ["x"] * len(a[0]))
    assert tasks._solve_packed(packs, "tiles", 2) == ["x"] * len(packs)
    assert calls[0][0] == [TASK.prepare(json.loads(line)) for line in lines] and names


def test_plain_rules_records_take_the_names_path_with_the_same_answers():
    prepare = get_task("rummikub-best").prepare
    records = [{**p, "rules": {"least_disturbance": False}} for p in rummikub_positions(
        60, 4, table_tiles=(0, 60), rack_size=(3, 14), joker_rate=0.6, initial_meld_rate=0.4)]
    payloads = [prepare(r) for r in records]
    assert all(p["rules"] == {"least_disturbance": False} for p in payloads)
    expected = tasks._solve_moves(payloads, "tiles", 2, {"least_disturbance": False})
    assert tasks._solver("tiles")(payloads, 2) == expected
    assert tasks._solve_names(payloads, "tiles", 2, plain=True) == expected
