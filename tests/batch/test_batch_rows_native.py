"""The batch runner's native bookkeeping (``solvers._batch_hashes``, ``solvers._batch_rows``)
against the Python it replaces.

BLAKE2b digests equal :mod:`hashlib`'s, the hash set behaves like a ``set`` of the
hash strings (odd strings included), the split of a JSON array gives each item's
own text, and the rows' JSON text decodes to the rows.
"""

from __future__ import annotations

import hashlib
import json
import random

import orjson
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engines.batch.jsontext import canonical, canonical_items
from engines.batch.tasks import hash_text
from solvers import _batch_hashes as hashes
from solvers import _batch_rows as rows
from solvers._batch_columns import Strings


@pytest.mark.parametrize("size", [0, 1, 111, 127, 128, 129, 255, 256, 257, 1000, 4096])
def test_digests_are_hashlib_blake2b_16(size: int) -> None:
    data = random.Random(size).randbytes(size)
    assert hashes.blake2b16(data) == hashlib.blake2b(data, digest_size=16).digest()


@pytest.mark.parametrize("widest", [8, 4, 0])
def test_text_digests_many_at_a_time_are_hashlib_blake2b_16(widest: int) -> None:
    # texts of every number of blocks (the vector paths take 1-8 blocks, eight (AVX-512) or
    # four (AVX2, and four of those left) texts of one count at a time, the rest one by
    # one), shuffled so that each group mixes lengths; eight of each length at a block's
    # edge, so that whole groups of them are hashed together
    rng = random.Random(16)
    edges = [0, 1, 2000] * 8 + [128 * b + d for b in range(1, 9) for d in (-1, 0, 1)] * 8
    texts = ["".join(rng.choice("abcXYZ019 {}") for _ in range(size)) for size in edges]
    letters = "abcXYZ019 {}[]\",:\u00e9\u4e00"
    texts += ["".join(rng.choice(letters) for _ in range(rng.randrange(0, 1200)))
              for _ in range(600)]  # fmt: skip
    rng.shuffle(texts)
    used = hashes.set_vector_hashing(widest)
    try:
        digests = hashes.text_digests(texts)
    finally:
        hashes.set_vector_hashing(8)
    expected = b"".join(hashlib.blake2b(t.encode(), digest_size=16).digest() for t in texts)
    assert digests == expected
    if used != widest:
        pytest.skip(f"this CPU hashes at most {used} texts at a time, not {widest}")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=300), max_size=20))
def test_text_digests_and_hexes_match_hash_text(texts: list[str]) -> None:
    texts = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]  # no lone surrogates
    digests = hashes.text_digests(texts)
    assert hashes.hexes(digests) == [hash_text(t) for t in texts]
    assert hashes.hex_join(digests) == " ".join(hash_text(t) for t in texts)


def test_text_digests_refuse_what_is_not_text() -> None:
    with pytest.raises(TypeError):
        hashes.text_digests(["a", b"b"])
    with pytest.raises(ValueError):
        hashes.hexes(b"x" * 17)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 40)), st.lists(st.integers(0, 40)),
       st.lists(st.sampled_from(["ab12", "", "XYZ", "0" * 31, "A" * 32, "é"])))  # fmt: skip
def test_digest_set_behaves_like_a_set_of_hash_strings(added, probed, odd) -> None:
    texts = [str(i) for i in range(41)]
    hexes = [hash_text(t) for t in texts]
    digests = hashes.text_digests(texts)
    mine, reference = hashes.DigestSet(), set()
    mine.add_hex_text(" ".join(hexes[i] for i in added[: len(added) // 2]))
    mine.update(hexes[i] for i in added[len(added) // 2 :])
    mine.update(odd)
    reference.update(hexes[i] for i in added)
    reference.update(odd)
    assert len(mine) == len(reference)
    for h in [*hexes, *odd, "ab1", hexes[0].upper()]:
        assert (h in mine) == (h in reference)
    probe = b"".join(digests[16 * i : 16 * i + 16] for i in probed)
    present = mine.present(probe)
    assert list(present) == [int(hexes[i] in reference) for i in probed]
    fresh = mine.absent_first(probe)
    expected, seen = [], set()
    for i in probed:
        expected.append(int(hexes[i] not in reference and i not in seen))
        seen.add(i)
    assert list(fresh) == expected
    status = bytearray(len(probed))
    mine.mark(probe, status, 2)
    assert list(status) == [2 * x for x in present]
    assert hashes.select(probe, present, 1) == b"".join(
        digests[16 * i : 16 * i + 16] for i in probed if hexes[i] in reference
    )
    new = mine.add_new(probe)
    assert list(new) == expected
    assert all(hexes[i] in mine for i in probed)


def test_an_empty_digest_set_finds_nothing_and_then_what_is_added() -> None:
    """(An empty set answers without probing: a run's claims in a fresh store.)"""
    digests = hashes.text_digests([str(i) for i in range(6)])
    found = hashes.DigestSet()
    found.update(["odd", "not-a-digest"])
    assert found.present(digests) == bytearray(6)
    status = bytearray([0, 1, 0, 0, 0, 0])
    found.mark(digests, status, 2)
    assert status == bytearray([0, 1, 0, 0, 0, 0])
    assert hashes.select(digests, found.present(digests), 0) is digests
    found.add_later(digests[16:48])  # (settled by the read: the set is not empty then)
    assert found.present(digests) == bytearray([0, 1, 1, 0, 0, 0])
    found.mark(digests, status, 2)
    assert status == bytearray([0, 1, 2, 0, 0, 0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40)), st.lists(st.integers(0, 40)), st.integers(0, 5))
def test_digests_added_later_are_in_the_set_when_read(added, probed, read) -> None:
    digests = hashes.text_digests([str(i) for i in range(41)])
    blob = b"".join(digests[16 * i : 16 * i + 16] for i in added)
    probe = b"".join(digests[16 * i : 16 * i + 16] for i in probed)
    eager, later = hashes.DigestSet(), hashes.DigestSet()
    eager.add_digests(blob)
    later.add_later(blob[: len(blob) // 32 * 16])
    later.add_later(blob[len(blob) // 32 * 16 :])
    if read == 0:
        assert len(later) == len(eager)
    elif read == 1:
        assert later.present(probe) == eager.present(probe)
    elif read == 2:
        assert later.add_new(probe) == eager.add_new(probe)
    elif read == 3:
        status, expected = bytearray(len(probed)), bytearray(len(probed))
        later.mark(probe, status, 2)
        eager.mark(probe, expected, 2)
        assert status == expected
    elif read == 4:
        assert [hash_text(str(i)) in later for i in probed] == [i in added for i in probed]
    distinct = b"".join(digests[16 * i : 16 * i + 16] for i in dict.fromkeys(probed))
    assert later.absent_first(distinct, False) == eager.absent_first(distinct) == \
        eager.absent_first(distinct, False)  # fmt: skip
    assert len(later) == len(eager)


def test_digest_set_grows() -> None:
    texts = [f"t{i}" for i in range(50_000)]
    digests = hashes.text_digests(texts)
    found = hashes.DigestSet()
    found.add_digests(digests[: 16 * 25_000])
    assert list(found.present(digests)) == [1] * 25_000 + [0] * 25_000
    assert len(found) == 25_000


def test_a_reserved_digest_set_holds_what_a_growing_one_holds() -> None:
    digests = hashes.text_digests([f"t{i}" for i in range(30_000)])
    for reserved in (0, 100, 20_000, 10**12):
        found = hashes.DigestSet()
        found.reserve(reserved)
        assert found.add_new(digests[: 16 * 20_000] + digests[:1600]).count(1) == 20_000
        assert list(found.present(digests)) == [1] * 20_000 + [0] * 10_000
        assert len(found) == 20_000


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_JSON, max_size=8))
def test_canonical_items_are_each_items_canonical_text(values: list) -> None:
    texts = canonical_items(values)
    expected = [canonical(v, plain=True) for v in values]
    assert texts is None or texts == expected
    raw = [orjson.dumps(v, option=orjson.OPT_SORT_KEYS) for v in values]
    if all(t.isascii() and b"\x7f" not in t for t in raw):
        assert texts == expected


def test_split_array_refuses_what_is_not_one_flat_array() -> None:
    for bad in [b"", b"[", b"[1,", b"[,1]", b"[1,,2]", b"[1]]", b'["a]', b"{}", b"[1,]",
                "[\"\xe9\"]".encode()]:  # fmt: skip
        assert rows.split_array(bad) is None, bad
    assert rows.split_array(b"[]") == []
    assert rows.split_array(b'[{"a":"],\\""},[1,[2]],"x"]') == ['{"a":"],\\""}', "[1,[2]]", '"x"']


def _value_of(text: str) -> object:
    """The value of a result text that is a JSON array or object, else the text (``{``
    alone is a text: the writer keeps it as a string)."""
    if not text.startswith(("[", "{")):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(max_size=12), st.integers(0, 2**40),
                          st.text(max_size=30) | st.sampled_from(['{"a":[1,"}"]}', "[]", "{"]),
                          st.text(max_size=10), st.none() | st.text(max_size=10),
                          st.floats(0, 1e6, allow_nan=False)), max_size=6))  # fmt: skip
@example(cases=[("", 0, "", "{", None, 0.0)])  # (a result that only starts like JSON)
def test_block_json_decodes_to_the_rows(cases) -> None:
    columns = [list(c) for c in zip(*cases)] if cases else [[] for _ in range(6)]
    text = rows.block_json(*columns)
    if text is None:  # a text that is not ASCII: the caller's general encoder writes it
        assert any(not s.isascii() for row in cases for s in row if isinstance(s, str))
        return
    for decoded, (pid, line, data, result, error, seconds) in zip(json.loads(text), cases):
        assert decoded[:2] == [pid, line] and decoded[3] == seconds
        assert decoded[2] == data or decoded[2] == json.loads(data)  # the string, or its value
        if error is None:
            assert len(decoded) == 5 and decoded[4] in (result, _value_of(result))
        else:
            assert decoded[4:] == [None, error]
    assert orjson.loads(text) == json.loads(text)


def test_block_json_written_into_its_room_at_the_worst() -> None:
    """Rows written straight into a ``str`` as large as the writer can ask for: texts of
    control characters only (six characters each), the widest line numbers, shared result
    texts plain and not plain in turn (each kept from the row before only when it is the
    same object): the text decodes to the rows."""
    control = "".join(chr(c) for c in range(32)) * 3
    plain, odd = '{"legal":true}', "{" + control
    results = [plain, plain, odd, odd, plain, None, odd]
    errors = [None, None, None, None, None, control, None]
    n = len(results)
    ids = [control[: 7 * i] for i in range(n)]
    lines = [-(2**63), 2**63 - 1, 0, -1, 10**18, 7, -(10**18)]
    inputs = [control, "[]", "{", '{"a":1}', control[:1], "", "[" + control + "]"]
    seconds = [0.5, 1e-300, 1e300, 0.0, 2.5, 3.0, 1.0]
    text = rows.block_json(ids, lines, inputs, results, errors, seconds)
    assert text is not None
    for got, (pid, line, data, result, error) in zip(json.loads(text), zip(ids, lines, inputs,
                                                                           results, errors)):
        assert got[:2] == [pid, line] and (got[2] == data or got[2] == json.loads(data))
        assert got[4:] == ([None, error] if error is not None else [json.loads(result) if
                                                                     result == plain else result])
    assert rows.block_json_parts([(Strings.of(ids), b"".join(x.to_bytes(8, "little", signed=True)
                                                              for x in lines), Strings.of(inputs))],
                                 0, n, results, errors, seconds) == text  # fmt: skip


def test_block_json_refuses_mismatched_columns() -> None:
    with pytest.raises(ValueError):
        rows.block_json(["i"], [1], ["{}"], [None], [None], [])
