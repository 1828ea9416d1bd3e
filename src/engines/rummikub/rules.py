"""Rule variants: the house rules a Rummikub position is solved under.

The defaults are those of ``docs/rules/rummikub.md``.  The exact search (the dynamic
programme of :mod:`solvers.rummikub`) solves the initial-meld options, ``meld_threshold``
and ``meld_joker``, never by filtering the default's answer, and ``least_disturbance`` by
calling it on the table less the sets held out (:mod:`engines.rummikub.least`).  The other
options (joker retrieval, real tiles per set, meld then continue, fewest tiles moved, the
tile set) are named and checked here, but the search refuses them
(:meth:`Rules.check_supported`) until the DP carries them; what each would cost the DP is
in ``docs/rummikub-house-rules.md``.  The tests solve them with a reference integer
programme (``tests/rummikub/ip_model.py``).

>>> Rules().to_json()
{}
>>> Rules.parse(["meld_threshold=0", "meld_joker=zero", "joker_retrieval=official"]).to_json()
{'meld_threshold': 0, 'meld_joker': 'zero', 'joker_retrieval': 'official'}
>>> Rules.parse(["meld_threshold=200"])
Traceback (most recent call last):
...
engines.rummikub.errors.RuleError: rule meld_threshold=200: must be an integer 0..127
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from engines.rummikub.errors import RuleError

MAX_MELD_THRESHOLD = 127  # the DP keeps the meld value so far in 7 bits
MELD_JOKER_VALUES = ("stands-for", "zero")
JOKER_RETRIEVAL_VALUES = ("free", "official")
# name: (lowest, highest) of the integer options
_RANGES = {"meld_threshold": (0, MAX_MELD_THRESHOLD), "min_real_tiles": (1, 2),
           "colours": (1, 8), "numbers": (1, 26), "copies": (1, 4), "jokers": (0, 4),
           "min_set_length": (2, 26)}
# The options the DP of solvers.rummikub solves; every other option must keep its default.
# (least_disturbance: a search over which table sets to hold out, each step one DP call)
SEARCH_OPTIONS = ("meld_threshold", "meld_joker", "least_disturbance")
_BOOLS = {"true": True, "on": True, "yes": True, "1": True,
          "false": False, "off": False, "no": False, "0": False}


@dataclass(frozen=True)
class Rules:
    """House rules.

    ``meld_threshold``: the value a player's first play (the initial meld, new sets from the
    rack only) must reach; 0 lets any first play count.  ``meld_joker``: what a joker is
    worth towards it, ``"stands-for"`` (the tile it stands for, the default) or ``"zero"``.

    ``joker_retrieval``: ``"free"`` (the rules document: a table joker may end the turn in
    any set) or ``"official"`` (a table joker may leave its place, the tile it stands for in
    a run or its group's number in a group, only when a tile it stands for is played from
    the rack in the same turn, one tile per joker taken; the freed joker stays on the table,
    so it is played in that turn).  ``min_real_tiles``: non-joker tiles every set needs (1,
    or 2 for "at least two real tiles per set").  ``meld_continue``: a player who melds may
    go on, in the same turn, to play onto and rearrange the table (the meld's own sets, from
    the rack alone, must reach the threshold).  ``least_disturbance``: among optimal moves,
    return one that keeps the most table sets exactly as they were (a tie-break after the
    objective's own).  ``fewest_tiles_moved`` (with
    ``least_disturbance``): then the fewest table tiles moved, a tile counting as not moved
    when it stays in its set's continuation (one set per table set: a run of the same
    colour or a group of the same number).

    The tile set: ``colours`` (1..8, letters ``KROBGYPW``), ``numbers`` (1..26), ``copies``
    of each tile (1..4), ``jokers`` (0..4), and ``min_set_length`` (2..26; runs and groups
    alike, a group holding at most one tile per colour).

    Only ``meld_threshold``, ``meld_joker`` and ``least_disturbance`` are solved by the
    exact search yet; the others must keep their defaults when solving
    (:meth:`check_supported`).

    >>> Rules(copies=5)
    Traceback (most recent call last):
    ...
    engines.rummikub.errors.RuleError: rule copies=5: must be an integer 1..4
    """

    meld_threshold: int = 30
    meld_joker: str = "stands-for"
    joker_retrieval: str = "free"
    min_real_tiles: int = 1
    meld_continue: bool = False
    least_disturbance: bool = False
    fewest_tiles_moved: bool = False
    colours: int = 4
    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    min_set_length: int = 3

    def __post_init__(self) -> None:
        for name, (lo, hi) in _RANGES.items():
            t = getattr(self, name)
            if type(t) is not int or not lo <= t <= hi:
                raise RuleError(f"rule {name}={t!r}: must be an integer {lo}..{hi}")
        if self.meld_joker not in MELD_JOKER_VALUES:
            raise RuleError(f"rule meld_joker={self.meld_joker!r}: choose "
                            f"{' or '.join(MELD_JOKER_VALUES)}")
        if self.joker_retrieval not in JOKER_RETRIEVAL_VALUES:
            raise RuleError(f"rule joker_retrieval={self.joker_retrieval!r}: choose "
                            f"{' or '.join(JOKER_RETRIEVAL_VALUES)}")
        for name in ("meld_continue", "least_disturbance", "fewest_tiles_moved"):
            if type(getattr(self, name)) is not bool:
                raise RuleError(f"rule {name}={getattr(self, name)!r}: must be true or false")
        if self.fewest_tiles_moved and not self.least_disturbance:
            raise RuleError("rule fewest_tiles_moved=true needs least_disturbance=true")

    def unsupported(self) -> list[str]:
        """The options, as ``NAME=VALUE``, that the exact search does not solve yet.

        >>> Rules(min_real_tiles=2, colours=5).unsupported()
        ['min_real_tiles=2', 'colours=5']
        """
        return [f"{f.name}={_text(getattr(self, f.name))}" for f in fields(self)
                if f.name not in SEARCH_OPTIONS and getattr(self, f.name) != f.default]

    def check_supported(self) -> Rules:
        """These rules, or a :class:`RuleError` naming the first option the exact search
        does not solve yet.

        >>> try:
        ...     Rules(joker_retrieval="official").check_supported()
        ... except RuleError as exc:
        ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
        rule joker_retrieval=official is not supported by the exact search yet (it solves
        meld_threshold, meld_joker, least_disturbance; the other options await the DP:
        docs/rummikub-house-rules.md)
        """
        if self is DEFAULT_RULES:  # the common case, without the walk over the fields
            return self
        missing = self.unsupported()
        if missing:
            raise RuleError(f"rule {missing[0]} is not supported by the exact search yet (it "
                            f"solves {', '.join(SEARCH_OPTIONS)}; the other options await "
                            "the DP: docs/rummikub-house-rules.md)")
        return self

    @classmethod
    def parse(cls, items: Iterable[str]) -> Rules:
        """Rules from ``NAME=VALUE`` texts (the CLI's ``--rule``); unnamed options keep defaults."""
        names = {f.name: f.type for f in fields(cls)}
        values: dict[str, object] = {}
        for item in items:
            name, sep, text = item.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or name not in names:
                raise RuleError(f"rule {item!r}: expected NAME=VALUE with NAME one of "
                                f"{', '.join(names)}")
            text = text.strip()
            if names[name] == "int":
                if not text.isdigit():
                    lo, hi = _RANGES[name]
                    raise RuleError(f"rule {name}={text}: must be an integer {lo}..{hi}")
                values[name] = int(text)
            elif names[name] == "bool":
                if text.lower() not in _BOOLS:
                    raise RuleError(f"rule {name}={text}: must be true or false")
                values[name] = _BOOLS[text.lower()]
            else:
                values[name] = text
        return cls(**values)

    @classmethod
    def from_json(cls, obj: object) -> Rules:
        """Rules from a JSON object of option names (a batch position's ``rules`` field).

        >>> Rules.from_json({"meld_threshold": 0}).to_json()
        {'meld_threshold': 0}
        """
        if not isinstance(obj, dict):
            raise RuleError(f"rules must be a JSON object, got {type(obj).__name__}")
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(obj) - names)
        if unknown:
            raise RuleError(f"unknown rule {unknown[0]!r}; known: {', '.join(sorted(names))}")
        return cls(**obj)

    def to_json(self) -> dict[str, object]:
        """The options that differ from the defaults (``{}`` for the rules document's)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if getattr(self, f.name) != f.default}

    def meld_mode(self) -> int:
        """The kernels' ``meld`` integer for a player who has not melded yet."""
        from solvers.rummikub import meld_mode

        return meld_mode(self.meld_threshold, self.meld_joker == "stands-for")

    def meld_worth(self, values: Iterable[tuple[int, bool]]) -> int:
        """What tiles ``(number stood for, is joker)`` count towards the initial meld."""
        zero = self.meld_joker == "zero"
        return sum(0 if joker and zero else number for number, joker in values)


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


DEFAULT_RULES = Rules()
