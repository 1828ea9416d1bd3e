"""What a batch run did (:class:`BatchSummary`) and how it ends: its status as it ends
(:func:`_statuses`, Ctrl-C raising :class:`BatchInterrupted`) and the run's row in the store
(:func:`_end_run`).  Shared by the runner's loops (:mod:`engines.batch.runner`,
:mod:`engines.batch.placed`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engines.batch.inputs import BadInput
from engines.batch.store import ResultStore
from engines.errors import QipaiError


@dataclass
class BatchSummary:
    """What a run did.

    Every position read is counted once: ``computed`` (stored now; a solver
    refusal is stored too and also counted in ``solver_errors``),
    ``already_stored`` (also when another run, started meanwhile, stored it
    first: see :meth:`ResultStore.claim_digests`), ``other_run`` (another live
    run on the same database had claimed it), ``duplicates`` (repeated in the
    input), ``rejected`` (a record the task could not read; also in
    ``bad_inputs``, with the lines that were not records at all), or, after an
    interruption, still pending (:attr:`unfinished`).
    """

    task: str
    positions: int = 0
    computed: int = 0
    already_stored: int = 0
    other_run: int = 0
    duplicates: int = 0
    rejected: int = 0
    solver_errors: int = 0
    bad_inputs: list[BadInput] = field(default_factory=list)
    seconds: float = 0.0
    status: str = "running"

    @property
    def unfinished(self) -> int:
        """Positions read but neither stored nor skipped (only after an interruption)."""
        accounted = self.computed + self.already_stored + self.other_run + self.duplicates
        return self.positions - accounted - self.rejected

    def __str__(self) -> str:
        rate = self.computed / self.seconds if self.seconds > 0 else 0.0
        parts = [
            f"{self.task}: {self.positions} positions read",
            f"{self.computed} computed",
            f"{self.already_stored} already stored",
        ]
        if self.other_run:
            parts.append(f"{self.other_run} left to another run computing them")
        if self.duplicates:
            parts.append(f"{self.duplicates} repeated in the input")
        parts.append(f"{len(self.bad_inputs)} bad input lines")
        parts.append(f"{self.solver_errors} solver errors")
        return ", ".join(parts) + f" in {self.seconds:.1f} s ({rate:.1f} positions/s)"


class BatchInterrupted(QipaiError):
    """Raised (from KeyboardInterrupt) after the completed chunks have been stored."""

    def __init__(self, summary: BatchSummary) -> None:
        super().__init__(
            f"interrupted: {summary.computed} new results stored; rerun the same command to resume"
        )
        self.summary = summary


@contextlib.contextmanager
def _statuses(summary: BatchSummary, interrupted: Callable[[], None],
              failed: Callable[[], None]) -> Iterator[None]:  # fmt: skip
    """A run's status as it ends: ``finished``; ``interrupted`` (Ctrl-C: ``interrupted()``
    stores what is solved, then :class:`BatchInterrupted`); ``failed`` (``failed()``, then
    the error goes on)."""
    try:
        yield
        summary.status = "finished"
    except KeyboardInterrupt:
        summary.status = "interrupted"
        interrupted()
        raise BatchInterrupted(summary) from None
    except BaseException:
        summary.status = "failed"
        failed()
        raise


def _end_run(db: ResultStore, run_id: int, summary: BatchSummary, *, close: bool) -> None:
    """Record how the run ended (also when it failed) and close a store the run opened."""
    db.end_run(
        run_id,
        computed=summary.computed,
        skipped=summary.already_stored + summary.duplicates,
        bad_inputs=len(summary.bad_inputs),
        status=summary.status,
    )
    if close:
        db.close()
