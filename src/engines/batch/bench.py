"""``qipai bench``: our solver and the reference system, alternating on the same positions.

For each position, each solver runs ``repeat`` times, the two interleaved
(ours, reference, ours, reference, …) so that load from other processes hits
both alike; a position's time is the median of its runs.  The report gives the
median, mean and p90 of those per-position times for each solver and the ratio
ours/reference (below 1: we are faster), plus how often the answers agree.
Both solvers are warmed up (JIT compilation, library loading) before timing.

Each game registers its benchmarks (:func:`register_bench`, in its
``engines.<game>.tasks`` module; the solvers in ``engines.<game>.bench``):
bridge DD tables and opening leads against endplay 0.5.12 (DDS 2.9, one
thread), the Rummikub best move against rummikub-solver 1.0.0 (HiGHS).  A
reference that is not installed is skipped with a message; ours is still timed.
This module knows no game.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping
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
    """One ``qipai bench NAME``: how to load positions and build both solvers."""

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
    clock: Callable[[], float] = time.perf_counter,
) -> BenchResult:
    """Time ours and the reference on ``positions`` (or ``path``'s, or ``count`` generated).

    ``clock`` reads the time: the wall clock by default; ``time.process_time`` (the CPU
    time of every thread of this process) on a machine shared with other work."""
    try:
        spec = BENCHES[game]
    except KeyError:
        known = ", ".join(sorted(BENCHES))
        raise InputError(f"no benchmark for {game!r}; known: {known}") from None
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
    ours_times, ref_times, agree = time_alternating(ours, reference, objs, repeat, clock)
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
    ours: Solver,
    reference: Solver | None,
    objs: list[dict[str, Any]],
    repeat: int,
    clock: Callable[[], float] = time.perf_counter,
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
            start = clock()
            answer_ours = ours.solve(prepared_ours[i])
            runs_ours.append(clock() - start)
            if reference:
                if reference.forget:
                    reference.forget()
                start = clock()
                answer_ref = reference.solve(prepared_ref[i])
                runs_ref.append(clock() - start)
        ours_times.append(statistics.median(runs_ours))
        if reference:
            ref_times.append(statistics.median(runs_ref))
            agree += ours.answer(answer_ours) == reference.answer(answer_ref)
    return ours_times, ref_times, agree


def load_positions(path: str) -> list[dict[str, Any]]:
    """The positions of an input file, read as ``qipai batch`` reads it; a bad one raises."""
    from engines.batch.inputs import BadInput, read_inputs

    objs = []
    for item in read_inputs([path]):
        if isinstance(item, BadInput):
            raise InputError(str(item))
        objs.append(item.obj)
    return objs


class BenchRegistry(Mapping[str, BenchSpec]):
    """Name → :class:`BenchSpec`; reading it first loads every game's registrations."""

    def __init__(self) -> None:
        self._specs: dict[str, BenchSpec] = {}

    def add(self, name: str, spec: BenchSpec) -> None:
        self._specs[name] = spec

    def _load(self) -> None:
        from engines.batch.tasks import load_game_registrations

        load_game_registrations()

    def __getitem__(self, name: str) -> BenchSpec:
        self._load()
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        self._load()
        return iter(self._specs)

    def __len__(self) -> int:
        self._load()
        return len(self._specs)


BENCHES = BenchRegistry()


def register_bench(name: str, spec: BenchSpec) -> BenchSpec:
    """Add ``qipai bench NAME`` (a later registration of the same name replaces it)."""
    BENCHES.add(name, spec)
    return spec


__all__ = [
    "BENCHES",
    "BenchResult",
    "BenchSpec",
    "Solver",
    "load_positions",
    "register_bench",
    "run",
    "time_alternating",
]
