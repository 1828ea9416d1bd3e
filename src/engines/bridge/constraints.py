"""The dealer's constraint language: predicates over hands and partnerships, on whole batches.

A constraint is a small expression such as ::

    hcp(N) >= 15 and hcp(N) <= 17 and balanced(N)
    15 <= hcp(N) <= 17 and hearts(S) >= 5 and hcp(NS) >= 25
    opens_1nt(N) and not shape(W, "any 4333 + any 4432") || spades(E) == 0

It is parsed once into a function of a :class:`DealView` (a batch of deals as
``uint16[n, 4, 4]`` suit masks) that returns one boolean per deal; every
evaluation is a table lookup over the whole batch, so no Python runs per deal.
A Python callable with the same signature (``view -> bool array``) works
wherever an expression does.

**Grammar.** Numbers, comparisons (``< <= == != >= >``, chained as in
Python), ``+ - *``, ``and or not`` (also ``&& || !``), parentheses, and calls
of the functions below.  ``who`` is a seat ``N E S W`` or a partnership
``NS EW`` (whose value is the sum of its two hands); ``seat`` is one seat;
``suit`` is ``S H D C`` or ``spades hearts diamonds clubs``.

======================  ========================================================
``hcp(who)``            high-card points (A 4, K 3, Q 2, J 1)
``controls(who)``       A 2, K 1
``losers(who)``         losing-trick count; ``nltc(who)`` the New LTC
``quick_tricks(who)``   AK 2, AQ 1½, A 1, KQ 1, Kx ½
``cccc(who)``           Kaplan–Rubens evaluation
``length(who, suit)``   cards in a suit; also ``spades(who)`` … ``clubs(who)``
``balanced(seat)``      4333, 4432, 5332; ``semi_balanced(seat)``: 5422, 6322, 7222
``shape(seat, "P")``    pattern ``P``: four lengths ``S H D C`` (``x`` = any), ``any``
                        before a pattern for any suit order, ``+`` between
                        alternatives, e.g. ``"5xxx + any 4441"``
``has(seat, "SA")``     the seat holds the card
``opens_1nt(seat)``     15–17 HCP, balanced
``opens_2nt(seat)``     20–21 HCP, balanced
``opens_1major(seat)``  12–21 HCP and a five-card or longer major
``weak_two(seat)``      6–10 HCP and exactly six cards in spades, hearts or diamonds
======================  ========================================================

Evaluations are defined in :mod:`engines.bridge.evaluation`.

>>> import numpy as np
>>> from engines.bridge.cards import Deal
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.432.J65 65432.J76.AKQ.T9 .5432.JT98.AKQ87")
>>> view = DealView(np.array([deal.masks()], dtype=np.uint16))
>>> compile_constraints("hcp(N) == 10 and spades(S) >= 5 and hcp(NS) == 20")(view)
array([ True])
>>> compile_constraints("shape(W, 'any 5440') && !balanced(W)")(view)
array([ True])
>>> compile_constraints("hcp(X) > 3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engines.bridge.constraints.ConstraintError: constraint 'hcp(X) > 3', column 5: unknown seat 'X'; ...
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from engines.bridge.cards import Card
from engines.bridge.errors import BridgeInputError, ConstraintError
from engines.bridge.evaluation import ShapeClass, _shape_classes, _suit_tables

__all__ = ["ConstraintError", "DealView", "compile_constraints"]

Predicate = Callable[["DealView"], np.ndarray]

_SEATS = {"N": (0,), "E": (1,), "S": (2,), "W": (3,), "NS": (0, 2), "EW": (1, 3)}
_SUITS = {"S": 0, "H": 1, "D": 2, "C": 3, "SPADES": 0, "HEARTS": 1, "DIAMONDS": 2, "CLUBS": 3}


def _describe(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and type {value.dtype}"
    return repr(value)[:100]


class DealView:
    """A batch of deals (``uint16[n, 4, 4]``) with cached per-seat evaluations.

    Every method takes seat names as strings (``"N"``, ``"NS"``…) and returns
    an array over the ``n`` deals; a Python constraint callable receives one.

    >>> view = DealView(np.zeros((2, 4, 4), dtype=np.uint16))
    >>> view.hcp("NS").tolist(), view.n
    ([0, 0], 2)
    """

    def __init__(self, masks: np.ndarray) -> None:
        if not (
            isinstance(masks, np.ndarray)
            and masks.ndim == 3
            and masks.shape[1:] == (4, 4)
            and masks.dtype.kind in "iu"
            and (masks.size == 0 or (masks.min() >= 0 and masks.max() <= 8191))
        ):
            raise BridgeInputError(
                "DealView needs an integer array [n, 4 seats, 4 suits] of 13-bit suit masks, got "
                f"{_describe(masks)}"
            )
        self.masks = masks
        self.n = int(masks.shape[0])
        self._cache: dict[tuple[str, int], np.ndarray] = {}

    def _suit_values(self, table: str, seat: int) -> np.ndarray:
        key = (table, seat)
        if key not in self._cache:
            self._cache[key] = _suit_tables()[table][self.masks[:, seat, :]]
        return self._cache[key]

    def _sum(self, table: str, who: str, scale: int = 1) -> np.ndarray:
        total = sum(self._suit_values(table, s).sum(axis=1) for s in _seats(who))
        return total if scale == 1 else total / scale

    def hcp(self, who: str) -> np.ndarray:
        return self._sum("hcp", who)

    def controls(self, who: str) -> np.ndarray:
        return self._sum("controls", who)

    def losers(self, who: str) -> np.ndarray:
        return self._sum("ltc", who)

    def nltc(self, who: str) -> np.ndarray:
        return self._sum("nltc2", who, 2)

    def quick_tricks(self, who: str) -> np.ndarray:
        return self._sum("qt2", who, 2)

    def cccc(self, who: str) -> np.ndarray:
        out = 0
        for seat in _seats(who):
            lengths = self._suit_values("length", seat)
            square = (-np.sort(-lengths, axis=1) == np.array([4, 3, 3, 3])).all(axis=1)
            suits = self._suit_values("cccc100", seat).sum(axis=1)
            out = out + (suits - np.where(square, 50, 100)) / 100.0
        return out  # type: ignore[return-value]

    def length(self, who: str, suit: str | int) -> np.ndarray:
        index = suit if isinstance(suit, int) else _suit(suit)
        return sum(self._suit_values("length", s)[:, index] for s in _seats(who))  # type: ignore[return-value]

    def shape_class(self, seat: str) -> np.ndarray:
        (index,) = _seats(seat, single=True)
        key = ("class", index)
        if key not in self._cache:
            self._cache[key] = _shape_classes(self._suit_values("length", index))
        return self._cache[key]

    def balanced(self, seat: str) -> np.ndarray:
        return self.shape_class(seat) == ShapeClass.BALANCED

    def semi_balanced(self, seat: str) -> np.ndarray:
        return self.shape_class(seat) == ShapeClass.SEMI_BALANCED

    def shape(self, seat: str, pattern: str) -> np.ndarray:
        (index,) = _seats(seat, single=True)
        lengths = self._suit_values("length", index)
        code = ((lengths[:, 0] * 14 + lengths[:, 1]) * 14 + lengths[:, 2]) * 14 + lengths[:, 3]
        return _shape_table(pattern)[code]

    def has(self, seat: str, card: str) -> np.ndarray:
        (index,) = _seats(seat, single=True)
        parsed = Card.from_str(card)
        return (self.masks[:, index, parsed.suit] & parsed.bit) != 0

    # -- presets ----------------------------------------------------------------------------

    def opens_1nt(self, seat: str) -> np.ndarray:
        points = self.hcp(seat)
        return (points >= 15) & (points <= 17) & self.balanced(seat)

    def opens_2nt(self, seat: str) -> np.ndarray:
        points = self.hcp(seat)
        return (points >= 20) & (points <= 21) & self.balanced(seat)

    def opens_1major(self, seat: str) -> np.ndarray:
        points = self.hcp(seat)
        major = (self.length(seat, 0) >= 5) | (self.length(seat, 1) >= 5)
        return (points >= 12) & (points <= 21) & major

    def weak_two(self, seat: str) -> np.ndarray:
        points = self.hcp(seat)
        six = (
            (self.length(seat, 0) == 6) | (self.length(seat, 1) == 6) | (self.length(seat, 2) == 6)
        )
        return (points >= 6) & (points <= 10) & six


def _seats(who: str, single: bool = False) -> tuple[int, ...]:
    key = str(who).strip().upper()
    seats = _SEATS.get(key)
    if seats is None or (single and len(seats) != 1):
        expected = "N, E, S or W" if single else "N, E, S, W, NS or EW"
        raise ConstraintError(f"unknown seat {who!r}; expected {expected}")
    return seats


def _suit(name: str) -> int:
    index = _SUITS.get(str(name).strip().upper())
    if index is None:
        raise ConstraintError(f"unknown suit {name!r}; expected S, H, D, C or spades … clubs")
    return index


_PATTERN = re.compile(r"\s*(any\s+)?([0-9x]{4}|[0-9x](?:-[0-9x]){3})\s*", re.I)


def _shape_table(pattern: str) -> np.ndarray:
    """Boolean table over shape codes ``((s*14 + h)*14 + d)*14 + c`` matching ``pattern``."""
    table = np.zeros(14**4, dtype=bool)
    for part in pattern.split("+"):
        match = _PATTERN.fullmatch(part)
        if match is None:
            raise ConstraintError(
                f"bad shape pattern {part.strip()!r}; expected four lengths S H D C such as "
                "'5xxx', '4-3-3-3' or 'any 4432'"
            )
        digits = match.group(2).replace("-", "").lower()
        orders = set(itertools.permutations(digits)) if match.group(1) else {tuple(digits)}
        for order in orders:
            choices = [range(14) if c == "x" else [int(c)] for c in order]
            for lengths in itertools.product(*choices):
                if sum(lengths) == 13:
                    s, h, d, c = lengths
                    table[((s * 14 + h) * 14 + d) * 14 + c] = True
    if not table.any():
        raise ConstraintError(f"shape pattern {pattern!r} matches no 13-card hand")
    return table


# -- compiling expressions ------------------------------------------------------------------

# function name -> argument kinds ("who", "seat", "suit", "text") and result kind
_FUNCTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "hcp": (("who",), "number"),
    "controls": (("who",), "number"),
    "losers": (("who",), "number"),
    "nltc": (("who",), "number"),
    "quick_tricks": (("who",), "number"),
    "cccc": (("who",), "number"),
    "length": (("who", "suit"), "number"),
    "balanced": (("seat",), "bool"),
    "semi_balanced": (("seat",), "bool"),
    "shape": (("seat", "text"), "bool"),
    "has": (("seat", "text"), "bool"),
    "opens_1nt": (("seat",), "bool"),
    "opens_2nt": (("seat",), "bool"),
    "opens_1major": (("seat",), "bool"),
    "weak_two": (("seat",), "bool"),
}
for _suit_name in ("spades", "hearts", "diamonds", "clubs"):
    _FUNCTIONS[_suit_name] = (("who",), "number")

_COMPARE = {
    ast.Lt: np.less,
    ast.LtE: np.less_equal,
    ast.Eq: np.equal,
    ast.NotEq: np.not_equal,
    ast.Gt: np.greater,
    ast.GtE: np.greater_equal,
}
_ARITH = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply}


def _translate(text: str) -> str:
    """Dealer-style ``&& || !`` to Python's ``and or not`` (``!=`` kept)."""
    return re.sub(r"!(?!=)", " not ", text.replace("&&", " and ").replace("||", " or "))


class _Compiler:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, node: ast.AST | None, message: str) -> ConstraintError:
        where = (
            f", column {node.col_offset + 1}"
            if node is not None and hasattr(node, "col_offset")
            else ""
        )
        return ConstraintError(f"constraint {self.source!r}{where}: {message}")

    def compile(self, node: ast.AST) -> tuple[str, Callable[[DealView], Any]]:
        """``(kind, function)`` with kind ``"bool"`` or ``"number"``."""
        if isinstance(node, ast.BoolOp):
            parts = [self.expect(v, "bool") for v in node.values]
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            return "bool", lambda v: _reduce_all(combine, [p(v) for p in parts])
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.expect(node.operand, "bool")
            return "bool", lambda v: np.logical_not(inner(v))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.expect(node.operand, "number")
            return "number", lambda v: -inner(v)
        if isinstance(node, ast.Compare):
            terms = [self.expect(node.left, "number")]
            terms += [self.expect(c, "number") for c in node.comparators]
            ops = [_COMPARE[type(op)] for op in node.ops if type(op) in _COMPARE]
            if len(ops) != len(node.ops):
                raise self.fail(node, "only < <= == != >= > compare numbers")
            return "bool", lambda v: _chain(v, terms, ops)
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            left, right = self.expect(node.left, "number"), self.expect(node.right, "number")
            op = _ARITH[type(node.op)]
            return "number", lambda v: op(left(v), right(v))
        if isinstance(node, ast.Constant) and isinstance(node.value, bool):
            flag = node.value
            return "bool", lambda v: np.full(v.n, flag)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            value = node.value
            return "number", lambda v: value
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Name):
            raise self.fail(node, f"unknown name {node.id!r} (seats and suits go inside a call)")
        raise self.fail(node, f"unsupported syntax {ast.unparse(node)!r}")

    def expect(self, node: ast.AST, kind: str) -> Callable[[DealView], Any]:
        got, function = self.compile(node)
        if got != kind:
            what = "a condition (true/false)" if kind == "bool" else "a number"
            raise self.fail(node, f"{ast.unparse(node)!r} is not {what}")
        return function

    def call(self, node: ast.Call) -> tuple[str, Callable[[DealView], Any]]:
        if not isinstance(node.func, ast.Name) or node.func.id not in _FUNCTIONS:
            name = ast.unparse(node.func)
            known = ", ".join(sorted(_FUNCTIONS))
            raise self.fail(node, f"unknown function {name!r}; known: {known}")
        name = node.func.id
        kinds, result = _FUNCTIONS[name]
        if len(node.args) != len(kinds) or node.keywords:
            raise self.fail(node, f"{name}() takes {len(kinds)} argument(s): {', '.join(kinds)}")
        args: list[Any] = []
        for arg, kind in zip(node.args, kinds):
            if kind == "text":
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise self.fail(arg, f"{name}() wants a quoted string here")
                args.append(arg.value)
                continue
            text = arg.id if isinstance(arg, ast.Name) else getattr(arg, "value", None)
            try:
                if not isinstance(text, str):
                    raise ConstraintError(f"expected a {kind} name")
                args.append(_suit(text) if kind == "suit" else text.upper())
                if kind != "suit":
                    _seats(text, single=kind == "seat")
            except ConstraintError as exc:
                raise self.fail(arg, str(exc)) from None
        try:  # check pattern and card arguments now, not on the first batch
            if name == "shape":
                _shape_table(args[1])
            if name == "has":
                Card.from_str(args[1])
        except BridgeInputError as exc:
            raise self.fail(node.args[1], str(exc)) from None
        if name in ("spades", "hearts", "diamonds", "clubs"):
            suit = _SUITS[name.upper()]
            return result, lambda v: v.length(args[0], suit)
        method = name
        return result, lambda v: getattr(v, method)(*args)


def _reduce_all(combine: Any, arrays: list[np.ndarray]) -> np.ndarray:
    out = arrays[0]
    for array in arrays[1:]:
        out = combine(out, array)
    return out


def _chain(view: DealView, terms: list[Callable], ops: list[Callable]) -> np.ndarray:
    values = [t(view) for t in terms]
    out = np.ones(view.n, dtype=bool)
    for op, left, right in zip(ops, values, values[1:]):
        out &= op(left, right)
    return out


def compile_constraints(expression: str | Predicate | None) -> Predicate | None:
    """A predicate ``DealView -> bool[n]`` for an expression (or a callable, passed through).

    Raises :class:`ConstraintError` pointing at the offending part.

    >>> compile_constraints("hcp(N) >= 12 and")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engines.bridge.constraints.ConstraintError: constraint 'hcp(N) >= 12 and': invalid syntax...
    >>> compile_constraints("hcp(N) + 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engines.bridge.constraints.ConstraintError: ...: the whole constraint must be a condition ...
    """
    if expression is None or callable(expression):
        return expression
    if not isinstance(expression, str):
        raise ConstraintError(
            f"constraints must be an expression string or a callable, got "
            f"{type(expression).__name__}"
        )
    if not expression.strip():
        return None
    compiler = _Compiler(expression)
    try:
        tree = ast.parse(_translate(expression).strip(), mode="eval")
    except SyntaxError as exc:
        raise ConstraintError(f"constraint {expression!r}: invalid syntax ({exc.msg})") from None
    kind, function = compiler.compile(tree.body)
    if kind != "bool":
        raise compiler.fail(
            None, "the whole constraint must be a condition (a comparison, and/or/not)"
        )
    return function
