"""Rule variants: the house rules a Rummikub position is solved under.

The defaults are those of ``docs/rules/rummikub.md``.  The exact search (the dynamic
programme of :mod:`solvers.rummikub`) solves the initial-meld options (``meld_threshold``,
``meld_joker``), meld then continue (``meld_continue``: a DP over two arrangements at
once, :mod:`solvers.rummikub._continue`), official joker retrieval (``joker_retrieval``),
two real tiles per set (``min_real_tiles``), the smaller tile sets its
state key holds (``colours`` 1..4, ``numbers`` 1..13, ``copies`` 1..4, ``jokers`` 0..4)
and sets of 2 or 4..13 tiles at least (``min_set_length`` 2..13), never by filtering the
default's answer, ``least_disturbance``
by holding table sets out inside it (:mod:`engines.rummikub.least`), and
``fewest_tiles_moved`` by one more pass following each table set's heir
(:mod:`engines.rummikub.heirs`, under the rules document's sets).  Wide tile sets, and
the crossings of options that the fast kernels' key cannot hold but the width-generic DP's
can (a third or fourth copy with sets of 2 or 4..12, a third joker with sets of 4..12), go
to that DP (:attr:`Rules.wide_search`).  The
other options (larger tile sets, sets of 14+ tiles, the crossings neither DP holds)
are named and checked here, but the search refuses them (:meth:`Rules.check_supported`)
until the DP carries them; what each would cost the DP is in
``docs/rummikub-house-rules.md``.  The tests check the search, and solve the other
options, with a reference integer programme (``tests/rummikub/ip_model.py``).

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

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace

from engines.rummikub.errors import PositionError, RuleError, SetError, TileError
from engines.rummikub.refusals import (
    crossing_refusals,
    fast_refusals,
    fewest_refusals,
    option_text,
    wide_refusals,
)
from engines.rummikub.retrieval import joker_places, retrieval_problems
from engines.rummikub.tiles import ALL_COLOURS, Tile, format_tiles

MAX_MELD_THRESHOLD = 127  # the DP keeps the meld value so far in 7 bits
MELD_JOKER_VALUES = ("stands-for", "zero")
JOKER_RETRIEVAL_VALUES = ("free", "official")
# name: (lowest, highest) of the integer options
_RANGES = {"meld_threshold": (0, MAX_MELD_THRESHOLD), "min_real_tiles": (1, 2),
           "colours": (1, 8), "numbers": (1, 26), "copies": (1, 4), "jokers": (0, 4),
           "min_set_length": (2, 26)}
# The options the DP of solvers.rummikub solves; every other option must keep its default.
# (least_disturbance: the DP decides which table sets to hold out, solvers.rummikub._hold)
SEARCH_OPTIONS = ("meld_threshold", "meld_joker", "meld_continue", "least_disturbance",
                  "fewest_tiles_moved", "joker_retrieval", "min_real_tiles", "colours",
                  "numbers", "copies", "jokers", "min_set_length")
# fewest_tiles_moved="auto": on where its pass solves the rules (least disturbance on, none
# of refusals.fewest_refusals), off elsewhere, so that it can be the default without refusing
# any rules that work without it.  The default stays off while best_move with it takes over 50 ms
# (the target) on 19 of the --least rules-document row's 320 60J/80J positions of seeds 11
# and 1-7, up to 166 ms at load ~13 (benches/README "Fewest tiles moved"): FEWEST_DEFAULT =
# FEWEST_AUTO turns it on (docs/CHANGELOG: answers change).
FEWEST_AUTO = "auto"
FEWEST_DEFAULT: bool | str = False
# The tile sets the DP's state key holds: four colour codes of up to seven open runs (four
# copies and three jokers: numbered codes, solvers/rummikub/_lengths.py) and the numbers
# 1..13; runs and groups of at least 2 to 13 tiles.  Past 4 colours or 13 numbers: the
# width-generic DP (eight colour codes in a two-word key, numbers up to 26).
SEARCH_LIMITS = {"colours": (1, 8), "numbers": (1, 26), "copies": (1, 4), "jokers": (0, 4),
                 "min_set_length": (2, 13)}
# Why each tile-set option stops there (the state key of solvers/rummikub/_layout.py)
LIMIT_REASONS = {
    "colours": "the width-generic DP's first key word holds eight colour codes of 8 bits",
    "numbers": "the width-generic DP's sets hold numbers up to 26",
    "copies": "a colour's open runs are numbered in a 7-bit code (four copies and two jokers: "
              "84 codes) and the group profile counts colours giving 1 to 4 tiles (n3, n4 "
              "in 3 bits of the key each)",
    "jokers": "the jokers placed take 3 bits of the keys (0..4), and at most two runs of "
              "jokers alone that could become a set are listed (with five jokers three)",
    "min_set_length": "no run of 14 or more tiles fits 13 numbers, nor a group 4 "
                      "colours (wider tile sets: the width-generic DP's own limits)",
}
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
    the rack alone, must reach the threshold).  ``least_disturbance`` (on by default): among
    optimal moves, return one that keeps the most table sets exactly as they were (a
    tie-break after the objective's own; off: any optimal move, the plain DP's, faster).
    ``fewest_tiles_moved`` (with ``least_disturbance``): then the fewest table tiles moved,
    a tile counting as not moved when its set's heir (a run of its colour, a group of its
    number) holds it at the same place (positional: :mod:`engines.rummikub.moved`);
    ``"auto"``: on where its pass solves the other options (:attr:`fewest_moved`), off
    elsewhere; off by default (:data:`FEWEST_DEFAULT`).

    The tile set: ``colours`` (1..8, letters ``KROBGYPW``), ``numbers`` (1..26), ``copies``
    of each tile (1..4), ``jokers`` (0..4), and ``min_set_length`` (2..26; runs and groups
    alike, a group holding at most one tile per colour).

    The exact search solves ``meld_threshold``, ``meld_joker``, ``meld_continue``,
    ``least_disturbance`` (also with meld then continue: the final table keeps the sets),
    ``joker_retrieval``, ``min_real_tiles`` and the tile sets within
    :data:`SEARCH_LIMITS`, by the fast kernels or, for wide tile sets and the crossings
    only it holds, the width-generic DP (:attr:`wide_search`); the other options
    must keep their defaults when solving (:meth:`check_supported`).

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
    least_disturbance: bool = True
    fewest_tiles_moved: bool | str = FEWEST_DEFAULT
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
            value = getattr(self, name)
            if type(value) is not bool and not (name == "fewest_tiles_moved"
                                                and value == FEWEST_AUTO):
                raise RuleError(f"rule {name}={value!r}: must be true or false"
                                + (" or auto" if name == "fewest_tiles_moved" else ""))
        if self.fewest_tiles_moved is True and not self.least_disturbance:
            raise RuleError("rule fewest_tiles_moved=true needs least_disturbance=true")

    def unsupported(self) -> list[str]:
        """The options, as ``NAME=VALUE``, that the exact search does not solve yet.

        >>> Rules(min_set_length=14, jokers=4).unsupported()
        ['min_set_length=14', 'jokers=4 with min_set_length=14']
        >>> Rules(jokers=4, copies=4).unsupported()
        ['jokers=4 with copies=4']
        >>> Rules(jokers=4, copies=3, min_real_tiles=2, joker_retrieval="official").unsupported()
        []
        >>> Rules(meld_continue=True, jokers=3, copies=3).unsupported()
        []
        >>> Rules(meld_continue=True, jokers=3, copies=4).unsupported()
        ['jokers=3 with meld_continue=true and copies=4']
        >>> Rules(meld_continue=True, copies=4, min_real_tiles=2).unsupported()
        ['copies=4 with meld_continue=true and min_real_tiles=2']
        >>> Rules(colours=6, joker_retrieval="official", jokers=3, min_set_length=2).unsupported()
        ['colours=6 with joker_retrieval=official', 'colours=6 with jokers=3 and min_set_length=2']
        >>> Rules(copies=3, min_set_length=4, min_real_tiles=2, jokers=2).unsupported()  # unbound
        []
        """
        return [] if self.solved_as() is not self else self._refusals()

    def solved_as(self) -> Rules:
        """The rules the exact search solves for these: these, or, where it refuses them,
        the same rules with the options that bind no set of this tile set back at the rules
        document's values, where the search solves those: two real tiles per set with
        ``jokers <= min_set_length - 2`` (a set of ``min_set_length`` tiles or more holds
        two real tiles however many of the jokers it takes), official retrieval without
        jokers.  The same moves are legal under both, so the answers are these rules'.

        >>> Rules(copies=3, min_set_length=4, min_real_tiles=2).solved_as().min_real_tiles
        1
        >>> Rules(copies=3, min_set_length=4, min_real_tiles=2, jokers=3).solved_as().jokers
        3
        """
        if not self._refusals():
            return self
        unbound = replace(
            self, min_real_tiles=1 if self.jokers <= self.min_set_length - 2 else
            self.min_real_tiles, joker_retrieval="free" if self.jokers == 0 else
            self.joker_retrieval)  # fmt: skip
        return unbound if unbound != self and not unbound._refusals() else self

    def _refusals(self) -> list[str]:
        """:meth:`unsupported` of these rules as they are (no option set back)."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            lo, hi = SEARCH_LIMITS.get(f.name, (value, value))
            if (f.name not in SEARCH_OPTIONS and value != f.default) or not lo <= value <= hi:
                out.append(f"{f.name}={option_text(value)}")
        return out + crossing_refusals(self)

    @property
    def fewest_moved(self) -> bool:
        """Whether the search breaks least disturbance's ties by the fewest tiles moved:
        ``fewest_tiles_moved=True``, or ``"auto"`` where its pass solves these rules.

        >>> Rules(fewest_tiles_moved="auto").fewest_moved
        True
        >>> Rules(fewest_tiles_moved="auto", copies=3).fewest_moved
        False
        >>> Rules(fewest_tiles_moved="auto", least_disturbance=False).fewest_moved
        False
        """
        if self.fewest_tiles_moved == FEWEST_AUTO:
            return self.least_disturbance and not fewest_refusals(self)
        return self.fewest_tiles_moved is True

    @property
    def wide_tiles(self) -> bool:
        """Whether the tile set is past the fast kernels' 4 colours x 13 numbers (solved by
        the width-generic DP, :mod:`engines.rummikub.wide`)."""
        return self.colours > 4 or self.numbers > 13

    @property
    def wide_search(self) -> bool:
        """Whether the width-generic DP (:mod:`engines.rummikub.wide`) solves these rules:
        a wide tile set, or a crossing at 4 x 13 or less that the fast kernels' key cannot
        hold and the wide DP's can (a third or fourth copy with sets of 2 or 4..12, a third
        or fourth joker with sets of 4..12: its colour codes count the open runs by length
        class for any copies and jokers).  Every entry point routes by it
        (:func:`~engines.rummikub.position.best_moves`).

        >>> Rules(copies=3, min_set_length=4).wide_search, Rules(copies=3).wide_search
        (True, False)
        >>> Rules(copies=3, min_set_length=4, min_real_tiles=2, jokers=3).wide_search  # neither
        False
        """
        rules = self.solved_as()
        return rules.wide_tiles or (bool(fast_refusals(rules))
                                    and not wide_refusals(rules))

    @property
    def standard_tiles(self) -> bool:
        """Whether the tile set and set sizes are the rules document's (4 colours, 1..13,
        two copies, two jokers, sets of 3+ with one real tile)."""
        return (self.colours, self.numbers, self.copies, self.jokers, self.min_set_length,
                self.min_real_tiles) == (4, 13, 2, 2, 3, 1)

    def check_supported(self) -> Rules:
        """These rules, or a :class:`RuleError` naming the first option the exact search
        does not solve yet.

        >>> try:
        ...     Rules(fewest_tiles_moved=True, copies=3).check_supported()
        ... except RuleError as exc:
        ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
        rule fewest_tiles_moved=true with copies=3 is not supported by the exact search yet
        (each is solved alone; together they await the DP: docs/rummikub-house-rules.md)
        >>> try:
        ...     Rules(min_set_length=2, min_real_tiles=2, meld_continue=True).check_supported()
        ... except RuleError as exc:
        ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
        rule meld_continue=true with min_real_tiles=2 and min_set_length=2 is not supported
        by the exact search yet (each is solved alone; together they await the DP:
        docs/rummikub-house-rules.md)
        >>> Rules(copies=3, min_set_length=4).check_supported().wide_search  # the wide DP's
        True
        """
        if self is DEFAULT_RULES:  # the common case, without the walk over the fields
            return self
        missing = self.unsupported()
        if missing:
            name = missing[0].partition("=")[0]
            if " with " in missing[0]:
                raise RuleError(f"rule {missing[0]} is not supported by the exact search yet "
                                "(each is solved alone; together they await the DP: "
                                "docs/rummikub-house-rules.md)")
            if name in SEARCH_LIMITS:
                sizes = ", ".join(f"{k} {lo}" if lo == hi else f"{k} {lo}..{hi}"
                                  for k, (lo, hi) in SEARCH_LIMITS.items())
                raise RuleError(f"rule {missing[0]} is beyond the tile sets the exact search's "
                                f"state key holds ({sizes}; {name}: {LIMIT_REASONS[name]}: "
                                "docs/rummikub-house-rules.md)")
            raise RuleError(f"rule {missing[0]} is not supported by the exact search yet (it "
                            f"solves {', '.join(SEARCH_OPTIONS)}; the other options await "
                            "the DP: docs/rummikub-house-rules.md)")
        return self.solved_as()

    def check_tiles(self, table: Iterable[Iterable[Tile]], rack: Iterable[Tile],
                    where: str = "position") -> None:
        """Raise an error naming the first tile or set of a position that these rules'
        tile set does not allow (the standard checks are the position's own).

        >>> from engines.rummikub.tiles import parse_tiles
        >>> Rules(numbers=10).check_tiles([], parse_tiles("K9 R11"))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engines.rummikub.errors.TileError: position: tile R11 is not in the tile set (... 1..10)
        >>> Rules(min_real_tiles=2).check_tiles([parse_tiles("R5 J J")], [])
        Traceback (most recent call last):
        ...
        engines.rummikub.errors.SetError: position: table set 1 [R5 J J] needs at least 2 ...
        """
        if self.standard_tiles:
            return
        sets = [list(s) for s in table]
        tiles = [t for s in sets for t in s] + list(rack)
        letters = ALL_COLOURS[: self.colours]
        for t in tiles:
            if not t.is_joker and (t.colour not in letters or t.number > self.numbers):
                raise TileError(f"{where}: tile {t} is not in the tile set (colours "
                                f"{' '.join(letters)}, numbers 1..{self.numbers})")
        from solvers.rummikub import MAX_SETS

        if len(tiles) > MAX_SETS * self.min_set_length:  # (only four copies come near it)
            raise PositionError(f"{where}: {len(tiles)} tiles, more than the search's answer "
                                f"holds ({MAX_SETS} sets of {self.min_set_length})")
        for tile, n in Counter(tiles).items():
            if tile.is_joker and n > self.jokers:
                raise PositionError(f"{where}: {n} jokers, the tile set has {self.jokers}")
            if not tile.is_joker and n > self.copies:
                raise PositionError(f"{where}: {n} copies of {tile}, the tile set has "
                                    f"{self.copies}")
        self.check_lengths(sets, where)
        for i, s in enumerate(sets, 1):
            if sum(not t.is_joker for t in s) < self.min_real_tiles:
                raise SetError(f"{where}: table set {i} [{format_tiles(s)}] needs at least "
                               f"{self.min_real_tiles} tiles that are not jokers")

    def position_limits(self) -> dict[str, int]:
        """What a :class:`~engines.rummikub.position.Position` solved under these rules must
        accept (its ``min_set_length`` and ``max_jokers``); the rules check the rest.

        >>> Rules(jokers=3).position_limits()
        {'min_set_length': 3, 'max_jokers': 3, 'max_copies': 2, 'colours': 4, 'numbers': 13}
        """
        return {"min_set_length": min(3, self.min_set_length), "max_jokers": max(2, self.jokers),
                "max_copies": max(2, self.copies), "colours": max(4, self.colours),
                "numbers": max(13, self.numbers)}

    def check_lengths(self, table: Iterable[Iterable[Tile]], where: str = "position") -> None:
        """Raise a :class:`SetError` naming the first table set shorter than these rules'
        ``min_set_length``.

        >>> from engines.rummikub.tiles import parse_tiles
        >>> Rules().check_lengths([parse_tiles("R5 R6")])
        Traceback (most recent call last):
        ...
        engines.rummikub.errors.SetError: position: table set 1 [R5 R6] has fewer than 3 tiles
        """
        for i, s in enumerate(table, 1):
            s = list(s)
            if len(s) < self.min_set_length:
                raise SetError(f"{where}: table set {i} [{format_tiles(s)}] has fewer than "
                               f"{self.min_set_length} tiles")

    def move_problems(self, table: Iterable[Iterable[Tile]], rack: Iterable[Tile],
                      played: Iterable[Tile], sets: Iterable) -> list[str]:
        """What these rules find wrong with a move (``played`` from ``rack``, the table
        afterwards ``sets``, annotated) beyond the standard checks of
        :func:`~engines.rummikub.position.check_move`: the tile set (the position's tiles,
        set lengths, what jokers stand for) and official joker retrieval.

        >>> from engines.rummikub.sets import validate_set
        >>> from engines.rummikub.tiles import parse_tiles
        >>> table = [parse_tiles("R3 R4 R5 J")]
        >>> after = [validate_set(parse_tiles("R3 R4 R5")), validate_set(parse_tiles("K11 K12 J"))]
        >>> Rules(joker_retrieval="official").move_problems(table, [], parse_tiles("K11 K12"),
        ...                                                 after)  # doctest: +ELLIPSIS
        ['joker retrieval (official): the joker of table set 1 (as R6) left its place ...']
        """
        from engines.rummikub.sets import format_meld

        problems: list[str] = []
        try:
            self.check_tiles(table, rack)
        except (TileError, PositionError, SetError) as exc:
            problems.append(str(exc))
        letters = ALL_COLOURS[: self.colours]
        for i, meld in enumerate(sets, start=1):
            if len(meld) < self.min_set_length:
                problems.append(f"set {i} [{format_meld(meld)}]: fewer than "
                                f"{self.min_set_length} tiles")
            for slot in meld:
                t = slot.stands_for
                if slot.tile.is_joker and not t.is_joker and (
                        t.colour not in letters or t.number > self.numbers):
                    problems.append(f"set {i} [{format_meld(meld)}]: a joker stands for {t}, "
                                    "not in the tile set")
        if self.joker_retrieval == "official":
            problems += retrieval_problems(table, played, sets, letters, self.numbers)
        return problems

    def search_mode(self, melded: bool, table: Iterable[Iterable[Tile]] = ()) -> int:
        """The kernels' ``meld`` integer for a position (see :func:`solvers.rummikub.
        rules_mode`): the initial meld, real tiles per set, highest number and, under
        official joker retrieval, the places of the jokers of ``table`` (its sets)."""
        from solvers.rummikub import rules_mode

        places: tuple = ()
        if self.joker_retrieval == "official" and self.touches_table(melded):
            places = joker_places(table, self.colours, self.numbers)
        return rules_mode(melded, self.meld_threshold, self.meld_joker == "stands-for",
                          self.min_real_tiles, self.numbers, places, self.meld_continue,
                          self.min_set_length, self.copies)

    def touches_table(self, melded: bool) -> bool:
        """Whether the player's turn may rearrange the table (melded, or meld then
        continue): the table's tiles are then part of the search's arrangement."""
        return melded or self.meld_continue

    def group_tables(self) -> tuple:
        """The DP's group tables for this tile set (``solvers.rummikub.group_tables``)."""
        from solvers.rummikub import group_tables

        return group_tables(self.colours, self.min_real_tiles, self.min_set_length,
                            self.copies)

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
            elif name == "fewest_tiles_moved" and text.lower() == FEWEST_AUTO:
                values[name] = FEWEST_AUTO
            elif names[name] in ("bool", "bool | str"):
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


DEFAULT_RULES = Rules()
