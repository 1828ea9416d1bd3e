"""Card records read natively: a game's record layout for the runner's fast path.

A task whose records are a ``kind``, a few names and card lists (升级 and 双扣
conformance records) describes them with a :class:`RecordLayout`.  The runner
then reads its JSON Lines in blocks with :func:`solvers._records.scan`, which
gives, for each line it fully understands, the canonical payload text (the text
of the task's ``prepare`` result, so input hashes are the same) and a *packed*
payload: bytes holding the codes of the names and one count row per card list.
Every other line (another spelling, a fault, an unusual field) goes through
the task's ``prepare`` as before, which names what is wrong.  The task's solve
reads packed payloads with :func:`unpack`, many rows at once.

>>> layout = RecordLayout(kinds={"pair": {"cards": CARDS, "level": NAME}},
...                       names={"level": ("2", "3")}, cards=("a", "b"))
>>> status, texts, ids, packs = layout.scan(['{"id": "x", "kind": "pair", "level": "3", '
...                                           '"cards": ["b", "a", "b"]}', '  ', '{"kind": 1}'])
>>> list(status), texts[0], ids[0]
([0, 2, 1], '{"cards":["a","b","b"],"kind":"pair","level":"3"}', 'x')
>>> fields = unpack(layout, [packs[0]])
>>> fields["cards"].tolist(), fields["level"].tolist()
([[1, 2]], [1])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from solvers import _records
from solvers._batch_columns import Strings, expanded_payloads, pack_groups

__all__ = [
    "CARDS",
    "CARD_LISTS",
    "NAME",
    "NULLABLE_CARDS",
    "SCAN_OK",
    "SCAN_REFER",
    "Payloads",
    "RecordLayout",
    "RecordReader",
    "grouped",
    "unpack",
    "unpack_rows",
]

#: Line states of :meth:`RecordLayout.scan`: read, to be read by ``prepare``, blank.
SCAN_OK, SCAN_REFER, SCAN_BLANK = _records.OK, _records.REFER, _records.BLANK

#: Field kinds of a payload: a name from a fixed list, a card list, a card list or
#: ``null`` (absent counts as ``null``), a list of card lists.
NAME, CARDS, NULLABLE_CARDS, CARD_LISTS = "name", "cards", "nullable cards", "card lists"

_ITEM = {
    NAME: _records.ITEM_NAME,
    CARDS: _records.ITEM_CARDS,
    NULLABLE_CARDS: _records.ITEM_NULLABLE_CARDS,
    CARD_LISTS: _records.ITEM_CARD_LISTS,
}


class RecordReader(Protocol):
    """What the runner's fast path needs of a task's native reader (``Task.records``): a
    :class:`RecordLayout`, or a game's own reader such as Rummikub's.  ``scan`` gives, for
    a list of lines, one status byte a line (:data:`SCAN_OK`, :data:`SCAN_REFER`, blank) and
    the canonical texts, ids and packed payloads of the lines read.  A reader may also have
    ``scan_text`` (a whole ASCII block, split natively), and ``scan_hashed`` (the same and
    the input hashes, without the GIL: the runner then reads blocks on worker threads); the
    runner looks for them."""

    def scan(self, lines: list[str]) -> tuple[bytearray, list[Any], list[Any], list[Any]]: ...


@dataclass(frozen=True)
class RecordLayout:
    """The records a task's fast path reads, and the payloads it makes of them.

    ``kinds``: for each value of the ``kind`` field that the fast path reads,
    the payload's other fields and their kinds (a kind not listed is always
    read by ``prepare``).  ``names``: the values each name field may take, in
    code order (exactly as the canonical payload spells them).  ``cards``: the
    canonical token of each count-row cell (``""`` for an unused cell).
    ``constants``: payload fields with the same string value in every fast-path
    payload.  ``null_only``: fields that send a record to ``prepare`` unless
    absent or ``null``.  Keys are ASCII; the payload holds ``kind`` too.
    """

    kinds: Mapping[str, Mapping[str, str]]
    names: Mapping[str, Sequence[str]]
    cards: Sequence[str]
    constants: Mapping[str, str] = field(default_factory=dict)
    null_only: Sequence[str] = ()

    @functools.cached_property
    def keys(self) -> list[str]:
        """Every key the scanner looks at: ``kind`` first, then ``id`` and the fields."""
        fields = sorted({name for fields in self.kinds.values() for name in fields})
        return ["kind", "id", *fields, *self.null_only]

    @functools.cached_property
    def spec(self) -> Any:
        kinds = list(self.kinds)
        keys = []
        for key in self.keys:
            if key == "kind":
                keys.append((key, _records.KEY_NAME, tuple(kinds)))
            elif key == "id":
                keys.append((key, _records.KEY_ID, ()))
            elif key in self.null_only:
                keys.append((key, _records.KEY_NULL_ONLY, ()))
            elif key in self.names:
                keys.append((key, _records.KEY_NAME, tuple(self.names[key])))
            else:
                keys.append((key, _records.KEY_CARDS, ()))
        plans = [self._plan(kind) for kind in kinds]
        return _records.RecordSpec(keys, list(self.cards), plans)

    def _plan(self, kind: str) -> list[tuple[int, str, int]]:
        fields = {"kind": NAME, **self.kinds[kind]}
        out: list[tuple[int, str, int]] = []
        for name in sorted([*fields, *self.constants]):
            comma = "," if out else ""
            if name in self.constants:
                value = _json_string(self.constants[name])
                out.append((_records.ITEM_CONST, f'{comma}"{name}":{value}', 0))
            else:
                out.append((_ITEM[fields[name]], f'{comma}"{name}":', self.keys.index(name)))
        return out

    def scan(self, lines: list[str]) -> tuple[bytearray, list, list, list]:
        """:func:`solvers._records.scan` of ``lines`` with this layout."""
        return _records.scan(self.spec, lines)

    def scan_text(self, text: str) -> tuple[bytearray, list, list, list, list]:
        """:func:`solvers._records.scan_text` of ``text`` (ASCII) with this layout."""
        return _records.scan_text(self.spec, text)

    def scan_hashed(self, text: str) -> tuple[bytearray, list, list, list, list, bytes]:
        """:meth:`scan_text` and the input hash of each text read (16-byte digests, as
        :func:`solvers._batch_hashes.text_digests`), read and hashed without the GIL."""
        return _records.scan_text(self.spec, text, True)  # type: ignore[no-any-return]

    def scan_columns(self, text: str | bytes | bytearray) -> tuple[Any, ...]:
        """:meth:`scan_hashed` with the columns as buffers
        (:func:`solvers._records.scan_columns`): no Python object a line read."""
        return _records.scan_columns(self.spec, text)  # type: ignore[no-any-return]

    def offsets(self, kind: str, lists: int) -> dict[str, tuple[str, int]]:
        """Where each field of a packed ``kind`` payload starts (``lists``: card lists in
        its list-of-lists field)."""
        fields = {"kind": NAME, **self.kinds[kind]}
        width = len(self.cards)
        at, out = 1, {}
        for name in sorted(fields):
            out[name] = (fields[name], at)
            at += {NAME: 1, CARDS: width, NULLABLE_CARDS: 1 + width,
                   CARD_LISTS: 1 + lists * width}[fields[name]]  # fmt: skip
        return out


def _json_string(value: str) -> str:
    if not value.isascii() or any(c in value for c in '"\\') or not value.isprintable():
        raise ValueError(f"constant {value!r} needs escapes")
    return f'"{value}"'


def unpack(layout: RecordLayout, packs: Sequence[bytes]) -> dict[str, Any]:
    """The fields of packed payloads of one kind and one length, as arrays.

    Names become code arrays (N,), card lists int8 count rows (N, W), nullable
    card lists the same plus ``"<name> present"`` booleans, lists of card lists
    (N, K, W) arrays.  ``"kind"`` is the kind's name.
    """
    data = np.frombuffer(b"".join(packs), dtype=np.uint8)
    return unpack_rows(layout, data.reshape(len(packs), -1))


def unpack_rows(layout: RecordLayout, data: Any) -> dict[str, Any]:
    """:func:`unpack` of packed payloads given as one (N, length) uint8 array."""
    width = len(layout.cards)
    kind = list(layout.kinds)[data[0, 0]]
    fields = layout.kinds[kind]
    lists = 0
    if CARD_LISTS in fields.values():
        fixed = 1 + sum({NAME: 1, CARDS: width, NULLABLE_CARDS: 1 + width, CARD_LISTS: 1}[k]
                        for k in fields.values())  # fmt: skip
        lists = (data.shape[1] - fixed - 1) // width
    counts = data.view(np.int8)
    out: dict[str, Any] = {"kind": kind}
    for name, (what, at) in layout.offsets(kind, lists).items():
        if name == "kind":
            continue
        if what == NAME:
            out[name] = data[:, at]
        elif what == CARDS:
            out[name] = counts[:, at : at + width]
        elif what == NULLABLE_CARDS:
            out[f"{name} present"] = data[:, at].astype(bool)
            out[name] = counts[:, at + 1 : at + 1 + width]
        else:
            out[name] = counts[:, at + 1 : at + 1 + lists * width].reshape(-1, lists, width)
    return out


def payload_groups(payloads: Sequence[Any], dict_key: Callable[[Any], Any]) -> dict[Any, list[int]]:
    """The rows of a chunk by what one batch call can take together: packed payloads by
    ``(kind code, length)``, ``prepare``'s dicts by ``dict_key(payload)``.

    >>> payload_groups([b"\\x01ab", {"kind": "x"}, b"\\x01cd", b"\\x00a"], lambda p: p["kind"])
    {(1, 3): [0, 2], 'x': [1], (0, 2): [3]}
    """
    groups: dict[Any, list[int]] = {}
    for i, p in enumerate(payloads):
        key = (p[0], len(p)) if type(p) is bytes else dict_key(p)
        groups.setdefault(key, []).append(i)
    return groups



class Payloads(Sequence[Any]):
    """A chunk's payloads in one buffer: the packed ones as a :class:`Strings` of bytes
    (``packs``), the others (``prepare``'s dicts) in ``objects`` by row (their ``packs``
    item is empty).  What the runner hands a task's solve for a task that reads records
    natively (:func:`grouped` groups it for the engine calls without a Python object a
    row); :meth:`tolist` gives the payloads one by one.  ``packs`` may hold the payloads'
    compact forms (``packs.compact``: a block read for a store of packed blocks keeps only
    those), given back expanded.

    >>> p = Payloads.of([b"\\x01a", {"kind": "x"}, b"\\x01b"])
    >>> p.tolist(), p.chosen(bytearray([1, 0, 0]), 0).tolist(), len(p.part(1, 3))
    ([b'\\x01a', {'kind': 'x'}, b'\\x01b'], [{'kind': 'x'}, b'\\x01b'], 2)
    """

    __slots__ = ("objects", "packs")

    def __init__(self, packs: Strings, objects: dict[int, Any] | None = None) -> None:
        self.packs, self.objects = packs, objects or None

    @classmethod
    def of(cls, payloads: list[Any]) -> Payloads:
        packs = [p if type(p) is bytes else b"" for p in payloads]
        objects = {i: p for i, p in enumerate(payloads) if type(p) is not bytes}
        return cls(Strings.of(packs, False), objects)

    def __len__(self) -> int:
        return len(self.packs)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return self.tolist()[i]
        if self.objects is not None and i in self.objects:
            return self.objects[i]
        if self.packs.compact:
            at = i + len(self) if i < 0 else i
            if not 0 <= at < len(self):
                raise IndexError("Payloads index out of range")
            return self.part(at, at + 1).tolist()[0]
        return self.packs[i]

    def tolist(self) -> list[Any]:
        packs = self.packs
        if packs.compact:
            packs = Strings(*expanded_payloads(packs.data, packs.ends), False)
        out = packs.tolist()
        for i, payload in (self.objects or {}).items():
            out[i] = payload
        return out

    def part(self, lo: int, hi: int) -> Payloads:
        objects = self.objects and {i - lo: p for i, p in self.objects.items() if lo <= i < hi}
        return Payloads(self.packs.part(lo, hi), objects)

    def chosen(self, status: bytearray, want: int) -> Payloads:
        """The payloads whose ``status`` is ``want``."""
        objects = None
        if self.objects:
            objects = {}
            for i, payload in self.objects.items():
                if status[i] == want:
                    objects[status.count(want, 0, i)] = payload
        return Payloads(self.packs.chosen(status, want), objects)

    @staticmethod
    def join(parts: Sequence[Payloads]) -> Payloads:
        if len(parts) == 1:
            return parts[0]
        objects: dict[int, Any] = {}
        at = 0
        for p in parts:
            for i, payload in (p.objects or {}).items():
                objects[at + i] = payload
            at += len(p)
        return Payloads(Strings.join([p.packs for p in parts]), objects)


def grouped(
    payloads: Sequence[Any], dict_key: Callable[[Any], Any]
) -> list[tuple[bool, Any, Any, Any]]:
    """The rows of a chunk by what one batch call can take together, as ``(packed, key,
    rows, what)``: packed payloads by ``(kind code, length)`` with ``what`` their (N,
    length) uint8 array, ``prepare``'s dicts by ``dict_key(payload)`` with ``what`` the
    list of them; ``rows`` the group's indexes in the chunk, increasing.  A
    :class:`Payloads` chunk is grouped natively (no Python object a row).

    >>> [(packed, key, [int(r) for r in rows]) for packed, key, rows, _ in grouped(
    ...     Payloads.of([b"\\x01ab", {"kind": "x"}, b"\\x01cd"]), lambda p: p["kind"])]
    [(True, (1, 3), [0, 2]), (False, 'x', [1])]
    """
    groups = pack_groups(payloads.packs) if isinstance(payloads, Payloads) else None
    if groups is None:
        listed = payloads.tolist() if isinstance(payloads, Payloads) else payloads
        out: list[tuple[bool, Any, Any, Any]] = []
        for key, rows in payload_groups(listed, dict_key).items():
            ps = [listed[i] for i in rows]
            if type(ps[0]) is bytes:
                data = np.frombuffer(b"".join(ps), dtype=np.uint8).reshape(len(ps), -1)
                out.append((True, key, rows, data))
            else:
                out.append((False, key, rows, ps))
        return out
    out = []
    for kind, length, rows, data in groups:
        index = np.frombuffer(rows, dtype=np.intp)
        if kind >= 0:
            out.append((True, (kind, length), index, np.frombuffer(data, dtype=np.uint8)
                        .reshape(len(index), length)))  # fmt: skip
            continue
        objects = payloads.objects  # type: ignore[union-attr]
        listed = [objects[i] for i in index.tolist()]
        for key, sub in payload_groups(listed, dict_key).items():
            out.append((False, key, index[sub], [listed[i] for i in sub]))
    return out
