"""Par: the result of perfect bidding by both sides with the double-dummy table known.

Which par
---------
:func:`par` computes DDS's **dealer par** (``DealerPar``/``DealerParBin``,
Søren Hein's algorithm): the auction order matters seat by seat.  The side
that can make the highest contract (when both sides can make the same
contract, the first *player* from the dealer who can make it) is entitled to
a plus score; it buys the contract at the level that scores most, unless the
other side has a doubled sacrifice that costs less, in which case par is that
sacrifice.  A contract is listed once per seat that can play it, at the lowest
level reaching the par score (extra tricks as overtricks, ``4SE+1``), which
may be lower than the highest making level only as long as no profitable
sacrifice appears and no game or slam bonus is lost.  The result equals
DDS 2.9 through endplay on the whole reference corpus (score and contract
set, four dealers × four vulnerabilities) and in differential tests on
random tables.

:func:`sides_par` gives the par from each side's point of view when that side
has the first say: for N–S the better (for N–S) of the dealer pars with North
and with South dealing, for E–W the better for E–W of East and West dealing
(the construction of DDS's ``SidesParBin`` when built on dealer par,
``DEALER_PAR_ENGINE_ONLY``).  Its scores equal those of DDS 2.9's default
``SidesParBin`` (Kidd's algorithm) on every corpus deal and vulnerability;
on artificial tables the two can differ, e.g. when a player who speaks
before the opponents can pre-empt their grand slam with a sacrifice at the
same level, which dealer par allows and Kidd's algorithm does not.

Scores are from North–South's point of view; contracts are written in the
corpus notation (``3NTS=``, ``4HE+1``, ``5DNx-2``, ``Pass``).

>>> dd = {"C": {"N": 9, "E": 3, "S": 9, "W": 3}, "D": {"N": 10, "E": 3, "S": 10, "W": 3},
...       "H": {"N": 11, "E": 2, "S": 11, "W": 2}, "S": {"N": 11, "E": 2, "S": 11, "W": 2},
...       "NT": {"N": 11, "E": 2, "S": 11, "W": 2}}
>>> p = par(dd, dealer="N", vulnerability="NS")
>>> p.score, p.contracts
(660, ('3NTN+2', '3NTS+2'))
>>> str(p)
'Par +660: 3NTN+2 3NTS+2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engines.bridge.contract import Contract, parse_contracts
from engines.bridge.scoring import contract_score, doubled_undertricks
from engines.bridge.seats import (
    VULNERABILITIES,
    BridgeInputError,
    Seat,
    Strain,
    parse_vulnerability,
)
from engines.verify import Mismatch

__all__ = [
    "Par",
    "dd_table_tuple",
    "par",
    "par_by_dealer",
    "par_mismatches",
    "sides_par",
]

STRAIN_KEYS: tuple[str, ...] = ("C", "D", "H", "S", "NT")
SEAT_KEYS: tuple[str, ...] = ("N", "E", "S", "W")

#: A DD table as plain integers: ``table[strain][seat]``, strains C D H S NT, seats N E S W.
TableTuple = tuple[tuple[int, int, int, int], ...]
#: A par contract before formatting: ``(level, strain, seats, penalty, result)``.
_RawContract = tuple[int, int, tuple[int, ...], int, int]

_BIG = 9999


class _Normalised(tuple):
    """A table already checked by :func:`dd_table_tuple` (skips re-validation)."""

    __slots__ = ()


class _QuirkFlag:
    """Set when the last dealer par went through the one-seat same-strain sacrifice branch.

    Only the differential tests against DDS read it (DDS misreports that branch).
    """

    hit = False


_QUIRK = _QuirkFlag()


@dataclass(frozen=True)
class Par:
    """A par result: ``score`` (N–S point of view) and the par ``contracts`` as strings."""

    score: int
    contracts: tuple[str, ...]
    dealer: Seat = Seat.NORTH
    vulnerability: str = "None"

    @property
    def parsed(self) -> tuple[Contract, ...]:
        """The par contracts as :class:`Contract` objects."""
        return tuple(c for text in self.contracts for c in parse_contracts(text))

    @property
    def is_passout(self) -> bool:
        return self.contracts == ("Pass",)

    def to_dict(self) -> dict[str, Any]:
        """The corpus layout: ``{"score": 460, "contracts": ["3NTN+2", "3NTS+2"]}``."""
        return {"score": self.score, "contracts": list(self.contracts)}

    def side_text(self) -> str:
        """PBN ``OptimumScore`` style: ``NS 460``, ``EW 100``, ``NS 0``."""
        if self.score < 0:
            return f"EW {-self.score}"
        return f"NS {self.score}"

    def __str__(self) -> str:
        return f"Par {self.score:+d}: {' '.join(self.contracts)}"


# -- DD table input -----------------------------------------------------------------------------


def dd_table_tuple(table: Any) -> TableTuple:
    """Normalise a DD table to ``table[strain][seat]`` (C D H S NT × N E S W) integers.

    Accepts the corpus dict layout (``{"C": {"N": 9, ...}, ..., "NT": {...}}``,
    ``"N"`` also accepted for notrump), any object with ``to_dict()`` giving it
    (the solver's ``DDTable``), or a 5×4 nested sequence in that order.
    """
    if (
        type(table) is tuple
        and len(table) == 5
        and all(
            type(row) is tuple
            and len(row) == 4
            and all(type(v) is int and 0 <= v <= 13 for v in row)
            for row in table
        )
    ):
        return _Normalised(table)  # already normalised
    if hasattr(table, "to_dict") and not isinstance(table, Mapping):
        table = table.to_dict()
    rows: list[tuple[int, int, int, int]] = []
    if isinstance(table, Mapping):
        for key in STRAIN_KEYS:
            row = table.get(key)
            if row is None and key == "NT":
                row = table.get("N")
            if not isinstance(row, Mapping):
                raise BridgeInputError(f"DD table has no row for strain {key}")
            values = []
            for seat in SEAT_KEYS:
                if seat not in row:
                    raise BridgeInputError(f"DD table row {key} has no entry for {seat}")
                values.append(_tricks(row[seat], key, seat))
            rows.append(tuple(values))  # type: ignore[arg-type]
    elif isinstance(table, Sequence) and not isinstance(table, str) and len(table) == 5:
        for key, row in zip(STRAIN_KEYS, table):
            if not isinstance(row, Sequence) or len(row) != 4:
                raise BridgeInputError(f"DD table row {key} must hold 4 entries (N E S W)")
            rows.append(tuple(_tricks(v, key, s) for v, s in zip(row, SEAT_KEYS)))  # type: ignore[arg-type]
    else:
        raise BridgeInputError(
            f"cannot read a DD table from {type(table).__name__}; "
            'expected {"C": {"N": 9, ...}, ...} or a DDTable'
        )
    return _Normalised(rows)


def _tricks(value: Any, strain: str, seat: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 13:
        raise BridgeInputError(f"DD table entry {strain}/{seat} = {value!r} is not 0..13 tricks")
    return value


def _table_of(deal_or_table: Any) -> TableTuple:
    """A DD table from a table, or solve it when given a deal."""
    if type(deal_or_table) is _Normalised:
        return deal_or_table
    if type(deal_or_table).__name__ == "Deal" or isinstance(deal_or_table, str):
        from engines.bridge.cards import Deal
        from engines.bridge.dd import dd_table

        deal = Deal.from_pbn(deal_or_table) if isinstance(deal_or_table, str) else deal_or_table
        return dd_table_tuple(dd_table(deal))
    return dd_table_tuple(deal_or_table)


# -- dealer par -----------------------------------------------------------------------------------
#
# Contracts are numbered as in DDS: no = 5 * (level - 1) + strain + 1, so 1 = 1C ... 35 = 7NT;
# a side's best contract in a strain is the one matching its better declarer's tricks.


def _number(tricks: int, strain: int) -> int:
    return 5 * (tricks - 7) + strain + 1


def _made_score_slow(no: int, vulnerable: bool) -> int:
    level, strain = (no - 1) // 5 + 1, (no - 1) % 5
    return contract_score(level, Strain(strain), 0, level + 6, vulnerable)


# Scores of contract ``no`` (1..35) bid and made exactly, [no][vulnerable]; index 0 unused.
_MADE: tuple[tuple[int, int], ...] = (
    (0, 0),
    *((_made_score_slow(no, False), _made_score_slow(no, True)) for no in range(1, 36)),
)


def _down_target_slow(no: int, declarer_vul: bool, defender_vul: bool) -> int:
    value = _MADE[no][declarer_vul]
    down = 0
    while doubled_undertricks(down + 1, defender_vul) < value:
        down += 1
    return down


# Most undertricks a doubled sacrifice may cost and still beat ``no`` made:
# [no][declarer vulnerable][defender vulnerable].
_TARGET: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 0), (0, 0)),
    *(
        tuple(tuple(_down_target_slow(no, dv, fv) for fv in (False, True)) for dv in (False, True))
        for no in range(1, 36)
    ),
)  # type: ignore[assignment]


def _down_target(no: int, declarer_vul: bool, defender_vul: bool) -> int:
    return _TARGET[no][declarer_vul][defender_vul]


def _floor_contract(no: int) -> int:
    """The lowest contract in the same strain scoring the same kind of bonus (game/slam/part)."""
    level, strain = (no - 1) // 5 + 1, (no - 1) % 5
    if level >= 6:
        return no
    game_level = (5, 5, 4, 4, 3)[strain]
    if level >= game_level:
        return _number(game_level + 6, strain)
    return strain + 1


def _c_div(a: int, b: int) -> int:
    """Integer division truncating toward zero (as C does), which DDS's arithmetic relies on."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


@dataclass(slots=True)
class _Entry:
    strain: int
    no: int
    tricks: int
    score: int
    down: int = 0


def _side_entries(
    t: TableTuple, vul: tuple[bool, bool]
) -> tuple[list[list[_Entry]], list[tuple[int, int]]]:
    """Per side: its best contract in each strain, and (highest making no, dearest no)."""
    entries: list[list[_Entry]] = [[], []]
    stats = []
    for side in (0, 1):
        highest = 0
        dearest_no = 0
        dearest_score = 0
        made = _MADE
        side_vul = vul[side]
        for strain in range(5):
            row = t[strain]
            best = row[side] if row[side] > row[side + 2] else row[side + 2]
            no = 5 * (best - 7) + strain + 1
            score = made[no][side_vul] if best >= 7 else 0
            entries[side].append(_Entry(strain, no, best, score))
            if best < 7:
                continue
            if score > dearest_score or (score == dearest_score and no < dearest_no):
                dearest_score, dearest_no = score, no
            highest = max(highest, no)
        stats.append((highest, dearest_no))
    return entries, stats


def _auction_owner(
    t: TableTuple, dealer: int, highest: tuple[int, int], entries: list[list[_Entry]]
) -> int:
    """The side entitled to the plus score: the one making the higher contract, or, when both
    make the same contract, the side of the first player from the dealer who can make it."""
    h0, h1 = highest
    if h0 != h1:
        return 0 if h0 > h1 else 1
    strain = (h0 - 1) % 5
    t_max = entries[0][strain].tricks
    return next(p % 2 for p in range(dealer, dealer + 4) if t[strain][p % 4] == t_max)


def _sacrifice_downs(
    t: TableTuple, dealer: int, side: int, other_entries: list[_Entry], no: int, strain: int
) -> dict[int, int]:
    """Undertricks of the other side's cheapest sacrifice over contract ``no``, per strain."""
    downs: dict[int, int] = {}
    for e in range(5):
        sac_no = other_entries[e].no
        if e == strain:
            # Same strain: the sacrificer must outbid every opponent seat before him in
            # the auction that can already make the contract.
            t_max = (no + 34) // 5
            raised = 0
            down = _BIG
            for p in range(dealer, dealer + 4):
                diff = t_max - t[strain][p % 4]
                if p % 2 == side:
                    if diff == 0:
                        raised = 1
                else:
                    down = min(down, diff + raised)
        else:
            down = _c_div(no - sac_no + 4, 5)
        if sac_no + 5 * down > 35:
            down = _BIG
        downs[e] = down
    return downs


def _same_strain_sacrifice(
    t: TableTuple, dealer: int, side: int, entry: _Entry, best_down: int
) -> _RawContract:
    """The sacrifice in the opponents' own strain, by the seat(s) that can afford it."""
    e = entry.strain
    t_max = (entry.no + 34) // 5
    raised = 0
    hits: list[tuple[int, int]] = []
    for p in range(dealer, dealer + 4):
        diff = t_max - t[e][p % 4]
        if p % 2 == side:
            if diff == 0:
                raised = 1
        elif diff + raised == best_down:
            hits.append((p % 4, entry.no + 5 * raised))
    if len(hits) == 2 and hits[0][1] == hits[1][1]:
        return _as_contract(t, 1 - side, hits[0][1], e, -best_down)
    # One seat sacrifices in the opponents' strain (the other partner would have to bid
    # higher).  DDS 2.9 prints this case without its "*" and DealerParBin then misreads it
    # (and the rest of its list) as made undoubled contracts; we list the real doubled
    # sacrifice.
    seat, no = min(hits, key=lambda h: h[1]) if len(hits) == 2 else hits[0]
    _QUIRK.hit = True
    return (no - 1) // 5 + 1, e, (seat,), 1, -best_down


def _dealer_par_raw(
    t: TableTuple, dealer: int, vul: tuple[bool, bool]
) -> tuple[int, list[_RawContract]]:
    """Dealer par as ``(ns_score, [(level, strain, seats, penalty, result), ...])``.

    An empty contract list with score 0 means passed out.
    """
    _QUIRK.hit = False
    entries, stats = _side_entries(t, vul)
    (h0, _), (h1, _) = stats
    if h0 == 0 and h1 == 0:
        return 0, []
    side = _auction_owner(t, dealer, (h0, h1), entries)
    other = 1 - side
    candidates = sorted(
        (e for e in entries[side] if e.no >= stats[side][1]), key=lambda e: e.no, reverse=True
    )

    # Each candidate contract is either beaten by a cheap enough sacrifice (kind 0: the
    # first such, -1: a lower one) or stands (kind 1, with its margin over the sacrifice).
    sacrifices: dict[int, dict[int, int]] = {}
    kinds: list[int] = []
    gaps: list[int] = []
    best_plus = 0
    best_down = 0
    sac_found = False
    for entry in candidates:
        target = _down_target(entry.no, vul[side], vul[other])
        downs = _sacrifice_downs(t, dealer, side, entries[other], entry.no, entry.strain)
        sacrifices[entry.strain] = downs
        down = min(downs.values())
        if down <= target:
            best_down = max(best_down, down)
            if sac_found:
                kinds.append(-1)  # a lower contract is never a better sacrifice target
            else:
                sac_found = True
                kinds.append(0)
                entry.down = down
            gaps.append(0)
        else:
            best_plus = max(best_plus, entry.score)
            kinds.append(1)
            gaps.append(target - down)

    sign = 1 if side == 0 else -1
    out: list[_RawContract] = []
    sacrifice_cost = doubled_undertricks(best_down, vul[other])
    if not sac_found or best_plus > sacrifice_cost:
        for entry, kind, gap in zip(candidates, kinds, gaps):
            if kind == 1 and entry.score == best_plus:
                no, plus = _reduce(entry.no, gap)
                out.append(_as_contract(t, side, no, entry.strain, plus))
        return sign * best_plus, out

    for entry, kind in zip(candidates, kinds):
        if kind != 0 or entry.down != best_down:
            continue
        downs = sacrifices[entry.strain]
        for e in range(5):
            if downs[e] != best_down:
                continue
            if e == entry.strain:
                out.append(_same_strain_sacrifice(t, dealer, side, entry, best_down))
            else:
                sac_no = entries[other][e].no + 5 * best_down
                out.append(_as_contract(t, other, sac_no, e, -best_down))
    return sign * sacrifice_cost, out


def _reduce(no: int, gap: int) -> tuple[int, int]:
    """Lower a making contract while the opponents' sacrifice stays unprofitable.

    Never below the level that keeps the game or slam bonus.
    """
    if gap >= -1:
        return no, 0
    new_no = max(no + 5 * (gap + 1), _floor_contract(no))
    return new_no, (no - new_no) // 5


def _as_contract(t: TableTuple, side: int, no: int, strain: int, delta: int) -> _RawContract:
    """A par contract played by whichever partner(s) of ``side`` take the most tricks."""
    a, b = t[strain][side], t[strain][side + 2]
    best = max(a, b)
    seats = tuple(s for s, v in ((side, a), (side + 2, b)) if v == best)
    level = (no - 1) // 5 + 1
    return level, strain, seats, 1 if delta < 0 else 0, delta


_VUL_PAIRS: dict[str, tuple[bool, bool]] = {
    "None": (False, False),
    "NS": (True, False),
    "EW": (False, True),
    "Both": (True, True),
}


_STRAIN_TEXT = ("C", "D", "H", "S", "NT")


def _strings(raw: list[_RawContract]) -> tuple[str, ...]:
    """Corpus notation (what :class:`Contract` writes), built directly for speed."""
    if not raw:
        return ("Pass",)
    texts = []
    for level, strain, seats, penalty, result in raw:
        tail = ("", "x", "xx")[penalty] + ("=" if result == 0 else f"{result:+d}")
        for seat in seats:
            texts.append(f"{level}{_STRAIN_TEXT[strain]}{SEAT_KEYS[seat]}{tail}")
    return tuple(texts)


def par(deal_or_table: Any, dealer: Seat | str = "N", vulnerability: str = "None") -> Par:
    """The dealer par of a deal or DD table (see the module docstring).

    ``vulnerability`` is ``None``, ``NS``, ``EW`` or ``Both`` (``All`` and the
    other PBN spellings accepted).  Given a deal (or a PBN deal string) the DD
    table is solved first; given a table, par is a pure function of it.
    """
    table = _table_of(deal_or_table)
    seat = dealer if type(dealer) is Seat else Seat.coerce(dealer)
    if type(vulnerability) is str and vulnerability in _VUL_PAIRS:
        vul = vulnerability
    else:
        vul = parse_vulnerability(vulnerability)
    score, raw = _dealer_par_raw(table, int(seat), _VUL_PAIRS[vul])
    return Par(score, _strings(raw), seat, vul)


def par_by_dealer(deal_or_table: Any) -> dict[str, dict[str, Par]]:
    """``result[dealer][vulnerability]`` for the four dealers and four vulnerabilities."""
    table = _table_of(deal_or_table)
    return {d: {v: par(table, d, v) for v in VULNERABILITIES} for d in SEAT_KEYS}


def sides_par(deal_or_table: Any, vulnerability: str = "None") -> dict[str, Par]:
    """Par seen by each side when that side speaks first: ``{"NS": Par, "EW": Par}``.

    For N–S it is the dealer par with North or South dealing, whichever scores
    more for N–S (when both score the same, the contracts of both, merged); for
    E–W likewise with East or West.  Scores stay from N–S's point of view.

    >>> dd = {s: {"N": 7, "E": 7, "S": 6, "W": 6} for s in ("C", "D", "H", "S")}
    >>> dd["NT"] = {"N": 7, "E": 7, "S": 6, "W": 6}
    >>> r = sides_par(dd)
    >>> r["NS"].contracts, r["EW"].contracts
    (('1NTN=',), ('1NTE=',))
    """
    table = _table_of(deal_or_table)
    vul = parse_vulnerability(vulnerability)
    result = {}
    for side, seats, better in (("NS", "NS", max), ("EW", "EW", min)):
        pars = [par(table, s, vul) for s in seats]
        best = better(p.score for p in pars)
        chosen = [p for p in pars if p.score == best]
        merged: list[str] = []
        for p in chosen:
            merged.extend(c for c in p.contracts if c not in merged)
        result[side] = Par(best, tuple(merged), chosen[0].dealer, vul)
    return result


# -- verification ----------------------------------------------------------------------------------


def par_mismatches(record: Mapping[str, Any], table: Any = None) -> list[Mismatch]:
    """Compare a corpus record's ``par`` and ``par_by_dealer`` with ours.

    ``table`` is the DD table to compute par from (the solver's, when
    verifying the solver); ``None`` uses the record's own ``dd``.  Contracts
    are compared as sets, written exactly as the corpus writes them.
    """
    record_id = str(record.get("id", "?"))
    if table is None:
        table = record.get("dd")
    out: list[Mismatch] = []
    try:
        tuple_table = dd_table_tuple(table)
    except BridgeInputError as exc:
        return [Mismatch(record_id, "dd", "a DD table", str(exc))]
    expected_sets: list[tuple[str, str, Any]] = []
    if isinstance(record.get("par"), Mapping):
        dealer = record.get("dealer", "N")
        expected_sets.extend((dealer, v, record["par"].get(v)) for v in VULNERABILITIES)
        prefix_par = True
    else:
        prefix_par = False
    by_dealer = record.get("par_by_dealer")
    if isinstance(by_dealer, Mapping):
        for d in SEAT_KEYS:
            row = by_dealer.get(d)
            if isinstance(row, Mapping):
                expected_sets.extend((d, v, row.get(v)) for v in VULNERABILITIES)
    for index, (dealer, vul, expected) in enumerate(expected_sets):
        if expected is None:
            continue
        field = f"par.{vul}" if prefix_par and index < 4 else f"par_by_dealer.{dealer}.{vul}"
        got = par(tuple_table, dealer, vul)
        if got.score != expected.get("score"):
            out.append(Mismatch(record_id, f"{field}.score", expected.get("score"), got.score))
        want = sorted(expected.get("contracts", []))
        if sorted(got.contracts) != want:
            out.append(Mismatch(record_id, f"{field}.contracts", want, sorted(got.contracts)))
    return out
