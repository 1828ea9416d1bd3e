"""Packed positions (``qipai pack``, ``.qpk``): the same positions as their JSON Lines.

A packed payload is written back to exactly the canonical text the scanner wrote for its
line (so the input hash is the same), a payload the scanner could not have made is a bad
record naming its number, and a run on a packed file stores what a run on the JSON Lines
stores (ids, input hashes, inputs, results), resuming across the two.
"""

from __future__ import annotations

import json
import os
import random
import struct
import sys
import threading
from array import array

import pytest
from tests.batch.test_batch_records import CASES, _lines

from engines.batch.inputs import BadInput, expected_positions, input_format, read_inputs
from engines.batch.packed import (
    count_records,
    frame,
    header,
    packed_blocks,
    unpacked,
    write_packed,
)
from engines.batch.records import Payloads
from engines.batch.runner import run_batch
from engines.batch.store import ResultStore
from engines.batch.tasks import get_task
from engines.errors import InputError
from solvers._records import packed_records, unpacked_texts

# (these tests are of packed blocks: 升级 and 双扣 stored so, not by place)
pytestmark = pytest.mark.usefixtures("packed_blocks_layout")

TASKS = ["shengji-legal", "shuangkou-legal"]


def _scanned(task_name: str, seed: int):
    layout = get_task(task_name).records()
    lines = _lines(task_name, 40, seed)
    status, texts, ids, packs = layout.scan(lines)
    read = [i for i, state in enumerate(status) if state == 0]
    return layout, [texts[i] for i in read], [ids[i] for i in read], [packs[i] for i in read]


def _ends(items: list[bytes]) -> bytes:
    out, at = [], 0
    for item in items:
        at += len(item)
        out.append(at)
    return struct.pack(f"<{len(out)}q", *out)


@pytest.mark.parametrize("task_name", TASKS)
@pytest.mark.parametrize("seed", [1, 2])
def test_payloads_are_written_back_to_the_scanners_text(task_name, seed):
    layout, texts, _ids, packs = _scanned(task_name, seed)
    assert len(packs) > 100
    status, (data, ends), digests = unpacked_texts(layout.spec, b"".join(packs), _ends(packs))
    assert list(status) == [0] * len(packs)
    bounds = struct.unpack(f"<{len(packs)}q", ends)
    got = [data[a:b].decode() for a, b in zip([0, *bounds], bounds)]
    assert got == texts
    from solvers._batch_hashes import text_digests

    assert digests == text_digests(texts)


@pytest.mark.parametrize("task_name", TASKS)
def test_altered_payloads_are_read_only_as_the_scanner_reads_their_text(task_name):
    """Every payload with a byte changed, cut or grown: refused, or written back to a text
    that the scanner reads to the very same payload (nothing else is ever trusted)."""
    layout, _texts, _ids, packs = _scanned(task_name, 3)
    rng = random.Random(7)
    altered = []
    for pack in packs[:150]:
        at = rng.randrange(len(pack))
        altered += [pack[:at] + bytes([rng.choice([0, 1, 2, 3, 9, 255])]) + pack[at + 1 :],
                    pack[:-1], pack + b"\x00", pack[:at] + pack[at + 1 :], b""]  # fmt: skip
    status, (data, ends), _digests = unpacked_texts(layout.spec, b"".join(altered),
                                                    _ends(altered))  # fmt: skip
    bounds = struct.unpack(f"<{status.count(0)}q", ends)
    texts = iter(data[a:b].decode() for a, b in zip([0, *bounds], bounds))
    refused = 0
    for pack, state in zip(altered, status):
        if state:
            refused += 1
            continue
        text = next(texts)
        again_status, again_texts, _, again_packs = layout.scan([text])
        assert again_status[0] == 0 and again_packs[0] == pack and again_texts[0] == text
    assert 0 < refused < len(altered)


@pytest.mark.parametrize("task_name", TASKS)
def test_packed_records_refuse_what_the_plain_checks_refuse(task_name):
    """One native call a block (packed_records) reads, refuses and hashes altered records
    exactly as the checks it replaced: ids printable ASCII without quote or backslash,
    payloads as unpacked_texts takes them (texts or compact forms, the same digests)."""
    layout, _texts, ids, packs = _scanned(task_name, 4)
    rng = random.Random(11)
    records = []
    for pid, pack in zip(ids, packs):
        at = rng.randrange(len(pack))
        name = (pid or "x").encode()
        raw = bytearray(name)
        raw[rng.randrange(len(raw))] = rng.choice([0, 31, 32, 34, 92, 126, 127, 128, 255])
        records += [(name, pack[:at] + bytes([rng.choice([2, 3, 9, 255])]) + pack[at + 1 :]),
                    (name, pack), (bytes(raw), pack), (b"", pack[:at]),
                    (rng.randbytes(rng.randrange(20)), pack)]  # fmt: skip
    data = b"".join(struct.pack("<BH", len(i), len(p)) + i + p for i, p in records)
    for texts in (True, False):
        status, id_pair, pack_pair, forms, digests, lines = packed_records(layout.spec, data, 5,
                                                                           texts)  # fmt: skip
        plain_id = [all(32 <= c < 127 and c not in b'"\\' for c in i) for i, _p in records]
        kept = [p for (i, p), ok in zip(records, plain_id) if ok]
        checked, want_forms, want_digests = unpacked_texts(layout.spec, b"".join(kept), _ends(kept),
                                                           texts)  # fmt: skip
        checked = iter(checked)
        assert list(status) == [0 if ok and not next(checked) else 2 if ok else 1
                                for ok in plain_id]  # fmt: skip
        read = [r for r, state in zip(records, status) if state == 0]
        assert 0 < len(read) < len(records)
        assert id_pair == (b"".join(i for i, _p in read), _ends([i for i, _p in read]))
        assert pack_pair == (b"".join(p for _i, p in read), _ends([p for _i, p in read]))
        assert (forms, digests) == (want_forms, want_digests)
        assert array("q", lines).tolist() == [5 + i for i, state in enumerate(status) if state == 0]


def _guarded(data: bytes):
    """``data`` in a memory map whose next page cannot be read: a read past its end faults."""
    import ctypes
    import mmap

    page = mmap.PAGESIZE
    pages = len(data) // page + 2
    memory = mmap.mmap(-1, pages * page)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    base = ctypes.addressof(ctypes.c_char.from_buffer(memory))
    assert libc.mprotect(base + (pages - 1) * page, page, 0) == 0  # PROT_NONE
    start = (pages - 1) * page - len(data)
    memory[start : start + len(data)] = data
    return memory, memoryview(memory)[start : start + len(data)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="mprotect through ctypes")
@pytest.mark.parametrize("task_name", TASKS)
def test_packed_records_read_no_byte_past_a_damaged_blocks_end(task_name):
    """Blocks cut anywhere, random bytes, lengths past the end, payloads cut, grown or full
    of counts over 2, each ending just before a page that cannot be read: packed_records
    reads only the block's whole records, with the statuses of the plain checks."""
    layout, _texts, _ids, packs = _scanned(task_name, 5)
    rng = random.Random(13)
    for _ in range(150):
        records = []
        for pack in rng.sample(packs, rng.randrange(min(30, len(packs)))):
            pack = bytearray(pack)
            for _ in range(rng.choice([0, 0, 1, 40])):
                pack[rng.randrange(len(pack))] = rng.choice([3, 4, 255])
            pack = rng.choice([pack, pack[: rng.randrange(len(pack))], pack + b"\x01",
                               rng.randbytes(rng.randrange(300))])  # fmt: skip
            pid = rng.choice([b"p%d" % len(records), rng.randbytes(rng.randrange(9))])
            records.append((pid, bytes(pack)))
        data = b"".join(struct.pack("<BH", len(i), len(p)) + i + p for i, p in records)
        data = data[: rng.randrange(len(data) + 1)] if rng.random() < 0.5 else data
        data += rng.choice([b"", b"\x05\xff\xff", b"\x00\x10"])
        memory, view = _guarded(data)
        records = _whole_records(data)
        plain = [all(32 <= c < 127 and c not in b'"\\' for c in i) for i, _p in records]
        kept = [p for (_i, p), ok in zip(records, plain) if ok]
        for texts in (False, True):
            status, *_columns, digests, _lines = packed_records(layout.spec, view, 1, texts)
            checked, _forms, want = unpacked_texts(layout.spec, b"".join(kept), _ends(kept), texts)
            checked = iter(checked)
            assert list(status) == [0 if ok and not next(checked) else 2 if ok else 1
                                    for ok in plain]  # fmt: skip
            assert digests == want
        view.release()
        memory.close()


def _whole_records(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (id, payload) of each whole record at the start of ``data``."""
    out, at = [], 0
    while at + 3 <= len(data):
        k, m = struct.unpack_from("<BH", data, at)
        if at + 3 + k + m > len(data):
            break
        out.append((data[at + 3 : at + 3 + k], data[at + 3 + k : at + 3 + k + m]))
        at += 3 + k + m
    return out


def _pack(task_name: str, path, out) -> int:
    with open(out, "wb") as handle:
        return write_packed(get_task(task_name), [str(path)], handle, lambda *_: None)


def _rows(db) -> list[tuple]:
    with ResultStore.open_existing(db) as store:
        rows = [(r["input_hash"], r["position_id"], r["input"], r["result"], r["error"])
                for r in store.rows()]  # fmt: skip
    return sorted(rows, key=lambda r: r[0])


@pytest.mark.parametrize("task_name", TASKS)
def test_a_packed_run_stores_what_the_json_lines_run_stores_and_resumes_it(tmp_path, task_name):
    path = tmp_path / "in.jsonl"
    cases = list(CASES[task_name](400, 4))
    for case in cases[::7]:
        case.pop("id", None)  # ids named after the JSON Lines file and line
    path.write_text("".join(json.dumps(c) + "\n" for c in cases))
    qpk = tmp_path / "in.qpk"
    assert _pack(task_name, path, qpk) == 400 == count_records(str(qpk))
    assert input_format(str(qpk)) == "packed"
    for jobs in (1, 2):
        a, b = tmp_path / f"a{jobs}.sqlite", tmp_path / f"b{jobs}.sqlite"
        # (rows: the layout whose input hashes are the canonical text's, as JSON Lines')
        packed = run_batch([str(qpk)], task_name, str(a), jobs=jobs, progress=False,
                           store_layout="rows")  # fmt: skip
        plain = run_batch([str(path)], task_name, str(b), jobs=jobs, progress=False)
        assert packed.computed == plain.computed > 300
        assert packed.duplicates == plain.duplicates == 400 - plain.computed
        assert _rows(a) == _rows(b)
        again = run_batch([str(path)], task_name, str(a), jobs=jobs, progress=False)
        assert (again.computed, again.already_stored) == (0, plain.computed)
    # the plain path (records) reads the canonical payloads and ids
    records = [r for r in read_inputs([str(qpk)]) if not isinstance(r, BadInput)]
    task = get_task(task_name)
    assert [task.json_text(task.prepare(r.obj)) for r in records[:50]] == \
        [task.json_text(task.prepare(c)) for c in cases[:50]]  # fmt: skip
    assert records[7].position_id == "in.jsonl:8"


@pytest.mark.parametrize("task_name", TASKS)
def test_expected_positions_estimates_packed_and_json_lines_files(tmp_path, task_name):
    """A run's digest set is sized from expected_positions: within a few per cent of the
    count for files past its 64 KiB sample, exact for smaller ones, 0 for what it cannot
    sample; and a block read for a store of packed blocks keeps one column of compact forms
    as its texts and its payloads (no copy of the payloads)."""
    path, qpk = tmp_path / "in.jsonl", tmp_path / "in.qpk"
    path.write_text("".join(json.dumps(c) + "\n" for c in CASES[task_name](3000, 2)))
    _pack(task_name, path, qpk)
    assert os.path.getsize(qpk) > 1 << 16 and os.path.getsize(path) > 1 << 16
    for f in (path, qpk):
        assert abs(expected_positions([str(f)]) - 3000) < 150
    small = tmp_path / "small.jsonl"
    small.write_text("".join(json.dumps(c) + "\n" for c in CASES[task_name](40, 3)))
    assert expected_positions([str(small), "-", str(tmp_path / "missing.jsonl")]) == 40
    layout = get_task(task_name).records()
    block = next(packed_blocks(str(qpk), get_task(task_name)))
    got = unpacked(layout, block, texts=False)
    assert got.packs is got.texts and got.packs.compact and len(got.packs) > 100
    assert Payloads(got.packs).tolist() == unpacked(layout, block).packs.tolist()


def test_bad_records_are_named_by_their_number_and_the_rest_is_stored(tmp_path):
    task = get_task("shengji-legal")
    _layout, _texts, _ids, packs = _scanned("shengji-legal", 4)
    good = [frame(f"p{i}", pack, "x") for i, pack in enumerate(packs[:5])]
    bad_id = struct.pack("<BH", 2, len(packs[0])) + b'a"' + packs[0]
    bad_pack = frame("q", packs[1][:-1], "x")
    path = tmp_path / "f.qpk"
    path.write_bytes(header(task) + b"".join([good[0], bad_id, good[1], bad_pack, *good[2:]])
                     + good[0][:4])  # fmt: skip
    bad: list[BadInput] = []
    summary = run_batch([str(path)], task, str(tmp_path / "s.sqlite"), jobs=1, progress=False,
                        on_bad_input=bad.append)  # fmt: skip
    assert summary.computed == 5
    assert [(b.line, b.reason.split(":")[0]) for b in bad] == [
        (2, "packed record 2"), (4, "packed record 4"), (8, "record 8 is cut short (4 bytes at "
                                                         "the end of the file)")]  # fmt: skip
    assert "id" in bad[0].reason and "payload" in bad[1].reason


def test_a_file_for_another_task_or_not_packed_is_refused(tmp_path):
    shengji, shuangkou = get_task("shengji-legal"), get_task("shuangkou-legal")
    path = tmp_path / "f.qpk"
    path.write_bytes(header(shuangkou))
    with pytest.raises(InputError, match="packed for task shuangkou-legal"):
        list(packed_blocks(str(path), shengji))
    path.write_bytes(b"qipai-packed 9 shengji-legal 00\n")
    with pytest.raises(InputError, match="version 9"):
        list(packed_blocks(str(path), shengji))
    path.write_bytes(b'{"kind": "follow_legal"}\n')
    with pytest.raises(InputError, match="not a packed positions file"):
        list(packed_blocks(str(path), shengji))
    with pytest.raises(InputError, match="cannot be packed"):
        frame('a"b', b"\x00", "f.jsonl:3")


def test_unpacked_keeps_the_order_of_good_records(tmp_path):
    task = get_task("shuangkou-legal")
    layout, texts, _ids, packs = _scanned("shuangkou-legal", 5)
    body = b"".join(frame(f"i{i}", p if i % 3 else p + b"\x07", "x") for i, p in enumerate(packs))
    path = tmp_path / "f.qpk"
    path.write_bytes(header(task) + body)
    blocks = list(packed_blocks(str(path), task))
    got = unpacked(layout, blocks[0])
    assert list(got.status) == [0 if i % 3 else 1 for i in range(len(packs))]
    assert got.texts.tolist() == [t for i, t in enumerate(texts) if i % 3]
    assert got.ids.tolist() == [f"i{i}" for i in range(len(packs)) if i % 3]
    assert array("q", got.lines).tolist() == [i + 1 for i in range(len(packs)) if i % 3]


def test_qipai_pack_reads_lines_the_native_reader_refers_and_stops_at_a_bad_one(tmp_path, capsys):
    from engines.cli import main

    cases = list(CASES["shengji-legal"](30, 6))
    odd = dict(cases[0], id="odd", hand=[c.lower() for c in cases[0]["hand"]])  # via prepare
    path, out = tmp_path / "in.jsonl", tmp_path / "in.qpk"
    path.write_text("".join(json.dumps(c) + "\n" for c in [*cases, odd]) + "\n")
    assert get_task("shengji-legal").records().scan([json.dumps(odd)])[0][0] == 1
    assert main(["pack", "--task", "shengji-legal", str(path), "-o", str(out)]) == 0
    assert count_records(str(out)) == 31
    records = [r for r in read_inputs([str(out)]) if not isinstance(r, BadInput)]
    assert records[-1].position_id == "odd"
    task = get_task("shengji-legal")
    assert task.json_text(task.prepare(records[-1].obj)) == task.json_text(task.prepare(odd))
    with path.open("a") as handle:
        handle.write('{"kind": "follow_legal", "id": "bad"}\n')
    assert main(["pack", "--task", "shengji-legal", str(path), "-o", str(out)]) == 2
    assert not out.exists()
    assert f"{path}:33" in capsys.readouterr().err


def test_blocks_cut_inside_records_read_every_record_once(tmp_path, monkeypatch):
    """Blocks cut records anywhere (their bytes are carried into the next block): every
    record is read once, in order, numbered from 1, and a truncated last one is a bad
    input."""
    from engines.batch import packed as packed_module

    task = get_task("shengji-legal")
    layout, texts, _ids, packs = _scanned("shengji-legal", 3)
    body = b"".join(frame(f"i{i}", p, "x") for i, p in enumerate(packs))
    path = tmp_path / "f.qpk"
    path.write_bytes(header(task) + body + b"\x02")
    for size in (150, 211, 1000, 1 << 21):
        monkeypatch.setattr(packed_module, "_BLOCK_BYTES", size)
        got, got_ids, firsts, cut = [], [], [], []
        for block in packed_blocks(str(path), task):
            if type(block) is BadInput:
                cut.append(block)
                continue
            firsts.append(block.first)
            read = unpacked(layout, block)
            assert read.status.count(0) == len(read.status)
            got += read.texts.tolist()
            got_ids += read.ids.tolist()
        assert got_ids == [f"i{i}" for i in range(len(packs))]
        assert got == texts and firsts[0] == 1 and len(firsts) > (size < 1000) * 3
        assert firsts == sorted(firsts)
        assert len(cut) == 1 and cut[0].line == len(packs) + 1 and "cut short" in cut[0].reason
        assert count_records(str(path)) == len(packs)


def test_a_packed_file_that_cannot_seek_carries_cut_records_over(tmp_path, monkeypatch):
    """Through a pipe (no seeking back), a record cut by a block's end is joined to the rest
    of its bytes: every record once, in order, and the truncated last one a bad input."""
    from engines.batch import packed as packed_module

    task = get_task("shuangkou-legal")
    _layout, _texts, _ids, packs = _scanned("shuangkou-legal", 2)
    body = b"".join(frame(f"i{i}", p, "x") for i, p in enumerate(packs))
    pipe = tmp_path / "f.qpk"
    os.mkfifo(pipe)
    writer = threading.Thread(target=pipe.write_bytes, args=(header(task) + body + b"\x05",))
    writer.start()
    monkeypatch.setattr(packed_module, "_BLOCK_BYTES", 211)
    blocks = list(packed_blocks(str(pipe), task))
    writer.join()
    ids = [i for b in blocks if type(b) is not BadInput for i in unpacked(task.records(), b).ids]
    assert ids == [f"i{i}" for i in range(len(packs))]
    assert type(blocks[-1]) is BadInput and blocks[-1].line == len(packs) + 1
