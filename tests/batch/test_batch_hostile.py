"""Hostile JSON Lines through the native block path: the same rows, counts and messages as
the plain path, bad lines named, never a crash; hashes are hashlib's; a rerun resumes."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from engines.batch.inputs import decoded
from engines.batch.positions import _byte_blocks
from engines.batch.runner import run_batch
from engines.batch.tasks import get_task
from engines.errors import InputError
from engines.shengji.generate import shengji_cases
from engines.shuangkou.generate import shuangkou_cases

CASES = {"shengji-legal": shengji_cases, "shuangkou-legal": shuangkou_cases}


def _hostile(task_name: str) -> bytes:
    cases = [dict(c) for c in CASES[task_name](1500, 4)]
    for i, case in enumerate(cases):
        if i % 7 == 0:
            case.pop("id", None)  # FILE:LINE ids
    lines = [json.dumps(c).encode() for c in cases]
    lines += lines[1000:1100]  # repeats across the native reader's blocks of 1,024 lines
    lines[5] = b'{"id": "caf\xe9", "kind": "classify"}'  # Latin-1, not UTF-8
    lines[6] = lines[7][: len(lines[7]) // 2]  # cut short
    lines[8] = b"\x00" + lines[8]
    lines[9] = b""
    lines[10] = b"   \t"
    lines[11] = b'{"kind": "follow_legal", "hand": ["' + b'S3", "' * 20000 + b'S4"]}'  # 140 kB
    lines[12] = json.dumps({**json.loads(lines[13]), "id": "caf\u00e9"}).encode()  # UTF-8
    lines[1030] = b"\xff\xfe{"
    return b"\n".join(lines) + b"\n"


@pytest.mark.parametrize("task_name", list(CASES))
def test_hostile_lines_native_and_plain_paths_agree(tmp_path: Path, task_name: str,
                                                     stored_run) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(_hostile(task_name))
    fast = get_task(task_name)
    plain = dataclasses.replace(fast, records=None)
    native = stored_run(path, fast, tmp_path / "fast.sqlite")
    assert native == stored_run(path, plain, tmp_path / "plain.sqlite")
    rows, bad, (_, computed, duplicates, _) = native
    assert duplicates >= 90 and computed == len(rows) > 1300
    reasons = dict(bad)
    assert reasons[6] == "not UTF-8 text: byte 0xe9 at column 12"
    assert reasons[1031] == "not UTF-8 text: byte 0xff at column 1"
    assert 7 in reasons and 9 in reasons and 12 in reasons
    for input_hash, position_id, _line, text, _result, _error in rows:
        assert input_hash == hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        assert position_id
    assert any(pid == "caf\u00e9" for _, pid, *_ in rows)
    again = run_batch([str(path)], fast, str(tmp_path / "fast.sqlite"), jobs=1, progress=False,
                      on_bad_input=None)  # fmt: skip
    assert again.computed == 0 and again.already_stored == computed


def test_strict_names_the_first_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_bytes(_hostile("shengji-legal"))
    with pytest.raises(InputError, match=r"in\.jsonl:6: not UTF-8 text: byte 0xe9"):
        run_batch([str(path)], "shengji-legal", str(tmp_path / "s.sqlite"), jobs=1,
                  progress=False, strict=True)  # fmt: skip


@pytest.mark.parametrize("ending", [b"\r\n", b"\r", b"\n"])
def test_line_endings_and_blocks_read_as_the_plain_path_reads_them(
    tmp_path: Path, ending: bytes, stored_run, monkeypatch: pytest.MonkeyPatch
) -> None:
    # small native blocks: lines cut at every block boundary, non-ASCII and referred lines
    monkeypatch.setattr("engines.batch.positions._SCAN_CHARS", 1000)
    cases = [dict(c) for c in shengji_cases(300, 5)]
    lines = [json.dumps(c).encode() for c in cases]
    lines[3] = json.dumps({**cases[3], "id": "caf\u00e9"}).encode()
    lines[40] = lines[41][:50]
    lines[77] = b"  "
    path = tmp_path / "in.jsonl"
    path.write_bytes(ending.join(lines))  # the last line without its newline
    fast = get_task("shengji-legal")
    plain = dataclasses.replace(fast, records=None)
    native = stored_run(path, fast, tmp_path / "fast.sqlite")
    assert native == stored_run(path, plain, tmp_path / "plain.sqlite")
    rows, bad, (positions, _, _, _) = native
    assert positions == 298 and [line for line, _ in bad] == [41]
    assert rows[-1][2] == 300 and rows[3][1] == "caf\u00e9"


@pytest.mark.parametrize("size", [5, 13, 64, 1000])
def test_byte_blocks_hold_the_text_a_text_handle_reads(tmp_path: Path, size: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the runner reads a file as bytes: blocks of whole lines, never cut inside \r\n or a
    # UTF-8 character, decoded (where not ASCII or with \r) as a text handle reads them
    monkeypatch.setattr("engines.batch.positions._SCAN_CHARS", size)
    unit = b'{"a": 1}\r\n{"b": 2}\r{"c": 3}\n\r\n\r\r{"d": "\xc3\xa9\xff"}\r'
    for data in (unit * 40 + b"tail", unit * 9, b"\r" * 30, b"x" * 100, b""):
        path = tmp_path / "in.jsonl"
        path.write_bytes(data)
        with path.open("rb") as handle:
            blocks = [decoded(block) for block in _byte_blocks(handle)]
        with path.open(encoding="utf-8", errors="surrogateescape") as handle:
            assert "".join(blocks) == handle.read()
        assert all(block.endswith("\n") for block in blocks[:-1])


def test_a_reader_of_line_lists_only_reads_as_before(tmp_path: Path, stored_run) -> None:
    # a task's record reader may have scan(lines) only (Rummikub's): blocks are split in Python
    path = tmp_path / "in.jsonl"
    path.write_bytes(_hostile("shengji-legal"))
    fast = get_task("shengji-legal")
    layout = fast.records()
    lines_only = dataclasses.replace(fast, records=lambda: SimpleNamespace(scan=layout.scan))
    native = stored_run(path, lines_only, tmp_path / "lines.sqlite")
    assert native == stored_run(path, fast, tmp_path / "fast.sqlite")
    assert native[2][1] > 1300


@pytest.mark.parametrize("task_name", ["shengji-legal", "shuangkou-legal", "rummikub-best"])
def test_ids_the_store_cannot_keep_are_bad_lines(tmp_path: Path, task_name: str,
                                                 stored_run) -> None:
    # valid JSON escapes: SQLite's JSON functions would cut the id at NUL or fail to read
    # the results view on the lone surrogate, so the line is named instead of stored
    if task_name == "rummikub-best":
        cases = [{"table": [], "rack": ["K1", "K2", "K3", f"R{n}"]} for n in range(1, 5)]
    else:
        cases = [dict(c) for c in CASES[task_name](4, 4)]
    ids = ["plain", "a\u0000b", "x\ud800y", "\U0001f600 pair"]
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(json.dumps({**c, "id": i}) for c, i in zip(cases, ids)) + "\n")
    rows, bad, _ = stored_run(path, get_task(task_name), tmp_path / "s.sqlite")
    assert bad == [(2, "id: holds U+0000 (NUL) at character 2"),
                   (3, "id: holds a lone surrogate U+D800 at character 2")]  # fmt: skip
    assert [row[1] for row in rows] == ["plain", "\U0001f600 pair"]
