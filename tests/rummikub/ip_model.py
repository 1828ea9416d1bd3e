"""The reference oracle for Rummikub house rules: an exact integer programme (HiGHS).

The product's best-move search is the Numba DP of :mod:`solvers.rummikub`; it solves the
rules document's game and its initial-meld options.  The options below are refused by the
engine until the DP carries them (their state-size cost is in
``docs/rummikub-house-rules.md``).  This programme solves them exactly, with HiGHS
(``highspy``, a test/bench dependency only) proving optimality, so that the tests can check
the DP's answers once it does; it is itself checked against brute force
(``test_rummikub_ip_reference.py``):

- tile sets of ``colours`` x ``numbers`` x ``copies`` plus ``jokers``, sets of at least
  ``min_len`` tiles;
- ``min_real``: every set holds at least that many non-joker tiles (1 or 2);
- ``official``: a table joker may leave its place only when a tile it stands for is
  played from the rack in the same turn (joker retrieval, official rules);
- ``meld_continue``: a player who has not melded may meld and then, in the same turn,
  play onto and rearrange the table;
- ``least_disturbance``: among optimal moves, one that keeps the most table sets exactly
  as they were; with ``fewest_moved``, then one that moves the fewest table tiles out of
  their set's continuation (:class:`_Heir`).

Model.  Runs are flows along each colour, as in the DP: at every tile, how many runs of
each class (length so far 1 .. ``min_len``+, real tiles so far 0 .. ``min_real``+) take a
real tile or a joker there, start, or stop (only runs long and real enough stop).  Groups are
counted per number: ``n`` groups, ``g[c]`` real tiles of colour ``c`` and ``gj`` jokers
split into ``n`` groups of distinct colours, each of at least ``min_len`` tiles and
``min_real`` real ones, exactly when ``g[c] <= n``, ``min_len*n <= sum g + gj <=
colours*n`` and ``sum g >= min_real*n`` (deal the real tiles round-robin colour by colour,
then the jokers into the smallest groups: :func:`split_groups`).  A table set kept
unchanged is held out whole (one binary per table set); least disturbance is a second
solve that maximises the sets kept with the objective held at the first solve's optimum.

Inputs are counts per ``[colour, number-1]``; nothing here parses text or raises for user
input (the engine validates first).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

OFFICIAL_RUN, OFFICIAL_GROUP = 0, 1


@dataclass(frozen=True)
class TileSpec:
    """The tile set and what a set needs: the rules document's is ``TileSpec()``."""

    colours: int = 4
    numbers: int = 13
    copies: int = 2
    jokers: int = 2
    min_len: int = 3
    min_real: int = 1


@dataclass
class TableSet:
    """One set on the table: tile counts, jokers, and what each joker stands for.

    ``joker_places``: per joker ``(OFFICIAL_RUN, colour, number)`` or ``(OFFICIAL_GROUP,
    colour mask of the colours it may stand for, number)``; ``run_colour`` or
    ``group_number``: what kind of set it is (numbers 0-based).
    """

    counts: np.ndarray
    jokers: int
    joker_places: list[tuple[int, int, int]] = field(default_factory=list)
    run_colour: int = -1  # a run of this colour, or
    group_number: int = -1  # a group of this number (0-based)


@dataclass
class IPResult:
    """``sets``: every set of the table afterwards (initial meld: the new sets only), each a
    list of ``(is_joker, colour, number)``; ``played``/``played_jokers``: rack tiles played;
    ``kept``: indices of the table sets held out unchanged; ``meld``: the sets that formed the
    initial meld (meld then continue); ``score``: the objective's weighted score; ``moved``:
    with ``fewest_moved``, the table tiles not in their set's continuation (else -1)."""

    feasible: bool
    sets: list[list[tuple[bool, int, int]]]
    played: np.ndarray
    played_jokers: int
    kept: list[int]
    meld: list[list[tuple[bool, int, int]]]
    score: int
    moved: int = -1


def split_groups(spec: TileSpec, n: int, real: list[int], jokers: int, number: int
                 ) -> list[list[tuple[bool, int, int]]]:
    """``n`` groups of number ``number`` from ``real[c]`` tiles per colour and ``jokers``."""
    groups: list[list[tuple[bool, int, int]]] = [[] for _ in range(n)]
    k = 0
    for c in range(spec.colours):
        for _ in range(real[c]):
            groups[k % n].append((False, c, number))
            k += 1
    for _ in range(jokers):
        g = min(range(n), key=lambda i: len(groups[i]))  # fill the smallest group first
        used = {c for _, c, _ in groups[g]}
        free = next(c for c in range(spec.colours) if c not in used)
        groups[g].append((True, free, number))
    for g in groups:
        g.sort(key=lambda slot: slot[1])
    return groups


_LOCAL = threading.local()


def _highs():
    """One HiGHS instance per thread, made quiet (HiGHS prints a banner when it is made)."""
    if not hasattr(_LOCAL, "highs"):
        import os
        import sys

        import highspy

        sys.stdout.flush()
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 1)
                h = highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        h.setOptionValue("output_flag", False)
        h.setOptionValue("mip_rel_gap", 0.0)
        h.setOptionValue("mip_abs_gap", 0.5)  # the objective is integral
        _LOCAL.highs = h
    h = _LOCAL.highs
    h.clearModel()
    return h


class _Model:
    """Columns and rows of one integer programme (a small sparse builder)."""

    def __init__(self) -> None:
        self.lower: list[float] = []
        self.upper: list[float] = []
        self.cost: list[float] = []
        self.rows: list[tuple[dict[int, float], float, float]] = []

    def col(self, upper: float, cost: float = 0.0) -> int:
        self.lower.append(0.0)
        self.upper.append(float(upper))
        self.cost.append(float(cost))
        return len(self.cost) - 1

    def row(self, terms: dict[int, float], lo: float, hi: float) -> None:
        terms.pop(-1, None)  # a column not made (its upper bound was 0)
        if terms:
            self.rows.append((terms, lo, hi))
        elif not lo <= 0 <= hi:
            raise AssertionError("an empty row that cannot hold")

    def solve(self) -> np.ndarray | None:
        import highspy

        h = _highs()
        lp = highspy.HighsLp()
        ncol = len(self.cost)
        lp.num_col_ = ncol
        lp.num_row_ = len(self.rows)
        lp.col_cost_ = np.array(self.cost)
        lp.col_lower_ = np.array(self.lower)
        lp.col_upper_ = np.array(self.upper)
        lp.row_lower_ = np.array([r[1] for r in self.rows], dtype=float)
        lp.row_upper_ = np.array([r[2] for r in self.rows], dtype=float)
        lp.sense_ = highspy.ObjSense.kMaximize
        lp.integrality_ = [highspy.HighsVarType.kInteger] * ncol
        start = [0]
        index: list[int] = []
        value: list[float] = []
        for terms, _, _ in self.rows:
            index += terms.keys()
            value += terms.values()
            start.append(len(index))
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(start, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
        lp.a_matrix_.value_ = np.array(value, dtype=float)
        h.passModel(lp)
        h.run()
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            # HiGHS 1.16's presolve has called a feasible model infeasible (the second
            # least-disturbance solve of hypothesis seed 44223 in test_rummikub_heirs, whose
            # first solve's point meets every row): ask again without it before believing it
            h.setOptionValue("presolve", "off")
            try:
                h.run()
                status = h.getModelStatus()
            finally:
                h.setOptionValue("presolve", "choose")
            if status == highspy.HighsModelStatus.kInfeasible:
                return None
        if status != highspy.HighsModelStatus.kOptimal:
            raise RuntimeError(f"HiGHS did not solve the model: {h.modelStatusToString(status)}")
        return np.rint(np.array(h.getSolution().col_value)).astype(np.int64)


class _Arrangement:
    """Columns of one arrangement (runs as flows, groups as counts) and its tile use."""

    def __init__(self, model: _Model, spec: TileSpec, avail: np.ndarray, jokers: int) -> None:
        self.spec = spec
        C, N, K, J = spec.colours, spec.numbers, spec.copies, spec.jokers
        L, R = spec.min_len, spec.min_real
        self.classes = L * (R + 1)  # (length 1..L, L meaning L+) x (real tiles 0..R, R+)
        self._next_of = [[self._next(k, kind) for kind in range(2)]
                         for k in range(-1, self.classes)]

        def make(upper: int) -> int:  # -1: no column (nothing can go there)
            return model.col(upper) if upper > 0 else -1

        # start[c][v][kind], cont[c][v][class][kind] (kind 0 real, 1 joker), close[c][v];
        # a run holds a tile once, so real columns are bounded by the copies available
        ub = [[(int(avail[c, v]), jokers) for v in range(N)] for c in range(C)]
        self.start = [[[make(ub[c][v][kind]) for kind in range(2)] for v in range(N)]
                      for c in range(C)]
        self.cont = [[[[make(ub[c][v][kind]) if v else -1 for kind in range(2)]
                       for _ in range(self.classes)] for v in range(N)] for c in range(C)]
        self.close = [[make(int(avail[c, v]) + jokers) for v in range(N)] for c in range(C)]
        done = self.classes - 1
        for c in range(C):
            for v in range(N):
                for k in range(self.classes):
                    terms = {col: 1.0 for col in self._into(c, v, k)}
                    if v + 1 < N:
                        for col in self.cont[c][v + 1][k]:
                            terms[col] = -1.0
                        if k == done:
                            terms[self.close[c][v]] = -1.0
                        model.row(terms, 0, 0)
                    elif k != done:  # every run is long and real enough at the last number
                        model.row(terms, 0, 0)
        self.n = [model.col((C * K + J) // spec.min_len) for _ in range(N)]
        self.gj = [make(min(J, jokers)) for _ in range(N)]
        self.g = [[make(min(K, int(avail[c, v]))) for v in range(N)] for c in range(C)]
        for v in range(N):
            real = {self.g[c][v]: 1.0 for c in range(C)}
            real.pop(-1, None)
            for c in range(C):
                model.row({self.g[c][v]: 1.0, self.n[v]: -1.0}, -np.inf, 0)
            model.row({**real, self.gj[v]: 1.0, self.n[v]: -spec.min_len}, 0, np.inf)
            model.row({**real, self.gj[v]: 1.0, self.n[v]: -C}, -np.inf, 0)
            model.row({**real, self.n[v]: -spec.min_real}, 0, np.inf)

    def _next(self, k: int, kind: int) -> int:
        """The class of a run of class ``k`` (-1: a new run) after one more tile."""
        R1 = self.spec.min_real + 1
        length, real = (0, 0) if k < 0 else divmod(k, R1)
        length = min(length + 1 if k >= 0 else 0, self.spec.min_len - 1)
        real = min(real + (kind == 0), R1 - 1)
        return length * R1 + real

    def _into(self, c: int, v: int, k: int) -> list[int]:
        """Columns of the runs that are of class ``k`` once they hold tile ``(c, v)``."""
        nxt = self._next_of
        cols = [self.start[c][v][kind] for kind in range(2) if nxt[0][kind] == k]
        if v:
            cols += [self.cont[c][v][k0][kind] for k0 in range(self.classes)
                     for kind in range(2) if nxt[k0 + 1][kind] == k]
        return [x for x in cols if x >= 0]

    def _run_tiles(self, c: int, v: int, kind: int) -> list[int]:
        cols = [self.start[c][v][kind]]
        if v:
            cols += [self.cont[c][v][k][kind] for k in range(self.classes)]
        return [x for x in cols if x >= 0]

    def tile_terms(self) -> tuple[list[list[dict[int, float]]], dict[int, float]]:
        """Per cell the columns that use that real tile, and the columns that use jokers."""
        C, N = self.spec.colours, self.spec.numbers
        cells = [[{self.g[c][v]: 1.0, **dict.fromkeys(self._run_tiles(c, v, 0), 1.0)}
                  for v in range(N)] for c in range(C)]
        jokers = {self.gj[v]: 1.0 for v in range(N)}
        jokers.pop(-1, None)
        for c in range(C):
            for v in range(N):
                jokers.update(dict.fromkeys(self._run_tiles(c, v, 1), 1.0))
        return cells, jokers

    def run_joker_terms(self) -> dict[tuple[int, int], dict[int, float]]:
        """Per cell ``(colour, number - 1)`` the columns whose runs put a joker there."""
        return {(c, v): dict.fromkeys(self._run_tiles(c, v, 1), 1.0)
                for c in range(self.spec.colours) for v in range(self.spec.numbers)}

    def value_terms(self, joker_counts: bool) -> dict[int, float]:
        """Columns and what they add to the initial meld's value."""
        terms: dict[int, float] = {}
        for v in range(self.spec.numbers):
            for c in range(self.spec.colours):
                terms.update(dict.fromkeys(self._run_tiles(c, v, 0), float(v + 1)))
                if joker_counts:
                    terms.update(dict.fromkeys(self._run_tiles(c, v, 1), float(v + 1)))
                terms[self.g[c][v]] = float(v + 1)
            if joker_counts:
                terms[self.gj[v]] = float(v + 1)
        return terms

    def sets(self, solution: np.ndarray) -> list[list[tuple[bool, int, int]]]:
        sol = np.append(solution, 0)  # column -1 (not made) reads 0
        out: list[list[tuple[bool, int, int]]] = []
        done = self.classes - 1
        for c in range(self.spec.colours):
            open_runs: list[list[list[tuple[bool, int, int]]]] = [[] for _ in range(self.classes)]
            for v in range(self.spec.numbers):
                now: list[list[list[tuple[bool, int, int]]]] = [[] for _ in range(self.classes)]
                for kind in range(2):
                    tile = (kind == 1, c, v + 1)
                    for _ in range(int(sol[self.start[c][v][kind]])):
                        now[self._next(-1, kind)].append([tile])
                    for k in range(self.classes) if v else ():
                        for _ in range(int(sol[self.cont[c][v][k][kind]])):
                            run = open_runs[k].pop()
                            run.append(tile)
                            now[self._next(k, kind)].append(run)
                out += open_runs[done]  # the runs that stopped at the number before
                open_runs = now
            out += open_runs[done]
        for v in range(self.spec.numbers):
            n = int(sol[self.n[v]])
            if n:
                real = [int(sol[self.g[c][v]]) for c in range(self.spec.colours)]
                out += split_groups(self.spec, n, real, int(sol[self.gj[v]]), v + 1)
        return out


class _Heir:
    """The set that continues one table set (its heir): a run of its colour or a group of its
    number (at most one; none if the table set is kept whole).  ``stays``: columns whose sum
    is the table set's tiles that stay in it, positionally (a run's real tile or joker where
    the heir holds one at the same number; a group's colours, and its jokers up to the
    heir's)."""

    def __init__(self, model: _Model, spec: TileSpec, s: TableSet, kept: int,
                 avail: np.ndarray, jokers: int, cells, joker_terms: dict[int, float],
                 more_run: dict, more_group: dict) -> None:
        self.spec = spec
        C, N, L, R = spec.colours, spec.numbers, spec.min_len, spec.min_real

        def make(upper: int) -> int:
            return model.col(upper) if upper > 0 else -1

        self.stays: dict[int, float] = {}
        # a group's jokers that stay in it (any joker of the heir: they stand for its number);
        # a run's joker stays when the heir holds a joker at its number (positional)
        share = make(s.jokers) if s.run_colour < 0 else -1
        self.share = share
        if s.run_colour >= 0:
            c = self.colour = s.run_colour
            self.real = [make(min(1, int(avail[c, v]))) for v in range(N)]
            self.joker = [make(min(1, jokers)) for v in range(N)]
            starts = [model.col(1) for _ in range(N)]
            for v in range(N):
                model.row({self.real[v]: 1.0, self.joker[v]: 1.0}, -np.inf, 1)
                terms = {self.real[v]: 1.0, self.joker[v]: 1.0, starts[v]: -1.0}
                if v:
                    terms.update({self.real[v - 1]: -1.0, self.joker[v - 1]: -1.0})
                    terms.pop(-1, None)
                model.row(terms, -np.inf, 0)  # a tile here continues the run or starts it
                _add(cells[c][v], self.real[v], 1.0)
                _add(joker_terms, self.joker[v], 1.0)
                if self.joker[v] >= 0:
                    more_run.setdefault((c, v), {})[self.joker[v]] = 1.0
                if s.counts[c, v]:
                    self.stays[self.real[v]] = 1.0
            for _kind, _colour, v in s.joker_places:
                _add(self.stays, self.joker[v], 1.0)
            start = dict.fromkeys(starts, 1.0)
            tiles = {**dict.fromkeys(self.real, 1.0), **dict.fromkeys(self.joker, 1.0)}
            real = dict.fromkeys(self.real, 1.0)
            tiles.pop(-1, None)
            real.pop(-1, None)
            model.row({**start, kept: 1.0}, -np.inf, 1)
            model.row({**tiles, **{k: -float(L) for k in starts}}, 0, np.inf)
            model.row({**tiles, **{k: -float(N) for k in starts}}, -np.inf, 0)
            model.row({**real, **{k: -float(R) for k in starts}}, 0, np.inf)
        else:
            v = self.number = s.group_number
            self.colour = -1
            self.real = [make(min(1, int(avail[c, v]))) for c in range(C)]
            self.gj = make(min(spec.jokers, jokers))
            e = model.col(1)
            real = dict.fromkeys(self.real, 1.0)
            real.pop(-1, None)
            model.row({**real, self.gj: 1.0, e: -float(L)}, 0, np.inf)
            model.row({**real, self.gj: 1.0, e: -float(C)}, -np.inf, 0)
            model.row({**real, e: -float(R)}, 0, np.inf)
            model.row({e: 1.0, kept: 1.0}, -np.inf, 1)
            model.row({share: 1.0, self.gj: -1.0}, -np.inf, 0)
            for c in range(C):
                _add(cells[c][v], self.real[c], 1.0)
                if s.counts[c, v]:
                    self.stays[self.real[c]] = 1.0
            _add(joker_terms, self.gj, 1.0)
            if self.gj >= 0:
                more_group.setdefault(v, {})[self.gj] = 1.0
        self.stays[share] = 1.0
        self.stays.pop(-1, None)

    def sets(self, sol: np.ndarray) -> list[list[tuple[bool, int, int]]]:
        if self.colour >= 0:
            run = [(bool(sol[self.joker[v]]), self.colour, v + 1)
                   for v in range(self.spec.numbers) if sol[self.real[v]] or sol[self.joker[v]]]
            return [run] if run else []
        real = [int(sol[col]) for col in self.real]
        if not sum(real):
            return []
        return split_groups(self.spec, 1, real, int(sol[self.gj]), self.number + 1)


def _add(terms: dict[int, float], col: int, a: float) -> None:
    terms[col] = terms.get(col, 0.0) + a


def solve_ip(spec: TileSpec, table: list[TableSet], rack: np.ndarray, rack_jokers: int,
             weight: np.ndarray, joker_weight: int, *, melded: bool, threshold: int = 30,
             joker_counts: bool = True, meld_continue: bool = False, official: bool = False,
             least_disturbance: bool = True, fewest_moved: bool = False) -> IPResult:
    """The exact best move under ``spec`` and the options (see the module docstring).

    ``rack[colour, number - 1]``: rack counts; ``weight`` (same shape) and
    ``joker_weight``: the gain of each rack tile played (the engine's objective weights,
    which carry the objective's own tie-breaks).  ``melded``: the player has made the initial
    meld; if not, the new sets from the rack must be worth ``threshold`` (jokers counting the
    number they stand for when ``joker_counts``) and, unless ``meld_continue``, the table
    stays as it is.

    >>> spec = TileSpec(colours=2, numbers=5, jokers=0)
    >>> rack = np.zeros((2, 5), np.int64); rack[0, :4] = 1        # colour 0: 1 2 3 4
    >>> r = solve_ip(spec, [], rack, 0, np.ones((2, 5)), 1, melded=True)
    >>> r.sets, int(r.played.sum())
    ([[(False, 0, 1), (False, 0, 2), (False, 0, 3), (False, 0, 4)]], 4)
    """
    C, N = spec.colours, spec.numbers
    model = _Model()
    touch_table = melded or meld_continue
    y = [[model.col(rack[c, v], weight[c, v]) for v in range(N)] for c in range(C)]
    yj = model.col(rack_jokers, joker_weight)
    table_counts = np.zeros((C, N), np.int64)
    table_jokers = 0
    if touch_table:
        for s in table:
            table_counts += s.counts
            table_jokers += s.jokers
    final = _Arrangement(model, spec, table_counts + rack, table_jokers + rack_jokers)
    cells, jokers = final.tile_terms()
    kept: list[int] = []
    if touch_table and least_disturbance:
        kept = [model.col(1) for _ in table]
        for i, s in enumerate(table):
            for c, v in zip(*np.nonzero(s.counts)):
                _add(cells[c][v], kept[i], float(s.counts[c, v]))
            if s.jokers:
                _add(jokers, kept[i], float(s.jokers))
    more_run: dict[tuple[int, int], dict[int, float]] = {}
    more_group: dict[int, dict[int, float]] = {}
    heirs = [_Heir(model, spec, s, kept[i], table_counts + rack, table_jokers + rack_jokers,
                   cells, jokers, more_run, more_group) for i, s in enumerate(table)
             ] if kept and fewest_moved else []
    for c in range(C):
        for v in range(N):
            model.row({**cells[c][v], y[c][v]: -1.0}, table_counts[c, v], table_counts[c, v])
    model.row({**jokers, yj: -1.0}, table_jokers, table_jokers)
    meld_sets = None
    if not melded:
        gate = model.col(1)  # 0: pass (nothing played), 1: the initial meld is made
        for c in range(C):
            for v in range(N):
                if rack[c, v]:
                    model.row({y[c][v]: 1.0, gate: -float(rack[c, v])}, -np.inf, 0)
        model.row({yj: 1.0, gate: -float(rack_jokers)}, -np.inf, 0)
        meld = final
        if meld_continue:  # the meld's own sets, from tiles played this turn
            meld = meld_sets = _Arrangement(model, spec, rack, rack_jokers)
            m_cells, m_jokers = meld.tile_terms()
            for c in range(C):
                for v in range(N):
                    model.row({**m_cells[c][v], y[c][v]: -1.0}, -np.inf, 0)
            model.row({**m_jokers, yj: -1.0}, -np.inf, 0)
        model.row({**meld.value_terms(joker_counts), gate: -float(threshold)}, 0, np.inf)
    if official and touch_table:
        _official_rows(model, final, table, kept, y, more_run, more_group)
    sol = model.solve()
    if sol is None:
        return IPResult(False, [], np.zeros((C, N), np.int64), 0, [], [], 0)
    if kept:
        sol = _least_disturbing(model, sol, table, kept, heirs)
    played = np.array([[sol[y[c][v]] for v in range(N)] for c in range(C)], np.int64)
    kept_sets = [i for i, col in enumerate(kept) if sol[col]]
    score = int((played * weight).sum() + sol[yj] * joker_weight)
    sets = final.sets(sol)
    moved = -1
    if heirs:
        padded = np.append(sol, 0)
        stays = sum(int(table[i].counts.sum()) + table[i].jokers for i in kept_sets)
        for heir in heirs:
            sets += heir.sets(padded)
            stays += sum(int(padded[col]) for col in heir.stays)
        moved = sum(int(t.counts.sum()) + t.jokers for t in table) - stays
    return IPResult(True, sets, played, int(sol[yj]), kept_sets,
                    meld_sets.sets(sol) if meld_sets is not None else [], score, moved)


def _least_disturbing(model: _Model, sol: np.ndarray, table: list[TableSet],
                      kept: list[int], heirs: list[_Heir]) -> np.ndarray:
    """Least disturbance, lexicographically: with the objective held at its optimum, keep
    the most sets (two solves are much faster than one with mixed weights); with ``heirs``,
    then, with the kept count held too, the most table tiles in their set's continuation."""
    _hold_optimum(model, sol)
    model.cost = [0.0] * len(model.cost)
    for col in kept:
        model.cost[col] = 1.0
    sol = model.solve()
    if heirs:
        model.row(dict.fromkeys(kept, 1.0), float(sum(sol[col] for col in kept)), np.inf)
        model.cost = [0.0] * len(model.cost)
        for i, col in enumerate(kept):
            model.cost[col] = float(table[i].counts.sum() + table[i].jokers)
        for heir in heirs:
            for col, a in heir.stays.items():
                model.cost[col] += a
        sol = model.solve()
    return sol


def _hold_optimum(model: _Model, sol: np.ndarray) -> None:
    """Hold the objective at ``sol``'s optimum in the later solves.

    The weights are lexicographic (``major * 10**k + minor``, the minor parts of any
    solution summing to less than half a major unit): one row ``score >= best`` with
    coefficients near 10**7 let HiGHS's tolerances drop a few minor units (seed 21795 of
    test_rummikub_heirs: a tile fewer at the same value), so the major and the minor sums
    are held by two rows of small coefficients."""
    costs = {col: c for col, c in enumerate(model.cost) if c}
    if not costs:
        return
    unit = 10 ** len(str(int(max(abs(c) for c in costs.values()))))
    while unit > 1:  # the largest unit whose minor parts can never sum to one major unit
        unit //= 10
        major = {col: float(round(c / unit)) for col, c in costs.items()}
        minor = {col: c - unit * major[col] for col, c in costs.items()}
        if 2 * sum(abs(m) * model.upper[col] for col, m in minor.items()) < unit:
            break
    else:
        major, minor = costs, {}
    for part in (major, minor):
        terms = {col: a for col, a in part.items() if a}
        if terms:
            model.row(terms, float(sum(a * sol[col] for col, a in terms.items())), np.inf)


def _official_rows(model: _Model, final: _Arrangement, table: list[TableSet],
                   kept: list[int], y: list[list[int]], more_run: dict, more_group: dict
                   ) -> None:
    """Official joker retrieval: a table joker stays where it was (a run joker standing for
    the same tile, a group joker in a group of the same number) unless a tile it may stand
    for is played from the rack, one such tile for each joker taken."""
    run_jokers = final.run_joker_terms()
    for key, terms in more_run.items():  # jokers of the sets that continue table sets
        run_jokers.setdefault(key, {}).update(terms)
    stay_run: dict[tuple[int, int], dict[int, float]] = {}
    stay_group: dict[int, dict[int, float]] = {}
    need_run: dict[tuple[int, int], int] = {}
    need_group: dict[int, int] = {}
    replace: dict[tuple[int, int], dict[int, float]] = {}
    for i, s in enumerate(table):
        for kind, what, v in s.joker_places:
            taken = model.col(1)
            if kind == OFFICIAL_RUN:
                key = (what, v)
                terms = stay_run.setdefault(key, dict(run_jokers.get(key, {})))
                need_run[key] = need_run.get(key, 0) + 1
                colours = [what]
            else:
                terms = stay_group.setdefault(v, {final.gj[v]: 1.0, **more_group.get(v, {})})
                need_group[v] = need_group.get(v, 0) + 1
                colours = [c for c in range(final.spec.colours) if what >> c & 1]
            _add(terms, taken, 1.0)
            if kept:  # a kept set keeps its jokers where they were
                _add(terms, kept[i], 1.0)
            choose = {taken: -1.0}
            for c in colours:
                pick = model.col(1)
                choose[pick] = 1.0
                replace.setdefault((c, v), {})[pick] = 1.0
            model.row(choose, 0, 0)
    # A kept set holds its jokers twice in the sums above only if it has two at one place;
    # each joker of a kept set added the set's binary once, which is what it needs.
    for key, terms in stay_run.items():
        model.row(terms, need_run[key], np.inf)
    for v, terms in stay_group.items():
        model.row(terms, need_group[v], np.inf)
    for (c, v), terms in replace.items():
        model.row({**terms, y[c][v]: -1.0}, -np.inf, 0)
