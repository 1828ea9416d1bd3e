"""The runner's rows as views of the blocks read (engines.batch.rows, solvers._batch_views):
cut, chosen and joined any way, their columns are those of the same operations on lists."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.batch.rows import LOOKUP_MAX, Rows, _next_lookup, chunks
from solvers._batch_columns import Strings
from solvers._batch_views import gather_fixed, gather_strings

_ITEMS = st.lists(st.text(max_size=5), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_ITEMS, st.integers(0, 12), st.integers(0, 12),
                          st.none() | st.lists(st.booleans(), min_size=12, max_size=12)),
                max_size=4))  # fmt: skip
def test_gathers_are_the_items_kept(pieces):
    want: list[str] = []
    strings, fixed = [], []
    for items, lo, hi, mask in pieces:
        lo, hi = sorted((min(lo, len(items)), min(hi, len(items))))
        keep = None if mask is None else bytearray(mask[: len(items)])
        want += [x for i, x in enumerate(items[lo:hi], lo) if keep is None or keep[i]]
        strings.append((Strings.of(items), lo, hi, keep))
        fixed.append((b"".join(x.encode().ljust(20, b".") for x in items), lo, hi, keep))
    got = gather_strings(strings)
    assert got.tolist() == want and len(got) == len(want)
    assert gather_fixed(fixed, 20) == b"".join(x.encode().ljust(20, b".") for x in want)


def test_gathers_refuse_pieces_outside_their_column():
    s = Strings.of(["a", "b"])
    with pytest.raises(IndexError):
        gather_strings([(s, 1, 3, None)])
    with pytest.raises(ValueError):
        gather_strings([(s, 0, 2, bytearray(3))])
    with pytest.raises(ValueError):
        gather_fixed([(b"abc", 0, 1, None)], 2)
    with pytest.raises(ValueError):
        gather_strings([(s, 0, 1, None), (Strings.of([b"x"], False), 0, 1, None)])


def _rows(n: int, tag: str) -> Rows:
    return Rows.of([f"{tag}.jsonl"] * n, [7 * i for i in range(n)],
                   [f"{tag}{i}" for i in range(n)], [bytes([1, i % 256]) for i in range(n)],
                   [f'{{"{tag}":{i}}}' for i in range(n)],
                   b"".join((31 * i + len(tag)).to_bytes(16, "little")
                            for i in range(n)))  # fmt: skip


def _columns(rows: Rows) -> tuple:
    return (rows.sources, rows.line_list(), rows.ids.tolist(), rows.payloads.tolist(),
            rows.texts.tolist(), rows.digests, len(rows))  # fmt: skip


def _listed(rows: Rows) -> list[tuple]:
    s, lines, ids, payloads, texts, digests, _n = _columns(rows)
    return list(zip(s, lines, ids, payloads, texts,
                    [digests[16 * i : 16 * i + 16] for i in range(len(s))]))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=3), st.data())
def test_views_cut_chosen_and_joined_are_the_lists_so_cut(sizes, data):
    """Blocks joined, positions chosen (twice), parts cut and split, chunks of them: every
    column of each view is that of the same positions as lists."""
    blocks = [_rows(n, "ab"[k % 2] + str(k)) for k, n in enumerate(sizes)]
    rows = Rows.join(blocks)
    want = [r for b in blocks for r in _listed(b)]
    assert _listed(rows) == want
    for _ in range(2):
        status = bytearray(data.draw(st.lists(st.integers(0, 2), min_size=len(want),
                                              max_size=len(want))))  # fmt: skip
        keep = data.draw(st.integers(0, 2))
        rows = rows.chosen(status, keep)
        want = [r for r, s in zip(want, status) if s == keep]
        assert _listed(rows) == want and len(rows) == len(want)
    lo = data.draw(st.integers(0, len(want)))
    hi = data.draw(st.integers(lo, len(want)))
    assert _listed(rows.part(lo, hi)) == want[lo:hi]
    k = data.draw(st.integers(0, len(want) + 1))
    head, rest = rows.split(k)
    assert (_listed(head), _listed(rest)) == (want[:k], want[k:])
    size = data.draw(st.integers(1, 5))
    got = [_listed(c) for c in chunks([rows.part(0, lo), rows.part(lo, len(want))], lambda: size)]
    assert got == [want[i : i + size] for i in range(0, len(want), size)]
    parts = [rows.part(a, b) for a, b in itertools.pairwise([0, lo, hi, len(want)])]
    assert _listed(Rows.join(parts)) == want
    columns = Rows.join(parts).column_parts()  # (a piece of a block each)
    assert [x for ids, _lines, _texts in columns for x in ids.tolist()] == [r[2] for r in want]
    assert b"".join(lines for _ids, lines, _texts in columns) == Rows.join(parts).lines


def test_claims_grow_faster_the_faster_they_come():
    assert _next_lookup(2048, 0.0) == LOOKUP_MAX
    assert _next_lookup(2048, 0.2) == 4096  # (doubling, as before)
    assert _next_lookup(2048, 0.25) == 2048
    assert _next_lookup(65536, 0.0) == 65536  # (never shrinks)


def test_a_view_that_keeps_few_of_a_block_holds_its_own_copy():
    """Positions chosen from a block (a resume that finds most of it stored) keep the block
    alive only when they are a quarter of it or more: else they are copied out of it."""
    block = _rows(1000, "a")
    most = block.chosen(bytearray(1 if i in (3, 500) else 0 for i in range(1000)), 0)
    assert most.pieces[0][0] is block and len(most) == 998
    sparse = block.chosen(bytearray(0 if i % 7 else 1 for i in range(1000)), 1)
    assert sparse.pieces[0][0] is not block and sparse.pieces[0][0].count == len(sparse) == 143
    assert _listed(sparse) == [r for i, r in enumerate(_listed(block)) if i % 7 == 0]
    dense = block.chosen(bytearray(1 if i % 2 else 0 for i in range(1000)), 1)
    assert dense.pieces[0][0] is block and dense.pieces[0][3] is not None
