"""Which crossings of house-rule options the exact search refuses, and why: the limits of
the fast kernels' state key (4 colours x 13 numbers), of the width-generic DP's and of
fewest tiles moved's pass, named as :meth:`engines.rummikub.rules.Rules.unsupported` lists
them (docs/rummikub-house-rules.md)."""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.rummikub.rules import Rules

# Options that must keep these values with fewest tiles moved (its pass, solvers/rummikub/
# _heirs.py, follows the rules document's sets: 4 x 13 at most, two copies, two jokers)
_WITH_FEWEST = {"min_real_tiles": 1, "joker_retrieval": "free", "min_set_length": 3,
                "meld_continue": False}
_FEWEST_MOST = {"copies": 2, "jokers": 2, "colours": 4, "numbers": 13}
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
# A fourth joker (sets of 3+, as a third): up to three copies (four copies and four jokers:
# eight open runs a colour, 165 codes, past the colour code's 7 bits); with two real tiles
# per set its four runs short of real tiles are listed in the second key word (bits 31-45
# and 58-62, solvers/rummikub/_real2_four.py)
_FOURTH_JOKER_MOST = {"copies": 3}
# The wide tile sets (more than 4 colours or numbers past 13), and the crossings above that
# the fast kernels refuse, are solved by the width-generic DP (solvers/rummikub/wide), which
# carries the initial-meld options, free retrieval, least disturbance, copies, jokers and
# min_set_length; these options must keep these values with it, the jokers stay within
# min_set_length (up to four: its key tracks the one run of jokers alone that could make a
# set, which then holds every joker, colour and length in 6 bits) and the colour codes fit
# its 64-bit key word (wide_code_bits)
_WITH_WIDE = {"min_real_tiles": 1, "joker_retrieval": "free", "meld_continue": False}


def wide_code_bits(min_len: int, most: int) -> int:
    """The bits of one colour's code in the wide DP: its open runs (at most ``most``) by
    length class, C(min_len + most, min_len) codes (solvers/rummikub/wide/_codes.py)."""
    return max(1, (comb(min_len + most, min_len) - 1).bit_length())

def crossing_refusals(rules: Rules) -> list[str]:
    """The crossings of options that neither DP solves (a crossing the fast kernels' key
    cannot hold goes to the width-generic DP where that DP carries it), and fewest tiles
    moved's refusals."""
    out = []
    if rules.meld_continue:
        out += _past(rules, "meld_continue=true with", _NOT_WITH_CONTINUE)
    if rules.fewest_tiles_moved is True:
        out += fewest_refusals(rules)
    if rules.wide_tiles:
        return out + wide_refusals(rules)
    fast = fast_refusals(rules)
    # (a crossing the fast kernels' key cannot hold goes to the width-generic DP where
    # that DP carries it: wide_search; refused, it is named as the fast kernels see it)
    return out + fast if fast and wide_refusals(rules) else out


def fast_refusals(rules: Rules) -> list[str]:
    """The crossings of options that the fast kernels' state key cannot hold (4 colours
    and 13 numbers at most; docs/rummikub-house-rules.md)."""
    out = []
    if rules.meld_continue and rules.min_real_tiles == 2 and rules.min_set_length != 3:
        # (meld then continue's two-key DP lists the runs short of real tiles for sets of 3
        # only: solvers/rummikub/_continue.py; where the rule binds no set, Rules.solved_as)
        out.append("meld_continue=true with min_real_tiles=2 and "
                   f"min_set_length={rules.min_set_length}")
    # two real tiles per set with a third or fourth copy: sets of 3 only (the runs
    # short of real tiles listed in the second key word, clear of the group counts n3
    # and n4; six or seven open runs a colour, three copies and three jokers or four
    # copies: numbered codes, solvers/rummikub/_real2.long_joker_runs3)
    if rules.copies > 2 and rules.min_real_tiles == 2 and rules.min_set_length != 3:
        out.append(f"copies={rules.copies} with min_real_tiles=2")
    if rules.meld_continue and rules.copies > 2:
        out += _past(rules, f"copies={rules.copies} with meld_continue=true and",
                          _THIRD_COPY_WITH_CONTINUE)
    if rules.meld_continue and rules.jokers > 3:  # (the keys' jokers placed: 2 bits)
        out.append(f"jokers={rules.jokers} with meld_continue=true")
    elif rules.meld_continue and rules.jokers > 2:
        out += _past(rules, f"jokers={rules.jokers} with meld_continue=true and",
                          _THIRD_JOKER_WITH_CONTINUE, above=True)
    for option, alone_with in _WITH_THIRD.items():
        if getattr(rules, option) > 2:
            out += _past(rules, f"{option}={getattr(rules, option)} with", alone_with)
    if rules.jokers > 3:
        out += _past(rules, f"jokers={rules.jokers} with", _FOURTH_JOKER_MOST, above=True)
    return out

def _past(rules: Rules, head: str, limits: dict[str, object], above: bool = False) -> list[str]:
    """``head`` and each option of ``limits`` whose value is past its limit there (above
    it where ``above``, else any other value), named with its value."""
    return [f"{head} {name}={option_text(getattr(rules, name))}" for name, limit in limits.items()
            if (getattr(rules, name) > limit if above else getattr(rules, name) != limit)]

def wide_refusals(rules: Rules) -> list[str]:
    """The options that the width-generic DP does not carry (its transitions, its sets of
    2..12, its joker runs and its 64-bit colour codes), named with the wide tile set."""
    wide = f"colours={rules.colours}" if rules.colours > 4 else f"numbers={rules.numbers}"
    out = []
    if rules.min_set_length > 12:  # (the wide DP's sets: 2..12)
        out.append(f"min_set_length={rules.min_set_length} with colours={rules.colours} "
                   f"and numbers={rules.numbers}")
    out += [f"{wide} with {name}={option_text(getattr(rules, name))}"
            for name, alone in _WITH_WIDE.items() if getattr(rules, name) != alone]
    if rules.jokers > rules.min_set_length:  # (more: two runs of jokers alone at once)
        out.append(f"{wide} with jokers={rules.jokers} and "
                   f"min_set_length={rules.min_set_length}")
    elif rules.colours * wide_code_bits(rules.min_set_length,
                                       rules.copies + rules.jokers) > 64:
        out.append(f"{wide} with min_set_length={rules.min_set_length}, "
                   f"copies={rules.copies} and jokers={rules.jokers}")
    return out

def fewest_refusals(rules: Rules) -> list[str]:
    """The options with which fewest tiles moved is refused (its pass's limits)."""
    return ([f"fewest_tiles_moved=true with {name}={option_text(getattr(rules, name))}"
             for name, alone in _WITH_FEWEST.items() if getattr(rules, name) != alone]
            + [f"fewest_tiles_moved=true with {name}={getattr(rules, name)}"
               for name, most in _FEWEST_MOST.items() if getattr(rules, name) > most])


def option_text(value: object) -> str:
    """An option's value as the rules' text names it (``true``, ``official``, ``3``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
