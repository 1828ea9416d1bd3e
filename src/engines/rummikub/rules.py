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
from dataclasses import dataclass, fields
from math import comb

from engines.rummikub.errors import PositionError, RuleError, SetError, TileError
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
# Options that must keep these values with fewest tiles moved (its pass, solvers/rummikub/
# _heirs.py, follows the rules document's sets: 4 x 13 at most, two copies, two jokers)
_WITH_FEWEST = {"min_real_tiles": 1, "joker_retrieval": "free", "min_set_length": 3,
                "meld_continue": False}
_FEWEST_MOST = {"copies": 2, "jokers": 2, "colours": 4, "numbers": 13}
# fewest_tiles_moved="auto": on where its pass solves the rules (least disturbance on, none
# of the refusals above), off elsewhere, so that it can be the default without refusing any
# rules that work without it.  The default stays off while best_move with it takes over 50 ms
# (the target) on 19 of the --least rules-document row's 320 60J/80J positions of seeds 11
# and 1-7, up to 166 ms at load ~13 (benches/README "Fewest tiles moved"): FEWEST_DEFAULT =
# FEWEST_AUTO turns it on (docs/CHANGELOG: answers change).
FEWEST_AUTO = "auto"
FEWEST_DEFAULT: bool | str = False
# Options the search solves alone but not together with meld then continue (its DP carries
# two arrangements: docs/rummikub-house-rules.md)
_NOT_WITH_CONTINUE: dict[str, object] = {}
# Options that must keep these values with a third joker or a third or fourth copy in the
# fast kernels: their code for them (the length classes, the second key of meld then
# continue) holds two (docs/rummikub-house-rules.md); a third or fourth joker may come with
# official retrieval (its places below), a third or fourth copy with official retrieval
# and with a third joker (six or seven open runs a colour: numbered codes,
# solvers/rummikub/_lengths.py), a third joker with two real tiles per set (sets of 3: a
# third run short of real tiles listed in the second key word, solvers/rummikub/_real2.py).
# Where the width-generic DP carries the crossing (sets of 2 or 4..12 with free retrieval
# and one real tile per set), it solves it instead (Rules.wide_search; min_set_length last:
# a refusal names first what neither DP carries).
_WITH_THIRD = {"jokers": {"min_set_length": 3},
               "copies": {"min_set_length": 3}}
# Meld then continue with a third or fourth copy: sets of 3 with one real tile per set (its
# two keys count the colours giving three or four tiles to groups where the runs short of
# real tiles would be listed; four copies: numbered codes, solvers/rummikub/_continue.py)
_THIRD_COPY_WITH_CONTINUE = {"min_real_tiles": 1, "min_set_length": 3}
# ... and with a third joker: up to three copies and one real tile per set (each key tracks
# its run of three jokers alone where the runs short of real tiles would be listed; three
# copies and three jokers: six open runs a colour, numbered codes in both keys,
# solvers/rummikub/_continue.py); not with a fourth joker
_THIRD_JOKER_WITH_CONTINUE = {"copies": 3, "min_real_tiles": 1}
# Official retrieval takes every joker count: the rules integer places four table jokers
# (the fourth at bits 52-61); the cover of three at one number keeps 4 bits in the first key
# word (COVER_HIGH_AT), or in the second where the first word's are the third and fourth
# copies' group counts or the runs short of real tiles, and the cover of four (15 subsets)
# 12 bits in the second, which a fourth joker's passes always carry (solvers/rummikub/
# _layout.py, COVER_PAIRED_AT); a fourth joker's own limits (_FOURTH_JOKER_MOST) hold there
# The tile sets the DP's state key holds: four colour codes of up to seven open runs (four
# copies and three jokers: numbered codes, solvers/rummikub/_lengths.py) and the numbers
# 1..13; runs and groups of at least 2 to 13 tiles.  Past 4 colours or 13 numbers: the
# width-generic DP (eight colour codes in a two-word key, numbers up to 26).
SEARCH_LIMITS = {"colours": (1, 8), "numbers": (1, 26), "copies": (1, 4), "jokers": (0, 4),
                 "min_set_length": (2, 13)}
# A fourth joker (sets of 3+, as a third): up to three copies (four copies and four jokers:
# eight open runs a colour, 165 codes, past the colour code's 7 bits); with two real tiles
# per set its four runs short of real tiles are listed in the second key word (bits 31-45
# and 58-62, solvers/rummikub/_real2_four.py)
_FOURTH_JOKER_MOST = {"copies": 3}
# The wide tile sets (more than 4 colours or numbers past 13), and the crossings above that
# the fast kernels refuse, are solved by the width-generic DP (solvers/rummikub/wide), which
# carries the initial-meld options, free retrieval, least disturbance, copies, jokers and
# min_set_length; these options must keep these values with it, the jokers stay within
# min_set_length (and 3: its key tracks the one run of jokers alone that could make a set)
# and the colour codes fit its 64-bit key word (wide_code_bits)
_WITH_WIDE = {"min_real_tiles": 1, "joker_retrieval": "free", "meld_continue": False}
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


def wide_code_bits(min_len: int, most: int) -> int:
    """The bits of one colour's code in the wide DP: its open runs (at most ``most``) by
    length class, C(min_len + most, min_len) codes (solvers/rummikub/wide/_codes.py)."""
    return max(1, (comb(min_len + most, min_len) - 1).bit_length())


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
        """
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            lo, hi = SEARCH_LIMITS.get(f.name, (value, value))
            if (f.name not in SEARCH_OPTIONS and value != f.default) or not lo <= value <= hi:
                out.append(f"{f.name}={_text(value)}")
        if self.meld_continue:
            out += self._past("meld_continue=true with", _NOT_WITH_CONTINUE)
        if self.fewest_tiles_moved is True:
            out += self._fewest_refusals()
        if self.wide_tiles:
            return out + self._wide_refusals()
        fast = self._fast_refusals()
        # (a crossing the fast kernels' key cannot hold goes to the width-generic DP where
        # that DP carries it: wide_search; refused, it is named as the fast kernels see it)
        return out + fast if fast and self._wide_refusals() else out

    def _fast_refusals(self) -> list[str]:
        """The crossings of options that the fast kernels' state key cannot hold (4 colours
        and 13 numbers at most; docs/rummikub-house-rules.md)."""
        out = []
        # two real tiles per set with a third or fourth copy: sets of 3 only (the runs
        # short of real tiles listed in the second key word, clear of the group counts n3
        # and n4; six or seven open runs a colour, three copies and three jokers or four
        # copies: numbered codes, solvers/rummikub/_real2.long_joker_runs3)
        if self.copies > 2 and self.min_real_tiles == 2 and self.min_set_length != 3:
            out.append(f"copies={self.copies} with min_real_tiles=2")
        if self.meld_continue and self.copies > 2:
            out += self._past(f"copies={self.copies} with meld_continue=true and",
                              _THIRD_COPY_WITH_CONTINUE)
        if self.meld_continue and self.jokers > 3:  # (the keys' jokers placed: 2 bits)
            out.append(f"jokers={self.jokers} with meld_continue=true")
        elif self.meld_continue and self.jokers > 2:
            out += self._past(f"jokers={self.jokers} with meld_continue=true and",
                              _THIRD_JOKER_WITH_CONTINUE, above=True)
        for option, alone_with in _WITH_THIRD.items():
            if getattr(self, option) > 2:
                out += self._past(f"{option}={getattr(self, option)} with", alone_with)
        if self.jokers > 3:
            out += self._past(f"jokers={self.jokers} with", _FOURTH_JOKER_MOST, above=True)
        return out

    def _past(self, head: str, limits: dict[str, object], above: bool = False) -> list[str]:
        """``head`` and each option of ``limits`` whose value is past its limit there (above
        it where ``above``, else any other value), named with its value."""
        return [f"{head} {name}={_text(getattr(self, name))}" for name, limit in limits.items()
                if (getattr(self, name) > limit if above else getattr(self, name) != limit)]

    def _wide_refusals(self) -> list[str]:
        """The options that the width-generic DP does not carry (its transitions, its sets of
        2..12, its joker runs and its 64-bit colour codes), named with the wide tile set."""
        wide = f"colours={self.colours}" if self.colours > 4 else f"numbers={self.numbers}"
        out = []
        if self.min_set_length > 12:  # (the wide DP's sets: 2..12)
            out.append(f"min_set_length={self.min_set_length} with colours={self.colours} "
                       f"and numbers={self.numbers}")
        out += [f"{wide} with {name}={_text(getattr(self, name))}"
                for name, alone in _WITH_WIDE.items() if getattr(self, name) != alone]
        if self.jokers > min(3, self.min_set_length):
            out.append(f"{wide} with jokers={self.jokers} and "
                       f"min_set_length={self.min_set_length}")
        elif self.colours * wide_code_bits(self.min_set_length,
                                           self.copies + self.jokers) > 64:
            out.append(f"{wide} with min_set_length={self.min_set_length}, "
                       f"copies={self.copies} and jokers={self.jokers}")
        return out

    def _fewest_refusals(self) -> list[str]:
        """The options with which fewest tiles moved is refused (its pass's limits)."""
        return ([f"fewest_tiles_moved=true with {name}={_text(getattr(self, name))}"
                 for name, alone in _WITH_FEWEST.items() if getattr(self, name) != alone]
                + [f"fewest_tiles_moved=true with {name}={getattr(self, name)}"
                   for name, most in _FEWEST_MOST.items() if getattr(self, name) > most])

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
            return self.least_disturbance and not self._fewest_refusals()
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
        joker with sets of 4..12: its colour codes count the open runs by length class
        for any copies and jokers).  Every entry point routes by it
        (:func:`~engines.rummikub.position.best_moves`).

        >>> Rules(copies=3, min_set_length=4).wide_search, Rules(copies=3).wide_search
        (True, False)
        >>> Rules(copies=3, min_set_length=4, min_real_tiles=2).wide_search  # neither DP
        False
        """
        return self.wide_tiles or (bool(self._fast_refusals()) and not self._wide_refusals())

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
        ...     Rules(jokers=3, min_real_tiles=2, meld_continue=True).check_supported()
        ... except RuleError as exc:
        ...     print(exc)  # doctest: +NORMALIZE_WHITESPACE
        rule jokers=3 with meld_continue=true and min_real_tiles=2 is not supported
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
        return self

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


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


DEFAULT_RULES = Rules()
