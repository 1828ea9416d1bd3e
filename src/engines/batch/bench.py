"""``qipai bench``: our solver and the reference system, alternating on the same positions.

For each position, each solver runs ``repeat`` times, the two interleaved
(ours, reference, ours, reference, …) so that load from other processes hits
both alike; a position's time is the median of its runs.  The report gives the
median, mean and p90 of those per-position times for each solver and the ratio
ours/reference (below 1: we are faster), plus how often the answers agree.
Both solvers are warmed up (JIT compilation, library loading) before timing.

References: endplay 0.5.12 (DDS 2.9, limited to one thread with
``SetMaxThreads(1)``) for bridge DD tables; rummikub-solver 1.0.0 (HiGHS
backend when installed) for the Rummikub best move.  A reference that is not
installed is skipped with a message; ours is still timed.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engines.batch.report import _fmt, percentile
from engines.errors import InputError


@dataclass
class Solver:
    """A named solver: ``prepare(obj)`` once per position, then ``solve(prepared)`` timed.

    ``forget``, when given, runs untimed before every timed solve: it makes a
    solver that keeps state between calls (DDS keeps its transposition table
    while the deal and trump stay the same) start each run cold.
    """

    name: str
    prepare: Callable[[dict[str, Any]], Any]
    solve: Callable[[Any], Any]
    answer: Callable[[Any], Any] = lambda result: result
    forget: Callable[[], Any] | None = None


@dataclass(frozen=True)
class BenchSpec:
    help: str
    default_count: int
    load: Callable[[str | None, int, int], list[dict[str, Any]]]
    ours: Callable[[], Solver]
    reference: Callable[[], Solver]
    reference_package: str
    reference_label: str
    agreement_note: str = ""


@dataclass
class BenchResult:
    game: str
    positions: int
    repeat: int
    ours_name: str
    ours: list[float]
    reference_name: str
    reference: list[float] | None = None
    agree: int = 0
    notes: list[str] = field(default_factory=list)
    agreement_note: str = ""

    def ratios(self) -> dict[str, float]:
        """Ours / reference: median, p90 and max of the per-position ratios, and total time."""
        if not self.reference:
            return {}
        per = [o / r for o, r in zip(self.ours, self.reference) if r > 0]
        total = sum(self.reference)
        if not per or total <= 0:
            return {}
        return {
            "median": statistics.median(per),
            "total": sum(self.ours) / total,
            "p90": percentile(per, 90),
            "max": max(per),
        }

    def text(self) -> str:
        lines = [f"qipai bench {self.game}: {self.positions} positions, {self.repeat} runs each"]
        lines += self.notes
        lines.append(_line(self.ours_name, self.ours))
        if self.reference is not None:
            lines.append(_line(self.reference_name, self.reference))
            ratios = self.ratios()
            if ratios:
                lines.append(
                    f"ratio ours/reference per position: median {ratios['median']:.3f}, "
                    f"p90 {ratios['p90']:.3f}, max {ratios['max']:.3f}; total time "
                    f"{ratios['total']:.3f}  (below 1: ours is faster)"
                )
            lines.append(
                f"answers agree on {self.agree}/{self.positions} positions"
                + (f" ({self.agreement_note})" if self.agreement_note else "")
            )
        return "\n".join(lines)


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1 (native libraries write there directly)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _line(name: str, times: list[float]) -> str:
    if not times:
        return f"{name}: no positions"
    return (
        f"{name}: per position median {_fmt(statistics.median(times))}, "
        f"mean {_fmt(statistics.fmean(times))}, p90 {_fmt(percentile(times, 90))}, "
        f"total {_fmt(sum(times))}"
    )


def run(
    game: str,
    *,
    path: str | None = None,
    count: int = 20,
    seed: int = 0,
    repeat: int = 3,
    positions: list[dict[str, Any]] | None = None,
) -> BenchResult:
    """Time ours and the reference on ``positions`` (or ``path``'s, or ``count`` generated)."""
    try:
        spec = BENCHES[game]
    except KeyError:
        raise InputError(f"no benchmark for {game!r}; known: {', '.join(BENCHES)}") from None
    objs = positions if positions is not None else spec.load(path, count, seed)
    ours = spec.ours()
    reference: Solver | None = None
    notes: list[str] = []
    if importlib.util.find_spec(spec.reference_package) is None:
        notes.append(
            f"reference {spec.reference_label} skipped: package {spec.reference_package!r} is "
            "not installed (pip install 'qipai[bench]'); timing ours only"
        )
    else:
        reference = spec.reference()
    ours_times, ref_times, agree = time_alternating(ours, reference, objs, repeat)
    return BenchResult(
        game=game,
        positions=len(objs),
        repeat=repeat,
        ours_name=ours.name,
        ours=ours_times,
        reference_name=reference.name if reference else spec.reference_label,
        reference=ref_times if reference else None,
        agree=agree,
        notes=notes,
        agreement_note=spec.agreement_note,
    )


def time_alternating(
    ours: Solver, reference: Solver | None, objs: list[dict[str, Any]], repeat: int
) -> tuple[list[float], list[float], int]:
    """Per-position median seconds of ours and of the reference, and how many answers agree.

    Both are warmed up first, then run interleaved position by position
    (ours, reference, ours, …) so that load from other processes hits both alike.
    """
    prepared_ours = [ours.prepare(o) for o in objs]
    prepared_ref = [reference.prepare(o) for o in objs] if reference else []
    if prepared_ours:
        # Warm-up outside the timed region: JIT compilation, tables, shared libraries
        # (and the banner HiGHS prints on its first model, which would garble our output).
        ours.solve(prepared_ours[0])
        if reference:
            with _quiet_stdout():
                reference.solve(prepared_ref[0])
    ours_times: list[float] = []
    ref_times: list[float] = []
    agree = 0
    for i in range(len(objs)):
        runs_ours: list[float] = []
        runs_ref: list[float] = []
        answer_ours = answer_ref = None
        for _ in range(repeat):
            if ours.forget:
                ours.forget()
            start = time.perf_counter()
            answer_ours = ours.solve(prepared_ours[i])
            runs_ours.append(time.perf_counter() - start)
            if reference:
                if reference.forget:
                    reference.forget()
                start = time.perf_counter()
                answer_ref = reference.solve(prepared_ref[i])
                runs_ref.append(time.perf_counter() - start)
        ours_times.append(statistics.median(runs_ours))
        if reference:
            ref_times.append(statistics.median(runs_ref))
            agree += ours.answer(answer_ours) == reference.answer(answer_ref)
    return ours_times, ref_times, agree


def _load_jsonl_or_pbn(path: str) -> list[dict[str, Any]]:
    from engines.batch.inputs import BadInput, read_inputs

    objs = []
    for item in read_inputs([path]):
        if isinstance(item, BadInput):
            raise InputError(str(item))
        objs.append(item.obj)
    return objs


# -- bridge ------------------------------------------------------------------------------------

_STRAINS = ("C", "D", "H", "S", "NT")
_SEATS = ("N", "E", "S", "W")


def _bridge_load(path: str | None, count: int, seed: int) -> list[dict[str, Any]]:
    from engines.bridge.generate import bridge_deals

    if path:
        return _load_jsonl_or_pbn(path)
    return list(bridge_deals(count, seed))


def _deal_text(obj: dict[str, Any]) -> str:
    text = obj.get("pbn") or obj.get("deal")
    if not isinstance(text, str):
        raise InputError(f"position {obj.get('id', '?')}: no 'pbn' deal string")
    return text


def _bridge_ours() -> Solver:
    from engines.bridge import Deal
    from engines.bridge.dd import dd_table

    def solve(deal: Any) -> Any:
        return dd_table(deal).to_dict()

    return Solver("qipai dd_table (1 thread)", lambda o: Deal.from_pbn(_deal_text(o)), solve)


def _forget_dds() -> Callable[[], Any]:
    """Solve a one-card deal: DDS's next call sees a new deal and starts from a cold table."""
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    other = EDeal("N:A... K... Q... J...")
    other.first = Player.north
    other.trump = Denom.nt
    return lambda: solve_board(other)


def _bridge_reference() -> Solver:
    from endplay import _dds
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EDeal

    _dds.SetMaxThreads(1)

    def answer(table: Any) -> dict[str, dict[str, int]]:
        if isinstance(table, dict):
            return table
        rows = table.to_list()  # endplay: [strain][player], strains S H D C NT, players N E S W
        order = {"S": 0, "H": 1, "D": 2, "C": 3, "NT": 4}
        return {s: {p: rows[order[s]][i] for i, p in enumerate(_SEATS)} for s in _STRAINS}

    return Solver(
        "endplay/DDS calc_dd_table (1 thread)",
        lambda o: EDeal(_deal_text(o)),
        calc_dd_table,
        answer,
        forget=_forget_dds(),
    )


def _bridge_lead_ours() -> Solver:
    from engines.bridge import Deal
    from engines.bridge.dd import solve_position

    def solve(deal: Any) -> dict[str, int]:
        return {str(card): tricks for card, tricks in solve_position(deal, "NT", "W").items()}

    return Solver(
        "qipai solve_position (NT, West leads, 1 thread)",
        lambda o: Deal.from_pbn(_deal_text(o)),
        solve,
    )


def _bridge_lead_reference() -> Solver:
    from endplay import _dds
    from endplay.dds import solve_board
    from endplay.types import Deal as EDeal
    from endplay.types import Denom, Player

    _dds.SetMaxThreads(1)

    def prepare(obj: dict[str, Any]) -> Any:
        deal = EDeal(_deal_text(obj))
        deal.first = Player.west
        deal.trump = Denom.nt
        return deal

    def answer(result: Any) -> dict[str, int]:
        if isinstance(result, dict):
            return result
        return {f"{'SHDC'[int(card.suit)]}{card.rank.abbr}": tricks for card, tricks in result}

    return Solver(
        "endplay/DDS SolveBoard (all cards, 1 thread)",
        prepare,
        lambda deal: list(solve_board(deal)),
        answer,
        forget=_forget_dds(),
    )


# -- rummikub ----------------------------------------------------------------------------------


def _rummikub_load(path: str | None, count: int, seed: int) -> list[dict[str, Any]]:
    from engines.rummikub.generate import rummikub_positions

    if path:
        return _load_jsonl_or_pbn(path)
    return list(rummikub_positions(count, seed, table_tiles=(0, 24), rack_size=(5, 14)))


def _rummikub_ours() -> Solver:
    from engines.rummikub import Position, best_moves

    return Solver(
        "qipai best_moves (tiles, 1 thread)",
        Position.from_json,
        lambda pos: best_moves([pos], objective="tiles", threads=1)[0],
        lambda move: int(move.tiles),
    )


def _rummikub_reference() -> Solver:
    from rummikub_solver import MILPSolver, RuleSet

    backend = MILPSolver.HIGHS if MILPSolver.HIGHS in MILPSolver.supported() else None
    rules = RuleSet(solver_backend=backend)
    # rummikub-solver numbers tiles colour-major in the order black, blue, orange, red.
    colour_index = {"K": 0, "B": 1, "O": 2, "R": 3}
    joker = rules.tiles[-1]

    def tile(text: str) -> Any:
        if text == "J":
            return joker
        return rules.tiles[13 * colour_index[text[0]] + int(text[1:]) - 1]

    def prepare(obj: dict[str, Any]) -> Any:
        state = rules.new_game()
        state.add_table(*(tile(t) for s in obj.get("table", []) for t in s))
        state.add_rack(*(tile(t) for t in obj.get("rack", [])))
        state.initial = not obj.get("initial_meld_done", True)
        return state

    def answer(solution: Any) -> int:
        return 0 if solution is None else len(solution.tiles)

    name = f"rummikub-solver {rules.backend.value if rules.backend else ''} (RuleSet.solve)"
    return Solver(name.replace(" )", ")"), prepare, rules.solve, answer)


def _bridge_bench(
    help: str, ours: Callable[[], Solver], reference: Callable[[], Solver]
) -> BenchSpec:
    return BenchSpec(help, 20, _bridge_load, ours, reference, "endplay", "endplay/DDS")


BENCHES: dict[str, BenchSpec] = {
    "bridge": _bridge_bench(
        "DD tables: qipai vs endplay/DDS (1 thread) on the same deals",
        _bridge_ours,
        _bridge_reference,
    ),
    "bridge-lead": _bridge_bench(
        "opening lead, every card scored (NT, West leads): qipai vs endplay/DDS SolveBoard",
        _bridge_lead_ours,
        _bridge_lead_reference,
    ),
    "rummikub": BenchSpec(
        help="best move (most tiles): qipai vs rummikub-solver on the same positions",
        default_count=50,
        load=_rummikub_load,
        ours=_rummikub_ours,
        reference=_rummikub_reference,
        reference_package="rummikub_solver",
        reference_label="rummikub-solver",
        agreement_note="tiles played; the stock package differs on some positions: it adds "
        "table moves to an initial meld and lacks some joker sets (Rummikub corpus README)",
    ),
}

__all__ = ["BENCHES", "BenchResult", "Solver", "run", "time_alternating"]
