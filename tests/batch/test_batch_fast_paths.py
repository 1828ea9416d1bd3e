"""The runner's fast paths give exactly what the slow ones gave: JSON text, payloads, errors."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines.batch.jsontext import canonical, loads
from engines.batch.tasks import get_task
from engines.errors import InputError
from engines.shengji.cards import parse_cards as shengji_parse
from engines.shengji.generate import shengji_cases
from engines.shuangkou.cards import parse_cards as shuangkou_parse
from engines.shuangkou.generate import shuangkou_cases

PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                 max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(PLAIN)
@example("\x7f")
@example({"k\x7f": ["\x00\x1f\t"]})
def test_canonical_text_is_the_standard_librarys(value):
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"))
    assert canonical(value, plain=True) == expected
    assert loads(expected) == value


@pytest.mark.parametrize("value", [{"x": 1e16}, {"x": float("nan")}, {"é": 0.5}, [1.0, -2.5e-7]])
def test_floats_and_non_ascii_keep_the_standard_text(value):
    assert canonical(value, plain=False) == json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_loads_reads_what_the_standard_library_reads_and_words_its_errors():
    assert loads('{"big": 123456789012345678901234567890}')["big"] == 123456789012345678901234567890
    assert np.isnan(loads('{"x": NaN}')["x"])
    for text in ['{"n": -9999999999999999999}', '{"n": 18446744073709551616}',
                 '{"n": 999999999999999999}', '{"s": "1234567890123456789012"}',
                 '{"s": "\u00e9 \ud800"}', '{"s": "é ١٢٣"}', '{"f": 1.5e300, "g": 12.0}']:
        assert loads(text) == json.loads(text) and repr(loads(text)) == repr(json.loads(text))
    lone = '{"s": "' + chr(0xD800) + '"}'
    assert loads(lone) == json.loads(lone)
    with pytest.raises(json.JSONDecodeError, match="Expecting value"):
        loads("not json")


def _variants(cards: list[str]) -> list[object]:
    """The same cards written in ways only the engine's parser reads, and faulty lists."""
    return [
        cards,
        list(reversed(cards)),
        [c.lower() for c in cards],
        [f" {c}" for c in cards],
        " ".join(cards),
        [*cards, cards[0], cards[0], cards[0]],
        [*cards, "X9"],
        [*cards, 5],
        [*cards, [cards[0]]],
        [*cards, "LJ", "LJ", "BJ", "BJ", "LJ"],
    ]


def _outcome(prepare, obj):
    try:
        return prepare(obj)
    except InputError as exc:
        return type(exc).__name__, str(exc)


def _slow(game: str, task: str):
    """What a prepare gave before the fast path: every token through the engine's parser."""
    module = importlib.import_module(f"engines.{game}.tasks")

    def prepare(obj):
        original = module.sorted_cards
        module.sorted_cards = lambda *args: None
        try:
            return _outcome(get_task(task).prepare, obj)
        finally:
            module.sorted_cards = original

    return prepare


@pytest.mark.parametrize(
    ("task", "records", "slow"),
    [
        ("shengji-legal", lambda: shengji_cases(40, 7), _slow("shengji", "shengji-legal")),
        ("shuangkou-legal", lambda: shuangkou_cases(40, 7, ("legal_responses_count", "beats",
                                                            "classify")),
         _slow("shuangkou", "shuangkou-legal")),
    ],
)
def test_fast_prepare_equals_the_engine_parser_on_every_spelling(task, records, slow):
    prepare = get_task(task).prepare
    checked = 0
    for record in records():
        for field in [k for k, v in record.items() if isinstance(v, list) and v
                      and all(isinstance(c, str) for c in v)]:
            for variant in _variants(record[field]):
                obj = {**record, field: variant}
                assert _outcome(prepare, obj) == slow(obj), (field, variant)
                checked += 1
    assert checked > 400


def test_count_rows_equal_the_engines_count_vectors():
    from engines.shengji.tasks import _counts
    from engines.shuangkou.tasks import _rows

    hands = [c["hand"] for c in shengji_cases(60, 3, kinds=("follow_legal",))]
    expected = np.stack([shengji_parse(h) for h in hands])
    assert np.array_equal(_counts(hands), expected) and _counts(hands).dtype == np.int8
    prepare = get_task("shuangkou-legal").prepare
    lists = [prepare(c)["hand"] for c in shuangkou_cases(60, 3, ("legal_responses_count",))]
    assert np.array_equal(_rows(lists), np.stack([shuangkou_parse(h) for h in lists]))
    assert _counts([]).shape == (0, 54) and _rows([]).shape == (0, 15, 4)


def test_rummikub_fast_prepare_equals_the_engine_on_odd_and_faulty_positions(monkeypatch):
    from engines.rummikub import tasks
    from engines.rummikub.generate import rummikub_positions

    prepare = get_task("rummikub-best").prepare
    variants = []
    for p in rummikub_positions(30, 5, table_tiles=(10, 40), rack_size=(5, 14), joker_rate=0.5,
                                initial_meld_rate=0.3):
        table, rack = p["table"], p["rack"]
        variants += [
            p,
            {**p, "table": [[t.lower() for t in s] for s in table]},
            {**p, "table": [list(reversed(s)) for s in table]},
            {**p, "table": [*table, list(table[0])] if table else table},
            {**p, "rack": [*rack, "J", "J", "J"]},
            {**p, "rack": [*rack, rack[0], rack[0]]},
            {**p, "rack": ["X3", *rack]},
            {**p, "rack": [t.lower() for t in rack]},
            {**p, "rack": [f" {t} " for t in reversed(rack)]},
            {**p, "rack": [*rack, 5]},
            {**p, "rack": rack * 140},  # counts past one field of the fast path's integer
            {**p, "rack": [*rack, "J"], "table": [[*s, "J"] for s in table[:2]]},
            {**p, "rack": [*rack, ["R5"]]},
            {**p, "rack": " ".join(rack)},
            {**p, "initial_meld_done": "yes"},
            {**p, "table": [[7, *s] for s in table]},
            {**p, "rules": {"meld_threshold": 0}},
        ]
    fast = [_outcome(prepare, v) for v in variants]
    monkeypatch.setattr(tasks, "_canonical_position", lambda obj: None)
    assert fast == [_outcome(prepare, v) for v in variants]
    assert sum(isinstance(f, dict) for f in fast) > 60  # many variants are still positions
    assert tasks._VALID_SETS and tasks._TOKENS  # the fast path ran


def test_small_chunks_share_transactions_but_none_waits_long(tmp_path):
    import time

    from engines.batch.runner import run_batch
    from engines.batch.store import ResultStore
    from engines.batch.tasks import Task, register_task

    def solve(payloads, threads):
        time.sleep(0.02)
        return [p["x"] * 2 for p in payloads]

    register_task(Task("test-slow-double", "demo", "x * 2, slowly",
                       lambda o: {"x": int(o["x"])}, solve, chunk_size=1))
    path = tmp_path / "xs.jsonl"
    path.write_text("".join(f'{{"x": {i}}}\n' for i in range(30)))
    with ResultStore(tmp_path / "r.sqlite") as store:
        summary = run_batch([str(path)], "test-slow-double", store, jobs=1, progress=False)
        rows = list(store.rows("test-slow-double"))
    assert summary.computed == 30 and sorted(r["result"] for r in rows) == list(range(0, 60, 2))
    commits = {r["finished_at"] for r in rows}
    assert 1 < len(commits) < 30  # grouped by the quarter second, not all held to the end


def test_forced_cards_of_refused_throws_are_named_as_the_engine_names_them():
    from engines.batch.jsontext import canonical
    from engines.shengji.cards import RANKS
    from engines.shengji.tasks import _context, _throw_texts

    rng = np.random.default_rng(8)
    ctxs = [_context(RANKS[rng.integers(13)], ["S", "H", "C", "D", "NT"][rng.integers(5)])
            for _ in range(400)]  # fmt: skip
    forced = (rng.integers(0, 3, (400, 54)) * (rng.random((400, 54)) < 0.15)).astype(np.int8)
    forced[::7] = 0  # refused throws with no forced cards too
    ones = np.arange(1, 400, 3)  # and with one forced card (or two copies of it)
    forced[ones] = 0
    forced[ones, rng.integers(0, 54, len(ones))] = rng.integers(1, 3, len(ones))
    valid = rng.random(400) < 0.3
    expected = [canonical({"valid": bool(ok), "forced": None if ok else ctx.sorted_names(row)},
                          plain=True) for ok, row, ctx in zip(valid, forced, ctxs)]  # fmt: skip
    codes = np.array([c.code for c in ctxs], dtype=np.uint8)
    assert _throw_texts(valid, forced, codes) == expected
    assert _throw_texts(np.ones(3, bool), forced[:3], codes[:3]) == expected[:0] + [
        canonical({"valid": True, "forced": None}, plain=True)] * 3
    assert _throw_texts(np.ones(0, bool), np.zeros((0, 54), np.int8), codes[:0]) == []


@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_rummikub_solve_from_names_equals_the_move_objects_path(objective):
    from engines.rummikub import tasks
    from engines.rummikub.generate import rummikub_positions

    prepare = get_task("rummikub-best").prepare
    payloads = [prepare(p) for seed in (3, 4) for p in rummikub_positions(
        60, seed, table_tiles=(0, 60), rack_size=(3, 14), joker_rate=0.6, initial_meld_rate=0.4)]
    names = tasks._solve_names(payloads, objective, 2)
    # least disturbance is on by default for both objectives: the names path is the move
    # objects path under the default rules
    assert names == tasks._solve_moves(payloads, objective, 2, {})
    assert any(loads(r)["tiles"] for r in names) and any(not p["initial_meld_done"]
                                                         for p in payloads)  # fmt: skip
    status, _texts, _ids, packs = tasks._records().scan([canonical(p, plain=True)
                                                          for p in payloads])  # fmt: skip
    assert not any(status) and tasks._solve_packed(packs, objective, 2) == names


_ANSWER_FIELDS = {
    "follow_legal": {"legal"}, "legal_follows_count": {"count"}, "trick_winner": {"winner"},
    "throw_valid": {"valid", "forced"}, "beats": {"beats"}, "legal_responses_count": {"count"},
}  # fmt: skip


@pytest.mark.parametrize("task_name", ["shengji-legal", "shuangkou-legal"])
def test_result_texts_written_from_arrays_are_the_canonical_texts_of_the_answers(task_name):
    """升级/双扣 solves write each result's text from the kernels' arrays (one text per
    distinct answer): it is the canonical text of the answer, the one the store held when
    the results were dicts; packed and dict payloads give the same texts."""
    from engines.batch.tasks import answer_texts

    task = get_task(task_name)
    cases = (shengji_cases if task_name == "shengji-legal" else shuangkou_cases)(600, 6)
    payloads = [task.prepare(case) for case in cases]
    status, _texts, _ids, packs = task.records().scan([json.dumps(c) for c in cases])
    texts = [text for text, _seconds in task.solve(payloads, 1)]
    packed = [p for p, s in zip(packs, status) if s == 0]
    assert [t for t, _ in task.solve(packed, 1)] == [t for t, s in zip(texts, status) if s == 0]
    for case, text in zip(cases, texts):
        answer = json.loads(text)
        assert canonical(answer, plain=True) == text
        assert set(answer) == _ANSWER_FIELDS.get(case["kind"], set(answer)) or case["kind"] in (
            "classify", "trick_next")  # fmt: skip
    assert answer_texts("count", np.array([3, 0, 3, 12])) == [
        '{"count":3}', '{"count":0}', '{"count":3}', '{"count":12}']
    assert answer_texts("legal", np.array([], dtype=bool)) == []
