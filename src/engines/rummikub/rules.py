"""Rule variants: the house rules a Rummikub position is solved under.

The defaults are those of ``docs/rules/rummikub.md``.  Each option is solved exactly by the
same dynamic programme (it changes the DP's transitions or its final test, never filters
the default's answer); what each costs in states is in ``docs/rummikub-house-rules.md``.

>>> Rules()
Rules(meld_threshold=30, meld_joker='stands-for')
>>> Rules.parse(["meld_threshold=0", "meld_joker=zero"])
Rules(meld_threshold=0, meld_joker='zero')
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


@dataclass(frozen=True)
class Rules:
    """House rules.

    ``meld_threshold``: the value a player's first play (the initial meld, new sets from the
    rack only) must reach; 0 lets any first play count.  ``meld_joker``: what a joker is
    worth towards it, ``"stands-for"`` (the tile it stands for, the default) or ``"zero"``.
    """

    meld_threshold: int = 30
    meld_joker: str = "stands-for"

    def __post_init__(self) -> None:
        t = self.meld_threshold
        if type(t) is not int or not 0 <= t <= MAX_MELD_THRESHOLD:
            raise RuleError(f"rule meld_threshold={t!r}: must be an integer "
                            f"0..{MAX_MELD_THRESHOLD}")
        if self.meld_joker not in MELD_JOKER_VALUES:
            raise RuleError(f"rule meld_joker={self.meld_joker!r}: choose "
                            f"{' or '.join(MELD_JOKER_VALUES)}")

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
                    raise RuleError(f"rule {name}={text}: must be an integer "
                                    f"0..{MAX_MELD_THRESHOLD}")
                values[name] = int(text)
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


DEFAULT_RULES = Rules()
