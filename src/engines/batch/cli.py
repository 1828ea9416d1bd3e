"""Top-level batch commands: ``qipai gen``, ``batch``, ``results``, ``report`` and ``bench``.

``register(subparsers)`` receives the top-level subparsers of ``qipai``.
Heavy modules (engines, dask, matplotlib) are imported inside the handlers.
"""

from __future__ import annotations

import argparse
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engines.errors import InputError
from engines.progress import add_progress_flags

DEFAULT_DB = "qipai-results.sqlite"


def register(subparsers: Any) -> None:
    _register_gen(subparsers)
    _register_batch(subparsers)
    _register_results(subparsers)
    _register_report(subparsers)
    _register_bench(subparsers)


# -- gen --------------------------------------------------------------------------------------


def _register_gen(subparsers: Any) -> None:
    gen = subparsers.add_parser(
        "gen",
        help="generate random positions (bridge deals, Rummikub positions, Shengji cases)",
        description="Generate seeded random positions for `qipai batch` and `qipai bench`.",
    )
    games = gen.add_subparsers(title="games", metavar="GAME")
    gen.set_defaults(func=lambda _a: gen.print_help() or 0)

    def common(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("-n", "--count", type=int, default=100, help=f"number of {what} (100)")
        p.add_argument("--seed", type=int, default=0, help="random seed (0)")
        p.add_argument("-o", "--output", default="-", help="output file (default: stdout)")

    bridge = games.add_parser(
        "bridge",
        help="random deals as PBN or JSON Lines",
        description="Random deals, dealt like the reference corpus (Python's Mersenne "
        "Twister shuffle of 52 cards; N, E, S, W get 13 each).",
    )
    common(bridge, "deals")
    bridge.add_argument("-f", "--format", choices=("pbn", "jsonl"), default="pbn")
    bridge.add_argument(
        "--rotate",
        action="store_true",
        help="dealer and vulnerability by board number (dealer N E S W, the 16-board "
        "vulnerability cycle); default: dealer N, nobody vulnerable",
    )
    bridge.add_argument("--first-board", type=int, default=1, help="first board number (1)")
    bridge.add_argument(
        "--cards",
        type=int,
        default=13,
        help="cards per hand: below 13 deals random endings of that many tricks "
        "(JSON Lines only; 13)",
    )
    bridge.set_defaults(func=_gen_bridge)

    rummikub = games.add_parser(
        "rummikub",
        help="random Rummikub positions (JSON Lines, corpus format)",
        description="Random positions: tables of valid runs and groups from the 106-tile "
        "set, racks drawn from the rest.",
    )
    common(rummikub, "positions")
    rummikub.add_argument(
        "--table-tiles", default="0-30", help="tiles on the table, N or MIN-MAX (0-30)"
    )
    rummikub.add_argument("--rack-size", default="5-14", help="rack tiles, N or MIN-MAX (5-14)")
    rummikub.add_argument(
        "--jokers",
        type=float,
        default=0.3,
        help="probability that each joker is in play, on the table or in the rack (0.3)",
    )
    rummikub.add_argument(
        "--initial-meld-rate",
        type=float,
        default=0.2,
        help="share of positions where the initial meld is still to be made (0.2)",
    )
    rummikub.set_defaults(func=_gen_rummikub)

    shengji = games.add_parser(
        "shengji",
        help="random Shengji follow/throw/trick cases (conformance format, no `expected`)",
        description="Random cases in the conformance-case format (rules section 15).",
    )
    common(shengji, "cases")
    shengji.add_argument(
        "--kinds",
        default="follow_legal,legal_follows_count,trick_winner,throw_valid",
        help="comma-separated case kinds, cycled in order (all four)",
    )
    shengji.set_defaults(func=_gen_shengji)


@contextmanager
def _output(path: str):
    if path == "-":
        yield sys.stdout
        sys.stdout.flush()
    else:
        try:
            handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise InputError(f"{path}: cannot write: {exc.strerror}") from exc
        with handle:
            yield handle


def _write_jsonl(records: Any, out: Any) -> int:
    import json

    n = 0
    for record in records:
        out.write(json.dumps(record, separators=(", ", ": ")) + "\n")
        n += 1
    return n


def _check_count(n: int) -> None:
    if n < 0:
        raise InputError(f"--count must be >= 0, got {n}")


def _gen_bridge(args: argparse.Namespace) -> int:
    from engines.batch.generate import bridge_deals, write_pbn

    _check_count(args.count)
    if args.cards != 13 and args.format == "pbn":
        raise InputError("endings (--cards below 13) are written as JSON Lines: add -f jsonl")
    deals = bridge_deals(
        args.count, args.seed, rotate=args.rotate, first_board=args.first_board, cards=args.cards
    )
    with _output(args.output) as out:
        if args.format == "pbn":
            write_pbn(deals, out, event=f"qipai gen bridge --seed {args.seed}")
        else:
            _write_jsonl(deals, out)
    return 0


def _gen_rummikub(args: argparse.Namespace) -> int:
    from engines.batch.generate import parse_range, rummikub_positions

    _check_count(args.count)
    positions = rummikub_positions(
        args.count,
        args.seed,
        table_tiles=parse_range(args.table_tiles),
        rack_size=parse_range(args.rack_size),
        joker_rate=args.jokers,
        initial_meld_rate=args.initial_meld_rate,
    )
    with _output(args.output) as out:
        _write_jsonl(positions, out)
    return 0


def _gen_shengji(args: argparse.Namespace) -> int:
    from engines.batch.generate import shengji_cases

    _check_count(args.count)
    kinds = tuple(k.strip() for k in args.kinds.split(",") if k.strip())
    if not kinds:
        raise InputError("--kinds names no case kind")
    with _output(args.output) as out:
        _write_jsonl(shengji_cases(args.count, args.seed, kinds=kinds), out)
    return 0


# -- batch ------------------------------------------------------------------------------------


def _task_help() -> str:
    from engines.batch.tasks import TASKS

    return "; ".join(f"{t.name}: {t.summary}" for t in sorted(TASKS.values(), key=lambda t: t.name))


def _register_batch(subparsers: Any) -> None:
    from engines.batch.tasks import TASKS

    batch = subparsers.add_parser(
        "batch",
        help="run a task over many positions on all cores or a Dask cluster, resumably",
        description="Run TASK on every position of the input files (PBN or JSON Lines) and "
        "store one row per position in an SQLite database. Rerunning the same command after "
        "an interruption resumes: stored positions are neither recomputed nor duplicated. "
        "Bad input lines are reported (file:line: reason) and skipped. Exit status: 0, or 1 "
        "when the solver refused some position (its row holds the error), 2 for unusable "
        "input (with --strict: the first bad line), 130 when interrupted.",
    )
    batch.add_argument(
        "files", nargs="+", metavar="FILE", help="PBN or JSON Lines input (- = stdin)"
    )
    batch.add_argument(
        "-t",
        "--task",
        required=True,
        choices=sorted(TASKS),
        metavar="TASK",
        help=f"what to compute. {_task_help()}",
    )
    batch.add_argument("--db", default=DEFAULT_DB, help=f"result database ({DEFAULT_DB})")
    batch.add_argument(
        "-j",
        "--threads",
        type=int,
        default=None,
        help="threads (native engines) or worker processes (default: all cores)",
    )
    batch.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        help="positions per solver call and per committed transaction (task default)",
    )
    batch.add_argument(
        "--strict", action="store_true", help="stop at the first bad input line (exit 2)"
    )
    add_progress_flags(batch)
    dask = batch.add_mutually_exclusive_group()
    dask.add_argument(
        "--dask-scheduler",
        metavar="ADDRESS",
        help="run on an existing Dask cluster (e.g. tcp://10.0.0.5:8786)",
    )
    dask.add_argument(
        "--dask-local",
        type=int,
        metavar="N",
        help="start a local Dask cluster of N single-threaded worker processes for this run",
    )
    batch.set_defaults(func=_batch)


def _batch(args: argparse.Namespace) -> int:
    from engines.batch.runner import BatchInterrupted, run_batch, run_batch_distributed
    from engines.batch.store import ResultStore

    if args.threads is not None and args.threads < 1:
        raise InputError(f"--threads must be >= 1, got {args.threads}")
    if args.chunk_size is not None and args.chunk_size < 1:
        raise InputError(f"--chunk-size must be >= 1, got {args.chunk_size}")
    for path in args.files:
        if path != "-" and not Path(path).is_file():
            raise InputError(f"{path}: no such input file")
    store = ResultStore(args.db)
    try:
        if args.dask_scheduler or args.dask_local:
            with _dask_client(args.dask_scheduler, args.dask_local) as client:
                summary = run_batch_distributed(
                    client,
                    args.files,
                    args.task,
                    store,
                    chunk_size=args.chunk_size,
                    strict=args.strict,
                    progress=args.progress,
                )
        else:
            summary = run_batch(
                args.files,
                args.task,
                store,
                jobs=args.threads,
                chunk_size=args.chunk_size,
                strict=args.strict,
                progress=args.progress,
            )
    except BatchInterrupted as exc:
        print(f"qipai: {exc}", file=sys.stderr)
        print(f"qipai: {exc.summary}", file=sys.stderr)
        return 130
    finally:
        store.close()
    print(f"{summary}; results in {args.db}", file=sys.stderr)
    return 1 if summary.solver_errors else 0


@contextmanager
def _dask_client(address: str | None, local_workers: int | None):
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise InputError(
            "Dask is not installed: pip install 'qipai[dist]' (dask[distributed])"
        ) from None
    if address:
        try:
            client = Client(address, timeout="20s")
        except OSError as exc:
            raise InputError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
        with client:
            yield client
        return
    if local_workers is not None and local_workers < 1:
        raise InputError(f"--dask-local must be >= 1, got {local_workers}")
    with (
        LocalCluster(
            n_workers=local_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


# -- results / report -------------------------------------------------------------------------


def _register_results(subparsers: Any) -> None:
    results = subparsers.add_parser(
        "results", help="inspect and export a result database", description="Result databases."
    )
    commands = results.add_subparsers(title="results commands", metavar="COMMAND")
    results.set_defaults(func=lambda _a: results.print_help() or 0)
    export = commands.add_parser(
        "export",
        help="export as CSV or JSON Lines",
        description="One row per stored position with its input id, source file and line, "
        "task, input hash, input, result (JSON), error, seconds and solver version.",
    )
    export.add_argument("db", metavar="DB")
    export.add_argument("-f", "--format", choices=("csv", "jsonl"), default="jsonl")
    export.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    export.add_argument("-t", "--task", default=None, help="only this task's rows")
    export.set_defaults(func=_export)


def _export(args: argparse.Namespace) -> int:
    from engines.batch.export import export
    from engines.batch.store import ResultStore

    with ResultStore.open_existing(args.db) as store, _output(args.output) as out:
        n = export(store, out, args.format, task=args.task)
    if args.output != "-":
        print(f"exported {n} rows to {args.output}", file=sys.stderr)
    return 0


def _register_report(subparsers: Any) -> None:
    report = subparsers.add_parser(
        "report",
        help="summary and plots of a result database (PNG + one HTML page)",
        description="Print counts, throughput, p50/p90/p99 seconds per position and errors; "
        "write plots (time histograms, DD tricks per strain, par scores, Rummikub tiles "
        "played…) as PNG files and one self-contained HTML page.",
    )
    report.add_argument("db", metavar="RESULTS.sqlite")
    report.add_argument(
        "-o", "--output-dir", default=None, help="where to write the files (default: DB-report/)"
    )
    report.add_argument("--no-plots", action="store_true", help="text summary only")
    report.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    from engines.batch.report import summary_text, write_report
    from engines.batch.store import ResultStore

    with ResultStore.open_existing(args.db) as store:
        print(summary_text(store))
        if args.no_plots:
            return 0
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise InputError(
                "plots need matplotlib: pip install 'qipai[report]' (or use --no-plots)"
            ) from None
        out_dir = args.output_dir or str(Path(args.db).with_suffix("")) + "-report"
        page = write_report(store, out_dir)
    print(f"report: {page} (PNG files beside it)")
    return 0


# -- bench ------------------------------------------------------------------------------------


def _register_bench(subparsers: Any) -> None:
    from engines.batch import bench

    parser = subparsers.add_parser(
        "bench",
        help="time our solver and the reference system on the same positions",
        description="Run our solver and the reference (endplay/DDS with 1 thread; "
        "rummikub-solver) alternately on the same positions; print per-position medians and "
        "the ratio ours/reference.",
    )
    games = parser.add_subparsers(title="games", metavar="GAME")
    parser.set_defaults(func=lambda _a: parser.print_help() or 0)
    for game, spec in bench.BENCHES.items():
        p = games.add_parser(game, help=spec.help, description=spec.help)
        p.add_argument("file", nargs="?", help="positions to time (default: generate --count)")
        p.add_argument("-n", "--count", type=int, default=spec.default_count)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument(
            "-r", "--repeat", type=int, default=3, help="timed runs per position and solver (3)"
        )
        p.set_defaults(func=_bench, game=game)


def _bench(args: argparse.Namespace) -> int:
    from engines.batch import bench

    if args.repeat < 1:
        raise InputError(f"--repeat must be >= 1, got {args.repeat}")
    _check_count(args.count)
    result = bench.run(
        args.game, path=args.file, count=args.count, seed=args.seed, repeat=args.repeat
    )
    print(result.text())
    return 0
