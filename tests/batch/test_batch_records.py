"""The native record reader gives exactly what ``prepare`` gives, or leaves the line to it.

For every line (generated records, and the same records mutated at random: other
spellings, faults, odd JSON), a line the scanner reads must be one ``prepare``
accepts, with the same canonical text, id and count rows; whole runs with and
without the fast path store the same rows and the same bad-input messages.
"""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.batch.inputs import jsonl_entry
from engines.batch.jsontext import canonical
from engines.batch.records import SCAN_BLANK, SCAN_OK, SCAN_REFER, unpack
from engines.batch.tasks import get_task
from engines.shengji.generate import shengji_cases
from engines.shuangkou.generate import shuangkou_cases

CASES = {
    "shengji-legal": lambda n, seed: shengji_cases(n, seed),
    "shuangkou-legal": lambda n, seed: shuangkou_cases(n, seed),
}

# Edits that keep the JSON valid but change what it says, or break it.
_SNIPPETS = ['"', ",", "[", "]", "{", "}", ":", " ", "\\", "1", "null", "é", "\t", "x",
             '"S3"', '"BJ"', '"h5"', "\x7f", "\x0b"]  # fmt: skip


def _mutants(line: str, rng: random.Random) -> list[str]:
    obj = json.loads(line)
    out = []
    for _ in range(3):
        at = rng.randrange(len(line))
        out.append(line[:at] + rng.choice(_SNIPPETS) + line[at:])
        out.append(line[:at] + line[at + 1 :])
    for key, value in list(obj.items()):
        if isinstance(value, list) and value and isinstance(value[0], str):
            out.append(json.dumps({**obj, key: [*value, value[0], value[0]]}))  # a third copy
            out.append(json.dumps({**obj, key: [v.lower() for v in value]}))
            out.append(json.dumps({**obj, key: " ".join(value)}))
        out.append(json.dumps({k: v for k, v in obj.items() if k != key}))  # a field missing
        out.append(json.dumps({**obj, key: None}))
        out.append(json.dumps({**obj, key: 3}))
    out.append(line.rstrip("\n")[:-1] + ', "kind": "classify"}')  # a key twice
    out.append(json.dumps({**obj, "id": 7}))
    out.append(json.dumps({**obj, "extra": {"nested": [1, 2.5e3, -0, True]}}))
    out.append(json.dumps({**obj, "extra": [[-1.5e-3, 0, "x"], [], False]}))
    out.append(json.dumps({**obj, "policy": None}))
    out.append(json.dumps({**obj, "policy": {"straight_flush": "bomb"}}))
    out.append(json.dumps({**obj, "level": "T", "trump": "nt"}))
    out.append(json.dumps(obj, indent=None, separators=(",", ":")))
    out.append("  " + line.strip() + " \t")
    return out


def _lines(task: str, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    lines = [json.dumps(case) for case in CASES[task](n, seed)]
    mutated = [m for line in lines for m in _mutants(line, rng)]
    return [*lines, *mutated, "", "   ", "[1]", "{}"]


def _slow(task_name: str, line: str, number: int):
    """``(text, id)`` of the plain path, or None when it refuses the line (or it is blank)."""
    task = get_task(task_name)
    entry = jsonl_entry("f.jsonl", number, line)
    if entry is None or not hasattr(entry, "obj"):
        return None
    try:
        payload = task.prepare(entry.obj)
    except (KeyError, ValueError, TypeError):
        return None
    return task.json_text(payload), entry.position_id, payload


@pytest.mark.parametrize("task_name", list(CASES))
def test_scanned_lines_are_what_prepare_makes_of_them(task_name):
    task = get_task(task_name)
    layout = task.records()
    lines = _lines(task_name, 60, 5)
    status, texts, ids, packs = layout.scan(lines)
    read = 0
    for number, (line, state) in enumerate(zip(lines, status), start=1):
        slow = _slow(task_name, line, number)
        if state == SCAN_BLANK:
            assert not line.strip()
        elif state == SCAN_OK:
            assert slow is not None, line
            text, position_id, payload = slow
            assert texts[number - 1] == text, line
            assert (ids[number - 1] or f"f.jsonl:{number}") == position_id
            fields = unpack(layout, [packs[number - 1]])
            for name, value in payload.items():
                if isinstance(value, list) and value and isinstance(value[0], list):
                    assert len(value) == fields[name].shape[1]
                elif isinstance(value, list) and name in fields:
                    assert int(fields[name].sum()) == len(value)
            read += 1
        else:
            assert state == SCAN_REFER
    assert read > 100  # the fast path is taken, not only declined


_LIST_SHAPES = ["[]", "[[]]", '[["S3"]]', '[["S3"],"S3"]', '[ [ "S3" ] , [ ] ]', '[["S3"],]',
                '[["S3","S3","S3"]]', "[" + ",".join(['["S3"]'] * 8) + "]",
                "[" + ",".join(['["S3"]'] * 9) + "]", "[" + ",".join(['["S3","H4"]'] * 40) + "]",
                '[["S3"]', '[["s3"]]', '[[["S3"]]]', "null", '"S3"', '[["S3"] ["H4"]]',
                '[["H4","S3"],["BJ","BJ"],[],["D10"]]']  # fmt: skip


def test_card_lists_of_every_shape_are_read_exactly_or_referred():
    """The reader counts card lists while it finds a line's fields: lists and lists of lists
    of every shape around its limits (8 plays, 32 lists a line), empty, nested, broken, in
    every field, are read as ``prepare`` reads them or referred; ``scan_text`` agrees."""
    layout = get_task("shengji-legal").records()
    lines = []
    for kind in ("trick_winner", "throw_valid", "follow_legal", "legal_follows_count"):
        for key in ("plays", "others", "lead", "hand", "play"):
            for value in _LIST_SHAPES:
                for other in _LIST_SHAPES[:4]:
                    fields = {"plays": other, "others": other, "lead": '["S3"]', "hand": '["S4"]',
                              "play": '["S4"]', key: value}  # fmt: skip
                    body = ", ".join(f'"{k}": {v}' for k, v in fields.items())
                    lines.append(f'{{"kind": "{kind}", "level": "5", "trump": "NT", {body}}}')
    status, texts, _ids, packs = layout.scan(lines)
    ok = [i for i, state in enumerate(status) if state == SCAN_OK]
    assert 200 < len(ok) < len(lines)
    for i in ok:
        text, _pid, payload = _slow("shengji-legal", lines[i], i + 1)
        assert texts[i] == text, lines[i]
        fields = unpack(layout, [packs[i]])
        for name in ("plays", "others"):
            if name in payload:
                counts = fields[name][0]
                assert [int(row.sum()) for row in counts] == [len(x) for x in payload[name]]
    text_status, text_texts, *_ = layout.scan_text("\n".join(lines))
    assert text_status == status and text_texts == [texts[i] for i in ok]


def test_card_tokens_found_a_word_at_a_time_read_as_the_character_loop():
    """The reader finds a card token and its closing quote in one 8-byte word where it can:
    tokens empty, too long, with quotes, backslashes or spaces, cut off, at the end of the
    line, and every separator are read as ``prepare`` reads them, or referred."""
    layout = get_task("shengji-legal").records()
    items = ['"S3"', '"D10"', '""', '"S"', '"S100"', '"S10000"', '"S\\\\"', '"S\\"3"',
             '"BJ"', '"SJ "', '" S3"', '"S3', "S3", '"s3"']  # fmt: skip
    lines = []
    for a in items:
        for b in items:
            for sep in (", ", ",", " ,  ", ",\t"):
                hand = f"[{a}{sep}{b}]"
                lines.append(f'{{"kind": "follow_legal", "level": "5", "trump": "NT", '
                             f'"lead": ["S3"], "play": ["S4"], "hand": {hand}}}')  # fmt: skip
                lines.append(f'{{"hand": {hand}, "kind": "follow_legal", "level": "5", '
                             f'"trump": "NT", "lead": ["S3"], "play": ["S4"]}}')  # fmt: skip
    status, texts, _ids, _packs = layout.scan(lines)
    assert 50 < list(status).count(SCAN_OK) < len(lines)
    for i, line in enumerate(lines):
        slow = _slow("shengji-legal", line, i + 1)
        if status[i] == SCAN_OK:
            assert slow is not None and texts[i] == slow[0], line
        else:
            assert status[i] == SCAN_REFER, line


def test_keys_and_strings_read_a_word_at_a_time_read_as_the_character_loop():
    """Keys found by one 8-byte compare (the key that followed the one before tried first)
    and strings read eight characters at a time give what ``prepare`` gives, or refer the
    line: keys in every order, near misses of the known keys, and a quote, escape, control
    character or DEL at every offset of a key, an id, a name and an unknown value."""
    layout = get_task("shengji-legal").records()
    base = {"id": "g-1", "kind": "follow_legal", "level": "5", "trump": "NT",
            "hand": ["S3", "S4"], "lead": ["S3"], "play": ["S4"]}  # fmt: skip
    rng = random.Random(5)

    def line(pairs):
        return "{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}"

    plain = [(k, json.dumps(v)) for k, v in base.items()]
    lines = []
    for _ in range(40):
        rng.shuffle(plain)
        lines.append(line(plain))
    for key in ["han", "hands", "Hand", "plays", "pla", "id ", "kind\\u0000", 'lev\\"el',
                "trumpet", "a", "", "tags", "x" * 12, "hand\\", "play\u0001"]:  # fmt: skip
        lines.append(line([*plain, (key, '["S5"]')]))
        lines.append(line([(key, '"x"'), *plain]))
    for offset in range(18):
        for odd in ['\\"', "\\\\", "\\n", "\u0001", "\u007f", "\t", '"', "'"]:
            text = "x" * offset + odd + "yyy"
            for key in ("tags", "id", "level", "kind"):
                lines.append(line([(k, v) for k, v in plain if k != key] + [(key, f'"{text}"')]))
            lines.append(line([(text, "1"), *plain]))
    status = _read_as_prepare_reads(layout, lines)
    assert 40 <= list(status).count(SCAN_OK) < len(lines) - 100


def _read_as_prepare_reads(layout, lines: list[str], alone: bool = False) -> bytearray:
    """The statuses of ``lines`` scanned as one list, each line read as ``prepare`` reads
    it or referred, and the same statuses and texts from ``scan_text`` (with ``alone``,
    from each line scanned on its own too)."""
    status, texts, ids, _packs = layout.scan(lines)
    for i, text in enumerate(lines):
        slow = _slow("shengji-legal", text, i + 1)
        if status[i] == SCAN_OK:
            assert slow is not None and (texts[i], ids[i]) == slow[:2], text
        else:
            assert status[i] == SCAN_REFER, text
        assert not alone or layout.scan([text])[0][0] == status[i], text
    text_status, text_texts, *_ = layout.scan_text("\n".join(lines))
    assert text_status == status and text_texts == [t for t in texts if t is not None]
    return status


def test_unknown_keys_kept_between_lines_read_as_the_character_loop():
    """A key the spec does not know, kept after the key before it for the next lines (one
    compare then), is told apart from known keys and other unknown keys at every length:
    lines in one block, where each known or unknown key follows the same key in turn."""
    layout = get_task("shengji-legal").records()
    base = [("id", '"g-1"'), ("kind", '"follow_legal"'), ("level", '"5"'), ("trump", '"NT"'),
            ("hand", '["S3", "S4"]'), ("lead", '["S3"]'), ("play", '["S4"]')]  # fmt: skip
    keys = ["tags", "tag", "tagz", "", "t", "play", "pla", "plays", "level", "levels",
            "trumpet", "trump_", "lead", "leads", "x" * 7, "x" * 8, "id", "i"]  # fmt: skip
    rng = random.Random(7)
    lines = []
    for _ in range(300):
        pairs = [p for p in base if p[0] == "id" or rng.random() < 0.9]
        key = rng.choice(keys)
        pairs.insert(rng.randrange(len(pairs) + 1), (key, '"x"' if rng.random() < 0.5 else
                                                     '["S5"]'))  # fmt: skip
        lines.append("{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}")
    # (each line also read alone: nothing kept from the lines before, the same status)
    assert list(_read_as_prepare_reads(layout, lines, alone=True)).count(SCAN_OK) >= 60


def test_scanner_refers_what_it_cannot_read_and_never_raises():
    layout = get_task("shengji-legal").records()
    odd = ['{"kind": "follow_legal"', "{" * 40, "[" * 40, '{"a": ' + "[" * 40 + "]" * 40 + "}",
           '{"kind": "follow_legal", "level": "5", "trump": "S", "hand": ["S3"' + ', "S4"' * 5000
           + '], "lead": ["S5"], "play": ["S6"]}', 5, None, b"{}", "\u00e9"]  # fmt: skip
    status, *_ = layout.scan(odd)
    assert list(status) == [SCAN_REFER] * len(odd)


@pytest.mark.parametrize("task_name", list(CASES))
def test_runs_with_and_without_the_native_reader_store_the_same(tmp_path, task_name,
                                                               stored_run):  # fmt: skip
    lines = _lines(task_name, 10, 9)
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fast = get_task(task_name)
    plain = dataclasses.replace(fast, records=None)
    stores = [stored_run(path, task, tmp_path / f"{i}.sqlite")
              for i, task in enumerate((fast, plain))]  # fmt: skip
    assert stores[0] == stores[1]
    assert len(stores[0][0]) > 10 and len(stores[0][1]) > 10


def test_packed_and_dict_payloads_solve_alike():
    for task_name in CASES:
        task = get_task(task_name)
        lines = [json.dumps(case) for case in CASES[task_name](200, 4)]
        status, texts, _ids, packs = task.records().scan(lines)
        dicts = [task.prepare(json.loads(line)) for line in lines]
        assert [canonical(d, plain=True) for d, s in zip(dicts, status) if s == SCAN_OK] == [
            t for t in texts if t is not None
        ]
        chosen = [(p, d) for p, d, s in zip(packs, dicts, status) if s == SCAN_OK]
        fast = [r for r, _ in task.solve([p for p, _ in chosen], 1)]
        slow = [r for r, _ in task.solve([d for _, d in chosen], 1)]
        mixed = [r for r, _ in task.solve([p if i % 3 else d for i, (p, d) in
                                           enumerate(chosen)], 1)]  # fmt: skip
        assert fast == slow == mixed and len(fast) > 100


_TOKENS = ["S3", "S10", "HA", "BJ", "LJ", "D2", "C7", "s3", "X9", "S1", "", "S100"]
_VALUES = st.one_of(
    st.lists(st.sampled_from(_TOKENS), max_size=6),
    st.lists(st.lists(st.sampled_from(_TOKENS), max_size=3), max_size=5),
    st.sampled_from(["follow_legal", "trick_winner", "classify", "beats", "5", "NT", "S", "x"]),
    st.none(),
    st.integers(-3, 3),
)
_RECORDS = st.dictionaries(
    st.sampled_from(["kind", "level", "trump", "hand", "lead", "play", "plays", "others", "id",
                     "cards", "previous", "policy", "tags"]),
    _VALUES,
    max_size=8,
)  # fmt: skip


_BASES = {name: [case for case in make(12, 3)] for name, make in CASES.items()}


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(list(CASES)),
    st.integers(0, 11),
    _RECORDS,
    st.booleans(),
    st.text("{}[]\",: 01-.eE\\nul", max_size=30),
)
def test_random_records_are_read_exactly_or_referred(task_name, base, fields, merge, noise):
    """Random field mixes over generated records (and random JSON-like text): a line the
    reader accepts is one ``prepare`` accepts, with the same text; the reader never raises."""
    record = {**_BASES[task_name][base], **fields} if merge else fields
    layout = get_task(task_name).records()
    lines = [json.dumps(record), noise, json.dumps(record)[:-1] + noise]
    status, texts, _ids, _packs = layout.scan(lines)
    for number, (line, state) in enumerate(zip(lines, status), start=1):
        if state == SCAN_OK:
            slow = _slow(task_name, line, number)
            assert slow is not None and slow[0] == texts[number - 1], line
