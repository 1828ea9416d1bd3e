"""Buffer-backed columns of the runner (``solvers._batch_columns``, ``Payloads``, the
reader's ``scan_columns``, ``block_json_columns``) against the list operations they replace.

Cutting, selecting and joining columns gives the items the same operations on lists give;
packed payloads are grouped as ``payload_groups`` groups them; the reader's buffers hold
what ``scan_hashed`` gives; the rows' text written from buffers is ``block_json``'s; and
whole runs whose every line the native reader reads (ids or none, one file or several)
store what the plain path stores.
"""

from __future__ import annotations

import itertools
import json
import pickle
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.batch.test_batch_block_path import fast_and_plain_stores
from tests.batch.test_batch_packed_store import _compact, _ends
from tests.batch.test_batch_records import CASES, _lines

from engines.batch.records import Payloads, grouped, payload_groups
from engines.batch.rows import Rows
from engines.batch.store_rows import written_column_runs
from engines.batch.tasks import get_task
from solvers._batch_columns import Strings, expanded_payloads, pack_groups, select_fixed
from solvers._batch_rows import block_json, block_json_columns, block_json_parts
from solvers._batch_views import gather_strings

_ITEMS = st.lists(st.text(max_size=6), max_size=10)
_STATUS = st.lists(st.integers(0, 2), max_size=10)


@settings(max_examples=150, deadline=None)
@given(_ITEMS, _ITEMS, st.integers(0, 12), st.integers(0, 12), _STATUS)
def test_strings_cut_select_join_as_lists(a, b, lo, hi, status):
    sa, sb = Strings.of(a), Strings.of(b)
    assert sa.tolist() == a and list(sa) == a and len(sa) == len(a)
    assert sa.ascii == all(x.isascii() for x in a) and not sa.plain
    lo, hi = sorted((min(lo, len(a)), min(hi, len(a))))
    assert sa.part(lo, hi).tolist() == a[lo:hi]
    joined = Strings.join([sa, sb, sa.part(lo, hi)])
    assert joined.tolist() == a + b + a[lo:hi]
    mask = bytearray((status * (len(a) + 1))[: len(a)]) if status else bytearray(len(a))
    for want in range(3):
        assert sa.chosen(mask, want).tolist() == [x for x, m in zip(a, mask) if m == want]
    raw = [x.encode("utf-8", "surrogatepass") for x in a]
    packs = Strings.of(raw, False)
    assert packs.tolist() == raw and packs.part(lo, hi).tolist() == raw[lo:hi]
    assert Strings(*(lambda s: (s.data, s.ends))(sa), True).tolist() == a


def test_strings_refuse_ends_outside_their_data():
    ends = (3).to_bytes(8, "little") + (2).to_bytes(8, "little")
    with pytest.raises(ValueError):
        Strings(b"abc", ends)  # decreasing
    with pytest.raises(ValueError):
        Strings(b"ab", (3).to_bytes(8, "little"))  # beyond the data
    with pytest.raises(ValueError):
        Strings(b"ab", b"\0" * 7)
    with pytest.raises(TypeError):
        Strings.of(["a", b"b"])
    with pytest.raises(ValueError):
        Strings.join([Strings.of(["a"]), Strings.of([b"b"], False)])


def test_select_fixed_keeps_the_wanted_items():
    data = b"".join(i.to_bytes(8, "little") for i in range(5))
    assert select_fixed(data, 8, bytearray([1, 0, 1, 2, 0]), 0) == data[8:16] + data[32:]
    assert select_fixed(data, 8, bytearray(5), 0) is data  # (every item: no copy)
    assert select_fixed(data, 8, bytearray(5), 1) == b""
    with pytest.raises(ValueError):
        select_fixed(data, 8, bytearray(4), 0)


_PAYLOAD = st.one_of(
    st.tuples(st.integers(0, 3), st.integers(0, 4)).map(lambda t: bytes([t[0]] * (1 + t[1]))),
    st.sampled_from(["x", "y"]).map(lambda k: {"kind": k}),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_PAYLOAD, max_size=14), st.lists(_PAYLOAD, max_size=5), _STATUS,
       st.integers(0, 14))  # fmt: skip
def test_payloads_cut_select_join_and_group_as_lists(ps, more, status, cut):
    p = Payloads.of(ps)
    assert p.tolist() == ps and len(p) == len(ps)
    cut = min(cut, len(ps))
    assert p.part(cut, len(ps)).tolist() == ps[cut:]
    assert Payloads.join([p, Payloads.of(more)]).tolist() == ps + more
    mask = bytearray((status * (len(ps) + 1))[: len(ps)]) if status else bytearray(len(ps))
    assert p.chosen(mask, 1).tolist() == [x for x, m in zip(ps, mask) if m == 1]
    key = lambda d: d["kind"]  # noqa: E731
    expected = {}
    for k, rows in payload_groups(ps, key).items():
        expected[k] = (list(rows), [ps[i] for i in rows])
    for form in (p, ps):
        got = {}
        for packed, k, rows, what in grouped(form, key):
            listed = [bytes(r) for r in what] if packed else list(what)
            got[k] = (list(map(int, rows)), listed)
        assert got == expected


def test_pack_groups_gives_up_beyond_64_groups():
    packs = Strings.of([bytes([0] * n) for n in range(1, 70)], False)
    assert pack_groups(packs) is None
    groups = grouped(Payloads(packs), lambda d: d)
    assert sorted(len(rows) for _, _, rows, _ in groups) == [1] * 69


def _compact_column(payloads: list[bytes]) -> Strings:
    forms = [_compact(p) for p in payloads]
    return Strings(b"".join(forms), _ends(forms), False, compact=True)


def test_compact_payloads_group_and_list_as_their_payloads():
    """A column of compact forms (``Strings.compact``: what a block read for a store of
    packed blocks keeps) groups and lists as the payloads themselves, and keeps its kind
    through parts, selections, joins, gathers and pickling; a damaged form is refused."""
    rng = random.Random(5)
    payloads = [bytes([rng.choice([0, 1, 3, 9])]) + bytes(rng.choice([0, 0, 1, 2, 3, 200])
                for _ in range(rng.choice([3, 8, 13, 16, 45]))) for _ in range(600)]  # fmt: skip
    compact, plain = _compact_column(payloads), Strings.of(payloads, False)
    assert compact.compact and not plain.compact
    assert pack_groups(compact) == pack_groups(plain)
    assert Payloads(compact).tolist() == payloads and Payloads(compact)[-1] == payloads[-1]
    mask = bytearray(rng.randrange(2) for _ in payloads)
    pieces = [(compact, 10, 400, None), (compact, 0, len(payloads), mask)]
    for column in (compact.part(7, 99), compact.chosen(mask, 1),
                   Strings.join([compact, compact.part(3, 9)]), gather_strings(pieces),
                   pickle.loads(pickle.dumps(compact))):  # fmt: skip
        assert column.compact
        assert Payloads(column).tolist() == Strings(*expanded_payloads(column.data, column.ends),
                                                    False).tolist()  # fmt: skip
    with pytest.raises(ValueError):
        Strings.join([compact, plain])
    for cut in (1, 2, 5):
        with pytest.raises(ValueError):
            pack_groups(Strings(compact.data[:-cut], compact.ends[:-8] + struct.pack(
                "<q", len(compact.data) - cut), False, compact=True))  # fmt: skip


_TEXT = st.text(max_size=12) | st.sampled_from(['{"a":[1,"}"]}', "[]", "{", '"x"', "[1]"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=6), st.integers(-5, 2**40), _TEXT, _TEXT,
                          st.none() | st.text(max_size=6), st.floats(0, 1e6, allow_nan=False)),
                max_size=10))  # fmt: skip
def test_block_json_columns_is_block_json(rows):
    ids, lines, inputs, results, errors, seconds = (
        [list(c) for c in zip(*rows)] if rows else [[] for _ in range(6)])  # fmt: skip
    lines_bytes = b"".join(n.to_bytes(8, "little", signed=True) for n in lines)
    expected = block_json(ids, lines, inputs, results, errors, seconds)
    got = block_json_columns(Strings.of(ids), lines_bytes, Strings.of(inputs), results, errors,
                             seconds)  # fmt: skip
    assert got == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=6), st.integers(-5, 2**40), _TEXT, _TEXT,
                          st.none() | st.text(max_size=6), st.floats(0, 1e6, allow_nan=False)),
                max_size=10), st.lists(st.integers(0, 10), max_size=4),
       st.integers(0, 10), st.integers(0, 10))  # fmt: skip
def test_block_json_parts_is_block_json_of_the_rows_asked(rows, cuts, lo, hi):
    """Rows in parts cut anywhere (empty parts too), any range of them: the text of those
    rows as one block."""
    ids, lines, inputs, results, errors, seconds = (
        [list(c) for c in zip(*rows)] if rows else [[] for _ in range(6)])  # fmt: skip
    lo, hi = sorted((min(lo, len(rows)), min(hi, len(rows))))
    bounds = [0, *sorted(min(c, len(rows)) for c in cuts), len(rows)]
    parts = [(Strings.of(ids[a:b]), b"".join(n.to_bytes(8, "little", signed=True)
                                             for n in lines[a:b]), Strings.of(inputs[a:b]))
             for a, b in itertools.pairwise(bounds)]  # fmt: skip
    expected = block_json(ids[lo:hi], lines[lo:hi], inputs[lo:hi], results[lo:hi],
                          errors[lo:hi], seconds[lo:hi])  # fmt: skip
    got = block_json_parts(parts, lo, hi, results, errors, seconds)
    if got is None and expected is not None:  # (a part read is not ASCII outside the range)
        assert any(not s.isascii() for a, b in itertools.pairwise(bounds) if a < hi and b > lo
                   for s in ids[a:b] + inputs[a:b])  # fmt: skip
        return
    assert got == expected
    with pytest.raises(ValueError):
        block_json_parts(parts, lo, len(rows) + 1, results, errors, seconds)
    with pytest.raises(ValueError):  # the parts hold fewer rows than the other columns
        block_json_parts(parts, 0, 0, [*results, None], [*errors, None], [*seconds, 0.0])


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a.jsonl", "b.jsonl"]), st.text(max_size=6),
                          st.integers(0, 2**40), _TEXT, st.binary(max_size=4)), max_size=12),
       st.lists(st.integers(0, 12), max_size=4))  # fmt: skip
def test_rows_joined_in_parts_are_the_rows_joined_at_once(cases, cuts):
    """A chunk joined from parts keeps them: its columns, joined when first asked, and the
    text of its runs of one source, written from the parts, are those of the rows as one."""
    sources, ids, lines, texts, packs = (
        [list(c) for c in zip(*cases)] if cases else [[] for _ in range(5)])  # fmt: skip
    digests = b"".join(i.to_bytes(16, "little") for i in range(len(cases)))
    whole = Rows.of(sources, lines, ids, packs, texts, digests)
    bounds = [0, *sorted(min(c, len(cases)) for c in cuts), len(cases)]
    joined = Rows.join([whole.part(a, b) for a, b in itertools.pairwise(bounds)])
    assert len(joined) == len(whole) and joined.sources == sources
    assert (joined.lines, joined.digests) == (whole.lines, whole.digests)
    assert joined.ids.tolist() == ids and joined.texts.tolist() == texts
    assert joined.payloads.tolist() == packs
    sizes = [b - a for a, b in itertools.pairwise(bounds)]
    assert [len(p[0]) for p in joined.column_parts()] == (sizes if len(sizes) > 1 else [len(cases)])
    results = [f"[{i}]" for i in range(len(cases))]
    errors, seconds = [None] * len(cases), [0.25] * len(cases)
    assert written_column_runs(sources, joined.column_parts(), results, errors, seconds) == \
        written_column_runs(sources, whole.column_parts(), results, errors, seconds)


def test_block_json_columns_writes_plain_inputs_as_they_are():
    texts = Strings.of(['{"a":1}', "[2]"])
    plain = Strings(texts.data, texts.ends, True, True, True)
    lines = b"".join(n.to_bytes(8, "little") for n in (1, 2))
    args = (["r", "r"], [None, None], [0.5, 0.5])
    assert block_json_columns(Strings.of(["a", "b"]), lines, plain, *args) == \
        block_json(["a", "b"], [1, 2], ['{"a":1}', "[2]"], *args)
    with pytest.raises(ValueError):
        block_json_columns(Strings.of(["a"]), lines, plain, *args)


@pytest.mark.parametrize("task_name", list(CASES))
def test_scan_columns_holds_what_scan_hashed_gives(task_name):
    layout = get_task(task_name).records()
    lines = [line for line in _lines(task_name, 40, 5) if line.isascii()]
    text = "\n".join(lines)
    status, texts, ids, packs, refer, digests = layout.scan_hashed(text)
    got = layout.scan_columns(text)
    assert got[0] == status and got[6] == refer and got[7] == digests
    assert Strings(*got[1], True).tolist() == texts
    assert Strings(*got[3], False).tolist() == packs
    missing = got[5] or bytearray(len(texts))
    assert [None if m else pid for pid, m in zip(Strings(*got[2], True).tolist(), missing)] == ids
    read = [i for i, s in enumerate(status) if s == 0]
    assert list(memoryview(got[4]).cast("q")) == read


def _clean_lines(task_name: str, n: int, seed: int) -> list[str]:
    """Lines the native reader reads whole (a first pass keeps those it reads)."""
    layout = get_task(task_name).records()
    lines = [line for line in _lines(task_name, n, seed) if line.isascii()]
    status = layout.scan_text("\n".join(lines))[0]
    return [line for line, s in zip(lines, status) if s == 0]


@pytest.mark.parametrize("task_name", list(CASES))
@pytest.mark.parametrize("jobs, chunk", [(1, None), (2, 7), (1, 3)])
def test_buffered_blocks_store_what_the_plain_path_stores(tmp_path, task_name, jobs, chunk):
    rng = random.Random(jobs * 10 + (chunk or 0))
    paths = []
    for k in range(3):
        lines = _clean_lines(task_name, 30, 40 + k)
        rng.shuffle(lines)
        lines += lines[:4]  # repeats, within and across files
        if k == 2:  # no ids: named file:line
            lines = [json.dumps({key: v for key, v in json.loads(x).items() if key != "id"})
                     for x in lines]  # fmt: skip
        path = tmp_path / f"in{k}.jsonl"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    stores = fast_and_plain_stores(paths, task_name, jobs, chunk, tmp_path, ascii_only=True)
    assert len(stores[0][0][0]) > 40
