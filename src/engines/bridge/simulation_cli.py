"""``qipai bridge deal``, ``qipai bridge lead`` and ``qipai bridge contracts``.

``deal -n N [--north HAND …] [--constraints EXPR]`` prints ``N`` random deals
holding the given cards and satisfying the constraint expression (see
:mod:`engines.bridge.constraints`), as PBN deal lines or ``--json`` lines;
the acceptance rate goes to standard error.

``lead HAND --contract 3NT --by S [--constraints EXPR] -n 500`` deals ``N``
layouts around the opening leader's ``HAND`` (declarer's left-hand opponent)
and prints every lead's average tricks for the defence and share of deals
that set the contract, with 95 % intervals, equal cards grouped, best first.

``contracts --north HAND --south HAND [--constraints EXPR] -n 1000`` prints
North–South's DD tricks per strain and every contract's make rate, expected
score and IMPs against the best one.

Both simulations solve through the batch runner: with ``--db FILE`` every
deal's result is stored there (rerunning the same command resumes an
interrupted run; ``qipai report FILE`` plots the distributions), and
``--dask-scheduler``/``--dask-local`` solve on a Dask cluster as with ``qipai batch``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from engines.bridge.seats import BridgeInputError
from engines.cliargs import (
    add_count_flag,
    add_json_flag,
    add_progress_flags,
    add_seed_flag,
    add_threads_flag,
)
from engines.errors import QipaiError

__all__ = ["register", "store_solver"]

_PARTS = __doc__.split("\n\n")


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``deal``, ``lead`` and ``contracts`` to the ``qipai bridge`` group."""
    deal = commands.add_parser(
        "deal", help="random deals with fixed cards and constraints", description=_PARTS[1]
    )
    _dealing_flags(deal, default_count=10)
    add_json_flag(deal, 'print JSON Lines ({"pbn": ...}), one deal a line')
    deal.set_defaults(func=_run_deal)

    lead = commands.add_parser(
        "lead",
        help="simulate every opening lead of a hand against a contract",
        description=_PARTS[2] + "\n\n" + _PARTS[4],
    )
    lead.add_argument("hand", metavar="HAND", help="the leader's 13 cards, e.g. KQJ2.T98.765.432")
    lead.add_argument("--contract", required=True, help="contract, e.g. 3NT, 4S, 4Hx")
    lead.add_argument("--by", required=True, metavar="SEAT", help="declarer (N, E, S or W)")
    lead.add_argument(
        "--vul", default="None", help="vulnerability: None, NS, EW or Both (default None)"
    )
    _dealing_flags(lead, default_count=500)
    _solver_flags(lead)
    lead.set_defaults(func=_run_lead)

    contracts = commands.add_parser(
        "contracts",
        help="simulate every contract for North-South's hands",
        description=_PARTS[3] + "\n\n" + _PARTS[4],
    )
    _dealing_flags(contracts, default_count=1000)
    contracts.add_argument(
        "--strains", default=None, help="strains to solve, e.g. NT,S (default: all)"
    )
    contracts.add_argument(
        "--declarers", default="NS", help="declarers to consider: N, S or NS (default NS)"
    )
    contracts.add_argument(
        "--vul", default="None", help="vulnerability: None, NS, EW or Both (default None)"
    )
    contracts.add_argument(
        "--top", type=int, default=12, help="contracts to list, best first (default 12)"
    )
    _solver_flags(contracts)
    contracts.set_defaults(func=_run_contracts)


def _dealing_flags(parser: argparse.ArgumentParser, default_count: int) -> None:
    for seat in ("north", "east", "south", "west"):
        parser.add_argument(
            f"--{seat}",
            metavar="HAND",
            help=f"{seat.title()}'s cards as S.H.D.C (fewer than 13: those plus random ones)",
        )
    parser.add_argument(
        "--constraints",
        default=None,
        metavar="EXPR",
        help='e.g. "15 <= hcp(S) <= 17 and balanced(S) and hearts(N) >= 5"',
    )
    add_count_flag(parser, default_count, "deals")
    add_seed_flag(parser)
    parser.add_argument(
        "--max-tries",
        type=int,
        default=10_000_000,
        help="give up after dealing this many deals (default 10,000,000)",
    )


def _solver_flags(parser: argparse.ArgumentParser) -> None:
    add_json_flag(parser)
    add_threads_flag(parser)
    add_progress_flags(parser)
    parser.add_argument(
        "--db", default=None, help="store each deal's result here (resumable; qipai report)"
    )
    dask = parser.add_mutually_exclusive_group()
    dask.add_argument(
        "--dask-scheduler", metavar="ADDRESS", help="solve on an existing Dask cluster"
    )
    dask.add_argument(
        "--dask-local", type=int, metavar="N", help="solve on a local Dask cluster of N workers"
    )


def _fixed(args: argparse.Namespace) -> dict[str, str]:
    return {
        seat[0].upper(): getattr(args, seat)
        for seat in ("north", "east", "south", "west")
        if getattr(args, seat)
    }


def _run_deal(args: argparse.Namespace) -> int:
    from engines.bridge.dealer import deal

    sample = deal(
        args.count,
        fixed=_fixed(args),
        constraints=args.constraints,
        seed=args.seed,
        max_tries=args.max_tries,
    )
    for text in sample.to_pbn():
        print(json.dumps({"pbn": text}) if args.json else text)
    print(
        f"qipai: {sample.accepted} deals of {sample.tried:,} tried "
        f"(acceptance {sample.acceptance_rate:.3%}, seed {args.seed})",
        file=sys.stderr,
    )
    return 0


def store_solver(
    db: str | None,
    *,
    threads: int | None = None,
    dask_scheduler: str | None = None,
    dask_local: int | None = None,
    progress: bool | None = None,
    label: str = "simulation",
):
    """A simulation :data:`~engines.bridge.simulation.Solver` that runs the batch runner.

    The deals go to a JSON Lines file in a temporary folder, ``qipai batch``'s
    runner solves them into the store ``db`` (in memory when ``None``) on this
    machine or a Dask cluster, and the results come back in deal order.
    Positions already in the store are not solved again.
    """
    from engines.batch.runner import run_batch, run_batch_distributed
    from engines.batch.store import ResultStore
    from engines.batch.tasks import get_task

    def solve(task_name: str, payloads: list[dict[str, Any]]) -> list[Any]:
        task = get_task(task_name)
        store = ResultStore(db or ":memory:")
        try:
            with tempfile.TemporaryDirectory(prefix="qipai-") as folder:
                path = Path(folder) / f"{label}.jsonl"
                with path.open("w") as out:
                    for i, payload in enumerate(payloads):
                        out.write(json.dumps({"id": f"{label} #{i + 1}", **payload}) + "\n")
                kwargs = {"strict": True, "progress": progress, "on_bad_input": None}
                if dask_scheduler or dask_local:
                    from engines.batch.cli import _dask_client

                    with _dask_client(dask_scheduler, dask_local) as client:
                        run_batch_distributed(client, [str(path)], task, store, **kwargs)
                else:
                    run_batch([str(path)], task, store, jobs=threads, **kwargs)
            hashes = [task.input_hash(task.prepare(p)) for p in payloads]
            wanted = set(hashes)
            found = {
                row["input_hash"]: row
                for row in store.rows(task_name)
                if row["input_hash"] in wanted
            }
        finally:
            store.close()
        results = []
        for payload, key in zip(payloads, hashes):
            row = found.get(key)
            if row is None or row["error"]:
                reason = row["error"] if row else "no result stored"
                raise QipaiError(f"{task_name}: deal {payload['pbn']}: {reason}")
            results.append(row["result"])
        return results

    return solve


def _solver(args: argparse.Namespace, label: str):
    if args.dask_local is not None and args.dask_local < 1:
        raise BridgeInputError(f"--dask-local must be >= 1, got {args.dask_local}")
    return store_solver(
        args.db,
        threads=args.threads,
        dask_scheduler=args.dask_scheduler,
        dask_local=args.dask_local,
        progress=args.progress,
        label=label,
    )


def _run_lead(args: argparse.Namespace) -> int:
    from engines.bridge.simulation import simulate_lead

    sim = simulate_lead(
        args.hand,
        args.contract,
        args.by,
        n=args.count,
        constraints=args.constraints,
        fixed=_fixed(args),
        vulnerable=_declarer_vulnerable(args.vul, args.by),
        seed=args.seed,
        max_tries=args.max_tries,
        solver=_solver(args, f"lead-seed{args.seed}"),
    )
    print(json.dumps(sim.to_dict()) if args.json else sim)
    return 0


def _declarer_vulnerable(vulnerability: str, declarer: str) -> bool:
    from engines.bridge.seats import Seat, is_vulnerable, parse_vulnerability

    return is_vulnerable(parse_vulnerability(vulnerability), Seat.from_char(declarer))


def _run_contracts(args: argparse.Namespace) -> int:
    from engines.bridge.simulation import simulate_contracts

    fixed = _fixed(args)
    sim = simulate_contracts(
        fixed.pop("N", None),
        fixed.pop("S", None),
        n=args.count,
        constraints=args.constraints,
        fixed=fixed,
        vulnerability=args.vul,
        strains=args.strains,
        declarers=args.declarers,
        seed=args.seed,
        max_tries=args.max_tries,
        solver=_solver(args, f"contracts-seed{args.seed}"),
    )
    print(json.dumps(sim.to_dict(args.top)) if args.json else sim.text(args.top))
    return 0
